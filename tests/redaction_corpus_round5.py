"""The round-five redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them, and it holds only what the
docstrings of the earlier corpora do not list. It is the text an agent's daily Markdown notes
and chats pick up from careless note-takers, users moving their setup from one machine to
another, and attackers.

Secrets (:func:`secret_samples`): passwords in the prose of some forty languages none of the
earlier corpora use (Māori, Samoan, Tongan, Fijian, Hawaiian, Malagasy, Somali, Haitian
Creole, Latin, Yiddish, Breton, Occitan, Corsican, Romansh, Sardinian, Scottish Gaelic, Upper
Sorbian, Slovak, Belarusian, Tatar, Kyrgyz, Tajik, Turkmen, Uyghur, Tibetan, Marathi, Odia,
Assamese, Dhivehi, Xhosa, Igbo, Kinyarwanda, Javanese, Sundanese, Cebuano, Hmong, Quechua,
Guarani, Northern Sámi, Greenlandic); credential files and snippets none of them hold
(``.npmrc``, ``.pypirc``, ``gradle.properties`` and Android signing blocks, Cargo credentials,
Composer ``auth.json``, Docker ``config.json``, ``.s3cfg``, rsync secrets, Postfix
``sasl_passwd``, fetchmail, msmtp and mutt, an OpenVPN auth file, HAProxy userlists, Redis
``requirepass``, PgBouncer userlists, Elixir, Rust, Swift, Dart, Lua, Perl DBI, R, Clojure,
HOCON, Makefile, CMake, AppleScript, the Mongo shell, ``CREATE LOGIN`` and ``CREATE ROLE``,
Windows ``.reg`` autologon, ``unattend.xml``, KeePass XML, Cisco IOS, Juniper and MikroTik
lines, ``nmcli``, hostapd, ``netsh`` Wi-Fi profiles, macOS ``security``, and the CLIs of Vault,
1Password, Heroku, Fly, GitHub, Firebase, RabbitMQ, InfluxDB, MinIO, restic and Borg; org-mode
drawers, AsciiDoc attributes, reStructuredText fields, YAML block scalars, form bodies,
``Proxy-Authorization`` and ``X-Api-Key`` headers, Bitwarden and Slack exports); disguises none
of them try (a keyword in leetspeak, split in two, dotted, struck through with combining marks,
in small capitals, as a hashtag or an emoji; a value in a link's text, ``<kbd>``, ``<details>``,
base32, twice base64, reversed, ROT13, JavaScript ``\\u`` escapes, numeric entities,
quoted-printable, with a zero-width character inside); keys of some forty vendors the earlier
corpora leave out (PlanetScale, Resend, Render, Neon, Buildkite, CircleCI, New Relic,
Databricks, dbt Cloud, Grafana Cloud, Contentful, Typeform, Razorpay, Flutterwave, Mollie,
Langfuse, Anyscale, Pulumi, Scaleway, Alibaba Cloud, Tencent Cloud, Bitbucket, Octopus Deploy,
JFrog, NuGet, RubyGems, crates.io, Clojars, Sourcegraph, ReadMe, Frame.io, Google OAuth client
secrets, Microsoft Entra client secrets, Firebase server keys, Discord bot tokens, WooCommerce,
Dropbox, Cloudinary, Mapbox, Telnyx, Weights & Biases, Infura, Etherscan, Postmark, Splunk HEC,
Elastic, Snyk, Codecov); personal data in vCard, iCalendar, FHIR, HL7, GEDCOM, LDIF, mail and
git headers and signatures, postal addresses in Japanese, Russian and Chinese, phones after
messaging apps' names in six more countries, e-mail addresses spelled with Dutch, Greek,
Danish and Italian words; and national numbers of eighteen countries not covered before (CURP,
South African ID, Dominican cédula, Peruvian CUI, Mauritian NIC, Chinese resident id, Indian
PAN, NHS number, ITIN, Portuguese Cartão de Cidadão, Argentine CUIL, Paraguayan RUC, Cuban
carné, Russian ИНН, Israeli ID, Kenyan KRA PIN, Thai ID, Indonesian NIK), with their check
digits.

Look-alikes (:func:`lookalikes`) must come through byte for byte: talk about passwords with no
value in the same languages, the same files and CLIs reading their secrets from the
environment, a prompt or a store, the same disguises carrying nothing, public ids that look
random (analytics and tag ids, price and customer ids, channel and message ids, media ids,
content hashes, CIDs, onion and wallet addresses, integrity hashes), and the numbers of
science, trade and transport (PMID, ISSN, ORCID, DOI, arXiv, CAS, IMO, container, GTIN, SSCC,
HS, ICD-10, patents, UN numbers, ISIN, LEI, epoch milliseconds).

Every value is fake: generated from a fixed seed (``random.Random(20270415)``), with the check
digits of each national scheme computed so each value is valid in form while naming no one.
"""

from __future__ import annotations

import base64
import codecs
import json
import random
import string
from collections.abc import Callable

from stdnum.ar import cuit
from stdnum.cn import ric
from stdnum.cu import ni
from stdnum.do import cedula
from stdnum.gb import nhs
from stdnum.id import nik
from stdnum.il import idnr as il_idnr
from stdnum.in_ import pan
from stdnum.ke import pin as ke_pin
from stdnum.mu import nid
from stdnum.mx import curp
from stdnum.pe import cui
from stdnum.pt import cc
from stdnum.py import ruc
from stdnum.ru import inn
from stdnum.th import pin as th_pin
from stdnum.us import itin
from stdnum.za import idnr as za_idnr

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20270415)
_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
_DIGITS = string.digits
_ALNUM = string.ascii_letters + string.digits
_UPPER_ALNUM = _UPPER + _DIGITS
_LOWER_ALNUM = _LOWER + _DIGITS
_HEX = "0123456789abcdef"
_URLSAFE = _ALNUM + "-_"
_SAFE_SYMBOLS = "!#%^_~-"


# --- generators -----------------------------------------------------------------------------


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _num(n: int) -> str:
    return _RNG.choice("123456789") + _r(_DIGITS, n - 1)


