"""The round-four corpus, held to 97 % recall and 3 % false positives, sample by sample (the
one out of reach marked so, with its reason); and the classes of secret it showed the
rules missing, each held by cases of our own in other words and languages (never the corpus's
strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

import pytest

from dreamd.redaction import MASK, find_secrets, redact
from dreamd.redaction.finding import BLOCK_MASK, VENDOR_PREFIXES, mask_of
from tests import redaction_corpus_round4
from tests.corpus_checks import changed, masked, planted, sample_cases, surviving
from tests.redaction_corpus_fresh import Lookalike, Sample

SAMPLES = redaction_corpus_round4.secret_samples()
LOOKALIKES = redaction_corpus_round4.lookalikes()

# Samples no rule reaches without masking ordinary text too, by how they start.
OUT_OF_REACH = {
    "it's ": "no word names the value, and its only symbol is a hyphen, which words hold too",
}


def _reason(sample: Sample) -> str | None:
    return next((why for start, why in OUT_OF_REACH.items() if sample.text.startswith(start)), None)


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """300+ planted items in 25+ families, and look-alikes are 30 % of the texts or more."""
    families = {s.family for s in SAMPLES}
    share = len(LOOKALIKES) / (len(LOOKALIKES) + len(SAMPLES))
    assert (planted(SAMPLES) >= 300, len(families) >= 25, share >= 0.3) == (True, True, True)


def test_recall_is_at_least_97_percent() -> None:
    """At most 3 % of the planted items survive redaction (they are listed when more do)."""
    misses = surviving(SAMPLES)
    assert len(misses) <= planted(SAMPLES) * 0.03, "\n".join(misses)


def test_false_positives_are_at_most_3_percent() -> None:
    """At most 3 % of the look-alikes are changed by redaction (they are listed when more are)."""
    positives = changed(LOOKALIKES)
    assert len(positives) <= len(LOOKALIKES) * 0.03, "\n".join(positives)


@pytest.mark.parametrize("sample", sample_cases(SAMPLES, _reason))
def test_each_sample_loses_its_secrets(sample: Sample) -> None:
    """Every planted item of the sample is gone from its redaction (case aside)."""
    assert [s for s in sample.secrets if not masked(sample.text, s)] == []


@pytest.mark.parametrize(
    "lookalike", [pytest.param(x, id=f"{x.family}-{i}") for i, x in enumerate(LOOKALIKES)]
)
def test_each_lookalike_comes_through_unchanged(lookalike: Lookalike) -> None:
    """A look-alike's redaction is the look-alike, byte for byte."""
    assert redact(lookalike.text) == lookalike.text


def test_a_mask_reveals_at_most_a_vendor_prefix_or_a_webhooks_host() -> None:
    """Every mask is ``***``, a block mask, a vendor prefix the value starts with followed by
    ``***``, or (a webhook) the scheme and host of its URL followed by ``/***``."""
    allowed = {MASK, BLOCK_MASK} | {prefix + MASK for prefix in VENDOR_PREFIXES}
    found = []
    for sample in SAMPLES:
        for finding in find_secrets(sample.text):
            value = sample.text[finding.start : finding.end]
            mask = mask_of(finding.kind, value).rstrip("\n")
            host = value[: value.find("/", value.find("://") + 3) + 1] if "://" in value else ""
            kept = "" if mask == BLOCK_MASK else mask.removesuffix(MASK)
            webhook = finding.kind == "webhook" and mask == host + MASK
            if not webhook and (mask not in allowed or not value.startswith(kept)):
                found.append(f"{value!r} -> {mask!r}")
    assert found == []


def test_redacting_the_corpus_twice_changes_nothing() -> None:
    """A redacted text holds nothing the rules would mask again."""
    twice = [s.text for s in SAMPLES if redact(redact(s.text)) != redact(s.text)]
    assert twice == []


