r"""The round-twelve redaction corpus for dreamd, written blind: before the rules were read.

Nothing in it was shown to the rules or tuned against them, and it leans on what the docstrings of
rounds two to eleven list little or not at all. It is the text of a migrating user who pastes the
files of a provisioning server, a developer's editor and test tools, a VoIP box and a homelab into
the day's note; of families who keep each other's numbers in chats and spreadsheets, in their own
languages, scripts and digits; and of an attacker who pastes a cracking session, or hides a value
in a shape a filter may not know.

Secrets (:func:`secret_samples`): passwords in the prose of some thirty-five languages no earlier
round uses (Kirundi, Dholuo, Xitsonga, Tshivenda, siSwati, Chamorro, Marshallese, Gilbertese, Cook
Islands Māori, Mapudungun, Sranan Tongo, Alsatian, Swiss German, Silesian, Romani, Zazaki, Udmurt,
Meadow Mari, Võro, Piedmontese, Gascon, Plautdietsch, Hakka, Shanghainese, Jeju, Banjar,
Kapampangan, Chavacano, Dari, Kashmiri, Saraiki, Sorani, Newari, Sanskrit, and Pulaar in Latin
letters and in Adlam); the languages earlier rounds gave only a password, now with the numbers of
their countries (an Ethiopian TIN and bank account, a Georgian personal number, an Armenian public
service number and mobile, a Cambodian id, mobile and ABA account, the id and mobile in Khmer
digits, a Sri Lankan and an Indian passport, an ATM PIN in Tamil digits, an Israeli driving
licence, an Iranian card with its second password and CVV2 in Persian digits, a Pakistani NTN, a
Tanzanian TIN, a Kenyan passport, a Nigerian voter card, an Icelandic eID PIN and mobile, a NIE in
Basque, a National Insurance number in Welsh, a Maltese id card and mobile); phones, PINs, one-time
codes and accounts in Thai, Lao, Myanmar, Tibetan, Devanagari, Gujarati, Odia, Telugu, N'Ko, Adlam
and Javanese digits, and a number half in Bengali digits; national numbers no earlier round holds
(Spanish NIE, Portuguese NISS and SNS, German Rentenversicherungsnummer, Polish NIP, Slovenian
davčna številka, New Zealand IRD, Salvadoran DUI, Brazilian RG and PIS/PASEP, Northern Ireland H&C,
the Taiwanese resident certificate of the 2021 format, Georgian, Azerbaijani FIN, Belarusian,
Kyrgyz, Cypriot tax, Qatari, Omani, Tunisian, Algerian, Botswanan, Beninese, Nepali NIN and
citizenship, Maldivian, Afghan e-Tazkira and Macau numbers, a Japanese residence card and pension
number, a Korean driving licence, a Mexican clave de elector, a Honduran identity number, a
Jamaican TRN, an Indian UAN, an Italian CIE, a US passport and Known Traveler Number); mobiles of
twenty-two more countries, from Cyprus to the Maldives, and numbers read out as words in French,
Spanish and Portuguese; keys of some seventy vendors no earlier round names (Groq, Replicate,
Perplexity, OpenRouter, xAI, Deepgram, Pinecone, LangSmith, Modal, Mistral, Together, Fireworks,
AssemblyAI, Netlify, Hetzner Cloud, OVH, IBM Cloud, Akamai EdgeGrid, Algolia, Proxmox, TrueNAS,
Paddle, Adyen, Checkout.com, Paystack, Wise, Authorize.Net, PayFast, Omise, Wompi, Conekta,
Moyasar, Cashfree, Up Bank, Akahu, Binance, Alchemy, Intercom, Zendesk, Sanity, Axiom, PagerDuty,
DeepL, Infobip, Mandrill, Klaviyo, Close, Zoho, YouTrack, Postman, Quay, Codeberg, the Amazon
SP-API, NetBox, Paperless-ngx, Gotify, Healthchecks, Steam, Roblox, MaxMind, Duo, Tenable,
VirusTotal, Shodan, AbuseIPDB, Hunter, 1Password service accounts, Fastmail, ZeroSSL, Turso,
Upstash, Convex, Prisma Accelerate), some of them in whole ``.env`` files; bank codes on paper (an
iTAN list, a NemID key card, Finnish key codes, a Korean security card, a Japanese random-number
table, an Alipay payment password, an Indian IPIN) and vouchers (Amazon, Google Play, Apple, Steam,
paysafecard, a Starbucks card); IBANs of Libya, Djibouti, Somalia, Nicaragua, Russia, Oman and
Honduras; Windows command lines (``cmdkey``, ``psexec``, ``wmic``, ``schtasks /rp``) and shell
history (``ssh-keygen -N``, VeraCrypt, ``cryptsetup``, ``rar -hp``, ``qpdf --encrypt``, ``db2
connect``, ``etcdctl``, ``kcat``, ``dokku``); the attacker's kit (impacket, NetExec, Hydra,
pass-the-hash, mimikatz output, a Responder NTLMv2 hash, a Kerberoast hash, ``john --show``);
provisioning files (Kickstart, preseed, Vagrant, a Salt pillar, CloudFormation and Bicep
parameters, Azure Functions settings, Cloudflare ``.dev.vars``, Kamal secrets, Butane); developer
and test tools (a devcontainer, VS Code SQLTools, ``.http`` files, Bruno, Cypress, Playwright
storage state, Robot Framework, JMeter, WS-Security); VoIP and chat servers (Asterisk, FreeSWITCH,
Mumble, TeamSpeak, ZNC, Pidgin, ejabberd); self-hosted services (Dex, oauth2-proxy, Tinyproxy, a
Nebula CA key, Headscale, Graylog, an n8n credentials export, Directus, CouchDB, Kanidm, rustic,
davfs2, s3fs, fstab); the homelab (Bambu Lab and Moonraker printers, BrandMeister and APRS-IS for
the radio, Homebridge, openHAB); exports of Firefox, Safari, Proton Pass, NordPass, Evernote and
Google Keep, an Excel macro, spreadsheets pasted from an HR office, a wedding, a landlord and a
school, an Outlook contacts export, and chats copied from an SMS backup, KakaoTalk, Discord, Teams,
Zoom, iMessage, Messenger and Threema; disguises none of them try (mathematical bold and Fraktur
letters, regional-indicator letters, upside-down text, subscript digits, dice faces, Chinese
banker's numerals, a value typed with a Russian or Hebrew keyboard layout on, Atbash, ``%u``
escapes, CSS escapes, Z85, decimal character codes, a spreadsheet ``CHAR`` chain, variation
selectors, thin spaces and emoji between the letters, Markdown escapes, one ``<span>`` per letter,
Roman numerals, a PowerShell ``-EncodedCommand``); and a YubiKey's PIN, PUK and management key,
firmware passwords, a hardware wallet's passphrase, app passwords of Bluesky and Fastmail, and the
codes of an Estonian ID card.

Look-alikes (:func:`lookalikes`) must come through byte for byte: talk of passwords with no value
in the same languages, prices, dates and pages in the same digits, the formats of the same national
numbers, public emergency and help lines, placeholders, publishable keys and published test keys
(Paystack, Omise, Mixpanel, WalletConnect, Paddle, Turnstile, hCaptcha, Giphy, the Azurite account
key) and vendor ids, the same files and commands with their secrets read from elsewhere, prompted
for or left empty, the empty LM and NT hashes, the same exports and chats with nothing in them, the
same disguises carrying nothing, ISBNs, EANs, parcels, orders and bookings, prices, coordinates,
measurements, dates of other calendars, colours, versions, commits and digests, a FEN, a flight, a
formula, a public address, request ids, the factory defaults of a YubiKey and an iDRAC, IBAN
formats, BICs and a masked card.

Every value is fake: drawn from ``random.Random(20320412)``, with each scheme's check digits
computed by its published rule, written out in the module so that it imports with nothing installed
(Luhn, ISO 7064 mod 97-10, the NIE's mod 23 letter, NISS, the Rentenversicherungsnummer, NIP, the
davčna številka, IRD, DUI, RG, PIS/PASEP, the NHS modulus 11 of the H&C number, the Taiwanese
certificate, ISBN, EAN, S10 and the APRS-IS passcode), so each value is valid in form while naming
no one.
"""

from __future__ import annotations

import base64
import json
import random
import string
from typing import NamedTuple


class Sample(NamedTuple):
    """A text holding secrets: ``secrets`` must all be gone from its redaction."""

    family: str
    text: str
    secrets: tuple[str, ...]


class Lookalike(NamedTuple):
    """A text that only looks sensitive: its redaction must equal it."""

    family: str
    text: str


_SEED = 20320412
_RNG = random.Random(_SEED)
_ALNUM = string.ascii_letters + string.digits
_LOWER = string.ascii_lowercase + string.digits
_UPPER = string.ascii_uppercase + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_UHEX = "0123456789ABCDEF"
_DIGITS = string.digits
_B32L = "abcdefghijklmnopqrstuvwxyz234567"

_WORDS = (
    "Simien Lalibela Gondar Kazbegi Svaneti Ushguli Sevan Dilijan Tatev Angkor Kampot Sigiriya "
    "Dambulla Kaveri Nilgiri Arava Alborz Zagros Chitral Lamu Kilifi Tsavo Osogbo Olumo Hekla "
    "Askja Urdaibai Gorbea Aralar Eryri Preseli Mdina Comino Socotra Rwenzori Okavango Etosha "
    "Nyika Tsingy Bumthang Punakha Marovo Jaluit Tarawa Funafuti Alofi Aitutaki Chiloe Pehuen "
    "Saramacca Vosges Chiemsee Toggenburg Beskidy Ligurian Langhe Bigorre Karjala Haanja"
).split()

_DIGIT_WORDS = tuple("zero one two three four five six seven eight nine".split())


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
        return _t(14, _ALNUM + "!#%+=")
    if style == 4:
        return f"{_w()}.{word.lower()}.{digits}"
    return f"{digits[:2]}{word}{sign}{_w().lower()}"


def _pin(length: int = 4) -> str:
    while True:
        value = _d(length)
        if value[0] != "0" and len(set(value)) > 2:
            return value