def _bytes(n: int) -> bytes:
    return bytes(_RNG.randrange(256) for _ in range(n))


def _b64(n: int) -> str:
    return base64.b64encode(_bytes(n)).decode()


def _b64url(n: int) -> str:
    return base64.urlsafe_b64encode(_bytes(n)).rstrip(b"=").decode()


def _uuid() -> str:
    h = _r(_HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_RNG.choice('89ab')}{h[17:20]}-{h[20:]}"


def _pw(n: int = 12, symbols: str = _SAFE_SYMBOLS) -> str:
    """A strong password that starts and ends with a letter or digit."""
    middle = [_RNG.choice(_UPPER), _RNG.choice(_LOWER), _RNG.choice(_DIGITS)]
    if symbols:
        middle.append(_RNG.choice(symbols))
    middle += [_RNG.choice(_ALNUM + symbols) for _ in range(n - 2 - len(middle))]
    _RNG.shuffle(middle)
    return _RNG.choice(_ALNUM) + "".join(middle) + _RNG.choice(_ALNUM)


def _memo(word: str) -> str:
    return f"{word}{_RNG.choice('!#@%&*')}{_RNG.randint(10, 2029)}"


def _date() -> tuple[int, int, int]:
    return _RNG.randint(1951, 2003), _RNG.randint(1, 12), _RNG.randint(1, 28)


def _complete(valid: Callable[[str], bool], body: str, alphabet: str = _DIGITS) -> str:
    """``body`` and the one character of ``alphabet`` after it that ``valid`` accepts."""
    for char in alphabet:
        if valid(body + char):
            return body + char
    raise ValueError(body)


# --- national numbers with their check digits ------------------------------------------------


def _curp() -> str:
    while True:
        y, m, d = _date()
        first = _RNG.choice("BCDFGHLMNPRSTV") + _RNG.choice("AEIOU") + _r("BCDGLMNPRSTVZ", 2)
        body = (
            f"{first}{y % 100:02d}{m:02d}{d:02d}{_RNG.choice('HM')}{_RNG.choice(['DF', 'JC', 'NL'])}"
            f"{_r('BCDFGHJKLMNPRSTVZ', 3)}{'0' if y < 2000 else 'A'}"
        )
        try:
            return _complete(curp.is_valid, body)
        except ValueError:
            continue


def _za_id() -> str:
    while True:
        y, m, d = _date()
        try:
            return _complete(za_idnr.is_valid, f"{y % 100:02d}{m:02d}{d:02d}{_r(_DIGITS, 4)}08")
        except ValueError:
            continue


def _cedula_do() -> str:
    while True:
        try:
            return _complete(cedula.is_valid, "0" + _r(_DIGITS, 9))
        except ValueError:
            continue


def _cui() -> str:
    body = _num(8)
    return f"{body}-{cui.calc_check_digits(body)[0]}"


def _nid_mu() -> str:
    while True:
        y, m, d = _date()
        body = f"{_RNG.choice(_UPPER)}{d:02d}{m:02d}{y % 100:02d}{_r(_DIGITS, 6)}"
        try:
            return _complete(nid.is_valid, body, _UPPER_ALNUM)
        except ValueError:
            continue


def _ric() -> str:
    y, m, d = _date()
    body = f"330106{y}{m:02d}{d:02d}{_r(_DIGITS, 3)}"
    return body + ric.calc_check_digit(body)


def _pan() -> str:
    value = f"{_r(_UPPER, 3)}P{_RNG.choice(_UPPER)}{_r(_DIGITS, 4)}{_RNG.choice(_UPPER)}"
    assert pan.is_valid(value)
    return value


def _nhs() -> str:
    while True:
        try:
            number = _complete(nhs.is_valid, _num(9))
            return f"{number[:3]} {number[3:6]} {number[6:]}"
        except ValueError:
            continue


def _itin() -> str:
    value = f"9{_r(_DIGITS, 2)}-{_RNG.choice(['70', '78', '83', '88'])}-{_r(_DIGITS, 4)}"
    assert itin.is_valid(value)
    return value


def _cartao() -> str:
    body = _num(8)
    for middle in _DIGITS:
        for letters in ("ZY", "ZZ", "ZX"):
            try:
                number = _complete(cc.is_valid, f"{body}{middle}{letters}")
                return f"{number[:8]} {number[8]} {number[9:]}"
            except ValueError:
                continue
    raise ValueError(body)


def _cuil() -> str:
    body = "20" + _num(8)
    number = body + cuit.calc_check_digit(body)
    return f"{number[:2]}-{number[2:10]}-{number[10]}"


def _ruc() -> str:
    body = _num(7)
    return f"{body}-{ruc.calc_check_digit(body)}"


def _carne() -> str:
    while True:
        y, m, d = _RNG.randint(1951, 1999), _RNG.randint(1, 12), _RNG.randint(1, 28)
        value = f"{y % 100:02d}{m:02d}{d:02d}{_r(_DIGITS, 5)}"
        if ni.is_valid(value):
            return value


def _inn() -> str:
    body = "77" + _r(_DIGITS, 8)
    return body + inn.calc_personal_check_digits(body)


def _teudat() -> str:
    while True:
        try:
            return _complete(il_idnr.is_valid, _r(_DIGITS, 8))
        except ValueError:
            continue


def _kra() -> str:
    while True:
        value = f"A{_r(_DIGITS, 9)}{_RNG.choice(_UPPER)}"
        if ke_pin.is_valid(value):
            return value


def _thai_id() -> str:
    body = _RNG.choice("1235") + _r(_DIGITS, 11)
    return body + th_pin.calc_check_digit(body)


def _nik() -> str:
    while True:
        y, m, d = _date()
        value = f"317405{d:02d}{m:02d}{y % 100:02d}{_r(_DIGITS, 3)}{_RNG.choice('123456789')}"
        if nik.is_valid(value):
            return value


# --- vendor shapes ---------------------------------------------------------------------------


