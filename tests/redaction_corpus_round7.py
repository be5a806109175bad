"""The round-seven redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them. It is written the way people
paste things into an agent's notes and chats when they are in a hurry, the way they carry
their setup from one machine to the next, and the way someone hiding a secret from a filter
would write it; the languages are the big ones, in the words people use every day.

Secrets (:func:`secret_samples`): Wi-Fi keys (a router sticker, a holiday flat, a hotel, a
``WIFI:`` QR payload, ``nmcli``, ``wpa_supplicant``); codes for doors, gates, keypads, alarms,
safes, bike locks, SIM PUKs and card PINs; passwords in everyday prose of English, German,
French, Spanish, Portuguese, Italian, Dutch, Polish, Turkish, Russian, Ukrainian, Chinese,
Japanese, Korean, Arabic, Hindi, Vietnamese and Indonesian (and a dozen more), given as
"changed it to", "log in with", "user / pass", "the usual one plus", in chat shorthand; keys of
some forty vendors in running text, shell lines and config; connection strings in URLs,
JDBC, ADO.NET, Go, PHP, Node, Elixir, Ruby, libpq keywords, ODBC, Kafka JAAS and client option
files; bank accounts and IBANs in the words of each language (sort codes, routing and BSB
numbers, IFSC lines, Russian, Japanese, Korean, Vietnamese and Indonesian accounts); cards with
their expiry and security code; passports, driving licences, national, tax and social numbers
after their names (Spanish DNI, Italian codice fiscale, French NIR, PESEL, BSN, TC Kimlik, CPF,
Portuguese NIF, Chinese resident id, Aadhaar, PAN, SSN, UK NI, Korean RRN, My Number, NIK,
CCCD, RNOKPP, SNILS, INN, Saudi and Emirati ids, German Steuer-ID); birth dates and personal
phone numbers after the words for them; text moved between machines (``.env``, ``.netrc``,
``.pgpass``, ``.npmrc``, ``.pypirc``, ``.git-credentials``, AWS, Docker and gh config,
password-manager CSV exports, a KeePass XML entry, compose and Kubernetes files, fish,
PowerShell and ``setx`` lines, Maven, Gradle, Composer, Cargo, FileZilla, ``.htpasswd``); and
disguises (Cyrillic and Greek look-alike letters, zero-width and fullwidth characters, keywords
in leetspeak, spaced or dotted, a value split over lines or bullets, base64, hex, reversed,
ROT13 and percent-encoded values, HTML comments, a Markdown table, the keyword sentences
away from its value).

Look-alikes (:func:`lookalikes`) must come through byte for byte: order, invoice and tracking
numbers, versions and builds, commit hashes in prose, digests named as such, prices, times
and dates, public service numbers, placeholders and variable references, password policies
and forgotten-password talk in the same languages, public keys and publishable keys, company
and bank identifiers that are public, masked cards, ids of chats, issues, containers and
cloud resources, codes that open nothing (error codes, room numbers, seats, gates).

Every value is fake: drawn from ``random.Random(20271207)``, with each scheme's check digits
computed (Luhn, mod 97, mod 11, Verhoeff, the national schemes), so each value is valid in
form while naming no one.
"""

from __future__ import annotations

import base64
import codecs
import functools
import random
import string
import urllib.parse
from collections.abc import Callable

import phonenumbers
from stdnum import iban as iban_number
from stdnum.br import cpf
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.es import ccc, dni
from stdnum.id import nik
from stdnum.it import codicefiscale
from stdnum.jp import in_ as my_number
from stdnum.kr import rrn
from stdnum.nl import bsn
from stdnum.pl import pesel
from stdnum.pt import nif
from stdnum.ru import inn
from stdnum.tr import tckimlik
from stdnum.ua import rntrc
from stdnum.us import rtn

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20271207)
_ALNUM = string.ascii_letters + string.digits
_URLSAFE = _ALNUM + "-_"
_UPPER_ALNUM = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"


