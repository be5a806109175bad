"""The round-two corpus: written before the rules were read, in kinds and languages the earlier
corpora do not hold, and measured as it stood before any rule was changed for it.

Secrets: passwords in the prose of Polish, Turkish, Vietnamese, Arabic, Hindi, Indonesian,
Czech, Hungarian, Greek, Hebrew, Finnish, Swedish, Romanian, Ukrainian, Thai, Persian, Swahili,
Danish and Norwegian; Terraform, Kotlin, PHP, ``.env`` with ``export``, Docker compose, systemd
``Environment=``, ``curl -u``, HTTP logs; keys of cloud vendors the earlier corpora leave out;
national numbers after the word that names them; phones in national formats with a word that
says so; obfuscated e-mails in several languages; secrets split over lines or encoded.

Look-alikes (more than 40 % of the texts): order and tracking numbers, versions, commit hashes,
UUIDs in logs, placeholders, prices, dates, ISBNs, bare numbers, password talk with no password,
and values that only point to where a secret is kept. Every value is fake: tokens come from a
fixed seed, numbers carry their check digits but name nobody.
"""

from __future__ import annotations

import base64
import random
import string
from typing import NamedTuple

from tests import checkdigits

_RNG = random.Random(20270301)
_ALNUM = string.ascii_letters + string.digits
_LOWER = string.ascii_lowercase + string.digits
_UPPER = string.ascii_uppercase + string.digits
_URLSAFE = _ALNUM + "-_"
_B64 = _ALNUM + "+/"
_HEX = "0123456789abcdef"


class Sample(NamedTuple):
    """A text holding secrets: ``secrets`` must all be gone from its redaction."""

    family: str
    text: str
    secrets: tuple[str, ...]


class Lookalike(NamedTuple):
    """A text that only looks sensitive: its redaction must equal it."""

    family: str
    text: str


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _digits(length: int) -> str:
    return str(_RNG.randint(1, 9)) + _t(length - 1, string.digits)


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _l(family: str, text: str) -> Lookalike:
    return Lookalike(family, text)


