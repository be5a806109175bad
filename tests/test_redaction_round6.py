"""The round-six corpus, held to 97 % recall and 3 % false positives, sample by sample; and the
classes of secret it showed the rules missing, each held by cases of our own in other words
(never the corpus's strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round6
from tests.corpus_checks import masked, planted, rate_cases, sample_cases
from tests.redaction_corpus_fresh import Sample

SAMPLES = redaction_corpus_round6.secret_samples()
LOOKALIKES = redaction_corpus_round6.lookalikes()

# Samples no rule reaches without masking ordinary text too, by their family (none so far).
OUT_OF_REACH: dict[str, str] = {}


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """200+ planted items in 40+ families, and look-alikes are 30 % of the texts or more."""
    sizes = (planted(SAMPLES), len({s.family for s in SAMPLES}), len(LOOKALIKES) / len(SAMPLES))
    assert sizes[0] >= 200 and sizes[1] >= 40 and sizes[2] >= 0.3 / 0.7, sizes


@pytest.mark.parametrize(("wrong", "total"), rate_cases(SAMPLES, LOOKALIKES))
def test_at_most_3_percent_are_wrong(
    wrong: Callable[[], list[str]], total: Callable[[], int]
) -> None:
    """At most 3 % of the planted items survive redaction, and at most 3 % of the look-alikes
    are changed by it (they are listed when more are)."""
    errors = wrong()
    assert len(errors) <= total() * 0.03, "\n".join(errors)


@pytest.mark.parametrize("sample", sample_cases(SAMPLES, lambda s: OUT_OF_REACH.get(s.family)))
def test_each_sample_loses_its_secrets(sample: Sample) -> None:
    """Every planted item of the sample is gone from its redaction."""
    assert [s for s in sample.secrets if not masked(sample.text, s)] == []


# --- the classes of secret the corpus showed, in our own words ---------------------------

# (class, text, secret), the classes being: password words of more languages, a value named
# after its word, a CJK word at a line's end, digits after a CJK PIN word ("languages and
# orders"); number words, spelling alphabets, the rest of a password given in parts, codes
# that open locks ("spelled, pieces and locks"); router and switch keys, a printed key file,
# an expect script's answer, a proxy user, one-time codes ("devices, scripts and codes");
# named word phrases, grouped keys, accounts, IBANs over lines, national and health numbers,
# cards, keys as bytes, character codes, LaTeX macros, session cookies ("phrases, accounts,
# ids, cards, keys, disguises").
READ = [
    ("languages and orders", "Pasiwedhi yeWi-Fi yemusha: Mutare#4417", "Mutare#4417"),
    ("languages and orders", "Pasword bilong email bilong mi em Lae_Harbor77", "Lae_Harbor77"),
    ("languages and orders", "Кистэлэҥ тыла почтаҕа Yakutsk!2209", "Yakutsk!2209"),
    ("languages and orders", "Jecha icciitii haaraa: Adama_2031x", "Adama_2031x"),
    ("languages and orders", "Ur7!kQz9Lm — dat is dat nee Passwoort vun de Mailbox", "Ur7!kQz9Lm"),
    (
        "languages and orders",
        "Send it to Hx4#pLw2Qe, the password I set for the shared box",
        "Hx4#pLw2Qe",
    ),
    ("languages and orders", "電郵密碼\nMongKok#88z", "MongKok#88z"),
    ("languages and orders", "金庫の暗証番号は 482913 です", "482913"),
    (
        "spelled, pieces and locks",
        "the safe's combination, spelled out on the call: one, eight, zero, three, seven",
        "one, eight, zero, three, seven",
    ),
    (
        "spelled, pieces and locks",
        "gave Priya the VPN pw over the phone: B as in Bravo, lowercase t, 6, exclamation mark, Q as in Quebec",
        "B as in Bravo, lowercase t, 6",
    ),
    (
        "spelled, pieces and locks",
        "Kennwort zum Mitschreiben: Gustav, Emil, Otto, drei, neun, Raute",
        "Gustav, Emil, Otto, drei, neun",
    ),
    (
        "spelled, pieces and locks",
        "mot de passe : R comme Raoul, 4, S comme Suzanne, tiret, 7",
        "R comme Raoul, 4",
    ),
    ("spelled, pieces and locks", "part 1 of the wifi password: Qx7m\npart 2: Lk!93z", "Lk!93z"),
    (
        "spelled, pieces and locks",
        "the key lockbox on the balcony railing opens with 7 3 0 5",
        "7 3 0 5",
    ),
    ("spelled, pieces and locks", "padlock on the shed: 4182", "4182"),
    ("spelled, pieces and locks", "Dial 55021 on the keypad by the gate, then wait", "55021"),
    ("spelled, pieces and locks", "We set the wall safe to 906113 yesterday", "906113"),
    ("devices, scripts and codes", "tacacs-server host 10.9.9.9 key Sw1tch!Key77", "Sw1tch!Key77"),
    ("devices, scripts and codes", "radius-server key R4d1us-Shared", "R4d1us-Shared"),
    ("devices, scripts and codes", " ip ospf authentication-key 0spfPass", "0spfPass"),
    (
        "devices, scripts and codes",
        "$ cat ~/.secrets/api.token\nq8LmT2vXr9Zp4WcB",
        "q8LmT2vXr9Zp4WcB",
    ),
    (
        "devices, scripts and codes",
        'expect "Password for ops:"\nsend "Tern#Cove31\\r"',
        "Tern#Cove31",
    ),
    ("devices, scripts and codes", "curl -U squid:Pr0xy!Squid http://intranet/", "Pr0xy!Squid"),
    ("devices, scripts and codes", "Your Telegram code: 61 42 09", "61 42 09"),
    ("devices, scripts and codes", "código do Instagram: 482-113", "482-113"),
    ("devices, scripts and codes", "sign-in code for the new phone: W7K4P", "W7K4P"),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Trezor recovery words (24 words):\nfalcon ember igloo hazel jasmine goblet cactus bramble zephyr yonder wander velvet thimble salmon ribbon quiver parrot oyster nectar marble lantern fossil cobalt glacier",
        "falcon ember igloo hazel",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "backup key for the chat app: 1234 9988 7766 5544 3322 1100 9876 5432",
        "1234 9988 7766 5544",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Nordea kontonummer 1234.56.78903 for husleia",
        "1234.56.78903",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "CLABE: 002180700123456789",
        "002180700123456789",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "계좌번호 110-234-567890 (신한)",
        "110-234-567890",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "лицевой счёт 40817810099910004312",
        "40817810099910004312",
    ),
    ("phrases, accounts, ids, cards, keys, disguises", "IBAN: FI21 1234 5600\n0007 85", "0007 85"),
    ("phrases, accounts, ids, cards, keys, disguises", "my BVN: 22154876390", "22154876390"),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Versichertennummer auf der eGK: K284619305",
        "K284619305",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "PhilHealth no. 12-050123456-7",
        "12-050123456-7",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "MBI 5JK2-AD3-CE45 for mom's Medicare",
        "5JK2-AD3-CE45",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "napas card 9704 1234 5678 9015 exp 03/29",
        "9704 1234 5678 9015",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Visa 4111 1111 1111 1111, 09/28, 737",
        "737",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "wallet.json: [12,200,33,41,55,66,77,88,99,100,111,122,133,144,155,166,177,188,199,210,221,232,243,254,1,2,3,4,5,6,7,9]",
        "12,200,33,41,55,66",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "const secret = String.fromCharCode(77,97,112,108,101,35,50,49,120);",
        "77,97,112,108,101",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "\\def\\apitoken{Zq9#Lm2Xv7Rp}",
        "Zq9#Lm2Xv7Rp",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Cookie: JSESSIONID=8F3A21C9B0D4E5F6A7B8C9D0E1F2A3B4; theme=light",
        "8F3A21C9B0D4E5F6A7B8C9D0E1F2A3B4",
    ),
]

# (class, text): look-alikes of the same classes.
KEPT = [
    ("languages and orders", "Pasword i stap long buk"),
    ("languages and orders", "v2.4.1, the password manager release, ships Friday"),
    ("languages and orders", "Ops_Ticket42, the password policy draft"),
    ("languages and orders", "密码2024年3月改过"),
    ("spelled, pieces and locks", "the code freeze starts on Monday: one, two, three days to go"),
    ("spelled, pieces and locks", "Alpha, Bravo, Charlie and Delta squads"),
    ("spelled, pieces and locks", "the lockbox manual is on page 12"),
    ("spelled, pieces and locks", "set the thermostat to 2150 watts, then leave"),
    ("spelled, pieces and locks", "the gate opens at 0800 every weekday"),
    ("spelled, pieces and locks", "Door: 1204, Room: 5"),
    ("devices, scripts and codes", "radius-server host 10.0.0.5 auth-port 1812"),
    ("devices, scripts and codes", "key chain OSPF-KEYS"),
    ("devices, scripts and codes", "  key takeaways"),
    ("devices, scripts and codes", "Your code review is due Friday"),
    ("devices, scripts and codes", "Telegram channel 1001234567"),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "wallet: keys, cards, receipts, coins, stickers, notes, tickets, photos, stamps, pens, mints, gum",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "we wrote down twelve words of the song: hello darkness my old friend I come to talk with you again",
    ),
    ("phrases, accounts, ids, cards, keys, disguises", "Cookie: locale=fr-CA; consent=yes"),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Set-Cookie: theme=dark; Max-Age=31536000; Path=/",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "Solana address 9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "npub1sn0wdenkukak0d9dfczzeacvhkrgz92ak56egt7vdgzn8pv2wfqqhrjdv9",
    ),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "golang.org/x/net v0.25.0 h1:d/OCCoBEUq33pjydKrGQhw7IlUPI2Oylr+8qLx49kac=",
    ),
    ("phrases, accounts, ids, cards, keys, disguises", "account opened 12.03.2019 in Oslo"),
    ("phrases, accounts, ids, cards, keys, disguises", "the BVN rollout started in 2014"),
    (
        "phrases, accounts, ids, cards, keys, disguises",
        "temperatures between 10/27 and 11/03 were mild",
    ),
    ("phrases, accounts, ids, cards, keys, disguises", "\\newcommand{\\vect}[1]{\\mathbf{#1}}"),
    ("phrases, accounts, ids, cards, keys, disguises", "String.fromCharCode(72,105)"),
    ("phrases, accounts, ids, cards, keys, disguises", "01000001 is the letter A"),
]


@pytest.mark.parametrize(("text", "secret"), [pytest.param(t, s, id=c) for c, t, s in READ])
def test_our_cases_of_each_class_are_read(text: str, secret: str) -> None:
    """A case of ours of each class the corpus showed the rules missing loses its secret."""
    assert masked(text, secret)


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in KEPT])
def test_our_look_alikes_of_each_class_stay(text: str) -> None:
    """A look-alike of ours of each class comes through byte for byte."""
    assert redact(text) == text