def _of(alphabet: str, length: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _digits(length: int) -> str:
    """``length`` digits, the first not a zero."""
    return _RNG.choice("123456789") + _of(string.digits, length - 1)


def _strong(length: int = 13) -> str:
    """A generated password: both cases, digits and a symbol, a letter at each end."""
    core = [
        _RNG.choice(string.ascii_uppercase),
        _RNG.choice(string.ascii_lowercase),
        _RNG.choice(string.digits),
        _RNG.choice("!$%&*+?@#"),
    ] + [_RNG.choice(_ALNUM + "!$%&*?") for _ in range(length - 6)]
    _RNG.shuffle(core)
    return _of(string.ascii_letters, 1) + "".join(core) + _of(string.ascii_lowercase, 1)


_WORDS = (
    "Sonnenblume",
    "girassol",
    "Mariposa",
    "tramonto",
    "Zeemeeuw",
    "kasztan",
    "papatya",
    "berezka",
    "sakura",
    "haneul",
    "bintang",
    "hoahong",
    "Lavanda",
    "Papagei",
    "citron",
    "Gaviota",
    "jabuticaba",
    "Girasole",
    "tulpen",
    "wiewiorka",
    "Martilo",
    "medvezhonok",
)


def _weak() -> str:
    """The password a person picks: a word, maybe capitalised, then a year or a number."""
    word = _RNG.choice(_WORDS)
    tail = _RNG.choice((str(_RNG.randint(1970, 2024)), _of(string.digits, 3), "!" + _digits(2)))
    return f"{word}{tail}"


def _pw() -> str:
    """Half strong, half weak, the mix people actually have."""
    return _strong(_RNG.randint(10, 16)) if _RNG.random() < 0.5 else _weak()


def _valid(check: Callable[[str], bool], make: Callable[[], str]) -> str:
    for _ in range(20_000):
        value = make()
        if check(value):
            return value
    raise RuntimeError("no valid value drawn")


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _each(family: str, templates: tuple[str, ...], make: Callable[[], str]) -> list[Sample]:
    """One sample per template, ``{}`` replaced by a fresh value that is its secret."""
    out = []
    for template in templates:
        value = make()
        out.append(_s(family, template.replace("{}", value), value))
    return out


def _fours(value: str, sep: str = " ") -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


# --- Wi-Fi, doors and PINs -----------------------------------------------------------------

_WIFI = (
    "Guest wifi at the Porto flat — network CasaAzul_5G, key {} (it's on the back of the router)",
    "hotel wifi: Marriott_Guest, room-specific pass {}",
    "WLAN-Schlüssel für die Ferienwohnung steht auf dem Aufkleber: {}",
    "le code wifi de la box c'est {} (réseau Livebox-3F2A)",
    "la clave del wifi del coworking la cambiaron, ahora es {}",
    "senha da rede do escritório -> {}",
    "Nuova password del wifi di casa: {} — l'ho scritta anche sul frigo",
    "wifi-wachtwoord van het vakantiehuis: {}",
    "hasło do wifi u teściów {} (sieć UPC2291)",
    "otelin wifi şifresi {} imiş, resepsiyon söyledi",
    "пароль от вайфая на даче — {}",
    "酒店WiFi：Hilton-Guest，密码 {}",
    "部屋のWi-Fiのパスワードは{}です",
    "카페 와이파이 비번 {}",
    "WIFI:T:WPA;S:Kantoor-Gast;P:{};H:false;;",
    "nmcli dev wifi connect HomeNet-5G password '{}'",
    'network={\n    ssid="Atelier"\n    psk="{}"\n}',
    "mật khẩu wifi quán cà phê: {}",
    "wifi rumah: SSID KeluargaBahagia, sandinya {}",
)

_DOORS: tuple[tuple[str, str], ...] = (
    ("Door code for building B is {}# — press the key symbol first", "4719"),
    ("Keypad at the side gate: {} then the bell", "2580"),
    ("Der Tresor im Büro geht mit {} auf", "739104"),
    ("code du portail : {}, l'interphone ne marche pas", "1984B"),
    ("el código de la alarma es {}, hay 30 segundos para desactivarla", "6612"),
    ("codice del cancello {} (quello pedonale)", "4471"),
    ("pincode van de sleutelkluis naast de deur: {}", "3092"),
    ("kod do bramy garażowej {}", "5821"),
    ("apartman kapı şifresi {}", "190734"),
    ("код от подъезда {}, домофон не работает", "0451"),
    ("门禁密码 {}，进门后左转", "662019"),
    ("オートロックの暗証番号は {} です", "8263"),
    ("현관 비밀번호 {} 누르고 들어오세요", "*2847#"),
    ("bike lock combo is {} (the blue one)", "0739"),
    ("new debit card arrived, PIN {} — shred the letter", "8402"),
    ("SIM got blocked again, the PUK is {}", "48291037"),
    ("alarm panel: disarm with {}, and the duress code is 5520", "5519"),
    ("cofre do quarto do hotel: {}", "240618"),
    ("kode pintu kos {}", "1357"),
    ("رمز باب العمارة {}", "7204"),
)


def _wifi_and_doors() -> list[Sample]:
    out = _each("wifi", _WIFI, _pw)
    out += [_s("door or PIN code", t.replace("{}", v), v) for t, v in _DOORS]
    return out


# --- passwords in prose ----------------------------------------------------------------------

_PROSE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "en",
        (
            "logged into the NAS as admin / {} — change it before the party",
            "creds for staging are deploy + {}",
            "dentist portal login: anna.k, {}",
            "changed it to {} since the old one showed up in that breach list",
            "if you need the router it's {}",
            "mum's email pw is {} (she asked me to write it down)",
        ),
    ),
    (
        "de",
        (
            "Das Kennwort fürs Firmenkonto lautet jetzt {}",
            "Zugangsdaten Steuerportal: Benutzer m.weber, PW {}",
            "hab das Passwort auf {} geändert, sag's nicht weiter",
            "Anmeldung beim Vermieterportal mit {} und der Mailadresse",
        ),
    ),
    (
        "fr",
        (
            "mot de passe de la banque en ligne : {}",
            "j'ai mis {} comme mdp pour le compte Netflix de la famille",
            "pour te connecter à l'intranet, c'est {} avec ton prénom.nom",
            "nouveau code d'accès de la messagerie : {}",
        ),
    ),
    (
        "es",
        (
            "la contraseña nueva del correo es {}",
            "usuario: pgarcia · clave: {}",
            "te paso la contra del Disney+: {}",
            "para entrar al router pon {}",
        ),
    ),
    (
        "pt",
        (
            "minha senha do banco é {}, não conta pra ninguém",
            "troquei a senha pra {} ontem à noite",
            "acesso ao portal do cliente: joana.m / {}",
        ),
    ),
    (
        "it",
        (
            "la parola d'ordine per il gestionale è {}",
            "credenziali dello SPID: mrossi, {}",
            "ho cambiato la password in {}",
        ),
    ),
    (
        "nl",
        (
            "het wachtwoord voor het klantportaal is {}",
            "inlog: jdevries, ww: {}",
            "heb m'n wachtwoord veranderd naar {}",
        ),
    ),
    (
        "pl",
        (
            "hasło do konta firmowego to {}",
            "zmieniłem hasło na {}, stare wyciekło",
            "login: kowalski.jan, hasełko: {}",
        ),
    ),
    (
        "tr",
        (
            "e-posta şifrem {} oldu",
            "parolayı {} olarak değiştirdim",
            "kullanıcı adı: ayse.y, şifre: {}",
        ),
    ),
    (
        "ru",
        (
            "пароль от почты: {}",
            "логин ivanov, пасс {}",
            "поменял пароль на {}, старый не подходит",
        ),
    ),
    (
        "uk",
        (
            "пароль до кабінету платника — {}",
            "новий пароль від пошти {}",
            "логін: o.shevchenko, пароль {}",
        ),
    ),
    (
        "zh",
        (
            "我的邮箱密码是{}，别告诉别人",
            "登录密码改成了{}",
            "账号 zhangwei88 口令：{}",
        ),
    ),
    (
        "ja",
        (
            "パスワードは「{}」に変更しました",
            "ログイン情報 ID: tanaka / PW: {}",
            "社内ポータルのパスは {} です",
        ),
    ),
    (
        "ko",
        (
            "비밀번호는 {} 입니다",
            "비번 바꿨어: {}",
            "아이디 kimjs, 패스워드 {}",
        ),
    ),
    (
        "ar",
        (
            "كلمة السر الجديدة هي {}",
            "كلمة المرور للبريد: {}",
        ),
    ),
    (
        "hi",
        (
            "मेरा पासवर्ड {} है, किसी को मत बताना",
            "नया पासवर्ड: {}",
        ),
    ),
    (
        "vi",
        (
            "mật khẩu tài khoản ngân hàng: {}",
            "đổi mật khẩu thành {} rồi nhé",
        ),
    ),
    (
        "id",
        (
            "kata sandinya {}, jangan disebar",
            "password email kantor: {}",
            "sandi baru akun BPJS {}",
        ),
    ),
    (
        "more languages",
        (
            "lösenordet till banken är {}",
            "heslo do e-shopu je {}",
            "ο κωδικός πρόσβασης είναι {}",
            "הסיסמה החדשה היא {}",
            "parola nouă e {}",
            "a jelszó {}",
            "รหัสผ่านคือ {}",
            "ang password ko sa bangko ay {}",
            "পাসওয়ার্ড হল {}",
            "رمز عبور ایمیلم {}",
            "nenosiri jipya ni {}",
            "پاس ورڈ {} ہے",
        ),
    ),
)


def _prose() -> list[Sample]:
    return [s for lang, rows in _PROSE for s in _each(f"password prose ({lang})", rows, _pw)]


# --- vendor keys -----------------------------------------------------------------------------


def _jwt(payload: str) -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")
    return f"{head}.{body}.{_of(_URLSAFE, 43)}"


