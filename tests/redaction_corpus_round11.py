r"""The round-eleven redaction corpus for dreamd, written blind: before the rules were read.

Nothing in it was shown to the rules or tuned against them, and it leans on what the docstrings
of rounds two to ten list little or not at all. It is the text a careless note-taker dictates
to a phone or types into a chat with typos, the files a migrating user copies off a home server,
a games PC and a laptop full of self-hosted tools, and the shapes an attacker would pick because
a filter may not know them.

Secrets (:func:`secret_samples`): passwords and codes in voice-dictation transcripts, with the
sign said as a word in English, German, French and Spanish ("hash", "Ausrufezeichen", "point
d'exclamation", "guion bajo"), "double four" and digits read one by one, a product key read off a
sticker; chat with the keyword misspelt ("pasword", "passwrod", "passowrd", "wachwoord",
"contrasena", "mot de pass") and the value in the next message; a hint written beside its value
and a false maiden name given as a security answer; Markdown shapes (nested lists, nested block
quotes, definition lists, MkDocs, GitHub, Docusaurus and Obsidian admonitions and callouts,
``<details>``, task lists, a value in two inline-code spans, in bold and italic halves, in a
link reference definition, a ``[//]: #`` comment, Dataview and Logseq ``key:: value`` fields,
two table cells, an abbreviation definition, ``<dl>`` and a backslash hard break); YAML, TOML
and JSON front matter and Obsidian properties; the smart home (a Home Assistant
``secrets.yaml`` with Tibber, Octopus Energy and SolarEdge keys, a Tasmota ``Backlog``,
Zigbee2MQTT with its network key, Z-Wave JS security keys, a Mosquitto bridge, Node-RED's
``credentialSecret``, a Tuya local key, a Philips Hue user, a Shelly URL, HomeKit and Matter
setup codes, a DuckDNS token); camera streams in Frigate, go2rtc (with a Tapo cloud password)
and an M3U playlist; OpenWrt UCI, a FRITZ!Box and a Telekom access letter; Synology, Pi-hole,
OctoPrint, Hikvision, Kodi, Jellyfin, Sonarr and Transmission; stream keys of Twitch (in an
OBS ``service.json`` and a chat), YouTube, Facebook Live, Kick and Restream and a Streamlabs
token; game accounts (a Battle.net restore code, Epic backup codes, PSN, Nintendo and an Xbox
passkey in controller buttons, Lichess) and game servers (Minecraft RCON, Valheim, Factorio,
ARK, a CS2 ``server.cfg`` with its login token); cards of schemes no earlier round names
(Discover, Maestro, RuPay, Troy, Verve, Dankort, NAPAS, Hipercard) grouped oddly, dotted, split
over lines and table cells, with the security code said in prose; accounts beside BSB, IFSC,
sort, routing, transit and agência codes, a cheque's MICR line, PayID, UPI, Pix keys and a Pix
"copia e cola" payload with its CRC, Zelle, an Interac security answer, a Peruvian CCI and a
NetBank client number; IBANs of Montenegro, Andorra, San Marino, the Faroes, Kuwait, Lebanon,
Tunisia, Timor-Leste, Seychelles, Belarus and Iraq; national numbers no earlier round holds
(Irish PPS, Croatian OIB, Slovak rodné číslo, UK UTR, UPN and driving licence, Scottish CHI,
Colombian cédula and NIT, Bulgarian ЛНЧ, Belgian BIS, US ATIN and A-Number, Indian EPIC and
Aadhaar VID, Indonesian NPWP, South African tax number, Mozambican NUIT, German Ausweis number,
Luxembourg matricule, Kuwaiti civil id, Zimbabwean, Angolan, Rwandan, Myanmar, Mongolian,
Uzbek, Nicaraguan, Uruguayan, Albanian and Moroccan ids, Brazilian título de eleitor and CNH,
Italian tessera sanitaria, Polish ID card, Hungarian személyi szám, New Zealand NHI, OHIP and
RAMQ, Centrelink CRN, Norwegian D-nummer and Swedish samordningsnummer); phones of New
Zealand (spoken as words), Croatia, Colombia, Uruguay, Kuwait, Zimbabwe, Rwanda, Georgia,
Jamaica, Nepal, Morocco and Peru; keys of some forty vendors no earlier round names (Midtrans,
Xendit, Mercado Pago, Asaas, Africa's Talking, M-Pesa Daraja, iyzico, Voyage, Jina, Tavily,
Firecrawl, Browserbase, LlamaCloud, Cohere, Stytch, Clerk, Revolut, OneSignal, Portainer,
PubNub, Alpaca, Polygon.io, Agora, LiveKit, Mux, Porkbun, GoDaddy, Rancher, Bitwarden Secrets
Manager, Expo, fastlane, Todoist, Toggl, Pipedrive, HERE, OpenCage, Withings, Oura); passwords
in mixed and creole speech (Spanglish, Taglish, Québécois, Singlish, Konglish, Cantonese and
Japanese with English, Camfranglais, Sheng, Jamaican, Krio, Papiamentu, Mauritian Creole, Toki
Pona, Interlingua, Tetum, Crimean Tatar, Navajo, Waray, Lombard, Picard); encodings (base32
without padding, URL-safe base64, ``\u`` escapes inside a JSON password, quoted-printable with
``=3D``, uuencode, base45, base58, doubled quotes in CSV, shell escapes, an ``xxd`` dump,
UTF-8 read as Latin-1); values split over chat messages, JSON array items, a wrapped mail,
``<br>``, an empty HTML comment and quoted lines; logs and traces of frameworks no earlier
round uses (Android logcat, the iOS console, the Django debug page, Werkzeug frame locals,
Spring actuator, Celery, Sidekiq, Airflow, Ansible ``-vvv``, npm debug logs, uv, Git curl
traces, ``kubectl -v``, SQLAlchemy echo, PostgreSQL statements, Redis ``MONITOR``, Windows
event 4688, a GitHub Actions log printing base64, a Sentry breadcrumb, an Erlang crash report,
Perl DBI); tools copied between machines (aerc, vdirsyncer, newsboat, WinSCP, mRemoteNG,
Remmina, HeidiSQL, bunfig, condarc, Bundler, Deno, skopeo, Argo CD, AWS SAM, App Engine, pm2,
Zabbix, Logstash, Filebeat, Netdata, snmpd, a Ceph keyring); self-hosted apps (Authelia,
authentik, Vaultwarden, Mastodon, Synapse, Jitsi, coturn, Immich, PhotoPrism, DRBD, SSSD,
FreeIPA); proxy configs and links (Shadowsocks JSON and ``ss://``, VLESS, VMess, Trojan,
Hysteria2, TUIC, Clash, a ZeroTier identity).

Look-alikes (:func:`lookalikes`) must come through byte for byte: dictation and typo-ridden
chat about passwords with no value, hints with no value, the same Markdown shapes and front
matter holding versions, ids, colours and an ISBN, Home Assistant ``!secret`` references,
Zigbee2MQTT's ``GENERATE``, a Zigbee address, a Frigate ``{FRIGATE_RTSP_PASSWORD}`` template,
a public test stream, an OBS profile without its key, a placeholder stream key, video and app
ids, a Minecraft seed, Stripe's published test card, a masked card, decline codes, branch and
bank codes, published routing numbers, IBAN formats, postcodes, order, booking and tracking
numbers, public helplines, part numbers, publishable and client keys (Midtrans, Mercado Pago,
Clerk, Xendit, OneSignal, Agora, PubNub), a 1Password reference and an Azure Key Vault
reference, model names, a base64 tutorial, quoted-printable and ``\u`` escaped prose, a PNG
header dump, a public donation address, logs with masked or no secrets (trace ids, Celery and
Sidekiq job ids, ``[Filtered]``, ``***``, ``(protected)``), the same tools reading their
secrets from commands, files and the environment, SOPS and Pulumi ciphertexts, and ZeroTier's
public network id.

Every value is fake: drawn from ``random.Random(20310311)``, with each scheme's check digits
computed by python-stdnum where it has the scheme (PPS, OIB, RČ, UTR, UPN, NIT, ЛНЧ, BIS, ATIN,
ABA routing, EPIC, VID, NPWP, the South African tax number, NUIT, fødselsnummer, IBAN, Luhn,
Verhoeff) and by the published rule where it does not (CHI, the Luxembourg matricule, the Kuwaiti
civil id, the Zimbabwean and Nicaraguan check letters, the Uruguayan CI, the Uzbek PINFL, the
Polish ID card, the Hungarian személyi szám, the NHI, OHIP, the título de eleitor, the CNH, the
samordningsnummer, the Matter pairing code, the Pix CRC), so each value is valid in form while
naming no one.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import string
from collections.abc import Callable
from types import ModuleType

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn, verhoeff
from stdnum.al import nipt
from stdnum.be import bis
from stdnum.bg import pnf
from stdnum.co import nit
from stdnum.gb import nhs, upn, utr
from stdnum.hr import oib
from stdnum.id import npwp
from stdnum.ie import pps
from stdnum.in_ import epic, vid
from stdnum.mz import nuit
from stdnum.no import fodselsnummer
from stdnum.sk import rc as sk_rc
from stdnum.us import atin, rtn
from stdnum.za import tin as za_tin

from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20310311)
_ALNUM = string.ascii_letters + string.digits
_LOWER = string.ascii_lowercase + string.digits
_UPPER = string.ascii_uppercase + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_DIGITS = string.digits

_WORDS = (
    "Kowhai Tuatara Jarrah Quokka Galah Cenote Quetzal Ceiba Maracuja Araucaria Vicuna Marula "
    "Mopane Okapi Fennec Argan Burren Connemara Jadran Velebit Orinoco Cotopaxi Titicaca "
    "Altiplano Khangai Kazbek Inle Irrawaddy Zambezi Kariba Nyungwe Kivu Tatra Hortobagy "
    "Mekong Tonle Sarek Lofsdalen Rapa Moorea Taveuni Uluru Kakadu Pantanal Llanos Guajira"
).split()

_DIGIT_WORDS = "oh one two three four five six seven eight nine".split()


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _d(length: int) -> str:
    return _t(length, _DIGITS)


def _w() -> str:
    return _RNG.choice(_WORDS)


def _pw() -> str:
    """A password the way people make them: words, digits and a sign, or a random string."""
    word = _w()
    digits = str(_RNG.randrange(10, 9999))
    sign = _RNG.choice("!@#%&*?$")
    style = _RNG.randrange(6)
    if style == 0:
        return f"{word}{digits}{sign}"
    if style == 1:
        return f"{word}{sign}{digits}"
    if style == 2:
        return f"{word.lower()}{sign}{_w()}{digits[:2]}"
    if style == 3:
        return _t(15, _ALNUM + "!#%+")
    if style == 4:
        return f"{_w()}-{word.lower()}-{digits}"
    return f"{digits[:2]}{word}{sign}{_w().lower()}"


def _pin(length: int = 4) -> str:
    while True:
        value = _d(length)
        if value[0] != "0" and len(set(value)) > 2:
            return value


def _uuid() -> str:
    h = _t(32, _HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_RNG.choice('89ab')}{h[17:20]}-{h[20:]}"


def _spell(digits: str) -> str:
    return " ".join(_DIGIT_WORDS[int(c)] for c in digits)


def _valid(module: ModuleType, make: Callable[[], str]) -> str:
    """A value ``make`` draws that ``module`` holds valid (drawn again until it is)."""
    for _ in range(5000):
        value = make()
        if module.is_valid(value):
            return value
    raise AssertionError(module.__name__)


def _mod97(country: str, body: str) -> str:
    digits = "".join(str(int(c, 36)) for c in body + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{body}"


def _iban(country: str, bban: Callable[[], str]) -> str:
    """An IBAN python-stdnum holds valid (national check digits and all)."""
    return _valid(stdnum_iban, lambda: _mod97(country, bban()))


def _grouped(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def _card(prefix: str, length: int = 16) -> str:
    body = prefix + _d(length - len(prefix) - 1)
    return body + luhn.calc_check_digit(body)


def _phone(region: str, prefixes: tuple[str, ...], length: int, style: str = "intl") -> str:
    """A mobile number of ``region`` that phonenumbers holds valid, written as people do."""
    for _ in range(5000):
        prefix = _RNG.choice(prefixes)
        national = prefix + _d(length - len(prefix))
        number = phonenumbers.parse(national, region)
        if phonenumbers.is_valid_number(number) and phonenumbers.number_type(number) in (
            phonenumbers.PhoneNumberType.MOBILE,
            phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
        ):
            fmt = {
                "intl": phonenumbers.PhoneNumberFormat.INTERNATIONAL,
                "national": phonenumbers.PhoneNumberFormat.NATIONAL,
                "e164": phonenumbers.PhoneNumberFormat.E164,
            }[style]
            return phonenumbers.format_number(number, fmt)
    raise AssertionError(region)


def _s(family: str, text: str, *secrets: str) -> Sample:
    """A sample; each secret is in its text, and nowhere but where it was planted."""
    rest = text.lower()
    for secret in sorted(secrets, key=len, reverse=True):
        assert secret in text, (family, secret)
        rest = rest.replace(secret.lower(), "\0")
    assert not [s for s in secrets if s.lower() in rest], (family, secrets)
    return Sample(family, text, secrets)


def _x(family: str, text: str) -> Lookalike:
    return Lookalike(family, text)


def _b64(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.b64encode(raw).decode()


def _b64url(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(payload: dict[str, object]) -> str:
    head = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")))
    body = _b64url(json.dumps(payload, separators=(",", ":")))
    return f"{head}.{body}.{_t(43, _URLSAFE)}"


_B45 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _base45(data: bytes) -> str:
    out: list[int] = []
    for i in range(0, len(data), 2):
        chunk = data[i : i + 2]
        if len(chunk) == 2:
            n = chunk[0] * 256 + chunk[1]
            out += [n % 45, n // 45 % 45, n // 2025]
        else:
            out += [chunk[0] % 45, chunk[0] // 45]
    return "".join(_B45[x] for x in out)


def _base58(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = _B58[r] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def _emv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def _crc16(data: str) -> str:
    crc = 0xFFFF
    for byte in data.encode():
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def _pix(key: str, name: str, city: str, amount: str) -> str:
    """A Pix "copia e cola" payload (EMV QR with its CRC16) carrying ``key``."""
    body = (
        _emv("00", "01")
        + _emv("26", _emv("00", "br.gov.bcb.pix") + _emv("01", key))
        + _emv("52", "0000")
        + _emv("53", "986")
        + _emv("54", amount)
        + _emv("58", "BR")
        + _emv("59", name)
        + _emv("60", city)
        + _emv("62", _emv("05", "***"))
        + "6304"
    )
    return body + _crc16(body)


def _dob() -> tuple[int, int, int]:
    return _RNG.randrange(1958, 1999), _RNG.randrange(1, 13), _RNG.randrange(1, 29)


# --- national numbers ----------------------------------------------------------------------


def _pps() -> str:
    return _valid(pps, lambda: _d(7) + _RNG.choice("ABCDEFGHIJKLMNOPQRSTUVW") + "A")


def _oib() -> str:
    return _valid(oib, lambda: _RNG.choice("123456789") + _d(10))


def _sk_rc() -> str:
    def make() -> str:
        y, m, d = _dob()
        m += _RNG.choice((0, 50))
        return f"{y % 100:02d}{m:02d}{d:02d}/{_d(4)}"

    return sk_rc.format(_valid(sk_rc, make))


def _utr() -> str:
    def make() -> str:
        body = _d(9)
        return utr.calc_check_digit(body) + body

    return _valid(utr, make)


def _upn() -> str:
    def make() -> str:
        body = _RNG.choice(("201", "330", "873", "919")) + _d(2) + _d(7)
        return upn.calc_check_digit(body) + body

    return _valid(upn, make)


def _chi() -> str:
    """A Scottish CHI number: date of birth, three digits and the NHS modulus-11 check."""
    for _ in range(1000):
        y, m, d = _dob()
        body = f"{d:02d}{m:02d}{y % 100:02d}{_d(3)}"
        for c in "0123456789":
            if nhs.is_valid(body + c):
                return body + c
    raise AssertionError("chi")


def _co_nit(body: str) -> str:
    return nit.format(body + nit.calc_check_digit(body))


def _pnf() -> str:
    def make() -> str:
        body = _RNG.choice("123456789") + _d(8)
        return body + pnf.calc_check_digit(body)

    return _valid(pnf, make)


def _bis() -> str:
    def make() -> str:
        y, m, d = _dob()
        body = f"{y % 100:02d}{m + _RNG.choice((20, 40)):02d}{d:02d}{_d(3)}"
        check = 97 - int(body) % 97
        return f"{body}{check:02d}"

    return bis.format(_valid(bis, make))


def _atin() -> str:
    return atin.format(_valid(atin, lambda: "9" + _d(2) + "93" + _d(4)))


def _routing() -> str:
    body = _RNG.choice(("0210", "0260", "1110", "0711", "1210", "3222")) + _d(4)
    return _valid(rtn, lambda: body + rtn.calc_check_digit(body))


def _epic() -> str:
    def make() -> str:
        body = _d(6)
        return _t(3, string.ascii_uppercase) + body + luhn.calc_check_digit(body)

    return _valid(epic, make)


def _vid() -> str:
    def make() -> str:
        body = _RNG.choice("23456789") + _d(14)
        return body + verhoeff.calc_check_digit(body)

    return vid.format(_valid(vid, make))


def _npwp() -> str:
    def make() -> str:
        body = _RNG.choice(("01", "02", "07", "08", "09")) + _d(6)
        return body + luhn.calc_check_digit(body) + _d(3) + "000"

    return npwp.format(_valid(npwp, make))


def _za_tin() -> str:
    def make() -> str:
        body = _RNG.choice("0123") + _d(8)
        return body + luhn.calc_check_digit(body)

    return _valid(za_tin, make)


def _nuit() -> str:
    def make() -> str:
        body = _RNG.choice("1") + _d(7)
        return body + nuit.calc_check_digit(body)

    return _valid(nuit, make)


def _al_nid() -> str:
    def make() -> str:
        y, m, d = _dob()
        decade = "HIJK"[(y - 1950) // 10 % 4] if y < 1990 else "L"
        month = m + _RNG.choice((0, 50))
        return f"{decade}{y % 10}{month:02d}{d:02d}{_d(3)}{_RNG.choice(string.ascii_uppercase)}"

    return _valid(nipt, make)


def _d_nummer() -> str:
    def make() -> str:
        y, m, d = _dob()
        body = f"{d + 40:02d}{m:02d}{y % 100:02d}{_d(3)}"
        first = fodselsnummer.calc_check_digit1(body)
        return body + first + fodselsnummer.calc_check_digit2(body + first)

    return _valid(fodselsnummer, make)


def _samordning() -> str:
    """A Swedish samordningsnummer: the day plus 60, the Luhn rule of the personnummer."""
    y, m, d = _dob()
    body = f"{y % 100:02d}{m:02d}{d + 60:02d}{_d(3)}"
    return f"{body[:6]}-{body[6:]}{luhn.calc_check_digit(body)}"


def _lu_matricule() -> str:
    y, m, d = _dob()
    body = f"{y}{m:02d}{d:02d}{_d(3)}"
    return body + luhn.calc_check_digit(body) + verhoeff.calc_check_digit(body)


def _kw_civil() -> str:
    while True:
        y, m, d = _dob()
        body = f"2{y % 100:02d}{m:02d}{d:02d}{_d(4)}"
        check = (
            11
            - sum(int(c) * w for c, w in zip(body, (2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2), strict=True))
            % 11
        )
        if check < 10:
            return body + str(check)


def _zw_id() -> str:
    district, serial = _RNG.choice(("63", "08", "42", "29", "58")), _d(7)
    letter = "ZABCDEFGHJKLMNPQRSTVWXY"[int(district + serial) % 23]
    return f"{district}-{serial}{letter}{_RNG.choice(('13', '22', '47', '75'))}"


def _ni_cedula() -> str:
    y, m, d = _dob()
    body = f"{_RNG.choice(('001', '081', '281', '401'))}{d:02d}{m:02d}{y % 100:02d}{_d(4)}"
    letter = "ABCDEFGHJKLMNPQRSTUVWXY"[int(body) % 23]
    return f"{body[:3]}-{body[3:9]}-{body[9:]}{letter}"


def _uy_ci() -> str:
    body = str(_RNG.randrange(1_000_000, 6_000_000))
    check = (
        10 - sum(int(c) * w for c, w in zip(body, (2, 9, 8, 7, 6, 3, 4), strict=True)) % 10
    ) % 10
    return f"{body[0]}.{body[1:4]}.{body[4:]}-{check}"


def _pinfl() -> str:
    y, m, d = _dob()
    body = f"{_RNG.choice('34')}{d:02d}{m:02d}{y % 100:02d}{_d(3)}{_d(3)}"
    check = sum(int(c) * (7, 3, 1)[i % 3] for i, c in enumerate(body)) % 10
    return body + str(check)


def _pl_id_card() -> str:
    letters = _t(3, "ABCDEFGHJKLMNPRSTUVWXYZ")
    digits = _d(5)
    weights = (7, 3, 1, 7, 3)
    total = sum(int(c, 36) * w for c, w in zip(letters, (7, 3, 1), strict=True))
    total += sum(int(c) * w for c, w in zip(digits, weights, strict=True))
    check = next(c for c in range(10) if (total + 9 * c) % 10 == 0)
    return f"{letters}{check}{digits}"


def _hu_szemelyi() -> str:
    while True:
        y, m, d = _dob()
        if y > 1996:
            continue
        body = f"{_RNG.choice('12')}{y % 100:02d}{m:02d}{d:02d}{_d(3)}"
        check = sum(int(c) * (i + 1) for i, c in enumerate(body)) % 11
        if check < 10:
            return f"{body[0]}-{body[1:7]}-{body[7:]}{check}"


def _nhi() -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    while True:
        head = _t(3, letters) + _d(3)
        total = sum(
            (letters.index(c) + 1 if c.isalpha() else int(c)) * w
            for c, w in zip(head, (7, 6, 5, 4, 3, 2), strict=True)
        )
        if total % 11:
            return head + str((11 - total % 11) % 10)


def _ohip() -> str:
    body = _RNG.choice("123456789") + _d(8)
    number = body + luhn.calc_check_digit(body)
    return f"{number[:4]}-{number[4:7]}-{number[7:]}-{_t(2, string.ascii_uppercase)}"


def _titulo() -> str:
    seq, uf = _d(8), _RNG.choice(("01", "02", "05", "06", "11"))
    rest1 = sum(int(c) * w for c, w in zip(seq, range(2, 10), strict=True)) % 11
    dv1 = 1 if rest1 == 0 and uf in ("01", "02") else (0 if rest1 == 10 else rest1)
    rest2 = (int(uf[0]) * 7 + int(uf[1]) * 8 + dv1 * 9) % 11
    dv2 = 1 if rest2 == 0 and uf in ("01", "02") else (0 if rest2 == 10 else rest2)
    return f"{seq[:4]} {seq[4:]} {uf}{dv1}{dv2}"


def _cnh() -> str:
    while True:
        base = _d(9)
        dv1 = sum(int(c) * (9 - i) for i, c in enumerate(base)) % 11
        dv2 = sum(int(c) * (1 + i) for i, c in enumerate(base)) % 11
        if dv1 < 10 and dv2 < 10 and base[0] != "0":
            return f"{base}{dv1}{dv2}"


def _tessera() -> str:
    body = "80380000" + _d(11)
    return body + luhn.calc_check_digit(body)


def _ausweis() -> str:
    return _RNG.choice("LMNPRTVWXY") + _t(8, "CFGHJKLMNPRTVWXYZ0123456789")


def _uk_licence(surname: str, initials: str, female: bool) -> str:
    y, m, d = _dob()
    month = m + (50 if female else 0)
    name = (surname.upper() + "99999")[:5]
    return (
        f"{name}{str(y)[2]}{month:02d}{d:02d}{y % 10}{initials}9{_t(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"
    )


def _national_samples() -> list[Sample]:
    out: list[Sample] = []
    p1, p2 = _pps(), _pps()
    out += [
        _s(
            "ireland pps", f"Revenue myAccount sign-up: PPSN {p1}, got the letter with the code", p1
        ),
        _s(
            "ireland pps",
            f"- [ ] bring Aoife's PPS no. ({p2[:7]} {p2[7:]}) to the GP",
            f"{p2[:7]} {p2[7:]}",
        ),
    ]
    o1 = _oib()
    out += [
        _s("croatia oib", f"Za ugovor o najmu: moj OIB je {o1}, tata ima drugi.", o1),
    ]
    r1 = _sk_rc()
    out += [
        _s("slovakia rodne cislo", f"Rodné číslo (SK) pre poisťovňu Dôvera: {r1}", r1),
    ]
    u1, up = _utr(), _upn()
    out += [
        _s(
            "uk utr",
            f"Self Assessment: my UTR is {u1[:5]} {u1[5:]} — HMRC phoned about the late filing",
            f"{u1[:5]} {u1[5:]}",
        ),
        _s("uk upn", f"School admissions form asked for Ellie's Unique Pupil Number: {up}", up),
    ]
    chi = _chi()
    dl = _uk_licence("Okafor", "CN", False)
    out += [
        _s("scotland chi", f"NHS Lothian appointment letter — CHI number {chi}, clinic 4B", chi),
        _s(
            "uk driving licence",
            f"Hire car pick-up: driving licence no. {dl}, DVLA check code emailed",
            dl,
        ),
    ]
    ced1, ced2 = (
        str(_RNG.randrange(10_000_000, 1_099_999_999)),
        str(_RNG.randrange(70_000_000, 99_999_999)),
    )
    out += [
        _s(
            "colombia cedula nit",
            f"Para la EPS: cédula de ciudadanía {ced1}, expedida en Medellín",
            ced1,
        ),
        _s(
            "colombia cedula nit",
            f"Factura electrónica a nombre de Julián, NIT {_co_nit(ced2)} (persona natural)",
            _co_nit(ced2),
        ),
    ]
    ln, bs = _pnf(), _bis()
    out += [
        _s("bulgaria lnch", f"ЛНЧ на Марта (за договора с ЧЕЗ): {ln}", ln),
        _s("belgium bis", f"Numéro BIS de ma colocataire (pas encore de carte eID) : {bs}", bs),
    ]
    at, anum = _atin(), "A" + _d(9)
    out += [
        _s("us atin", f"Adoption paperwork: Maya's ATIN is {at} until the SSN arrives", at),
        _s(
            "us a-number",
            f"USCIS case status — my A-Number {anum[:1]}{anum[1:4]}-{anum[4:7]}-{anum[7:]}, green card mailed",
            f"{anum[:1]}{anum[1:4]}-{anum[4:7]}-{anum[7:]}",
        ),
    ]
    ep, vd = _epic(), _vid()
    out += [
        _s("india voter id", f"Voter ID (EPIC) number: {ep} — polling booth 142", ep),
        _s("india aadhaar vid", f"आधार की जगह VID दे दिया: {vd}", vd),
    ]
    np_, zt, nu = _npwp(), _za_tin(), _nuit()
    out += [
        _s("indonesia npwp", f"NPWP pribadi saya {np_} untuk lapor SPT tahunan", np_),
        _s("south africa tax number", f"SARS eFiling: income tax reference number {zt}", zt),
        _s("mozambique nuit", f"O meu NUIT é {nu}, para a factura da EDM.", nu),
    ]
    aus = _ausweis()
    out += [
        _s(
            "germany ausweis",
            f"Hotel-Check-in Lissabon: Personalausweis-Nr. {aus}, gültig bis 2033",
            aus,
        ),
    ]
    lu, kw, zw = _lu_matricule(), _kw_civil(), _zw_id()
    out += [
        _s(
            "luxembourg matricule",
            f"Numéro d'identification national (matricule) : {lu[:4]} {lu[4:8]} {lu[8:]}",
            f"{lu[:4]} {lu[4:8]} {lu[8:]}",
        ),
        _s("kuwait civil id", f"الرقم المدني: {kw} (للتسجيل في العيادة)", kw),
        _s("zimbabwe national id", f"ZIMRA form — National ID No. {zw}, Harare", zw),
    ]
    ao = f"00{_d(7)}{_RNG.choice(('LA', 'BA', 'HO', 'HA'))}0{_d(2)}"
    rw = f"1 {_RNG.randrange(1970, 1999)} {_RNG.choice('78')} {_d(7)} {_d(1)} {_d(2)}"
    out += [
        _s("angola bi", f"Bilhete de Identidade n.º {ao} (renovar em Luanda)", ao),
        _s("rwanda nid", f"Indangamuntu yanjye: {rw}", rw),
    ]
    mm = (
        f"{_RNG.randrange(1, 15)}/{_RNG.choice(('MaYaKa', 'DaGaNa', 'BaHaNa', 'KaMaYa'))}(N){_d(6)}"
    )
    mn = (
        _RNG.choice(("УБ", "ЧА", "ФА", "ОД"))
        + f"{_RNG.randrange(60, 99)}{_RNG.randrange(1, 13):02d}{_RNG.randrange(1, 29):02d}{_d(2)}"
    )
    uz = _pinfl()
    out += [
        _s("myanmar nrc", f"မှတ်ပုံတင်အမှတ် NRC {mm} (visa form)", mm),
        _s("mongolia register", f"Регистрийн дугаар: {mn}, Хаан банкны данс нээхэд", mn),
        _s("uzbekistan pinfl", f"JSHSHIR (PINFL) raqamim {uz}, soliq.uz uchun", uz),
    ]
    ni, uy = _ni_cedula(), _uy_ci()
    out += [
        _s("nicaragua cedula", f"Cédula de identidad (Nicaragua): {ni}", ni),
        _s("uruguay ci", f"mi CI es {uy}, la pide el BPS", uy),
    ]
    tit, cnh = _titulo(), _cnh()
    out += [
        _s("brazil titulo cnh", f"Título de eleitor: {tit} — zona 245, seção 0112", tit),
        _s(
            "brazil titulo cnh", f"CNH nº registro {cnh}, categoria B, para o aluguel do carro", cnh
        ),
    ]
    ts, pl, hu = _tessera(), _pl_id_card(), _hu_szemelyi()
    out += [
        _s(
            "italy tessera sanitaria",
            f"Numero identificazione della tessera sanitaria (TEAM): {ts}",
            ts,
        ),
        _s(
            "poland id card",
            f"Numer dowodu osobistego: {pl[:3]} {pl[3:]} (ważny do 2032)",
            f"{pl[:3]} {pl[3:]}",
        ),
        _s("hungary szemelyi szam", f"Személyi szám (régi papíron): {hu}", hu),
    ]
    nhi, ohip = _nhi(), _ohip()
    ramq = f"{_RNG.choice(('TREM', 'GAGN', 'ROYJ', 'CÔTM'))} {_d(4)} {_d(4)}"
    crn = f"{_d(3)} {_d(3)} {_d(3)}{_RNG.choice('ABCHJK')}"
    out += [
        _s("new zealand nhi", f"Te Whatu Ora patient portal — NHI {nhi}", nhi),
        _s("canada health card", f"OHIP health card # {ohip}, renewal sticker due in May", ohip),
        _s("canada health card", f"Carte soleil (RAMQ) de Mathis : {ramq}", ramq),
        _s(
            "australia centrelink crn",
            f"Centrelink CRN: {crn} — call back re the carer payment",
            crn,
        ),
    ]
    dn, sm, al = _d_nummer(), _samordning(), _al_nid()
    out += [
        _s("norway d-nummer", f"D-nummer for Piotr (sesongarbeid): {dn}", dn),
        _s("sweden samordningsnummer", f"Samordningsnummer till Skatteverket: {sm}", sm),
        _s("albania personal number", f"Numri personal (NID) i Elirës: {al}", al),
    ]
    ma = _t(2, "ABCDEFGHJKLMNPQRSTUVWXYZ") + _d(6)
    out += [
        _s("morocco cin", f"رقم البطاقة الوطنية CIN: {ma} (pour le dossier CNSS)", ma),
    ]
    return out


# --- payment -------------------------------------------------------------------------------


def _card_samples() -> list[Sample]:
    v, m, disc = _card("4485"), _card("5213"), _card("6011")
    maestro, rupay, troy = _card("6759", 19), _card("6521"), _card("9792")
    verve, dank, napas = _card("506099", 19), _card("5019"), _card("9704")
    hiper, v2 = _card("606282"), _card("4024")
    cvc1, cvc2, cvc3, cvc4 = _d(3), _d(3), _d(3), _d(3)
    odd1 = f"{v[:3]} {v[3:6]} {v[6:9]} {v[9:12]} {v[12:]}"
    odd2 = f"{m[:5]} {m[5:10]} {m[10:]}"
    odd3 = f"{disc[:2]} {disc[2:6]} {disc[6:10]} {disc[10:14]} {disc[14:]}"
    dotted = ".".join(maestro[i : i + 4] for i in range(0, 19, 4))
    return [
        _s("card", f"typed it off the card in a rush: {odd1} — exp 04/30", odd1),
        _s("card", f"Siri heard it as {odd2} and cvc {cvc1} lol, fix before saving", odd2, cvc1),
        _s("card", f"Discover {odd3}\nthe three little numbers on the back are {cvc2}", odd3, cvc2),
        _s("card", f"Maestro (19 digits!) {dotted}", dotted),
        _s("card", f"RuPay debit card: {rupay[:8]}-{rupay[8:]} (SBI)", f"{rupay[:8]}-{rupay[8:]}"),
        _s(
            "card",
            f"Troy kartım {_grouped(troy)}, son kullanma 08/29, güvenlik kodu {cvc3}",
            _grouped(troy),
            cvc3,
        ),
        _s("card", f"Verve card for the POS test: {verve}", verve),
        _s(
            "card",
            f"Dankort: {dank[:4]}\n{dank[4:8]} {dank[8:12]}\n{dank[12:]}  (skrevet af på kvitteringen)",
            dank[:4],
            f"{dank[4:8]} {dank[8:12]}",
            dank[12:],
        ),
        _s("card", f"Thẻ ATM NAPAS {napas}, nhớ đổi mã PIN", napas),
        _s("card", f"cartão Hipercard {hiper} – código de segurança no verso: {cvc4}", hiper, cvc4),
        _s(
            "card",
            f"| field | value |\n|---|---|\n| card | {v2[:8]} |\n| (cont.) | {v2[8:]} |",
            v2[:8],
            v2[8:],
        ),
    ]


def _bank_samples() -> list[Sample]:
    au_acct, in_acct, br_conta = f"{_d(4)} {_d(4)}", "50100" + _d(9), f"{_d(5)}-{_d(1)}"
    uk_acct, us_acct, ca_acct = _d(8), _d(10), _d(7)
    routing, us_acct2 = _routing(), _d(9)
    pe_cci = f"{_d(3)}-{_d(3)}-{_d(12)}-{_d(2)}"
    upi = f"{_RNG.choice(('ramesh', 'priya.s', 'anil88', 'kavya'))}{_d(2)}@ok{_RNG.choice(('axis', 'hdfcbank', 'sbi', 'icici'))}"
    payid = _phone("AU", ("04",), 10, "national")
    pix_mail = f"{_RNG.choice(('carla', 'joao.p', 'renata'))}{_d(2)}@gmail.com"
    pix_phone = _phone("BR", ("119", "219", "319"), 11, "e164")
    pix_key = _uuid()
    pix = _pix(pix_key, "MARIANA COSTA", "SAO PAULO", "150.00")
    interac = _RNG.choice(("Mittens", "Poutine", "Biscuit")) + _d(2)
    netbank_id, netbank_pw = _d(8), _pw()
    zelle = _phone("US", ("415", "646", "512"), 10, "national")
    return [
        _s(
            "bank account australia",
            f"Rent to Jess: BSB 062-{_d(3)}, acc {au_acct} — ref 'unit 4'",
            au_acct,
        ),
        _s(
            "bank account australia",
            f"PayID for the footy tipping money is my mobile {payid}",
            payid,
        ),
        _s(
            "bank account australia",
            f"CommBank NetBank client number {netbank_id}, password {netbank_pw}",
            netbank_id,
            netbank_pw,
        ),
        _s(
            "bank account india",
            f"Bhai paise is account mein daal de: A/c {in_acct}, IFSC HDFC000{_d(4)}",
            in_acct,
        ),
        _s("bank account india", f"GPay/UPI id: {upi} (phone wala nahi)", upi),
        _s(
            "bank account brazil",
            f"Dados pro depósito: Itaú, agência {_d(4)}, conta corrente {br_conta}",
            br_conta,
        ),
        _s(
            "bank account brazil",
            f"chave pix (e-mail): {pix_mail} ou celular {pix_phone}",
            pix_mail,
            pix_phone,
        ),
        _s("bank account brazil", f"Pix copia e cola do aluguel:\n{pix}", pix_key),
        _s(
            "bank account uk",
            f"pay me back whenever x sort code 40-{_d(2)}-{_d(2)} account {uk_acct}",
            uk_acct,
        ),
        _s(
            "bank account us",
            f"Direct deposit form: routing {routing}, checking acct {us_acct}",
            us_acct,
        ),
        _s("bank account us", f"bottom of the check: ⑆{_routing()}⑆ {us_acct2}⑈ 1042", us_acct2),
        _s("bank account us", f"Zelle me at {zelle}, it's the number on my account", zelle),
        _s(
            "bank account canada",
            f"Void cheque info — transit 0{_d(4)}, institution 004, account {ca_acct}",
            ca_acct,
        ),
        _s(
            "bank account canada",
            f"Interac e-Transfer sent. Security question: cat's name? Answer: {interac}",
            interac,
        ),
        _s("bank account peru", f"CCI para la transferencia interbancaria: {pe_cci}", pe_cci),
    ]


def _iban_samples() -> list[Sample]:
    me = _iban("ME", lambda: "505" + _d(15))
    ad = _iban("AD", lambda: "0001" + _d(4) + _t(12, _UPPER))
    sm = _iban("SM", lambda: "X" + "03225" + _d(5) + _d(12))
    fo = _iban("FO", lambda: "6460" + _d(10))
    kw = _iban("KW", lambda: "CBKU" + _t(22, _UPPER))
    lb = _iban("LB", lambda: "0999" + _t(20, _UPPER))
    tn = _iban("TN", lambda: "10" + _d(18))
    tl = _iban("TL", lambda: "008" + _d(16))
    sc = _iban("SC", lambda: "SSCB" + "1101" + _d(16) + "SCR")
    by = _iban("BY", lambda: "NBRB" + "3600" + _t(16, _UPPER))
    iq = _iban("IQ", lambda: "NBIQ" + "850" + _d(12))
    return [
        _s("iban montenegro", f"Broj računa za kiriju (IBAN): {me}", me),
        _s("iban andorra", f"Transferència per al lloguer, IBAN {_grouped(ad)}", _grouped(ad)),
        _s("iban san marino", f"Bonifico alla nonna a San Marino: IBAN {sm}", sm),
        _s("iban faroe", f"Kontonummar til húsaleiguna: {_grouped(fo)}", _grouped(fo)),
        _s("iban kuwait", f"رقم الآيبان لتحويل الراتب: {kw}", kw),
        _s("iban lebanon", f"الحساب بالدولار الفريش: {_grouped(lb)}", _grouped(lb)),
        _s("iban tunisia", f"RIB / IBAN pour le virement : {tn}", tn),
        _s("iban timor-leste", f"Númeru konta banku (IBAN) BNCTL: {tl}", tl),
        _s("iban seychelles", f"Mon IBAN Sesel pou larzan: {sc}", sc),
        _s("iban belarus", f"Рэквізіты для пераводу: IBAN {by}", by),
        _s("iban iraq", f"ارسل المبلغ على الايبان {iq} باسم علي", iq),
    ]


# --- how people say it ---------------------------------------------------------------------


def _dictation_samples() -> list[Sample]:
    s1 = f"{_w()} {_RNG.randrange(10, 99)} hash {_w()}"
    pin2 = _pin()
    s2 = " ".join(pin2)
    s3 = f"{_w().lower()}-{_w().lower()}-{_RNG.randrange(10, 99)}"
    x, y, z = _RNG.sample("123456789", 3)
    s4 = f"double {_DIGIT_WORDS[int(x)]}, {_DIGIT_WORDS[int(y)]}, {_DIGIT_WORDS[int(z)]}"
    s5 = f"{_w().lower()} {_RNG.randrange(1990, 2030)} Ausrufezeichen"
    s6 = f"{_w()} {_RNG.randrange(10, 99)} point d'exclamation"
    s7 = f"{_w()} guion bajo {_RNG.randrange(10, 99)}"
    key = "-".join(_t(5, "BCDFGHJKMPQRTVWXY2346789") for _ in range(5))
    pin11 = _pin(6)
    s11 = f"{pin11[:3]}… {pin11[3:]}"
    s12 = f"{_w()} with a capital, then {_RNG.randrange(100, 999)}, then a dollar sign"
    return [
        _s(
            "voice dictation",
            f"Voice memo 08:14 — okay so the wifi for the cabin, the password is {s1}, capital letters on both words.",
            s1,
        ),
        _s("voice dictation", f"Note to self. The garage code is {s2}. Don't tell the kids.", s2),
        _s(
            "voice dictation",
            f"Speaker 2 (00:03:12): yeah the admin password, it's, um, {s3}, all lowercase with dashes\nSpeaker 1 (00:03:20): got it",
            s3,
        ),
        _s(
            "voice dictation",
            f"Transcribed voicemail: \"Hi love, the alarm code's changed, it's {s4}, then press set. Bye.\"",
            s4,
        ),
        _s(
            "voice dictation",
            f"Sprachnotiz 19:02: das Passwort fürs Gäste-WLAN ist {s5}, alles klein.",
            s5,
        ),
        _s(
            "voice dictation",
            f"Mémo vocal : le mot de passe de la box c'est {s6}, avec une majuscule.",
            s6,
        ),
        _s("voice dictation", f"Nota de voz: la contraseña del router es {s7}, todo junto.", s7),
        _s(
            "voice dictation",
            f"Dictated from the sticker under the old laptop: product key {key}",
            key,
        ),
        _s(
            "voice dictation",
            f"[transcript] ok the bank sent a code… it's {s11}… no wait that's it",
            s11,
        ),
        _s(
            "voice dictation",
            f"Google Recorder: remember the new iCloud password, {s12}, don't write it down anywhere else.",
            s12,
        ),
    ]


def _chat_typo_samples() -> list[Sample]:
    phrases = [
        "pasword for teh router is {} dont loose it",
        "passwrod: {}",
        "the passowrd is {} lol",
        "wachwoord van de wifi: {}",
        "contrasena del wifi: {}",
        "mot de pass du wifi : {}",
        "pw is {} (capital first letter!!)",
        "heres the login: user kofi pass {}",
        "new pasword set to {} , sry for the typo earlier",
        "parol' ot wifi {} (ne govori nikomu)",
    ]
    out = []
    for phrase in phrases:
        pw = _pw()
        out.append(_s("chat typo", phrase.format(pw), pw))
    pw1, pin, pw2 = _pw(), _pin(), _pw()
    mail = f"{_RNG.choice(('kofi.mensah', 'ana.pereira', 'tomek.w'))}{_d(2)}@gmail.com"
    out += [
        _s(
            "chat typo",
            f"[21:04] Ana: whats ur wifi\n[21:05] Ben: its {pw1}\n[21:05] Ben: no caps",
            pw1,
        ),
        _s("chat typo", f"teh pin 4 the gate is {pin} k", pin),
        _s("chat typo", f"cn u log in 4 me? its {mail} + {pw2}, thx", mail, pw2),
    ]
    return out


def _hint_samples() -> list[Sample]:
    pw1, pw2, pin, pw4, pw5, pw6 = _pw(), _pw(), _pin(), _pw(), _pw(), _pw()
    maiden = _RNG.choice(("Fitzgerald-Okoro", "Vasquez-Lindqvist", "Abernathy", "Kowalczyk"))
    year = str(_RNG.randrange(1960, 1989))
    return [
        _s("password hint", f"Password hint: dog's name + year we moved → {pw1}", pw1),
        _s(
            "password hint",
            f"hint for future me: the usual one but with a 2 at the end, i.e. {pw2}",
            pw2,
        ),
        _s("password hint", f"PIN hint: Ana's birthday backwards → {pin}", pin),
        _s(
            "password hint",
            f"Hint (starts with the lake, ends with the flat number). Full thing: {pw4}",
            pw4,
        ),
        _s(
            "password hint",
            f"Bank security question 'mother's maiden name' — I put {maiden} (not her real one)",
            maiden,
        ),
        _s("password hint", f"pw = same as the NAS but 2 instead of 1 ({pw5})", pw5),
        _s("password hint", f"reminder card in the drawer says hint: 'kitchen', value: {pw6}", pw6),
        _s(
            "password hint",
            f"the safe opens with the year the house was built + 7, so {year}",
            year,
        ),
    ]


# --- Markdown shapes -----------------------------------------------------------------------


def _markdown_samples() -> list[Sample]:
    pw = [_pw() for _ in range(13)]
    pin1, pin2 = _pin(), _pin(6)
    tok1 = "tvly-" + _t(32)
    a1, b1 = _t(14), _t(14)
    a2, b2 = _t(20, _HEX), _t(20, _HEX)
    a3, b3 = _t(12, _URLSAFE), _t(12, _URLSAFE)
    ghk = "fc-" + _t(32, _HEX)
    return [
        _s(
            "markdown nested list",
            f"- Home\n  - Network\n    - Router (Fritz)\n      - user: `admin`\n      - pass: {pw[0]}\n  - Garden",
            pw[0],
        ),
        _s(
            "markdown blockquote",
            f"> Forwarded from Mum:\n> > the new alarm code is {pin1}\n> > and the wifi is {pw[1]}\n>\n> thx!",
            pin1,
            pw[1],
        ),
        _s(
            "markdown definition list",
            f"Upstairs Wi-Fi\n: SSID `Galah-5G`\n: key {pw[2]}\n\nGuest Wi-Fi\n: open network",
            pw[2],
        ),
        _s(
            "markdown admonition",
            f'!!! danger "Prod database"\n    user `app_rw`, password `{pw[3]}`\n    rotate after the migration',
            pw[3],
        ),
        _s(
            "markdown admonition",
            f"> [!CAUTION]\n> Temporary root password for the new VPS: {pw[4]}",
            pw[4],
        ),
        _s(
            "markdown admonition",
            f":::warning Credentials\nTavily key for the research agent: {tok1}\n:::",
            tok1,
        ),
        _s("markdown admonition", f"> [!secret]- NAS login\n> admin\n> {pw[5]}", pw[5]),
        _s(
            "markdown details",
            f"<details>\n<summary>click for the wifi</summary>\n\n`{pw[6]}`\n\n</details>",
            pw[6],
        ),
        _s(
            "markdown task list",
            f"- [x] rotate the firecrawl key\n  - [ ] paste new one into n8n: {ghk}\n  - [ ] delete old one",
            ghk,
        ),
        _s(
            "markdown inline code",
            f"API key is `{a1}` `{b1}` — two spans because Obsidian wrapped it, join them",
            a1,
            b1,
        ),
        _s(
            "markdown emphasis",
            f"password: **{pw[7][:5]}**_{pw[7][5:]}_ (bold + italic = whole thing)",
            pw[7][:5],
            pw[7][5:],
        ),
        _s(
            "markdown link reference",
            f"See [the prod db][prod].\n\n[prod]: postgres://app:{pw[8]}@db.prod.internal:5432/app",
            pw[8],
        ),
        _s(
            "markdown comment",
            f"Weekly notes\n\n[//]: # (root pw for the pi is {pw[9]})\n\n- bought milk",
            pw[9],
        ),
        _s(
            "markdown inline field",
            f"## Bank\nlogin:: anna.kowalska\npassword:: {pw[10]}\npin:: {pin2}",
            pw[10],
            pin2,
        ),
        _s(
            "markdown table split",
            f"Wi-Fi key is both cells run together:\n\n| part 1 | part 2 |\n|---|---|\n| {a2} | {b2} |",
            a2,
            b2,
        ),
        _s(
            "markdown abbreviation",
            f"The VPN is up again.\n\n*[VPN]: user ola, password {pw[11]}",
            pw[11],
        ),
        _s(
            "markdown html",
            f"<dl>\n  <dt>Wi-Fi</dt><dd>Quokka-Home</dd>\n  <dt>Passwort</dt><dd>{pw[12]}</dd>\n</dl>",
            pw[12],
        ),
        _s(
            "markdown hard break",
            f"Deploy key:\\\n{a3}\\\n{b3}\n(one string, the editor broke the line)",
            a3,
            b3,
        ),
    ]


def _front_matter_samples() -> list[Sample]:
    tok, pw1, pw2, pin = _t(40, _URLSAFE), _pw(), _pw(), _pin()
    psk, smtp, algolia = _t(44, _B64), _pw(), _t(32, _HEX)
    return [
        _s(
            "yaml front matter",
            f"---\ntitle: Deploy notes\ndate: 2031-03-02\ntags: [ops]\ndeploy_token: {tok}\n---\n\n# Deploy\nRan the pipeline twice.",
            tok,
        ),
        _s(
            "toml front matter",
            f"+++\ntitle = 'Trip to Moorea'\ndraft = true\nwifi_password = '{pw1}'\n+++\n\nDay 1: snorkelling.",
            pw1,
        ),
        _s(
            "obsidian properties",
            f'---\naliases: [bank]\nlogin: anna.k\npassword: {pw2}\npin: "{pin}"\ncssclasses: [private]\n---\n\nSee the card in the wallet.',
            pw2,
            pin,
        ),
        _s(
            "json front matter",
            f'{{\n  "title": "Office VPN",\n  "psk": "{psk}"\n}}\n\nThe VPN is for the print server only.',
            psk,
        ),
        _s(
            "yaml front matter",
            f'---\nlayout: post\nsmtp:\n  host: smtp.mailbox.example\n  pass: "{smtp}"\n...\n\nNewsletter goes out on Friday.',
            smtp,
        ),
        _s(
            "toml front matter",
            f"+++\ntitle = 'Search'\n[extra]\nalgolia_app_id = 'KX2Q9P1M7Z'\nalgolia_write_key = '{algolia}'\n+++",
            algolia,
        ),
    ]


# --- home, devices and the media shelf -----------------------------------------------------


def _smart_home_samples() -> list[Sample]:
    ha_wifi, ha_mqtt, tibber = _pw(), _pw(), _t(43, _URLSAFE)
    octo_key, solaredge = "sk_live_" + _t(24), _t(32, _UPPER)
    tas = [_pw() for _ in range(3)]
    z2m_pw, z2m_token = _pw(), _t(32, _HEX)
    z2m_key = ", ".join(str(_RNG.randrange(256)) for _ in range(16))
    zwave = [_t(32, "0123456789ABCDEF") for _ in range(4)]
    bridge_pw, node_red = _pw(), _t(48, _HEX)
    tuya_key, hue_user = _t(16, _ALNUM + "!#$%&'()*+,-./:;<=>?@[]^_{|}~"), _t(40, _URLSAFE)
    shelly_pw = _pw()
    homekit = f"{_d(3)}-{_d(2)}-{_d(3)}"
    matter_body = _RNG.choice("0123456") + _d(9)
    matter = matter_body + verhoeff.calc_check_digit(matter_body)
    matter_fmt = f"{matter[:4]}-{matter[4:7]}-{matter[7:]}"
    duck = _uuid()
    return [
        _s(
            "home assistant secrets",
            "# secrets.yaml (copied from the old Pi)\n"
            "wifi_ssid: Kowhai-IoT\n"
            f'wifi_password: "{ha_wifi}"\n'
            "mqtt_user: homeassistant\n"
            f"mqtt_password: {ha_mqtt}\n"
            f"tibber_token: {tibber}\n"
            f"octopus_api_key: {octo_key}\n"
            f"solaredge_api_key: {solaredge}\n",
            ha_wifi,
            ha_mqtt,
            tibber,
            octo_key,
            solaredge,
        ),
        _s(
            "tasmota console",
            f"Backlog SSId1 Kowhai-IoT; Password1 {tas[0]}; MqttHost 10.0.0.2; MqttUser tasmota; MqttPassword {tas[1]}; WebPassword {tas[2]}",
            *tas,
        ),
        _s(
            "zigbee2mqtt config",
            "homeassistant: true\nmqtt:\n  base_topic: zigbee2mqtt\n  server: mqtt://10.0.0.2\n"
            f"  user: z2m\n  password: '{z2m_pw}'\nserial:\n  port: /dev/ttyUSB0\n"
            f"advanced:\n  pan_id: 6754\n  network_key: [{z2m_key}]\nfrontend:\n  auth_token: {z2m_token}\n",
            z2m_pw,
            z2m_key,
            z2m_token,
        ),
        _s(
            "z-wave js keys",
            "Z-Wave JS UI → Settings → Security keys (backup!)\n"
            f"S2_Unauthenticated: {zwave[0]}\nS2_Authenticated: {zwave[1]}\n"
            f"S2_AccessControl: {zwave[2]}\nS0_Legacy: {zwave[3]}",
            *zwave,
        ),
        _s(
            "mosquitto bridge",
            f"connection hivemq-cloud\naddress broker.s1.eu.hivemq.cloud:8883\nremote_username house-bridge\nremote_password {bridge_pw}\ntopic sensors/# out 1",
            bridge_pw,
        ),
        _s(
            "node-red settings",
            f"module.exports = {{\n    flowFile: 'flows.json',\n    credentialSecret: \"{node_red}\",\n    uiPort: 1880,\n}}",
            node_red,
        ),
        _s(
            "tuya local key",
            json.dumps(
                [
                    {
                        "name": "Hallway plug",
                        "id": "bf" + _t(20, _LOWER),
                        "key": tuya_key,
                        "mac": "10:5a:17:3c:88:01",
                        "ip": "10.0.0.41",
                        "version": "3.3",
                    }
                ],
                indent=1,
            ),
            tuya_key,
        ),
        _s(
            "philips hue",
            f"curl -s http://10.0.0.12/api/{hue_user}/lights | jq '.[].name'",
            hue_user,
        ),
        _s(
            "shelly",
            f"curl 'http://shelly-plug-kitchen.lan/settings/login?enabled=1&username=admin&password={shelly_pw}'",
            shelly_pw,
        ),
        _s(
            "homekit setup code",
            f"Eve door sensor: HomeKit setup code {homekit} (sticker fell off, kept it here)",
            homekit,
        ),
        _s(
            "matter pairing code",
            f"Matter manual pairing code for the Nanoleaf: {matter_fmt}",
            matter_fmt,
        ),
        _s(
            "duckdns",
            f"*/5 * * * * curl -s 'https://www.duckdns.org/update?domains=galah-home&token={duck}&ip=' >/dev/null",
            duck,
        ),
    ]


def _camera_router_samples() -> list[Sample]:
    cam = [_pw() for _ in range(3)]
    tapo_pw, m3u_pw = _pw(), _pw()
    wrt_key, pppoe_pw = _pw(), _pw()
    fritz, fritz_guest = _pw(), _pw()
    tk_kennwort = _d(8)
    tk_kennung = "00" + _d(10)
    syno, pihole = _pw(), _pw()
    octo, hik = _t(32, "0123456789ABCDEF"), _pw()
    return [
        _s(
            "camera stream",
            "cameras:\n  driveway:\n    ffmpeg:\n      inputs:\n"
            f"        - path: rtsp://admin:{cam[0]}@192.168.1.64:554/Streaming/Channels/101\n          roles: [record]\n"
            f"  backyard:\n    ffmpeg:\n      inputs:\n        - path: rtsp://viewer:{cam[1]}@192.168.1.65:554/h264Preview_01_main\n          roles: [detect]",
            cam[0],
            cam[1],
        ),
        _s(
            "camera stream",
            f"# go2rtc.yaml\nstreams:\n  porch: rtsp://admin:{cam[2]}@10.0.0.20/stream1\n  nursery: tapo://{tapo_pw}@10.0.0.33",
            cam[2],
            tapo_pw,
        ),
        _s(
            "camera stream",
            f"#EXTM3U\n#EXTINF:-1,Garage cam\nrtsp://garage:{m3u_pw}@10.0.0.21:554/live/ch00_0",
            m3u_pw,
        ),
        _s(
            "router config",
            "# /etc/config/wireless\nconfig wifi-iface 'default_radio0'\n\toption device 'radio0'\n\toption mode 'ap'\n"
            f"\toption ssid 'Jarrah'\n\toption encryption 'sae-mixed'\n\toption key '{wrt_key}'\n\n"
            "# /etc/config/network\nconfig interface 'wan'\n\toption proto 'pppoe'\n"
            f"\toption username 'h.mwangi@fibre.example'\n\toption password '{pppoe_pw}'",
            wrt_key,
            pppoe_pw,
        ),
        _s(
            "router config",
            f"FRITZ!Box 7590 (http://fritz.box) — Kennwort: {fritz}\nGast-WLAN: {fritz_guest}",
            fritz,
            fritz_guest,
        ),
        _s(
            "router config",
            f"Telekom Zugangsdaten (Brief vom 3.2.):\nAnschlusskennung: {tk_kennung}\nZugangsnummer: 5510{_d(8)}\nMitbenutzer-Suffix: 0001\nPersönliches Kennwort: {tk_kennwort}",
            tk_kennwort,
        ),
        _s("nas", f"sudo synouser --setpw admin '{syno}'   # DS920+ after the reset", syno),
        _s(
            "nas",
            f"pi-hole v6: `sudo pihole setpassword '{pihole}'` then reload the web UI",
            pihole,
        ),
        _s(
            "3d printer",
            f"octoprint config.yaml:\napi:\n  key: {octo}\n  allowCrossOrigin: false",
            octo,
        ),
        _s(
            "camera stream",
            f"Hikvision DS-2CD2143 activated, admin / {hik} — write it on the NVR box? no, here",
            hik,
        ),
    ]


def _media_server_samples() -> list[Sample]:
    kodi, jelly, sonarr = _pw(), _t(32, _HEX), _t(32, _HEX)
    trans = _pw()
    return [
        _s(
            "media server",
            f'<source>\n    <name>Movies</name>\n    <path pathversion="1">smb://kodi:{kodi}@nas.lan/movies/</path>\n</source>',
            kodi,
        ),
        _s("media server", f"http://jellyfin.lan:8096/Items?api_key={jelly}&Recursive=true", jelly),
        _s(
            "media server",
            f"<Config>\n  <Port>8989</Port>\n  <ApiKey>{sonarr}</ApiKey>\n  <AuthenticationMethod>Forms</AuthenticationMethod>\n</Config>",
            sonarr,
        ),
        _s(
            "media server",
            f'"rpc-authentication-required": true,\n"rpc-password": "{trans}",\n"rpc-username": "media",',
            trans,
        ),
    ]


# --- games and streams ---------------------------------------------------------------------


def _stream_samples() -> list[Sample]:
    twitch = f"live_{_d(9)}_{_t(30)}"
    twitch2 = f"live_{_d(9)}_{_t(30)}"
    yt = "-".join(_t(4, _LOWER) for _ in range(5))
    yt2 = "-".join(_t(4, _LOWER) for _ in range(5))
    fb = f"FB-{_d(15)}-0-{_t(30, _URLSAFE)}"
    kick = f"sk_us-west-2_{_t(12)}_{_t(24)}"
    restream = f"re_{_d(7)}_{_t(20, _HEX)}"
    slabs = _jwt(
        {
            "token": _t(20, "0123456789ABCDEF"),
            "read_only": True,
            "prevent_master": True,
            "twitch_id": _d(9),
        }
    )
    obs = json.dumps(
        {
            "settings": {"bwtest": False, "key": twitch, "server": "auto", "service": "Twitch"},
            "type": "rtmp_common",
        },
        indent=2,
    )
    return [
        _s("stream key", f"OBS profile backup, service.json:\n{obs}", twitch),
        _s("stream key", f"YT stream key for the church channel: {yt}", yt),
        _s("stream key", f"Custom RTMP in the encoder: rtmp://a.rtmp.youtube.com/live2/{yt2}", yt2),
        _s("stream key", f"Facebook Live persistent stream key {fb}", fb),
        _s(
            "stream key",
            f"Kick → Settings → Stream URL & Key\nrtmps://fa723fc1b171.global-contribute.live-video.net/app\n{kick}",
            kick,
        ),
        _s("stream key", f"restream.io key (multistream to twitch+yt): {restream}", restream),
        _s(
            "stream key",
            f"[20:14] viewer_9932: hey can u send ur stream key so i can fix the bitrate\n[20:15] host: {twitch2}",
            twitch2,
        ),
        _s("stream key", f"Streamlabs socket API token for the alert box: {slabs}", slabs),
    ]


def _game_samples() -> list[Sample]:
    restore = _t(10, "BCDFGHJKMNPQRTVWXY2346789")
    epic_codes = [_t(6, _UPPER) for _ in range(5)]
    psn_mail = f"{_RNG.choice(('lilly.m', 'noah_games', 'ruairi'))}{_d(2)}@outlook.com"
    psn_pw, psn_pin = _pw(), _pin()
    nin_pw, nin_pin = _pw(), _pin()
    xbox = " ".join(
        _RNG.choice("↑↓←→XYABLBRB".replace("LB", "").replace("RB", "")) for _ in range(6)
    )
    rcon, val = _pw(), _pw()
    fac_pw, fac_tok = _pw(), _t(30, _HEX)
    ark_pw, ark_admin = _pw(), _pw()
    cs_rcon, cs_pw, gslt = _pw(), _pw(), _t(32, "0123456789ABCDEF")
    lichess = "lip_" + _t(20)
    cr_mail, cr_pw = f"sam.okeke{_d(2)}@yahoo.com", _pw()
    return [
        _s(
            "game account",
            f"Battle.net authenticator: serial US-2101-{_d(4)}-{_d(4)}, restore code {restore}",
            restore,
        ),
        _s(
            "game account",
            "Epic Games backup codes:\n"
            + "\n".join(f"{i + 1}. {c}" for i, c in enumerate(epic_codes)),
            *epic_codes,
        ),
        _s(
            "game account",
            f"PS5 for the kids: sign-in ID {psn_mail}, password {psn_pw}, console passcode {psn_pin}",
            psn_mail,
            psn_pw,
            psn_pin,
        ),
        _s(
            "game account",
            f"Nintendo Account pw {nin_pw}; Parental Controls PIN {nin_pin}",
            nin_pw,
            nin_pin,
        ),
        _s("game account", f"Xbox sign-in passkey (controller buttons): {xbox}", xbox),
        _s(
            "game server",
            f"#Minecraft server properties\nenable-rcon=true\nrcon.port=25575\nrcon.password={rcon}\nlevel-seed=-4172144997902289642\nmotd=Kowhai SMP",
            rcon,
        ),
        _s(
            "game server",
            f"./valheim_server.x86_64 -nographics -name 'Vikings' -port 2456 -world 'Midgard' -password '{val}' -public 0",
            val,
        ),
        _s(
            "game server",
            json.dumps(
                {
                    "name": "Factory night",
                    "visibility": {"public": False, "lan": True},
                    "username": "hmwangi",
                    "token": fac_tok,
                    "game_password": fac_pw,
                },
                indent=2,
            ),
            fac_pw,
            fac_tok,
        ),
        _s(
            "game server",
            f"[ServerSettings]\nServerPassword={ark_pw}\nServerAdminPassword={ark_admin}\nMaxPlayers=10",
            ark_pw,
            ark_admin,
        ),
        _s(
            "game server",
            f'// server.cfg\nhostname "friday frags"\nrcon_password "{cs_rcon}"\nsv_password "{cs_pw}"\nsv_setsteamaccount {gslt}',
            cs_rcon,
            cs_pw,
            gslt,
        ),
        _s("game account", f"lichess API token for the puzzle bot: {lichess}", lichess),
        _s(
            "streaming account",
            f"Crunchyroll (shared w/ cousins): {cr_mail} / {cr_pw}",
            cr_mail,
            cr_pw,
        ),
    ]


# --- phones --------------------------------------------------------------------------------


def _phone_samples() -> list[Sample]:
    nz = _phone("NZ", ("021", "022", "027"), 10, "national")
    nz_digits = "".join(c for c in nz if c.isdigit())
    nz_spoken = f"{_spell(nz_digits[:3])}, {_spell(nz_digits[3:6])}, {_spell(nz_digits[6:])}"
    hr = _phone("HR", ("091", "092", "098"), 10)
    co = _phone("CO", ("300", "310", "315"), 10)
    uy = _phone("UY", ("094", "099"), 9, "national")
    kw = _phone("KW", ("5", "6", "9"), 8)
    zw = _phone("ZW", ("077", "071", "078"), 10, "national")
    rw = _phone("RW", ("078", "073"), 10)
    ge = _phone("GE", ("555", "599", "577"), 9, "national")
    jm = _phone("JM", ("876",), 10, "national")
    np_ = _phone("NP", ("984", "985", "986"), 10)
    ma = _phone("MA", ("06", "07"), 10, "national")
    pe = _phone("PE", ("9",), 9)
    return [
        _s("phone", f"Voicemail transcript: call me back on {nz_spoken}, cheers", nz_spoken),
        _s("phone", f"Moj novi broj je {hr}, stari više ne koristim", hr),
        _s("phone", f"el cel de doña Marta es {co}, llamar después de las 6", co),
        _s("phone", f"mandame un whatsapp al {uy} cuando llegues a Montevideo", uy),
        _s("phone", f"رقم جوالي في الكويت {kw}", kw),
        _s("phone", f"EcoCash number for the school fees: {zw}", zw),
        _s("phone", f"Nimero yanjye ya MoMo ni {rw}", rw),
        _s("phone", f"ჩემი ნომერი: {ge}", ge),
        _s("phone", f"Mi new number a {jm}, link mi", jm),
        _s("phone", f"मेरो नम्बर {np_} हो, इसेवा पनि यसैमा छ", np_),
        _s("phone", f"نمرة ديالي جديدة {ma}، صيفط ليا", ma),
        _s("phone", f"Yapéame al {pe}, porfa", pe),
    ]


# --- vendors seen little or never --------------------------------------------------------


def _vendor_samples() -> list[Sample]:
    tokens: dict[str, str] = {
        "midtrans": "Mid-server-" + _t(24, _URLSAFE),
        "xendit": "xnd_production_" + _t(60),
        "mercadopago": f"APP_USR-{_d(16)}-{_d(6)}-{_t(32, _HEX)}-{_d(9)}",
        "asaas": "$aact_prod_000" + _t(96, _ALNUM),
        "africastalking": "atsk_" + _t(64, _HEX),
        "voyage": "pa-" + _t(43, _URLSAFE),
        "jina": "jina_" + _t(60),
        "browserbase": "bb_live_" + _t(27, _URLSAFE),
        "llamacloud": "llx-" + _t(48),
        "stytch": "secret-live-" + _t(36, _URLSAFE),
        "revolut": "oa_prod_" + _t(43, _URLSAFE),
        "onesignal": "os_v2_app_" + _t(100, "abcdefghijklmnopqrstuvwxyz234567"),
        "portainer": "ptr_" + _t(43, _URLSAFE),
        "pubnub": "sec-c-" + _t(48, _B64),
    }
    places = [
        "{name} secret key (server side): {tok}",
        "export {NAME}_KEY='{tok}'",
        "{name}:\n  secret: {tok}\n  sandbox: false",
        '"{name}": {{"apiKey": "{tok}"}}',
        "curl -H 'Authorization: Bearer {tok}' https://api.{name}.example/v1/me",
        "- [ ] rotate {name} key `{tok}` after the demo",
        "{name} → {tok} (pasted from the dashboard)",
        "{NAME}_API_KEY={tok}",
    ]
    out = []
    for i, (name, tok) in enumerate(tokens.items()):
        text = places[i % len(places)].format(name=name, NAME=name.upper(), tok=tok)
        out.append(_s("vendor token", text, tok))
    daraja_secret, daraja_pass = _t(64), _t(64, _HEX)
    iyz_key, iyz_secret = "sandbox-" + _t(32), _t(32)
    apca_secret, polygon = _t(40), _t(32)
    agora_cert, livekit, mux = _t(32, _HEX), _t(43), _t(75, _B64)
    pk1, sk1 = "pk1_" + _t(64, _HEX), "sk1_" + _t(64, _HEX)
    gd_key, gd_secret = _t(34), _t(22)
    rancher = f"token-{_t(5, string.ascii_lowercase + string.digits)}:{_t(54, string.ascii_lowercase + string.digits)}"
    bws = f"0.{_uuid()}.{_t(30)}:{_t(22, _B64)}=="
    expo = _t(40, _URLSAFE)
    match_pw, fl_pw = _pw(), _pw()
    todoist, toggl, pipedrive = _t(40, _HEX), _t(32, _HEX), _t(40, _HEX)
    here, opencage = _t(43, _URLSAFE), _t(32, _HEX)
    withings, oura = _t(64, _HEX), _t(32, _UPPER)
    cohere = _t(40)
    clerk = "sk_live_" + _t(40)
    out += [
        _s(
            "vendor token",
            f"M-Pesa Daraja app (production):\nConsumer Key: {_t(48)}\nConsumer Secret: {daraja_secret}\nLipa na M-Pesa passkey: {daraja_pass}",
            daraja_secret,
            daraja_pass,
        ),
        _s(
            "vendor token",
            f"iyzipay = Iyzipay(api_key='{iyz_key}', secret_key='{iyz_secret}')",
            iyz_key,
            iyz_secret,
        ),
        _s(
            "vendor token",
            f"APCA-API-KEY-ID: PK{_t(18, _UPPER)}\nAPCA-API-SECRET-KEY: {apca_secret}",
            apca_secret,
        ),
        _s(
            "vendor token",
            f"https://api.polygon.io/v2/aggs/ticker/AAPL/prev?adjusted=true&apiKey={polygon}",
            polygon,
        ),
        _s(
            "vendor token",
            f"Agora project 'class-live': App ID is public, App Certificate is {agora_cert}",
            agora_cert,
        ),
        _s(
            "vendor token",
            f"LIVEKIT_URL=wss://talk-{_t(8, _LOWER)}.livekit.cloud\nLIVEKIT_API_KEY=API{_t(12)}\nLIVEKIT_API_SECRET={livekit}",
            livekit,
        ),
        _s("vendor token", f"MUX_TOKEN_ID={_uuid()}\nMUX_TOKEN_SECRET={mux}", mux),
        _s(
            "vendor token",
            json.dumps({"secretapikey": sk1, "apikey": pk1, "content": "203.0.113.7", "type": "A"}),
            pk1,
            sk1,
        ),
        _s(
            "vendor token",
            f"curl -H 'Authorization: sso-key {gd_key}:{gd_secret}' https://api.godaddy.com/v1/domains",
            gd_key,
            gd_secret,
        ),
        _s("vendor token", f"rancher login https://rancher.lan --token {rancher}", rancher),
        _s("vendor token", f"BWS_ACCESS_TOKEN={bws}", bws),
        _s("vendor token", f"EAS build on CI needs EXPO_TOKEN={expo}", expo),
        _s(
            "vendor token",
            f"# fastlane/.env\nMATCH_PASSWORD={match_pw}\nFASTLANE_USER=ios@studio.example\nFASTLANE_PASSWORD={fl_pw}",
            match_pw,
            fl_pw,
        ),
        _s(
            "vendor token",
            f"todoist: {todoist}\ntoggl: {toggl}\npipedrive: {pipedrive}",
            todoist,
            toggl,
            pipedrive,
        ),
        _s(
            "vendor token",
            f"geocoders: HERE apiKey={here}; OpenCage key {opencage}",
            here,
            opencage,
        ),
        _s(
            "vendor token",
            f"Withings client secret {withings}\nOura personal access token {oura}",
            withings,
            oura,
        ),
        _s("vendor token", f'co = cohere.ClientV2(api_key="{cohere}")', cohere),
        _s(
            "vendor token",
            f"CLERK_SECRET_KEY={clerk}\nNEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_Y2xlcmsuc3R1ZGlvLmV4YW1wbGUk",
            clerk,
        ),
    ]
    return out


# --- languages and mixed speech ------------------------------------------------------------


def _mixed_language_samples() -> list[Sample]:
    phrases = [
        "oye el password del wifi es {} pero don't share it, ok?",
        "Pare, yung password ng Netflix natin is {} ha, wag mo i-share",
        "le password du wifi c'est {}, fais pas le cave",
        "the password is {} lah, don't anyhow share",
        "패스워드 {} 임, 바꾸지 마셈",
        "個password係{}呀，唔好話俾人聽",
        "パスは{}ね、よろしく",
        "le password c'est {} mola, ne le wanda pas",
        "password ni {} bana, usiambie mtu",
        "di password a {}, nuh tell nobody",
        "Di paswod fɔ di wifi na {}",
        "E kontraseña di wifi ta {}",
        "Mo modpas wifi se {}, pa dir personn",
        "nimi open pi ilo Wi-Fi li {}",
        "Le contrasigno del wifi es {}",
        "Senha wifi nian mak {}",
        "Wi-Fi paroli {}, kimseye aytma",
        "Wifi password éí {} wolyé",
        "An password han wifi amo an {}",
        "la password del wifi l'è {}, ma dila a nissün",
        "ch'mot d'passe du wifi ch'est {}",
    ]
    out = []
    for phrase in phrases:
        pw = _pw()
        out.append(_s("mixed language", phrase.format(pw), pw))
    pin = _pin()
    out.append(_s("mixed language", f"ATM PIN yaani {pin}, lakini usimpe mtu ok?", pin))
    return out


# --- encodings and splits ------------------------------------------------------------------


def _encoded_samples() -> list[Sample]:
    pw = [_pw() for _ in range(7)]
    b32 = base64.b32encode(pw[0].encode()).decode().rstrip("=").lower()
    basic = _b64url(f"svc-backup:{pw[1]}")
    word, num = _w(), _RNG.randrange(10, 99)
    uesc = "".join(f"\\u{ord(c):04x}" if i % 2 else c for i, c in enumerate(f"{word}!{num}"))
    qp_word = _RNG.choice(("Glück", "Früh", "Grün", "Kälte"))
    qp = (
        "".join(f"={b:02X}" if b > 127 else chr(b) for b in qp_word.encode())
        + f"=3D{_RNG.randrange(10, 99)}"
    )
    uu = binascii.b2a_uu(f"root:{pw[2]}".encode(), backtick=True).decode().rstrip("\n")
    b45 = _base45(pw[3].encode())
    b58 = _base58(pw[4].encode())
    csv_pw = f'{_w()} ""{_w().lower()}"" {_RNG.randrange(10, 99)}!'
    shell = (
        pw[5].replace("!", "\\!").replace("$", "\\$").replace("&", "\\&").replace("#", "\\#")
        + "\\$"
    )
    hexdump_src = pw[6][:15].ljust(15, "!")
    hx = hexdump_src.encode().hex()
    hexpairs = " ".join(hx[i : i + 4] for i in range(0, len(hx), 4))
    mojibake_word = _RNG.choice(("Größe", "Müller", "Straße", "Bär"))
    moji = mojibake_word.encode().decode("latin-1") + f"#{_RNG.randrange(1000, 9999)}"
    return [
        _s(
            "encoded value",
            f"wifi key for the guest QR (base32, no padding, decode it): {b32}",
            b32,
        ),
        _s("encoded value", f"X-Backup-Auth: {basic}   # urlsafe b64 of user:pass, no '='", basic),
        _s("encoded value", f'{{"wifi": {{"ssid": "Quokka", "psk": "{uesc}"}}}}', uesc),
        _s(
            "encoded value",
            f"Content-Transfer-Encoding: quoted-printable\n\nIhr neues Passwort lautet: {qp}\nBitte =C3=A4ndern Sie es sofort.",
            qp,
        ),
        _s("encoded value", f"begin 600 creds.txt\n{uu}\n`\nend", uu),
        _s("encoded value", f"QR on the router box decodes (base45) to the admin pw: {b45}", b45),
        _s("encoded value", f"pw in base58 so the sync tool won't flag it: {b58}", b58),
        _s("encoded value", f'"name","username","password"\n"wiki","ola","{csv_pw}"', csv_pw),
        _s("encoded value", f"export BORG_PASSPHRASE={shell}", shell),
        _s(
            "encoded value",
            f"$ xxd pw.txt\n00000000: {hexpairs}  {hexdump_src}",
            hexpairs,
            hexdump_src,
        ),
        _s("encoded value", f"Passwort (Umlaut kaputt kopiert): {moji}", moji),
    ]


def _split_samples() -> list[Sample]:
    a1, b1 = "sk-ant-api03-" + _t(40, _URLSAFE), _t(55, _URLSAFE) + "AA"
    a2, b2 = _t(20), _t(20)
    a3, b3 = _t(16, _HEX), _t(16, _HEX)
    a4, b4 = _t(18), _t(18)
    a5, b5 = _t(22, _URLSAFE), _t(21, _URLSAFE)
    pw1, pw2 = _w() + _d(3), _RNG.choice("!#%") + _w().lower()
    return [
        _s(
            "split value",
            f"[10:01] me: key part 1: {a1}\n[10:02] me: part 2: {b1}\n[10:02] me: no space between",
            a1,
            b1,
        ),
        _s("split value", f'"apiKey": ["{a2}", "{b2}"]  // joined at runtime', a2, b2),
        _s(
            "split value",
            f"The HMAC secret the vendor sent is {a3}\n{b3} — it wrapped in the email but it is one value.",
            a3,
            b3,
        ),
        _s("split value", f"API key: {a4}<br>{b4}", a4, b4),
        _s("split value", f"token {a5}<!-- -->{b5}", a5, b5),
        _s("split value", f"> wifi first half: {pw1}\n> second half: {pw2}", pw1, pw2),
    ]


# --- logs and traces -----------------------------------------------------------------------


def _log_samples() -> list[Sample]:
    pw = [_pw() for _ in range(13)]
    bearer = _jwt({"sub": "user_" + _d(6), "scope": "orders:write", "exp": 1931234567})
    api_key = _t(40, _HEX)
    mail = f"{_RNG.choice(('ana.lima', 'dev.kofi', 'mwape.b'))}{_d(2)}@gmail.com"
    mail2 = f"{_RNG.choice(('joana.r', 'thandi.n', 'aroha.p'))}{_d(2)}@outlook.com"
    sk = "sk_live_" + _t(24)
    npm = "npm_" + _t(36)
    uv_tok = "pypi-AgEIcHlwaS5vcmc" + _t(60, _URLSAFE)
    basic = _b64(f"hmwangi:{pw[0]}")
    kube = _jwt({"iss": "kubernetes/serviceaccount", "sub": "system:serviceaccount:ci:deployer"})
    gha = _b64(pw[1] + "\n")
    sentry_tok = _t(40, _URLSAFE)
    return [
        _s(
            "android logcat",
            f"03-11 14:22:07.123  4312  4398 D OkHttp  : --> POST https://api.shop.example/v2/orders\n03-11 14:22:07.124  4312  4398 D OkHttp  : Authorization: Bearer {bearer}",
            bearer,
        ),
        _s(
            "android logcat",
            f"03-11 14:22:09.881  4312  4312 I AuthRepo: login(email={mail}, password={pw[2]}) -> 200",
            mail,
            pw[2],
        ),
        _s(
            "ios console",
            f'2031-03-11 14:22:07.123456+0100 Kowhai[4312:98765] [Network] headers: ["X-Api-Key": "{api_key}", "Accept": "application/json"]',
            api_key,
        ),
        _s(
            "django debug page",
            f"Settings\nUsing settings module shop.settings\nDATABASES  {{'default': {{'PASSWORD': '********************'}}}}\nDATABASE_URL  'postgres://shop:{pw[3]}@db.internal:5432/shop'",
            pw[3],
        ),
        _s(
            "flask traceback",
            f"File \"/srv/app/mail.py\", line 41, in send_digest\n    server.login(user, smtp_password)\n\n  smtp_password = '{pw[4]}'\n  user = 'digest@shop.example'\nsmtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted')",
            pw[4],
        ),
        _s(
            "spring actuator",
            json.dumps(
                {
                    "name": "applicationConfig: [classpath:/application.yml]",
                    "properties": {
                        "spring.datasource.url": {"value": "jdbc:mysql://db:3306/shop"},
                        "spring.datasource.password": {"value": pw[5]},
                    },
                },
                indent=1,
            ),
            pw[5],
        ),
        _s(
            "celery log",
            f"[2031-03-11 14:00:00,123: INFO/MainProcess] Task sync.mailbox[{_uuid()}] received: args=('imap.mail.example', 'ana', '{pw[6]}'), kwargs={{}}",
            pw[6],
        ),
        _s(
            "sidekiq log",
            f'WARN: {{"class":"ChargeJob","args":["cus_{_t(14)}","{sk}"],"retry":true,"jid":"{_t(24, _HEX)}","error_message":"card_declined"}}',
            sk,
        ),
        _s(
            "airflow log",
            f"[2031-03-11, 02:00:05 UTC] {{base.py:84}} INFO - Using connection ID 'warehouse' for task execution.\n[2031-03-11, 02:00:05 UTC] {{etl.py:22}} INFO - uri=postgresql://etl:{pw[7]}@wh.internal:5432/dw",
            pw[7],
        ),
        _s(
            "ansible verbose",
            f'ok: [web1] => {{"ansible_facts": {{"discovered_interpreter_python": "/usr/bin/python3"}}, "ansible_password": "{pw[8]}", "changed": false}}',
            pw[8],
        ),
        _s(
            "npm debug log",
            f"12 verbose config //registry.npmjs.org/:_authToken={npm}\n13 verbose npm v10.9.0\n14 error code E401",
            npm,
        ),
        _s(
            "uv error",
            f"error: Failed to fetch: `https://__token__:{uv_tok}@pkgs.corp.example/simple/acme-core/`\n  Caused by: HTTP status client error (401 Unauthorized)",
            uv_tok,
        ),
        _s(
            "git curl trace",
            f"14:22:07.123456 http.c:845 == Info: Connected to git.corp.example\n14:22:07.123500 http.c:792 => Send header: Authorization: Basic {basic}",
            basic,
        ),
        _s(
            "kubectl verbose",
            f'I0311 14:22:07.123456   12345 round_trippers.go:463] curl -v -XGET  -H "Accept: application/json" -H "Authorization: Bearer {kube}" \'https://10.0.0.1:6443/api/v1/namespaces\'',
            kube,
        ),
        _s(
            "sqlalchemy echo",
            f"INFO sqlalchemy.engine.Engine INSERT INTO users (email, password) VALUES (?, ?)\nINFO sqlalchemy.engine.Engine [generated in 0.00031s] ('{mail2}', '{pw[9]}')",
            mail2,
            pw[9],
        ),
        _s(
            "postgres log",
            f"2031-03-11 14:22:07.123 UTC [4312] postgres@app LOG:  statement: ALTER ROLE app WITH PASSWORD '{pw[10]}';",
            pw[10],
        ),
        _s(
            "redis monitor",
            f'1931234567.123456 [0 10.0.0.5:51234] "AUTH" "{pw[11]}"\n1931234567.124001 [0 10.0.0.5:51234] "GET" "session:42"',
            pw[11],
        ),
        _s(
            "windows event log",
            f"Event ID 4688 — A new process has been created.\nProcess Command Line: net user backup {pw[12]} /add /y",
            pw[12],
        ),
        _s("github actions log", f'Run echo "$DEPLOY_PASSWORD" | base64\n{gha}', gha),
        _s(
            "sentry breadcrumb",
            json.dumps(
                {
                    "category": "http",
                    "data": {
                        "method": "GET",
                        "url": f"https://api.shop.example/v1/export?access_token={sentry_tok}",
                        "status_code": 200,
                    },
                }
            ),
            sentry_tok,
        ),
    ]


def _erlang_perl_samples() -> list[Sample]:
    pw1, pw2 = _pw(), _pw()
    return [
        _s(
            "erlang crash report",
            f'=CRASH REPORT==== 11-Mar-2031::14:22:07 ===\n  crasher:\n    initial call: amqp_connection:init/1\n    args: [{{amqp_params_network,<<"shop">>,<<"{pw1}">>,<<"/">>,"rabbit.internal",5672}}]',
            pw1,
        ),
        _s(
            "perl die",
            f"DBI connect('dbname=shop;host=db','shop','{pw2}',...) failed: FATAL:  password authentication failed at ./report.pl line 12.",
            pw2,
        ),
    ]


# --- tools moved between machines ----------------------------------------------------------


def _tool_config_samples() -> list[Sample]:
    pw = [_pw() for _ in range(14)]
    bun_tok, conda_tok, sidekiq = (
        "npm_" + _t(36),
        _t(6, _LOWER) + "-" + _t(8, _LOWER) + "-" + _t(4, _LOWER) + "-" + _t(12, _LOWER),
        _t(8, _HEX) + ":" + _t(8, _HEX),
    )
    deno_tok = "ghp_" + _t(36)
    winscp = "A35C" + _t(60, "0123456789ABCDEF")
    mremote = _t(64, _B64) + "=="
    remmina = _t(24, _B64) + "=="
    heidi = _t(40, "0123456789abcdef") + "5"
    netdata = _uuid()
    ceph = "AQ" + _t(38, _B64) + "=="
    return [
        _s(
            "tool config",
            f"[Personal]\nsource = imaps://aroha%40fastmail.example:{pw[0]}@imap.fastmail.com\noutgoing = smtps://aroha%40fastmail.example:{pw[0]}@smtp.fastmail.com\nfrom = Aroha <aroha@fastmail.example>",
            pw[0],
        ),
        _s(
            "tool config",
            f'[storage contacts_remote]\ntype = "carddav"\nurl = "https://dav.mailbox.example/"\nusername = "tui"\npassword = "{pw[1]}"',
            pw[1],
        ),
        _s(
            "tool config",
            f'urls-source "ttrss"\nttrss-url "https://rss.lan/"\nttrss-login "tui"\nttrss-password "{pw[2]}"',
            pw[2],
        ),
        _s(
            "tool config",
            f"[Sessions\\deploy@web1]\nHostName=web1.corp.example\nUserName=deploy\nPassword={winscp}",
            winscp,
        ),
        _s(
            "tool config",
            f'<Node Name="DC01" Type="Connection" Username="administrator" Domain="CORP" Password="{mremote}" Hostname="10.0.0.10" Protocol="RDP" />',
            mremote,
        ),
        _s(
            "tool config",
            f"[remmina]\nname=jumpbox\nserver=10.0.0.11\nusername=ops\npassword={remmina}\nprotocol=RDP",
            remmina,
        ),
        _s(
            "tool config",
            f"Servers\\prod-mysql\\Host<|||>1<|||>db.corp.example\nServers\\prod-mysql\\User<|||>1<|||>root\nServers\\prod-mysql\\Password<|||>1<|||>{heidi}",
            heidi,
        ),
        _s(
            "tool config",
            f'[install.scopes]\n"@studio" = {{ token = "{bun_tok}", url = "https://registry.npmjs.org/" }}',
            bun_tok,
        ),
        _s(
            "tool config",
            f"channels:\n  - https://conda.anaconda.org/t/{conda_tok}/studio\n  - conda-forge",
            conda_tok,
        ),
        _s(
            "tool config",
            f"$ bundle config set --global gems.contribsys.com {sidekiq}\n# Sidekiq Pro licence",
            sidekiq,
        ),
        _s(
            "tool config", f"export DENO_AUTH_TOKENS={deno_tok}@raw.githubusercontent.com", deno_tok
        ),
        _s(
            "tool config",
            f"skopeo copy --src-creds ci:{pw[3]} docker://registry.corp.example/app:1.4 oci-archive:app.tar",
            pw[3],
        ),
        _s(
            "tool config",
            f"argocd login argocd.corp.example --username admin --password '{pw[4]}' --grpc-web",
            pw[4],
        ),
        _s(
            "tool config",
            f'[default.deploy.parameters]\nstack_name = "shop"\nparameter_overrides = "Stage=prod DbPassword={pw[5]}"',
            pw[5],
        ),
        _s(
            "tool config",
            f"runtime: python312\nenv_variables:\n  DB_USER: shop\n  DB_PASS: '{pw[6]}'\n  CLOUD_SQL_CONNECTION_NAME: shop-prod:europe-west1:db",
            pw[6],
        ),
        _s(
            "tool config",
            f"module.exports = {{ apps: [{{ name: 'api', script: 'dist/main.js', env_production: {{ NODE_ENV: 'production', REDIS_PASSWORD: '{pw[7]}' }} }}] }}",
            pw[7],
        ),
        _s(
            "tool config",
            f"DBHost=localhost\nDBName=zabbix\nDBUser=zabbix\nDBPassword={pw[8]}",
            pw[8],
        ),
        _s(
            "tool config",
            f'output {{\n  elasticsearch {{\n    hosts => ["https://es.corp.example:9200"]\n    user => "logstash_writer"\n    password => "{pw[9]}"\n  }}\n}}',
            pw[9],
        ),
        _s(
            "tool config",
            f'output.elasticsearch:\n  hosts: ["es.corp.example:9200"]\n  username: "beats"\n  password: "{pw[10]}"',
            pw[10],
        ),
        _s(
            "tool config",
            f"[stream]\n    enabled = yes\n    destination = parent.lan:19999\n    api key = {netdata}",
            netdata,
        ),
        _s(
            "tool config",
            f'rocommunity {pw[11]} 10.0.0.0/24\ncreateUser monitor SHA "{pw[12]}" AES "{pw[13]}"',
            pw[11],
            pw[12],
            pw[13],
        ),
        _s("tool config", f'[client.admin]\n\tkey = {ceph}\n\tcaps mds = "allow *"', ceph),
    ]


def _self_hosted_samples() -> list[Sample]:
    jwt_secret, session, enc_key = _t(64, _URLSAFE), _t(64, _URLSAFE), _t(64, _URLSAFE)
    authentik = _t(50, _URLSAFE)
    vw_admin = _t(48, _B64)
    skb, otp, vapid = _t(128, _HEX), _t(128, _HEX), _t(43, _URLSAFE) + "="
    reg, macaroon, form = _t(50, _URLSAFE), _t(50, _URLSAFE), _t(50, _URLSAFE)
    jicofo, jvb = _t(32, _HEX), _t(32, _HEX)
    turn = _t(64, _HEX)
    immich_db, photoprism = _pw(), _pw()
    drbd = _pw()
    sssd, ipa_dm, ipa_admin = _pw(), _pw(), _pw()
    return [
        _s(
            "self-hosted app",
            f"jwt_secret: {jwt_secret}\nsession:\n  secret: {session}\nstorage:\n  encryption_key: {enc_key}",
            jwt_secret,
            session,
            enc_key,
        ),
        _s(
            "self-hosted app",
            f"AUTHENTIK_SECRET_KEY={authentik}\nAUTHENTIK_ERROR_REPORTING__ENABLED=false",
            authentik,
        ),
        _s(
            "self-hosted app",
            f"docker run -d --name vw -e ADMIN_TOKEN='{vw_admin}' -v /vw-data/:/data/ vaultwarden/server:latest",
            vw_admin,
        ),
        _s(
            "self-hosted app",
            f"LOCAL_DOMAIN=social.example\nSECRET_KEY_BASE={skb}\nOTP_SECRET={otp}\nVAPID_PRIVATE_KEY={vapid}",
            skb,
            otp,
            vapid,
        ),
        _s(
            "self-hosted app",
            f'server_name: "matrix.example"\nregistration_shared_secret: "{reg}"\nmacaroon_secret_key: "{macaroon}"\nform_secret: "{form}"',
            reg,
            macaroon,
            form,
        ),
        _s(
            "self-hosted app",
            f"JICOFO_AUTH_PASSWORD={jicofo}\nJVB_AUTH_PASSWORD={jvb}\nPUBLIC_URL=https://meet.example",
            jicofo,
            jvb,
        ),
        _s(
            "self-hosted app",
            f"listening-port=3478\nuse-auth-secret\nstatic-auth-secret={turn}\nrealm=turn.example",
            turn,
        ),
        _s(
            "self-hosted app",
            f"# immich .env\nUPLOAD_LOCATION=/mnt/photos\nDB_PASSWORD={immich_db}\nDB_USERNAME=postgres",
            immich_db,
        ),
        _s(
            "self-hosted app",
            f'    environment:\n      PHOTOPRISM_ADMIN_USER: "admin"\n      PHOTOPRISM_ADMIN_PASSWORD: "{photoprism}"',
            photoprism,
        ),
        _s(
            "self-hosted app",
            f'resource r0 {{\n  net {{\n    cram-hmac-alg sha1;\n    shared-secret "{drbd}";\n  }}\n}}',
            drbd,
        ),
        _s(
            "self-hosted app",
            f"[domain/corp.example]\nldap_default_bind_dn = cn=sssd,ou=svc,dc=corp,dc=example\nldap_default_authtok = {sssd}",
            sssd,
        ),
        _s(
            "self-hosted app",
            f"ipa-server-install --realm CORP.EXAMPLE --ds-password '{ipa_dm}' --admin-password '{ipa_admin}' --unattended",
            ipa_dm,
            ipa_admin,
        ),
    ]


def _proxy_samples() -> list[Sample]:
    ss_pw, trojan, hy2, vless, vmess_id = _pw(), _pw(), _pw(), _uuid(), _uuid()
    ss_uri_user = _b64url(f"chacha20-ietf-poly1305:{ss_pw}")
    clash_pw = _pw()
    tuic_id, tuic_pw = _uuid(), _pw()
    ss_json_pw = _pw()
    vmess = _b64(
        json.dumps(
            {
                "v": "2",
                "ps": "tokyo-1",
                "add": "jp1.vpn.example",
                "port": "443",
                "id": vmess_id,
                "aid": "0",
                "net": "ws",
                "tls": "tls",
            }
        )
    )
    zt_secret = f"{_t(10, _HEX)}:0:{_t(128, _HEX)}:{_t(128, _HEX)}"
    return [
        _s(
            "proxy config",
            json.dumps(
                {
                    "server": "203.0.113.40",
                    "server_port": 8388,
                    "password": ss_json_pw,
                    "method": "chacha20-ietf-poly1305",
                },
                indent=2,
            ),
            ss_json_pw,
        ),
        _s("proxy config", f"ss://{ss_uri_user}@203.0.113.40:8388#home-exit", ss_uri_user),
        _s(
            "proxy link",
            f"vless://{vless}@edge.vpn.example:443?encryption=none&security=reality&type=tcp#nl-1",
            vless,
        ),
        _s("proxy link", f"vmess://{vmess}", vmess),
        _s("proxy link", f"trojan://{trojan}@tr.vpn.example:443?sni=tr.vpn.example#sg", trojan),
        _s(
            "proxy link",
            f"hysteria2://{hy2}@hy.vpn.example:443/?sni=hy.vpn.example&insecure=0#de",
            hy2,
        ),
        _s(
            "proxy link",
            f"tuic://{tuic_id}:{tuic_pw}@tuic.vpn.example:443?congestion_control=bbr#us",
            tuic_id,
            tuic_pw,
        ),
        _s(
            "proxy config",
            f'proxies:\n  - name: hk-01\n    type: ss\n    server: hk.vpn.example\n    port: 8388\n    cipher: aes-256-gcm\n    password: "{clash_pw}"\n    udp: true',
            clash_pw,
        ),
        _s(
            "proxy config",
            f"$ sudo cat /var/lib/zerotier-one/identity.secret\n{zt_secret}",
            zt_secret,
        ),
    ]


def secret_samples() -> list[Sample]:
    """Every sample of the round-eleven corpus, in a fixed order (the same whenever it is asked)."""
    _RNG.seed(20310311)
    return [
        *_dictation_samples(),
        *_chat_typo_samples(),
        *_hint_samples(),
        *_markdown_samples(),
        *_front_matter_samples(),
        *_smart_home_samples(),
        *_camera_router_samples(),
        *_media_server_samples(),
        *_stream_samples(),
        *_game_samples(),
        *_card_samples(),
        *_bank_samples(),
        *_iban_samples(),
        *_national_samples(),
        *_phone_samples(),
        *_vendor_samples(),
        *_mixed_language_samples(),
        *_encoded_samples(),
        *_split_samples(),
        *_log_samples(),
        *_erlang_perl_samples(),
        *_tool_config_samples(),
        *_self_hosted_samples(),
        *_proxy_samples(),
    ]


# --- look-alikes ---------------------------------------------------------------------------


def _speech_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "voice dictation",
            "Voice memo 08:14 — remind me to change the wifi password tomorrow, the old one leaked in the group chat.",
        ),
        _x(
            "voice dictation",
            "Note to self. The garage code needs changing before the party. Ask Tom which app does it.",
        ),
        _x(
            "voice dictation",
            "Speaker 2 (00:03:12): the password policy is, um, twelve characters minimum\nSpeaker 1 (00:03:20): got it",
        ),
        _x(
            "voice dictation",
            'Transcribed voicemail: "Hi, it\'s the surgery, your appointment is at half past nine on the fourteenth, bay four."',
        ),
        _x(
            "voice dictation",
            "Sprachnotiz: Flug LH four-oh-two, Gate B fünf, Sitz einunddreißig A.",
        ),
        _x(
            "voice dictation",
            "Mémo vocal : acheter du pain, rappeler la banque pour le code, pas urgent.",
        ),
        _x("chat typo", "forgot my pasword again lol, the reset link went to spam"),
        _x("chat typo", "passwrod reset link expired, requesting a new one"),
        _x("chat typo", "teh wifi pw is on the fridge, ask mum"),
        _x("chat typo", "contrasena olvidada otra vez, mañana llamo al banco"),
        _x("chat typo", "pwd policy: 12 chars min, no reuse of the last 5"),
        _x(
            "chat typo",
            "[21:04] Ana: whats ur wifi\n[21:05] Ben: its on the router sticker, bottom left",
        ),
        _x(
            "password hint", "Password hint: 'the usual' — no, I'm not writing the actual one here."
        ),
        _x(
            "password hint",
            "Security question options: first pet, first school, mother's maiden name. I picked first school.",
        ),
        _x("password hint", "PIN hint: something with the kids' birthdays. Card is at home."),
        _x("mixed language", "oye el password del wifi lo cambié, te lo paso por Signal ok?"),
        _x("mixed language", "Pare, nakalimutan ko yung password, mag-reset muna ako"),
        _x(
            "mixed language",
            "the password policy say must change every 90 days lah, so troublesome",
        ),
        _x("mixed language", "個password我唔記得咗，要reset先"),
        _x("mixed language", "password ni siri, nitakutumia kwa WhatsApp baadaye"),
        _x("mixed language", "nimi open li ike, o ante e ona"),
        _x("mixed language", "di password don change, I go send am later"),
        _x("mixed language", "Le contrasigno debe haber al minus 12 characteres."),
    ]


def _markdown_lookalikes() -> list[Lookalike]:
    commit = _t(40, _HEX)
    return [
        _x(
            "markdown nested list",
            "- Home\n  - Network\n    - Router (Fritz)\n      - firmware: 8.02\n      - location: hallway\n  - Garden",
        ),
        _x(
            "markdown blockquote",
            "> Forwarded from Mum:\n> > the alarm company is coming on Tuesday at 10:30\n>\n> thx!",
        ),
        _x(
            "markdown definition list",
            "Upstairs Wi-Fi\n: SSID `Galah-5G`\n: channel 36, 80 MHz\n\nGuest Wi-Fi\n: open network, captive portal",
        ),
        _x(
            "markdown admonition",
            '!!! warning "Prod database"\n    the password lives in Vault at `kv/prod/db`, never here',
        ),
        _x(
            "markdown admonition", "> [!NOTE]\n> Passwords rotate on the first Monday of the month."
        ),
        _x(
            "markdown details",
            "<details>\n<summary>release checklist</summary>\n\n- bump version to 3.4.1\n- tag and push\n\n</details>",
        ),
        _x(
            "markdown task list",
            "- [x] rotate the firecrawl key\n  - [x] update the n8n credential from 1Password\n  - [ ] delete the old one",
        ),
        _x(
            "markdown inline code", f"Fixed in commit `{commit[:12]}`, see `git show {commit[:7]}`."
        ),
        _x(
            "markdown link reference",
            'See [the runbook][rb].\n\n[rb]: https://wiki.corp.example/runbooks/db-failover "DB failover"',
        ),
        _x(
            "markdown inline field",
            "## Bank\nbranch:: Main Street\nopening-hours:: 09:00-16:00\nadvisor:: front desk",
        ),
        _x(
            "markdown table split",
            "| version | build |\n|---|---|\n| 2.14.0 | 20310311.4 |\n| 2.13.2 | 20310214.1 |",
        ),
        _x("markdown abbreviation", "The VPN is up again.\n\n*[VPN]: Virtual Private Network"),
        _x(
            "markdown html",
            '<dl>\n  <dt>Colour</dt><dd><span style="color:#2E8B57">#2E8B57</span></dd>\n</dl>',
        ),
        _x(
            "yaml front matter",
            f"---\ntitle: Deploy notes\ndate: 2031-03-02\nid: {_uuid()}\ncommit: {commit}\n---\n\n# Deploy",
        ),
        _x(
            "toml front matter",
            "+++\ntitle = 'Trip to Moorea'\ndraft = true\nweight = 20\ncolor = '#1E90FF'\n+++",
        ),
        _x(
            "obsidian properties",
            "---\naliases: [reading]\nisbn: 978-0-306-40615-7\nrating: 4\ncssclasses: [book]\n---",
        ),
        _x(
            "json front matter",
            '{\n  "title": "Office VPN",\n  "updated": "2031-03-04",\n  "owner": "it-team"\n}\n\nThe VPN is for the print server only.',
        ),
    ]


def _device_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "home assistant secrets",
            "wifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\nmqtt:\n  broker: 10.0.0.2\n  password: !secret mqtt_password",
        ),
        _x(
            "zigbee2mqtt config",
            "advanced:\n  pan_id: GENERATE\n  ext_pan_id: GENERATE\n  network_key: GENERATE\n  channel: 15",
        ),
        _x(
            "zigbee2mqtt config",
            "Paired new sensor: ieee_address 0x00124b0024c1a2b3, model SNZB-02, friendly_name hallway_temp",
        ),
        _x(
            "tasmota console",
            "Backlog Topic hallway_plug; FriendlyName1 Hallway; PowerOnState 3; TelePeriod 60",
        ),
        _x(
            "camera stream",
            "cameras:\n  driveway:\n    ffmpeg:\n      inputs:\n        - path: rtsp://{FRIGATE_RTSP_USER}:{FRIGATE_RTSP_PASSWORD}@192.168.1.64:554/Streaming/Channels/101",
        ),
        _x(
            "camera stream",
            "Public test stream for VLC: rtsp://rtsp.stream/pattern (no login needed)",
        ),
        _x(
            "router config",
            "# /etc/config/wireless\nconfig wifi-device 'radio0'\n\toption channel '36'\n\toption htmode 'HE80'\n\toption country 'NZ'",
        ),
        _x(
            "homekit setup code",
            "HomeKit setup code is on the sticker under the base; scan it with the Home app.",
        ),
        _x(
            "matter pairing code",
            "Matter pairing failed with error 0x0000000B, retried after a factory reset.",
        ),
        _x(
            "duckdns",
            "DuckDNS domain galah-home.duckdns.org now points to the new IP after the ISP change.",
        ),
        _x("philips hue", "Hue bridge id 001788FFFE2A3B4C, firmware 1.67.1967050040"),
        _x(
            "mosquitto bridge",
            "topic sensors/# out 1\ntopic cmnd/+/POWER in 1\nbridge_protocol_version mqttv311",
        ),
        _x("media server", "Jellyfin 10.10.3 → transcoding with VAAPI, library scan every 12 h"),
        _x("nas", "DS920+ DSM 7.2.2-72806 Update 3, RAID SHR-1, 4 × 8 TB"),
    ]


def _game_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "stream key",
            "OBS: server rtmp://live.twitch.tv/app, stream key → paste from the Twitch dashboard, never commit it",
        ),
        _x("stream key", "YouTube stream key: <your-stream-key>"),
        _x(
            "stream key",
            json.dumps(
                {
                    "settings": {"bwtest": False, "server": "auto", "service": "Twitch"},
                    "type": "rtmp_common",
                }
            ),
        ),
        _x(
            "stream key",
            "Highlights: youtu.be/dQw4w9WgXcQ and twitch.tv/videos/2108452316 (the speedrun)",
        ),
        _x(
            "game server",
            "#Minecraft server properties\nenable-rcon=false\nlevel-seed=-4172144997902289642\nview-distance=10",
        ),
        _x(
            "game server",
            "Valheim server up at 203.0.113.40:2456, world 'Midgard', version 0.219.16",
        ),
        _x("game account", "Steam app 1086940 (Baldur's Gate 3), patch 7 hotfix 24"),
        _x(
            "game account",
            "Battle.net authenticator moved to the new phone; restore code is in the safe.",
        ),
        _x("game account", "Xbox: passkey required for purchases now (turned it on in settings)"),
    ]


def _payment_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "card",
            "Stripe's documented test card for the demo: 4242 4242 4242 4242, any future date, any CVC",
        ),
        _x("card", "Paid with the Maestro ending ••• 0218, total €42.90"),
        _x("card", "Card declined: reason code 05 (do not honour), retry in 24 h"),
        _x("card", "cvc field should accept 3 or 4 digits (Amex)"),
        _x(
            "bank account australia",
            "CommBank BSB numbers start with 06; the branch finder is on their website.",
        ),
        _x(
            "bank account india",
            "IFSC codes are 11 characters: 4 letters for the bank, a zero, then 6 for the branch.",
        ),
        _x("bank account brazil", "Pix: o limite noturno é R$ 1.000,00 das 20h às 6h."),
        _x(
            "bank account uk",
            "Faster Payments usually arrive within 2 hours; the limit is £25,000 per day.",
        ),
        _x(
            "bank account us",
            "ABA routing number 021000021 is JPMorgan Chase (printed on every Chase cheque).",
        ),
        _x(
            "bank account canada",
            "Interac e-Transfer limit raised to $3,000/day; autodeposit is on.",
        ),
        _x(
            "iban montenegro",
            "IBAN format for Montenegro: ME + 2 check digits + 18 digits (ME00 0000 0000 0000 0000 00).",
        ),
        _x("iban kuwait", "SWIFT/BIC of the bank: CBKUKWKW, processing fee 1.500 KWD"),
        _x("iban tunisia", "Frais de virement : 2,500 TND, délai 48 h."),
    ]


def _national_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "ireland pps",
            "Revenue says the PPS number is on my payslip; I'll bring the public services card on Monday.",
        ),
        _x(
            "croatia oib",
            "OIB tvrtke je na računu; poštanski broj 10000 Zagreb, narudžba 2031-00412",
        ),
        _x(
            "uk utr",
            "Your UTR is on the SA250 letter from HMRC; the filing deadline is 31 January.",
        ),
        _x("colombia cedula nit", "Pedido N° 2031-00872, despacho a Chapinero, total $149.900 COP"),
        _x("india voter id", "Booth no. 142, Ward 7, polling from 07:00 to 18:00"),
        _x("indonesia npwp", "Kode pos 10110, Jakarta Pusat; nomor pesanan INV/2031/03/0042"),
        _x("germany ausweis", "Personalausweis beantragt, Gebühr 37,00 €, Abholung in 3 Wochen"),
        _x("luxembourg matricule", "Code postal L-1724 Luxembourg, facture 2031-0047"),
        _x("kuwait civil id", "موعد العيادة الساعة ١٠:٣٠، الطابق الثاني، غرفة ٢١٤"),
        _x("myanmar nrc", "Flight 8M 335 Yangon → Bangkok, booking ref KQ7XPM, seat 14C"),
        _x("brazil titulo cnh", "CEP 01310-100, Av. Paulista, pedido 2031-551"),
        _x(
            "poland id card",
            "Numer zamówienia 2031/03/11/0042, paczka InPost 6200 1234 5678 9012 3456 78",
        ),
        _x("new zealand nhi", "Healthline 0800 611 116 (free, 24/7)"),
        _x("canada health card", "Postal code M5V 2T6, order #CA-2031-88412"),
        _x("norway d-nummer", "Organisasjonsnummer 974 760 673, faktura 2031-0412"),
        _x("sweden samordningsnummer", "Postnummer 111 22 Stockholm, ordernummer 2031-77310"),
        _x("phone", "Emergency numbers: 111 (NZ), 112 (HR), 123 (CO), 999 (ZW)"),
        _x("phone", "Bosch part no. 0 986 452 041 (oil filter), IKEA article 802.425.80"),
        _x("phone", "Flight NZ 103 departs 06:45, gate 18, arrives 08:10"),
    ]


def _vendor_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "vendor token",
            "Midtrans client key goes in Snap.js (public): SB-Mid-client-" + _t(16, _URLSAFE),
        ),
        _x(
            "vendor token",
            "Mercado Pago PUBLIC key for the checkout brick (safe in the browser): APP_USR-"
            + _uuid(),
        ),
        _x("vendor token", "NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_test_Y2xlcmsuZXhhbXBsZS5jb20k"),
        _x(
            "vendor token",
            "Xendit public key for card tokenisation (frontend): xnd_public_development_" + _t(40),
        ),
        _x("vendor token", "OneSignal App ID (public, goes in the SDK init): " + _uuid()),
        _x(
            "vendor token",
            "Agora App ID (public): " + _t(32, _HEX) + " — the certificate stays on the server.",
        ),
        _x("vendor token", "PubNub subscribe key for the dashboard widget: sub-c-" + _uuid()),
        _x(
            "vendor token",
            "Stripe customer cus_" + _t(14) + ", price price_" + _t(24) + ", invoice in_" + _t(24),
        ),
        _x("vendor token", "export TAVILY_API_KEY=\"$(op read 'op://Dev/Tavily/credential')\""),
        _x(
            "vendor token",
            "MUX_TOKEN_SECRET=@Microsoft.KeyVault(SecretUri=https://kv-shop.vault.azure.net/secrets/mux-secret/)",
        ),
        _x("vendor token", "LIVEKIT_API_SECRET=${LIVEKIT_API_SECRET:?set in the environment}"),
        _x(
            "vendor token",
            "Models tried: jina-embeddings-v3, voyage-3-large, command-r-plus-08-2024, llama-3.3-70b",
        ),
    ]


def _encoded_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "encoded value",
            "base64 tutorial: 'hello world' encodes to aGVsbG8gd29ybGQ= and decodes back the same.",
        ),
        _x(
            "encoded value",
            "Content-Transfer-Encoding: quoted-printable\n\nDie Besprechung ist am Donnerstag um 10 Uhr im Raum Gr=C3=BCn.\nGr=C3=BC=C3=9Fe, Jana",
        ),
        _x("encoded value", '{"greeting": "Ol\\u00e1, bem-vindo ao Rio!", "lang": "pt-BR"}'),
        _x(
            "encoded value",
            "$ xxd -l 8 logo.png\n00000000: 8950 4e47 0d0a 1a0a                      .PNG....",
        ),
        _x(
            "encoded value",
            "Bitcoin donation address (public, on the website): 1BoatSLRHtKNngkdXEeobR76b53LETtpyT",
        ),
        _x(
            "encoded value",
            "EU vaccination QR prefix is HC1: followed by base45 — that's the format, not a value.",
        ),
        _x("split value", "Tracking number (split by the label printer): 1Z 999 AA1\n01 2345 6784"),
        _x(
            "split value",
            "The docs link wrapped: https://docs.corp.example/runbooks/\ndatabase-failover-procedure",
        ),
    ]


def _log_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "android logcat",
            "03-11 14:22:07.123  5120  5177 D OkHttp  : --> POST https://api.shop.example/v2/orders\n03-11 14:22:07.124  5120  5177 D OkHttp  : Authorization: ██",
        ),
        _x(
            "android logcat",
            "03-11 14:22:09.881  4312  4312 I Choreographer: Skipped 31 frames!  The application may be doing too much work on its main thread.",
        ),
        _x(
            "django debug page",
            "DATABASES  {'default': {'ENGINE': 'django.db.backends.postgresql', 'PASSWORD': '********************', 'HOST': 'db.internal'}}",
        ),
        _x(
            "celery log",
            f"[2031-03-11 14:00:00,123: INFO/MainProcess] Task sync.mailbox[{_uuid()}] succeeded in 2.41s: None",
        ),
        _x(
            "sidekiq log",
            f'INFO: {{"class":"ChargeJob","jid":"{_t(24, _HEX)}","elapsed":0.412,"message":"done"}}',
        ),
        _x(
            "kubectl verbose",
            "I0311 14:22:07.123456   12345 round_trippers.go:553] GET https://10.0.0.1:6443/api/v1/namespaces 200 OK in 12 milliseconds",
        ),
        _x(
            "redis monitor",
            '1931234567.124001 [0 10.0.0.5:51234] "GET" "session:42"\n1931234567.124300 [0 10.0.0.5:51234] "EXPIRE" "session:42" "3600"',
        ),
        _x(
            "postgres log",
            "2031-03-11 14:22:07.123 UTC [4312] LOG:  checkpoint complete: wrote 1204 buffers (7.3%)",
        ),
        _x(
            "github actions log",
            'Run echo "$DEPLOY_PASSWORD" | wc -c\n  env:\n    DEPLOY_PASSWORD: ***\n17',
        ),
        _x(
            "sentry breadcrumb",
            json.dumps(
                {
                    "category": "http",
                    "data": {
                        "method": "GET",
                        "url": "https://api.shop.example/v1/export?access_token=[Filtered]",
                        "status_code": 200,
                    },
                }
            ),
        ),
        _x(
            "npm debug log",
            "12 verbose config //registry.npmjs.org/:_authToken=(protected)\n13 verbose npm v10.9.0",
        ),
        _x(
            "spring actuator", json.dumps({"name": "spring.datasource.password", "value": "******"})
        ),
        _x(
            "opentelemetry span",
            f"trace_id={_t(32, _HEX)} span_id={_t(16, _HEX)} name=GET /orders duration_ms=41",
        ),
        _x("ansible verbose", 'ok: [web1] => {"changed": false, "ping": "pong"}'),
    ]


def _config_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "tool config",
            "[Personal]\nsource = imaps://aroha%40fastmail.example@imap.fastmail.com\nsource-cred-cmd = pass show mail/fastmail",
        ),
        _x(
            "tool config",
            '[storage contacts_remote]\ntype = "carddav"\nurl = "https://dav.mailbox.example/"\nusername = "tui"\npassword.fetch = ["command", "pass", "dav"]',
        ),
        _x(
            "tool config",
            "[Sessions\\deploy@web1]\nHostName=web1.corp.example\nUserName=deploy\nPublicKeyFile=C:\\Users\\tui\\.ssh\\id_ed25519.ppk",
        ),
        _x(
            "tool config",
            '[install.scopes]\n"@studio" = { token = "$NPM_TOKEN", url = "https://registry.npmjs.org/" }',
        ),
        _x(
            "tool config",
            '[default.deploy.parameters]\nstack_name = "shop"\nresolve_s3 = true\nparameter_overrides = "Stage=prod"',
        ),
        _x(
            "tool config",
            "runtime: python312\ninstance_class: F2\nautomatic_scaling:\n  max_instances: 3",
        ),
        _x(
            "tool config",
            "DBHost=localhost\nDBName=zabbix\nDBUser=zabbix\n# DBPassword comes from the vault agent template",
        ),
        _x(
            "tool config",
            "[stream]\n    enabled = yes\n    destination = parent.lan:19999\n    api key = ${NETDATA_STREAM_KEY}",
        ),
        _x(
            "tool config",
            "db_password: ENC[AES256_GCM,data:"
            + _t(24, _B64)
            + ",iv:"
            + _t(43, _B64)
            + "=,tag:"
            + _t(22, _B64)
            + "==,type:str]\nsops:\n    age:\n        - recipient: age1"
            + _t(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l"),
        ),
        _x(
            "tool config",
            "config:\n  shop:dbPassword:\n    secure: v1:" + _t(16, _B64) + ":" + _t(40, _B64),
        ),
        _x(
            "self-hosted app",
            "jwt_secret_file: /run/secrets/authelia_jwt\nsession:\n  secret_file: /run/secrets/authelia_session",
        ),
        _x(
            "self-hosted app",
            'server_name: "matrix.example"\nregistration_shared_secret_path: /data/reg_secret\nenable_registration: false',
        ),
        _x(
            "self-hosted app",
            "LOCAL_DOMAIN=social.example\nSECRET_KEY_BASE=<run `rails secret` and paste here>\nSINGLE_USER_MODE=false",
        ),
        _x(
            "proxy config",
            json.dumps(
                {
                    "server": "0.0.0.0",
                    "server_port": 8388,
                    "password": "${SS_PASSWORD}",
                    "method": "chacha20-ietf-poly1305",
                }
            ),
        ),
        _x(
            "proxy config",
            "rules:\n  - DOMAIN-SUFFIX,corp.example,DIRECT\n  - GEOIP,NZ,DIRECT\n  - MATCH,hk-01",
        ),
        _x("proxy config", "zerotier-cli join 8056c2e21c000001  # network id, shared on the wiki"),
        _x(
            "self-hosted app",
            "Immich v1.129.0, Paperless-ngx 2.14, Vaultwarden 1.33.2 — all updated on Sunday.",
        ),
        _x("tool config", "sysLocation Server room, rack 3\nsysContact it-team@corp.example"),
    ]


def lookalikes() -> list[Lookalike]:
    """Every look-alike of the round-eleven corpus, in a fixed order (the same whenever it is
    asked, whether or not the samples were drawn first)."""
    _RNG.seed(20310312)
    return [
        *_speech_lookalikes(),
        *_markdown_lookalikes(),
        *_device_lookalikes(),
        *_game_lookalikes(),
        *_payment_lookalikes(),
        *_national_lookalikes(),
        *_vendor_lookalikes(),
        *_encoded_lookalikes(),
        *_log_lookalikes(),
        *_config_lookalikes(),
    ]