def _vendors() -> list[tuple[str, str]]:
    """(a sentence or a line, the key in it) for vendors none of the earlier corpora hold."""
    out = []
    tok = f"pscale_tkn_{_r(_ALNUM, 43)}"
    out.append((f"PLANETSCALE_SERVICE_TOKEN={tok}", tok))
    tok = f"pscale_pw_{_r(_ALNUM, 43)}"
    out.append((f"the branch password PlanetScale gave us: {tok}", tok))
    tok = f"re_{_r(_ALNUM, 8)}_{_r(_ALNUM, 24)}"
    out.append((f"Resend key for the newsletter → {tok}", tok))
    tok = f"rnd_{_r(_ALNUM, 32)}"
    out.append((f"render deploy hook auth {tok}", tok))
    tok = f"napi_{_r(_LOWER_ALNUM, 64)}"
    out.append((f"neonctl auth --api-key {tok}", tok))
    tok = f"bkua_{_r(_HEX, 40)}"
    out.append((f"buildkite-agent token {tok}", tok))
    tok = f"CCIPAT_{_r(_ALNUM, 22)}_{_r(_HEX, 40)}"
    out.append((f"circleci setup token: {tok}", tok))
    tok = f"NRAK-{_r(_UPPER_ALNUM, 27)}"
    out.append((f"New Relic user key {tok} (expires never)", tok))
    tok = f"dapi{_r(_HEX, 32)}"
    out.append((f"databricks configure --token then paste {tok}", tok))
    tok = f"dbtc_{_r(_URLSAFE, 40)}"
    out.append((f"dbt cloud service token {tok}", tok))
    tok = "glc_" + base64.b64encode(
        json.dumps({"o": _num(6), "n": "stack-ops", "k": _r(_ALNUM, 24)}).encode()
    ).decode().rstrip("=")
    out.append((f"grafana cloud access policy token {tok}", tok))
    tok = f"CFPAT-{_r(_URLSAFE, 43)}"
    out.append((f"contentful management token = {tok}", tok))
    tok = f"tfp_{_r(_ALNUM, 44)}"
    out.append((f"Typeform personal token {tok}", tok))
    tok = _r(_ALNUM, 24)
    out.append((f"razorpay key_id rzp_live_{_r(_ALNUM, 14)} key_secret {tok}", tok))
    tok = f"FLWSECK-{_r(_HEX, 32)}-X"
    out.append((f"flutterwave secret {tok}", tok))
    tok = f"live_{_r(_ALNUM, 30)}"
    out.append((f"Mollie API: {tok}", tok))
    tok = f"sk-lf-{_uuid()}"
    out.append((f"LANGFUSE_SECRET_KEY={tok}", tok))
    tok = f"esecret_{_r(_LOWER_ALNUM, 26)}"
    out.append((f"anyscale service token {tok}", tok))
    tok = f"pul-{_r(_HEX, 40)}"
    out.append((f"pulumi login with {tok}", tok))
    tok = _uuid()
    out.append((f"SCW_ACCESS_KEY=SCW{_r(_UPPER_ALNUM, 17)}\nSCW_SECRET_KEY={tok}", tok))
    tok = _r(_ALNUM, 30)
    out.append((f"aliyun AccessKey ID LTAI{_r(_ALNUM, 20)} / AccessKey Secret {tok}", tok))
    tok = f"AKID{_r(_ALNUM, 32)}"
    out.append((f"腾讯云 SecretId {tok}", tok))
    tok = f"ATBB{_r(_ALNUM, 32)}{_r(_UPPER_ALNUM, 8)}"
    out.append((f"bitbucket app password {tok}", tok))
    tok = f"API-{_r(_UPPER_ALNUM, 26)}"
    out.append((f"Octopus API key: {tok}", tok))
    tok = f"AKCp{_r(_ALNUM, 69)}"
    out.append((f"jfrog rt config --apikey {tok}", tok))
    tok = f"oy2{_r(_LOWER_ALNUM, 43)}"
    out.append(
        (f"dotnet nuget push pkg.nupkg -k {tok} -s https://api.nuget.org/v3/index.json", tok)
    )
    tok = f"rubygems_{_r(_HEX, 48)}"
    out.append((f"GEM_HOST_API_KEY: {tok}", tok))
    tok = f"cio{_r(_ALNUM, 32)}"
    out.append((f"cargo login {tok}", tok))
    tok = f"CLOJARS_{_r(_HEX, 60)}"
    out.append((f"clojars deploy token {tok}", tok))
    tok = f"sgp_{_r(_HEX, 40)}"
    out.append((f"SRC_ACCESS_TOKEN {tok}", tok))
    tok = f"rdme_{_r(_LOWER_ALNUM, 70)}"
    out.append((f"readme CLI: rdme login --key {tok}", tok))
    tok = f"fio-u-{_r(_URLSAFE, 64)}"
    out.append((f"frame.io dev token {tok}", tok))
    tok = f"GOCSPX-{_r(_URLSAFE, 28)}"
    out.append((f"oauth client secret from the google console {tok}", tok))
    tok = f"{_r(_ALNUM, 3)}8Q~{_r(_URLSAFE + '.~', 34)}"
    out.append((f"Entra app registration, client secret value: {tok}", tok))
    tok = f"AAAA{_r(_URLSAFE, 7)}:APA91b{_r(_URLSAFE, 134)}"
    out.append((f"FCM legacy server key {tok}", tok))
    tok = f"MT{_r(_ALNUM, 24)}.{_r(_URLSAFE, 6)}.{_r(_URLSAFE, 38)}"
    out.append((f"discord bot token {tok}", tok))
    tok = f"cs_{_r(_HEX, 40)}"
    out.append((f"woocommerce consumer_key ck_{_r(_HEX, 40)} consumer_secret {tok}", tok))
    tok = f"sl.{_r(_URLSAFE, 138)}"
    out.append((f"dropbox short-lived token {tok}", tok))
    secret = _r(_URLSAFE, 27)
    out.append((f"CLOUDINARY_URL=cloudinary://{_num(15)}:{secret}@shop-media", secret))
    tok = "sk.eyJ1IjoibWFwcy1vcHMiLCJhIjoi" + _r(_ALNUM, 22) + "In0." + _r(_URLSAFE, 22)
    out.append((f"mapbox secret scope token {tok}", tok))
    tok = f"KEY{_r('0123456789ABCDEF', 32)}_{_r(_ALNUM, 22)}"
    out.append((f"telnyx api v2 key {tok}", tok))
    tok = _r(_HEX, 40)
    out.append((f"WANDB_API_KEY={tok}", tok))
    tok = _r(_HEX, 32)
    out.append((f"infura project secret {tok}", tok))
    tok = _r(_UPPER_ALNUM, 34)
    out.append((f"etherscan api key {tok}", tok))
    tok = _uuid()
    out.append((f"X-Postmark-Server-Token: {tok}", tok))
    tok = _uuid()
    out.append((f'curl -H "Authorization: Splunk {tok}" https://hec.example.net:8088', tok))
    tok = _b64(48)
    out.append((f"Authorization: ApiKey {tok}", tok))
    tok = _uuid()
    out.append((f"SNYK_TOKEN={tok}", tok))
    tok = _uuid()
    out.append((f"codecov upload token {tok}", tok))
    return out