_VENDORS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("swapped the nightly job to the new key: {}", lambda: "sk-proj-" + _of(_URLSAFE, 74)),
    ("ANTHROPIC_API_KEY={}", lambda: "sk-ant-api03-" + _of(_URLSAFE, 93) + "AA"),
    ("nuevo token de GitHub para el runner: {}", lambda: "ghp_" + _of(_ALNUM, 36)),
    (
        "fine-grained PAT (expires in 30 days) {}",
        lambda: "github_pat_11" + _of(_UPPER_ALNUM, 22) + "_" + _of(_ALNUM, 59),
    ),
    ("GitLab-Token fürs Deployment: {}", lambda: "glpat-" + _of(_URLSAFE, 20)),
    (
        "slack bot token -> {}",
        lambda: f"xoxb-{_digits(12)}-{_digits(13)}-{_of(_ALNUM, 24)}",
    ),
    (
        "alerts go to {}",
        lambda: (
            f"https://hooks.slack.com/services/T{_of(_UPPER_ALNUM, 10)}/B{_of(_UPPER_ALNUM, 10)}/{_of(_ALNUM, 24)}"
        ),
    ),
    ("rotated stripe after the incident, live key now {}", lambda: "sk_live_" + _of(_ALNUM, 99)),
    ("restricted key for the reporting script: {}", lambda: "rk_live_" + _of(_ALNUM, 24)),
    ("webhook signing secret {}", lambda: "whsec_" + _of(_ALNUM, 32)),
    ("Google Maps key (unrestricted, oops): {}", lambda: "AIza" + _of(_URLSAFE, 35)),
    ("OAuth client secret do Google: {}", lambda: "GOCSPX-" + _of(_URLSAFE, 28)),
    ("Twilio auth token {}", lambda: _of(_HEX, 32)),
    ("SendGrid のAPIキー: {}", lambda: f"SG.{_of(_URLSAFE, 22)}.{_of(_URLSAFE, 43)}"),
    ("mailgun: {}", lambda: "key-" + _of(_HEX, 32)),
    ("chiave Mailchimp {}", lambda: _of(_HEX, 32) + "-us14"),
    (
        "discord bot token (do not commit!!) {}",
        lambda: f"{_of(_ALNUM, 24)}.{_of(_URLSAFE, 6)}.{_of(_URLSAFE, 38)}",
    ),
    ("Telegram-бот: {}", lambda: f"{_digits(10)}:AA{_of(_URLSAFE, 33)}"),
    ("npm publish token {}", lambda: "npm_" + _of(_ALNUM, 36)),
    ("PyPI upload token: {}", lambda: "pypi-AgEIcHlwaS5vcmc" + _of(_URLSAFE, 120)),
    ("HF token do pobierania modeli: {}", lambda: "hf_" + _of(string.ascii_letters, 34)),
    ("Shopify admin token {}", lambda: "shpat_" + _of(_HEX, 32)),
    ("DO token for terraform {}", lambda: "dop_v1_" + _of(_HEX, 64)),
    ("DD_API_KEY={}", lambda: _of(_HEX, 32)),
    ("New Relic user key: {}", lambda: "NRAK-" + _of(_UPPER_ALNUM, 27)),
    (
        "Azure storage: DefaultEndpointsProtocol=https;AccountName=backupsweu;AccountKey={};EndpointSuffix=core.windows.net",
        lambda: base64.b64encode(_RNG.randbytes(64)).decode(),
    ),
    ("Linear API key {}", lambda: "lin_api_" + _of(_ALNUM, 40)),
    ("Notion integration secret: {}", lambda: "ntn_" + _of(_ALNUM, 46)),
    ("Airtable PAT {}", lambda: f"pat{_of(_ALNUM, 14)}.{_of(_HEX, 64)}"),
    ("figma token {}", lambda: "figd_" + _of(_URLSAFE, 40)),
    ("Postman API key {}", lambda: f"PMAK-{_of(_HEX, 24)}-{_of(_HEX, 34)}"),
    ("groq: {}", lambda: "gsk_" + _of(_ALNUM, 52)),
    ("replicate token {}", lambda: "r8_" + _of(_ALNUM, 37)),
    (
        "service_role key van Supabase {}",
        lambda: _jwt('{"iss":"supabase","ref":"qwhzpeonmd","role":"service_role"}'),
    ),
    ("Authorization: SSWS {}", lambda: "00" + _of(_URLSAFE, 40)),
    ("grafana service account token {}", lambda: f"glsa_{_of(_ALNUM, 32)}_{_of(_HEX, 8)}"),
    (
        "tailscale auth key for the pi: {}",
        lambda: f"tskey-auth-k{_of(_ALNUM, 11)}CNTRL-{_of(_ALNUM, 33)}",
    ),
    (
        "age key (backup) {}",
        lambda: "AGE-SECRET-KEY-1" + _of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    ),
    ("twitch chat bot -> oauth:{}", lambda: _of(string.ascii_lowercase + string.digits, 30)),
    ("MISTRAL_API_KEY: {}", lambda: _of(_ALNUM, 32)),
    ("Algolia admin key {} (the search-only one is fine to share)", lambda: _of(_HEX, 32)),
    ("vault login {}", lambda: "hvs." + _of(_URLSAFE, 90)),
    ("Databricks PAT: {}", lambda: "dapi" + _of(_HEX, 32)),
    ("CF_API_TOKEN={}", lambda: _of(_URLSAFE, 40)),
    ("Doppler service token {}", lambda: "dp.st.prd." + _of(_ALNUM, 43)),
    ("resend key {}", lambda: f"re_{_of(_ALNUM, 8)}_{_of(_ALNUM, 24)}"),
)


def _aws() -> list[Sample]:
    key_id = "AKIA" + _of(_UPPER_ALNUM, 16)
    secret = _of(_ALNUM + "/+", 40)
    key_id2 = "AKIA" + _of(_UPPER_ALNUM, 16)
    secret2 = _of(_ALNUM + "/+", 40)
    return [
        _s("vendor key", f"aws keys for the backup user: {key_id} / {secret}", key_id, secret),
        _s(
            "vendor key",
            f"Zugang S3 Bucket\nAccess Key ID: {key_id2}\nSecret Access Key: {secret2}",
            key_id2,
            secret2,
        ),
    ]


def _vendor_keys() -> list[Sample]:
    out = []
    for template, make in _VENDORS:
        out += _each("vendor key", (template,), make)
    return out + _aws()


# --- connection strings ----------------------------------------------------------------------

_DSNS = (
    "DATABASE_URL=postgres://app_rw:{}@db.internal:5432/orders",
    "mysql://root:{}@10.0.3.17:3306/shop",
    "mongodb+srv://analytics:{}@cluster0.a1b2c.mongodb.net/events?retryWrites=true",
    "REDIS_URL=redis://:{}@cache.lan:6379/0",
    "amqp://worker:{}@rabbit:5672/%2F",
    "jdbc:postgresql://pg.prod:5432/billing?user=billing&password={}&ssl=true",
    "Server=tcp:sql-weu.database.windows.net,1433;Database=crm;User ID=crm_app;Password={};Encrypt=True;",
    'dsn := "svc_reports:{}@tcp(mysql.svc:3306)/reports?parseTime=true"',
    "$pdo = new PDO('mysql:host=localhost;dbname=blog', 'blog', '{}');",
    "const pool = new Pool({ host: 'pg', user: 'api', password: '{}', database: 'api' })",
    'config :shop, Shop.Repo,\n  username: "shop",\n  password: "{}",\n  hostname: "db"',
    "production:\n  adapter: postgresql\n  username: rails\n  password: {}\n  host: db.prod",
    "psql 'host=pg.prod port=5432 dbname=ledger user=ledger password={} sslmode=require'",
    "Driver={ODBC Driver 18 for SQL Server};Server=sql01;Uid=etl;Pwd={};",
    'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="ingest" password="{}";',
    "[client]\nuser=backup\npassword={}\nhost=127.0.0.1",
    "spring.datasource.password={}",
    "ftp://upload:{}@files.partner.example:21/inbox",
    "smtp://alerts%40corp.example:{}@smtp.office365.com:587",
    "sqlcmd -S sql01 -U sa -P '{}' -Q 'select 1'",
    "neo4j+s://neo4j:{}@4f1a2b3c.databases.neo4j.io",
    "clickhouse-client --host ch01 --user default --password {}",
    "ldapsearch -x -D 'cn=admin,dc=corp,dc=lan' -w {} -b 'dc=corp,dc=lan'",
)


def _connections() -> list[Sample]:
    url_safe = str.maketrans("?#@%&$+", "_-!*.~_")
    return _each(
        "connection string", _DSNS, lambda: _strong(_RNG.randint(12, 20)).translate(url_safe)
    )


# --- bank accounts and IBANs -----------------------------------------------------------------


def _iban(country: str, make_bban: Callable[[], str]) -> str:
    return _valid(iban_number.is_valid, lambda: checkdigits.iban(country, make_bban()))


def _rib_key(bank: str, branch: str, account: str) -> str:
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97:02d}"