# --- password words of more languages --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Паролата на лаптопа е Vitosha#77 от днес", "Vitosha#77"),
        ("Lozinka za ruter je Sava!2031, nemoj je dijeliti", "Sava!2031"),
        ("Лозинка за пошту: Zlatibor_44x", "Zlatibor_44x"),
        ("Geslo za banko sem spremenil v Soca#1991", "Soca#1991"),
        ("Slaptažodis yra Vilnius*2040", "Vilnius*2040"),
        ("Tīkla parole ir Gauja#5560", "Gauja#5560"),
        ("Arvuti parool on Emajogi!12", "Emajogi!12"),
        ("Lykilorðið fyrir bankann er Esja#1914", "Esja#1914"),
        ("La contrasenya del portàtil és Tibidabo#33", "Tibidabo#33"),
        ("Ordenagailuaren pasahitza Urola#2028 da", "Urola#2028"),
        ("Ang password ng laptop ay Taal!Lake90", "Taal!Lake90"),
        ("Fjalëkalimi i laptopit është Drini#2026", "Drini#2026"),
        ("Die wagwoord vir die skootrekenaar is Tafelberg#9", "Tafelberg#9"),
        ("Y cyfrinair i'r banc yw Eryri#2031", "Eryri#2031"),
        ("Kata kunci akaun ialah Langkawi#88", "Langkawi#88"),
        ("La pasvorto de la komputilo estas Zamenhof#1887", "Zamenhof#1887"),
    ],
)
def test_password_words_of_more_languages_give_their_value(text: str, secret: str) -> None:
    """Bulgarian, Serbo-Croatian in both scripts, Slovenian (a change and its v), Lithuanian,
    Latvian, Estonian, Icelandic, Catalan, Basque (the verb after the value), Tagalog, Albanian,
    Afrikaans, Welsh, Malay, Esperanto: each word and the verb that gives its value."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Паролата се сменя на всеки три месеца.",
        "Lozinka mora imati barem 12 znakova.",
        "Slaptažodį rasi slaptažodžių tvarkyklėje.",
        "La contrasenya és a la caixa forta de l'equip.",
        "Ang password ay nasa 1Password, huwag ipadala dito.",
        "the parole board meets on 2027-02-01",
        "Parole mit 12 Zeichen sind Pflicht.",
    ],
)
def test_password_talk_in_more_languages_stays(text: str) -> None:
    """Rules, a place, a manager; English parole, German Parole (slogans)."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "The passphrase — the one Omar picked last spring, after the old laptop died and "
            "nobody could remember anything — is Quokka#Tundra42.",
            "Quokka#Tundra42",
        ),
        (
            "the password (the long one from the onboarding email sent by the IT desk) is "
            "Ferry!Tide2029",
            "Ferry!Tide2029",
        ),
        ("ルーターのpwはKx7#Lm2Qz9です", "Kx7#Lm2Qz9"),
        ("服务器的password是Changjiang#58吧", "Changjiang#58"),
        ("pw's Hx4!Lm9Qz2 for the shared box", "Hx4!Lm9Qz2"),
    ],
)
def test_asides_cjk_neighbours_and_contractions_are_read_past(text: str, secret: str) -> None:
    """An aside between dashes or in brackets after the password word, a Latin password word
    written against Japanese or Chinese, ``pw's``."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "The password — which nobody had changed since 2019 — was finally rotated.",
        "the password (see the handbook for the policy) must be long",
        "if passwd != confirm_passwd: raise ValueError",
        "def check_pin(pin: str) -> bool:",
        "contraseña de la impresora: pregúntale a Marta",
        "Passwort für den Drucker: frag Jonas",
    ],
)
def test_asides_comparisons_types_and_asking_give_no_value(text: str) -> None:
    """An aside with no value after it, a comparison, a type's name, asking someone."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('TOKEN = rb"Zq8w!Lm2pX9rTt5vBn3c"', "Zq8w!Lm2pX9rTt5vBn3c"),
        ('{"cmd": "login(password=\\"Wr1tten!Esc4ped\\")"}', "Wr1tten!Esc4ped"),
        ("SESSION_SECRET_HEX=4f1c9e2b7a6d8c3e5f0a1b2c3d4e5f60", "4f1c9e2b7a6d8c3e5f0a1b2c3d4e5f60"),
    ],
)
def test_literal_prefixes_escaped_quotes_and_form_words_are_read_past(
    text: str, secret: str
) -> None:
    """A bytes literal's prefix, a JSON string's escaped quotes, a key ending in the form of its
    value (``_HEX``)."""
    assert masked(text, secret)


