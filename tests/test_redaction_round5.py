"""The round-five corpus, held to 97 % recall and 3 % false positives, sample by sample (those
out of reach marked so, with their reasons); and the classes of secret it showed the rules
missing, each held by cases of our own in other words (never the corpus's strings), with
look-alikes that must come through unchanged."""

from __future__ import annotations

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round5
from tests.corpus_checks import changed, masked, planted, sample_cases, surviving
from tests.redaction_corpus_fresh import Sample

SAMPLES = redaction_corpus_round5.secret_samples()
LOOKALIKES = redaction_corpus_round5.lookalikes()

# Samples no rule reaches without masking ordinary text too, by their family.
OUT_OF_REACH = {
    "rsync secrets": "a user and a password after a colon, named only by the file they are in",
    "hl7": "a birth date known only by its place among a segment's fields",
}


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """200+ planted items in 40+ families, and look-alikes are 30 % of the texts or more."""
    families = {s.family for s in SAMPLES}
    share = len(LOOKALIKES) / (len(LOOKALIKES) + len(SAMPLES))
    assert (planted(SAMPLES) >= 200, len(families) >= 40, share >= 0.3) == (True, True, True)


def test_recall_is_at_least_97_percent() -> None:
    """At most 3 % of the planted items survive redaction (they are listed when more do)."""
    misses = surviving(SAMPLES)
    assert len(misses) <= planted(SAMPLES) * 0.03, "\n".join(misses)


def test_false_positives_are_at_most_3_percent() -> None:
    """At most 3 % of the look-alikes are changed by redaction (they are listed when more are)."""
    positives = changed(LOOKALIKES)
    assert len(positives) <= len(LOOKALIKES) * 0.03, "\n".join(positives)


@pytest.mark.parametrize("sample", sample_cases(SAMPLES, lambda s: OUT_OF_REACH.get(s.family)))
def test_each_sample_loses_its_secrets(sample: Sample) -> None:
    """Every planted item of the sample is gone from its redaction."""
    assert [s for s in sample.secrets if not masked(sample.text, s)] == []