def _fr_bban() -> str:
    bank, branch, account = _of(string.digits, 5), _of(string.digits, 5), _of(string.digits, 11)
    return bank + branch + account + _rib_key(bank, branch, account)


def _es_bban() -> str:
    bank, branch, account = _of(string.digits, 4), _of(string.digits, 4), _of(string.digits, 10)
    return bank + branch + ccc.calc_check_digits(bank + branch + "00" + account) + account


_IBANS: tuple[tuple[str, str, Callable[[], str], bool], ...] = (
    (
        "Miete bitte auf {} überweisen, Kontoinhaberin L. Brandt",
        "DE",
        lambda: _of(string.digits, 18),
        True,
    ),
    ("mon RIB pour le remboursement : IBAN {}", "FR", _fr_bban, True),
    ("paga la señal al IBAN {} a nombre de Lucía Ferrer", "ES", _es_bban, True),
    (
        "IBAN per il bonifico dell'affitto: {}",
        "IT",
        lambda: _of(string.ascii_uppercase, 1) + _of(string.digits, 10) + _of(string.digits, 12),
        True,
    ),
    (
        "rekeningnummer voor de borg: {}",
        "NL",
        lambda: _RNG.choice(("INGB", "RABO", "ABNA")) + _of(string.digits, 10),
        False,
    ),
    ("numer konta do przelewu: {}", "PL", lambda: _of(string.digits, 24), True),
    ("o meu IBAN é {}", "PT", lambda: _of(string.digits, 21), True),
    (
        "kira için hesap: {} (Ziraat)",
        "TR",
        lambda: _of(string.digits, 5) + "0" + _of(string.digits, 16),
        True,
    ),
    ("Kontonummer (IBAN) vom Papa: {}", "AT", lambda: _of(string.digits, 16), False),
    ("rekening voor de huur: {}", "BE", lambda: _of(string.digits, 12), True),
    ("رقم الآيبان الخاص بي {}", "SA", lambda: _of(string.digits, 2) + _of(string.digits, 18), True),
    ("IBAN для оплаты: {}", "UA", lambda: _of(string.digits, 6) + _of(string.digits, 19), True),
    ("send the deposit to {}", "GB", lambda: "NWBK" + _of(string.digits, 14), False),
    ("conta no exterior, IBAN {}", "BR", lambda: _of(string.digits, 23) + "C1", True),
)


def _aba() -> str:
    body = _RNG.choice(("02", "03", "11", "12", "26")) + _of(string.digits, 6)
    return body + rtn.calc_check_digit(body)


def _bank() -> list[Sample]:
    out = []
    for template, country, make, spaced in _IBANS:
        value = _iban(country, make)
        written = _fours(value) if spaced else value
        out.append(_s("iban", template.replace("{}", written), written))
    sort_acct = (f"{_digits(2)}-{_of(string.digits, 2)}-{_of(string.digits, 2)}", _digits(8))
    acct_us, acct_in, acct_au = (
        _digits(10),
        _digits(14),
        _of(string.digits, 4) + " " + _of(string.digits, 5),
    )
    accounts = [
        (
            "uk account",
            f"for the rent: sort code {sort_acct[0]}, account number {sort_acct[1]}",
            sort_acct[1],
        ),
        ("us account", f"direct deposit — routing {_aba()}, acct {acct_us} (checking)", acct_us),
        ("india account", f"A/c no. {acct_in}, IFSC HDFC0001234, name Priya S.", acct_in),
        ("au account", f"BSB 062-{_of(string.digits, 3)}, account {acct_au}", acct_au),
    ]
    out += [_s(f, t, v) for f, t, v in accounts]
    rows = (
        ("ru account", "номер счёта для перевода {}", lambda: "40817810" + _of(string.digits, 12)),
        (
            "jp account",
            "振込先：三井住友銀行 渋谷支店 普通 口座番号 {}",
            lambda: _of(string.digits, 7),
        ),
        (
            "kr account",
            "계좌번호 {} 신한은행 (예금주 김민지)",
            lambda: f"110-{_of(string.digits, 3)}-{_of(string.digits, 6)}",
        ),
        (
            "vn account",
            "số tài khoản Vietcombank của em: {}",
            lambda: "0071" + _of(string.digits, 9),
        ),
        ("id account", "transfer ke no rek BCA {} a.n. Siti", lambda: _of(string.digits, 10)),
        ("in account", "मेरा खाता संख्या {} है, SBI", lambda: _of(string.digits, 11)),
        (
            "br account",
            "pode depositar: agência 1234, conta corrente {}",
            lambda: f"{_of(string.digits, 6)}-{_of(string.digits, 1)}",
        ),
        (
            "cn account",
            "我的银行卡号 {}，工商银行",
            lambda: _fours(checkdigits.with_luhn("622202" + _of(string.digits, 12))),
        ),
    )
    for family, template, make in rows:
        out += _each(family, (template,), make)
    return out


# --- cards -----------------------------------------------------------------------------------


def _card(prefix: str, length: int) -> str:
    return checkdigits.with_luhn(prefix + _of(string.digits, length - len(prefix) - 1))


def _cards() -> list[Sample]:
    rows = (
        ("card for the AWS bill: {n} exp 09/29 cvc {c}", "4", 16, 3),
        ("Kreditkarte {n}, gültig bis 08/28, Prüfnummer {c}", "52", 16, 3),
        ("carte bancaire n° {n} exp 11/27 cryptogramme {c}", "4", 16, 3),
        ("tarjeta de la empresa {n} vence 03/30 CVV {c}", "55", 16, 3),
        ("amex for travel {n}  exp 0131  CID {c}", "37", 15, 4),
        ("cartão {n} validade 12/28 código de segurança {c}", "4", 16, 3),
        ("カード番号 {n} 有効期限 06/29 セキュリティコード {c}", "35", 16, 3),
        ("номер карты {n}, срок 05/27, CVC {c}", "2200", 16, 3),
        ("numer karty {n} ważna do 10/28 kod CVV {c}", "51", 16, 3),
        ("kart numarası {n} SKT 04/29 güvenlik kodu {c}", "4", 16, 3),
    )
    out = []
    for template, prefix, length, cvc_len in rows:
        number = _card(prefix, length)
        written = _fours(number) if length == 16 else f"{number[:4]} {number[4:10]} {number[10:]}"
        cvc = _of(string.digits, cvc_len)
        out.append(_s("card", template.format(n=written, c=cvc), written, cvc))
    loose = _card("4", 16)
    out.append(
        _s(
            "card",
            f"- visa\n- {loose}\n- 07/29\n- back: {(cvv := _of(string.digits, 3))}",
            loose,
            cvv,
        )
    )
    return out


# --- identity numbers, birth dates, phones ---------------------------------------------------


def _codice_fiscale() -> str:
    body = (
        _of(string.ascii_uppercase, 6)
        + f"{_RNG.randint(50, 99)}"
        + _RNG.choice("ABCDEHLMPRST")
        + f"{_RNG.randint(1, 71):02d}"
        + _RNG.choice("ABCDEFGHLM")
        + _of(string.digits, 3)
    )
    return body + codicefiscale.calc_check_digit(body)


def _nir() -> str:
    body = f"{_RNG.choice('12')}{_RNG.randint(60, 99)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 95):02d}{_of(string.digits, 6)}"
    return f"{body} {97 - int(body) % 97:02d}"


def _pesel() -> str:
    body = f"{_RNG.randint(60, 99)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 28):02d}{_of(string.digits, 4)}"
    return body + pesel.calc_check_digit(body)


def _cn_ric() -> str:
    body = f"110105{_RNG.randint(1960, 2000)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 28):02d}{_of(string.digits, 3)}"
    return body + ric.calc_check_digit(body)