# --- the samples -----------------------------------------------------------------------------


def _prose() -> list[Sample]:
    templates = (
        ("Māori", "Ko te kupuhipa o te wifi ko {pw}"),
        ("Samoan", "O le upu fa'alilolilo o le wifi o {pw}"),
        ("Tongan", "Ko e lea fufū 'o e wifi ko {pw}"),
        ("Fijian", "Na password ni wifi e {pw}"),
        ("Hawaiian", "ʻO ka ʻōlelo hūnā o ka pūnaewele ʻo {pw}"),
        ("Malagasy", "Ny tenimiafina amin'ny wifi dia {pw}"),
        ("Somali", "Erayga sirta ah ee emailka waa {pw}"),
        ("Haitian Creole", "Modpas wifi a se {pw}"),
        ("Latin", "Tessera arcana retis est {pw}"),
        ("Yiddish", "דאָס פּאַראָל פֿון דעם ראַוטער איז {pw}"),
        ("Breton", "Ar ger-tremen evit ar wifi eo {pw}"),
        ("Occitan", "Lo senhal del wifi es {pw}"),
        ("Corsican", "A parolla d'accessu di u wifi hè {pw}"),
        ("Romansh", "Il pled-clav dal wifi è {pw}"),
        ("Sardinian", "Sa paràula de intrada de su wifi est {pw}"),
        ("Scottish Gaelic", "Is e am facal-faire airson an wifi {pw}"),
        ("Upper Sorbian", "Hesło za wifi je {pw}"),
        ("Slovak", "Heslo na wifinu u babky je {pw}"),
        ("Belarusian", "Пароль ад вайфая — {pw}"),
        ("Tatar", "Роутерның серсүзе {pw}"),
        ("Kyrgyz", "Wi-Fi сырсөзү: {pw}"),
        ("Tajik", "Рамзи Wi-Fi {pw} аст"),
        ("Turkmen", "Wi-Fi-yň açar sözi {pw}"),
        ("Uyghur", "ۋاي-فاي پارولى {pw}"),
        ("Tibetan", "ཝའི་ཕའི་གི་གསང་ཚིག་ནི་ {pw} རེད།"),
        ("Marathi", "वायफायचा संकेतशब्द {pw} आहे"),
        ("Odia", "ୱାଇଫାଇ ପାସୱାର୍ଡ {pw}"),
        ("Assamese", "ৱাই-ফাইৰ পাছৱৰ্ড হ'ল {pw}"),
        ("Dhivehi", "ވައިފައި ޕާސްވޯޑަކީ {pw}"),
        ("Xhosa", "Iphasiwedi ye-wifi ngu {pw}"),
        ("Igbo", "Okwuntughe wifi bụ {pw}"),
        ("Kinyarwanda", "Ijambo ry'ibanga rya wifi ni {pw}"),
        ("Javanese", "Tembung sandhi wifi-ne {pw}"),
        ("Sundanese", "Kecap akses wifi nyaéta {pw}"),
        ("Cebuano", "Ang password sa wifi kay {pw}"),
        ("Hmong", "Tus password wifi yog {pw}"),
        ("Quechua", "Wifi pakasqa siminqa {pw}"),
        ("Guarani", "Ñe'ẽñemi wifi-pe ha'e {pw}"),
        ("Northern Sámi", "Wifi beassansátni lea {pw}"),
        ("Greenlandic", "Wifi-mut isissutissaq {pw}"),
    )
    out = []
    for index, (language, template) in enumerate(templates):
        value = _pw(_RNG.randint(10, 14)) if index % 3 else _memo(_RNG.choice(_WORDS))
        out.append(Sample(f"prose: {language}", template.format(pw=value), (value,)))
    return out


_WORDS = ("Kiwi", "Taro", "Baobab", "Condor", "Yurt", "Lagoon", "Cedar", "Atoll", "Fjord")


