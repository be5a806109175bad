"""The round-three redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them. It is the text an agent's daily
Markdown notes and chats pick up from careless note-takers, users moving their setup from one
machine to another, and attackers.

Secrets (:func:`secret_samples`): passwords, PINs, passphrases and a security answer in the prose
of some twenty languages (Polish, Turkish, Swedish, Czech, Vietnamese, Indonesian, Hindi, Arabic,
Hebrew, Greek, Ukrainian, Thai, Finnish, Japanese, Korean, Chinese, Tamil, Urdu and more, some
with the value written in Greek or Cyrillic letters) and in odd English phrasings ("the combo is",
"use … to get in", "creds:", "login is x / y"); credentials in YAML, TOML, ``.env``, INI, JSON,
XML, PHP, ERB, Docker compose, GitHub Actions, Kubernetes secrets, ``.netrc``, ``.pgpass``,
Ansible, rclone and wpa_supplicant files; ``curl -u``, HTTPie, ``fetch``, HTTP ``Authorization``
and ``Cookie`` headers; git remote URLs and ``.git-credentials`` carrying tokens; OpenSSH, PEM,
PGP, PuTTY, age, WireGuard and wallet private keys; JDBC, ODBC, ADO.NET, MongoDB, AMQP, SMTP,
Kafka and LDAP connection strings; keys and tokens in the formats of some thirty vendors
(Twilio, SendGrid, Mailgun, Shopify, HubSpot, Notion, Linear, Figma, Airtable, Cloudflare,
DigitalOcean, Heroku, npm, PyPI, Docker Hub, Hugging Face, Anthropic- and OpenAI-style keys,
Azure and GCP credentials, Atlassian, Telegram, Supabase, Tailscale, Terraform Cloud, Okta and
more); national identity numbers of some twenty countries, passports and a machine-readable
zone, tax numbers, bank accounts beside their sort or routing codes, IBANs, and cards with
expiry and CVV, each after the words that name them in the local language; phone numbers in
national formats and dates of birth after the words that name them; recovery codes and keys,
Wi-Fi QR strings, SMS one-time codes and TOTP seeds; secrets in Markdown tables, code fences,
block quotes, inline code, link URLs, HTML comments, footnotes and task lists; and lightly
obfuscated values (spaced out, e-mail addresses spelled with the local words for "at" and "dot",
the value before the keyword, values in quotes and brackets, spoilers and strikethrough, and
base64, percent or hex encoding).

Look-alikes (:func:`lookalikes`) must come through byte for byte: talk about passwords, PINs
and codes with no value in many languages, postal codes named with the local word for "code",
placeholders and references to where a secret is kept, commit hashes, checksums and request ids,
public values (a public key, resolvers, a BIC, data URIs of images), and the everyday numbers a
note holds (orders, invoices, parcels, ISBNs, dates, prices, measurements, rooms, bus lines,
scores, model numbers, formulas, colours, pages).

Every value is fake: generated from a fixed seed (``random.Random(20270106)``), with the check
digits (Luhn, mod 97, the national schemes, MRZ, base58check) computed so each value is valid in
form while naming no one.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
from urllib.parse import quote

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20270106)
_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
_DIGITS = string.digits
_ALNUM = string.ascii_letters + string.digits
_LOWER_ALNUM = _LOWER + _DIGITS
_UPPER_ALNUM = _UPPER + _DIGITS
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_SYMBOLS = "!#%&+=?@^_~-"
_URL_SYMBOLS = "-_.~"


# --- generators -----------------------------------------------------------------------------


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _num(n: int) -> str:
    """``n`` digits, the first not zero."""
    return _RNG.choice("123456789") + _r(_DIGITS, n - 1)


def _pin(n: int) -> str:
    return _r(_DIGITS, n)


def _bytes(n: int) -> bytes:
    return bytes(_RNG.randrange(256) for _ in range(n))


def _b64(n: int) -> str:
    return base64.b64encode(_bytes(n)).decode()


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _enc(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _uuid() -> str:
    h = _r(_HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_RNG.choice('89ab')}{h[17:20]}-{h[20:]}"


def _pw(n: int = 12, symbols: str = _SYMBOLS) -> str:
    """A strong password that starts and ends with a letter or digit."""
    middle = [_RNG.choice(_UPPER), _RNG.choice(_LOWER), _RNG.choice(_DIGITS)]
    if symbols:
        middle.append(_RNG.choice(symbols))
    middle += [_RNG.choice(_ALNUM + symbols) for _ in range(n - 2 - len(middle))]
    _RNG.shuffle(middle)
    return _RNG.choice(_ALNUM) + "".join(middle) + _RNG.choice(_ALNUM)


def _memo(word: str) -> str:
    """A memorable password: a word, a symbol and a number."""
    return f"{word}{_RNG.choice('!#@%&?*')}{_RNG.randint(10, 2029)}"


def _phrase(words: str, n: int = 4, sep: str = "-") -> str:
    pool = words.split()
    return sep.join(_RNG.sample(pool, n))


def _date() -> tuple[int, int, int]:
    return _RNG.randint(1951, 2004), _RNG.randint(1, 12), _RNG.randint(1, 28)


def _group(value: str, sizes: tuple[int, ...], sep: str = " ") -> str:
    parts, start = [], 0
    for size in sizes:
        parts.append(value[start : start + size])
        start += size
    if start < len(value):
        parts.append(value[start:])
    return sep.join(parts)


def _fours(value: str, sep: str = " ") -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


# --- check digits ---------------------------------------------------------------------------


def _card(prefix: str, length: int) -> str:
    body = prefix + _r(_DIGITS, length - len(prefix) - 1)
    return checkdigits.with_luhn(body)


def _pesel() -> str:
    y, m, d = _date()
    body = f"{y % 100:02d}{m + (20 if y >= 2000 else 0):02d}{d:02d}{_pin(4)}"
    s = sum(int(c) * w for c, w in zip(body, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=True))
    return body + str((10 - s % 10) % 10)


def _polish_id_card() -> str:
    letters = _r(_UPPER, 3)
    digits = _pin(5)
    values = [ord(c) - 55 for c in letters] + [int(c) for c in digits]
    weights = (7, 3, 1, 7, 3, 1, 7, 3)
    check = sum(v * w for v, w in zip(values, weights, strict=True)) % 10
    return f"{letters}{check}{digits}"


def _personnummer(long_form: bool) -> str:
    y, m, d = _date()
    body = f"{y % 100:02d}{m:02d}{d:02d}{_pin(3)}"
    full = checkdigits.with_luhn(body)
    sep = "-" if y >= 1925 else "+"
    if long_form:
        return f"{y}{full[2:6]}-{full[6:]}"
    return f"{full[:6]}{sep}{full[6:]}"


def _bsn() -> str:
    while True:
        body = _num(8)
        s = sum(int(c) * w for c, w in zip(body, range(9, 1, -1), strict=True))
        if s % 11 < 10:
            return body + str(s % 11)


def _dni() -> str:
    n = _num(8)
    return n + "TRWAGMYFPDXBNJZSQVHLCKE"[int(n) % 23]


def _nie() -> str:
    lead = _RNG.choice("XYZ")
    n = _pin(7)
    return f"{lead}{n}" + "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(lead)) + n) % 23]


_CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        (1, 0, 5, 7, 9, 13, 15, 17, 19, 21) * 2
        + (2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23),
        strict=True,
    )
)


def _cf_check(body: str) -> str:
    total = 0
    for i, ch in enumerate(body):
        if i % 2 == 0:
            total += _CF_ODD[ch]
        else:
            total += int(ch) if ch.isdigit() else ord(ch) - 65
    return chr(65 + total % 26)


def _codice_fiscale() -> str:
    y, m, d = _date()
    day = d + (40 if _RNG.random() < 0.5 else 0)
    body = (
        _r("BCDFGLMNPRSTVZ", 3)
        + _r("BCDFGLMNPRSTVZ", 3)
        + f"{y % 100:02d}"
        + "ABCDEHLMPRST"[m - 1]
        + f"{day:02d}"
        + _RNG.choice(("H501", "F205", "L219", "G273", "A944", "D612"))
    )
    return body + _cf_check(body)


def _cpf() -> str:
    digits = [int(c) for c in _num(9)]
    for length in (9, 10):
        s = sum(d * w for d, w in zip(digits, range(length + 1, 1, -1), strict=True))
        digits.append(s * 10 % 11 % 10)
    n = "".join(map(str, digits))
    return f"{n[:3]}.{n[3:6]}.{n[6:9]}-{n[9:]}"


def _aadhaar() -> str:
    body = _RNG.choice("23456789") + _pin(10)
    return _fours(checkdigits.with_verhoeff(body))


def _ssn() -> str:
    area = _RNG.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{_RNG.randint(1, 99):02d}-{_RNG.randint(1, 9999):04d}"


def _nino() -> str:
    while True:
        prefix = _RNG.choice("ABCEGHJKLMNOPRSTWXYZ") + _RNG.choice("ABCEGHJKLMNPRSTWXYZ")
        if prefix not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}:
            break
    d = _pin(6)
    return f"{prefix} {d[:2]} {d[2:4]} {d[4:]} {_RNG.choice('ABCD')}"


def _sin() -> str:
    body = _RNG.choice("1234567") + _pin(7)
    n = checkdigits.with_luhn(body)
    return f"{n[:3]} {n[3:6]} {n[6:]}"


def _hetu() -> str:
    y, m, d = _date()
    serial = f"{_RNG.randint(2, 899):03d}"
    base = f"{d:02d}{m:02d}{y % 100:02d}"
    check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(base + serial) % 31]
    return f"{base}{'-' if y < 2000 else 'A'}{serial}{check}"


def _tckn() -> str:
    d = [int(c) for c in _num(9)]
    d.append((sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10)
    d.append(sum(d) % 10)
    return "".join(map(str, d))


def _rodne_cislo() -> str:
    while True:
        y, m, d = _date()
        y = max(y, 1954)
        mm = m + (50 if _RNG.random() < 0.5 else 0)
        body = f"{y % 100:02d}{mm:02d}{d:02d}{_pin(3)}"
        check = int(body) % 11
        if check < 10:
            return f"{body[:6]}/{body[6:]}{check}"


def _korean_rrn() -> str:
    y, m, d = _date()
    y = min(y, 1999)
    body = f"{y % 100:02d}{m:02d}{d:02d}{_RNG.choice('12')}{_pin(5)}"
    weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    check = (11 - sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11) % 10
    return f"{body[:6]}-{body[6:]}{check}"


def _china_id() -> str:
    y, m, d = _date()
    area = _RNG.choice(("110105", "310115", "440305", "510107", "330106"))
    body = f"{area}{y}{m:02d}{d:02d}{_pin(3)}"
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    s = sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
    return body + "10X98765432"[s]


def _my_number() -> str:
    body = _pin(11)
    total = 0
    for n, ch in enumerate(reversed(body), start=1):
        total += int(ch) * (n + 1 if n <= 6 else n - 5)
    r = total % 11
    return _fours(body + str(0 if r <= 1 else 11 - r))


def _thai_id() -> str:
    body = _RNG.choice("12345678") + _pin(11)
    s = sum(int(c) * w for c, w in zip(body, range(13, 1, -1), strict=True))
    n = body + str((11 - s % 11) % 10)
    return f"{n[0]}-{n[1:5]}-{n[5:10]}-{n[10:12]}-{n[12]}"


def _nik() -> str:
    y, m, d = _date()
    dd = d + (40 if _RNG.random() < 0.5 else 0)
    area = _RNG.choice(("317101", "327301", "357801", "517101"))
    return f"{area}{dd:02d}{m:02d}{y % 100:02d}{_RNG.randint(1, 9999):04d}"


def _rnokpp() -> str:
    body = str(_RNG.randint(20000, 38000)) + _pin(4)
    weights = (-1, 5, 7, 9, 4, 6, 10, 5, 7)
    return body + str(sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11 % 10)


def _nip() -> str:
    while True:
        body = _num(9)
        s = sum(int(c) * w for c, w in zip(body, (6, 5, 7, 2, 3, 4, 5, 6, 7), strict=True)) % 11
        if s < 10:
            n = body + str(s)
            return f"{n[:3]}-{n[3:6]}-{n[6:8]}-{n[8:]}"


def _pan() -> str:
    return f"{_r(_UPPER, 3)}P{_RNG.choice(_UPPER)}{_pin(4)}{_RNG.choice(_UPPER)}"


def _steuer_id() -> str:
    while True:
        digits = _RNG.sample(range(10), 9)
        digits.append(_RNG.choice(digits))
        _RNG.shuffle(digits)
        if digits[0] != 0:
            break
    product = 10
    for d in digits:
        s = (d + product) % 10 or 10
        product = s * 2 % 11
    check = 11 - product
    n = "".join(map(str, digits)) + str(0 if check == 10 else check)
    return f"{n[:2]} {n[2:5]} {n[5:8]} {n[8:]}"


def _itin() -> str:
    middle = _RNG.choice([*range(70, 89), 90, 91, 92, *range(94, 100)])
    return f"9{_pin(2)}-{middle}-{_pin(4)}"


def _aba() -> str:
    body = _RNG.choice(("02", "03", "06", "11", "12")) + _pin(6)
    s = sum(int(c) * w for c, w in zip(body, (3, 7, 1, 3, 7, 1, 3, 7), strict=True))
    return body + str((10 - s % 10) % 10)


def _mrz_check(value: str) -> str:
    total = 0
    for i, ch in enumerate(value):
        v = 0 if ch == "<" else int(ch) if ch.isdigit() else ord(ch) - 55
        total += v * (7, 3, 1)[i % 3]
    return str(total % 10)


def _b58check(payload: bytes) -> str:
    data = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, rem = divmod(n, 58)
        out = _B58[rem] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def _polish_bank() -> str:
    body = _num(7)
    s = sum(int(c) * w for c, w in zip(body, (3, 9, 7, 1, 3, 9, 7), strict=True))
    return body + str((10 - s % 10) % 10)


def _czech_account() -> str:
    while True:
        body = _num(9)
        weights = (6, 3, 7, 9, 10, 5, 8, 4, 2)
        last = -sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
        if last < 10:
            return body + str(last)


def _belgian_account() -> str:
    body = _num(10)
    return body + f"{int(body) % 97 or 97:02d}"


def _pem_lines(prefix: str, nbytes: int, width: int = 64) -> list[str]:
    body = prefix + _b64(nbytes)
    return [body[i : i + width] for i in range(0, len(body), width)]


def _jwt(payload: dict[str, object]) -> str:
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = _b64url(json.dumps(payload, separators=(",", ":")).encode())
    return f"{header}.{body}.{_b64url(_bytes(32))}"


def _isbn13(prefix: str) -> str:
    body = prefix + _pin(12 - len(prefix))
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


# --- samples --------------------------------------------------------------------------------


def _sample(family: str, text: str, *secrets: str) -> Sample:
    """A sample whose secrets all occur in its text, and occur nowhere but where they are planted."""
    if not secrets:
        raise ValueError(f"{family}: a sample needs a secret")
    lowered = text.lower()
    rest = lowered
    for secret in sorted(secrets, key=len, reverse=True):
        if secret not in text:
            raise ValueError(f"{family}: {secret!r} is not in {text!r}")
        rest = rest.replace(secret.lower(), "\0")
    for secret in secrets:
        if secret.lower() in rest:
            raise ValueError(f"{family}: {secret!r} also occurs outside its place in {text!r}")
    return Sample(family, text, tuple(secrets))


def _prose_passwords() -> list[Sample]:
    out = [
        _sample("prose-password", template.format(v=value), value)
        for template, value in (
            (
                "Notatka 06.01 — router w biurze: login admin, hasło to {v}. Nie zmieniać przed piątkiem.",
                _pw(12),
            ),
            (
                "Sunucuya bağlanmak için kullanıcı adı deploy, şifresi de {v}. Kimseye söyleme lütfen.",
                _pw(14),
            ),
            ("Lösenordet till NAS:en är {v} och användarnamnet är admin.", _pw(11)),
            ("Heslo do účetnictví: {v} — a nezapomeň ho po týdnu změnit.", _pw(13)),
            ("Mật khẩu wifi nhà mình là {v} nha, đừng đưa cho hàng xóm.", _memo("HoaSen")),
            ("Kata sandi email kantor sudah diganti jadi {v}, tolong dicatat ya.", _pw(12)),
            ("सर्वर का पासवर्ड {v} है, इसे किसी को मत बताना।", _pw(12)),
            ("كلمة المرور الجديدة للبريد هي {v} ولا ترسلها لأحد.", _pw(12)),
            ("הסיסמה לראוטר היא {v}, שם המשתמש admin.", _pw(10)),
            (
                "Ο κωδικός πρόσβασης για το VPN είναι {v} — μην τον στείλεις στο Slack.",
                _pw(13),
            ),
            ("Пароль від адмінки: {v}. Логін той самий, що й минулого разу.", _pw(12)),
            ("รหัสผ่าน Wi-Fi ที่ร้านคือ {v} นะครับ", _pw(10, "")),
            (
                "Salasana on {v}, käyttäjätunnus admin. Vaihda se ensimmäisellä kirjautumiskerralla.",
                _pw(12),
            ),
            ("A senha do Wi-Fi da casa de praia é {v}, tudo junto.", _memo("Maresia")),
            ("Le mot de passe de la box est {v}, il est aussi collé sous le boîtier.", _pw(12)),
            ("サーバーのパスワードは{v}です。メモしたら消してください。", _pw(12)),
            ("와이파이 비밀번호는 {v} 입니다. 손님용은 따로 있어요.", _pw(10)),
            ("数据库密码是{v}，别发到群里。", _pw(14)),
            ("கடவுச்சொல்: {v} — நாளை மாற்றிவிடுகிறேன்.", _pw(11)),
            ("میرا ای میل کا پاس ورڈ {v} ہے۔", _pw(10)),
            ("κωδικός για το laptop της Ελένης: {v}", _memo("Καλημέρα")),
            ("Новий пароль від пошти — {v}, з великої літери.", _memo("Вишня")),
            # English, phrased the way people actually write it
            ("use {v} to get in, the username is just ops", _pw(12)),
            ("sudo on the build box is {v} (yes, really, I know)", _pw(12)),
            (
                "If it asks for a passphrase, type {v} and hit enter twice.",
                _phrase("copper lantern orbit maple velvet quarry tundra nimbus saddle", 4),
            ),
            ("Account recovery answer (mother's maiden name): {v}", "Wróblewska-Okafor"),
        )
    ]
    user, v = "svc_backup", _pw(13)
    out.append(_sample("prose-password", f"creds: {user} / {v}", v))
    v = _pw(12)
    out.append(_sample("prose-password", f"login is marta.k / {v} for the staging panel", v))
    v = _phrase("vinter kaffe cykel lampa skog hamn", 4, "-")
    out.append(
        _sample(
            "prose-password",
            f"Lösenfrasen till lösenordshanteraren är {v}, med bindestreck.",
            v,
        )
    )
    v = _phrase("kočka dálnice rohlík pivo mlha sklep", 3, " ")
    out.append(_sample("prose-password", f"heslo k trezoru je fráze „{v}“ bez mezer na konci", v))
    return out


def _pins() -> list[Sample]:
    a, b, c = _RNG.randint(10, 39), _RNG.randint(10, 39), _RNG.randint(10, 39)
    combo = f"{a}-{b}-{c}"
    return [
        _sample("pin", template.format(v=value), value)
        for template, value in (
            (
                "Mama prosiła, żebym zapisał: PIN do karty to {v}, a do telefonu ten sam.",
                _pin(4),
            ),
            ("Pinkoden till larmet är {v}, tryck sedan på bocken.", _pin(4)),
            ("PIN-koodi uuteen korttiin: {v}", _pin(4)),
            ("PIN ATM-nya {v}, jangan sampai lupa lagi.", _pin(6)),
            ("الرقم السري لبطاقة الصراف: {v}", _pin(4)),
            ("קוד הכניסה לבניין: {v} ואז סולמית.", _pin(5)),
            ("รหัส ATM ของแม่คือ {v} อย่าบอกใคร", _pin(6)),
            ("the combo is {v} (left-right-left), gym lockers reset on Mondays", combo),
            ("The door keypad takes {v} then the # key.", _pin(6)),
            ("unlock the laptop with {v} — it's a PIN, not the Windows password", _pin(6)),
        )
    ]


def _configs() -> list[Sample]:
    out: list[Sample] = []
    pw = _pw(16)
    out.append(
        _sample(
            "config",
            "Copied from the old server before wiping it:\n\n```yaml\n# config/production.yaml\n"
            "database:\n  host: pg-prod-1.internal\n  port: 5432\n  user: orders\n"
            f"  password: {pw}\ncache:\n  url: redis://cache.internal:6379/0\n```",
            pw,
        )
    )
    pw = _pw(14)
    out.append(
        _sample(
            "config",
            f'[mail]\nserver = "smtp.fastmail.com"\nport = 465\nusername = "alerts@acme.dev"\npassword = "{pw}"\n',
            pw,
        )
    )
    key, pw = _pw(50, "!@#%^&*(-_=+)"), _pw(15)
    out.append(
        _sample(
            "config",
            f"# .env for the Django app\nDEBUG=0\nSECRET_KEY='{key}'\nDATABASE_USER=shop\nDATABASE_PASSWORD={pw}\nALLOWED_HOSTS=shop.acme.dev\n",
            key,
            pw,
        )
    )
    pw = _pw(13)
    out.append(
        _sample(
            "config",
            f'~/.my.cnf on the backup host:\n\n[client]\nuser = backup\npassword = "{pw}"\nhost = 10.0.4.12\n',
            pw,
        )
    )
    secret = _r(_ALNUM + "~._-", 40)
    doc = {
        "Logging": {"LogLevel": {"Default": "Information"}},
        "AzureAd": {
            "Instance": "https://login.microsoftonline.com/",
            "TenantId": _uuid(),
            "ClientId": _uuid(),
            "ClientSecret": secret,
        },
    }
    out.append(
        _sample("config", "appsettings.Production.json\n" + json.dumps(doc, indent=2), secret)
    )
    pw, pw2 = _pw(16), _pw(12)
    out.append(
        _sample(
            "config",
            "services:\n  db:\n    image: mariadb:11.4\n    restart: unless-stopped\n    environment:\n"
            f"      MARIADB_ROOT_PASSWORD: {pw}\n      MARIADB_DATABASE: nextcloud\n"
            f"      MARIADB_USER: nextcloud\n      MARIADB_PASSWORD: {pw2}\n",
            pw,
            pw2,
        )
    )
    pw = _pw(18)
    out.append(
        _sample(
            "config",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: grafana-admin\n  namespace: monitoring\n"
            f"type: Opaque\nstringData:\n  admin-user: admin\n  admin-password: {pw}\n",
            pw,
        )
    )
    pw = _pw(20, "")
    out.append(
        _sample(
            "config",
            f"machine api.tailnet-backup.io\n  login jan@acme.dev\n  password {pw}\n",
            pw,
        )
    )
    pw = _pw(14, "!#%&+=?@^_~-")
    out.append(
        _sample(
            "config",
            f"added to ~/.pgpass (chmod 600 or psql ignores it):\ndb.acme.internal:5432:*:reporting:{pw}",
            pw,
        )
    )
    pw = _pw(15)
    out.append(
        _sample(
            "config",
            "<settings>\n  <servers>\n    <server>\n      <id>nexus-releases</id>\n"
            f"      <username>deployer</username>\n      <password>{pw}</password>\n"
            "    </server>\n  </servers>\n</settings>",
            pw,
        )
    )
    pw, auth = _pw(14), _pw(64, "!@#%^&*()-_=+[]<>?,.;:|~")
    out.append(
        _sample(
            "config",
            f"define( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '{pw}' );\n"
            f"define( 'AUTH_KEY', '{auth}' );",
            pw,
            auth,
        )
    )
    pw = _pw(12, "!#%+=?@^_~-")
    out.append(
        _sample(
            "config",
            "[web]\nweb1 ansible_host=203.0.113.10 ansible_user=deploy "
            f"ansible_become_pass={pw}\nweb2 ansible_host=203.0.113.11 ansible_user=deploy\n",
            pw,
        )
    )
    pw = _pw(14, "!#%&+=?@^_~-")
    out.append(
        _sample(
            "config",
            "/etc/wpa_supplicant/wpa_supplicant.conf on the pi:\n\nnetwork={\n"
            f'    ssid="Kowalscy_5G"\n    psk="{pw}"\n    key_mgmt=WPA-PSK\n}}',
            pw,
        )
    )
    tok = "ghp_" + _r(_ALNUM, 36)
    out.append(
        _sample(
            "config",
            "      - uses: docker/login-action@v3\n        with:\n          registry: ghcr.io\n"
            f"          username: acme-bot\n          password: {tok}\n",
            tok,
        )
    )
    key = "K001" + _r(_ALNUM + "+/", 27)
    out.append(
        _sample(
            "config",
            f"rclone.conf\n\n[b2-photos]\ntype = b2\naccount = 0012a3b4c5d6e7f0000000001\nkey = {key}\nhard_delete = false\n",
            key,
        )
    )
    pw = _pw(12, "!#%+=?@^_~-")
    out.append(
        _sample(
            "config",
            "config/database.yml still has a fallback in it:\n\nproduction:\n  adapter: postgresql\n"
            f'  password: <%= ENV.fetch("DB_PASS", "{pw}") %>\n',
            pw,
        )
    )
    return out


def _connection_strings() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("connection-string", template.format(v=value), value))

    add(
        "jdbc:postgresql://pg-prod-2.internal:5432/billing?user=billing_rw&password={v}&sslmode=require",
        _pw(16, _URL_SYMBOLS),
    )
    add(
        "DataGrip kept this: jdbc:sqlserver://sql01.corp.local:1433;databaseName=HR;user=hr_app;password={v};encrypt=true",
        _pw(14, "!#%+=?@^_~-"),
    )
    add("jdbc:oracle:thin:reporting/{v}@//ora-db.corp:1521/FINPDB", _pw(12, "_#"))
    add(
        "Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:sql-eu.database.windows.net,1433;"
        "Database=crm;Uid=crm_admin;Pwd={{{v}}};Encrypt=yes;",
        _pw(15, "!#%+=?@^_~-"),
    )
    add(
        "mongodb+srv://analytics:{v}@cluster0.x7k2p.mongodb.net/events?retryWrites=true&w=majority",
        _pw(16, _URL_SYMBOLS),
    )
    add(
        "AMQP_URL=amqps://orders_svc:{v}@rabbit.prod.internal:5671/%2Forders", _pw(18, _URL_SYMBOLS)
    )
    add(
        "EMAIL_URL=smtp://postmaster%40mg.acme.dev:{v}@smtp.eu.mailgun.org:587/?tls=True",
        _pw(20, _URL_SYMBOLS),
    )
    add(
        '"ConnectionStrings": {{ "Shop": "Server=tcp:shop-sql.database.windows.net,1433;Initial Catalog=shop;User ID=shopadmin;Password={v};" }}',
        _pw(16, "!#%+=?@^_~-"),
    )
    key = _r(_UPPER_ALNUM, 16)
    add(
        'sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="'
        + key
        + '" password="{v}";',
        _r(_ALNUM + "+/", 64),
    )
    add(
        "ldapsearch -x -H ldaps://ldap.corp.local -D 'cn=admin,dc=corp,dc=local' -w '{v}' -b 'ou=people,dc=corp,dc=local'",
        _pw(12, "!#%+=?@^_~-"),
    )
    return out


def _http_auth() -> list[Sample]:
    out: list[Sample] = []
    pw = _pw(14, "!#%+=?@^_~-")
    out.append(
        _sample(
            "http-auth",
            f"curl -u 'ci-bot:{pw}' -X PUT --upload-file app-2.4.1.tgz https://nexus.internal/repository/raw/app/",
            pw,
        )
    )
    basic = _enc(f"mkowal:{_pw(12)}")
    out.append(
        _sample(
            "http-auth",
            "Request that failed (copied from devtools):\n\nGET /api/v2/reports HTTP/1.1\nHost: erp.acme.dev\n"
            f"Accept: application/json\nAuthorization: Basic {basic}\n",
            basic,
        )
    )
    jwt = _jwt({"sub": "42017", "name": "ops-bot", "iat": 1799251200, "exp": 1799254800})
    out.append(
        _sample(
            "http-auth",
            f'http POST https://api.acme.dev/v1/jobs "Authorization: Bearer {jwt}" name=nightly',
            jwt,
        )
    )
    cookie = _r(_LOWER_ALNUM, 32)
    out.append(
        _sample(
            "http-auth",
            f"logged in as admin in the browser, this is the cookie if you need to replay it:\nCookie: sessionid={cookie}; csrftoken=abc",
            cookie,
        )
    )
    pw = _pw(11, "_-")
    out.append(_sample("http-auth", f"http -a admin:{pw} GET http://192.168.1.1/api/status", pw))
    key = _r(_ALNUM, 40)
    out.append(
        _sample(
            "http-auth",
            f"fetch('https://api.weatherflow.io/v3/obs', {{ headers: {{ 'X-API-Key': '{key}' }} }})",
            key,
        )
    )
    return out


def _git_urls() -> list[Sample]:
    out: list[Sample] = []
    tok = "ghs_" + _r(_ALNUM, 36)
    out.append(
        _sample(
            "git-url",
            f"git remote set-url origin https://x-access-token:{tok}@github.com/acme/infra.git",
            tok,
        )
    )
    tok = "glpat-" + _r(_URLSAFE, 20)
    out.append(
        _sample(
            "git-url",
            f"git clone https://oauth2:{tok}@gitlab.acme.dev/platform/deploy.git",
            tok,
        )
    )
    tok = "ATBB" + _r(_ALNUM, 28) + _r(_HEX.upper(), 8)
    out.append(
        _sample(
            "git-url",
            f'[remote "origin"]\n\turl = https://mkowal:{tok}@bitbucket.org/acme/web.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
            tok,
        )
    )
    tok = _r(_LOWER_ALNUM, 52)
    out.append(
        _sample(
            "git-url",
            f"pipeline clones with https://acme:{tok}@dev.azure.com/acme/Shop/_git/api",
            tok,
        )
    )
    tok = "github_pat_" + _r(_ALNUM, 22) + "_" + _r(_ALNUM, 59)
    out.append(
        _sample(
            "git-url",
            f"cat ~/.git-credentials\nhttps://jan-k:{tok}@github.com",
            tok,
        )
    )
    return out


def _vendor_keys() -> list[Sample]:
    out: list[Sample] = []

    def add(text: str, *secrets: str) -> None:
        out.append(_sample("vendor-key", text, *secrets))

    sid, tok = "AC" + _r(_HEX, 32), _r(_HEX, 32)
    add(f"Twilio for the SMS fallback — account SID {sid}, auth token {tok}. Don't commit.", tok)
    v = f"SG.{_r(_URLSAFE, 22)}.{_r(_URLSAFE, 43)}"
    add(f"SendGrid key (full access, rotate after the launch): {v}", v)
    v = "key-" + _r(_HEX, 32)
    add(
        f"curl -s --user 'api:{v}' https://api.eu.mailgun.net/v3/mg.acme.dev/messages -F to=ola@acme.dev",
        v,
    )
    v = "shpat_" + _r(_HEX, 32)
    add(f"Shopify admin token for the staging store: `{v}`", v)
    v = "pat-eu1-" + _uuid()
    add(f"HUBSPOT_PRIVATE_APP_TOKEN={v}", v)
    v = "ntn_" + _r(_DIGITS, 11) + _r(_ALNUM, 35)
    add(f"notion integration secret → {v} (the 'Meeting notes' workspace)", v)
    v = "lin_api_" + _r(_ALNUM, 40)
    add(f"- Linear personal API key: {v}\n- scopes: read, write", v)
    v = "figd_" + _r(_URLSAFE, 40)
    add(f"figma token (read-only, files:read) {v}", v)
    v = "pat" + _r(_ALNUM, 14) + "." + _r(_HEX, 64)
    add(f'AIRTABLE_PAT = "{v}"\ntable = Api(AIRTABLE_PAT).table("appQ3x", "Leads")', v)
    v = _r(_URLSAFE, 40)
    add(f"export CLOUDFLARE_API_TOKEN={v}\nterraform plan -target=cloudflare_record.www", v)
    v = "dop_v1_" + _r(_HEX, 64)
    add(f"doctl auth init -t {v}", v)
    v = "HRKU-AA" + _r(_URLSAFE, 58)
    add(f"heroku authorizations:create gave me {v} — put it in the CI settings", v)
    v = "npm_" + _r(_ALNUM, 36)
    add(f"# ~/.npmrc\n//registry.npmjs.org/:_authToken={v}\nalways-auth=true", v)
    v = "pypi-AgEIcHlwaS5vcmc" + _r(_URLSAFE, 150)
    add(f"[pypi]\n  username = __token__\n  password = {v}", v)
    v = "dckr_pat_" + _r(_URLSAFE, 27)
    add(f"docker login -u acmebot -p {v}", v)
    v = "hf_" + _r(string.ascii_letters, 34)
    add(f"huggingface-cli login --token {v} --add-to-git-credential", v)
    v = "sk-ant-api03-" + _r(_URLSAFE, 93) + "AA"
    add(f'client = anthropic.Anthropic(api_key="{v}")  # TODO env var', v)
    v = "sk-proj-" + _r(_URLSAFE, 74) + "T3BlbkFJ" + _r(_URLSAFE, 74)
    add(f"openai:\n  api_key: {v}\n  model: gpt-4o-mini", v)
    v = _b64(64)
    add(
        "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeexports;"
        f"AccountKey={v};EndpointSuffix=core.windows.net",
        v,
    )
    v = _r(_ALNUM, 3) + "8Q~" + _r(_ALNUM + "~._-", 34)
    add(f"AZURE_CLIENT_ID={_uuid()}\nAZURE_TENANT_ID={_uuid()}\nAZURE_CLIENT_SECRET={v}", v)
    sig = _b64(32)
    add(
        "blob SAS for the vendor (expires Friday): https://acmeexports.blob.core.windows.net/drop?"
        f"sv=2022-11-02&ss=b&srt=co&sp=rwl&se=2027-01-09T18:00:00Z&spr=https&sig={quote(sig, safe='')}",
        quote(sig, safe=""),
    )
    key_id = _r(_HEX, 40)
    lines = _pem_lines("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 300)
    pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END PRIVATE KEY-----\n"
    sa = {
        "type": "service_account",
        "project_id": "acme-analytics-prod",
        "private_key_id": key_id,
        "private_key": pem,
        "client_email": "bq-loader@acme-analytics-prod.iam.gserviceaccount.com",
        "client_id": _num(21),
    }
    add(
        "part of the service account json (the rest is in Drive):\n" + json.dumps(sa, indent=2),
        key_id,
        *lines,
    )
    v = "ATATT3xFfGF0" + _r(_URLSAFE, 180) + "=" + _r(_HEX.upper(), 8)
    add(f"jira api token (for the release script): {v}", v)
    v = _num(10) + ":AA" + _r(_URLSAFE, 33)
    add(f"BotFather gave the new bot this token: {v}\nUse this token to access the HTTP API.", v)
    v = _jwt({"iss": "supabase", "ref": _r(_LOWER, 20), "role": "service_role", "iat": 1767225600})
    add(f"supabase service_role key (bypasses RLS!!): {v}", v)
    v = "tskey-auth-" + _r(_ALNUM, 12) + "CNTRL-" + _r(_ALNUM, 33)
    add(f"tailscale up --authkey={v} --advertise-tags=tag:server", v)
    v = _r(_ALNUM, 14) + ".atlasv1." + _r(_ALNUM, 67)
    add(f'credentials "app.terraform.io" {{\n  token = "{v}"\n}}', v)
    v = "00" + _r(_URLSAFE, 40)
    add(f"curl -H 'Authorization: SSWS {v}' https://acme.okta.com/api/v1/users?limit=25", v)
    return out


def _private_keys() -> list[Sample]:
    out: list[Sample] = []
    header = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    rest = _b64(270)
    lines = [header] + [rest[i : i + 70] for i in range(0, len(rest), 70)]
    block = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\n"
        + "\n".join(lines)
        + "\n-----END OPENSSH PRIVATE KEY-----"
    )
    out.append(
        _sample(
            "private-key",
            f"moving to the new laptop, pasting the deploy key here for a minute:\n\n```\n{block}\n```",
            *[line for line in lines[1:] if len(line) >= 16],
        )
    )
    lines = _pem_lines("MIIEowIBAAKCAQEA", 360)
    indented = "\n".join("    " + line for line in lines)
    out.append(
        _sample(
            "private-key",
            "group_vars/all.yml\n\ndeploy_user: deploy\ndeploy_key: |\n    -----BEGIN RSA PRIVATE KEY-----\n"
            f"{indented}\n    -----END RSA PRIVATE KEY-----\n",
            *[line for line in lines if len(line) >= 16],
        )
    )
    lines = _pem_lines("lQdGBGW", 330)
    crc = "=" + _r(_ALNUM, 4)
    out.append(
        _sample(
            "private-key",
            "exported my signing key so I can import it on the new machine:\n\n"
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
            + "\n".join(lines)
            + f"\n{crc}\n-----END PGP PRIVATE KEY BLOCK-----",
            *[line for line in lines if len(line) >= 16],
        )
    )
    segs = _pem_lines("MHcCAQEEI", 110)
    escaped = "\\n".join(segs)
    out.append(
        _sample(
            "private-key",
            f'APPLE_PUSH_KEY="-----BEGIN EC PRIVATE KEY-----\\n{escaped}\\n-----END EC PRIVATE KEY-----"',
            *[s for s in segs if len(s) >= 16],
        )
    )
    priv = _pem_lines("AAAAI", 40)
    out.append(
        _sample(
            "private-key",
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ola@laptop\nPublic-Lines: 2\n"
            f"AAAAC3NzaC1lZDI1NTE5AAAAI{_b64(24)}\n{_b64(6)}\nKey-Derivation: none\nPrivate-Lines: 1\n"
            + "\n".join(priv)
            + f"\nPrivate-MAC: {_r(_HEX, 64)}",
            *[line for line in priv if len(line) >= 16],
        )
    )
    v = "AGE-SECRET-KEY-1" + _r(_BECH32, 58)
    out.append(
        _sample(
            "private-key",
            f"# created: 2027-01-06T09:12:44+01:00\n# public key: age1{_r(_BECH32.lower(), 58)}\n{v}",
            v,
        )
    )
    priv_key, psk = _b64(32), _b64(32)
    out.append(
        _sample(
            "private-key",
            f"wg0.conf from the VPS\n\n[Interface]\nPrivateKey = {priv_key}\nAddress = 10.8.0.2/32\nDNS = 10.8.0.1\n\n"
            f"[Peer]\nPublicKey = {_b64(32)}\nPresharedKey = {psk}\nEndpoint = 198.51.100.7:51820\nAllowedIPs = 0.0.0.0/0",
            priv_key,
            psk,
        )
    )
    wif = _b58check(b"\x80" + _bytes(32) + b"\x01")
    eth = "0x" + _r(_HEX, 64)
    out.append(
        _sample(
            "private-key",
            f"old paper wallet, WIF: {wif}\nand the MetaMask export for the test account: private key {eth}",
            wif,
            eth,
        )
    )
    return out


def _national_ids() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("national-id", template.format(v=value), value))

    add("Do formularza w urzędzie: numer PESEL {v}, adres zameldowania bez zmian.", _pesel())
    add("seria i numer dowodu osobistego: {v} (ważny do 2031)", _polish_id_card())
    add("Mitt personnummer är {v} om Försäkringskassan frågar.", _personnummer(long_form=True))
    add("Mijn BSN (burgerservicenummer) is {v}, voor de aangifte.", _bsn())
    add("DNI: {v} — lo pide el formulario del gimnasio", _dni())
    add("Mi NIE es {v}, el de la tarjeta verde.", _nie())
    add("Codice fiscale per la ricetta: {v}", _codice_fiscale())
    add("Meu CPF é {v}, pode colocar na nota fiscal.", _cpf())
    add("मेरा आधार नंबर {v} है, केवाईसी के लिए चाहिए था।", _aadhaar())
    add("SSN on the W-4 draft: {v}", _ssn())
    add("National Insurance number for the new starter form: {v}", _nino())
    add("Mon NAS (numéro d'assurance sociale) : {v}", _sin())
    add("Henkilötunnukseni on {v}, tarvitset sitä vuokrasopimukseen.", _hetu())
    add("T.C. Kimlik No: {v} — kargo formuna yazdım.", _tckn())
    add("Rodné číslo pro pojišťovnu: {v}", _rodne_cislo())
    add("주민등록번호 {v} (은행 서류용)", _korean_rrn())
    add("身份证号：{v}，订票用。", _china_id())
    add("マイナンバー：{v}（年末調整用）", _my_number())
    add("เลขบัตรประชาชน {v} ใช้สมัครธนาคาร", _thai_id())
    add("NIK saya {v}, untuk pendaftaran BPJS.", _nik())
    return out


def _passports() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("passport", template.format(v=value), value))

    add("Reisepassnummer für die Buchung: {v}", "C" + _r("CFGHJKLMNPRTVWXYZ0123456789", 8))
    add("Pasaport numaram {v}, vize başvurusu için.", "U" + _num(8))
    add("Số hộ chiếu: {v} (hết hạn 2031)", "C" + _num(7))
    doc = _r("CFGHJKLMNPRTVWXYZ0123456789", 9)
    y, m, d = _date()
    dob = f"{y % 100:02d}{m:02d}{d:02d}"
    exp = f"{_RNG.randint(28, 36)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 28):02d}"
    personal = "<" * 14
    part = (
        doc
        + _mrz_check(doc)
        + dob
        + _mrz_check(dob)
        + exp
        + _mrz_check(exp)
        + personal
        + _mrz_check(personal)
    )
    line2 = f"{doc}{_mrz_check(doc)}D<<{dob}{_mrz_check(dob)}F{exp}{_mrz_check(exp)}{personal}{_mrz_check(personal)}{_mrz_check(part)}"
    line1 = "P<D<<HOFFMANN<<LENA<MARIE".ljust(44, "<")
    out.append(
        _sample(
            "passport",
            f"scan of the passport page came out as text:\n\n{line1}\n{line2}",
            doc,
        )
    )
    return out


def _tax_ids() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("tax-id", template.format(v=value), value))

    add("Mój NIP do faktury: {v}", _nip())
    add("PAN card number {v} — needed for the mutual fund KYC", _pan())
    add("Steuerliche Identifikationsnummer (Steuer-ID): {v}", _steuer_id())
    add("ITIN {v} goes on line 2 of the W-7 follow-up", _itin())
    add("РНОКПП (ідентифікаційний код): {v}", _rnokpp())
    return out


def _bank_accounts() -> list[Sample]:
    out: list[Sample] = []
    acct = _num(8)
    sort = f"{_RNG.randint(10, 99)}-{_pin(2)}-{_pin(2)}"
    out.append(
        _sample(
            "bank-account",
            f"Rent goes to: sort code {sort}, account no. {acct}, name on account J Patel.",
            acct,
        )
    )
    acct = _num(11)
    out.append(
        _sample(
            "bank-account",
            f"direct deposit form: routing {_aba()} / acct {acct} (checking)",
            acct,
        )
    )
    acct = _num(9)
    out.append(
        _sample(
            "bank-account",
            f"Pay the invoice into BSB {_pin(3)}-{_pin(3)} Acc {acct[:4]} {acct[4:]}, ref KOWALSKI",
            f"{acct[:4]} {acct[4:]}",
        )
    )
    acct = _num(14)
    out.append(
        _sample(
            "bank-account",
            f"A/c no. {acct}, IFSC HDFC000{_pin(4)} — for the rent transfer",
            acct,
        )
    )
    bank = _polish_bank()
    bban = bank + _pin(16)
    nrb = checkdigits.iban("PL", bban)[2:]
    nrb_spaced = nrb[:2] + " " + _fours(nrb[2:])
    out.append(
        _sample(
            "bank-account",
            f"Numer konta do przelewu za mieszkanie: {nrb_spaced} (tytuł: czynsz styczeń)",
            nrb_spaced,
        )
    )
    return out


def _ibans() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("iban", template.format(v=value), value))

    add(
        "Bitte überweise die Miete auf IBAN {v}, Kontoinhaber M. Vogel.",
        _fours(checkdigits.iban("DE", _pin(8) + _pin(10))),
    )
    add("IBAN: {v} — Lena Berg, Stockholm", _fours(checkdigits.iban("SE", _pin(3) + _pin(17))))
    add(
        "IBAN numaram {v}, alıcı adı Ayşe Y.",
        _fours(checkdigits.iban("TR", _pin(5) + "0" + _pin(16))),
    )
    add("رقم الآيبان للتحويل: {v}", _fours(checkdigits.iban("SA", _pin(2) + _pin(18))))
    add("מספר IBAN להעברה: {v}", _fours(checkdigits.iban("IL", _pin(3) + _pin(3) + _pin(13))))
    add("IBAN для оплати оренди: {v}", checkdigits.iban("UA", _pin(6) + _pin(19)))
    add(
        "číslo účtu (IBAN) {v}",
        _fours(checkdigits.iban("CZ", _pin(4) + "000000" + _czech_account())),
    )
    add(
        "send it to my belgian account, iban {v} thx",
        checkdigits.iban("BE", _belgian_account()).lower(),
    )
    payout = {
        "payout": {"beneficiary": "Omar K.", "iban": checkdigits.iban("AE", _pin(3) + _pin(16))}
    }
    text = json.dumps(payout, indent=2)
    out.append(_sample("iban", text, payout["payout"]["iban"]))
    return out


def _cards() -> list[Sample]:
    out: list[Sample] = []

    def exp() -> str:
        return f"{_RNG.randint(1, 12):02d}/{_RNG.randint(28, 31)}"

    visa, cvv = _card("4", 16), _pin(3)
    out.append(
        _sample(
            "card",
            f"Paying the hosting from the company Visa: {_fours(visa)}, exp {exp()}, CVV {cvv}.",
            _fours(visa),
            cvv,
        )
    )
    mc, cvc = _card("5" + _RNG.choice("12345"), 16), _pin(3)
    out.append(
        _sample(
            "card",
            f"Karta firmowa: {_fours(mc)}, ważna do {exp()}, kod CVC {cvc}",
            _fours(mc),
            cvc,
        )
    )
    troy, cvv = _card("9792", 16), _pin(3)
    out.append(
        _sample(
            "card",
            f"Kart numaram {_fours(troy)} son kullanma {exp()} güvenlik kodu {cvv}",
            _fours(troy),
            cvv,
        )
    )
    amex, cid = _card("37", 15), _pin(4)
    amex_fmt = _group(amex, (4, 6, 5))
    out.append(
        _sample(
            "table",
            f"| Card | Number | Exp | CID |\n|---|---|---|---|\n| Amex (travel) | {amex_fmt} | {exp()} | {cid} |",
            amex_fmt,
            cid,
        )
    )
    jcb, cvv = _card("35" + str(_RNG.randint(28, 89)), 16), _pin(3)
    out.append(
        _sample(
            "card",
            f"カード番号 {_fours(jcb, '-')} 有効期限 {exp()} セキュリティコード {cvv}",
            _fours(jcb, "-"),
            cvv,
        )
    )
    rupay, cvv = _card("6521", 16), _pin(3)
    out.append(
        _sample(
            "card",
            f"कार्ड नंबर {_fours(rupay)}, समाप्ति {exp()}, CVV {cvv}",
            _fours(rupay),
            cvv,
        )
    )
    up = _card("62", 19)
    out.append(_sample("card", f"银行卡号 {up}，开户行：招商银行", up))
    disc, cvc = _card("6011", 16), _pin(3)
    payload = {"pan": disc, "exp_month": _RNG.randint(1, 12), "exp_year": 2030, "cvc": cvc}
    out.append(
        _sample(
            "card",
            "payment request that got logged by mistake:\n" + json.dumps(payload),
            disc,
            cvc,
        )
    )
    return out


def _phones() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("phone", template.format(v=value), value))

    add("Mój numer komórki: {v}, dzwoń po 17.", f"+48 6{_pin(2)} {_pin(3)} {_pin(3)}")
    add(
        "Cep telefonum {v}, kargo gelince arasınlar.",
        f"0 (5{_RNG.choice(['32', '05', '42', '55'])}) {_pin(3)} {_pin(2)} {_pin(2)}",
    )
    add(
        "Ring mig på {v} om du är sen.",
        f"07{_RNG.choice('02369')}-{_pin(3)} {_pin(2)} {_pin(2)}",
    )
    add("Můj mobil: {v}", f"+420 7{_pin(2)} {_pin(3)} {_pin(3)}")
    add("Số điện thoại của em: {v}, gọi sau 6 giờ nhé.", f"09{_pin(2)} {_pin(3)} {_pin(3)}")
    add("Nomor HP saya {v} (WA juga).", f"0812-{_pin(4)}-{_pin(4)}")
    add("मेरा मोबाइल नंबर {v} है।", f"+91 98{_pin(3)} {_pin(5)}")
    add("رقم جوالي {v}", f"05{_RNG.choice('03456')} {_pin(3)} {_pin(4)}")
    add("הטלפון שלי {v}, תתקשר אחרי שמונה.", f"052-{_pin(3)}-{_pin(4)}")
    add("Το κινητό μου είναι {v}.", f"69{_RNG.choice('3479')} {_pin(3)} {_pin(4)}")
    add("Мій номер: {v}", f"+380 (67) {_pin(3)}-{_pin(2)}-{_pin(2)}")
    add("เบอร์โทรของฉัน {v} นะคะ", f"08{_RNG.choice('1569')}-{_pin(3)}-{_pin(4)}")
    add("Puhelinnumeroni on {v}.", f"040 {_pin(3)} {_pin(4)}")
    add("Mobile: {v} (UK, evenings)", f"07700 900{_pin(3)}")
    return out


_MONTHS_ID = (
    "Januari Februari Maret April Mei Juni Juli Agustus September Oktober November Desember"
)


def _birth_dates() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("birth-date", template.format(v=value), value))

    def word(months: str, m: int) -> str:
        return months.split()[m - 1]

    y, m, d = _date()
    add("Data urodzenia: {v}", f"{d:02d}.{m:02d}.{y}")
    y, m, d = _date()
    add("födelsedatum {v}", f"{y}-{m:02d}-{d:02d}")
    y, m, d = _date()
    add("生年月日：{v}", f"{y}年{m}月{d}日")
    y, m, d = _date()
    add("Ngày sinh: {v}", f"{d:02d}/{m:02d}/{y}")
    y, m, d = _date()
    add("Tanggal lahir: {v}", f"{d} {word(_MONTHS_ID, m)} {y}")
    y, m, d = _date()
    add("जन्म तिथि: {v}", f"{d:02d}-{m:02d}-{y}")
    y, m, d = _date()
    add("تاريخ الميلاد: {v}", f"{y}/{m:02d}/{d:02d}")
    y, m, d = _date()
    add("תאריך לידה: {v}", f"{d:02d}.{m:02d}.{y}")
    y, m, d = _date()
    add("Ημερομηνία γέννησης: {v}", f"{d:02d}/{m:02d}/{y}")
    y, m, d = _date()
    add("Дата народження: {v}", f"{d:02d}.{m:02d}.{y}")
    y, m, d = _date()
    add("DOB {v} (the pharmacy login asks for it)", f"{y}-{m:02d}-{d:02d}")
    return out


def _otps() -> list[Sample]:
    out: list[Sample] = []

    def add(template: str, value: str) -> None:
        out.append(_sample("otp", template.format(v=value), value))

    add(
        "SMS od banku: Operacja nr 2 z dn. 06-01-2027 Przelew na rach.: ...4417 kwota: 250,00 PLN. Haslo: {v}",
        _pin(8),
    )
    add("Doğrulama kodunuz: {v}. Bu kodu kimseyle paylaşmayın.", _pin(6))
    add("Ma OTP cua Quy khach la {v}, hieu luc trong 3 phut.", _pin(6))
    add("JANGAN BERIKAN kode ini kepada siapa pun. Kode OTP: {v}", _pin(4))
    add("{v} आपका OTP है। किसी के साथ साझा न करें।", _pin(6))
    add(
        "Login code: {v}. Do not give this code to anyone, even if they say they are from Telegram!",
        _pin(5),
    )
    add("G-{v} is your Google verification code.", _pin(6))
    seed = _r(_B32, 32)
    add(
        "otpauth://totp/ACME:jan.k@acme.dev?secret={v}&issuer=ACME&digits=6 (QR didn't scan, typed it in)",
        seed,
    )
    seed = _r(_B32.lower(), 32)
    add("Can't scan the code? Enter this setup key instead: {v}", _fours(seed))
    return out


def _recovery_codes() -> list[Sample]:
    out: list[Sample] = []
    codes = [f"{_r(_HEX, 5)}-{_r(_HEX, 5)}" for _ in range(8)]
    out.append(
        _sample(
            "recovery-codes",
            "github-recovery-codes.txt (moving these to the safe):\n" + "\n".join(codes),
            *codes,
        )
    )
    codes = [f"{_pin(4)} {_pin(4)}" for _ in range(6)]
    listing = "\n".join(f"{i}. {c}" for i, c in enumerate(codes, start=1))
    out.append(
        _sample(
            "recovery-codes",
            f"Google backup codes for ola.k@gmail.com\n{listing}\n(each works once)",
            *codes,
        )
    )
    key = "-".join(f"{_RNG.randrange(65536) * 11:06d}" for _ in range(8))
    out.append(
        _sample(
            "recovery-codes",
            f"BitLocker recovery key for DESKTOP-7Q2 (ID 4F1A…): {key}",
            key,
        )
    )
    alphabet = "23456789ABCDEFGHJKLMNPQRSTVWXYZ"
    secret_key = "A3-" + "-".join(_r(alphabet, n) for n in (6, 6, 5, 5, 5, 5))
    master = _phrase("amber falcon glacier hollow juniper lattice mosaic nectar", 4, "-")
    out.append(
        _sample(
            "recovery-codes",
            f"Emergency Kit (1Password)\nSecret Key: {secret_key}\nMaster password: {master}",
            secret_key,
            master,
        )
    )
    words = (
        "abandon bridge coral dinner eagle fabric garden hazard island jacket kitten lemon "
        "magnet noble orbit pepper quantum rabbit saddle tennis unique velvet wagon yellow"
    )
    seed = _phrase(words, 12, " ")
    out.append(
        _sample(
            "recovery-codes",
            f"fraza odzyskiwania portfela (12 słów, nie zgubić!): {seed}",
            seed,
        )
    )
    key = "-".join(_r(_UPPER_ALNUM, 4) for _ in range(7))
    out.append(_sample("recovery-codes", f"Apple ID recovery key: {key}", key))
    return out


def _wifi() -> list[Sample]:
    out: list[Sample] = []
    pw = _phrase("zolta kaczka rower kawa", 2, "-") + f"-{_pin(2)}"
    out.append(
        _sample(
            "wifi",
            f"Kod QR z routera odczytany telefonem: WIFI:S:Dom_Kowalskich;T:WPA;P:{pw};H:false;;",
            pw,
        )
    )
    pw = f"Tr\\;ck{_pin(3)}\\:{_r(_ALNUM, 5)}"
    out.append(_sample("wifi", f"WIFI:T:WPA;S:Office 5G;P:{pw};;", pw))
    pw = _pw(12, "")
    out.append(
        _sample(
            "wifi",
            f"nmcli dev wifi connect 'Cafe Orzo' password '{pw}'",
            pw,
        )
    )
    pw = _pw(10, "")
    out.append(
        _sample(
            "wifi",
            f"📶 Guest-5G 🔑 {pw}",
            pw,
        )
    )
    return out


def _markup() -> list[Sample]:
    out: list[Sample] = []
    p1, p2, p3 = _pw(14), _pw(14), _pw(14)
    out.append(
        _sample(
            "table",
            "## Homelab\n\n| Service | URL | User | Password |\n|---|---|---|---|\n"
            f"| Grafana | https://grafana.lab.local | admin | {p1} |\n"
            f"| MinIO | https://s3.lab.local | root | {p2} |\n"
            f"| Proxmox | https://pve.lab.local:8006 | root@pam | {p3} |\n",
            p1,
            p2,
            p3,
        )
    )
    p1, p2 = _pw(12), _pw(12)
    out.append(
        _sample(
            "table",
            "| Usługa | Login | Hasło |\n|:--|:--|:--|\n"
            f"| poczta | anna.n | {p1} |\n| e-PUAP | anna.nowak | {p2} |",
            p1,
            p2,
        )
    )
    pw = _pw(15, "!#%+=?@^_~-")
    out.append(
        _sample(
            "markup",
            f"restore steps:\n\n```bash\nexport PGPASSWORD='{pw}'\npg_restore -h db.acme.internal -U app -d app latest.dump\n```",
            pw,
        )
    )
    pw = _pw(12)
    out.append(
        _sample(
            "markup",
            f"> **Marta:** staging sudo pw is {pw} — please don't paste it in #general\n\nok, noted.",
            pw,
        )
    )
    tok = "hvs." + _r(_URLSAFE, 90)
    out.append(_sample("markup", f"just run `vault login {tok}` and you're in", tok))
    pw = _pw(12, "_-")
    out.append(
        _sample(
            "markup",
            f"Dashboards: [grafana (read-only)](https://viewer:{pw}@grafana.acme.dev/d/k8s)",
            pw,
        )
    )
    tok = _r(_URLSAFE, 43)
    out.append(
        _sample(
            "markup",
            f"[reset your password](https://id.acme.dev/reset?token={tok}&uid=4812) — link from the email, valid 24 h",
            tok,
        )
    )
    pw = _pw(13)
    out.append(
        _sample(
            "markup",
            f"Weekly report draft\n\n<!-- TODO remove before sharing: smtp pass = {pw} -->\n\n- uptime 99.97 %",
            pw,
        )
    )
    pw = _pw(11)
    out.append(
        _sample(
            "markup",
            f"Restored the photos from the NAS.[^1]\n\n[^1]: root pw on the NAS is {pw}",
            pw,
        )
    )
    tok = "lin_api_" + _r(_ALNUM, 40)
    out.append(
        _sample(
            "markup",
            f"- [x] rotate the Linear key → new one: `{tok}`\n- [ ] tell Ola",
            tok,
        )
    )
    return out


def _obfuscated() -> list[Sample]:
    out: list[Sample] = []
    spaced = " ".join(_pw(10, ""))
    out.append(
        _sample("obfuscated", f"pass (spaced out so the bot doesn't eat it): {spaced}", spaced)
    )
    emails = (
        ("Pisz na {v}", "kasia kropka nowak87 małpa wp kropka pl"),
        ("můj e-mail je {v}", "petr tečka dvorak zavináč seznam tečka cz"),
        ("пиши на {v}", "oksana точка koval собака ukr точка net"),
        ("e-postam {v}", "ayse nokta yilmaz et gmail nokta com"),
        ("email của em là {v}", "linh chấm tran a còng gmail chấm com"),
        ("το email μου: {v}", "nikos τελεία papas παπάκι otenet τελεία gr"),
    )
    for template, value in emails:
        out.append(_sample("obfuscated", template.format(v=value), value))
    v = _pw(12)
    out.append(
        _sample(
            "obfuscated",
            f"{v} — that's the password for the shared drive, don't ask me again",
            v,
        )
    )
    v, v2 = _pw(11), _pw(11)
    out.append(
        _sample(
            "obfuscated",
            f"{v} is the password for the NAS and {v2} is the one for the router.",
            v,
            v2,
        )
    )
    v = _pw(12)
    out.append(_sample("obfuscated", f"mot de passe («{v}») — à changer lundi", v))
    v = _pw(12)
    out.append(_sample("obfuscated", f"パスワード「{v}」でログインできました。", v))
    v = _pw(12)
    out.append(_sample("obfuscated", f"邮箱密码（{v}）已经改好了", v))
    v = _pw(12)
    out.append(
        _sample("obfuscated", f"ok the new one is ||{v}|| (spoilered so it's not on screen)", v)
    )
    old, new = _pw(10), _pw(10)
    out.append(
        _sample("obfuscated", f"router password ~~{old}~~ → {new} (changed today)", old, new)
    )
    v = _pw(13)
    out.append(
        _sample(
            "obfuscated",
            f"the password is\n\n    {v}\n\n(indented so it shows as code)",
            v,
        )
    )
    return out


def _encoded() -> list[Sample]:
    out: list[Sample] = []
    pw = _pw(16)
    b = _enc(pw)
    out.append(
        _sample(
            "encoded",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\ndata:\n"
            f"  username: {_enc('billing')}\n  password: {b}\n",
            b,
        )
    )
    auth = _enc(f"gitlab-ci-token:{'glpat-' + _r(_URLSAFE, 20)}")
    doc = {"auths": {"registry.gitlab.com": {"auth": auth}}, "credsStore": ""}
    out.append(
        _sample(
            "encoded", "~/.docker/config.json on the runner:\n" + json.dumps(doc, indent=2), auth
        )
    )
    b = _enc(_pw(14))
    out.append(
        _sample(
            "encoded",
            f"DB pass (base64 so it doesn't show in screenshots): {b}",
            b,
        )
    )
    pw = _pw(10, "") + "@!#" + _pw(6, "")
    enc = quote(pw, safe="")
    out.append(
        _sample(
            "encoded",
            f"psql 'postgresql://etl:{enc}@warehouse.internal:5432/dw?sslmode=require'",
            enc,
        )
    )
    psk = _r(_HEX, 64)
    out.append(
        _sample(
            "encoded",
            f'wpa_passphrase output, kept the hashed one:\nnetwork={{\n\tssid="Attic"\n\tpsk={psk}\n}}',
            psk,
        )
    )
    return out


def _build_samples() -> tuple[Sample, ...]:
    return (
        *_prose_passwords(),
        *_pins(),
        *_configs(),
        *_connection_strings(),
        *_http_auth(),
        *_git_urls(),
        *_vendor_keys(),
        *_private_keys(),
        *_national_ids(),
        *_passports(),
        *_tax_ids(),
        *_bank_accounts(),
        *_ibans(),
        *_cards(),
        *_phones(),
        *_birth_dates(),
        *_otps(),
        *_recovery_codes(),
        *_wifi(),
        *_markup(),
        *_obfuscated(),
        *_encoded(),
    )


# --- look-alikes ----------------------------------------------------------------------------

_PNG_1X1 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)


def _build_lookalikes() -> tuple[Lookalike, ...]:
    talk = (
        "Zmieniłem wczoraj hasło do poczty, nowe jest w menedżerze haseł.",
        "Şifremi unuttum, sıfırlama bağlantısı e-postama hâlâ gelmedi.",
        "Jag bytte lösenord i går och la in det i Bitwarden.",
        "Heslo ti pošlu osobně, ne přes e-mail.",
        "Mình đã đổi mật khẩu rồi, lần sau hỏi trực tiếp nhé.",
        "Kata sandi lama sudah tidak berlaku sejak Senin.",
        "पासवर्ड बदलने का लिंक ईमेल पर भेज दिया है।",
        "نسيت كلمة المرور مرة أخرى، سأطلب إعادة تعيينها.",
        "הסיסמה נמצאת במנהל הסיסמאות, אל תשלח אותה בצ'אט.",
        "Ο κωδικός άλλαξε χθες· θα σου τον πω από κοντά.",
        "Пароль я змінив, новий лежить у сховищі паролів.",
        "ลืมรหัสผ่านอีกแล้ว ต้องรีเซ็ตใหม่",
        "Vaihdoin salasanan eilen, uusi on salasanojen hallinnassa.",
        "Das Passwort läuft alle 90 Tage ab; die Erinnerung kommt per Mail.",
        "Le mot de passe doit contenir au moins 12 caractères.",
        "La contraseña se restablece desde el portal, no por teléfono.",
        "A senha do Wi-Fi está colada atrás do roteador.",
        "Ho dimenticato il PIN della carta, devo passare in banca.",
        "Het wachtwoord staat in de kluis van het team, vraag Joost om toegang.",
        "パスワードを忘れたので、リセットのメールを待っています。",
        "비밀번호를 바꿨어요. 새 비밀번호는 직접 알려 줄게요.",
        "密码已经改了，新的我当面告诉你。",
        "A jelszót holnap cserélem, addig ne lépj be.",
        "Parola nouă ți-o trimit pe Signal, nu pe mail.",
        "Пароль от почты поменяла, новый в менеджере.",
        "I changed the password yesterday; ask me in person if you need it.",
        "The password field rejects anything shorter than 14 characters.",
        "PIN reset letter arrives in 5–7 working days.",
        "Remember to rotate the SendGrid key after the launch; it's in the vault.",
        "Two-factor is on now, backup codes are printed and in the fire safe.",
        "The Wi-Fi password is on the fridge, not in this doc.",
        "Kod SMS nie przyszedł, spróbuję jeszcze raz za minutę.",
        "Doğrulama kodu gelmedi, tekrar gönder dedim.",
    )
    postal = (
        "Kod pocztowy: 31-042 Kraków, ul. Grodzka.",
        "Posta kodu 34710, Kadıköy / İstanbul.",
        "Postnummer 114 55 Stockholm.",
        "PSČ 110 00, Praha 1.",
        "Mã bưu chính Hà Nội là 100000.",
        "Kode pos kantor baru 10110, Jakarta Pusat.",
        "पिन कोड 560001 (बेंगलुरु) डालना है।",
        "PIN code 400001 is Mumbai GPO, not our office.",
        "الرمز البريدي 11564 الرياض",
        "מיקוד 6100000 תל אביב",
        "ΤΚ 105 57 Αθήνα",
        "Поштовий індекс 01001, Київ.",
        "รหัสไปรษณีย์ 10200 เขตพระนคร",
        "Postinumero 00100 Helsinki.",
    )
    code_words = (
        "HTTP status code 429 means we're being rate-limited; back off for 60 s.",
        "Exit code 137 again — the container got OOM-killed.",
        "Error code 0x80070005 (access denied) on the scheduled task.",
        "Scan the QR code on page 3 of the manual to register the device.",
        "Code freeze starts 2027-01-14 at 18:00 CET.",
        "Android versionCode bumped to 4127 for the 3.9.0 release.",
        "Country calling code for Poland is +48, for Türkiye +90.",
        "Dress code for Friday: smart casual.",
        "IATA airport codes: WAW, KRK, GDN.",
        "The source code is on GitHub under the MIT licence.",
        "Kod źródłowy jest w repozytorium, gałąź main.",
    )
    placeholders = (
        "Set `API_TOKEN=<your-token>` in `.env` before the first run.",
        "Card number field shows xxxx xxxx xxxx until you tap it.",
        'environment:\n  DB_PASSWORD: "${DB_PASSWORD}"\n  API_KEY: ${API_KEY}',
        "password: {{ .Values.postgresql.auth.password | quote }}",
        "set PGPASSWORD=%DB_PASSWORD% && psql -h localhost -U app",
        "export GITHUB_TOKEN=$(gh auth token)",
        "token: op://Private/Stripe/credential",
        "      NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
        "password_file: /run/secrets/postgres_password",
        "api_key = os.environ['OPENAI_API_KEY']",
        "Authorization: Bearer <token>",
        'curl -u "$NEXUS_USER:$NEXUS_PASS" https://nexus.internal/service/rest/v1/status',
        "Pwd=********",
        "Password: ••••••••",
        "The chart ships with the placeholder `changeme`; the install hook refuses to start until you replace it.",
        "Replace YOUR_API_KEY_HERE with the key from the dashboard.",
        "mongodb://localhost:27017/test",
        "jdbc:postgresql://localhost:5432/app",
        "WIFI:S:Biblioteka-Goscie;T:nopass;;",
        "vault kv get -field=password secret/prod/db",
        'ansible_become_pass: "{{ vault_become_pass }}"',
        "Secret lives at arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db, not in the repo.",
    )
    commits = [_r(_HEX, 40) for _ in range(3)]
    checksum = hashlib.sha256(b"dreamd-2.14.3.tar.gz").hexdigest()
    ids = (
        f"Reverted {commits[0]} because it broke the nightly build.",
        f"Cherry-picked {commits[1][:7]} onto release/2.14.",
        f"git bisect says {commits[2]} is the first bad commit.",
        f"SHA-256 on the download page is {checksum}; mine matched.",
        f"Support asked for the request id: {_uuid()}",
        "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        f"pulled nginx@sha256:{hashlib.sha256(b'nginx:1.27.3').hexdigest()}",
        "Ticket OPS-4821 is waiting on the vendor.",
        "Patched CVE-2024-3094 on all build hosts.",
        "PR #2219 merged after two approvals.",
        f"Sentry event {_r(_HEX, 32)} is the same crash as last week.",
        f"Build 20270106.3 finished in 14 min 22 s (run {_uuid()}).",
    )
    isbn1, isbn2 = _isbn13("97883"), _isbn13("978019")
    svg = _enc("<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>")
    numbers = (
        "Upgraded to Python 3.12.8 and Node 20.18.1.",
        "Release v3.2.0-rc.1 is tagged; 1.0.0+20130313144700 was the first build.",
        "Kernel 6.8.0-51-generic on the new box.",
        "Order #112-4829301-5573822 shipped yesterday.",
        "Zamówienie nr 2027/01/4471 — odbiór w paczkomacie.",
        "Sipariş numarası 7730251946, teslimat Cuma.",
        "Invoice INV-2027-00417 is due on 31 January.",
        "Faktura VAT nr FV/12/2026/118 — zapłacona.",
        "UPS tracking 1Z 999 AA1 01 2345 6784, out for delivery.",
        "DHL waybill JD014600006281234567",
        "USPS 9400 1118 9922 3817 4529 12 — delivered to the mailroom.",
        f"ISBN {isbn1[:3]}-{isbn1[3:5]}-{isbn1[5:9]}-{isbn1[9:12]}-{isbn1[12]} (library copy).",
        f"Reading list: ISBN {isbn2}",
        "Meeting moved to 14.03.2027, 10:00–11:30 CET.",
        "Spotkanie przełożone na 2027-02-09 o 9:15.",
        "Toplantı 06.01.2027 saat 14:30'da.",
        "Total €1,249.00 incl. VAT; shipping $18.50.",
        "Cena: 1 249,99 zł, rata 104,17 zł × 12.",
        "Fiyatı ₺3.450, kargo bedava.",
        "Desk is 160 × 80 cm, 74 cm high; monitor arm holds 2–9 kg.",
        "Ran 12.4 km in 58:31, avg pace 4:43/km, HR 152 bpm.",
        "Postcodes for the delivery zone: SW1A 1AA, EC1A 1BB, 10001.",
        "Room 4.217 on floor 4; the lab is 3.014.",
        "Take bus 175 to the airport, or tram 9 and then line 411.",
        "Final score 3–1; the away game ended 108–104 in OT.",
        "Laptop: ThinkPad T14 Gen 4 (21HD003XPB), phone SM-S928B/DS.",
        "Replacement part no. 04X5254 for the keyboard.",
        "Caffeine is C8H10N4O2, glucose C6H12O6, sulfuric acid H2SO4.",
        "Brand colours: #1E90FF primary, #FF5733 accent, #222 text.",
        "See p. 214 of the manual, and pp. 33–35 for wiring.",
        "Flight LO 282 leaves at 10:45 from gate 27, seat 14C.",
        "Population of Poland ≈ 37 636 508 (2023).",
        "Wi-Fi runs on 2.4 GHz and 5 GHz; the PSU is 230 V / 65 W.",
        "Parcel locker pick-up window: 72 h, locker 2B.",
    )
    no_value = (
        "PESEL ma 11 cyfr i zawiera datę urodzenia.",
        "The SSN field is required on the form (9 digits, no dashes).",
        "Sort code format is 00-00-00.",
        "Visa ending in 0057 was declined, use the Mastercard.",
        "Numer konta podam ci na priv, nie wrzucam go tutaj.",
        "IBAN format for Türkiye: TR, two check digits, then 22 characters.",
    )
    public = (
        f'<img alt="spacer" src="data:image/png;base64,{_PNG_1X1}">',
        f'background: url("data:image/svg+xml;base64,{svg}");',
        "Resolvers: 8.8.8.8, 1.1.1.1 and 9.9.9.9.",
        "Bank BIC is COBADEFFXXX (Commerzbank Frankfurt), for the supplier's records.",
        "My public key, add it to authorized_keys:\n"
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{_b64(32)[:43]} ola@laptop",
        "| Service | Owner | Runbook |\n|---|---|---|\n| Grafana | SRE | wiki/grafana |\n| MinIO | Data | wiki/minio |",
        "| Service | User | Password |\n|---|---|---|\n| db | admin | (in vault) |\n| grafana | admin | (SSO) |",
    )
    out = [Lookalike("lookalike-talk", t) for t in talk]
    out += [Lookalike("lookalike-postal", t) for t in postal]
    out += [Lookalike("lookalike-code-word", t) for t in code_words]
    out += [Lookalike("lookalike-placeholder", t) for t in placeholders]
    out += [Lookalike("lookalike-id", t) for t in ids]
    out += [Lookalike("lookalike-number", t) for t in numbers]
    out += [Lookalike("lookalike-no-value", t) for t in no_value]
    out += [Lookalike("lookalike-public", t) for t in public]
    return tuple(out)


_SAMPLES = _build_samples()
_LOOKALIKES = _build_lookalikes()


def secret_samples() -> list[Sample]:
    """Texts holding secrets, each with the exact strings redaction must remove."""
    return list(_SAMPLES)


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive: redaction must leave each byte for byte."""
    return list(_LOOKALIKES)