def _rrn() -> str:
    body = f"{_RNG.randint(70, 99)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 28):02d}{_RNG.choice('12')}{_of(string.digits, 5)}"
    full = body + rrn.calc_check_digit(body)
    return f"{full[:6]}-{full[6:]}"


def _snils() -> str:
    body = _of(string.digits, 9)
    total = sum(int(d) * (9 - i) for i, d in enumerate(body)) % 101
    check = 0 if total == 100 else total
    return f"{body[:3]}-{body[3:6]}-{body[6:]} {check:02d}"


def _ssn() -> str:
    return f"{_RNG.randint(100, 665)}-{_RNG.randint(10, 99)}-{_RNG.randint(1000, 9999)}"


def _uk_licence() -> str:
    year = _RNG.randint(60, 99)
    return f"HARRI{year // 10}{_RNG.choice(('06', '57', '11'))}{_RNG.randint(10, 28)}{year % 10}JD9{_of(string.ascii_uppercase, 2)}"


_IDS: tuple[tuple[str, str, Callable[[], str]], ...] = (
    (
        "passport",
        "passport no. for the visa form: {}",
        lambda: "C" + _of("CFGHJKLMNPRTVWXYZ0123456789", 8),
    ),
    ("passport", "my passport number is {}, expires 2031", lambda: _digits(9)),
    (
        "passport",
        "numéro de passeport : {}",
        lambda: f"{_of(string.digits, 2)}{_of(string.ascii_uppercase, 2)}{_of(string.digits, 5)}",
    ),
    ("passport", "número do passaporte {}", lambda: "FZ" + _of(string.digits, 6)),
    ("passport", "护照号码 {}", lambda: "E" + _of(string.digits, 8)),
    ("passport", "旅券番号：{}", lambda: "TK" + _of(string.digits, 7)),
    ("passport", "загранпаспорт {}", lambda: f"75 {_of(string.digits, 7)}"),
    ("passport", "numer paszportu {}", lambda: "EA" + _of(string.digits, 7)),
    ("passport", "pasaport numaram {}", lambda: "U" + _of(string.digits, 8)),
    ("passport", "पासपोर्ट नंबर {}", lambda: "J" + _of(string.digits, 7)),
    ("driving licence", "driving licence number {}", _uk_licence),
    ("driving licence", "DL# {} (California)", lambda: "D" + _of(string.digits, 7)),
    ("driving licence", "Führerscheinnummer {}", lambda: "B07" + _of(_UPPER_ALNUM, 8)),
    ("driving licence", "numéro de permis de conduire {}", lambda: _digits(12)),
    (
        "driving licence",
        "patente n. {}",
        lambda: (
            f"U1{_of(string.ascii_uppercase, 1)}{_of(string.digits, 5)}{_of(string.ascii_uppercase, 1)}"
        ),
    ),
    (
        "national id",
        "DNI {} (para la reserva)",
        lambda: (d := _of(string.digits, 8)) + dni.calc_check_digit(d),
    ),
    ("national id", "codice fiscale: {}", _codice_fiscale),
    ("national id", "numéro de sécu {}", _nir),
    ("national id", "PESEL {}", _pesel),
    ("national id", "BSN {}", lambda: _valid(bsn.is_valid, lambda: _digits(9))),
    ("national id", "TC kimlik no {}", lambda: (d := _digits(9)) + tckimlik.calc_check_digits(d)),
    (
        "national id",
        "CPF da minha mãe: {}",
        lambda: (
            c := _valid(cpf.is_valid, lambda: _digits(11)),
            f"{c[:3]}.{c[3:6]}.{c[6:9]}-{c[9:]}",
        )[1],
    ),
    (
        "national id",
        "NIF para a fatura {}",
        lambda: (d := _RNG.choice("12") + _of(string.digits, 7)) + nif.calc_check_digit(d),
    ),
    ("national id", "身份证号 {}", _cn_ric),
    ("national id", "Aadhaar {}", lambda: _fours(checkdigits.with_verhoeff(_digits(11)))),
    (
        "national id",
        "PAN card: {}",
        lambda: (
            f"{_of(string.ascii_uppercase, 3)}P{_of(string.ascii_uppercase, 1)}{_of(string.digits, 4)}{_of(string.ascii_uppercase, 1)}"
        ),
    ),
    ("national id", "SSN {} for the W-4", _ssn),
    (
        "national id",
        "NI number {} for HMRC",
        lambda: f"JT {_of(string.digits, 2)} {_of(string.digits, 2)} {_of(string.digits, 2)} C",
    ),
    ("national id", "주민등록번호 {}", _rrn),
    ("national id", "マイナンバー {}", lambda: (d := _digits(11)) + my_number.calc_check_digit(d)),
    (
        "national id",
        "NIK KTP {}",
        lambda: _valid(
            nik.is_valid,
            lambda: (
                f"3174{_of(string.digits, 2)}{_RNG.randint(1, 28):02d}{_RNG.randint(1, 12):02d}{_RNG.randint(60, 99)}{_of(string.digits, 4)}"
            ),
        ),
    ),
    (
        "national id",
        "số CCCD {}",
        lambda: (
            f"0{_of(string.digits, 2)}{_RNG.choice('01')}{_RNG.randint(60, 99)}{_of(string.digits, 6)}"
        ),
    ),
    ("national id", "РНОКПП {}", lambda: (d := _digits(9)) + rntrc.calc_check_digit(d)),
    ("national id", "СНИЛС {}", _snils),
    (
        "national id",
        "ИНН физлица {}",
        lambda: (d := _digits(10)) + inn.calc_personal_check_digits(d),
    ),
    (
        "national id",
        "رقم الهوية الوطنية {}",
        lambda: checkdigits.with_luhn("1" + _of(string.digits, 8)),
    ),
    (
        "national id",
        "Emirates ID {}",
        lambda: (
            e := checkdigits.with_luhn(
                "784" + str(_RNG.randint(1970, 2000)) + _of(string.digits, 7)
            ),
            f"{e[:3]}-{e[3:7]}-{e[7:14]}-{e[14]}",
        )[1],
    ),
    ("national id", "Steuer-ID {}", lambda: _valid(idnr.is_valid, lambda: _digits(11))),
)

_BIRTHS = (
    ("DOB 14/03/1987 — needed for the insurance form", "14/03/1987"),
    ("geboren am 3. Mai 1979 in Leipzig", "3. Mai 1979"),
    ("née le 22/09/1991", "22/09/1991"),
    ("fecha de nacimiento: 07-11-1984", "07-11-1984"),
    ("生年月日 1990年4月12日", "1990年4月12日"),
    ("дата рождения 05.06.1982", "05.06.1982"),
    ("data de nascimento 30/01/1975", "30/01/1975"),
    ("doğum tarihi 19.08.1993", "19.08.1993"),
)

_PHONES: tuple[tuple[str, str, str], ...] = (
    ("my mobile is {}, text don't call", "DE", "+49 151 ########"),
    ("meu celular: {}", "BR", "(11) 9####-####"),
    ("mon portable : {}", "FR", "06 ## ## ## ##"),
    ("mi móvil es el {}", "ES", "6## ### ###"),
    ("il mio cellulare {}", "IT", "347 ### ####"),
    ("handynummer von Oma {}", "DE", "0176 ########"),
    ("мой номер {}", "RU", "+7 916 ###-##-##"),
    ("我的手机号 {}", "CN", "138 #### ####"),
    ("携帯 {}", "JP", "090-####-####"),
    ("내 휴대폰 {}", "KR", "010-####-####"),
    ("رقم جوالي {}", "SA", "+966 55 ### ####"),
    ("मेरा मोबाइल नंबर {}", "IN", "98### #####"),
    ("số điện thoại của em {}", "VN", "091# ### ###"),
    ("nomor HP aku {}", "ID", "0812-####-####"),
    ("mój numer komórki {}", "PL", "5## ### ###"),
    ("cep telefonum {}", "TR", "0532 ### ## ##"),
)