# --- password words of more languages, in our own sentences ----------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Kua hurihia te kupuhipa o te tari, ko Tui#Karaka58 ināianei", "Tui#Karaka58"),
        ("Modpas imèl mwen se Lakay!2291", "Lakay!2291"),
        ("Lo senhal de la caissa es Garona_77x", "Garona_77x"),
        ("Okwuntughe akaụntụ ụlọ akụ bụ Nkwo#4419", "Nkwo#4419"),
        ("Erayga sirta ah ee kombiyuutarka waa Hargeisa#09", "Hargeisa#09"),
        ("Upu fa'alilolilo o le imeli o Apia!Niu33", "Apia!Niu33"),
        ("Ijambo ry'ibanga rya konti ni Kigali-Ruhuka9", "Kigali-Ruhuka9"),
        ("Kecap akses surélék nyaéta Bandung#Hujan4", "Bandung#Hujan4"),
        ("A parolla d'accessu di a casella hè Bastia_2024!", "Bastia_2024!"),
        ("Is e am facal-faire ùr aig a' bhanca Uisge!Beatha7", "Uisge!Beatha7"),
        ("Компьютер рамзи Dushanbe#2025 аст", "Dushanbe#2025"),
        ("ئېلخەت پارولى Kashgar!Anar88", "Kashgar!Anar88"),
        ("Kompjutera isissutissaq Nuuk#Qaqqaq3", "Nuuk#Qaqqaq3"),
        ("Bankka pakasqa siminqa Cusco#Inti12", "Cusco#Inti12"),
    ],
)
def test_password_words_of_more_languages_are_read(text: str, secret: str) -> None:
    """Māori, Haitian Creole, Occitan, Igbo, Somali, Samoan, Kinyarwanda, Sundanese, Corsican,
    Scottish Gaelic, Tajik, Uyghur, Greenlandic and Quechua password words, and their verbs."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Ko te kupuhipa hou ka tukuna apōpō",
        "Modpas la twò kout, li bezwen 12 karaktè",
        "Lo senhal es sus lo papièr jaune",
        "Okwuntughe ọhụrụ ga-abịa echi",
        "la password o il PIN, come preferisci",
    ],
)
def test_talk_in_those_languages_stays(text: str) -> None:
    """Talk about a password with no value, and ``o`` (or) after a password word."""
    assert redact(text) == text


# --- references, calls and ids that only look like values ------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "mailer_password: '%env(resolve:MAILER_PASS)%'",
        'smtp_pass = "`security find-generic-password -s smtp -w`"',
        'let token = std::env::var("GITHUB_TOKEN").unwrap();',
        'const creds = {user: "etl", pwd: readSecret()}',
        'rabbitmqctl add_user ingest "$(vault read -field=pw kv/rmq)"',
        "mc alias set archive https://minio.lan $MINIO_USER $MINIO_PASS",
        "see #password-policy before you pick one, then go to #help",
        "Stripe product prod_Q8xL2mN4r7TzYpK3 and price price_9aB3cD4eF5gH6iJ7kL8mN",
        "Airtable table tblX9aB3cD4eF5gH6 in base appZ2yX1wV0uT9sR8",
        "Spotify album 1DFixLWuPkv3KT3TnV35m3, YouTube video id kJQP7kiw5Fk",
    ],
)
def test_references_calls_and_public_ids_stay(text: str) -> None:
    """An env resolver, a command in backticks, a Rust path call, a JavaScript call, a command
    substitution, shell variables, a channel after a password word's compound, and the ids of
    payment, spreadsheet and media objects are no secrets."""
    assert redact(text) == text


# --- files, markup, commands and headers -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("<DomainPassword>\n  <Value>Forest#Lodge61</Value>\n</DomainPassword>", "Forest#Lodge61"),
        ("<key>api_token</key>\n<string>q8Lm2Rt6Vy1Bc4Fg7Hj0</string>", "q8Lm2Rt6Vy1Bc4Fg7Hj0"),
        ("<String><Key>Password</Key><Value>Birch!Hollow4</Value></String>", "Birch!Hollow4"),
        ("<keyMaterial>Velvet-Canyon-83</keyMaterial>", "Velvet-Canyon-83"),
        ("snmp-server community Rk7pQ2mZx9 RO 20", "Rk7pQ2mZx9"),
        ("snmpwalk -v2c -c Lt9xW2qPz7 10.0.4.1", "Lt9xW2qPz7"),
        ('-H "Authorization: SSWS 00aB3cD4eF5gH6iJ7kL8mN9oP"', "00aB3cD4eF5gH6iJ7kL8mN9oP"),
        ("[relay.example.org]:465 noreply@example.org:Quill#Harbor22", "Quill#Harbor22"),
        (
            "cargo publish --token cioAbCdEfGhIjKlMnOpQrStUvWxYz012345",
            "cioAbCdEfGhIjKlMnOpQrStUvWxYz012345",
        ),
    ],
)
def test_files_markup_commands_and_headers_are_read(text: str, secret: str) -> None:
    """A password wrapped in a Value child, a name element and its value's sibling, a Wi-Fi
    profile's key material, SNMP communities, any header scheme's credentials, an address
    with its password after a colon, a crates.io token."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "<key>CFBundleName</key><string>Notes</string>",
        "<String><Key>UserName</Key><Value>admin</Value></String>",
        "snmp-server community public RO",
        "authorization: required for every admin page",
        "show snmp community",
        "git@github.com:shop/api.git",
    ],
)
def test_their_look_alikes_stay(text: str) -> None:
    """A bundle name, a user name, SNMP's documented read-only community, prose after a
    header's name, a command with no value and an scp remote are no secrets."""
    assert redact(text) == text


