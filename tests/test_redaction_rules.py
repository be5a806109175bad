"""The rules that make redaction generalise: layouts (tables, markup, URLs, list items, the next
line), languages, encodings, documents and birth dates, spelled-out e-mail, code, and the
false positives they must not bring (bare numbers, tracking numbers, placeholders)."""

from __future__ import annotations

import base64

import pytest

from dreamd.redaction import find_secrets, redact
from tests.corpus_checks import masked


def test_a_password_column_is_masked_and_its_notes_are_not() -> None:
    """Cells under Password are masked; the other columns, and cells that are notes, stay."""
    table = (
        "| Service | User | Password |\n|---|---|---|\n"
        "| NAS | admin | Pelican-Rock-19 |\n"
        "| Router | root | (rotated) |\n"
        "| Printer | service | in 1Password |"
    )
    assert redact(table) == table.replace("Pelican-Rock-19", "***")


@pytest.mark.parametrize(
    ("table", "secrets"),
    [
        ("| Dienst | Passwort |\n| --- | --- |\n| Webmail | Schnee!Flocke3 |", ["Schnee!Flocke3"]),
        ("| 账号 | 密码 |\n|---|---|\n| admin | Shanghai_2049 |", ["Shanghai_2049"]),
        ("| Card | PIN | CVV |\n|---|---|---|\n| Visa | 4821 | 739 |", ["4821", "739"]),
        ("| Name | DOB |\n|---|---|\n| Anna | 1991-02-17 |", ["1991-02-17"]),
        ("| Name | API Token |\n|:--|:--|\n| ci | q7Wm2Rx9Lk4Pz8Tn |", ["q7Wm2Rx9Lk4Pz8Tn"]),
    ],
)
def test_secret_columns_in_any_language_aremasked(table: str, secrets: list[str]) -> None:
    """A column named for a password, a PIN, a token or a birth date holds one per row."""
    assert [s for s in secrets if not masked(table, s)] == []


@pytest.mark.parametrize(
    "table",
    [
        "| model | tokens | cost |\n|---|---|---|\n| gpt-4o | 12840 | $0.31 |",
        "| PIN | GPIO |\n|---|---|\n| 7 | GPIO4 |",
        "| Secret name | Used by |\n|---|---|\n| DB_PASSWORD | api |",
        "| Name | Password policy |\n|---|---|\n| prod | 16 chars |",
    ],
)
def test_columns_that_describe_secrets_stay(table: str) -> None:
    """Token counts, pin numbers, secret names and policies are not secrets."""
    assert redact(table) == table


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("<password>Gr8-Lakes!x</password>", "Gr8-Lakes!x"),
        ('<property name="hibernate.connection.password">Hib3rnate!Pw</property>', "Hib3rnate!Pw"),
        ('<add key="StripeSecret" value="ws9Lk2Qp7Vx4Rt8Zm3"/>', "ws9Lk2Qp7Vx4Rt8Zm3"),
        ('<input type="password" name="pwd" value="Formular#77">', "Formular#77"),
        ("&lt;password&gt;Esc4ped!Pw&lt;/password&gt;", "Esc4ped!Pw"),
    ],
)
def test_markup_that_names_a_secret_holds_one(text: str, secret: str) -> None:
    """Elements and attributes named for a secret have their values masked."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "<password>${DB_PASSWORD}</password>",
        '<add key="ApiSecret" value="#{ApiSecret}#" />',
        '<input type="password" name="pw" placeholder="Password">',
        '<string name="password_hint">At least 8 characters</string>',
    ],
)
def test_markup_references_and_hints_stay(text: str) -> None:
    """References, templates, placeholders and hints in markup are kept."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Das WLAN-Passwort für das Gästenetz lautet Sommerwiese-2024.", "Sommerwiese-2024"),
        ("Le mot de passe du routeur, c'est Bastille#1789.", "Bastille#1789"),
        ("La contraseña que puso Javier en el router del despacho es Quijote-1605", "Quijote-1605"),
        ("A senha do portal agora é Caju!2025", "Caju!2025"),
        ("Ho cambiato la password in Pizza.Margherita7", "Pizza.Margherita7"),
        ("het nieuwe wachtwoord wordt Drop-Zout-12", "Drop-Zout-12"),
        ("Поменял пароль на Zima-Holod99", "Zima-Holod99"),
        ("lösenordet till routern är Fika!Kanel9", "Fika!Kanel9"),
        ("パスワードは Sakura-2024! です", "Sakura-2024!"),
        ("WiFi密码是chaoshi8888", "chaoshi8888"),
        ("비밀번호를 Busan2030! 로 바꿨어요", "Busan2030!"),
        (
            "the password I finally picked for the family Netflix account is Popcorn-Night-7",
            "Popcorn-Night-7",
        ),
    ],
)
def test_a_password_said_in_a_sentence_ismasked(text: str, secret: str) -> None:
    """The password word, words of the same sentence, the verb, the value: in any language."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Das WLAN-Passwort steht auf der Rückseite des Routers.",
        "The password is on the sticky note under the keyboard",
        "the password for the guest network is printed on the card",
        "das Passwort muss mindestens 12 Zeichen lang sein",
        "Das Passwort lautet wie immer: siehe KeePass",
        "la clave del éxito es la constancia",
        "パスワードは管理者に聞いてください",
        "密码在便签上，明天给你",
        "the password is in 1Password",
        "the password policy is 12chars+",
    ],
)
def test_talk_about_a_password_stays(text: str) -> None:
    """Where it is, what it must be, who has it: no value, nothing masked."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("WLAN-Passwort:\n  Seeblick#2023", "Seeblick#2023"),
        ("- **Passwort**\n  - Tannenbaum!88", "Tannenbaum!88"),
        ("The password is\nOrchid_Velvet_31", "Orchid_Velvet_31"),
        ("パスワード\nkoinobori_55", "koinobori_55"),
    ],
)
def test_a_value_on_the_next_line_ismasked(text: str, secret: str) -> None:
    """A line ending with a password word, then the value alone on the next line."""
    assert masked(text, secret)