def _phone(region: str, pattern: str) -> str:
    def make() -> str:
        return "".join(_RNG.choice(string.digits) if c == "#" else c for c in pattern)

    def ok(value: str) -> bool:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, region))

    return _valid(ok, make)


def _personal() -> list[Sample]:
    out = []
    for family, template, make in _IDS:
        out += _each(family, (template,), make)
    out += [_s("birth date", t, v) for t, v in _BIRTHS]
    for template, region, pattern in _PHONES:
        value = _phone(region, pattern)
        out.append(_s("phone", template.replace("{}", value), value))
    return out


# --- moving a setup to another machine -------------------------------------------------------


def _migration() -> list[Sample]:
    p = [_pw() for _ in range(12)]
    gh, npm, gho = "ghp_" + _of(_ALNUM, 36), "npm_" + _of(_ALNUM, 36), "gho_" + _of(_ALNUM, 36)
    akid, asec = "AKIA" + _of(_UPPER_ALNUM, 16), _of(_ALNUM + "/+", 40)
    oai, stripe = "sk-" + _of(_ALNUM, 48), "sk_live_" + _of(_ALNUM, 24)
    docker_auth = base64.b64encode(f"deploybot:{p[3]}".encode()).decode()
    fz = base64.b64encode(p[6].encode()).decode()
    cargo = "cio" + _of(_ALNUM, 32)
    rows = [
        (
            "dotenv",
            f"# copied from the old laptop\nNODE_ENV=production\nJWT_SECRET={(j := _of(_ALNUM, 48))}\nSMTP_PASS={p[0]}\nPORT=8080",
            (j, p[0]),
        ),
        ("netrc", f"machine api.heroku.com\n  login ops@corp.example\n  password {p[1]}", (p[1],)),
        ("pgpass", f"~/.pgpass:\ndb.internal:5432:*:reporting:{p[2]}", (p[2],)),
        ("npmrc", f"//registry.npmjs.org/:_authToken={npm}\nalways-auth=true", (npm,)),
        (
            "pypirc",
            f"[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc{(pp := _of(_URLSAFE, 90))}",
            ("pypi-AgEIcHlwaS5vcmc" + pp,),
        ),
        ("git credentials", f"cat ~/.git-credentials\nhttps://mkowalski:{gh}@github.com", (gh,)),
        (
            "aws credentials",
            f"[default]\naws_access_key_id = {akid}\naws_secret_access_key = {asec}\nregion = eu-central-1",
            (akid, asec),
        ),
        (
            "docker config",
            f'{{"auths": {{"registry.gitlab.com": {{"auth": "{docker_auth}"}}}}}}',
            (docker_auth,),
        ),
        (
            "gh hosts",
            f"github.com:\n    oauth_token: {gho}\n    user: mkowalski\n    git_protocol: ssh",
            (gho,),
        ),
        (
            "password manager export",
            f"name,url,username,password\nBank,https://ebanking.example.ch,anna.meier,{p[4]}",
            (p[4],),
        ),
        (
            "password manager export",
            f"url,username,password,totp,extra,name,grouping,fav\nhttps://mail.example.com,kim@mail.example.com,{p[5]},,,Mail,Personal,0",
            (p[5],),
        ),
        (
            "password manager export",
            f'"Title","Username","Password","URL"\n"Router","admin","{p[7]}","http://192.168.1.1"',
            (p[7],),
        ),
        (
            "keepass xml",
            f'<String><Key>UserName</Key><Value>j.doe</Value></String>\n<String><Key>Password</Key><Value ProtectInMemory="True">{p[8]}</Value></String>',
            (p[8],),
        ),
        (
            "compose",
            f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {p[9]}",
            (p[9],),
        ),
        (
            "compose",
            f"  mariadb:\n    environment:\n      - MYSQL_ROOT_PASSWORD={p[10]}\n      - MYSQL_DATABASE=wp",
            (p[10],),
        ),
        (
            "kubernetes",
            f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: api\nstringData:\n  OPENAI_API_KEY: {oai}",
            (oai,),
        ),
        (
            "shell profile",
            f"# ~/.config/fish/config.fish\nset -gx STRIPE_SECRET_KEY {stripe}",
            (stripe,),
        ),
        (
            "shell profile",
            f'$env:AZURE_CLIENT_SECRET = "{(az := _of(_URLSAFE + "~.", 40))}"',
            (az,),
        ),
        ("shell profile", f'setx SMTP_PASSWORD "{p[11]}"', (p[11],)),
        (
            "filezilla",
            f'<Server><Host>ftp.studio.example</Host><User>studio</User><Pass encoding="base64">{fz}</Pass></Server>',
            (fz,),
        ),
        ("cargo", f'# ~/.cargo/credentials.toml\n[registry]\ntoken = "{cargo}"', (cargo,)),
        (
            "maven",
            f"<server>\n  <id>ossrh</id>\n  <username>lib-release</username>\n  <password>{(mv := _strong(16))}</password>\n</server>",
            (mv,),
        ),
        ("gradle", f"signing.password={(gp := _weak())}\nossrhUsername=lib-release", (gp,)),
        (
            "composer",
            f'{{"github-oauth": {{"github.com": "{(cg := "ghp_" + _of(_ALNUM, 36))}"}}}}',
            (cg,),
        ),
        (
            "htpasswd",
            f"admin:$apr1${(salt := _of(_ALNUM, 8))}${(h := _of(_ALNUM + './', 22))}",
            (f"$apr1${salt}${h}",),
        ),
        (
            "shell profile",
            f"alias proddb='mysql -h db1 -u root -p{(ap := _strong(14))} shop'",
            (ap,),
        ),
    ]
    key_body = [_of(_ALNUM + "+/", 70) for _ in range(5)]
    block = "\n".join(
        ["-----BEGIN OPENSSH PRIVATE KEY-----", *key_body, "-----END OPENSSH PRIVATE KEY-----"]
    )
    out = [_s(f"migration ({f})", t, *s) for f, t, s in rows]
    out.append(_s("migration (ssh key)", f"old id_ed25519, in case:\n{block}", *key_body))
    return out


# --- disguises ------------------------------------------------------------------------------

_ZW = "\u200b"