# --- chat phrasings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("so I typed Rv8#kLq2Zm into the portal and it let me in", "Rv8#kLq2Zm"),
        ("could you try Tm4!zQ8xLp? IT says that's the new one", "Tm4!zQ8xLp"),
        ("u: ops p: Hq3$zW8!mN", "Hq3$zW8!mN"),
        ("printer: admin / Pr1nt!Room7", "Pr1nt!Room7"),
        ("the wifi in the attic is just Attic#Fox2031", "Attic#Fox2031"),
        ("Q: pw for the NAS?\nA: Nas!Box2030", "Nas!Box2030"),
        ("the VPN login (ignore the old card):\nVpn#Card2031x", "Vpn#Card2031x"),
        ("alarm code reset, it's 4417 now", "4417"),
    ],
)
def test_chat_phrasings_give_their_value(text: str, secret: str) -> None:
    """Typed into a site, offered in a question, shorthand pairs, a Wi-Fi password after a
    filler, a question and its answer, a login's next line, a code that changed."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "should we try Python3.13? it is out",
        "I typed npm-ci into the terminal",
        "roles: admin / editor / viewer",
        "u: admin p: (same as the router)",
        "Login:\nmarta.k42",
        "Q: password for the NAS?\nA: ask Marta",
        "alarm code reset, it's in the drawer now",
        "the wifi upstairs is just slow",
    ],
)
def test_chat_talk_without_a_value_stays(text: str) -> None:
    """A version, a command, roles, a note, a user's name, a pointer, prose."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("fyi the old one was Qv7!mZ2xLp9, keep it somewhere", "Qv7!mZ2xLp9"),
        ("- Tk4#wL9mQz2R (for the garage tablet)", "Tk4#wL9mQz2R"),
        ("> yes, it's (Bn8^rT3qLx) now", "Bn8^rT3qLx"),
    ],
)
def test_a_lone_word_that_can_only_be_a_password_ismasked(text: str, secret: str) -> None:
    """Upper and lower case, a digit and a symbol no word is written with, inside the word:
    a password whatever is said around it."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Summer2026! was a good one",
        "Is that Python3?",
        "play Cmaj7#11 then G7b9",
        "see Issue#4521 and PR#88",
        "ping Username#0 on the server",
        "details in NOTES.md#L12",
        "pkg 2.34~Ubuntu1 is installed",
        "the regex [A-Za-z0-9!#]+ matches it",
        "**Deploy2#main** is green",
    ],
)
def test_words_with_such_symbols_that_are_no_password_stay(text: str) -> None:
    """A sentence's end, a chord, issue and chat-handle numbers, a file's anchor, a version, a
    pattern, bold text."""
    assert redact(text) == text


# --- commands, logs and configuration ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("rar a -pBackup#2031x photos.rar photos/", "Backup#2031x"),
        ("lftp -u deploy,Ftp!Push77 ftp://mirror.local", "Ftp!Push77"),
        ("redis> AUTH default Cache#Rd2031", "Cache#Rd2031"),
        ("gh secret set DEPLOY_TOKEN Dp9xQ2mLk7Zt4RvW8nBc", "Dp9xQ2mLk7Zt4RvW8nBc"),
        (
            "$s = ConvertTo-SecureString -Force -AsPlainText -String 'Ps!Flag2031'",
            "Ps!Flag2031",
        ),
        (
            '<setting name="ApiToken" serializeAs="String"><value>Tk9!wLm2Qz7x</value></setting>',
            "Tk9!wLm2Qz7x",
        ),
        ("sf sid 00D5g000004XyZaB!" + "AQ4AQ" * 16, "00D5g000004XyZaB!" + "AQ4AQ" * 16),
    ],
)
def test_more_commands_and_settings_give_their_secret(text: str, secret: str) -> None:
    """rar's -p, lftp's user,password, AUTH with a user, a secret-named setting given to
    ``secrets set``, SecureString flags in another order, a .NET setting, a Salesforce id."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "git config set core.editor nvim",
        "npm config set fund false",
        "250-AUTH LOGIN PLAIN XOAUTH2",
        "unrar x -o+ backup.rar",
        '<setting name="Theme" serializeAs="String"><value>dark-2024</value></setting>',
        "ConvertTo-SecureString $env:VAULT_PW -AsPlainText -Force",
    ],
)
def test_commands_without_a_secret_stay(text: str) -> None:
    """Settings that name no secret, an SMTP server's offer, flags, a variable."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "https://id.example.org/verify?otp_link=Qm7ZxW2kLp9RtV4nBc8DfG3h&lang=en",
            "Qm7ZxW2kLp9RtV4nBc8DfG3h",
        ),
        (
            "https://sso.example.net/login?st=TGT-98-Kq8ZxW2mPt4RvLs9YbNc3DfG",
            "Kq8ZxW2mPt4RvLs9YbNc",
        ),
    ],
)
def test_a_random_query_value_is_masked_whatever_its_name(text: str, secret: str) -> None:
    """A query parameter's random value is a secret's whatever the parameter is called."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "https://shop.example.com/p?utm_campaign=Kq8ZxW2mPt4RvLs9YbNc&utm_medium=mail",
        "https://news.example.com/a?fbclid=IwAR3Kq8ZxW2mPt4RvLs9YbNc3DfGhJkLmNoPqRs",
        "job_id=7f3c9a1e2b4d6f8a0c1e3b5d7f9a2c4e attempt=2",
        "Host key: SHA256:Zr4vQm8xKp2LtW6nBc9DfG3hJk5MnPq7RsTu1VwXyZa",
        "PublicKey = Zr4vQm8xKp2LtW6nBc9DfG3hJk5MnPq7RsTu1VwXyZa=",
        "auth: ok user=ana password=*** ip=10.4.2.9",
        "https://github.com/acme/app/network/dependents?package_id=UmVwb3NpdG9yeS00ODIxMzM3Nw",
        'phone = phonenumbers.parse("+120012301", None)',
    ],
)
def test_trackers_ids_fingerprints_public_keys_and_masks_stay(text: str) -> None:
    """A tracker's ids, a job's hex id after its name, a fingerprint, a public key, a value
    already masked (what follows it is no value), an API's global id in base64, an invalid
    international number after a phone word."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("token, in three parts:\n- Qm7ZxW2k\n- Lp9RtV4n\n- Bc8DfG3h", ["Qm7ZxW2k", "Lp9RtV4n"]),
        ("1. 7c3e9a1f\n2. 2b4d6f8a\n(the deploy key, split in two)", ["7c3e9a1f", "2b4d6f8a"]),
    ],
)
def test_announced_pieces_are_eachmasked(text: str, secrets: list[str]) -> None:
    """List items that the line before or after says hold a secret in pieces."""
    assert [s for s in secrets if not masked(text, s)] == []


@pytest.mark.parametrize(
    "text",
    [
        "the key parts of the release:\n- v2.4.0\n- v2.5.0",
        "split the token work in two:\n- design\n- rollout",
    ],
)
def test_lists_beside_piece_words_without_pieces_stay(text: str) -> None:
    """Versions and steps after words about parts of a key or a token."""
    assert redact(text) == text


# --- national numbers, documents, phones, births, cards, e-mails ------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("JMBG: 1508965715948", "1508965715948"),
        ("moja EMŠO je 1806004500790", "1806004500790"),
        ("asmens kodas 39202209687", "39202209687"),
        ("isikukood: 36003145408", "36003145408"),
        ("personas kods 141103-27416", "141103-27416"),
        ("AMKA 21017248028", "21017248028"),
        ("IDNP: 2911929743476", "2911929743476"),
        ("ИИН 541218353734", "541218353734"),
        ("کد ملی: 9630464764", "9630464764"),
        ("FIN/NRIC S4632003D", "S4632003D"),
        ("visitor HKID U827686(A)", "U827686(A)"),
        ("身分證字號：C275043869", "C275043869"),
        ("IC 820825-08-7089", "820825-08-7089"),
        ("34465-5522159-5", "34465-5522159-5"),
        ("СНИЛС: 522-675-941 00", "522-675-941 00"),
        ("fødselsnummeret er 27125829460", "27125829460"),
        ("adóazonosító jel 8462192331", "8462192331"),
    ],
)
def test_national_ids_of_more_countries_aremasked(text: str, secret: str) -> None:
    """After their names (a name's ending too: fødselsnummeret), or by a shape and a check only
    they have (a Hong Kong card with its check in brackets, MyKad, CNIC, СНИЛС)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Order 1508965715948 shipped",
        "ticket 39202209687 closed",
        "batch U827686(3) failed QA",
        "part 34465-5522159 in stock",
        "SKU 522-675-941 restocked",
    ],
)
def test_numbers_of_those_shapes_without_their_names_stay(text: str) -> None:
    """The same digits with no id's name, a Hong Kong card shape whose check fails, shapes cut
    short."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("broj putovnice 112233445", "112233445"),
        ("vegabréf nr. A1122334", "A1122334"),
        ("রোগীর জন্ম তারিখ: ০৫-০৩-১৯৮৮", "০৫-০৩-১৯৮৮"),
        ("rođen 14.02.1983. u Zagrebu", "14.02.1983"),
        ("sünniaeg: 30.11.1975", "30.11.1975"),
        ("farsími 777 1234", "777 1234"),
        ("মোবাইল: ০১৮১৯-১২৩৪৫৬", "০১৮১৯-১২৩৪৫৬"),
        ("kortanúmer 4539 4785 9814 1430, öryggiskóði 555", "555"),
        ("pišite: nina.k majmunče yahoo točka com", "nina.k majmunče yahoo točka com"),
        ("email: zaid di gmail titik com", "zaid di gmail titik com"),
    ],
)
def test_documents_births_phones_cards_and_emails_of_more_languages(text: str, secret: str) -> None:
    """Croatian and Icelandic passports, Bengali, Croatian (its final full stop) and Estonian
    birth dates, Icelandic and Bengali phones, an Icelandic card code, spelled addresses."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "our dog was born on 2021-06-02",
        "Date of Birth column renamed on 2026-10-01",
        "Pizza di Napoli, punto vendita 3",
        "Kaip sekasi? eta nebuvo",
        "tarikh mesyuarat: 12/08/2026",
    ],
)
def test_births_and_spelled_words_that_name_no_one_stay(text: str) -> None:
    """A pet's birth, a form's column, Italian di, Basque-looking eta, a meeting's date."""
    assert redact(text) == text