def test_a_heading_followed_by_prose_stays() -> None:
    """A password heading followed by a sentence is not a key and its value."""
    text = "## Password\nWe rotate it monthly."
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "https://api.openweathermap.org/data/2.5/weather?q=Berlin&appid=86bf8f4fc672e79538d4bd3b68c6c960",
            "86bf8f4fc672e79538d4bd3b68c6c960",
        ),
        (
            "https://api.example.com/v2/search?apikey=bd402571d3007e4efcd676cbd81ad4e4&q=tea",
            "bd402571d3007e4efcd676cbd81ad4e4",
        ),
        (
            "https://api.hubapi.com/contacts?hapikey=1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b",
            "1b2c3d4e-5f60-4718-9a0b-1c2d3e4f5a6b",
        ),
        (
            "Datadog application key 4f1e9a0b2c3d4e5f60718293a4b5c6d7e8f90a1b",
            "4f1e9a0b2c3d4e5f60718293a4b5c6d7e8f90a1b",
        ),
        ("OpenWeatherMap key 1a7f6a49ce1ff9b766517738c07bb7fa", "1a7f6a49ce1ff9b766517738c07bb7fa"),
    ],
)
def test_keys_known_by_name_or_parameter_aremasked(text: str, secret: str) -> None:
    """Hex keys and UUIDs, which look like ids, are secrets after a vendor's or a key's name."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/search?q=password+reset&page=2",
        "https://api.openweathermap.org/data/2.5/weather?q=Paris&appid={API_KEY}",
        "Algolia app ID: 4K2ZJ8X1QP",
        "Cloudflare zone id 023e105f4ecef8ad9ca31a8372d0c353",
        "Datadog application key rotated yesterday, new one is in Vault",
    ],
)
def test_ids_and_parameters_that_are_not_keys_stay(text: str) -> None:
    """Queries, templates, app ids and zone ids stay."""
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (replace with yours)",
        "export OPENAI_API_KEY=sk-...your-key-here",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
        "token: <your-token>",
        "Authorization: Bearer YOUR_TOKEN_HERE",
        "contraseña: (pedir a Juan)",
        "DATABASE_URL=postgres://user:password@localhost:5432/db",
        "api_key: 'sk-...'",
        "password: changeme",
    ],
)
def test_placeholders_are_not_secrets(text: str) -> None:
    """What documentation writes in a secret's place is kept as written."""
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Bestellnummer 123456789012 ist unterwegs",
        "numéro de commande 0612345678",
        "member number 11987654321",
        "log line 20240517123456 repeated",
        "row 0039061234567 of the export",
        "UPS tracking 1Z 999 AA1 01 2345 6784",
        "DHL Sendungsnummer 00340434161094042557",
        "ヤマト運輸 伝票番号 1234-5678-9012",
        "serial number 447700900123",
    ],
)
def test_bare_numbers_and_tracking_numbers_stay(text: str) -> None:
    """Bare digits need a phone word to be a phone; a tracking number holds no national id."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("call me on 07700900123", "07700900123"),
        ("my number is 0151 23456789", "0151 23456789"),
        ("電話番号は03-1234-5678です", "03-1234-5678"),
        ("WhatsApp +4915112345678", "+4915112345678"),
    ],
)
def test_phones_with_a_phone_word_or_a_phone_format_aremasked(text: str, secret: str) -> None:
    """A phone word before bare digits, a national format's groups, or a leading +."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Visa 4532/0151/1283/0366", "4532/0151/1283/0366"),
        ("card: 4485_1572_0806_5882", "4485_1572_0806_5882"),
        ("Miete an DE89.3704.0044.0532.0130.00", "DE89.3704.0044.0532.0130.00"),
        ("virement sur FR76-3000-6000-0112-3456-7890-189", "FR76-3000-6000-0112-3456-7890-189"),
        ("カード番号 ４９１６ ７８２２ ０９６７ ３２２５", "４９１６ ７８２２ ０９６７ ３２２５"),
    ],
)
def test_cards_and_ibans_with_any_separator_aremasked(text: str, secret: str) -> None:
    """Slashes, underscores, dots, dashes and fullwidth digits do not hide a number."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Reisepass-Nr. C01X00T47, gültig bis 2031", "C01X00T47"),
        ("paspoortnummer NW3F1RT94", "NW3F1RT94"),
        ("旅券番号：TZ1234567", "TZ1234567"),
        ("паспорт: 4508 123456, выдан в 2019", "4508 123456"),
        ("Führerscheinnummer B072RRE2I55", "B072RRE2I55"),
        ("Pierre, né le 12 mars 1985 à Lyon", "12 mars 1985"),
        ("nata a Napoli il 14/02/1987", "14/02/1987"),
        ("생년월일: 1990.05.17", "1990.05.17"),
        ("Birthday: March 3rd, 1988", "March 3rd, 1988"),
        ("誕生日は1995年12月24日", "1995年12月24日"),
    ],
)
def test_documents_and_birth_dates_after_their_words_aremasked(text: str, secret: str) -> None:
    """A number or a date after the word that names a passport, a licence or a birth."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Führerschein Klasse B seit 2010",
        "passport control at gate B12",
        "passport valid until 2031-05-01",
        "born in 1985 in Porto",
        "birthday party on 2025-06-14 at the lake",
        "the project was started on 2024-03-01",
    ],
)
def test_dates_and_codes_that_are_not_documents_or_births_stay(text: str) -> None:
    """Classes, gates, expiry dates, years and other dates stay."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("reach me: kenji dot x at gmail dot com", "kenji dot x at gmail dot com"),
        ("Mail: klaus punkt weber at gmx punkt de", "klaus punkt weber at gmx punkt de"),
        ("correo: maria.garcia arroba gmail punto com", "maria.garcia arroba gmail punto com"),
        ("e-post: sara.lind (at) telia.se", "sara.lind (at) telia.se"),
        ("Mail an anna.k＠gmail.com", "anna.k＠gmail.com"),
        ("contacto: jose&#64;correo.es", "jose&#64;correo.es"),
        ("mailto:info%40kanzlei-berger.de?subject=Termin", "info%40kanzlei-berger.de"),
    ],
)
def test_spelled_and_encoded_e_mail_addresses_aremasked(text: str, secret: str) -> None:
    """Words for at and dot, fullwidth @, entities and percent-encoding hide no address."""
    assert masked(text, secret)


def test_an_address_written_against_japanese_is_masked_alone() -> None:
    """The Japanese words around an address are kept."""
    assert redact("メールはyuki.tanaka@docomo.ne.jpまで") == "メールは***まで"


@pytest.mark.parametrize(
    "text",
    [
        "we met at the dot com party",
        "name at domain dot com is the format we use",
        "look at it dot by dot",
        "Presumably at some point in the future",
    ],
)
def test_prose_with_at_and_dot_stays(text: str) -> None:
    """Prose and placeholders with the words at and dot are not addresses."""
    assert redact(text) == text


def test_encoded_secrets_are_decoded_and_checked() -> None:
    """Base64 of a password, hex of a token and a percent-encoded token are masked."""
    token = "ghp_" + "Q7w2E9r4T1y8U3i6O5p0A2s7D4f9G1h6J3k5"
    password = base64.b64encode(b"Kellerassel-42").decode()
    texts = [
        (f"stored it as {password} so it isn't plain", password),
        (f"the CI log printed {token.encode().hex()}", token.encode().hex()),
        (f"redirect_uri=https%3A%2F%2Fapp%2F%3Ft%3Dghp%5F{token[4:]}", "ghp%5F" + token[4:]),
    ]
    assert [secret for text, secret in texts if not masked(text, secret)] == []


@pytest.mark.parametrize(
    "text",
    [
        "SGVsbG8gV29ybGQh is base64 for Hello World!",
        "dGhlIHF1aWNrIGJyb3duIGZveA== is a pangram",
        "68656c6c6f20776f726c64 is 'hello world' in hex",
        "the header was eyJhbGciOiJIUzI1NiJ9 (just the algorithm)",
        "score 0.3558666666666667 and 0.5865333333333334",
        "q=caf%C3%A9+au+lait",
    ],
)
def test_encoded_text_that_holds_no_secret_stays(text: str) -> None:
    """A sentence, a name, a JSON header or a number in any encoding is kept."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('db, err := sql.Open("mysql", "shop:Zq7!mw3R@tcp(10.0.0.5:3306)/shop")', "Zq7!mw3R"),
        (
            'connStr := fmt.Sprintf("postgres://%s:%s@%s/app", "svc", "Gopher#2024", host)',
            "Gopher#2024",
        ),
        ('$password = ConvertTo-SecureString "Hx7!pq22Lm" -AsPlainText -Force', "Hx7!pq22Lm"),
        (
            "Net::SMTP.start('smtp.example.com', 587, 'example.com', 'mailer', 'Smtp!Pass9', :plain)",
            "Smtp!Pass9",
        ),
        ('server.login("ops@example.com", "Mailer#2026")', "Mailer#2026"),
        ("echo Gpg!Phrase77 | gpg --batch --passphrase-fd 0 --decrypt notes.gpg", "Gpg!Phrase77"),
    ],
)
def test_credentials_in_go_powershell_ruby_and_calls_aremasked(text: str, secret: str) -> None:
    """Passwords passed by position, where no key names them."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        'db, err := sql.Open("mysql", os.Getenv("MYSQL_DSN"))',
        '$password = Read-Host -AsSecureString "Password"',
        "$securePw = ConvertTo-SecureString $env:DEPLOY_PW -AsPlainText -Force",
        "opts.SetAuth(options.Credential{Username: user, Password: pass})",
        "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
    ],
)
def test_code_that_passes_variables_stays(text: str) -> None:
    """Environment lookups, prompts, variables and calls are not values."""
    assert redact(text) == text


def test_a_token_cut_in_two_list_items_is_one_finding() -> None:
    """Neither half alone is a token; together they are, and both items are masked."""
    text = "* AKIAQMXN9F\n* JA5TB4C08X"
    assert [f.kind for f in find_secrets(text)] == ["split-token"]
    assert redact(text) == "* ***\n"


def test_list_items_that_are_words_stay() -> None:
    """Two short items that join into no token are kept."""
    text = "- ItemA1\n- ItemB2\n- step1_initialize_db\n- step2_run_migrations"
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("wlan-salasana on Sauna#Kalja7", "Sauna#Kalja7"),
        ("ο κωδικός του wifi είναι Souvlaki#77", "Souvlaki#77"),
        ("passordet til wifi-en er Fjord-Troll-88", "Fjord-Troll-88"),
        ("Unser neues Router-Kennwort ist seit gestern Waldmeister#7", "Waldmeister#7"),
        ("Password for the VPN\n> Graphite!Owl29", "Graphite!Owl29"),
        ("name,user,password\nnas,admin,Csv#Nas2024", "Csv#Nas2024"),
        ("0x5a657070656c696e21426c75653535", "5a657070656c696e21426c75653535"),
    ],
)
def test_more_verbs_words_and_layouts_are_read(text: str, secret: str) -> None:
    """Finnish and Greek verbs, a hyphenated word before the verb, words between the verb and
    the value, a password word with words after it above the value, CSV, hex after 0x."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Password policy\nMin12chars!",
        "name,user,password_set\nnas,admin,yes",
        "    InvalidContinuationToken,\n    InvalidTableName,",
        "the password, as I said, is in the vault\nok, fine, done",
        "0x48656c6c6f2c20576f726c6421",
    ],
)
def test_their_look_alikes_stay(text: str) -> None:
    """A policy above a rule, a column of flags, code lists, prose with commas, hex of words."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("- 1. 7d0e2c9a1b4f6e83\n  2. c5b4a3f2e1d09876\n(the Sentry auth token, two parts)", 2),
        ("* 1) 4fa9c0d1e2b37a66\n* 2) 0e9d8c7b6a5f4e3d\n* secret, joined together", 2),
        ("- [ ] 318402 is your Pleo login code", 1),
        ("  - 2. K-775104 est votre code de vérification", 1),
        ("> - 462 109 is your Tink verification code", 1),
    ],
)
def test_a_list_item_marker_hides_nothing(text: str, secrets: int) -> None:
    """Numbered pieces under a bullet, and a one-time code that opens a nested, numbered,
    quoted or task item, are read as the same text without its marker."""
    redacted = redact(text)
    assert redacted.count("***") == secrets


@pytest.mark.parametrize(
    "text",
    [
        "- 1. migrate_users\n  2. reindex_orders\n(the token rotation, in two parts)",
        "- 2024 is your year to ship the login code",
        "* 1. v2.10.4\n* 2. v2.11.0\n(the release key pieces, split)",
    ],
)
def test_list_items_that_are_steps_stay(text: str) -> None:
    """Steps and versions under a pieces line, and a year before a code word's sentence,
    stay behind a marker as they stay without one."""
    assert redact(text) == text