def _disguises() -> list[Sample]:
    v = [_strong(14) for _ in range(24)]
    tok = "ghp_" + _of(_ALNUM, 36)
    stripe = "sk_live_" + _of(_ALNUM, 32)
    b64 = base64.b64encode(v[4].encode()).decode()
    hexed = v[5].encode().hex()
    rot = codecs.encode(v[7], "rot13")
    quoted = urllib.parse.quote(v[8] + "/&=", safe="")
    fw = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in v[9])
    zw_value = v[10][:5] + _ZW + v[10][5:]
    rows = [
        ("homoglyph keyword", f"раssword: {v[0]}", (v[0],)),
        ("homoglyph keyword", f"Раsswоrd fоr the VPN → {v[1]}", (v[1],)),
        ("zero-width keyword", f"pass{_ZW}word = {v[2]}", (v[2],)),
        ("zero-width value", f"db password: {zw_value}", (zw_value,)),
        ("leet keyword", f"p4ssw0rd: {v[3]}", (v[3],)),
        ("base64 value", f"the admin pw, base64'd so the bot won't eat it: {b64}", (b64,)),
        ("hex value", f"password (hex): {hexed}", (hexed,)),
        ("reversed value", f"pw backwards so nobody copies it: {v[6][::-1]}", (v[6][::-1],)),
        ("rot13 value", f"rot13 of the root password: {rot}", (rot,)),
        ("percent-encoded", f"https://portal.example/login?user=ops&pass={quoted}", (quoted,)),
        ("fullwidth value", f"パスワード：{fw}", (fw,)),
        ("spaced keyword", f"p a s s w o r d → {v[11]}", (v[11],)),
        ("dotted keyword", f"p.w.: {v[12]}", (v[12],)),
        (
            "split over lines",
            f"the key, in two parts\npart 1: {tok[:20]}\npart 2: {tok[20:]}",
            (tok[:20], tok[20:]),
        ),
        ("split over bullets", f"- login: root\n- pass:\n  - {v[13]}", (v[13],)),
        ("html comment", f"<p>Deploy notes</p>\n<!-- root pw {v[14]} -->", (v[14],)),
        ("code comment", f"conn = connect(host)  # TODO remove: admin/{v[15]}", (v[15],)),
        (
            "markdown table",
            f"| service | user | secret |\n| --- | --- | --- |\n| stripe | ops | {stripe} |",
            (stripe,),
        ),
        (
            "keyword far away",
            f"Login for the shared Netflix, don't post it in the group chat please. We pay it monthly, Ana added her profile yesterday and the kids have theirs.\nIt's {v[16]}",
            (v[16],),
        ),
        ("emoji keyword", f"🔑 {v[17]}", (v[17],)),
        ("json escaped keyword", f'{{"\\u0070assword": "{v[18]}"}}', (v[18],)),
        ("greek homoglyph", f"ΡΑSSWORD={v[19]}", (v[19],)),
        ("split value", f"pw is {v[20][:7]} + {v[20][7:]} (no space)", (v[20][:7], v[20][7:])),
        (
            "url query token",
            f"https://api.partner.example/v2/export?access_token={(at := _of(_ALNUM, 40))}&fmt=csv",
            (at,),
        ),
        ("uppercase keyword", f"ROOT PASSWORD IS {v[21]}", (v[21],)),
        ("quoted reply", f"> what's the staging pass?\n{v[22]}", (v[22],)),
    ]
    return [_s(f, t, *s) for f, t, s in rows]


def _samples() -> tuple[Sample, ...]:
    return tuple(
        _wifi_and_doors()
        + _prose()
        + _vendor_keys()
        + _connections()
        + _bank()
        + _cards()
        + _personal()
        + _migration()
        + _disguises()
    )


# --- look-alikes -----------------------------------------------------------------------------