def _uuid() -> str:
    h = _t(32, _HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{_RNG.choice('89ab')}{h[17:20]}-{h[20:]}"


def _fill(pattern: str) -> str:
    """``pattern`` with each ``#`` replaced by a random digit (a phone, an id in its layout)."""
    return "".join(_RNG.choice(_DIGITS) if c == "#" else c for c in pattern)


def _grouped(value: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def _spell(digits: str, words: tuple[str, ...] = _DIGIT_WORDS) -> str:
    return " ".join(words[int(c)] for c in digits)


def _script_digits(value: str, zero: int) -> str:
    """``value`` with its ASCII digits written in the digits of a script (``zero`` is its 0)."""
    return "".join(chr(zero + int(c)) if c.isdigit() else c for c in value)


def _dob() -> tuple[int, int, int]:
    return _RNG.randrange(1958, 2003), _RNG.randrange(1, 13), _RNG.randrange(1, 29)


def _b64(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.b64encode(raw).decode()


def _b64url(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _jwt(payload: dict[str, object], alg: str = "HS256") -> str:
    head = _b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")))
    body = _b64url(json.dumps(payload, separators=(",", ":")))
    return f"{head}.{body}.{_t(43 if alg.startswith('HS') else 86, _URLSAFE)}"


def _s(family: str, text: str, *secrets: str) -> Sample:
    """A sample; each secret is in its text, and nowhere but where it was planted."""
    assert secrets, family
    rest = text.lower()
    for secret in sorted(secrets, key=len, reverse=True):
        assert secret and secret in text, (family, secret)
        rest = rest.replace(secret.lower(), "\0")
    assert not [s for s in secrets if s.lower() in rest], (family, secrets)
    return Sample(family, text, tuple(secrets))


def _x(family: str, text: str) -> Lookalike:
    return Lookalike(family, text)


# --- check digits (the published rules, written out: the module needs nothing installed) ---


def _luhn(body: str) -> str:
    """The Luhn check digit to append to ``body``."""
    total = 0
    for i, c in enumerate(reversed(body)):
        n = int(c) * (2 if i % 2 == 0 else 1)
        total += n - 9 if n > 9 else n
    return str((10 - total % 10) % 10)


def _card(prefix: str, length: int = 16) -> str:
    body = prefix + _d(length - len(prefix) - 1)
    return body + _luhn(body)


def _iban(country: str, bban: str) -> str:
    """An IBAN with its ISO 7064 mod 97-10 check digits."""
    digits = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _nie() -> str:
    """A Spanish NIE: X, Y or Z, seven digits and the mod 23 letter."""
    lead = _RNG.choice("XYZ")
    body = _d(7)
    return f"{lead}{body}" + "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(lead)) + body) % 23]


def _niss() -> str:
    """A Portuguese NISS (Segurança Social): eleven digits, the last a weighted check."""
    body = _RNG.choice("12") + _d(9)
    total = sum(int(c) * w for c, w in zip(body, (29, 23, 19, 17, 13, 11, 7, 5, 3, 2), strict=True))
    return body + str(9 - total % 10)


def _rvnr(initial: str, female: bool) -> str:
    """A German Rentenversicherungsnummer: area, birth date, initial, serial and check."""
    area = _RNG.choice(("12", "13", "15", "23", "24", "28", "53", "65"))
    y, m, d = _dob()
    serial = f"{_RNG.randrange(50, 100) if female else _RNG.randrange(0, 50):02d}"
    born = f"{d:02d}{m:02d}{y % 100:02d}"
    digits = area + born + f"{ord(initial) - 64:02d}" + serial
    weights = (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1)
    total = sum(sum(map(int, str(int(c) * w))) for c, w in zip(digits, weights, strict=True))
    return f"{area} {born} {initial} {serial}{total % 10}"


def _nip() -> str:
    """A Polish NIP: nine digits and the mod 11 check, written 123-456-78-90."""
    while True:
        body = _RNG.choice("123456789") + _d(8)
        check = sum(int(c) * w for c, w in zip(body, (6, 5, 7, 2, 3, 4, 5, 6, 7), strict=True)) % 11
        if check < 10:
            n = body + str(check)
            return f"{n[:3]}-{n[3:6]}-{n[6:8]}-{n[8:]}"


def _si_tax() -> str:
    """A Slovenian davčna številka: seven digits and the mod 11 check."""
    while True:
        body = _RNG.choice("123456789") + _d(6)
        check = 11 - sum(int(c) * w for c, w in zip(body, (8, 7, 6, 5, 4, 3, 2), strict=True)) % 11
        if check != 11:
            return body + str(check % 10)


def _ird() -> str:
    """A New Zealand IRD number with its check digit (primary and secondary weights)."""
    while True:
        base = f"{_RNG.randrange(1_000_000, 15_000_000):08d}"
        for weights in ((3, 2, 7, 6, 5, 4, 3, 2), (7, 4, 3, 2, 5, 2, 7, 6)):
            r = sum(int(c) * w for c, w in zip(base, weights, strict=True)) % 11
            check = 0 if r == 0 else 11 - r
            if check != 10:
                full = base + str(check)
                return f"{full[:3]}-{full[3:6]}-{full[6:]}"


def _dui() -> str:
    """A Salvadoran DUI: eight digits, a hyphen and the weighted check digit."""
    body = "0" + _d(7)
    total = sum(int(c) * (9 - i) for i, c in enumerate(body))
    return f"{body}-{(10 - total % 10) % 10}"


def _rg_sp() -> str:
    """A São Paulo RG with its mod 11 check (X for ten)."""
    body = _d(8)
    r = 11 - sum(int(c) * (i + 2) for i, c in enumerate(body)) % 11
    check = "X" if r == 10 else "0" if r == 11 else str(r)
    return f"{body[:2]}.{body[2:5]}.{body[5:]}-{check}"


def _pis() -> str:
    """A Brazilian PIS/PASEP/NIS number with its mod 11 check."""
    body = _RNG.choice("12") + _d(9)
    weights = (3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
    check = 11 - sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
    n = body + str(0 if check >= 10 else check)
    return f"{n[:3]}.{n[3:8]}.{n[8:10]}-{n[10]}"


def _hc_number() -> str:
    """A Northern Ireland H&C number: 320-399 and the NHS modulus 11 check."""
    while True:
        body = str(_RNG.randrange(320, 400)) + _d(6)
        check = 11 - sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11
        if check != 10:
            n = body + str(check % 11)
            return f"{n[:3]} {n[3:6]} {n[6:]}"


_TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def _tw_arc() -> str:
    """A Taiwanese resident certificate number of the 2021 format, with its check digit."""
    letter = _RNG.choice("ABEFH")
    body = _RNG.choice("89") + _d(7)
    code = _TW_LETTERS[letter]
    weights = (8, 7, 6, 5, 4, 3, 2, 1)
    total = code // 10 + code % 10 * 9 + sum(int(c) * w for c, w in zip(body, weights, strict=True))
    return f"{letter}{body}{(10 - total % 10) % 10}"


def _aprs_passcode(callsign: str) -> str:
    """The APRS-IS passcode of ``callsign`` (the published hash)."""
    value = 0x73E2
    call = callsign.upper()
    for i in range(0, len(call), 2):
        value ^= ord(call[i]) << 8
        if i + 1 < len(call):
            value ^= ord(call[i + 1])
    return str(value & 0x7FFF)


def _isbn13(body: str) -> str:
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _s10(body: str) -> str:
    """The UPU S10 check digit of an eight-digit parcel serial."""
    total = sum(int(c) * w for c, w in zip(body, (8, 6, 4, 2, 3, 5, 9, 7), strict=True))
    check = 11 - total % 11
    return body + str({10: 0, 11: 5}.get(check, check))


_ADLAM = dict(
    zip(
        "adlmbsprefioƴwnkyujchqgñtŋ",
        (
            0x1E922,
            0x1E923,
            0x1E924,
            0x1E925,
            0x1E926,
            0x1E927,
            0x1E928,
            0x1E92A,
            0x1E92B,
            0x1E92C,
            0x1E92D,
            0x1E92E,
            0x1E930,
            0x1E931,
            0x1E932,
            0x1E933,
            0x1E934,
            0x1E935,
            0x1E936,
            0x1E937,
            0x1E938,
            0x1E939,
            0x1E93A,
            0x1E93B,
            0x1E93C,
            0x1E93D,
        ),
        strict=True,
    )
)


def _adlam(latin: str) -> str:
    """Pulaar written in Adlam, letter for letter (long vowels and geminates doubled)."""
    return "".join(chr(_ADLAM[c]) if c in _ADLAM else c for c in latin)


# --- passwords in the prose of languages no earlier round uses ----------------------------

_PROSE = (
    ("Kirundi", "Ijambo ry'ibanga rya konte ya banki ni {p} — ntuharure uwundi."),
    ("Dholuo", "Password mara mar email en {p}, kik inyis ng'ato."),
    ("Xitsonga", "Rito ra xihundla ra Wi-Fi ya kaya i {p}, u nga byeli munhu."),
    ("Tshivenda", "Ipfi ḽa tshiphiri ḽa akhaunthu ndi {p}"),
    ("siSwati", "Iphasiwedi yami yemtsetfo ngu-{p}, ungayitjeli muntfu."),
    ("Chamorro", "Håfa adai! I password-hu para i email: {p}"),
    ("Marshallese", "Password eo aō ilo computer ej {p}"),
    ("Gilbertese", "Mauri! Au password n te Wi-Fi bon {p}"),
    ("Cook Islands Māori", "Kia orāna! Toku password no te Wi-Fi ko {p}"),
    ("Mapudungun", "Mari mari! Ñi password ta {p}, kimelnoaymi kiñe che."),
    ("Sranan Tongo", "Mi password fu a bank na {p}, no taigi nowan sma."),
    ("Alsatian", "S'Passwort fer's Wlan isch {p}, vergess's nit!"),
    ("Swiss German", "S'Passwort vom Router isch {p}, aber säg's niemertem."),
    ("Silesian", "Hasło do kōnta to je {p}, niy godej nikōmu."),
    ("Romani", "Miro password si {p}, na phen khanikaske."),
    ("Zazaki", "Şîfreyê hesabê mi {p} o, kesî rê mevace."),
    ("Udmurt", "Почтаын паролез {p}, нокинлы эн вера."),
    ("Meadow Mari", "Мыйын паролем {p}, иктылан ит ойло."),
    ("Võro", "Mu salasõna om {p}, ärq kõnõlgu kellegile."),
    ("Piedmontese", "La ciav ëd mia pòsta a l'é {p}, dislo a gnun."),
    ("Gascon", "Lo mot de passa de la mea bóstia qu'ei {p}, ne'u digas pas a degun."),
    ("Plautdietsch", "Daut Passwuat fe'm Computa es {p}, sajch daut kjeenem."),
    ("Hakka", "Ngâi-ke mi̍t-mâ he {p}, mò-hó kóng pûn ngìn thang."),
    ("Shanghainese", "阿拉屋里向 Wi-Fi 个密码是 {p}，侬勿要搭别人讲。"),
    ("Jeju", "우리 집 와이파이 비밀번호는 {p} 우다. 놈신디 굴지 맙서."),
    ("Banjar", "Password ulun {p}, jangan bapadah lawan siapa-siapa."),
    ("Kapampangan", "Ing password ku king bangku {p}, e mu sasabyan aliwa."),
    ("Chavacano", "El password mio na banco es {p}, no tu habla con otro."),
    ("Dari", "رمز عبور مه {p} اس، به کس نگو."),
    ("Kashmiri", "میون پاس ورڈ چھُ {p}، کانٛسہِ مَہ ونِو"),
    ("Saraiki", "میݙا پاسورڈ {p} ہے، کہیں کوں نہ ݙسائیں"),
    ("Sorani", "وشەی نهێنی ئیمەیڵەکەم {p}ە، بە کەسی مەڵێ."),
    ("Newari", "जिगु इमेल पासवर्ड {p} ख, सुयातं धाये मते।"),
    ("Sanskrit", "मम गुप्तशब्दः {p} अस्ति। कस्मैचित् मा वद।"),
)


def _prose_samples() -> list[Sample]:
    out: list[Sample] = []
    for _lang, template in _PROSE:
        p = _pw()
        out.append(_s("password prose", template.format(p=p), p))
    p = _pw()
    fula = _adlam("konngol suturo am ko")
    out.append(_s("password prose", f"{fula} {p}", p))
    p = _pw()
    out.append(_s("password prose", f"Pulaar: konngol suturo jaŋde am ko {p}, wata haal ɗum.", p))
    return out


# --- the languages the brief names, in shapes their earlier rounds did not give them -------


def _ni_number() -> str:
    """A UK National Insurance number: an allocated prefix, six digits and A-D."""
    while True:
        first = _RNG.choice("ABCEGHJKLMNOPRSTWXYZ")
        second = _RNG.choice("ABCEGHJKLMNPRSTWXYZ")
        if first + second not in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            break
    return f"{first}{second} {_d(2)} {_d(2)} {_d(2)} {_RNG.choice('ABCD')}"


def _iran_card() -> str:
    return _card(_RNG.choice(("603799", "610433", "627412", "589463")))


def _native_script_samples() -> list[Sample]:
    out: list[Sample] = []
    et_tin, et_acct = _d(10), "1000" + _d(9)
    out += [
        _s("local language", f"የግብር ከፋይ መለያ ቁጥሬ (TIN)፦ {et_tin} — ለአካውንታንቱ ላክ", et_tin),
        _s("local language", f"የንግድ ባንክ ሂሳብ ቁጥር፦ {et_acct}\nስም፦ ሰላማዊት", et_acct),
    ]
    ge_pn = _d(11)
    out += [
        _s("local language", f"პირადი ნომერი: {ge_pn} (ბინის ხელშეკრულებისთვის)", ge_pn),
    ]
    am_psn, am_phone = _d(10), _fill("+374 9# ######")
    out += [
        _s("local language", f"Հանրային ծառայությունների համարանիշս (ՀԾՀ)՝ {am_psn}", am_psn),
        _s("local language", f"Նարեի բջջայինը՝ {am_phone}, զանգիր երեկոյան", am_phone),
    ]
    kh_id = _script_digits("0" + _d(8), 0x17E0)
    kh_phone = _script_digits(_fill("012 ### ###"), 0x17E0)
    kh_acct = _fill("### ### ###")
    out += [
        _s("local language", f"លេខអត្តសញ្ញាណប័ណ្ណរបស់ខ្ញុំ៖ {kh_id}", kh_id),
        _s("local language", f"លេខទូរស័ព្ទបងស្រី៖ {kh_phone} (ហៅក្រោយម៉ោង៥)", kh_phone),
        _s("local language", f"គណនី ABA សម្រាប់ផ្ទេរប្រាក់ថ្លៃផ្ទះ៖ {kh_acct} ឈ្មោះ ស្រីពៅ", kh_acct),
    ]
    lk_pp = "N" + _d(7)
    out += [
        _s("local language", f"මගේ ගමන් බලපත්‍ර අංකය {lk_pp} — වීසා ෆෝම් එකට", lk_pp),
    ]
    ta_pin = _script_digits(_pin(), 0x0BE6)
    in_pp = _RNG.choice("JKLMNPRSTUVWZ") + _d(7)
    out += [
        _s("local language", f"அம்மாவின் ஏடிஎம் பின்: {ta_pin} (யாரிடமும் சொல்லாதே)", ta_pin),
        _s("local language", f"கடவுச்சீட்டு எண் {in_pp}, காலாவதி 2031", in_pp),
    ]
    il_dl = _d(7)
    out += [
        _s("local language", f"מספר רישיון נהיגה שלי: {il_dl} (לטופס ההשכרה)", il_dl),
    ]
    ir_card = _iran_card()
    ir_card_fa = _script_digits("-".join(_grouped(ir_card).split()), 0x06F0)
    ir_pin2 = _script_digits(_d(8), 0x06F0)
    ir_cvv = _script_digits(_d(4), 0x06F0)
    out += [
        _s(
            "local language",
            f"شماره کارت: {ir_card_fa}\nرمز دوم: {ir_pin2}\nسی‌وی‌وی۲: {ir_cvv}",
            ir_card_fa,
            ir_pin2,
            ir_cvv,
        ),
    ]
    pk_ntn = f"{_d(7)}-{_d(1)}"
    out += [
        _s("local language", f"میرا این ٹی این نمبر {pk_ntn} ہے، ٹیکس ریٹرن کے لیے", pk_ntn),
    ]
    tz_tin, ke_pp = _fill("1##-###-###"), "AK" + _d(7)
    out += [
        _s("local language", f"Namba yangu ya TIN ya TRA ni {tz_tin}, usiisahau.", tz_tin),
        _s("local language", f"Namba ya pasipoti ya Baraka: {ke_pp} (inaisha 2030)", ke_pp),
    ]
    vin = f"90F5{_t(4, _UHEX)}{_d(11)}"
    out += [
        _s("local language", f"Nọ́mbà VIN káàdì ìdìbò mi: {vin}", vin),
    ]
    is_pin, is_phone = _pin(), _fill("+354 6## ####")
    out += [
        _s(
            "local language",
            f"PIN-númerið fyrir rafrænu skilríkin er {is_pin}, ekki segja neinum.",
            is_pin,
        ),
        _s("local language", f"Farsíminn hjá Guðrúnu: {is_phone}", is_phone),
    ]
    nie = _nie()
    out += [
        _s(
            "local language",
            f"Atzerritarraren identifikazio-zenbakia (NIE): {nie} — Osakidetzarako",
            nie,
        ),
    ]
    ni = _ni_number()
    out += [
        _s(
            "local language",
            f"Rhif Yswiriant Gwladol Mam-gu: {ni} (ar gyfer y ffurflen bensiwn)",
            ni,
        ),
    ]
    mt_id, mt_phone = f"{_d(6)}{_RNG.choice('MGAL')}", _fill("+356 79## ####")
    out += [
        _s("local language", f"In-numru tal-karta tal-identità tiegħi hu {mt_id}", mt_id),
        _s("local language", f"In-numru tal-mowbajl ta' Marija: {mt_phone}", mt_phone),
    ]
    return out


def _native_digit_samples() -> list[Sample]:
    out: list[Sample] = []
    th = _script_digits(_fill("08# ### ####"), 0x0E50)
    out.append(_s("native digits", f"เบอร์มือถือพี่สาว {th} โทรหลังหกโมง", th))
    lo = _script_digits(_fill("020 5### ####"), 0x0ED0)
    out.append(_s("native digits", f"ເບີໂທຂອງແມ່: {lo}", lo))
    my = _script_digits(_fill("09 7## ### ###"), 0x1040)
    out.append(_s("native digits", f"ကျွန်တော့်ဖုန်းနံပါတ် {my} ပါ။", my))
    bo = _script_digits(_pin(), 0x0F20)
    out.append(_s("native digits", f"ATM གསང་ཨང་ནི་ {bo} ཡིན།", bo))
    hi = _script_digits(_pin(6), 0x0966)
    out.append(_s("native digits", f"पापा का यूपीआई पिन {hi} है, किसी को मत बताना", hi))
    gu = _script_digits(_d(14), 0x0AE6)
    out.append(_s("native digits", f"મારો બેંક ખાતા નંબર {gu} છે (IFSC નીચે લખ્યો છે)", gu))
    od = _script_digits(_fill("9### ### ###"), 0x0B66)
    out.append(_s("native digits", f"ମୋ ମୋବାଇଲ ନମ୍ବର {od}", od))
    te = _script_digits(_d(6), 0x0C66)
    out.append(_s("native digits", f"మీ ఓటీపీ {te}. దీన్ని ఎవరితోనూ పంచుకోవద్దు.", te))
    nko = _script_digits(_pin(), 0x07C0)
    out.append(_s("native digits", f"ߊ߬ ߞߏ߬ PIN ߦߋ߫ {nko} ߘߌ߫", nko))
    adl = _script_digits(_fill("62# ## ## ##"), 0x1E950)
    out.append(_s("native digits", f"{_adlam('limoore njaatigi am')}: {adl}", adl))
    jv = _script_digits(_pin(6), 0xA9D0)
    out.append(_s("native digits", f"PIN m-banking ꦏꦸꦮꦶ {jv}", jv))
    mixed = _fill("+880 17## ######")
    mixed_shown = mixed[:8] + _script_digits(mixed[8:], 0x09E6)
    out.append(
        _s(
            "native digits",
            f"Rafiq bhai er number: {mixed_shown} (half Bangla, half English)",
            mixed_shown,
        )
    )
    return out


# --- national numbers no earlier round holds -----------------------------------------------


def _national_samples() -> list[Sample]:
    out: list[Sample] = []
    nie1 = _nie()
    out.append(
        _s(
            "national number",
            f"Cita en extranjería: mi NIE es {nie1}, llevar el TIE caducado",
            nie1,
        )
    )
    ni1 = _niss()
    out += [
        _s(
            "national number",
            f"Número de Segurança Social (NISS): {ni1} — para o recibo verde",
            ni1,
        ),
    ]
    sns = "2" + _d(8)
    out.append(
        _s("national number", f"Nº de utente do SNS do avô: {sns} (centro de saúde de Tavira)", sns)
    )
    rv1, rv2 = _rvnr("M", False), _rvnr("K", True)
    out += [
        _s("national number", f"Rentenversicherungsnummer (steht auf dem SV-Ausweis): {rv1}", rv1),
        _s(
            "national number",
            f"Für den neuen Arbeitgeber — Sozialversicherungsnr. von Katrin: {rv2.replace(' ', '')}",
            rv2.replace(" ", ""),
        ),
    ]
    nip = _nip()
    out.append(_s("national number", f"Faktura na JDG: NIP {nip}, adres jak w CEIDG", nip))
    dav = _si_tax()
    out.append(_s("national number", f"Davčna številka (za dohodnino): {dav}", dav))
    ird1 = _ird()
    out += [
        _s("national number", f"IRD number for the new job's tax code form: {ird1}", ird1),
    ]
    dui = _dui()
    out.append(_s("national number", f"Para el trámite en la alcaldía: DUI {dui}", dui))
    rg, pis = _rg_sp(), _pis()
    out += [
        _s("national number", f"RG da minha mãe (SSP/SP): {rg}, emitido em 2009", rg),
        _s("national number", f"PIS/PASEP pra sacar o abono: {pis}", pis),
    ]
    hc = _hc_number()
    out.append(
        _s("national number", f"GP registration (Belfast) — Health and Care number {hc}", hc)
    )
    arc = _tw_arc()
    out.append(_s("national number", f"居留證統一證號（新式）：{arc}，健保卡也是這個號碼", arc))
    ge = _d(11)
    out.append(_s("national number", f"Georgian personal no. for the rental contract: {ge}", ge))
    az = _t(7, "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ")
    out.append(_s("national number", f"Şəxsiyyət vəsiqəsinin FİN kodu: {az}", az))
    y, m, d = _dob()
    by = f"{_RNG.choice('56' if y >= 2000 else '34')}{d:02d}{m:02d}{y % 100:02d}{_RNG.choice('ABCHKEM')}{_d(3)}PB{_d(1)}"
    out.append(_s("national number", f"Идентификационный номер (паспорт РБ): {by}", by))
    y, m, d = _dob()
    kg = f"{_RNG.choice('12')}{d:02d}{m:02d}{y}{_d(5)}"
    out.append(_s("national number", f"ПИН (жеке номер) для госуслуг: {kg}", kg))
    cy = _d(8) + _RNG.choice(string.ascii_uppercase)
    out.append(_s("national number", f"Αριθμός Φορολογικής Ταυτότητας (ΑΦΤ): {cy}", cy))
    y, m, d = _dob()
    qa = f"{3 if y >= 2000 else 2}{y % 100:02d}{_RNG.choice(('634', '356', '586', '608'))}{_d(5)}"
    out.append(_s("national number", f"QID for the Hamad health card renewal: {qa}", qa))
    y, m, d = _dob()
    om = _d(8)
    out.append(_s("national number", f"الرقم المدني: {om} — لتجديد البطاقة", om))
    tn = _RNG.choice("01") + _d(7)
    out.append(_s("national number", f"Numéro de CIN (Tunisie) : {tn}, délivrée à Sfax", tn))
    dz = _d(18)
    out.append(_s("national number", f"رقم التعريف الوطني (NIN): {dz}", dz))
    bw = f"{_d(4)}{_RNG.choice('12')}{_d(4)}"
    out.append(_s("national number", f"Omang number (Botswana): {bw}", bw))
    y, m, d = _dob()
    y, m, d = _dob()
    bj = _d(10)
    out.append(_s("national number", f"Numéro Personnel d'Identification (NPI, Bénin) : {bj}", bj))
    np_nin, np_cit = _d(10), f"{_d(2)}-{_d(2)}-{_d(2)}-{_d(5)}"
    out += [
        _s("national number", f"राष्ट्रिय परिचयपत्र नम्बर (NIN): {np_nin}", np_nin),
        _s("national number", f"नागरिकता प्रमाणपत्र नं. {np_cit}, जिल्ला काठमाडौं", np_cit),
    ]
    mv = "A" + _d(6)
    out.append(_s("national number", f"ID card number (Maldives): {mv}", mv))
    af = f"{_RNG.choice(('1398', '1399', '1400', '1401'))}-{_d(4)}-{_d(5)}"
    out.append(_s("national number", f"شماره تذکره الکترونیکی: {af}", af))
    mo = f"{_RNG.choice('1578')}{_d(6)}({_d(1)})"
    out.append(_s("national number", f"澳門居民身份證號碼：{mo}", mo))
    jp_rc = f"{_t(2, string.ascii_uppercase)}{_d(8)}{_t(2, string.ascii_uppercase)}"
    jp_pen = f"{_d(4)}-{_d(6)}"
    out += [
        _s("national number", f"在留カード番号：{jp_rc}（更新期限 2033/04/11）", jp_rc),
        _s("national number", f"基礎年金番号 {jp_pen} — ねんきん定期便より", jp_pen),
    ]
    y, m, d = _dob()
    kr_dl = f"{_RNG.choice(('11', '12', '13', '28'))}-{y % 100:02d}-{_d(6)}-{_d(2)}"
    out.append(_s("national number", f"운전면허번호: {kr_dl} (렌터카 예약용)", kr_dl))
    y, m, d = _dob()
    ine = (
        _t(6, "BCDFGHJKLMNPRSTVZ")
        + f"{y % 100:02d}{m:02d}{d:02d}{_RNG.randrange(1, 33):02d}{_RNG.choice('HM')}{_d(3)}"
    )
    out.append(_s("national number", f"Clave de elector (credencial INE): {ine}", ine))
    hn = f"0801-{_RNG.randrange(1960, 2003)}-{_d(5)}"
    out.append(_s("national number", f"Número de identidad (RNP): {hn}", hn))
    jm = _fill("1##-###-###")
    out.append(_s("national number", f"TRN for the NHT form: {jm}", jm))
    uan = "10" + _d(10)
    out.append(_s("national number", f"EPFO UAN for the PF transfer: {uan}", uan))
    cie = f"C{_RNG.choice('ABD')}{_d(5)}{_t(2, string.ascii_uppercase)}"
    out.append(_s("national number", f"Numero della carta d'identità elettronica: {cie}", cie))
    us_pp, ktn = _RNG.choice("ACEF") + _d(8), "98" + _d(7)
    out += [
        _s("national number", f"Passport # (renewed, the old one is void): {us_pp}", us_pp),
        _s("national number", f"Known Traveler Number for the airline profile: {ktn}", ktn),
    ]
    return out


# --- phone numbers of countries no earlier round names --------------------------------------

_FR_DIGITS = tuple("zéro un deux trois quatre cinq six sept huit neuf".split())
_ES_DIGITS = tuple("cero uno dos tres cuatro cinco seis siete ocho nueve".split())
_PT_DIGITS = tuple("zero um dois três quatro cinco seis sete oito nove".split())

_PHONES = (
    ("cyprus", "Κινητό της Ελένης: {n}", "+357 99 ######"),
    ("albania", "Numri i celularit të Arbenit: {n}", "+355 69 ### ####"),
    ("belarus", "Мой мобильный (МТС, Минск): {n}", "+375 29 ###-##-##"),
    ("azerbaijan", "Leylanın mobil nömrəsi: {n}", "+994 50 ### ## ##"),
    ("turkmenistan", "Mähriniň telefon belgisi: {n}", "+993 65 ## ## ##"),
    ("bolivia", "Celular de la tía Carmen (Entel): {n}", "+591 7### ####"),
    ("venezuela", "Mi número nuevo (Movistar): {n}", "+58 414-#######"),
    ("panama", "WhatsApp de la señora del apartamento: {n}", "+507 6###-####"),
    ("haiti", "Nimewo telefòn Wideline: {n}", "+509 3# ## ####"),
    ("suriname", "Mi nummer fu Shanti: {n}", "+597 8##-####"),
    ("greenland", "Aqqalu-p oqarasuaataa: {n}", "+299 5# ## ##"),
    ("faroe islands", "Fartelefonnummarið hjá Rógva: {n}", "+298 2# ## ##"),
    ("jordan", "رقم ليث (زين): {n}", "+962 7 9### ####"),
    ("lebanon", "رقم خلوي رنا: {n}", "+961 71 ### ###"),
    ("algeria", "Numéro d'Amina (Mobilis) : {n}", "+213 6 6# ## ## ##"),
    ("senegal", "Numéro de Fatou (Orange) : {n}", "+221 77 ### ## ##"),
    ("cote d'ivoire", "Le numéro de Koffi : {n}", "+225 07 ## ## ## ##"),
    ("cameroon", "Numéro de Brice (MTN) : {n}", "+237 6 7# ## ## ##"),
    ("drc", "Numéro de Papa Jean (Vodacom) : {n}", "+243 81 ### ####"),
    ("somalia", "Lambarka Hodan (Hormuud): {n}", "+252 61 #######"),
    ("bhutan", "Karma's mobile (B-Mobile): {n}", "+975 17 ## ## ##"),
    ("maldives", "Aishath's mobile (Dhiraagu): {n}", "+960 7## ####"),
)


def _phone_samples() -> list[Sample]:
    out: list[Sample] = []
    for _country, template, pattern in _PHONES:
        n = _fill(pattern)
        out.append(_s("phone", template.format(n=n), n))
    fr = _fill("06########")
    fr_words = _spell(fr, _FR_DIGITS)
    out.append(
        _s(
            "phone spoken",
            f"(note vocale) rappelle Mireille au {fr_words}, c'est son portable",
            fr_words,
        )
    )
    es = _fill("6########")
    es_words = _spell(es, _ES_DIGITS)
    out.append(_s("phone spoken", f"el móvil de Lucía es {es_words}, apúntalo", es_words))
    pt = _fill("9########")
    pt_words = _spell(pt, _PT_DIGITS)
    out.append(_s("phone spoken", f"o telemóvel do Rui é {pt_words}", pt_words))
    return out


# --- keys of vendors no earlier round names, in the shapes those vendors issue -------------


def _vendor_ai_samples() -> list[Sample]:
    groq = "gsk_" + _t(52)
    rep = "r8_" + _t(37)
    pplx = "pplx-" + _t(48)
    orr = "sk-or-v1-" + _t(64, _HEX)
    xai = "xai-" + _t(80)
    dg = _t(40, _HEX)
    pc = f"pcsk_{_t(6)}_{_t(63)}"
    ls = f"lsv2_pt_{_t(32, _HEX)}_{_t(10, _HEX)}"
    mod_id, mod_secret = "ak-" + _t(22), "as-" + _t(22)
    return [
        _s("vendor key", f"GROQ_API_KEY={groq}\n# free tier, llama-3.3-70b", groq),
        _s("vendor key", f"replicate: export REPLICATE_API_TOKEN={rep}", rep),
        _s("vendor key", f"perplexity key for the research bot → {pplx}", pplx),
        _s(
            "vendor key",
            f'client = OpenAI(base_url="https://openrouter.ai/api/v1", api_key="{orr}")',
            orr,
        ),
        _s("vendor key", f"xAI console gave me {xai} (grok, team 'lab')", xai),
        _s(
            "vendor key",
            f'curl -X POST -H "Authorization: Token {dg}" --data-binary @call.wav https://api.deepgram.com/v1/listen',
            dg,
        ),
        _s("vendor key", f'pc = Pinecone(api_key="{pc}")', pc),
        _s("vendor key", f"LANGSMITH_TRACING=true\nLANGSMITH_API_KEY={ls}", ls),
        _s(
            "vendor key",
            f"modal token set --token-id {mod_id} --token-secret {mod_secret}",
            mod_secret,
        ),
    ]


def _vendor_cloud_samples() -> list[Sample]:
    nfp = "nfp_" + _t(36)
    hz = _t(64)
    ovh_ak, ovh_as, ovh_ck = _t(16), _t(32), _t(32)
    ibm = _t(44, _URLSAFE)
    ak_ct = f"akab-{_t(16, _LOWER)}-{_t(16, _LOWER)}"
    ak_at = f"akab-{_t(16, _LOWER)}-{_t(16, _LOWER)}"
    ak_cs = _t(43, _B64) + "="
    alg = _t(32, _HEX)
    proxmox = _uuid()
    truenas = "1-" + _t(64)
    return [
        _s("vendor key", f"netlify deploy --auth {nfp} --prod", nfp),
        _s("vendor key", f"hcloud context create homelab\nToken: {hz}", hz),
        _s(
            "vendor key",
            f"[ovh-eu]\napplication_key={ovh_ak}\napplication_secret={ovh_as}\nconsumer_key={ovh_ck}",
            ovh_as,
            ovh_ck,
        ),
        _s("vendor key", f"ibmcloud login --apikey {ibm} -r eu-de", ibm),
        _s(
            "vendor key",
            f"[default]\nclient_secret = {ak_cs}\nhost = akab-{_t(16, _LOWER)}.luna.akamaiapis.net\naccess_token = {ak_at}\nclient_token = {ak_ct}",
            ak_cs,
            ak_at,
            ak_ct,
        ),
        _s("vendor key", f"ALGOLIA_APP_ID=Q7{_t(8, _UPPER)}\nALGOLIA_ADMIN_KEY={alg}", alg),
        _s(
            "vendor key",
            f"Authorization: PVEAPIToken=root@pam!terraform={proxmox}",
            proxmox,
        ),
        _s("vendor key", f"TrueNAS API key (created for the backup script): {truenas}", truenas),
    ]


def _vendor_payment_samples() -> list[Sample]:
    paddle = f"pdl_live_apikey_01{_t(24, _LOWER)}_{_t(22)}_{_t(3)}"
    adyen = f"AQE{_t(96, _B64)}==-{_t(43, _B64)}=-{_t(16)}"
    cko = "sk_" + _t(26, _B32L) + _t(1, _LOWER)
    paystack = "sk_live_" + _t(40, _HEX)
    wise = _uuid()
    anet_id, anet_key = _t(10, _UPPER), _t(16, _UPPER)
    pf_id, pf_key, pf_pass = _d(8), _t(13, _LOWER), _pw()
    omise = "skey_" + _t(19, _LOWER)
    up = "up:yeah:" + _t(128)
    akahu_u, akahu_a = "user_token_" + _t(40, _LOWER), "app_token_" + _t(40, _LOWER)
    return [
        _s("vendor key", f"PADDLE_API_KEY={paddle}", paddle),
        _s("vendor key", f"X-API-Key: {adyen}", adyen),
        _s("vendor key", f"checkout.com secret key (prod): {cko}", cko),
        _s(
            "vendor key",
            f"PAYSTACK_SECRET_KEY={paystack}\nPAYSTACK_CALLBACK=https://shop.example.ng/cb",
            paystack,
        ),
        _s("vendor key", f"Wise personal API token (read only): {wise}", wise),
        _s(
            "vendor key",
            f"Authorize.Net sandbox → prod:\nAPI Login ID: {anet_id}\nTransaction Key: {anet_key}",
            anet_key,
        ),
        _s(
            "vendor key",
            f"merchant_id={pf_id}&merchant_key={pf_key}&passphrase={pf_pass}  (PayFast ITN)",
            pf_key,
            pf_pass,
        ),
        _s("vendor key", f"OMISE_SECRET_KEY={omise}", omise),
        _s("vendor key", f"Up Bank personal access token: {up}", up),
        _s(
            "vendor key",
            f"curl https://api.akahu.io/v1/accounts -H 'Authorization: Bearer {akahu_u}' -H 'X-Akahu-Id: {akahu_a}'",
            akahu_u,
        ),
    ]


def _vendor_crypto_samples() -> list[Sample]:
    bin_k, bin_s = _t(64), _t(64)
    alc = _t(32, _URLSAFE)
    return [
        _s("vendor key", f"binance:\n  apiKey: {bin_k}\n  secret: {bin_s}", bin_k, bin_s),
        _s("vendor key", f"RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{alc}", alc),
    ]


def _vendor_saas_samples() -> list[Sample]:
    intercom = _b64(f"tok:{_uuid()}:1:0").rstrip("=")
    zd = _t(40)
    sanity = "sk" + _t(180)
    axiom = "xaat-" + _uuid()
    pd_key, pd_route = "u+" + _t(18, _URLSAFE), _t(32, _HEX)
    deepl = _uuid() + ":fx"
    infobip = f"{_t(32, _HEX)}-{_uuid()}"
    mandrill = "md-" + _t(22, _URLSAFE)
    klaviyo = "pk_" + _t(34, _HEX)
    close = f"api_{_t(22)}.{_t(22)}"
    zoho = f"1000.{_t(32, _HEX)}.{_t(32, _HEX)}"
    yt = f"perm:{_b64('ops-bot')}.{_b64('49-12')}.{_t(30)}"
    pmak = f"PMAK-{_t(24, _HEX)}-{_t(34, _HEX)}"
    quay = _t(64, _UPPER)
    forgejo = _t(40, _HEX)
    lwa = "Atzr|IwEBI" + _t(200, _URLSAFE)
    return [
        _s("vendor key", f"Intercom access token: {intercom}", intercom),
        _s(
            "vendor key",
            f"curl -u ops@shop.example/token:{zd} https://shop.zendesk.com/api/v2/tickets.json",
            zd,
        ),
        _s("vendor key", f"SANITY_AUTH_TOKEN={sanity}", sanity),
        _s("vendor key", f"AXIOM_TOKEN={axiom}", axiom),
        _s(
            "vendor key",
            f"PagerDuty REST key {pd_key}, events integration key {pd_route}",
            pd_key,
            pd_route,
        ),
        _s("vendor key", f"DeepL API Free key: {deepl}", deepl),
        _s("vendor key", f"Authorization: App {infobip}", infobip),
        _s("vendor key", f"mandrill key (transactional): {mandrill}", mandrill),
        _s("vendor key", f"Klaviyo private API key — despite the prefix: {klaviyo}", klaviyo),
        _s("vendor key", f"curl -u {close}: https://api.close.com/api/v1/me/", close),
        _s("vendor key", f"zoho refresh_token={zoho}", zoho),
        _s("vendor key", f"Authorization: Bearer {yt}\n# YouTrack permanent token", yt),
        _s("vendor key", f"POSTMAN_API_KEY={pmak}", pmak),
        _s("vendor key", f"docker login -u='acme+deploybot' -p='{quay}' quay.io", quay),
        _s("vendor key", f"codeberg access token (repo write): {forgejo}", forgejo),
        _s("vendor key", f"SP-API refresh_token={lwa}", lwa),
    ]


def _vendor_misc_samples() -> list[Sample]:
    netbox = f"nbt_{_t(12)}.{_t(40)}"
    paperless = _t(40, _HEX)
    gotify = "A" + _t(14, _URLSAFE)
    hc_ping = _uuid()
    steam = _t(32, _UHEX)
    roblox = (
        "_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-ROBUX-and-items.|_"
        + _t(320, _UHEX)
    )
    maxmind = f"{_t(6)}_{_t(29)}_mmk"
    duo_i, duo_s = "DI" + _t(18, _UPPER), _t(40)
    ten_a, ten_s = _t(64, _HEX), _t(64, _HEX)
    vt = _t(64, _HEX)
    ops = "ops_" + _b64url(
        json.dumps(
            {
                "signInAddress": "my.1password.eu",
                "userAuth": {"method": "SRPg-4096"},
                "email": f"{_t(26, _LOWER)}@1passwordserviceaccounts.eu",
                "srpX": _t(64, _HEX),
            }
        )
    )
    fmu = f"fmu1-{_t(8, _HEX)}-{_t(32, _HEX)}-0-{_t(32, _HEX)}"
    eab_kid, eab_hmac = _t(22, _URLSAFE), _t(86, _URLSAFE)
    turso = _jwt({"a": "rw", "iat": 1931234567, "id": _uuid()}, "EdDSA")
    upstash = "AX" + _t(78, _B64) + "="
    convex = f"prod:happy-otter-{_d(3)}|{_t(88, _URLSAFE)}"
    prisma = _jwt({"api_key": _uuid(), "tenant_id": _t(64, _HEX), "internal_secret": _uuid()})
    return [
        _s("vendor key", f"NETBOX_TOKEN={netbox}", netbox),
        _s(
            "vendor key",
            f"Authorization: Token {paperless}  (paperless-ngx, for the scanner)",
            paperless,
        ),
        _s(
            "vendor key",
            f'curl "https://push.home.example/message?token={gotify}" -F title=backup -F message=done',
            gotify,
        ),
        _s(
            "vendor key",
            f"0 3 * * * /usr/local/bin/backup.sh && curl -fsS -m 10 https://hc-ping.com/{hc_ping}",
            hc_ping,
        ),
        _s("vendor key", f"Steam Web API key (for the stats bot): {steam}", steam),
        _s("vendor key", f"cookie .ROBLOSECURITY={roblox}", roblox),
        _s(
            "vendor key",
            f"GeoIP.conf\nAccountID {_d(6)}\nLicenseKey {maxmind}\nEditionIDs GeoLite2-City",
            maxmind,
        ),
        _s(
            "vendor key",
            f"[duo]\nikey = {duo_i}\nskey = {duo_s}\nhost = api-{_t(8, _HEX)}.duosecurity.com",
            duo_s,
        ),
        _s("vendor key", f"X-ApiKeys: accessKey={ten_a}; secretKey={ten_s}", ten_a, ten_s),
        _s("vendor key", f"x-apikey: {vt}", vt),
        _s("vendor key", f"OP_SERVICE_ACCOUNT_TOKEN={ops}", ops),
        _s("vendor key", f"Fastmail API token (JMAP, read-only mail): {fmu}", fmu),
        _s(
            "vendor key",
            f"certbot register --server https://acme.zerossl.com/v2/DV90 --eab-kid {eab_kid} --eab-hmac-key {eab_hmac}",
            eab_hmac,
        ),
        _s("vendor key", f"DATABASE_URL=libsql://notes-ops.turso.io?authToken={turso}", turso),
        _s(
            "vendor key",
            f"UPSTASH_REDIS_REST_URL=https://eu1-sharp-cod-{_d(5)}.upstash.io\nUPSTASH_REDIS_REST_TOKEN={upstash}",
            upstash,
        ),
        _s("vendor key", f"CONVEX_DEPLOY_KEY={convex}", convex),
        _s(
            "vendor key",
            f'DATABASE_URL="prisma://accelerate.prisma-data.net/?api_key={prisma}"',
            prisma,
        ),
    ]


def _vendor_env_samples() -> list[Sample]:
    """Whole ``.env`` files a migrating user pastes into a note, several vendors in each."""
    mis, tog, fw, aai = _t(32), "tgp_v1_" + _t(43, _URLSAFE), "fw_" + _t(24), _t(32, _HEX)
    wompi, conekta = "prv_prod_" + _t(32), "key_" + _t(22)
    moyasar, cashfree = "sk_live_" + _t(40), f"cfsk_ma_prod_{_t(32, _HEX)}_{_t(8, _HEX)}"
    shodan, abuse, hunter = _t(32), _t(80, _HEX), _t(40, _HEX)
    return [
        _s(
            "vendor key",
            f"# ~/code/agent/.env (copied off the old laptop)\nMISTRAL_API_KEY={mis}\nTOGETHER_API_KEY={tog}\nFIREWORKS_API_KEY={fw}\nASSEMBLYAI_API_KEY={aai}\nLOG_LEVEL=debug",
            mis,
            tog,
            fw,
            aai,
        ),
        _s(
            "vendor key",
            f"# payments/.env.production\nWOMPI_PRIVATE_KEY={wompi}\nCONEKTA_PRIVATE_KEY={conekta}\nMOYASAR_SECRET_KEY={moyasar}\nCASHFREE_SECRET={cashfree}",
            wompi,
            conekta,
            moyasar,
            cashfree,
        ),
        _s(
            "vendor key",
            f"[recon]\nshodan = {shodan}\nabuseipdb = {abuse}\nhunter = {hunter}",
            shodan,
            abuse,
            hunter,
        ),
    ]


# --- bank codes on paper, vouchers and IBANs of countries no earlier round holds ----------


def _codes(n: int, length: int) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        c = _pin(length)
        if all(c not in o and o not in c for o in out):
            out.append(c)
    return out


def _bank_paper_samples() -> list[Sample]:
    out: list[Sample] = []
    t = _codes(3, 6)
    out.append(
        _s(
            "bank login",
            f"iTAN-Liste der Sparkasse (Bogen 4), für Mama abgetippt:\n017  {t[0]}\n018  {t[1]}\n019  {t[2]}",
            *t,
        )
    )
    k = _codes(2, 6)
    out.append(
        _s(
            "bank login",
            f"Nøglekort (det gamle NemID, til banken i Fredericia):\n3462 → {k[0]}\n7781 → {k[1]}",
            *k,
        )
    )
    fi_user, fi_pw = _d(8), _pw()
    fi_codes = _codes(2, 4)
    out.append(
        _s(
            "bank login",
            f"Pankkitunnukset (mummo): käyttäjätunnus {fi_user}, salasana {fi_pw}\ntunnusluku 045: {fi_codes[0]}, 112: {fi_codes[1]}",
            fi_pw,
            *fi_codes,
        )
    )
    kr = _codes(3, 4)
    out.append(
        _s(
            "bank login",
            f"아빠 보안카드 (사진 대신 적어둠)\n07번: {kr[0]}\n18번: {kr[1]}\n29번: {kr[2]}",
            *kr,
        )
    )
    jp = _codes(2, 4)
    out.append(_s("bank login", f"ネットバンキングの乱数表 A-3: {jp[0]} / C-7: {jp[1]}", *jp))
    cn = _pin(6)
    out.append(_s("bank login", f"妈妈的支付宝支付密码是 {cn}，别告诉别人", cn))
    ipin = _pw()
    out.append(
        _s("bank login", f"NetBanking — Customer ID {_d(8)}, IPIN (changed today): {ipin}", ipin)
    )
    return out


def _voucher_samples() -> list[Sample]:
    amz = f"{_t(4, _UPPER)}-{_t(6, _UPPER)}-{_t(5, _UPPER)}"
    gplay = _t(20, _UPPER)
    apple = "X" + _t(15, _UPPER)
    steam = f"{_t(5, _UPPER)}-{_t(5, _UPPER)}-{_t(5, _UPPER)}"
    psc = _grouped(_d(16))
    sbux_card, sbux_code = _grouped(_d(16)), _d(8)
    return [
        _s(
            "gift card",
            f"Amazon gift card from the raffle — claim code {amz}, not redeemed yet",
            amz,
        ),
        _s("gift card", f"Google Play code for Lina's birthday: {gplay}", gplay),
        _s("gift card", f"Apple Gift Card (scratched): {apple}", apple),
        _s("gift card", f"steam key from the bundle — {steam} (Hades II)", steam),
        _s("gift card", f"paysafecard PIN (50 €): {psc}", psc),
        _s(
            "gift card",
            f"Starbucks card {sbux_card}, security code {sbux_code} — balance 25",
            sbux_card,
            sbux_code,
        ),
    ]


def _iban_samples() -> list[Sample]:
    ly = _iban("LY", _d(21))
    dj = _iban("DJ", _d(23))
    so = _iban("SO", _d(19))
    ni = _iban("NI", "BAPR" + _d(20))
    ru = _iban("RU", "04" + _d(27))
    om = _iban("OM", _d(3) + _t(16, _UPPER))
    hn = _iban("HN", "CABF" + _d(20))
    return [
        _s("iban", f"رقم الآيبان في مصرف الجمهورية: {ly}", ly),
        _s("iban", f"IBAN pour le loyer (Djibouti) : {_grouped(dj)}", _grouped(dj)),
        _s("iban", f"Lambarka IBAN-ka ee Premier Bank: {so}", so),
        _s("iban", f"Transferencia a Managua — IBAN {ni}", ni),
        _s("iban", f"IBAN для перевода (Россия): {ru}", ru),
        _s("iban", f"رقم الآيبان العماني: {om}", om),
        _s("iban", f"Cuenta en Tegucigalpa, IBAN {_grouped(hn)}", _grouped(hn)),
    ]


# --- command lines no earlier round names: admin tools and the attacker's kit --------------


def _ntlm() -> str:
    return _t(32, _HEX)


def _cli_samples() -> list[Sample]:
    pw = [_pw() for _ in range(30)]
    nt1, nt2, lm = _ntlm(), _ntlm(), "aad3b435b51404eeaad3b435b51404ee"
    ntlmv2 = f"svc_backup::CORP:{_t(16, _HEX)}:{_t(32, _HEX)}:{_t(180, _HEX)}"
    krb = f"$krb5tgs$23$*svc_sql$CORP.LOCAL$MSSQLSvc/db01.corp.local:1433*${_t(32, _HEX)}${_t(220, _HEX)}"
    return [
        _s("windows cli", f"cmdkey /add:fs01.corp.local /user:CORP\\backup /pass:{pw[0]}", pw[0]),
        _s("windows cli", f"psexec \\\\10.0.4.12 -u CORP\\svc_deploy -p {pw[1]} cmd.exe", pw[1]),
        _s(
            "windows cli",
            f'wmic /node:"10.0.4.20" /user:"CORP\\admin" /password:"{pw[2]}" process call create "calc.exe"',
            pw[2],
        ),
        _s(
            "windows cli",
            f'schtasks /create /tn "NightlySync" /tr "C:\\sync\\run.bat" /sc daily /st 02:00 /ru CORP\\svc_sync /rp {pw[3]}',
            pw[3],
        ),
        _s(
            "shell history",
            f"ssh-keygen -t ed25519 -f ~/.ssh/deploy_ed25519 -N '{pw[5]}' -C deploy",
            pw[5],
        ),
        _s(
            "shell history",
            f"veracrypt --text --mount /dev/sdb1 /mnt/vault --password='{pw[6]}' --pim=0 --non-interactive",
            pw[6],
        ),
        _s(
            "shell history",
            f"echo -n '{pw[7]}' | sudo cryptsetup luksOpen /dev/sdc1 backup --key-file=-",
            pw[7],
        ),
        _s("shell history", f"rar a -hp{pw[9]} -m5 taxes.rar taxes/", pw[9]),
        _s(
            "shell history",
            f"qpdf --encrypt {pw[10]} {pw[11]} 256 -- payslip.pdf payslip-locked.pdf",
            pw[10],
            pw[11],
        ),
        _s("shell history", f"db2 connect to SAMPLE user db2inst1 using {pw[14]}", pw[14]),
        _s(
            "shell history",
            f"etcdctl --user root:{pw[16]} --endpoints=https://10.0.0.5:2379 get / --prefix --keys-only",
            pw[16],
        ),
        _s(
            "shell history",
            f"kcat -b broker:9093 -X security.protocol=SASL_SSL -X sasl.mechanisms=SCRAM-SHA-512 -X sasl.username=etl -X sasl.password={pw[18]} -t orders -C",
            pw[18],
        ),
        _s(
            "attacker tooling",
            f"impacket-secretsdump 'CORP/administrator:{pw[19]}@10.0.4.10'",
            pw[19],
        ),
        _s("attacker tooling", f"nxc smb 10.0.4.0/24 -u svc_scan -p '{pw[21]}' --shares", pw[21]),
        _s(
            "attacker tooling",
            f"hydra -l admin -p {pw[22]} ssh://10.0.4.30  # confirmed, it works",
            pw[22],
        ),
        _s(
            "attacker tooling",
            f"impacket-psexec -hashes {lm}:{nt1} CORP/administrator@10.0.4.10",
            nt1,
        ),
        _s(
            "attacker tooling",
            f"mimikatz # sekurlsa::logonpasswords\n\t * Username : jdoe\n\t * Domain   : CORP\n\t * NTLM     : {nt2}\n\t * Password : {pw[24]}",
            nt2,
            pw[24],
        ),
        _s("attacker tooling", f"[SMB] NTLMv2-SSP Hash     : {ntlmv2}", ntlmv2),
        _s("attacker tooling", f"GetUserSPNs.py output, crack later:\n{krb}", krb),
        _s(
            "attacker tooling",
            f"$ john --show hashes.txt\nbackup:{pw[25]}:1001:1001::/home/backup:/bin/bash\n1 password hash cracked, 0 left",
            pw[25],
        ),
        _s(
            "shell history",
            f"dokku config:set shop DATABASE_PASSWORD={pw[28]} --no-restart",
            pw[28],
        ),
    ]


# --- files no earlier round holds: provisioning, developer and test tools ----------------


def _provisioning_samples() -> list[Sample]:
    pw = [_pw() for _ in range(20)]
    yes = f"$y$j9T${_t(22, _ALNUM + './')}${_t(43, _ALNUM + './')}"
    rmk = _t(32, _HEX)
    turn = "0x4AAAAAAA" + _t(30, _URLSAFE)
    sess = _t(48, _URLSAFE)
    acct = _t(86, _B64) + "=="
    return [
        _s(
            "provisioning file",
            f"lang en_US.UTF-8\nkeyboard us\nrootpw --plaintext {pw[0]}\nuser --name=ops --groups=wheel --password={pw[1]} --plaintext",
            pw[0],
            pw[1],
        ),
        _s(
            "provisioning file",
            f"d-i passwd/root-login boolean true\nd-i passwd/root-password password {pw[2]}\nd-i passwd/root-password-again password {pw[2]}",
            pw[2],
        ),
        _s(
            "provisioning file",
            f'Vagrant.configure("2") do |config|\n  config.vm.box = "generic/debian12"\n  config.ssh.username = "ops"\n  config.ssh.password = "{pw[3]}"\nend',
            pw[3],
        ),
        _s(
            "provisioning file",
            f"mysql:\n  server:\n    root_user: root\n    root_password: '{pw[4]}'",
            pw[4],
        ),
        _s(
            "provisioning file",
            json.dumps(
                [
                    {"ParameterKey": "Environment", "ParameterValue": "prod"},
                    {"ParameterKey": "DBMasterPassword", "ParameterValue": pw[7]},
                ],
                indent=2,
            ),
            pw[7],
        ),
        _s(
            "provisioning file",
            f"using './main.bicep'\n\nparam location = 'westeurope'\nparam sqlAdminPassword = '{pw[8]}'",
            pw[8],
        ),
        _s(
            "provisioning file",
            json.dumps(
                {
                    "IsEncrypted": False,
                    "Values": {
                        "AzureWebJobsStorage": f"DefaultEndpointsProtocol=https;AccountName=shopfn;AccountKey={acct};EndpointSuffix=core.windows.net",
                        "FUNCTIONS_WORKER_RUNTIME": "python",
                    },
                },
                indent=2,
            ),
            acct,
        ),
        _s(
            "provisioning file",
            f"# .dev.vars\nSESSION_SECRET={sess}\nTURNSTILE_SECRET_KEY={turn}",
            sess,
            turn,
        ),
        _s(
            "provisioning file",
            f"# .kamal/secrets\nKAMAL_REGISTRY_PASSWORD={pw[11]}\nRAILS_MASTER_KEY={rmk}",
            pw[11],
            rmk,
        ),
        _s(
            "provisioning file",
            f"variant: fcos\nversion: 1.5.0\npasswd:\n  users:\n    - name: core\n      password_hash: {yes}",
            yes,
        ),
    ]


def _dev_tool_samples() -> list[Sample]:
    pw = [_pw() for _ in range(16)]
    tok = _jwt({"sub": "qa-bot", "role": "admin", "iat": 1931234567})
    sid = _t(43, _URLSAFE)
    ls_tok = _jwt({"sub": "u_" + _d(6), "scope": "orders:write", "exp": 1931299999})
    return [
        _s(
            "developer tool",
            json.dumps(
                {
                    "name": "shop",
                    "image": "mcr.microsoft.com/devcontainers/python:3.12",
                    "containerEnv": {"PGHOST": "db", "PGPASSWORD": pw[0]},
                },
                indent=2,
            ),
            pw[0],
        ),
        _s(
            "developer tool",
            json.dumps(
                {
                    "sqltools.connections": [
                        {
                            "name": "prod (read-only)",
                            "driver": "PostgreSQL",
                            "server": "db.corp.example",
                            "username": "ro",
                            "password": pw[1],
                        }
                    ]
                },
                indent=2,
            ),
            pw[1],
        ),
        _s(
            "developer tool",
            f"@host = https://api.shop.example\n@token = {tok}\n\n### list orders\nGET {{{{host}}}}/v1/orders\nAuthorization: Bearer {{{{token}}}}",
            tok,
        ),
        _s(
            "developer tool",
            f"vars {{\n  baseUrl: https://api.shop.example\n  user: qa\n  password: {pw[4]}\n}}",
            pw[4],
        ),
        _s(
            "developer tool",
            json.dumps({"login_user": "qa@shop.example", "login_password": pw[5]}, indent=2),
            pw[5],
        ),
        _s(
            "developer tool",
            json.dumps(
                {
                    "cookies": [
                        {
                            "name": "sessionid",
                            "value": sid,
                            "domain": "shop.example",
                            "path": "/",
                            "httpOnly": True,
                            "secure": True,
                        }
                    ],
                    "origins": [
                        {
                            "origin": "https://shop.example",
                            "localStorage": [{"name": "access_token", "value": ls_tok}],
                        }
                    ],
                },
                indent=2,
            ),
            sid,
            ls_tok,
        ),
        _s(
            "developer tool",
            f"*** Variables ***\n${{USERNAME}}    qa_admin\n${{PASSWORD}}    {pw[6]}\n${{BROWSER}}     firefox",
            pw[6],
        ),
        _s(
            "developer tool",
            f'<elementProp name="password" elementType="HTTPArgument">\n  <stringProp name="Argument.name">password</stringProp>\n  <stringProp name="Argument.value">{pw[8]}</stringProp>\n</elementProp>',
            pw[8],
        ),
        _s(
            "developer tool",
            f'<wsse:UsernameToken>\n  <wsse:Username>svc_billing</wsse:Username>\n  <wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">{pw[9]}</wsse:Password>\n</wsse:UsernameToken>',
            pw[9],
        ),
    ]


def _voip_chat_samples() -> list[Sample]:
    pw = [_pw() for _ in range(12)]
    vm = _pin()
    ts = _t(39, _B64) + "="
    znc = _t(64, _HEX)
    return [
        _s(
            "voip and chat server",
            f"[6001]\ntype=auth\nauth_type=userpass\nusername=6001\npassword={pw[0]}",
            pw[0],
        ),
        _s(
            "voip and chat server",
            f'<user id="1004">\n  <params>\n    <param name="password" value="{pw[2]}"/>\n    <param name="vm-password" value="{vm}"/>\n  </params>\n</user>',
            pw[2],
            vm,
        ),
        _s(
            "voip and chat server",
            f"; murmur.ini\nport=64738\nserverpassword={pw[4]}\nusers=40",
            pw[4],
        ),
        _s(
            "voip and chat server",
            f"------------------------------------------------------------------\n                      I M P O R T A N T\n------------------------------------------------------------------\n      ServerAdmin privilege key created, please use it to gain\n      serveradmin rights for your virtualserver. please\n      also check the doc/privilegekey_guide.txt for details.\n\n       token={ts}\n------------------------------------------------------------------",
            ts,
        ),
        _s(
            "voip and chat server",
            f"<User ops>\n    <Pass password>\n        Method = sha256\n        Hash = {znc}\n        Salt = {_t(20, _ALNUM + '!-_')}\n    </Pass>\n</User>",
            znc,
        ),
        _s(
            "voip and chat server",
            f"<account>\n  <protocol>prpl-jabber</protocol>\n  <name>ops@chat.example/laptop</name>\n  <password>{pw[6]}</password>\n</account>",
            pw[6],
        ),
        _s("voip and chat server", f"ejabberdctl register amina chat.example '{pw[7]}'", pw[7]),
    ]


def _server_app_samples() -> list[Sample]:
    pw = [_pw() for _ in range(18)]
    dex = _t(32)
    o2p_c, o2p_k = _t(40, _URLSAFE), _b64(_t(32))
    nebula = _b64(bytes(_RNG.randrange(256) for _ in range(64)))
    hs = _t(48, _HEX)
    gl_sec, gl_sha = _t(96), _t(64, _HEX)
    dir_secret = _t(32)
    s3_a, s3_s = _t(20, _UPPER), _t(40, _B64)
    return [
        _s(
            "self-hosted service",
            f"staticClients:\n- id: grafana\n  name: Grafana\n  redirectURIs: ['https://grafana.home.example/login/generic_oauth']\n  secret: {dex}",
            dex,
        ),
        _s(
            "self-hosted service",
            f'provider = "oidc"\nclient_id = "oauth2-proxy"\nclient_secret = "{o2p_c}"\ncookie_secret = "{o2p_k}"',
            o2p_c,
            o2p_k,
        ),
        _s("self-hosted service", f"Port 8888\nBasicAuth ops {pw[0]}\nAllow 10.0.0.0/8", pw[0]),
        _s(
            "self-hosted service",
            f"-----BEGIN NEBULA ED25519 PRIVATE KEY-----\n{nebula}\n-----END NEBULA ED25519 PRIVATE KEY-----\n(ca.key — keep offline!)",
            nebula,
        ),
        _s(
            "self-hosted service",
            f"$ headscale preauthkeys create --user ops --reusable --expiration 24h\n{hs}",
            hs,
        ),
        _s(
            "self-hosted service",
            f"password_secret = {gl_sec}\nroot_password_sha2 = {gl_sha}",
            gl_sec,
            gl_sha,
        ),
        _s(
            "self-hosted service",
            json.dumps(
                [
                    {
                        "id": _t(16),
                        "name": "Postgres prod",
                        "type": "postgres",
                        "data": {
                            "host": "db.internal",
                            "user": "n8n",
                            "password": pw[4],
                            "database": "shop",
                        },
                    }
                ],
                indent=2,
            ),
            pw[4],
        ),
        _s(
            "self-hosted service",
            f"KEY={_uuid()}\nSECRET={dir_secret}\nADMIN_EMAIL=admin@cms.example\nADMIN_PASSWORD={pw[5]}",
            dir_secret,
            pw[5],
        ),
        _s("self-hosted service", f"; local.ini\n[admins]\nadmin = {pw[6]}", pw[6]),
        _s(
            "self-hosted service",
            f'$ kanidmd recover-account admin\n00000000-0000-0000-0000-000000000000 INFO  new_password: "{pw[8]}"',
            pw[8],
        ),
        _s(
            "self-hosted service",
            f'[repository]\nrepository = "sftp:backup@nas:/srv/rustic"\npassword = "{pw[12]}"',
            pw[12],
        ),
        _s(
            "self-hosted service",
            f"# /etc/davfs2/secrets\nhttps://dav.mailbox.example/ ops {pw[13]}",
            pw[13],
        ),
        _s("self-hosted service", f"# ~/.passwd-s3fs\nphotos:{s3_a}:{s3_s}", s3_s),
        _s(
            "self-hosted service",
            f"//nas.home/media  /mnt/media  cifs  username=kodi,password={pw[14]},uid=1000,iocharset=utf8  0  0",
            pw[14],
        ),
    ]


def _homelab_samples() -> list[Sample]:
    pw = [_pw() for _ in range(6)]
    bambu = _d(8)
    moon = _t(32, _HEX)
    call = "M7" + _t(3, string.ascii_uppercase)
    aprs = _aprs_passcode(call)
    ohab = _t(10)
    ring = _t(120, _URLSAFE)
    return [
        _s(
            "homelab device",
            f"Bambu P1S in LAN-only mode — IP 192.168.1.61, access code {bambu}",
            bambu,
        ),
        _s("homelab device", f'curl -H "X-Api-Key: {moon}" http://voron.local/printer/info', moon),
        _s(
            "homelab device",
            f"[DMR Network]\nEnable=1\nAddress=4400.master.brandmeister.network\nPassword={pw[1]}",
            pw[1],
        ),
        _s(
            "homelab device",
            f"# direwolf.conf\nIGSERVER euro.aprs2.net\nIGLOGIN {call}-10 {aprs}",
            aprs,
        ),
        _s(
            "homelab device",
            json.dumps(
                {
                    "platforms": [
                        {"platform": "Ring", "refreshToken": ring},
                        {"platform": "MyQ", "email": "home@mail.example", "password": pw[3]},
                    ]
                },
                indent=2,
            ),
            ring,
            pw[3],
        ),
        _s("homelab device", f"myopenHAB registration — UUID {_uuid()}, secret {ohab}", ohab),
    ]


# --- exports, notes and chats copied from apps no earlier round names ----------------------


def _export_samples() -> list[Sample]:
    pw = [_pw() for _ in range(16)]
    totp = _t(32, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    card = _card("4")
    cvc, card_pin = _d(3), _pin()
    return [
        _s(
            "password export",
            '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"\n'
            f'"https://mail.example.is","gudrun","{pw[0]}",,"https://mail.example.is","{{{_uuid()}}}","1931234567000","1931234567000","1931234567000"\n'
            f'"https://forum.example","gudrun_h","{pw[1]}",,"https://forum.example","{{{_uuid()}}}","1931234000000","1931234000000","1931234000000"',
            pw[0],
            pw[1],
        ),
        _s(
            "password export",
            f"Title,URL,Username,Password,Notes,OTPAuth\nshop.example (ana),https://shop.example/,ana,{pw[2]},,otpauth://totp/shop.example:ana?secret={totp}&issuer=shop.example",
            pw[2],
            totp,
        ),
        _s(
            "password export",
            f"type,name,url,email,username,password,note,totp,createTime,modifyTime,vault\nlogin,Router,http://192.168.0.1,,admin,{pw[3]},,,1931230000,1931230000,Personal",
            pw[3],
        ),
        _s(
            "password export",
            f"name,url,username,password,note,cardholdername,cardnumber,cvc,pin,expirydate,zipcode,folder\nVisa (joint),,,,,A HALVORSEN,{card},{cvc},{card_pin},09/34,,Cards",
            card,
            cvc,
            card_pin,
        ),
        _s(
            "note export",
            f'<note><title>House stuff</title><content><![CDATA[<?xml version="1.0" encoding="UTF-8"?><en-note><div>alarm panel master code: {pw[6]}</div></en-note>]]></content></note>',
            pw[6],
        ),
        _s(
            "note export",
            json.dumps(
                {
                    "title": "Bank",
                    "textContent": f"online banking password {pw[7]} (changed March)",
                    "isPinned": True,
                },
                ensure_ascii=False,
            ),
            pw[7],
        ),
        _s(
            "note export",
            f'Private Sub Workbook_Open()\n    Worksheets("Payroll").Unprotect Password:="{pw[9]}"\nEnd Sub',
            pw[9],
        ),
    ]


def _roster_samples() -> list[Sample]:
    rv1, rv2 = _rvnr("B", True), _rvnr("Y", False)
    ib1, ib2 = _iban("DE", _d(18)), _iban("DE", _d(18))
    ph1, ph2 = _fill("+356 79## ####"), _fill("+354 7## ####")
    addr = f"{_RNG.randrange(2, 90)} Triq il-Kbira, Żebbuġ ZBG {_d(4)}"
    pp1, pp2 = _RNG.choice("ACEF") + _d(8), _t(2, string.ascii_uppercase) + _d(7)
    email = f"t.{_t(6, string.ascii_lowercase)}@mail.example"
    il_phone = _fill("+972 54-###-####")
    nz1, nz2, nz3 = _fill("021 ### ####"), _fill("027 ### ####"), _fill("022 ### ####")
    m1, m2 = f"mere.{_t(5, string.ascii_lowercase)}@mail.example", f"losa{_d(2)}@mail.example"
    bday = f"{_RNG.randrange(1, 28):02d}.{_RNG.randrange(1, 13):02d}.{_RNG.randrange(1960, 2000)}"
    return [
        _s(
            "spreadsheet export",
            f"Personalnr;Name;SV-Nummer;IBAN;Eintritt\n1042;Brandt, Bettina;{rv1};{ib1};01.03.2031\n1043;Yilmaz, Yusuf;{rv2};{ib2};15.03.2031",
            rv1,
            rv2,
            ib1,
            ib2,
        ),
        _s(
            "spreadsheet export",
            f'Guest,Phone,Address,Table\nMaria & Joe,{ph1},"{addr}",4\nSigga,{ph2},,4',
            ph1,
            ph2,
            addr,
        ),
        _s(
            "spreadsheet export",
            f"Unit\tTenant\tPassport\tMove-in\n2B\tR. Alvarez\t{pp1}\t2031-04-01\n3A\tK. Mensah\t{pp2}\t2031-04-15",
            pp1,
            pp2,
        ),
        _s(
            "spreadsheet export",
            f"Class 4B contacts\tParent\tMobile\tE-mail\nAroha\tMere\t{nz1}\t{m1}\nSione\tLosa\t{nz2}\t{m2}\nTane\tHemi\t{nz3}\t",
            nz1,
            m1,
            nz2,
            m2,
            nz3,
        ),
        _s(
            "spreadsheet export",
            f'"First Name","Last Name","E-mail Address","Mobile Phone","Birthday"\n"Tamar","Levi","{email}","{il_phone}","{bday}"',
            email,
            il_phone,
            bday,
        ),
    ]


def _chat_samples() -> list[Sample]:
    pw = [_pw() for _ in range(12)]
    pin1, pin2, pin3 = _pin(), _pin(), _pin(6)
    sms_from = _fill("+225 07 ## ## ## ##")
    imsg_from = _fill("+1 415 8## ####")
    mail = f"{_t(7, string.ascii_lowercase)}.{_d(2)}@mail.example"
    safe = _pin(6)
    return [
        _s(
            "chat copy",
            f'<smses count="1">\n  <sms protocol="0" address="{sms_from}" date="1931234567890" type="1" body="Maman: le code de la carte bleue c\'est {pin1}, efface ce message" read="1" />\n</smses>',
            sms_from,
            pin1,
        ),
        _s(
            "chat copy",
            f"2031. 3. 11. 오후 2:14, 엄마 : 현관 비밀번호 바꿨어 {pin2}* 누르면 돼",
            pin2,
        ),
        _s(
            "chat copy",
            f"ops-guy — Today at 14:02\nhere's the staging db pass: {pw[0]}\nops-guy — Today at 14:03\ndelete after copying pls",
            pw[0],
        ),
        _s(
            "chat copy",
            f"[10:41] Nguyen, An\nthe shared mailbox password is {pw[1]}\n[10:42] Okafor, Chidi\ngot it",
            pw[1],
        ),
        _s(
            "chat copy",
            f"14:02:11 From Priya to Everyone:\n\tguest wifi for the office: {pw[2]}",
            pw[2],
        ),
        _s(
            "chat copy",
            f"Mar 11, 2031  2:14:07 PM\n{imsg_from}\nthe garage keypad is {pin3} now, new battery too",
            imsg_from,
            pin3,
        ),
        _s("chat copy", f"You sent\nnetflix: {mail} / {pw[5]}\nseen 14:05", mail, pw[5]),
        _s(
            "chat copy",
            f"Jonas, 14:02: Tresor-Code für die Ferienwohnung: {safe}. NAS: admin / {pw[9]}",
            safe,
            pw[9],
        ),
    ]


# --- disguises no earlier round tries ---------------------------------------------------


def _styled(value: str, upper: int, lower: int, digit: int | None) -> str:
    """``value`` in one of the Mathematical Alphanumeric Symbols alphabets."""
    out = []
    for c in value:
        if "A" <= c <= "Z":
            out.append(chr(upper + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(lower + ord(c) - 97))
        elif c.isdigit() and digit is not None:
            out.append(chr(digit + int(c)))
        else:
            out.append(c)
    return "".join(out)


_FLIP = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyz0123456789!?.",
        "ɐqɔpǝɟƃɥᴉɾʞlɯuodbɹsʇnʌʍxʎz0ƖᄅƐㄣϛ9ㄥ86¡¿˙",
        strict=True,
    )
)
_RU_LAYOUT = dict(
    zip(
        "qwertyuiop[]asdfghjkl;'zxcvbnm,.",
        "йцукенгшщзхъфывапролджэячсмитьбю",
        strict=True,
    )
)
_HE_LAYOUT = dict(zip("ertyuiopasdfghjkl;zxcvbnm,.", "קראטוןםפשדגכעיחלךףזסבהנמצתץ", strict=True))


def _layout(value: str, table: dict[str, str]) -> str:
    """``value`` as it comes out when typed with another keyboard layout switched on."""
    out = []
    for c in value:
        low = c.lower()
        if low in table:
            mapped = table[low]
            out.append(mapped.upper() if c.isupper() else mapped)
        else:
            out.append(c)
    return "".join(out)


_Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"


def _z85(data: bytes) -> str:
    out = []
    for i in range(0, len(data), 4):
        n = int.from_bytes(data[i : i + 4], "big")
        chunk = []
        for _ in range(5):
            n, r = divmod(n, 85)
            chunk.append(_Z85[r])
        out.append("".join(reversed(chunk)))
    return "".join(out)


def _alpha_pw() -> str:
    """A password of letters and digits only (for the disguises that have no signs)."""
    return f"{_w()}{_w().lower()}{_RNG.randrange(10, 99)}"


def _obfuscation_samples() -> list[Sample]:
    out: list[Sample] = []
    v = _alpha_pw()
    bold = _styled(v, 0x1D400, 0x1D41A, 0x1D7CE)
    out.append(_s("disguise", f"the new wifi key, pasted from the fancy-text site: {bold}", bold))
    v = _alpha_pw()
    v = _alpha_pw()
    frak = _styled(v, 0x1D56C, 0x1D586, None)
    out.append(_s("disguise", f"𝔓𝔞𝔰𝔰𝔴𝔬𝔯𝔡 (gothic, so the filter can't read it): {frak}", frak))
    v = _alpha_pw()
    word = _w().upper()
    flags = " ".join(chr(0x1F1E6 + ord(c) - 65) for c in word)
    out.append(_s("disguise", f"door code word (say it at the gate): {flags}", flags))
    v = f"{_w().lower()}{_RNG.randrange(10, 99)}!"
    flip = "".join(_FLIP[c] for c in reversed(v))
    out.append(_s("disguise", f"pɹoʍssɐd: {flip}  (read it upside down)", flip))
    v = _w().lower()
    p = _pin()
    sub = _script_digits(p, 0x2080)
    out.append(_s("disguise", f"card pin ₚᵢₙ {sub}", sub))
    dice_pin = _t(4, "123456")
    dice = "".join(chr(0x2680 + int(c) - 1) for c in dice_pin)
    out.append(_s("disguise", f"safe: {dice} (dice faces = digits)", dice))
    p = _pin(6)
    caps = "".join("零壹贰叁肆伍陆柒捌玖"[int(c)] for c in p)
    out.append(_s("disguise", f"保险柜密码（大写）：{caps}", caps))
    v = f"{_w()}{_RNG.randrange(1000, 9999)}"
    ru = _layout(v, _RU_LAYOUT)
    out.append(_s("disguise", f"gfhjkm jn gjxns (забыла переключить раскладку): {ru}", ru))
    v = f"{_w().lower()}{_RNG.randrange(10, 99)}"
    he = _layout(v, _HE_LAYOUT)
    out.append(_s("disguise", f"הסיסמה של הראוטר (הקלדתי בעברית בטעות): {he}", he))
    v = f"{_w().lower()}{_RNG.randrange(10, 99)}"
    v = _w().lower() + str(_RNG.randrange(100, 999))
    atbash = "".join(chr(219 - ord(c)) if c.isalpha() else c for c in v)
    out.append(
        _s("disguise", f"vault pw, atbash'd so nobody reads it over my shoulder: {atbash}", atbash)
    )
    v = _w().lower() + str(_RNG.randrange(100, 999))
    v = _pw()
    pct_u = "".join(f"%u{ord(c):04X}" for c in v)
    out.append(_s("disguise", f"GET /login?u=ops&p={pct_u} HTTP/1.1", pct_u))
    v = _pw()
    css = " ".join(f"\\{ord(c):x}" for c in v)
    out.append(_s("disguise", f'.hint::after {{ content: "{css}"; }}', css))
    v = _pw()
    v = _t(12)
    z = _z85(v.encode())
    out.append(_s("disguise", f"z85 (ZeroMQ style) of the db password: {z}", z))
    v = _pw()
    dec = " ".join(str(ord(c)) for c in v)
    out.append(_s("disguise", f"ascii codes, decode yourself: {dec}", dec))
    v = _pw()
    xl = "&".join(f"CHAR({ord(c)})" for c in v)
    out.append(_s("disguise", f'=CONCATENATE("pw: ", {xl})', xl))
    v = _pw()
    v = _alpha_pw()
    vs = "".join(c + chr(0xFE00 + i % 16) for i, c in enumerate(v))
    out.append(_s("disguise", f"the wifi key: {vs}", vs))
    v = _alpha_pw()
    v = _alpha_pw()
    thin = "\u2009".join(v)
    out.append(_s("disguise", f"NAS: {thin}", thin))
    v = _alpha_pw()
    fire = "🔥".join(v)
    out.append(_s("disguise", f"new insta password lol {fire}", fire))
    v = f"{_w()}_{_RNG.randrange(10, 99)}*{_w().lower()}_"
    esc = v.replace("_", "\\_").replace("*", "\\*")
    out.append(_s("disguise", f"**Mailbox**: ops@shop.example / {esc}", esc))
    v = _alpha_pw()
    spans = "".join(f"<span>{c}</span>" for c in v)
    out.append(_s("disguise", f"<p>Temporary password: {spans}</p>", spans))
    p = _pin()
    roman = "-".join(
        ("N", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")[int(c)] for c in p
    )
    out.append(_s("disguise", f"alarm: {roman} (roman, N = zero)", roman))
    v = _pw()
    ps = _b64(f"$p = '{v}'; Connect-Server -Password $p".encode("utf-16-le"))
    out.append(_s("disguise", f"powershell.exe -NoProfile -EncodedCommand {ps}", ps))
    v = _pw()
    v = _pw()
    return out


# --- hardware tokens, firmware, eID cards and app passwords -------------------------------


def _hardware_samples() -> list[Sample]:
    pin8, puk8 = _pin(8), _pin(8)
    mgmt = _t(48, _HEX)
    bios = _pw()
    ilo = _t(8, _UPPER)
    trezor = " ".join(_w().lower() for _ in range(3))
    bsky = "-".join(_t(4, string.ascii_lowercase + "234567") for _ in range(4))
    fm = _t(16, string.ascii_lowercase + "23456789")
    ee1, ee2, eepuk = _pin(4), _pin(5), _pin(8)
    return [
        _s(
            "hardware and eID",
            f"ykman piv access change-pin --pin 123456 --new-pin {pin8}\nykman piv access change-puk --puk 12345678 --new-puk {puk8}",
            pin8,
            puk8,
        ),
        _s(
            "hardware and eID",
            f"ykman piv access change-management-key --management-key 010203040506070801020304050607080102030405060708 --new-management-key {mgmt} --protect",
            mgmt,
        ),
        _s(
            "hardware and eID",
            f"ThinkPad T14 (asset 0412) — BIOS supervisor password: {bios}",
            bios,
        ),
        _s(
            "hardware and eID",
            f"iLO pull tab on the new DL380: user Administrator, password {ilo}",
            ilo,
        ),
        _s(
            "hardware and eID",
            f"Trezor hidden wallet: passphrase is '{trezor}' (the 25th word)",
            trezor,
        ),
        _s("app password", f"Bluesky app password for the Graysky client: {bsky}", bsky),
        _s("app password", f"Fastmail app password (Thunderbird, IMAP+SMTP): {fm}", fm),
        _s(
            "hardware and eID",
            f"ID-kaardi koodid: PIN1 {ee1}, PIN2 {ee2}, PUK {eepuk}",
            ee1,
            ee2,
            eepuk,
        ),
    ]


# === look-alikes ==========================================================================


def _speech_lookalikes() -> list[Lookalike]:
    return [
        _x("password talk", "Ijambo ry'ibanga naryo nahinduye ejo, nzokubwira nimba twabonanye."),
        _x("password talk", "Password mara wiya, nyaka ayie kendo — ka ing'eyo kaka ioro."),
        _x(
            "password talk",
            "Rito ra xihundla ri fanele ku va ni tinhlamuselo ta 12 kumbe ku tlula.",
        ),
        _x("password talk", "Håfa adai! Malingu i password-hu, debi de hu na'nuebu."),
        _x("password talk", "Mi frigiti mi password, mi o aksi a bank fu wan nyun."),
        _x("password talk", "S'Passwort hani gänderet, aber i schrib's nid do ine."),
        _x("password talk", "Гесло треба змінити кажды три місяці, так повідали з банку."),
        _x("password talk", "Паролем вашталтыме кӱлеш, банк шке ойлыш."),
        _x("password talk", "阿拉个密码忘记脱了，要去银行重新弄一只。"),
        _x("password talk", "رمز عبور مه یادم رفت، باید از نو بسازم."),
        _x("password talk", "وشەی نهێنییەکەم گۆڕی، دواتر پێت دەڵێم."),
        _x("password talk", "जिगु पासवर्ड लुमंके मफुत, बैंकय् वने माल।"),
        _x("password talk", "मम गुप्तशब्दः विस्मृतः। पुनः निर्मातव्यः।"),
        _x("password talk", f"{_adlam('konngol suturo am majjii')} — mi waylitay ɗum jaŋngo."),
    ]


def _native_lookalikes() -> list[Lookalike]:
    return [
        _x("native digits", f"ថ្លៃបាយមួយចាន {_script_digits('8000', 0x17E0)} រៀល នៅផ្សារថ្មី"),
        _x(
            "native digits",
            f"ประชุมวันที่ {_script_digits('14', 0x0E50)} มีนาคม {_script_digits('2574', 0x0E50)} เวลา {_script_digits('10:30', 0x0E50)} น.",
        ),
        _x(
            "native digits",
            f"ရန်ကုန်မြို့ လမ်း {_script_digits('37', 0x1040)} ၊ အခန်း {_script_digits('4', 0x1040)}",
        ),
        _x("native digits", f"திருக்குறள் {_script_digits('1330', 0x0BE6)} குறட்பாக்கள் கொண்டது"),
        _x(
            "native digits",
            f"ବସ୍ ନମ୍ବର {_script_digits('212', 0x0B66)} ସକାଳ {_script_digits('7', 0x0B66)}ଟାରେ ଛାଡ଼େ",
        ),
        _x("native digits", "ገበያ፦ ሽንኩርት 2 ኪሎ ፣ ዋጋ ፻፶ ብር"),
        _x(
            "native digits",
            f"Kilomita {_script_digits('42', 0x1E950)} — {_adlam('laawol maraaton')}",
        ),
        _x("native digits", "Book Ⅻ, chapter Ⅳ, page ⅭⅩⅡ"),
        _x("native digits", "𝟐𝟎𝟑𝟐 𝐒𝐮𝐦𝐦𝐞𝐫 𝐒𝐚𝐥𝐞 — 𝟑𝟎 % 𝐨𝐟𝐟 𝐞𝐯𝐞𝐫𝐲𝐭𝐡𝐢𝐧𝐠"),
        _x("native digits", "人民币壹仟贰佰叁拾元整（发票金额，不是密码）"),
    ]


def _national_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "id format",
            "NIE: una letra (X, Y o Z), siete cifras y una letra de control — p. ej. X-XXXXXXX-L.",
        ),
        _x("id format", "NISS tem 11 algarismos e começa por 1 ou 2; o NIF tem 9. Não confundir."),
        _x(
            "id format",
            "Die Rentenversicherungsnummer steht auf dem SV-Ausweis, Format: 12 Zeichen mit Buchstaben.",
        ),
        _x(
            "id format",
            "IRD numbers are 8 or 9 digits; Inland Revenue never asks for it by text message.",
        ),
        _x(
            "id format", "El DUI tiene 9 dígitos con guion antes del último; se tramita en el RNPN."
        ),
        _x("id format", "在留カード番号は英字2桁＋数字8桁＋英字2桁の12桁です。"),
        _x("id format", "운전면허번호는 지역번호-연도-일련번호-검증번호 순서로 되어 있어요."),
        _x(
            "id format",
            "Clave de elector: 18 caracteres, viene al frente de la credencial del INE.",
        ),
        _x(
            "id format",
            "Company registration (Malta Business Registry): C 12345 — a company, not a person.",
        ),
        _x(
            "id format",
            "PIS/PASEP: consulte no app Carteira de Trabalho Digital, não mande por e-mail.",
        ),
    ]


def _public_number_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "public number",
            "Emergency numbers to save before the trip: 112 (EU), 999 (UK), 911 (US), 000 (AU), 111 (NZ).",
        ),
        _x("public number", "Samaritans: 116 123 (free, 24/7). Childline: 0800 1111."),
        _x("public number", "Ambulance in Ethiopia: 907; police 991; fire 939."),
        _x(
            "public number",
            "Khmer police hotline 117, ambulance 119 — same as the card in the hotel.",
        ),
        _x("public number", "Dial *#06# to see the phone's IMEI; *100# for the balance."),
        _x(
            "public number", "Country codes: Malta +356, Iceland +354, Armenia +374, Cambodia +855."
        ),
    ]


def _vendor_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "vendor value that is no secret",
            "GROQ_API_KEY=gsk_...  # paste yours from console.groq.com/keys",
        ),
        _x("vendor value that is no secret", "export REPLICATE_API_TOKEN=r8_<your token here>"),
        _x(
            "vendor value that is no secret",
            'api_key="sk-or-v1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"',
        ),
        _x("vendor value that is no secret", "XAI_API_KEY: ${{ secrets.XAI_API_KEY }}"),
        _x(
            "vendor value that is no secret",
            "PAYSTACK_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        ),
        _x(
            "vendor value that is no secret",
            f"Paystack public key for the checkout page: pk_live_{_t(40, _HEX)}",
        ),
        _x("vendor value that is no secret", f"Omise.setPublicKey('pkey_{_t(19, _LOWER)}');"),
        _x(
            "vendor value that is no secret",
            f"mixpanel.init('{_t(32, _HEX)}')  // project token, ships in the JS bundle",
        ),
        _x(
            "vendor value that is no secret",
            f"WalletConnect projectId: '{_t(32, _HEX)}' (public, from cloud.reown.com)",
        ),
        _x(
            "vendor value that is no secret",
            "Cloudflare's Turnstile test sitekey 1x00000000000000000000AA always passes — for CI only.",
        ),
        _x(
            "vendor value that is no secret",
            "hCaptcha test site key 10000000-ffff-ffff-ffff-000000000001 (documented, never fails).",
        ),
        _x(
            "vendor value that is no secret",
            "Giphy's old public beta key dc6zaTOxFJmzC was retired years ago.",
        ),
        _x(
            "vendor value that is no secret",
            f"Paddle.Initialize({{ token: 'live_{_t(27, _HEX)}' }})  // client-side token",
        ),
        _x(
            "vendor value that is no secret",
            "Azurite (local emulator) well-known account key from the docs: Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        ),
        _x(
            "vendor value that is no secret",
            f"Algolia application id {_t(10, _UPPER)} and index 'products_prod'",
        ),
        _x(
            "vendor value that is no secret",
            f"Proxmox token id root@pam!terraform (the secret is in the vault), node pve-{_d(2)}",
        ),
        _x("vendor value that is no secret", f"LangSmith run id {_uuid()} — trace link in the PR"),
        _x("vendor value that is no secret", f"Steam app id 1145350, depot {_d(7)}, build {_d(8)}"),
        _x(
            "vendor value that is no secret",
            f"PagerDuty incident Q{_t(13, _UPPER)} resolved by the on-call",
        ),
        _x("vendor value that is no secret", f"UptimeRobot monitor {_d(9)} is up (200 OK, 184 ms)"),
    ]


def _config_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "config without secret",
            'rootpw --lock\nuser --name=ops --groups=wheel --lock\nsshkey --username=ops "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK9l3Hn0d2Qv ops@laptop"',
        ),
        _x(
            "config without secret",
            "d-i passwd/root-login boolean false\nd-i passwd/make-user boolean true\nd-i passwd/user-fullname string Ops",
        ),
        _x(
            "config without secret",
            "profile::db::password: >\n    ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw...]",
        ),
        _x(
            "config without secret",
            '{"ParameterKey": "DBMasterPassword", "ParameterValue": "{{resolve:secretsmanager:prod/db:SecretString:password}}"}',
        ),
        _x(
            "config without secret",
            "param sqlAdminPassword = az.getSecret('sub-id', 'rg-shop', 'kv-shop', 'sqlAdminPassword')",
        ),
        _x(
            "config without secret",
            '{"Values": {"AzureWebJobsStorage": "UseDevelopmentStorage=true", "FUNCTIONS_WORKER_RUNTIME": "python"}}',
        ),
        _x(
            "config without secret",
            "KAMAL_REGISTRY_PASSWORD=$(op read op://Deploy/ghcr/token)\nRAILS_MASTER_KEY=$(cat config/master.key)",
        ),
        _x("config without secret", '{"containerEnv": {"PGPASSWORD": "${localEnv:PGPASSWORD}"}}'),
        _x(
            "config without secret",
            '{"sqltools.connections": [{"name": "prod", "server": "db.corp.example", "username": "ro", "askForPassword": true}]}',
        ),
        _x(
            "config without secret",
            "@token = {{$dotenv API_TOKEN}}\nGET {{host}}/v1/orders\nAuthorization: Bearer {{token}}",
        ),
        _x(
            "config without secret",
            "vars {\n  baseUrl: https://api.shop.example\n}\nvars:secret [\n  password\n]",
        ),
        _x(
            "config without secret",
            "cy.login(Cypress.env('login_user'), Cypress.env('login_password'))",
        ),
        _x(
            "config without secret",
            '[6001]\ntype=auth\nauth_type=userpass\nusername=6001\n#include "pjsip-secrets.conf"',
        ),
        _x("config without secret", "; murmur.ini\nport=64738\nserverpassword=\nusers=40"),
        _x(
            "config without secret",
            'client_id = "oauth2-proxy"\nclient_secret_file = "/run/secrets/oauth2_proxy_client_secret"',
        ),
        _x(
            "config without secret",
            "APP_KEYS=toBeModified1,toBeModified2\nADMIN_JWT_SECRET=tobemodified\n# the values from the template — generate real ones",
        ),
        _x(
            "config without secret",
            "//nas.home/media  /mnt/media  cifs  credentials=/root/.smbcredentials,uid=1000  0  0",
        ),
        _x(
            "config without secret",
            "IGLOGIN N0CALL -1   # -1 is the receive-only passcode, as documented",
        ),
        _x(
            "config without secret",
            "My DMR ID is in the public RadioID database; talkgroup 91 is worldwide.",
        ),
        _x(
            "config without secret",
            "[authorization]\ntrusted_clients:\n    10.0.0.0/8\ncors_domains:\n    *.local",
        ),
        _x(
            "config without secret",
            "$ headscale nodes list\nID | Hostname | IP addresses\n1  | laptop   | 100.64.0.1\n2  | nas      | 100.64.0.2",
        ),
        _x(
            "config without secret",
            "N=Libera.Chat\nL=7\nI=ops_nick\nS=irc.libera.chat/+6697\n# SASL EXTERNAL with the client cert, no password",
        ),
    ]