def _files() -> list[Sample]:
    out: list[Sample] = []

    def add(family: str, text: str, *secrets: str) -> None:
        out.append(Sample(family, text, secrets))

    value = _b64(12)
    add(
        "npmrc",
        f"//npm.corp.example.net/:username=ci\n//npm.corp.example.net/:_password={value}",
        value,
    )
    value = _pw()
    add(
        "pypirc",
        "[distutils]\nindex-servers = internal\n\n[internal]\n"
        f"repository = https://pkgs.example.net/simple\nusername = deploy\npassword = {value}",
        value,
    )
    value = _pw()
    add("gradle properties", f"signing.keyId=24875D73\nsigning.password={value}", value)
    one, two = _pw(), _pw()
    add(
        "android signing",
        "signingConfigs {\n    release {\n        storeFile file('release.jks')\n"
        f'        storePassword "{one}"\n        keyAlias "upload"\n        keyPassword "{two}"\n'
        "    }\n}",
        one,
        two,
    )
    value = f"cio{_r(_ALNUM, 32)}"
    add("cargo credentials", f'[registries.corp]\ntoken = "{value}"', value)
    value = _pw()
    auth = {"http-basic": {"repo.example.org": {"username": "ci", "password": value}}}
    add("composer auth", json.dumps(auth, indent=4), value)
    user_pw = _pw()
    blob = base64.b64encode(f"robot:{user_pw}".encode()).decode()
    add("docker config", json.dumps({"auths": {"registry.example.io": {"auth": blob}}}), blob)
    value = _r(_ALNUM + "/+", 40)
    add(
        "s3cfg",
        f"[default]\naccess_key = AKIA{_r(_UPPER_ALNUM, 16)}\nsecret_key = {value}\n"
        "host_base = s3.example.net",
        value,
    )
    value = _pw()
    add("rsync secrets", f"/etc/rsyncd.secrets:\nbackup:{value}", value)
    value = _pw()
    add("postfix sasl", f"[smtp.mailhost.net]:587 alerts@mailhost.net:{value}", value)
    value = _pw()
    add(
        "fetchmailrc",
        f'poll imap.example.net protocol IMAP user "jdoe" password "{value}" ssl',
        value,
    )
    value = _pw()
    add(
        "msmtprc",
        f"account default\nhost smtp.example.net\nport 587\nuser jdoe\npassword {value}",
        value,
    )
    value = _pw()
    add("muttrc", f'set imap_user = "jdoe@example.net"\nset imap_pass = "{value}"', value)
    value = _pw()
    add("openvpn auth file", f"contents of /etc/openvpn/auth.txt:\nvpnuser\n{value}", value)
    value = _pw()
    add("haproxy", f"userlist admins\n    user admin insecure-password {value}", value)
    one, two = _pw(), _pw()
    add("redis conf", f"requirepass {one}\nmasterauth {two}", one, two)
    value = _pw()
    add("pgbouncer userlist", f'"app" "{value}"\n"stats" "md5{_r(_HEX, 32)}"', value)
    value = _pw()
    add(
        "elixir",
        f'config :shop, Shop.Repo,\n  username: "shop",\n  password: "{value}",\n'
        '  hostname: "db.internal"',
        value,
    )
    value = _r(_ALNUM, 32)
    add("rust", f'const API_SECRET: &str = "{value}";', value)
    value = _r(_ALNUM, 32)
    add("swift", f'let apiKey = "{value}"', value)
    value = f"sk_live_{_r(_ALNUM, 24)}"
    add("dart", f"final String stripeSecret = '{value}';", value)
    value = _pw()
    add("lua", f'local db_pass = "{value}"', value)
    value = _pw()
    add(
        "perl dbi",
        f'my $dbh = DBI->connect("dbi:Pg:dbname=shop;host=db", "shop", "{value}");',
        value,
    )
    value = _pw()
    add(
        "r dbi",
        f'con <- dbConnect(RPostgres::Postgres(), user = "analyst", password = "{value}")',
        value,
    )
    value = _pw()
    add("clojure", f'(def db {{:dbtype "postgresql" :user "app" :password "{value}"}})', value)
    value = _pw()
    add("hocon", f'db.default.user = "play"\ndb.default.password = "{value}"', value)
    value = _pw()
    add("makefile", f"REGISTRY_USER ?= ci\nREGISTRY_PASSWORD ?= {value}", value)
    value = _r(_UPPER_ALNUM, 25)
    add("cmake", f'set(LICENSE_KEY "{value}")', value)
    value = _pw()
    add(
        "applescript",
        f'do shell script "launchctl kickstart -k system/nginx" user name "admin" password '
        f'"{value}" with administrator privileges',
        value,
    )
    value = _pw()
    add(
        "mongo shell",
        f'db.createUser({{user: "reporter", pwd: "{value}", roles: ["read"]}})',
        value,
    )
    value = _pw()
    add("sql server", f"CREATE LOGIN etl WITH PASSWORD = '{value}', CHECK_POLICY = OFF;", value)
    value = _pw()
    add("postgres role", f"CREATE ROLE app LOGIN PASSWORD '{value}' VALID UNTIL 'infinity';", value)
    value = _pw()
    add(
        "windows registry",
        "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"
        f'"AutoAdminLogon"="1"\n"DefaultUserName"="kiosk"\n"DefaultPassword"="{value}"',
        value,
    )
    value = _pw()
    add(
        "unattend xml",
        f"<AdministratorPassword>\n  <Value>{value}</Value>\n  <PlainText>true</PlainText>\n"
        "</AdministratorPassword>",
        value,
    )
    value = _pw()
    add(
        "keepass xml",
        "<Entry><String><Key>Title</Key><Value>NAS</Value></String>"
        f'<String><Key>Password</Key><Value ProtectInMemory="True">{value}</Value></String>'
        "</Entry>",
        value,
    )
    value = _pw()
    add("cisco ios", f"username netops privilege 15 password 0 {value}", value)
    value = _r(_ALNUM, 14)
    add("cisco snmp", f"snmp-server community {value} RW 10", value)
    value = _r(_ALNUM, 14)
    add("juniper snmp", f"set snmp community {value} authorization read-write", value)
    value = _pw()
    add("mikrotik", f"/user add name=backup password={value} group=full", value)
    value = _pw()
    add("nmcli", f"nmcli dev wifi connect HomeNet-5G password {value}", value)
    value = _pw()
    add("hostapd", f"ssid=HomeNet\nwpa=2\nwpa_passphrase={value}", value)
    value = _pw()
    add(
        "netsh wifi profile",
        "<sharedKey>\n    <keyType>passPhrase</keyType>\n    <protected>false</protected>\n"
        f"    <keyMaterial>{value}</keyMaterial>\n</sharedKey>",
        value,
    )
    value = _pw()
    add("macos security", f"security add-generic-password -a deploy -s shop-api -w {value}", value)
    value = _pw()
    add("vault cli", f"vault kv put secret/shop db_password={value}", value)
    value = _pw()
    add(
        "1password cli",
        f"op item create --category=login --title=NAS username=admin password={value}",
        value,
    )
    value = _r(_ALNUM, 40)
    add("heroku cli", f"heroku config:set SESSION_SECRET={value} -a shop-prod", value)
    value = _pw()
    add("fly cli", f"fly secrets set DATABASE_PASSWORD={value}", value)
    value = f"npm_{_r(_ALNUM, 36)}"
    add("gh cli", f'gh secret set NPM_TOKEN --body "{value}"', value)
    value = _pw()
    add("firebase cli", f'firebase functions:config:set mailer.pass="{value}"', value)
    value = _pw()
    add("rabbitmqctl", f"rabbitmqctl add_user telemetry {value}", value)
    value = _pw()
    add(
        "influx cli",
        f"influx setup --username admin --password {value} --org home --bucket metrics --force",
        value,
    )
    value = _r(_ALNUM, 40)
    add(
        "minio client",
        f"mc alias set backup https://s3.example.net {_r(_UPPER_ALNUM, 20)} {value}",
        value,
    )
    value = _pw()
    add(
        "restic",
        f"export RESTIC_REPOSITORY=sftp:nas:/restic\nexport RESTIC_PASSWORD='{value}'",
        value,
    )
    phrase = "-".join(
        _RNG.choice(("amber", "quartz", "tundra", "violin", "marrow", "pylon")) for _ in range(5)
    )
    add("borg", f'BORG_PASSPHRASE="{phrase}" borg create ::{{now}} ~/Documents', phrase)
    value = _pw()
    add("org-mode", f"* NAS\n:PROPERTIES:\n:USER: admin\n:PASSWORD: {value}\n:END:", value)
    value = _r(_ALNUM, 32)
    add("asciidoc", f":api-token: {value}\n:toc: left", value)
    value = _pw()
    add("restructuredtext", f":host: nas.local\n:user: admin\n:password: {value}", value)
    value = _pw()
    add("yaml block scalar", f"smtp_password: |\n  {value}\nsmtp_port: 587", value)
    value = _pw()
    add("form body", f"POST /login HTTP/1.1\n\nusername=jdoe&password={value}&remember=1", value)
    value = base64.b64encode(f"proxyuser:{_pw()}".encode()).decode()
    add("proxy header", f"Proxy-Authorization: Basic {value}", value)
    value = _r(_ALNUM, 32)
    add("api key header", f"X-Api-Key: {value}", value)
    value = _pw()
    export = {"name": "Router", "login": {"username": "admin", "password": value, "totp": None}}
    add("bitwarden export", json.dumps(export), value)
    value = _pw()
    slack = {"user": "U04QX7L2M", "text": f"new guest wifi pw is {value}", "ts": "1732612345.0001"}
    add("slack export", json.dumps(slack), value)
    return out


