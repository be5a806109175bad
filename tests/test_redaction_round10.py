"""The round-ten corpus, held to 97 % recall and 3 % false positives, sample by sample; and the
classes of secret it showed the rules missing, each tested with cases of our own wording
(never the corpus's strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round10
from tests.corpus_checks import (
    lookalike_cases,
    masked,
    planted,
    rate_cases,
    revealing,
    sample_cases,
)
from tests.redaction_corpus_fresh import Lookalike, Sample

SAMPLES = redaction_corpus_round10.secret_samples()
LOOKALIKES = redaction_corpus_round10.lookalikes()


def _out_of_reach(sample: Sample) -> str | None:
    """What no general rule reads, and why."""
    if "szerelő száma" in sample.text:
        return "a Hungarian number in its national grouping after 'its number', no phone word"
    if "wifi Zambezi" in sample.text:
        return "'wifi' and a value with no verb or separator: a network's name is written so too"
    if "accounts: [" in sample.text:
        return "a bare 64-hex key in a list named 'accounts': a hash or an id is written so too"
    if "FIREBASE_PRIVATE_KEY_ID" in sample.text:
        return "a key's id, named as an id: public in every signature it makes"
    if "and the Netflix one?" in sample.text:
        return "the question names no secret ('the Netflix one'), only the thread does"
    return None


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """400+ planted items in 45+ families, and look-alikes are 30 % of the texts or more."""
    sizes = (planted(SAMPLES), len({s.family for s in SAMPLES}), len(LOOKALIKES) / len(SAMPLES))
    assert sizes[0] >= 400 and sizes[1] >= 45 and sizes[2] >= 0.3 / 0.7, sizes


@pytest.mark.parametrize(("wrong", "total"), rate_cases(SAMPLES, LOOKALIKES))
def test_at_most_3_percent_are_wrong(
    wrong: Callable[[], list[str]], total: Callable[[], int]
) -> None:
    """At most 3 % of the planted items survive redaction, and at most 3 % of the look-alikes
    are changed by it (they are listed when more are)."""
    errors = wrong()
    assert len(errors) <= total() * 0.03, "\n".join(errors)


@pytest.mark.parametrize("sample", sample_cases(SAMPLES, _out_of_reach))
def test_each_sample_loses_its_secrets(sample: Sample) -> None:
    """Every planted item of the sample is gone from its redaction."""
    assert [s for s in sample.secrets if not masked(sample.text, s)] == []


def _kept_on_purpose(lookalike: Lookalike) -> str | None:
    """Look-alikes the rules change on purpose, and why."""
    if "Keizersgracht" in lookalike.text or "渋谷区" in lookalike.text:
        return "a street address is masked on purpose, a company's too (docs/redaction.md)"
    if "\tEAN\t" in lookalike.text:
        return "a barcode under its column's name: a number rule reads no column's header"
    return None


@pytest.mark.parametrize("lookalike", lookalike_cases(LOOKALIKES, _kept_on_purpose))
def test_each_look_alike_stays(lookalike: Lookalike) -> None:
    """Every look-alike comes through byte for byte."""
    assert redact(lookalike.text) == lookalike.text


def test_no_mask_reveals_more_than_a_vendor_prefix() -> None:
    """Masks keep nothing of a secret but its vendor's fixed prefix (a webhook keeps its scheme
    and host, which are no secret)."""
    assert [r for r in revealing(SAMPLES) if not r.startswith("'http")] == []


# --- the classes of secret the corpus showed, in our own words ---------------------------

_ARC_B = "y8j+KVXlzY5G3I7Ut8J2TSpaTXZ3BvhdhpACSta9o0Ab6cjLzMk19s0fYSJq4VM4rho0AE0zug0kasBMgbG68g=="

# (class, text, secret)
READ = [
    # numbers in a CSV's fields, and after a colon of another script
    ("csv field", "who,mobile\nPim,+66 89 123 4567\n", "+66 89 123 4567"),
    ("csv field", "holder,pan,exp\nR. Ito,4556737586899855,08/30\n", "4556737586899855"),
    ("colon of another script", "電話：090-8765-4321（佐藤）", "090-8765-4321"),
    # ids after their names
    ("id by name", "DNI del inquilino 27.345.678", "27.345.678"),
    ("id by name", "SSS 33-4567890-1 for the loan", "33-4567890-1"),
    ("id by name", "cpr 0707614285 (til lægen)", "0707614285"),
    ("id by name", "fnr 010190 12345 på skjemaet", "010190 12345"),
    ("id by name", "TAJ 034 567 891", "034 567 891"),
    ("id by name", "IC number 880412105566", "880412105566"),
    ("id by name", "burgerservicenummer van Sanne: 111222333", "111222333"),
    ("id by name", "cod numeric personal 1850312123456", "1850312123456"),
    ("id by name", "NID card, 17 digits long: 19901234567890123", "19901234567890123"),
    ("id by name", "CBU 2850590940090418135201", "2850590940090418135201"),
    ("iban of no registry", "Sheba: IR310550123456789012345678", "IR310550123456789012345678"),
    # columns that name ids and authenticator seeds
    ("id column", "Nume;CNP\nIon;1960215123456\n", "1960215123456"),
    ("seed column", "title,otpauth\nMail,UJZDEGXDNCF32EPF3DHODZDOCIS2JHTL\n", "UJZDEGXDNCF32EPF"),
    # account, passport, PIN and password words
    ("account words", "tuma kwa akaunti ya KCB 1234567890123", "1234567890123"),
    ("account words", "No. akaun CIMB: 8001234567", "8001234567"),
    ("account words", "เลขที่บัญชีไทยพาณิชย์ 123-4-56789-0", "123-4-56789-0"),
    ("account words", "হিসাব নম্বর 1234567890 দিন", "1234567890"),
    ("account words", "kontonummeret mitt er 1234.56.78901", "1234.56.78901"),
    ("passport words", "passport Maria X1234567 (valid till 2033)", "X1234567"),
    ("passport words", "hộ chiếu số C1234567", "C1234567"),
    ("passport words", "pasaporte (vigente) PA1234567", "PA1234567"),
    ("pin words", "пін-код 2580, не кажи нікому", "2580"),
    ("pin words", "รหัส ATM 7391", "7391"),
    ("pin words", "קוד סודי 4829", "4829"),
    ("pin words", "رمز کارت 5931", "5931"),
    ("password words", "mật mã mới Hoasen@2024", "Hoasen@2024"),
    # calendar and vCard escapes
    ("calendar", "BEGIN:VEVENT\nDESCRIPTION:Webex\\nPasscode: 739201\nEND:VEVENT", "739201"),
    ("calendar", "BEGIN:VCARD\nNOTE:gate code 4417\\, garage 9920\nEND:VCARD", "4417"),
    # codes someone was sent, recovery keys on the next line
    ("sent code", "the code you sent me is 448213, right?", "448213"),
    ("sent code", "they sent me a code: 902113", "902113"),
    (
        "recovery key",
        "restore key:\nQ7RT-M2KD-8HXW-PL4N-ZC6V-J9BE",
        "Q7RT-M2KD-8HXW-PL4N-ZC6V-J9BE",
    ),
    # SQL inserts, chat answers, OAuth codes, a change of an unnamed thing
    ("insert", "INSERT INTO members (login, pin) VALUES ('bo', '8812');", "8812"),
    (
        "insert",
        "INSERT INTO accounts (id, email, password, role) VALUES (7, 'ana', 'Harbor!2031', 'staff');",
        "Harbor!2031",
    ),
    (
        "chat answer",
        "[3/1/31, 10:02:11] Ana: what's the router password?\n[3/1/31, 10:03:40] Ben: Gr8-Lemon!",
        "Gr8-Lemon!",
    ),
    ("chat answer", "5/2/31, 8:00 AM - Leo: door code?\n5/2/31, 8:01 AM - Mia: 90417", "90417"),
    (
        "oauth code",
        "GET /cb?code=4/0ANYvMIHa_2o76umfXfKm_r5kJP1VrT-1FJors_6ILi8IHn5kxs&state=x",
        "NYvMIHa_2o76umfXfKm",
    ),
    ("changed it", "I reset it to Oktober#2031 after the phishing mail", "Oktober#2031"),
    (
        "dotted passphrase",
        "the NAS admin: Tamarind.orbit.5521 (from Bitwarden)",
        "Tamarind.orbit.5521",
    ),
]

# (class, text): what the rules changed and no longer do
KEPT = [
    ("secret's name as a value", "auth:\n  passwordSecretKey: mariadb-root-password\n"),
    ("attribute after a key", '<input type="password" autocomplete="new-password" maxlength="40">'),
    ("mail signature", f"ARC-Seal: i=1; a=rsa-sha256; cv=none; d=mail.example;\n b={_ARC_B}"),
    ("message id", "In-Reply-To: <CAB9x7Qk2mP4rT8wL1nZ6@mail.example>"),
    ("company number", "Organisasjonsnummer 923 609 016"),
    ("company number", "ondernemingsnummer 0458.123.456"),
    ("order number", "ordrenummer 5512-8830 er afsendt"),
    ("order number", "注文番号 230401-1234"),
    ("version in a string", "<key>CFBundleVersion</key><string>20240101.3</string>"),
]

# (class, text, kept): the CSV row after an IBAN keeps its first word
NEXT_ROW = [
    (
        "csv row after an IBAN",
        "nume,salariu,iban\nX,4000,RO49AAAA1B31007593840000\nContabil 2,4100,RO09BCYP0000001234567890\n",
        "Contabil",
    ),
]

# (class, text): what the new rules must not take (they stayed before the rules, and stay)
GUARDS = [
    (
        "chat answer of words",
        "[3/1/31, 10:02:11] Ana: wifi password?\n[3/1/31, 10:03:40] Ben: fridge",
    ),
    ("chat answer of a time", "5/2/31, 8:00 AM - Leo: what code?\n5/2/31, 8:01 AM - Leo: 1234"),
    ("changed to a version", "changed it to v3.2.1 last week, then set it to 2048 bits"),
    ("insert of placeholders", "INSERT INTO users (email, password) VALUES (?, ?)"),
    ("insert of a flag", "INSERT INTO audit (event, password_changed) VALUES ('login', true)"),
    ("sent code as work", "they sent the code 3 times; I sent code 1234 lines long"),
    ("csv of amounts", "amount,currency\n1,250,000,EUR\n"),
    ("calendar of commas", "BEGIN:VEVENT\nLOCATION:Room 4\\, floor 2\nEND:VEVENT"),
    ("passport office", "Passport Office opens at 0900; passport photo (35x45) 2 copies"),
    ("dotted names", "see Fig.one.12, Python.org.123, api.example.com and Report.final.2024.pdf"),
]


@pytest.mark.parametrize(("text", "secret"), [pytest.param(t, s, id=c) for c, t, s in READ])
def test_our_cases_of_each_class_are_read(text: str, secret: str) -> None:
    """A case of ours of each class the corpus showed the rules missing loses its secret."""
    assert masked(text, secret)


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in KEPT])
def test_our_look_alikes_of_each_class_stay(text: str) -> None:
    """A look-alike of ours of each class comes through byte for byte."""
    assert redact(text) == text


@pytest.mark.parametrize(("text", "kept"), [pytest.param(t, k, id=c) for c, t, k in NEXT_ROW])
def test_a_word_that_starts_the_next_row_stays(text: str, kept: str) -> None:
    """A token is not joined to the word the next line starts with."""
    assert kept in redact(text)


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in GUARDS])
def test_the_new_rules_take_no_look_alike(text: str) -> None:
    """What the new rules read in shape but must leave: words, times, versions, placeholders."""
    assert redact(text) == text