def _cli_lookalikes() -> list[Lookalike]:
    return [
        _x("command without secret", "cmdkey /list:fs01.corp.local"),
        _x(
            "command without secret",
            "net user kiosk * /add    (the * makes it prompt for the password)",
        ),
        _x(
            "command without secret",
            "ssh-keygen -t ed25519 -f ~/.ssh/ci_ed25519 -N '' -C ci   # no passphrase on purpose (CI)",
        ),
        _x(
            "command without secret",
            "sudo cryptsetup luksOpen /dev/sdc1 backup   # asks for the passphrase",
        ),
        _x(
            "command without secret",
            "qpdf --show-encryption statement.pdf\nR = 6\nP = -4\nUser password = \nSupplied password is owner password",
        ),
        _x(
            "command without secret",
            "hydra -l admin -P /usr/share/wordlists/rockyou.txt ssh://10.0.4.30 -t 4",
        ),
        _x("command without secret", "hashcat -m 1000 -a 0 ntds.hashes rockyou.txt -r best64.rule"),
        _x(
            "command without secret",
            "nxc smb 10.0.4.0/24 -u users.txt -p passwords.txt --continue-on-success",
        ),
        _x(
            "command without secret",
            "impacket-secretsdump -k -no-pass CORP/administrator@dc01.corp.local",
        ),
        _x(
            "command without secret",
            "Empty LM hash aad3b435b51404eeaad3b435b51404ee and empty NT hash 31d6cfe0d16ae931b73c59d7e0c089c0 mean 'no password set'.",
        ),
    ]