# --- disguises -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "V\u0336P\u0336N\u0336 p\u0332a\u0332s\u0332s\u0332w\u0332o\u0332r\u0332d\u0332: Ember#Vale19",
            "Ember#Vale19",
        ),
        ("The Wi-Fi password is <code>Harbour!Seal88</code>", "Harbour!Seal88"),
        ("<b>Passwort:</b> <mark>Tanne#Schnee4</mark>", "Tanne#Schnee4"),
        (
            '{"db_password": "\\u0052\\u0069\\u0076\\u0065\\u0072\\u0023\\u0037\\u0037\\u0078"}',
            "\\u0052",
        ),
    ],
)
def test_disguises_of_markup_and_escapes_are_undone(text: str, secret: str) -> None:
    """A keyword struck through or underlined with combining marks, a value in a style tag,
    a value written as JSON \\u escapes."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "<code>password</code> is the field name in the form",
        "press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy",
        '{"city": "\\u004d\\u00fcnchen"}',
        "d\u0336e\u0336l\u0336e\u0336t\u0336e\u0336d\u0336 old notes",
    ],
)
def test_disguise_look_alikes_stay(text: str) -> None:
    """A field name in code, keys, an escaped city name and struck-through prose stay."""
    assert redact(text) == text


# --- personal data and national numbers ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("TEL;TYPE=work,voice:+44 20 7946 0321", "+44 20 7946 0321"),
        ("BDAY: 21/08/1990", "21/08/1990"),
        ("write to lars.berg snabel-a posteo punktum de", "lars.berg"),
        ("CUIT del proveedor: 27-33445566-7", "27-33445566-7"),
        ("cédula 001-3456789-0", "001-3456789-0"),
        ("su carnet de identidad es 91052312345", "91052312345"),
        ("DNI 45123987-K del titular", "45123987-K"),
        ("RUC del cliente: 1234567-9", "1234567-9"),
    ],
)
def test_personal_fields_and_more_national_numbers_are_read(text: str, secret: str) -> None:
    """A vCard's phone and birthday, a Danish spelled address, an Argentine CUIT, a Dominican
    cédula by its check digit, a Cuban carnet, a Peruvian DNI and a Paraguayan RUC."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "ratio:+351 912 345 678",
        "order 001-3456789-1 shipped",
        "invoice 45123987-3",
        "ticket 1234567-9 closed",
    ],
)
def test_numbers_without_their_names_stay(text: str) -> None:
    """A number after a field that is no phone's, a cédula-shaped order whose check fails,
    and dashed numbers no name announces are kept."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("адрес: г. Тверь, проспект Ленина, д. 5, кв. 3", "проспект Ленина, д. 5, кв. 3"),
        ("доставка: вул. Хрещатик, буд. 22, кв. 7", "Хрещатик, буд. 22"),
        ("地址：上海市徐汇区漕溪北路 88 号 1201 室", "漕溪北路 88 号 1201 室"),
        ("東京都世田谷区太子堂2-14-7 メゾン301", "太子堂2-14-7"),
        ("0 @I4@ INDI\n1 BIRT\n2 DATE 3 JUN 1961\n2 PLAC Leeds", "3 JUN 1961"),
    ],
)
def test_addresses_in_other_scripts_and_genealogy_births_are_read(text: str, secret: str) -> None:
    """Russian and Ukrainian street, house and flat; a Chinese road, number and room; a
    Japanese ward's block numbers; a GEDCOM birth's DATE line."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "第3-4章を読んだ",
        "平成3-4年度の予算",
        "ул. Ленина — главная улица города",
        "北京路很长",
        "1 DEAT\n2 DATE 9 MAY 2001",
    ],
)
def test_their_look_alikes_stay_too(text: str) -> None:
    """Chapters and fiscal years, a street named without a house, a road's name alone, and a
    death's date in a genealogy file stay."""
    assert redact(text) == text
