"""The round-eleven corpus, held to 97 % recall and 3 % false positives, sample by sample; and the
classes of secret it showed the rules missing, each tested with cases of our own wording
(never the corpus's strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round11
from tests.corpus_checks import (
    lookalike_cases,
    masked,
    planted,
    rate_cases,
    revealing,
    sample_cases,
)
from tests.redaction_corpus_fresh import Lookalike, Sample

SAMPLES = redaction_corpus_round11.secret_samples()
LOOKALIKES = redaction_corpus_round11.lookalikes()


def _out_of_reach(sample: Sample) -> str | None:
    """What no general rule reads yet, and why."""
    if "the usual one but with a 2" in sample.text:
        return "a random value after 'i.e.' in a hint: no secret word, too short for entropy"
    if "the year the house was built" in sample.text:
        return "a safe's code given as a year and a sum: nothing shapes it as a code"
    return None


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_quarter_look_alikes() -> None:
    """400+ planted items in 100+ families, and look-alikes are a quarter of the texts."""
    sizes = (planted(SAMPLES), len({s.family for s in SAMPLES}), len(LOOKALIKES) / len(SAMPLES))
    assert sizes[0] >= 400 and sizes[1] >= 100 and sizes[2] >= 0.25 / 0.75, sizes


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
    if "sysContact" in lookalike.text:
        return "an e-mail address is masked wherever it stands, a team's too (personal data)"
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

# (class, text, secret)
READ = [
    # ids after their names, with an abbreviation of "number" or a series between
    ("id by name", "PPSN 1234567TA for the Revenue form", "1234567TA"),
    ("id by name", "her UTR is 12345 67890, due in January", "12345 67890"),
    ("id by name", "National ID No. 63-1234567X42 (renewal)", "63-1234567X42"),
    ("id by name", "NHI ZAB1234 at the clinic", "ZAB1234"),
    ("id by name", "health card # 1234-567-890-XY expires soon", "1234-567-890-XY"),
    ("id by name", "Регистрийн дугаар УБ12345678", "УБ12345678"),
    ("id by name", "cédula de ciudadanía 1020304050 del titular", "1020304050"),
    ("id by name", "my CI is 3.456.789-2", "3.456.789-2"),
    ("id by name", "NRC 12/MaYaNa(N)123456 on the form", "12/MaYaNa(N)123456"),
    ("id by name", "Centrelink CRN 123 456 789A", "123 456 789A"),
    ("id by name", "D-nummer for the student: 41018512345", "41018512345"),
    ("id by check digit", "her BIS number 85.41.22-100.51", "85.41.22-100.51"),
    ("atin", "the ATIN 912-93-4567 until the SSN arrives", "912-93-4567"),
    # secrets in links
    ("stream key", "server rtmp://ingest.example.tv/live/sk9Ab3cD7eF2gH", "sk9Ab3cD7eF2gH"),
    (
        "bridge user",
        "GET http://192.168.1.5/api/Zx9kQ2mV7bN4cR8tY1uI5oP3aS6dF0gHjKlM/groups",
        "Zx9kQ2mV7bN4cR8tY1uI5oP3aS6dF0gHjKlM",
    ),
    ("proxy link", "hy2://Kx7$pQ2m9vL4@proxy.example.net:8443#home", "Kx7$pQ2m9vL4"),
    ("proxy link", "vmess://eyJhZGQiOiAiaG9zdCIsICJpZCI6ICI0ZjEyIn0=", "eyJhZGQiOiAiaG9zdCIsICJ"),
    # tools' own settings
    ("z-wave key", "S2_AccessControl: 0F1E2D3C4B5A69788796A5B4C3D2E1F0", "0F1E2D3C4B5A6978"),
    (
        "key as bytes",
        "network_key: [1, 35, 69, 103, 137, 171, 205, 239, 254, 220, 186, 152, 118, 84, 50, 16]",
        "137, 171, 205",
    ),
    ("game server token", "sv_setsteamaccount 0123456789ABCDEF0123456789ABCDEF", "0123456789ABC"),
    ("settings export", "Servers\\lab\\Password<|||>1<|||>9f8e7d6c5b4a39281706", "9f8e7d6c5b4a"),
    ("homekit code", "the HomeKit code on the plug: 123-45-678", "123-45-678"),
    ("device passcode", "tablet passcode 90817 for grandma", "90817"),
    ("restore code", "authenticator restore code Q7W8E9R0TY", "Q7W8E9R0TY"),
    # bank details
    ("upi id", "pay me on UPI: anita.k@oksbi thanks", "anita.k@oksbi"),
    ("micr line", "cheque footer ⑆021000021⑆ 123456789⑈ 0457", "123456789"),
    ("cci", "mi CCI: 002-193-123456789012-15", "002-193-123456789012-15"),
    ("card in pieces", "card:\n4111 1111\n1111 1111", "4111 1111"),
    ("card in pieces", "| card | 41111111 |\n| (rest) | 11111111 |", "41111111"),
    ("card of two groups", "paid with 41111111-11111111 at the till", "41111111-11111111"),
    ("card code in words", "the digits on the back: 812", "812"),
    # commands and logs
    ("net user", "net user svc_backup Pelican#2047 /add", "Pelican#2047"),
    ("setpw", "tool --setpw operator 'Marmot!5521'", "Marmot!5521"),
    ("dbi connect", "connect('dbi:Pg:dbname=app','app','Lynx%2291',{}) failed", "Lynx%2291"),
    ("bundler", "bundle config set enterprise.contribsys.com abc123ef:99ff88ee", "abc123ef:99ff"),
    ("createUser", 'createUser ops SHA "Heron!4410" AES "Kestrel?9921"', "Kestrel?9921"),
    ("quoted argument", 'init(<<"app">>, <<"Falcon$7731">>, 5672)', "Falcon$7731"),
    # prose, passphrases, markup
    ("hyphen passphrase", "log in with Marlin-spruce-4471 tonight", "Marlin-spruce-4471"),
    ("filler", "the guest password is, uh, otter-basin-77", "otter-basin-77"),
    ("callout", "> [!note] wifi login\n> guest\n> Pampas91!delta", "Pampas91!delta"),
    ("network value", "Guest-WLAN: Harbor88#gull", "Harbor88#gull"),
    ("dt and dd", "<dl><dt>Password</dt><dd>Vireo-88!x</dd></dl>", "Vireo-88!x"),
    ("two code spans", "token is `Ab12Cd34Ef56` `Gh78Ij90Kl12` (wrapped)", "Gh78Ij90Kl12"),
    ("hard break", "API key:\\\nQw3Er5Ty7Ui9\\\nOpAsDfGhJkLz", "OpAsDfGhJkLz"),
    (
        "table in parts",
        "the router key, both parts together:\n\n| a | b |\n|---|---|\n| 9f8e7d6c5b4a | 1a2b3c4d5e6f |",
        "1a2b3c4d5e6f",
    ),
    # dictated and chat-typed
    ("doubled digit", "my PIN is double four, one, six", "four, one, six"),
    ("tripled digit", "gate code: triple zero, eight", "zero, eight"),
    ("said with a sign", "the laptop password is harbour 2044 exclamation mark", "harbour 2044"),
    ("said with a case", "wifi password, Lagoon with a capital, then 318, then a hash", "Lagoon"),
    ("code in groups", "they sent a code… it's 581… 770… ok", "581… 770"),
    ("spoken phone", "ring me on oh seven seven, four one two, nine nine eight", "four one two"),
    ("chat's for", "door pin 4 my flat is 8826", "8826"),
    (
        "wrapped hex",
        "the signing secret is 0a1b2c3d4e5f6a7b\n8c9d0e1f2a3b4c5d (wrapped)",
        "8c9d0e1f",
    ),
    ("security answer", "Security question: first car? Answer: Corolla88", "Corolla88"),
    ("spring actuator", '"app.db.password": {\n  "value": "Quill-Rover-55"\n}', "Quill-Rover-55"),
    (
        "csv doubled quotes",
        'site,login,password\nmail,ana,"Slate ""blue"" 7!"\n',
        'Slate ""blue"" 7!',
    ),
    ("hex dump", "$ xxd secret.txt\n00000000: 5072 6f6d 3921 6b65 79  Prom9!key", "Prom9!key"),
]

# (class, text): what the rules changed and no longer do
KEPT = [
    ("home assistant reference", "api_password: !secret http_password"),
    ("key vault reference", "DB_PASS=@Microsoft.KeyVault(VaultName=kv1;SecretName=db)"),
    ("variable in a value", '{"password": "${DB_PASS}", "cipher": "aes-256-gcm"}'),
    ("sops ciphertext", "api_key: ENC[AES256_GCM,data:q8Zx0Pl3mK9w,iv:Zm9vYmFyYmF6cXV4,type:str]"),
    ("pulumi ciphertext", "  secure: v1:c2VjcmV0Ym94:QWJjRGVmR2hpSmtsTW5vUHFyc1R1dnd4eVo0Mg=="),
    ("public client key", "frontend: Mid-client-Ab12Cd34Ef56Gh78"),
    ("public client key", "xnd_public_production_Q1w2E3r4T5y6U7i8O9p0"),
    ("subscribe key", "subscribeKey: sub-c-12345678-1234-1234-1234-123456789abc"),
    ("bitcoin address", "tips welcome: 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
    ("invoice number", "Rechnung 2030-4411 bezahlt"),
    ("order number", "ordernummer 2030-88120 verzonden"),
    ("config lines", "level-seed=8841122093377\nmax-players=20"),
    ("question's options", "Security question choices: first car, first teacher."),
]

# (class, text): what the new rules must not take
GUARDS = [
    ("hyphenated lower case", "deploy web-prod-2031 and api-gateway-443 today"),
    ("hyphenated title", "Ubuntu-server on port 8080; see Chapter-one"),
    ("rtmp ingest", "rtmp://live.example.tv/app and rtmps://ingest.example.tv/live2"),
    ("api path", "curl http://10.0.0.9/api/config and /api/v1/lights"),
    ("byte list not a key", "sizes: [1, 2, 3, 4]"),
    ("passcode words", "the passcode rules are strict: 6 digits"),
    ("a plain quoted argument", 'open("data.csv", "rb")'),
    ("service named with a sha", "github: 86850aab2032a4922871d34e9d58fe1ec4308ef7"),
    ("wifi band", "Wi-Fi: 5GHz-only, channel 36"),
    ("value of a setting", "value: enabled, value: 42, value: High-Priority"),
    ("camel case after 비밀번호", "비밀번호 관리는 PasswordManager 앱으로"),
    ("answer of words", "the maiden name field is empty, I said nothing yet"),
    ("counted digits", "the code is two digits, then four letters"),
    ("pin 4 words", "PIN 4 digits long, set it 2 the default"),
    ("upi without an id", "UPI limit is 1 lakh a day; pay@ the counter"),
]


@pytest.mark.parametrize(("text", "secret"), [pytest.param(t, s, id=c) for c, t, s in READ])
def test_our_cases_of_each_class_are_read(text: str, secret: str) -> None:
    """A case of ours of each class the corpus showed the rules missing loses its secret."""
    assert masked(text, secret)


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in KEPT])
def test_our_look_alikes_of_each_class_stay(text: str) -> None:
    """A look-alike of ours of each class comes through byte for byte."""
    assert redact(text) == text


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in GUARDS])
def test_the_new_rules_take_no_look_alike(text: str) -> None:
    """What the new rules read in shape but must leave."""
    assert redact(text) == text


def test_a_door_code_in_the_nordic_languages() -> None:
    """ "The code to the gate is …" in Danish, Norwegian and Swedish, and their compounds; a
    code word with no door and no digits stays."""
    from dreamd.redaction import redact

    for text, code in (
        ("Koden til porten er 481516", "481516"),
        ("koden till grinden är 7302#", "7302"),
        ("Portkoden er 5521, husk det.", "5521"),
        ("Dörrkoden: 8812", "8812"),
        ("dørkoden er 2207", "2207"),
    ):
        assert code not in redact(text), text
    for text in ("Koden til wifi-en står på routeren.", "Koden er skrevet på baksiden."):
        assert redact(text) == text