def _export_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "export without secret",
            '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"',
        ),
        _x("export without secret", "Title,URL,Username,Password,Notes,OTPAuth"),
        _x(
            "export without secret",
            "ops-guy — Today at 14:02\ncan someone DM me the staging pass? not here pls",
        ),
        _x(
            "export without secret",
            "[10:41] Nguyen, An\nreset link sent, check your inbox\n[10:42] Okafor, Chidi\nthanks, done",
        ),
        _x(
            "export without secret",
            "2031. 3. 11. 오후 2:14, 엄마 : 현관 비밀번호 바꿨어 저녁에 알려줄게",
        ),
        _x(
            "export without secret",
            f'<sms address="DHL" body="Votre colis RR{_s10(_d(8))}CN arrive demain entre 9h et 12h" type="1" />',
        ),
        _x(
            "export without secret",
            "<note><title>Groceries</title><content><![CDATA[<en-note><div>eggs, teff flour, 2 kg onions</div></en-note>]]></content></note>",
        ),
        _x("export without secret", 'Worksheets("Payroll").Protect UserInterfaceOnly:=True'),
        _x("export without secret", '=SUMIFS(C2:C400, A2:A400, ">=2031-01-01", B2:B400, "Rent")'),
    ]


def _disguise_lookalikes() -> list[Lookalike]:
    return [
        _x("disguise", "🇳🇿 🇫🇯 🇹🇴 🇼🇸 — countries on this year's trip"),
        _x("disguise", "ʎɐpɹnʇɐs ǝɥʇ uo ʎʇɹɐd  (upside-down text from the invite, just a joke)"),
        _x("disguise", "Board game night: rolled ⚄⚅, moved to Boardwalk."),
        _x("disguise", "ghbdtn (that's «привет» typed with the English layout on)"),
        _x(
            "disguise",
            'GET /search?q=%25E5%258F%25B0%25E5%258C%2597 HTTP/1.1  (double-encoded "台北" from the old proxy)',
        ),
        _x("disguise", '.icon-home::before { content: "\\f015"; }'),
        _x("disguise", "=A2&CHAR(10)&B2   (line break inside the cell)"),
        _x(
            "disguise",
            f"powershell.exe -NoProfile -EncodedCommand {_b64('Get-Date -Format o'.encode('utf-16-le'))}   (the tutorial's example: it runs Get-Date)",
        ),
        _x("disguise", "𝐍𝐞𝐰 𝐦𝐞𝐧𝐮 — 𝐅𝐫𝐢𝐝𝐚𝐲 𝐨𝐧𝐥𝐲"),
        _x(
            "disguise",
            "ROT13 and a Caesar shift of 3 are both trivial to undo; never use them for secrets.",
        ),
        _x("disguise", "<p>Loading<span>.</span><span>.</span><span>.</span></p>"),
    ]