def _disguises() -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append(Sample("disguise", text, secrets))

    value = _pw()
    add(f"p4ssw0rd: {value}", value)
    value = _pw()
    add(f"P@55W0RD = {value}", value)
    value = _pw()
    add(f"wifi pass word is {value}", value)
    value = _pw()
    add(f"P.A.S.S.W.O.R.D: {value}", value)
    value = _pw()
    add(f"p\u0336a\u0336s\u0336s\u0336w\u0336o\u0336r\u0336d\u0336: {value}", value)
    value = _pw()
    add(f"ᴘᴀssᴡᴏʀᴅ: {value}", value)
    value = _pw()
    add(f"#password {value}", value)
    value = _pw()
    add(f"🔑 {value}", value)
    value = _pw()
    add(f"wifi 🔐 = {value}", value)
    value = _pw()
    add(f"[{value}](#) ← router password", value)
    value = _pw()
    add(f"Router password: <kbd>{value}</kbd>", value)
    value = _pw()
    add(f"<details><summary>NAS password</summary>{value}</details>", value)
    value = base64.b32encode(_pw().encode()).decode()
    add(f"password (base32): {value}", value)
    token = f"ghp_{_r(_ALNUM, 36)}"
    value = base64.b64encode(base64.b64encode(token.encode())).decode()
    add(f"ci blob (decode twice): {value}", value)
    value = _pw()[::-1]
    add(f"admin password, spelled backwards so nobody copies it: {value}", value)
    clear = _pw()
    value = codecs.encode(clear, "rot13")
    add(f"rot13 of the vpn password: {value}", value)
    clear = _pw()
    value = "".join(f"\\u{ord(c):04x}" for c in clear)
    add(f'const adminPw = "{value}";', value)
    clear = _pw()
    value = "".join(f"&#{ord(c)};" for c in clear)
    add(f"password: {value}", value)
    value = _pw()
    add(f"Subject: access\n\nthe new password=3D{value}=\nregards", value)
    clear = _pw()
    value = clear[:5] + "\u200b" + clear[5:]
    add(f"Password: {value}", value)
    return out