def _uuid() -> str:
    h = _t(32, _HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _groups(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def _pesel(body: str) -> str:
    weights = (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)
    total = sum(int(d) * w for d, w in zip(body, weights, strict=True))
    return body + str((10 - total % 10) % 10)


def _tckn(first9: str) -> str:
    d = [int(c) for c in first9]
    tenth = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    eleventh = (sum(d) + tenth) % 10
    return first9 + str(tenth) + str(eleventh)


def _bsn(first8: str) -> str:
    for check in string.digits:
        n = first8 + check
        total = sum(int(d) * w for d, w in zip(n, (9, 8, 7, 6, 5, 4, 3, 2, -1), strict=True))
        if total % 11 == 0:
            return n
    return _bsn(str(int(first8) + 1).zfill(8))


def _cpf(first9: str) -> str:
    d = [int(c) for c in first9]
    first = (sum(v * w for v, w in zip(d, range(10, 1, -1), strict=True)) * 10) % 11 % 10
    d.append(first)
    second = (sum(v * w for v, w in zip(d, range(11, 1, -1), strict=True)) * 10) % 11 % 10
    return f"{first9[:3]}.{first9[3:6]}.{first9[6:9]}-{first}{second}"


def _dni(number: str) -> str:
    return number + "TRWAGMYFPDXBNJZSQVHLCKE"[int(number) % 23]


# --------------------------------------------------------------------------- secrets


def _prose() -> list[Sample]:
    """Passwords in everyday sentences, languages the earlier corpora did not hold."""
    rows = [
        ("Polish", "Hasło do routera w biurze to {v}, nie zmieniaj go.", "Kx7mPq29zLw"),
        ("Polish", "Moje hasło do banku brzmi {v} — zapisz gdzieś bezpiecznie.", "Wrzesien#8812"),
        ("Polish", "hasło: {v}", "Tatry!2026zima"),
        ("Polish", "Dla gości: sieć Biuro_5G, hasło {v}.", "kawa-z-mlekiem-77"),
        ("Turkish", "Wi-Fi şifresi: {v}", "Kedi2024Mavi!"),
        ("Turkish", "Sunucunun root parolası {v} olarak ayarlandı.", "Gx8tLm2qPz"),
        ("Turkish", "şifrem {v} ama kimseye söyleme", "Bogazici_1863"),
        ("Turkish", "Muhasebe sisteminin şifresi şu: {v}", "Lira$Defter45"),
        ("Vietnamese", "Mật khẩu wifi là: {v}", "PhoBo2026hn"),
        ("Vietnamese", "mật khẩu của tôi là {v} nhé", "SaiGon@9988x"),
        ("Vietnamese", "Tài khoản admin, mật khẩu {v}", "q7Rt-Lk29-Vn"),
        ("Arabic", "كلمة المرور هي {v}", "Sahara#2026x"),
        ("Arabic", "كلمة السر للشبكة: {v}", "nakhla_77Qb"),
        ("Arabic", "الرقم السري لحساب البريد {v}", "Qmr4!tRz81"),
        ("Hindi", "मेरा पासवर्ड {v} है", "Dilli@2026Rk"),
        ("Hindi", "वाईफाई का पासवर्ड: {v}", "chai-samosa-42"),
        ("Hindi", "सर्वर का पासवर्ड {v} रखा है।", "Ganga#77xQ"),
        ("Indonesian", "Kata sandi server adalah {v}", "Nasgor88!ok"),
        ("Indonesian", "kata sandinya {v}, jangan disebar ya", "Bali_Pantai21"),
        ("Malay", "Kata laluan e-mel saya: {v}", "KLtower#9090"),
        ("Czech", "Heslo k wifi je {v}", "Pivo2026Plzen"),
        ("Czech", "heslo pro přístup do NASu: {v}", "Vltava!3x9q"),
        ("Hungarian", "A jelszó a routerhez: {v}", "Gulyas2026!"),
        ("Hungarian", "jelszavam {v}, ne add tovább", "Duna_hid_58"),
        ("Greek", "Ο κωδικός πρόσβασης είναι {v}", "Akropoli#88"),
        ("Greek", "κωδικός wifi: {v}", "Thalassa2026z"),
        ("Hebrew", "הסיסמה היא {v}", "Yerushalaim7!"),
        ("Hebrew", "סיסמה לשרת: {v}", "kx9Hq2Lm4v"),
        ("Finnish", "Salasana on {v}", "Sauna!Kesa26"),
        ("Finnish", "wlan-salasana: {v}", "Revontuli-88"),
        ("Swedish", "Lösenordet till NAS:en är {v}", "Kanelbulle#12"),
        ("Swedish", "lösenord: {v}", "Midsommar2026x"),
        ("Romanian", "Parola de la router este {v}", "Carpati!2026"),
        ("Romanian", "parola mea e {v}", "Sarmale_77q"),
        ("Ukrainian", "Пароль від пошти: {v}", "Kyiv2026Sonyah"),
        ("Ukrainian", "пароль до серверу {v}, не кажи нікому", "Dnipro#4471"),
        ("Thai", "รหัสผ่านคือ {v}", "TomYum2026!"),
        ("Thai", "รหัสผ่าน wifi: {v}", "Chiangmai_88"),
        ("Persian", "رمز عبور: {v}", "Tehran#2026q"),
        ("Persian", "گذرواژه سرور {v} است", "Zagros77Lm"),
        ("Swahili", "Nenosiri la wifi ni {v}", "Kilimanjaro88!"),
        ("Danish", "Adgangskoden er {v}", "Smorrebrod#26"),
        ("Norwegian", "Passordet til ruteren er {v}", "Fjord2026Lys"),
        ("Korean", "공유기 비번은 {v} 입니다", "Kimchi2026!!"),
        ("Japanese", "社内Wi-Fiの暗証は {v} です", "Sakura#2026jp"),
        ("Chinese", "服务器的口令是 {v}", "Changcheng88!"),
        ("Spanish", "la clave del wifi es {v}", "Paella2026Vlc"),
        ("Portuguese", "A senha do roteador é {v}", "Saudade#2026"),
        ("Dutch", "het wachtwoord van de NAS is {v}", "Stroopwafel!9"),
        ("Italian", "la password della posta è {v}", "Carbonara#2026"),
        (
            "English",
            "I set the new one for the router to {v}, the password I mean",
            "Gl4ss-Otter-19",
        ),
        ("English", "pw for the shared drive is {v}", "Maple#Leaf2026"),
        ("English", "passcode {v} opens the storage room", "Kp7720Door"),
    ]
    return [_s(f"prose: {lang}", text.format(v=v), v) for lang, text, v in rows]


def _config() -> list[Sample]:
    """Configuration files and code in formats the earlier corpora left out."""
    pw = ["Hx7" + _t(12) for _ in range(40)]
    aws_secret = _t(40, _B64)
    akia = "AKIA" + _t(16, string.ascii_uppercase + "234567")
    stripe = "sk_live_" + _t(24)
    tok = [_t(32) for _ in range(10)]
    return [
        _s(
            "config: terraform",
            f'provider "aws" {{\n  region     = "eu-central-1"\n  access_key = "{akia}"\n'
            f'  secret_key = "{aws_secret}"\n}}',
            akia,
            aws_secret,
        ),
        _s(
            "config: terraform",
            f'variable "db_password" {{\n  type    = string\n  default = "{pw[0]}"\n}}',
            pw[0],
        ),
        _s(
            "config: terraform",
            f'resource "aws_db_instance" "main" {{\n  username = "app"\n  password = "{pw[1]}"\n}}',
            pw[1],
        ),
        _s("config: terraform", f'admin_password = "{pw[2]}"  # terraform.tfvars', pw[2]),
        _s("config: kotlin", f'val apiKey = "{tok[0]}"', tok[0]),
        _s("config: kotlin", f'const val DB_PASSWORD = "{pw[3]}"', pw[3]),
        _s(
            "config: kotlin",
            f'private val client = Client(user = "svc", secret = "{tok[1]}")',
            tok[1],
        ),
        _s("config: php", f"$password = '{pw[4]}';", pw[4]),
        _s("config: php", f"define( 'DB_PASSWORD', '{pw[5]}' );", pw[5]),
        _s(
            "config: php",
            f"'mysql' => [\n    'username' => 'forge',\n    'password' => '{pw[6]}',\n],",
            pw[6],
        ),
        _s("config: php", f'$config["smtp_pass"] = "{pw[7]}";', pw[7]),
        _s("config: env export", f"export STRIPE_SECRET={stripe}", stripe),
        _s("config: env export", f"export PGPASSWORD='{pw[8]}'", pw[8]),
        _s("config: env export", f'export MAILER_AUTH="{tok[2]}"', tok[2]),
        _s("config: env export", f"export  REDIS_PASS={pw[9]}  # prod", pw[9]),
        _s(
            "config: compose",
            f"services:\n  db:\n    image: postgres:16\n    environment:\n"
            f"      POSTGRES_PASSWORD: {pw[10]}",
            pw[10],
        ),
        _s(
            "config: compose",
            f"    environment:\n      - MYSQL_ROOT_PASSWORD={pw[11]}\n      - MYSQL_DATABASE=shop",
            pw[11],
        ),
        _s("config: compose", f'      MINIO_ROOT_PASSWORD: "{pw[12]}"', pw[12]),
        _s(
            "config: systemd",
            f"[Service]\nEnvironment=API_TOKEN={tok[3]}\nExecStart=/usr/bin/app",
            tok[3],
        ),
        _s("config: systemd", f'Environment="DB_PASS={pw[13]}" "DB_USER=app"', pw[13]),
        _s("config: systemd", f"Environment=SECRET_KEY_BASE={tok[4]}", tok[4]),
        _s("config: curl", f"curl -u admin:{pw[14]} https://ci.example.net/api/json", pw[14]),
        _s(
            "config: curl",
            f'curl --user "deploy:{pw[15]}" -X POST https://repo.example.org/upload',
            pw[15],
        ),
        _s(
            "config: curl", f"curl -sS -u 'api:{pw[16]}' https://api.example.io/v3/messages", pw[16]
        ),
        _s("config: java properties", f"spring.datasource.password={pw[17]}", pw[17]),
        _s(
            "config: ini",
            f"[database]\nhost = db.internal\nuser = app\npassword = {pw[18]}",
            pw[18],
        ),
        _s("config: toml", f'[smtp]\nserver = "mail.example.net"\npassword = "{pw[19]}"', pw[19]),
        _s("config: rust", f'let token = "{tok[5]}";', tok[5]),
        _s("config: swift", f'let clientSecret = "{tok[6]}"', tok[6]),
        _s(
            "config: csharp",
            f'"ConnectionStrings": {{ "Default": "Server=sql01;Database=Shop;User Id=sa;'
            f'Password={pw[20]};" }}',
            pw[20],
        ),
        _s("config: ansible", f"ansible_become_pass: {pw[21]}", pw[21]),
        _s("config: helm", f"helm upgrade api ./chart --set auth.password={pw[22]}", pw[22]),
        _s("config: docker", f"docker login -u ci -p {pw[23]} registry.example.com", pw[23]),
        _s("config: mysql", f"mysql -h db01 -u root -p{pw[24]} shop < dump.sql", pw[24]),
        _s("config: sshpass", f"sshpass -p '{pw[25]}' ssh ops@10.0.4.7", pw[25]),
        _s(
            "config: powershell",
            f'$secure = ConvertTo-SecureString "{pw[26]}" -AsPlainText -Force',
            pw[26],
        ),
        _s("config: jdbc", f"jdbc:mysql://db01:3306/shop?user=app&password={pw[27]}", pw[27]),
        _s("config: pip", f"index-url = https://build:{pw[28]}@pypi.example.com/simple", pw[28]),
        _s(
            "config: k8s",
            f"kubectl create secret generic db --from-literal=password={pw[29]}",
            pw[29],
        ),
        _s(
            "config: yaml",
            f"smtp:\n  host: smtp.example.org\n  user: alerts\n  pass: {pw[30]}",
            pw[30],
        ),
        _s("config: go", f'cfg := Config{{User: "svc", Password: "{pw[31]}"}}', pw[31]),
        _s(
            "config: js",
            f"const firebaseConfig = {{ apiKey: \"{tok[7]}\", projectId: 'shop' }};",
            tok[7],
        ),
        _s("config: nginx", f'proxy_set_header X-Api-Key "{tok[8]}";', tok[8]),
        _s(
            "config: htpasswd",
            f"wget --http-user=ops --http-password={pw[32]} https://x.example/f",
            pw[32],
        ),
        _s(
            "config: git",
            f"git clone https://oauth2:{tok[9]}@gitlab.example.com/ops/infra.git",
            tok[9],
        ),
    ]


def _http() -> list[Sample]:
    """Credentials in HTTP logs and raw requests."""
    basic = base64.b64encode(b"admin:" + _t(12).encode()).decode()
    bearer = _t(40, _URLSAFE)
    token = _t(32, _HEX)
    session = _t(48, _URLSAFE)
    apikey = _t(36)
    access = _t(30)
    sig = _t(43)
    ssws = "00" + _t(40, _URLSAFE)
    return [
        _s(
            "http log",
            f"> GET /v1/reports HTTP/1.1\n> Host: api.example.com\n> Authorization: Basic {basic}",
            basic,
        ),
        _s(
            "http log",
            f'10.0.0.7 - - [20/Nov/2026:03:00:01] "GET /feed" 200 "Authorization: Bearer {bearer}"',
            bearer,
        ),
        _s(
            "http log",
            f"DEBUG request headers={{'Authorization': 'Token {token}', 'Accept': '*/*'}}",
            token,
        ),
        _s("http log", f"Cookie: sessionid={session}; theme=dark", session),
        _s("http log", f"X-API-Key: {apikey}", apikey),
        _s(
            "http log",
            f'192.168.1.20 "GET /export?format=csv&access_token={access} HTTP/1.1" 200 5120',
            access,
        ),
        _s("http log", f"https://files.example.net/a.zip?Expires=1790000000&Signature={sig}", sig),
        _s("http log", f"Authorization: SSWS {ssws}", ssws),
    ]


def _vendors() -> list[Sample]:
    """Keys of vendors not in the earlier corpora, by name and by shape."""
    keys = [
        ("Alibaba Cloud", "LTAI" + _t(20)),
        ("Tencent Cloud", "AKID" + _t(32)),
        ("Databricks", "dapi" + _t(32, _HEX)),
        ("Square", "EAAA" + _t(60, _URLSAFE)),
        ("Razorpay", "rzp_live_" + _t(14)),
        ("Flutterwave", "FLWSECK-" + _t(32, _HEX) + "-X"),
        ("Mollie", "live_" + _t(30)),
        ("Age", "AGE-SECRET-KEY-1" + _t(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")),
        ("Buildkite", "bkua_" + _t(40, _HEX)),
        ("CircleCI", "CCIPAT_" + _t(22) + "_" + _t(40, _HEX)),
        ("Fly.io", "fo1_" + _t(43, _URLSAFE)),
        ("Render", "rnd_" + _t(32)),
        ("Contentful", "CFPAT-" + _t(43, _URLSAFE)),
        ("PlanetScale", "pscale_tkn_" + _t(43, _URLSAFE)),
        ("Dropbox", "sl." + _t(130, _URLSAFE)),
        ("Mapbox", "sk.eyJ1Ijoi" + _t(60, _URLSAFE) + "." + _t(22, _URLSAFE)),
        ("Atlassian", "ATATT3xFfGF0" + _t(180, _URLSAFE) + "=" + _t(8, _HEX.upper())),
        ("Brevo", "xkeysib-" + _t(64, _HEX) + "-" + _t(16)),
        ("Mailchimp", _t(32, _HEX) + "-us14"),
        ("RubyGems", "rubygems_" + _t(48, _HEX)),
        ("Pinecone", "pcsk_" + _t(6) + "_" + _t(60)),
        ("Cloudinary", f"cloudinary://{_digits(15)}:{_t(27, _URLSAFE)}@shopcdn"),
        ("Scaleway", "SCW" + _t(17, string.ascii_uppercase)),
        ("HubSpot", "pat-eu1-" + _uuid()),
        ("Firebase", "AAAA" + _t(7, _URLSAFE) + ":APA91b" + _t(134, _URLSAFE)),
        ("SonarQube", "squ_" + _t(40, _HEX)),
        ("JFrog", "AKCp" + _t(69)),
        ("Neon", "napi_" + _t(64, _LOWER)),
        ("Twitch", "oauth:" + _t(30, _LOWER)),
        ("Adafruit IO", "aio_" + _t(28)),
        ("Typeform", "tfp_" + _t(44, _URLSAFE)),
        ("Clojars", "CLOJARS_" + _t(60, _HEX)),
        ("Frame.io", "fio-u-" + _t(64, _URLSAFE)),
        ("Yandex Cloud", "AQVN" + _t(36, _URLSAFE)),
        ("Upstash", "AX" + _t(60, _URLSAFE) + "="),
    ]
    named = [
        ("Hetzner API token", _t(64)),
        ("Linode token", _t(64, _HEX)),
        ("Vultr API key", _t(36, string.ascii_uppercase + string.digits)),
        ("Algolia admin key", _t(32, _HEX)),
        ("Heroku API key", _uuid()),
        ("Snyk token", _uuid()),
        ("Backblaze applicationKey", "K00" + _t(28)),
        ("Zendesk api token", _t(40)),
        ("Auth0 client secret", _t(64, _URLSAFE)),
        ("IBM Cloud apikey", _t(44, _URLSAFE)),
    ]
    templates = [
        "the {n} key for prod: {k}",
        "{n}: {k}",
        "rotated the {n} credential, new one is {k}",
        "{n} → {k}",
        "set {n} in CI to {k}",
    ]
    out = [
        _s(f"vendor: {name}", templates[i % len(templates)].format(n=name, k=key), key)
        for i, (name, key) in enumerate(keys)
    ]
    out += [
        _s(f"vendor named: {name}", f"{name}: {key}" if i % 2 else f"our {name} is {key}", key)
        for i, (name, key) in enumerate(named)
    ]
    # bare shapes with no name in front
    out += [
        _s("vendor bare", f"found this in the old repo: {keys[0][1]} (still valid?)", keys[0][1]),
        _s("vendor bare", f"- {keys[4][1]}", keys[4][1]),
        _s("vendor bare", f"paste: {keys[13][1]}", keys[13][1]),
    ]
    return out


def _ids() -> list[Sample]:
    """National numbers after the word that names them."""
    ssn = f"{_RNG.randint(101, 665)}-{_RNG.randint(10, 99)}-{_RNG.randint(1000, 9999)}"
    ssn2 = f"{_RNG.randint(101, 665)}{_RNG.randint(10, 99)}{_RNG.randint(1000, 9999)}"
    nino = "AB 12 34 56 C"
    nino2 = "JG103759A"
    aadhaar = _groups(checkdigits.with_verhoeff("2" + _t(10, string.digits)))
    aadhaar2 = checkdigits.with_verhoeff("5" + _t(10, string.digits))
    pesel = _pesel("8703141234"[:10])
    pesel2 = _pesel("9212050987")
    tckn = _tckn("1" + _t(8, string.digits))
    tckn2 = _tckn("3" + _t(8, string.digits))
    cccd = "0" + _t(11, string.digits)
    bsn = _bsn("1234567" + "8")
    cpf = _cpf(_t(9, string.digits))
    dni = _dni("4" + _t(7, string.digits))
    sin = checkdigits.with_luhn("046454" + "28")
    pnr = "870314-" + checkdigits.with_luhn("870314" + "123")[-4:]
    pan = "ABCPE" + _t(4, string.digits) + "K"
    emirates = f"784-1987-{_t(7, string.digits)}-{_t(1, string.digits)}"
    cnp = "1870314" + _t(6, string.digits)
    steuer = "4" + _t(10, string.digits)
    nif = "2" + _t(8, string.digits)
    iban_pl = checkdigits.iban("PL", "10901014" + _t(16, string.digits))
    iban_tr = checkdigits.iban("TR", "00061" + "0" + _t(16, string.digits))
    iban_ro = checkdigits.iban("RO", "RNCB" + _t(16, string.digits))
    iban_sa = checkdigits.iban("SA", "80" + _t(18, string.digits))
    iban_ae = checkdigits.iban("AE", "033" + _t(16, string.digits))
    passport_pl = "EA" + _t(7, string.digits)
    passport_tr = "U" + _t(8, string.digits)
    dob = "14.03.1987"
    dob2 = "03/07/1991"
    return [
        _s("id: SSN", f"SSN: {ssn}", ssn),
        _s("id: SSN", f"her social security number is {ssn2}", ssn2),
        _s("id: NINO", f"National Insurance number {nino}", nino),
        _s("id: NINO", f"NI no. {nino2} (payroll needs it)", nino2),
        _s("id: Aadhaar", f"Aadhaar: {aadhaar}", aadhaar),
        _s("id: Aadhaar", f"आधार नंबर {aadhaar2}", aadhaar2),
        _s("id: PESEL", f"PESEL: {pesel}", pesel),
        _s("id: PESEL", f"numer PESEL mamy {pesel2}", pesel2),
        _s("id: TCKN", f"TC Kimlik No: {tckn}", tckn),
        _s("id: TCKN", f"kimlik numarası {tckn2}", tckn2),
        _s("id: CCCD", f"Số CCCD: {cccd}", cccd),
        _s("id: BSN", f"BSN {bsn} staat op het formulier", bsn),
        _s("id: CPF", f"CPF do cliente: {cpf}", cpf),
        _s("id: DNI", f"DNI {dni}", dni),
        _s("id: SIN", f"Canadian SIN {_groups(sin, 3)}", _groups(sin, 3)),
        _s("id: personnummer", f"personnummer {pnr}", pnr),
        _s("id: PAN", f"PAN card no. {pan}", pan),
        _s("id: Emirates ID", f"Emirates ID {emirates}", emirates),
        _s("id: CNP", f"CNP: {cnp}", cnp),
        _s("id: Steuer-ID", f"Steuer-ID {steuer}", steuer),
        _s("id: NIF", f"NIF {nif}", nif),
        _s("iban", f"Numer konta: {_groups(iban_pl)}", _groups(iban_pl)),
        _s("iban", f"IBAN: {iban_tr}", iban_tr),
        _s("iban", f"cont IBAN {_groups(iban_ro)}", _groups(iban_ro)),
        _s("iban", f"رقم الآيبان {iban_sa}", iban_sa),
        _s("iban", f"transfer to {_groups(iban_ae)} by Friday", _groups(iban_ae)),
        _s("id: passport", f"numer paszportu {passport_pl}", passport_pl),
        _s("id: passport", f"pasaport no: {passport_tr}", passport_tr),
        _s("id: birth date", f"data urodzenia: {dob}", dob),
        _s("id: birth date", f"doğum tarihi {dob2}", dob2),
    ]


def _phones() -> list[Sample]:
    """Phones in national formats, with a word that says they are phones."""
    rows = [
        ("PL", "Zadzwoń do mnie: {p}", "+48 512 345 678"),
        ("PL", "tel. kom. {p}", "601-234-567"),
        ("TR", "Cep telefonu: {p}", "0532 123 45 67"),
        ("TR", "telefon numaram {p}", "+90 555 987 65 43"),
        ("VN", "SĐT: {p}", "0912 345 678"),
        ("VN", "số điện thoại của anh ấy là {p}", "+84 90 876 5432"),
        ("AE", "هاتف: {p}", "+971 50 123 4567"),
        ("IN", "मोबाइल: {p}", "98765 43210"),
        ("IN", "call Ravi on {p}", "+91 99887 76655"),
        ("UK", "mobile {p}", "07700 900123"),
        ("FR", "mon portable : {p}", "06 12 34 56 78"),
        ("DE", "Handy: {p}", "0151 23456789"),
        ("JP", "携帯番号 {p}", "090-1234-5678"),
        ("US", "cell (415) 555-0123 after six", "(415) 555-0123"),
        ("BR", "WhatsApp {p}", "+55 11 98765-4321"),
        ("ID", "no HP {p}", "0812-3456-7890"),
    ]
    out = []
    for country, text, phone in rows:
        out.append(_s(f"phone: {country}", text.format(p=phone), phone))
    return out


def _emails() -> list[Sample]:
    """E-mail addresses spelled so a plain pattern misses them."""
    rows = [
        ("Polish", "pisz na {u} (at) wp (kropka) pl", "jan.kowalczyk77"),
        ("Turkish", "mail: {u} [at] firma [nokta] com [nokta] tr", "ahmet.yilmaz.tr"),
        ("Spanish", "escríbeme a {u} arroba gmail punto com", "mariaperezgil"),
        ("French", "mon adresse : {u} arobase orange point fr", "pierre.lefevre"),
        ("German", "{u} ät web punkt de", "hans.mueller82"),
        ("Russian", "почта {u} собака yandex точка ru", "ivan.petrov1990"),
        ("English", "reach me at {u} at protonmail dot com", "quietfalcon22"),
        ("English", "{u}{{at}}corp{{dot}}io for invoices", "billing.lead"),
        ("English", "email {u} AT outlook DOT com", "samuel.okafor"),
        ("English", "contact: {u}(at)example-shop(dot)de", "kundendienst"),
        ("Vietnamese", "email: {u} a còng gmail chấm com", "nguyenvanthanh"),
        ("Italian", "la mia mail è {u} chiocciola libero punto it", "giulia.romano"),
        ("Dutch", "mail {u} apenstaartje ziggo punt nl", "pieterjansen"),
        ("plain", "new address {u}@fastmail.com", "lena.berg.private"),
        ("entity", "write to {u}&#64;posteo.de", "konto.privat"),
        ("fullwidth", "{u}＠icloud.com", "mei.tanaka.home"),
    ]
    return [_s(f"email: {lang}", text.format(u=user), user) for lang, text, user in rows]


def _multiline() -> list[Sample]:
    """Values on the line after their name, blocks, tables in other languages."""
    pw = [_t(14) + "!" for _ in range(8)]
    putty = [_t(64, _B64) for _ in range(3)]
    jwt = "eyJhbGciOiJIUzI1NiJ9." + _t(60, _URLSAFE) + "." + _t(43, _URLSAFE)
    return [
        _s("next line", f"Hasło:\n  {pw[0]}", pw[0]),
        _s("next line", f"Şifre\n{pw[1]}", pw[1]),
        _s("next line", f"**Password**\n\n`{pw[2]}`", pw[2]),
        _s("next line", f"- Mật khẩu:\n  - {pw[3]}", pw[3]),
        _s("table", f"| Login | Hasło |\n| --- | --- |\n| admin | {pw[4]} |", pw[4]),
        _s(
            "table", f"| kullanıcı | şifre | not |\n|---|---|---|\n| root | {pw[5]} | prod |", pw[5]
        ),
        _s("table", f"| service | user | pass |\n|--|--|--|\n| smtp | alerts | {pw[6]} |", pw[6]),
        _s(
            "block",
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ops\n"
            "Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI\nPrivate-Lines: 3\n"
            + "\n".join(putty)
            + "\nPrivate-MAC: "
            + _t(64, _HEX),
            *putty,
        ),
        _s("block", f"jwt (copied from devtools):\n{jwt[:50]}\n{jwt[50:]}", jwt[50:]),
        _s("markup", f"<secret>{pw[7]}</secret>", pw[7]),
    ]


def _encoded() -> list[Sample]:
    """Secrets split over lines or written in another encoding."""
    a, b = _t(20), _t(20)
    split_token = "ghp_" + a[:16]
    raw = "Zx" + _t(12) + "#"
    b64 = base64.b64encode(f"password={raw}".encode()).decode()
    hexed = ("Bx" + _t(12)).encode().hex()
    pct = "p%40ss" + _t(8) + "%21"
    k8s_raw = "Qv" + _t(14)
    k8s = base64.b64encode(k8s_raw.encode()).decode()
    c1, c2 = "sk_live_" + _t(12), _t(16)
    return [
        _s("split", f'export GH_TOKEN="{split_token}\\\n{b}"', split_token, b),
        _s("split", f'"key": ["{c1}", "{c2}"]  // joined at runtime', c1, c2),
        _s("encoded", f"creds (base64): {b64}", b64),
        _s("encoded", f"the db password in hex: {hexed}", hexed),
        _s("encoded", f"postgres://app:{pct}@db.internal:5432/shop", pct),
        _s(
            "encoded",
            f"apiVersion: v1\nkind: Secret\ndata:\n  username: YXBw\n  password: {k8s}",
            k8s,
        ),
        _s("split", f"token part 1: {a}\ntoken part 2: {b[::-1]}", a, b[::-1]),
    ]


def secret_samples() -> list[Sample]:
    """Every sample of the round-two corpus."""
    return (
        _prose()
        + _config()
        + _http()
        + _vendors()
        + _ids()
        + _phones()
        + _emails()
        + (_multiline() + _encoded())
    )


# --------------------------------------------------------------------------- look-alikes


def _commerce() -> list[Lookalike]:
    rows = [
        "Order #402-8812345-6621043 shipped on Tuesday.",
        "Bestellnummer 3021948576, Lieferung Donnerstag.",
        "Zamówienie nr 2026/11/00345 zostało opłacone.",
        "Sipariş no: TR-20261120-88412",
        "Mã đơn hàng: DH-20261120-0042",
        "UPS 1Z999AA10123456784 left the depot.",
        "DHL Sendungsnummer 00340434161094042557",
        "USPS tracking 9400 1000 0000 0000 0000 00",
        "Kargo takip no: 7261048820531",
        "Numer przesyłki InPost 602345678901234567890123",
        "Invoice INV-2026-000482 is due on 2026-12-01.",
        "Faktura VAT nr FV/2026/11/0193",
        "Price: €1.299,00 incl. VAT",
        "Cena: 1 299,99 zł",
        "Fiyat: ₺3.450,75",
        "Giá: 1.250.000 ₫",
        "कीमत ₹2,49,999 है",
        "Total $12,480.50 for 48 seats",
        "SKU 4006381333931 is out of stock",
        "EAN 5901234123457 on the label",
        "ISBN 978-83-240-5432-8",
        "ISBN-10: 0-306-40615-2",
        "ticket #48213 reopened",
        "PO 4500012345 approved by finance",
        "booking reference K7QZ9P for the Kraków flight",
        "seat 14C, flight TK1768, gate B12",
        "receipt 2026-0042-8871",
        "Reservation code 8XJ4TQ",
        "coupon code WINTER25 gives 25 % off",
        "IBAN format: two letters, two check digits, then up to 30 characters",
    ]
    return [_l("commerce", t) for t in rows]


def _tech() -> list[Lookalike]:
    sha = _t(40, _HEX)
    digest = _t(64, _HEX)
    rows = [
        "upgraded to v2.14.3-rc.1+build.5678",
        "Python 3.12.7, kernel 6.8.0-49-generic",
        f"fixed in commit {sha}",
        f"cherry-picked {sha[:7]} onto release/4.2",
        f"Merge pull request #4412 from ops/rotate-keys ({sha[:12]})",
        f"image: registry.example.com/api@sha256:{digest}",
        f"SHA256 (dreamd-1.4.0.tar.gz) = {_t(64, _HEX)}",
        f"request_id={_uuid()} status=200 duration=41ms",
        f"2026-11-20T03:00:01Z INFO job {_uuid()} finished",
        f"trace_id={_t(32, _HEX)} span_id={_t(16, _HEX)}",
        "pod api-7d9f8b6c5-x2k4p restarted 3 times",
        "arn:aws:iam::123456789012:role/dreamd-reader",
        "node_modules/@types/node@20.11.5",
        "@dataclass(frozen=True)",
        "git@github.com:example/dreamd.git",
        "color: #ff8800; background: #1e1e2e;",
        "MAC 00:1A:2B:3C:4D:5E, IP 10.20.30.40",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        "PROJ-12345 blocks PROJ-12346",
        "Slack channel C024BE91L",
        "build 20261120134501 passed",
        "e = 2.718281828459045",
        "coordinates 52.2297, 21.0122",
        "timeout PT15M, retry after 900 s",
        "com.example.shop.MainActivity crashed on API 34",
        "docker run -p 8080:80 nginx:1.27-alpine",
        "SELECT * FROM orders WHERE id = 918273645",
        "port 5432, max_connections=200",
        f'etag W/"{_t(32, _HEX)}"',
        "CVE-2026-12345 affects libfoo < 2.3.1",
        "yarn.lock integrity sha512-" + _t(86, _B64) + "==",
        "node id 7f3e: heartbeat 1732071601",
        "rows went from 123456789 to 123459876 after the import",
        "the batch has 1048576 items",
        "uptime 86400123 ms",
        "stack frame 0x7ffee4b2a9c0",
        "the token bucket refills 120 tokens per second",
        "JWT verification failed: signature expired",
        "ssh-ed25519 public key fingerprint SHA256:uK3vN8x2c... is on the wiki",
        "See RFC 7519 section 4.1 for the claims.",
    ]
    return [_l("tech", t) for t in rows]


def _placeholders() -> list[Lookalike]:
    rows = [
        "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "Authorization: Bearer <your-token>",
        "Authorization: Bearer ${API_TOKEN}",
        'password = "${DB_PASSWORD}"',
        "token: {{ secrets.DEPLOY_TOKEN }}",
        "api_key: YOUR_API_KEY_HERE",
        "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        "password: <redacted>",
        "password: [REDACTED]",
        "secret_key = os.environ['SECRET_KEY']",
        "val apiKey = BuildConfig.API_KEY",
        '$password = $_POST["password"];',
        "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        "password = var.db_password",
        'password = data.vault_generic_secret.db.data["password"]',
        "POSTGRES_PASSWORD_FILE: /run/secrets/db_password",
        "EnvironmentFile=/etc/dreamd/env",
        'curl -u "$USER:$PASS" https://ci.example.net',
        "curl -u admin https://ci.example.net  # prompts for the password",
        "export PGPASSWORD=",
        'token: ""',
        "api_key: null",
        "password: ********",
        "Hasło: ********",
        "şifre: <gizli>",
        "mật khẩu: (xem trong 1Password)",
        "Password: stored in Vault under kv/prod/db",
        "Passwort: siehe Tresor",
        "the key is in the team vault",
        "sk_live_... (replace with yours)",
        "AKIA................",
        "dop_v1_<64 hex characters>",
        "hf_**********************************",
        "SSN: ___-__-____",
        "IBAN: PLkk BBBB BBBB CCCC CCCC CCCC CCCC",
        "phone: +48 ___ ___ ___",
        "email: name@example.com",
        "user@example.org is the documented sample address",
        "Environment=LOG_LEVEL=debug",
        "export PATH=$HOME/.local/bin:$PATH",
    ]
    return [_l("placeholder", t) for t in rows]


def _password_talk() -> list[Lookalike]:
    rows = [
        "Şifremi unuttum, sıfırlama linki istedim.",
        "Hasło trzeba zmieniać co 90 dni.",
        "Mật khẩu phải có ít nhất 12 ký tự.",
        "نسيت كلمة المرور مرة أخرى",
        "पासवर्ड बदलना है कल",
        "Kata sandi harus diganti setiap bulan.",
        "Heslo musí mít aspoň dvanáct znaků.",
        "A jelszót holnap cseréljük.",
        "Ο κωδικός άλλαξε χθες.",
        "הסיסמה שונתה אתמול",
        "Salasana vaihdettiin eilen.",
        "Lösenordet byttes i går.",
        "Parola a fost schimbată ieri.",
        "Пароль змінили вчора.",
        "รหัสผ่านถูกเปลี่ยนเมื่อวาน",
        "رمز عبور دیروز عوض شد",
        "Nenosiri limebadilishwa jana.",
        "Adgangskoden blev skiftet i går.",
        "Passordet ble endret i går.",
        "The password field is empty on the login form.",
        "Reset your password at the link in the e-mail.",
        "password must be at least twelve characters long",
        "We moved every password into the shared vault.",
        "the token expired at midnight, renew it Monday",
        "secret santa list is on the fridge",
        "API key rotation is scheduled for Friday.",
        "| Login | Hasło |\n| --- | --- |\n| admin | (w sejfie) |",
        "| setting | value |\n| --- | --- |\n| password_min_length | 12 |",
        "| kullanıcı | rol |\n|---|---|\n| root | admin |",
        "Password:\n\nThe policy is in the handbook.",
    ]
    return [_l("password talk", t) for t in rows]


def _personal_talk() -> list[Lookalike]:
    rows = [
        "SSN field must be nine digits.",
        "PESEL ma 11 cyfr.",
        "NINO format: two letters, six digits, one letter.",
        "Aadhaar cards were reissued in March.",
        "TC Kimlik numarası gerekli mi?",
        "Emergency number is 112, in the US 911.",
        "The office opens at 09:00 and closes at 17:30.",
        "Meeting on 14.03.2026 in Gdańsk.",
        "Due 20/11/2026, paid 2026-11-19.",
        "Born in 1987, moved to Izmir in 2010.",
        "Her birthday party is on Saturday.",
        "Call the front desk if the door is locked.",
        "telefon numarası değişti, yenisini yazacağım",
        "số điện thoại sẽ gửi sau",
        "email him at the usual address",
        "support at the Berlin office",
        "the bakery at main dot street is closed",
        "Paweł at Kraków office dot matrix printer",
        "Room 4012, floor 4, building B",
        "Population of Istanbul: 15 655 924",
        "account 42 of the chart of accounts is revenue",
        "version 10.0.19045.4291 of Windows",
        "our fiscal year 2026/27 starts 1 April",
        "temperature 36.6 °C at 07:45",
        "train IC 5310 from Warszawa at 06:15",
    ]
    return [_l("personal talk", t) for t in rows]


def _numbers() -> list[Lookalike]:
    rows = [
        "1234567890",
        "the count was 4820193847",
        "id 918273645 in the export",
        "value 30000000000 overflowed int32",
        "ref 602345678",
        "#100200300400",
        "batch 20261120 of 20261130",
        "file size 3221225472 bytes",
        "run 7261048820531 finished",
        "numbers 555 0123 4567 in the test fixture are fake by design",
        "epoch 1732071601000",
        "Listing 48 512 345 apartments nationwide",
    ]
    return [_l("bare number", t) for t in rows]


def _benign_code() -> list[Lookalike]:
    rows = [
        'resource "aws_s3_bucket" "logs" {\n  bucket = "shop-logs-2026"\n}',
        'val maxRetries = 5\nval baseUrl = "https://api.example.com"',
        "$total = $price * $quantity;",
        "export NODE_ENV=production",
        "Environment=PYTHONUNBUFFERED=1",
        "    environment:\n      - TZ=Europe/Warsaw\n      - LANG=pl_PL.UTF-8",
        "curl -sS https://api.example.io/health",
        "spring.datasource.url=jdbc:postgresql://db:5432/shop",
        "[database]\nhost = db.internal\nport = 5432",
        "helm upgrade api ./chart --set replicaCount=3",
        "password_reset_ttl = 3600",
        "const tokenizer = new Tokenizer({ lowercase: true });",
        "if (password.length < 12) { return false; }",
        "def check_password(pw: str) -> bool:",
        "SECRET_SANTA_ENABLED=true",
        "kubectl get secret db -o yaml",
        "ssh-keygen -t ed25519 -C ops@example.com",
        "docker login registry.example.com",
        "git clone https://github.com/example/dreamd.git",
        "GET /api/v1/orders?page=2&per_page=50 HTTP/1.1",
    ]
    return [_l("benign code", t) for t in rows]


def lookalikes() -> list[Lookalike]:
    """Every look-alike of the round-two corpus."""
    return (
        _commerce()
        + _tech()
        + _placeholders()
        + _password_talk()
        + _personal_talk()
        + _numbers()
        + _benign_code()
    )