def _everyday_lookalikes() -> list[Lookalike]:
    isbn1 = _isbn13("97899944" + _d(4))
    isbn2 = _isbn13("979" + _d(9))
    ean = _isbn13("590" + _d(9))
    return [
        _x(
            "everyday number",
            f"Reading list: ISBN {isbn1[:3]}-{isbn1[3:8]}-{isbn1[8:10]}-{isbn1[10:12]}-{isbn1[12]} (Amharic grammar, Addis Ababa)",
        ),
        _x("everyday number", f"ISBN {isbn2} — Welsh–English dictionary, 3rd ed."),
        _x("everyday number", f"EAN {ean} on the jar of ajvar"),
        _x("everyday number", f"Parcel RB{_s10(_d(8))}SG via Singapore Post, customs cleared"),
        _x("everyday number", f"EMS EE{_s10(_d(8))}KH left Phnom Penh yesterday"),
        _x("everyday number", f"Order #{_d(3)}-{_d(7)}-{_d(7)} shipped; invoice INV-2031-{_d(5)}"),
        _x(
            "everyday number",
            f"Booking ref {_t(6, string.ascii_uppercase)} (Air Greenland, seat 14C)",
        ),
        _x("everyday number", "Ticket Yerevan–Tbilisi: 12 000 AMD ≈ 83 GEL; dinner 4 500 ֏"),
        _x("everyday number", "€1.234,56 vs $1,234.56 — same amount, different decimal marks"),
        _x("everyday number", "Lalibela: 12.0317° N, 39.0473° E · Ushguli: 42.9157, 43.0143"),
        _x("everyday number", "Sigiriya rock: 7°57′25″N 80°45′35″E, 180 m high"),
        _x("everyday number", "Deck: 3.60 m × 4.20 m, boards 145 × 28 mm, 6 kg of screws"),
        _x(
            "everyday number",
            "Enkutatash (Ethiopian New Year) 1 Meskerem 2025 E.C. = 11 September 2032",
        ),
        _x("everyday number", "Nowruz 1411 falls on 20 March 2032, 14:21:52 UTC"),
        _x("everyday number", "Brand colours: #0B6E4F (green), #F2C14E (saffron), #2D3142 (ink)"),
        _x(
            "everyday number",
            "Upgraded to Nextcloud 31.0.2, Immich v1.131.3, Node 22.14.0, Python 3.13.2",
        ),
        _x("everyday number", "Firmware 01.09.00.00 on the P1S; Klipper v0.12.0-410-g2f4e6b2a"),
        _x(
            "everyday number",
            f"Fixed in commit {_t(40, _HEX)} (upstream, public), released in 2.4.1",
        ),
        _x(
            "everyday number",
            f"git bisect: first bad commit {_t(12, _HEX)} 'refactor: split parser'",
        ),
        _x("everyday number", f"sha256:{_t(64, _HEX)}  ghcr.io/acme/web:2.4.1"),
        _x(
            "everyday number", "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
        ),
        _x("everyday number", "Flight FI 615 KEF→JFK, gate D4, boarding 16:40"),
        _x("everyday number", "C₆H₁₂O₆ + 6 O₂ → 6 CO₂ + 6 H₂O; ΔG ≈ −2870 kJ/mol"),
        _x(
            "everyday number",
            "Matenadaran, 53 Mashtots Ave, Yerevan — museum of ancient manuscripts, open 10:00–17:00",
        ),
        _x("everyday number", "Meeting room 4B-117, door code is on the booking screen, not here"),
        _x("everyday number", f"request_id={_uuid()} status=200 latency_ms=41"),
        _x("everyday number", f"SHA-256 of the release tarball: {_t(64, _HEX)} (matches the site)"),
    ]