def _personal() -> list[Sample]:
    out: list[Sample] = []

    def add(family: str, text: str, *secrets: str) -> None:
        out.append(Sample(family, text, secrets))

    add(
        "vcard",
        "BEGIN:VCARD\nVERSION:3.0\nFN:Ines Carvalho\nTEL;TYPE=cell:+351 912 345 678\n"
        "EMAIL:ines.carvalho@sapo.pt\nBDAY:1987-05-14\nEND:VCARD",
        "+351 912 345 678",
        "ines.carvalho@sapo.pt",
        "1987-05-14",
    )
    add(
        "icalendar",
        "ATTENDEE;CN=Tomasz Wrona;ROLE=REQ-PARTICIPANT:mailto:t.wrona@onet.pl",
        "t.wrona@onet.pl",
    )
    add(
        "fhir",
        '{"resourceType": "Patient", "name": [{"family": "Dlamini", "given": ["Thandi"]}], '
        '"birthDate": "1979-11-02", "telecom": [{"system": "phone", "value": "+27 82 555 0142"}]}',
        "1979-11-02",
        "+27 82 555 0142",
    )
    add(
        "hl7",
        "PID|1||48213^^^HOSP^MR||Nakamura^Kenji||19720315|M|||||^PRN^PH^^81^3^55501234",
        "19720315",
    )
    add(
        "gedcom",
        "0 @I1@ INDI\n1 NAME Siobhan /Byrne/\n1 BIRT\n2 DATE 14 MAR 1956\n2 PLAC Cork",
        "14 MAR 1956",
    )
    value = _pw()
    add(
        "ldif",
        "dn: uid=jsmith,ou=people,dc=example,dc=net\nmail: j.smith@northwind-mail.net\n"
        f"telephoneNumber: +44 161 496 0321\nuserPassword: {value}",
        "j.smith@northwind-mail.net",
        "+44 161 496 0321",
        value,
    )
    add("mail header", 'From: "Aiko Tanaka" <aiko.tanaka@docomo.ne.jp>', "aiko.tanaka@docomo.ne.jp")
    add(
        "git header",
        "Author: Bruno Ferreira <bruno.ferreira@uol.com.br>",
        "bruno.ferreira@uol.com.br",
    )
    add("signature", "--\nMarek Dvořák\nmobil: +420 603 123 456", "+420 603 123 456")
    add(
        "address: Japanese", "住所: 〒164-0001 東京都中野区中野4-8-12 サンハイツ203号", "中野4-8-12"
    )
    add(
        "address: Russian",
        "адрес доставки: г. Казань, ул. Баумана, д. 17, кв. 42",
        "ул. Баумана, д. 17, кв. 42",
    )
    add(
        "address: Chinese",
        "收货地址：浙江省杭州市西湖区文三路478号3单元502室",
        "文三路478号3单元502室",
    )
    add("phone: Nigeria", "WhatsApp me on 0803 123 4567 after six", "0803 123 4567")
    add("phone: Egypt", "رقم الواتساب: +20 100 123 4567", "+20 100 123 4567")
    add("phone: Vietnam", "Zalo: 0912 345 678 (chị Lan)", "0912 345 678")
    add("phone: Kenya", "M-Pesa number 0712 345 678, name Wanjiru", "0712 345 678")
    add("phone: Philippines", "Viber +63 917 123 4567", "+63 917 123 4567")
    add("phone: Colombia", "mi celular es 310 555 1234", "310 555 1234")
    add(
        "email: Dutch",
        "mail naar pieter.devries apenstaartje ziggo punt nl",
        "pieter.devries apenstaartje ziggo punt nl",
    )
    add(
        "email: Greek",
        "γράψε στο eleni.p παπάκι otenet τελεία gr",
        "eleni.p παπάκι otenet τελεία gr",
    )
    add(
        "email: Danish",
        "skriv til mette.holm snabel-a mail punktum dk",
        "mette.holm snabel-a mail punktum dk",
    )
    add(
        "email: Italian",
        "scrivimi a giulia.rossi chiocciola libero punto it",
        "giulia.rossi chiocciola libero punto it",
    )
    ids = (
        ("CURP", "Mi CURP es {v}", _curp()),
        ("South African ID", "ID number: {v}", _za_id()),
        ("Dominican cédula", "Cédula de identidad y electoral: {v}", _cedula_do()),
        ("Peruvian CUI", "DNI (CUI) {v}", _cui()),
        ("Mauritian NIC", "National Identity Card no. {v}", _nid_mu()),
        ("Chinese resident id", "身份证号码：{v}", _ric()),
        ("Indian PAN", "PAN card: {v}", _pan()),
        ("NHS number", "my NHS number is {v}", _nhs()),
        ("ITIN", "ITIN {v} for the tax return", _itin()),
        ("Cartão de Cidadão", "Cartão de Cidadão n.º {v}", _cartao()),
        ("CUIL", "CUIL: {v}", _cuil()),
        ("Paraguayan RUC", "RUC {v} (persona física)", _ruc()),
        ("Cuban carné", "Carné de identidad: {v}", _carne()),
        ("Russian INN", "ИНН физлица {v}", _inn()),
        ("Israeli ID", "מספר תעודת זהות: {v}", _teudat()),
        ("Kenyan KRA PIN", "KRA PIN {v}", _kra()),
        ("Thai ID", "เลขประจำตัวประชาชน {v}", _thai_id()),
        ("Indonesian NIK", "NIK: {v}", _nik()),
    )
    for name, template, value in ids:
        add(f"national id: {name}", template.format(v=value), value)
    iban = checkdigits.iban("MU", "BOMM0101" + _r(_DIGITS, 16)[:12] + "000MUR")
    add("iban: Mauritius", f"virement sur {iban}", iban)
    return out


def _build_samples() -> tuple[Sample, ...]:
    samples = _prose() + _files() + _disguises() + _personal()
    samples += [Sample("vendor key", text, (key,)) for text, key in _vendors()]
    for sample in samples:
        assert all(secret in sample.text for secret in sample.secrets), sample
    return tuple(samples)


# --- look-alikes -----------------------------------------------------------------------------