def _build_lookalikes() -> tuple[Lookalike, ...]:
    sha = _of(_HEX, 40)
    short = sha[:9]
    sha256 = _of(_HEX, 64)
    uuid = f"{_of(_HEX, 8)}-{_of(_HEX, 4)}-4{_of(_HEX, 3)}-a{_of(_HEX, 3)}-{_of(_HEX, 12)}"
    digest = "sha256:" + _of(_HEX, 64)
    integrity = "sha512-" + base64.b64encode(_RNG.randbytes(64)).decode()
    ssh_pub = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _of(_ALNUM + "+/", 43) + " marta@laptop"
    pk = "pk_live_" + _of(_ALNUM, 24)
    rows: list[tuple[str, str]] = [
        # orders, invoices, tracking
        ("order number", "Order #112-4839201-5583120 shipped yesterday"),
        ("order number", "Bestellnummer 4031129934 — Lieferung Dienstag"),
        ("order number", "numéro de commande FR-2026-118273, retour accepté"),
        ("order number", "número de pedido 40-2291-7735 (devolución en curso)"),
        ("order number", "注文番号 250-3381920-1174488 のキャンセル完了"),
        ("order number", "订单号 2026120718394402 已发货"),
        ("invoice", "Rechnung Nr. 2026-00471 vom 02.12.2026, zahlbar in 14 Tagen"),
        ("invoice", "fattura n. 118/2026 del 30/11"),
        ("invoice", "factuur 2026-0932 staat klaar in het portaal"),
        ("tracking", "UPS tracking 1Z999AA10123456784, out for delivery"),
        ("tracking", "Sendungsnummer 00340434161094042557 (DHL)"),
        ("tracking", "USPS: 9400 1118 9922 3344 5566 77"),
        ("tracking", "Royal Mail tracked: AB123456789GB"),
        ("tracking", "código de rastreio NL123456789BR"),
        ("tracking", "трек-номер RA644000001RU, посылка в пути"),
        ("ticket", "JIRA-4821 and OPS-119 are blocked on the vendor"),
        ("ticket", "see PR #4471 and issue #4468"),
        ("ticket", "Zendesk ticket 883104 closed"),
        # versions, builds, hashes
        ("version", "upgraded to v2.14.3-rc.1 this morning"),
        ("version", "Python 3.12.7, node 20.11.1, pnpm 9.12.0"),
        ("version", "macOS 15.1 (build 24B83), Xcode 16.1 (16B40)"),
        ("version", "firmware 1.04.22_8812 on the router"),
        ("version", "Android 14, security patch 2026-11-05"),
        ("version", "kernel 6.8.0-49-generic"),
        ("commit", f"fixed in commit {short}, see the revert before it"),
        ("commit", f"bisected to {sha} — the refactor of the parser"),
        ("commit", f"reverted {sha[:12]} because it broke the build on arm64"),
        ("digest", f"image pinned to ghcr.io/acme/api@{digest}"),
        ("digest", f"sha256sum of the ISO: {sha256}"),
        ("digest", f'"integrity": "{integrity}"'),
        ("uuid", f"request_id={uuid} status=502 upstream timed out"),
        ("uuid", f"Trace-Id {uuid}"),
        # money, time, places
        ("price", "Preis: 1.299,00 € inkl. MwSt."),
        ("price", "R$ 4.590,90 em 10x sem juros"),
        ("price", "¥12,800 (税込)"),
        ("price", "₹ 1,49,999 after the exchange offer"),
        ("price", "total $2,417.36 incl. shipping"),
        ("price", "AAPL closed at 227.48, up 1.9 %"),
        ("time", "meeting 14:30–15:45 CET, room Oslo"),
        ("time", "2026-12-07T07:57:17Z job finished in 00:04:31"),
        ("time", "Abfahrt 17:42, Gleis 9, ICE 577"),
        ("time", "vuelo IB3166 sale a las 06:55"),
        ("date", "release date 2025-03-14, end of support 2028-03-14"),
        ("date", "the company was founded on 14/03/1987 in Lyon"),
        ("date", "Geburtstag von Goethe: 28. August 1749"),
        ("place", "postcode SW1A 1AA, zip 10115, CEP 01310-100"),
        ("place", "coordinates 52.5200, 13.4050"),
        ("place", "Gate B23, seat 14C, boarding group 3"),
        ("place", "room 4012 is on the fourth floor, next to the lifts"),
        ("place", "Bahnsteig 4, Wagen 12, Platz 71"),
        # public numbers
        ("public phone", "Hotline (Mo–Fr 8–20 Uhr): 0800 330 1000 — kostenlos"),
        ("public phone", "emergency numbers: 112 in the EU, 911 in the US"),
        ("public phone", "Kundenservice der Bahn: 030 2970"),
        ("public phone", "toll-free support line printed on the box: 1-800-275-2273"),
        ("company id", "USt-IdNr. DE136695976, HRB 86891 Amtsgericht München"),
        ("company id", "SIRET de la boulangerie affiché sur le ticket"),
        ("bank code", "BIC of the bank: DEUTDEFFXXX"),
        ("bank code", "SWIFT code BARCGB22 for international transfers"),
        ("masked card", "paid with the card ending in 4821"),
        ("masked card", "Visa •••• 7730 expires 09/27"),
        ("masked card", "**** **** **** 1142"),
        ("test card", "Stripe's test card 4242 4242 4242 4242 works in test mode only"),
        ("ean", "EAN 4006381333931 on the packaging"),
        ("isbn", "ISBN 978-3-16-148410-0"),
        ("doi", "doi:10.1038/s41586-024-07421-0"),
        # placeholders and references
        ("placeholder", "API_KEY=<your-token-here>"),
        ("placeholder", "password: ********"),
        ("placeholder", "OPENAI_API_KEY=your_api_key_here"),
        ("placeholder", "DB_PASSWORD=${DB_PASSWORD}"),
        ("placeholder", "token: {{ secrets.NPM_TOKEN }}"),
        ("placeholder", "password = os.environ['DB_PASS']"),
        ("placeholder", "Authorization: Bearer <token>"),
        ("placeholder", "sk-...xxxx (the key is in the vault)"),
        ("placeholder", "password: <redacted>"),
        ("placeholder", "token = REPLACE_ME"),
        ("placeholder", "Passwort: steht im Tresor, nicht hier"),
        ("placeholder", "contraseña: la de siempre (pregúntame)"),
        ("placeholder", "password is in 1Password under 'Ops / staging'"),
        ("placeholder", "export DATABASE_URL=postgres://localhost/dev"),
        ("placeholder", "redis://localhost:6379/0"),
        ("placeholder", "set OPENAI_API_KEY in your shell before running the script"),
        ("placeholder", "the ghp_ prefix marks a GitHub personal access token"),
        ("placeholder", "mysql -u root -p  (it will prompt for the password)"),
        ("placeholder", "IdentityFile ~/.ssh/id_ed25519"),
        ("placeholder", "WIFI:T:nopass;S:Cafe-Open;;"),
        # policies and talk about passwords
        ("policy", "password policy requires 12 characters, one digit and one symbol"),
        ("policy", "Passwort muss mindestens 10 Zeichen lang sein und eine Zahl enthalten"),
        ("policy", "le mot de passe doit contenir au moins 8 caractères"),
        ("policy", "la contraseña debe tener al menos 8 caracteres y una mayúscula"),
        ("policy", "a senha precisa ter 8 dígitos"),
        ("policy", "la password scade ogni 90 giorni"),
        ("policy", "wachtwoord moet minstens 12 tekens bevatten"),
        ("policy", "hasło musi mieć co najmniej 8 znaków"),
        ("policy", "şifre en az 8 karakter olmalı"),
        ("policy", "пароль должен содержать не менее 8 символов"),
        ("policy", "пароль має містити щонайменше 8 символів"),
        ("policy", "密码长度至少8位，需包含字母和数字"),
        ("policy", "パスワードは8文字以上で設定してください"),
        ("policy", "비밀번호는 8자 이상이어야 합니다"),
        ("policy", "يجب أن تحتوي كلمة المرور على 8 أحرف على الأقل"),
        ("policy", "पासवर्ड में कम से कम 8 अक्षर होने चाहिए"),
        ("policy", "mật khẩu phải có ít nhất 8 ký tự"),
        ("policy", "kata sandi minimal 8 karakter"),
        ("policy", "PIN must be 4 to 6 digits; enter the 6-digit code we sent you"),
        ("forgotten", "Ich habe mein Passwort vergessen und muss es zurücksetzen"),
        ("forgotten", "j'ai encore oublié mon mot de passe, lien de réinitialisation envoyé"),
        ("forgotten", "olvidé mi contraseña otra vez"),
        ("forgotten", "esqueci a senha do app do banco"),
        ("forgotten", "忘记密码了，需要重置"),
        ("forgotten", "パスワードを忘れたので再設定しました"),
        ("forgotten", "비밀번호를 잊어버려서 재설정했어요"),
        ("forgotten", "забыл пароль от почты, восстановил через SMS"),
        ("forgotten", "şifremi unuttum, sıfırlama linki gelmedi"),
        ("forgotten", "lupa kata sandi, minta reset ke admin"),
        ("forgotten", "quên mật khẩu rồi, phải đặt lại"),
        ("forgotten", "पासवर्ड भूल गया, रीसेट करना पड़ेगा"),
        ("forgotten", "reset your password at https://accounts.example.com/reset"),
        ("forgotten", "the door code changes every month, ask reception for this month's"),
        ("forgotten", "hotel wifi is open, no password needed"),
        ("forgotten", "het wachtwoord is verlopen, ik moet een nieuw kiezen"),
        ("forgotten", "zapomniałem hasła do banku"),
        ("forgotten", "ho dimenticato la password dello SPID"),
        # public keys and public ids
        ("public key", f"authorized_keys gets: {ssh_pub}"),
        ("public key", f"publishable key for the checkout page: {pk}"),
        (
            "public key",
            "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA"
            + _of(_ALNUM, 27)
            + "=\n-----END PUBLIC KEY-----",
        ),
        ("public id", "AWS account 123456789012, role arn:aws:iam::123456789012:role/deploy"),
        ("public id", "Slack channel C04QH2X9K, user U01ABCD2EFG"),
        ("public id", "pod api-7d9f8b6c5-x2k4p restarted 3 times"),
        ("public id", "container 3f4e9a1b2c7d exited with code 137"),
        ("public id", "watch https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        ("public id", "Twilio account SID is in the dashboard header"),
        ("public id", "MAC 3c:22:fb:91:0a:7e, IP 192.168.1.34, fe80::1c2b:3aff:fe4d:5e6f"),
        # codes that open nothing
        ("error code", "Windows update failed with 0x80070005"),
        ("error code", "HTTP 404 on /api/v2/users, then 503"),
        ("error code", "exit code 137 (OOM killed)"),
        ("error code", "Fehlercode E-4021 am Drucker"),
        ("error code", "código de error 0xC004F074 al activar"),
        ("error code", "ошибка 0x80004005 при копировании"),
        ("error code", "エラーコード 1020 が表示される"),
        ("number", "pi is 3.14159265358979, e is 2.71828182845904"),
        ("number", "SKU HX-2291-BLK-XL restocked"),
        ("number", "flight LH 1234 delayed 40 min"),
        ("number", "the contract runs 24 months, notice period 3 months"),
        ("number", "we had 12,480 visitors and 1,337 sign-ups in November"),
        ("number", "Zimmer 214, Frühstück 7–10 Uhr"),
        ("number", "model no. WH-1000XM5, serial shown on the box"),
        ("number", "the lockbox is the grey one left of the door"),
        ("number", "temperature 21.5 °C, humidity 48 %"),
        ("number", "port 5432, database analytics, schema public"),
        ("number", "the 2FA app shows a new code every 30 seconds"),
        ("number", "PLZ 80331, Hausnummer 12a"),
        ("number", "kod pocztowy 00-950 Warszawa"),
        ("number", "版本号 3.2.1，构建号 20261207"),
        ("number", "버전 4.2.0 업데이트 완료"),
        ("number", "phiên bản 2.3.1 đã phát hành"),
        ("number", "versi 5.0.2 sudah dirilis"),
        ("number", "संस्करण 1.2.3 जारी"),
        ("number", "الإصدار 2.0.1 متاح الآن"),
    ]
    return tuple(Lookalike(f, t) for f, t in rows)


@functools.cache
def _corpus() -> tuple[tuple[Sample, ...], tuple[Lookalike, ...]]:
    return _samples(), _build_lookalikes()


def secret_samples() -> list[Sample]:
    """Texts holding secrets, each with the exact strings redaction must remove."""
    return list(_corpus()[0])


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive: redaction must leave each byte for byte."""
    return list(_corpus()[1])