def _hardware_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "hardware talk",
            "YubiKey PIV factory defaults: PIN 123456, PUK 12345678, management key 010203040506070801020304050607080102030405060708 — change all three.",
        ),
        _x(
            "hardware talk",
            f"$ ykman info\nDevice type: YubiKey 5C NFC\nSerial number: {_d(8)}\nFirmware version: 5.7.1",
        ),
        _x(
            "hardware talk",
            "iDRAC default login root / calvin is printed in every Dell manual — ours is changed.",
        ),
        _x(
            "hardware talk",
            "Ledger asks for a PIN of 4 to 8 digits; the Trezor passphrase is optional.",
        ),
        _x(
            "hardware talk",
            "Bluesky app passwords look like xxxx-xxxx-xxxx-xxxx; make one per client.",
        ),
        _x(
            "hardware talk",
            "ID-kaardil on kaks PIN-koodi ja PUK; need on koodiümbrikus, mitte siin.",
        ),
    ]


def _bank_lookalikes() -> list[Lookalike]:
    return [
        _x("bank talk", "Libyan IBAN: LY + 2 check digits + 21 digits (25 in total); Sudan: 18."),
        _x(
            "bank talk",
            "Russia joined the IBAN registry as RU, 33 characters — domestic transfers still use БИК.",
        ),
        _x("bank talk", "BIC of the central bank in Djibouti: BCDJDJJD (public, on the website)."),
        _x("bank talk", "TAN-Liste gibt es nicht mehr — jetzt pushTAN in der App."),
        _x("bank talk", "보안카드는 이제 OTP로 바뀌었어요. 은행 앱에서 등록하세요."),
        _x(
            "bank talk",
            "Redeem Google Play codes at play.google.com/redeem — never read one out over the phone.",
        ),
        _x(
            "bank talk",
            "paysafecard PINs are 16 digits; the scratch panel on ours was blank (refund requested).",
        ),
        _x("bank talk", "Card ending •••• 4417, expires 09/34 — the full number is in the wallet."),
    ]