def _build_lookalikes() -> tuple[Lookalike, ...]:
    talk = (
        "Ko te kupuhipa kei roto i te pukapuka iti",
        "Modpas la nan tiwa a, mande Rose",
        "Tessera nova mox mittetur",
        "Furaha sirta waa in la beddelo bil kasta",
        "Ny tenimiafina dia tokony ho lava 12 litera farafahakeliny",
        "Wi-Fi серсүзен онуттым",
        "संकेतशब्द विसरलात?",
        "ପାସୱାର୍ଡ ବଦଳାଇବାକୁ ପଡିବ",
        "Lo senhal es dins lo tirador de la cosina",
        "Okwuntughe gị kwesịrị inwe mkpụrụedemede iri na abụọ",
        "Heslo na wifinu je na chladničke",
        "Пароль ад вайфая ў шуфлядзе",
        "Ijambo ry'ibanga rigomba guhindurwa buri kwezi",
        "Tembung sandhi wifi-ne takon Pak RT wae",
        "Ang password sa wifi kay naa sa likod sa router",
        "Beassansátni lea girjjis",
    )
    formats = (
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
        "[pypi]\nusername = __token__",
        'storePassword System.getenv("STORE_PASSWORD")',
        "keyPassword keystoreProperties['keyPassword']",
        '[registries.corp]\nindex = "sparse+https://crates.example.net/index/"',
        '{"http-basic": {"repo.example.org": {"username": "ci", "password": "%env(COMPOSER_PASS)%"}}}',
        '{"auths": {}, "credsStore": "desktop"}',
        "[default]\nhost_base = s3.example.net\nuse_https = True",
        "# requirepass is set from the vault at boot",
        "userlist admins\n    group ops users admin",
        'poll imap.example.net protocol IMAP user "jdoe" ssl',
        'account default\npasswordeval "pass show mail/jdoe"',
        'set imap_pass = "`pass show mail/imap`"',
        'password: System.get_env("DB_PASSWORD")',
        'let secret = std::env::var("API_SECRET")?;',
        'let apiKey = ProcessInfo.processInfo.environment["API_KEY"]',
        "final stripeSecret = const String.fromEnvironment('STRIPE_SECRET');",
        'local db_pass = os.getenv("DB_PASS")',
        "my $dbh = DBI->connect($dsn, $user, $ENV{DB_PASS});",
        'password = Sys.getenv("PGPASSWORD")',
        '(def db {:dbtype "postgresql" :password (System/getenv "DB_PASS")})',
        "db.default.password = ${?DB_PASSWORD}",
        "REGISTRY_PASSWORD ?= $(shell pass show registry)",
        'set(LICENSE_FILE "${CMAKE_SOURCE_DIR}/license.txt")',
        'db.createUser({user: "reporter", pwd: passwordPrompt(), roles: ["read"]})',
        "CREATE ROLE readonly NOLOGIN;",
        '"AutoAdminLogon"="0"',
        "<PlainText>false</PlainText>",
        "<String><Key>Title</Key><Value>Bank</Value></String>",
        "service password-encryption",
        "snmp-server location Rack 4, room B",
        "/user print where group=full",
        "nmcli --ask dev wifi connect HomeNet-5G",
        "wpa_key_mgmt=WPA-PSK",
        "security find-generic-password -s shop-api -w",
        "vault kv get -field=db_password secret/shop",
        "op read op://Private/NAS/password",
        "gh secret list --repo shop/api",
        "fly secrets list",
        "heroku config:get SESSION_SECRET -a shop-prod",
        'rabbitmqctl change_password telemetry "$(cat /run/secrets/rmq)"',
        "mc alias set backup https://s3.example.net $AK $SK",
        "export RESTIC_PASSWORD_FILE=/etc/restic/pw",
        ":CREATED: [2026-03-02 Mon 10:14]",
        ":toc: left\n:icons: font",
        "smtp_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256",
        "username=jdoe&remember=1&lang=en",
        "X-Request-Id: 9f1c2b7e-4d3a-4e8b-9c1d-2f3a4b5c6d7e",
        "Proxy-Authorization: Basic ${PROXY_AUTH}",
    )
    disguises = (
        "p4ssw0rd policy: at least 12 characters and one digit",
        "🔑 is in the blue drawer",
        "[reset your password](https://example.net/reset)",
        "press <kbd>Ctrl</kbd>+<kbd>Alt</kbd>+<kbd>Del</kbd>",
        "<details><summary>Password rules</summary>12 characters, one digit</details>",
        "#password-reset moved to #it-help",
        "the pass word count was 1200 words",
        "base32 is RFC 4648, section 6",
    )
    ids = (
        "GA4 measurement id G-7QX2K9LM3T",
        "GTM container GTM-K9X2QLM",
        "Stripe price price_1OxYzL2eZvKYlo2CQ8mN4r7T",
        "customer cus_Q8xL2mN4r7TzYp",
        "Slack channel C04QX7L2M9K",
        "Discord message 1187654321098765432",
        "YouTube video dQw4w9WgXcQ",
        "Spotify track 4uLU6hMCjMI75M1A2tKUQC",
        "Notion page 8f2c1e0a94b73d5c6e1a0b9c8d7e6f51",
        "Airtable base appQ8xL2mN4r7TzY",
        "image sha256:9b2a7c4e1f0d3a8b6c5e4d2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b",
        '<script src="app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>',
        "pinned at ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
        "tx 4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
        "donations: 0x52908400098527886E0F7030069857D2E4169EE7",
        "mirror at http://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion",
        "magnet:?xt=urn:btih:c9e15763f722f23e98a29decdfae341b98d53056&dn=debian.iso",
        "room !QtykxKocfZaZOUrTwp:matrix.org",
        "pod api-7d9f8b6c5-x2k4q restarted twice",
        '"integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXGMcGL5PWzwNcVOQBaeaqHd0A5aA=="',
    )
    numbers = (
        "PMID: 31452104",
        "ISSN 0378-5955",
        "ORCID 0000-0002-1825-0097",
        "doi:10.1038/s41586-020-2649-2",
        "arXiv:2403.01234",
        "CAS 7732-18-5 (water)",
        "IMO 9074729",
        "container MSCU1234566 at berth 4",
        "EAN 4006381333931",
        "SSCC 106141412345678908",
        "HS code 8471.30.0100",
        "ICD-10 J45.909",
        "US 10,123,456 B2",
        "UN 1203 gasoline",
        "ISIN US0378331005",
        "LEI 5493001KJTIIGC8Y1R12",
        "created_at 1732612345678",
        "Q42 on Wikidata",
    )
    out = [Lookalike("lookalike-talk", t) for t in talk]
    out += [Lookalike("lookalike-format", t) for t in formats]
    out += [Lookalike("lookalike-disguise", t) for t in disguises]
    out += [Lookalike("lookalike-id", t) for t in ids]
    out += [Lookalike("lookalike-number", t) for t in numbers]
    return tuple(out)


_SAMPLES = _build_samples()
_LOOKALIKES = _build_lookalikes()


def secret_samples() -> list[Sample]:
    """Texts holding secrets, each with the exact strings redaction must remove."""
    return list(_SAMPLES)


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive: redaction must leave each byte for byte."""
    return list(_LOOKALIKES)