def secret_samples() -> list[Sample]:
    """Every sample of the round-twelve corpus, in a fixed order (the same whenever it is asked)."""
    _RNG.seed(_SEED)
    return [
        *_prose_samples(),
        *_native_script_samples(),
        *_native_digit_samples(),
        *_national_samples(),
        *_phone_samples(),
        *_vendor_ai_samples(),
        *_vendor_cloud_samples(),
        *_vendor_payment_samples(),
        *_vendor_crypto_samples(),
        *_vendor_saas_samples(),
        *_vendor_misc_samples(),
        *_vendor_env_samples(),
        *_bank_paper_samples(),
        *_voucher_samples(),
        *_iban_samples(),
        *_cli_samples(),
        *_provisioning_samples(),
        *_dev_tool_samples(),
        *_voip_chat_samples(),
        *_server_app_samples(),
        *_homelab_samples(),
        *_export_samples(),
        *_roster_samples(),
        *_chat_samples(),
        *_obfuscation_samples(),
        *_hardware_samples(),
    ]


def lookalikes() -> list[Lookalike]:
    """Every look-alike of the round-twelve corpus, in a fixed order (the same whenever it is
    asked, whether or not the samples were drawn first)."""
    _RNG.seed(_SEED + 1)
    return [
        *_speech_lookalikes(),
        *_native_lookalikes(),
        *_national_lookalikes(),
        *_public_number_lookalikes(),
        *_vendor_lookalikes(),
        *_config_lookalikes(),
        *_cli_lookalikes(),
        *_export_lookalikes(),
        *_disguise_lookalikes(),
        *_everyday_lookalikes(),
        *_hardware_lookalikes(),
        *_bank_lookalikes(),
    ]


def check() -> None:
    """The corpus holds together: every secret is in its text, texts are distinct, and the
    look-alikes share no text with the samples."""
    samples, looks = secret_samples(), lookalikes()
    for sample in samples:
        assert sample.secrets, sample.family
        for secret in sample.secrets:
            assert secret in sample.text, (sample.family, secret)
    texts = [s.text for s in samples] + [x.text for x in looks]
    assert len(set(texts)) == len(texts), "duplicate text"
    assert secret_samples() == samples, "not deterministic"
    assert lookalikes() == looks, "not deterministic"


check()
