"""The round-four redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them, and it holds only what the
docstrings of the earlier corpora do not list. It is the text an agent's daily Markdown notes
and chats pick up from careless note-takers, users moving their setup from one machine to
another, and attackers.

Secrets (:func:`secret_samples`): passwords in the prose of some forty languages none of the
earlier corpora use (Bulgarian, Serbian in both scripts, Croatian, Slovenian, Macedonian,
Lithuanian, Latvian, Estonian, Icelandic, Faroese, Catalan, Basque, Galician, Tagalog, Malay,
Albanian, Georgian, Armenian, Azerbaijani, Kazakh, Uzbek, Mongolian, Nepali, Sinhala, Khmer,
Lao, Burmese, Amharic, Yoruba, Hausa, Zulu, Afrikaans, Welsh, Irish, Maltese, Luxembourgish,
Punjabi, Gujarati, Telugu, Kannada, Malayalam, Pashto, Esperanto, Frisian, Kurdish), with the
keyword far from the value, the value on the next line or before the verb; chat phrasings
("it's … btw", "u: … p: …", a question and its answer); romanised and mixed-script speech
(Hinglish, Arabizi, Greeklish, pinyin, Japanese with an English abbreviation); shell history
lines of some twenty tools (``mysql -p…``, ``sshpass``, ``redis-cli -a``, ``smbclient -U u%p``,
``mount -o password=``, ``lftp -u``, ``7z -p``, ``zip -P``, ``openssl -passout pass:``,
``keytool -storepass``, ``htpasswd -b``, ``net use``, ``sqlcmd -P``, ``ldapsearch -w``,
``gpg --passphrase``, ``wget --password``, ``echo … | sudo -S``, ``az login -p``); ``docker run
-e``, ``podman --env`` and ``kubectl create secret --from-literal``; Terraform variables'
defaults, provider blocks and ``TF_VAR_`` prefixes; NixOS options; systemd ``Environment=`` and
``ExecStart`` flags; crontab lines; Jupyter notebook JSON (sources and outputs); CSV and TSV rows
under a header; log lines (key=value, access logs, request headers, sshd, Kubernetes bootstrap
tokens); stack traces of Python, Java and Go; URLs with userinfo (``smb://``, ``redis://``,
``ftp://``, an encoded ``@`` in the user) and query parameters of unusual names (reset and magic
links, CAS tickets, ``private_token``, ``psw``, ``passwd``); YAML anchors and merges; heredocs;
SQL ``ALTER USER … PASSWORD`` and ``IDENTIFIED BY``; tokens split over bullets; values encoded
in base64 (inside a config blob, a ``data:`` URI, a proxy header), hex, percent-escapes, Python
byte escapes and JSON ``\\u`` escapes; keys and tokens of some thirty vendors the earlier
corpora leave out (Doppler, Fly.io, Sentry user tokens, Dynatrace, Shippo, EasyPost, Square,
Plaid, Prefect, Trello, Riot, Backblaze, LaunchDarkly, PostHog, SonarQube, Yandex, Teams, IFTTT
and Zapier webhooks, Mailchimp, VK, Facebook, Azure Service Bus, Salesforce, Braintree, Asana,
ClickUp, Ghost, WordPress and Nextcloud app passwords, Plex, OpenWeather, Azure DevOps, Ngrok,
Pushover, ntfy, ElevenLabs, Infisical, Harness, Honeycomb, Kaggle) and a JWK private member;
national identity numbers of some twenty countries not covered before (Serbian, Slovenian and
Macedonian JMBG/EMŠO/EMBG, Bulgarian ЕГН in prose, Lithuanian, Latvian and Estonian personal
codes, Icelandic kennitala, Norwegian fødselsnummer, Belgian national number, Greek AMKA,
Moldovan IDNP, Austrian insurance number, Kazakh ИИН, Iranian national code, Singapore NRIC,
Hong Kong and Taiwan identity cards, Malaysian MyKad, Pakistani CNIC, Ecuadorian cédula,
Australian TFN and Medicare, Russian СНИЛС, Saudi identity number), with their check digits;
passports, tax numbers, bank accounts (IBANs of a dozen more countries, BSB, New Zealand and
CBU accounts), phone numbers, birth dates (Bengali and Persian digits, a Solar Hijri date),
cards with their security codes and e-mail addresses (plain, and spelled with the local words
for "at" and "dot") in the same languages.

Look-alikes (:func:`lookalikes`) must come through byte for byte: talk about passwords with no
value in the same languages, the same shell, container, Terraform, Nix, systemd, crontab,
notebook, CSV, log, stack-trace, URL, YAML and heredoc formats carrying no secret (values read
from files or the environment, prompts, references), placeholders, digests and checksums, ids,
order and invoice numbers in those languages, public keys and fingerprints, and prose in which
*secret*, *key*, *token* or *password* mean something else.

Every value is fake: generated from a fixed seed (``random.Random(20270301)``), with the check
digits of each national scheme computed so each value is valid in form while naming no one.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable

from stdnum.at import vnr
from stdnum.au import tfn
from stdnum.be import nn
from stdnum.bg import egn
from stdnum.ec import ci
from stdnum.ee import ik
from stdnum.gr import amka
from stdnum.gr import vat as gr_vat
from stdnum.is_ import kennitala
from stdnum.lt import asmens
from stdnum.lv import pvn
from stdnum.md import idno
from stdnum.no import fodselsnummer
from stdnum.nz import ird
from stdnum.si import ddv, emso

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20270301)
_UPPER = string.ascii_uppercase
_LOWER = string.ascii_lowercase
_DIGITS = string.digits
_ALNUM = string.ascii_letters + string.digits
_LOWER_ALNUM = _LOWER + _DIGITS
_UPPER_ALNUM = _UPPER + _DIGITS
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"
_B32 = "abcdefghijklmnopqrstuvwxyz234567"
_SYMBOLS = "!#%&+=?@^_~-"
_SAFE_SYMBOLS = "!#%^_~-"
_URL_SYMBOLS = "-_.~"


# --- generators -----------------------------------------------------------------------------


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _num(n: int) -> str:
    """``n`` digits, the first not zero."""
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
    """A memorable password: a word, a symbol and a number."""
    return f"{word}{_RNG.choice('!#@%&*')}{_RNG.randint(10, 2029)}"


def _date() -> tuple[int, int, int]:
    return _RNG.randint(1951, 2004), _RNG.randint(1, 12), _RNG.randint(1, 28)


def _card(prefix: str, length: int) -> str:
    return checkdigits.with_luhn(prefix + _r(_DIGITS, length - len(prefix) - 1))


def _fours(value: str, sep: str = " ") -> str:
    return sep.join(value[i : i + 4] for i in range(0, len(value), 4))


# --- national numbers with their check digits ------------------------------------------------


def _jmbg(region: str) -> str:
    """A JMBG / EMŠO / EMBG: DDMMYYY, a region, a serial and a mod-11 digit."""
    while True:
        y, m, d = _date()
        body = f"{d:02d}{m:02d}{y % 1000:03d}{region}{_r(_DIGITS, 3)}"
        weights = (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
        rest = sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
        if rest == 1:
            continue
        number = body + str(0 if rest == 0 else 11 - rest)
        if emso.is_valid(number) or region != "50":
            return number


def _egn() -> str:
    y, m, d = _RNG.randint(1951, 1999), _RNG.randint(1, 12), _RNG.randint(1, 28)
    body = f"{y % 100:02d}{m:02d}{d:02d}{_r(_DIGITS, 3)}"
    return body + egn.calc_check_digit(body)


def _asmens() -> str:
    while True:
        y, m, d = _date()
        lead = ("3" if y < 2000 else "5") if _RNG.random() < 0.5 else ("4" if y < 2000 else "6")
        body = f"{lead}{y % 100:02d}{m:02d}{d:02d}{_r(_DIGITS, 3)}"
        number = body + ik.calc_check_digit(body)
        if asmens.is_valid(number):
            return number


def _isikukood() -> str:
    while True:
        y, m, d = _date()
        lead = ("3" if y < 2000 else "5") if _RNG.random() < 0.5 else ("4" if y < 2000 else "6")
        body = f"{lead}{y % 100:02d}{m:02d}{d:02d}{_r(_DIGITS, 3)}"
        number = body + ik.calc_check_digit(body)
        if ik.is_valid(number):
            return number


def _personas_kods() -> str:
    while True:
        y, m, d = _date()
        century = "1" if y < 2000 else "2"
        body = f"{d:02d}{m:02d}{y % 100:02d}{century}{_r(_DIGITS, 3)}"
        for check in _DIGITS:
            if pvn.is_valid(body + check):
                return f"{body[:6]}-{body[6:]}{check}"


def _kennitala() -> str:
    while True:
        y, m, d = _RNG.randint(1951, 1999), _RNG.randint(1, 12), _RNG.randint(1, 28)
        body = f"{d:02d}{m:02d}{y % 100:02d}{_r(_DIGITS, 2)}"
        weights = (3, 2, 7, 6, 5, 4, 3, 2)
        rest = sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
        check = 0 if rest == 0 else 11 - rest
        if check == 10:
            continue
        number = f"{body}{check}9"
        if kennitala.is_valid(number):
            return f"{number[:6]}-{number[6:]}"


def _fodselsnummer() -> str:
    while True:
        y, m, d = _RNG.randint(1954, 1999), _RNG.randint(1, 12), _RNG.randint(1, 28)
        body = f"{d:02d}{m:02d}{y % 100:02d}{_RNG.randint(0, 499):03d}"
        k1 = fodselsnummer.calc_check_digit1(body)
        k2 = fodselsnummer.calc_check_digit2(body + k1)
        number = body + k1 + k2
        if fodselsnummer.is_valid(number):
            return number


def _belgian_nn() -> str:
    while True:
        y, m, d = _RNG.randint(1951, 1999), _RNG.randint(1, 12), _RNG.randint(1, 28)
        body = f"{y % 100:02d}{m:02d}{d:02d}{_RNG.randint(1, 997):03d}"
        number = body + f"{97 - int(body) % 97:02d}"
        if nn.is_valid(number):
            return f"{number[:2]}.{number[2:4]}.{number[4:6]}-{number[6:9]}.{number[9:]}"


def _amka() -> str:
    while True:
        y, m, d = _date()
        number = checkdigits.with_luhn(f"{d:02d}{m:02d}{y % 100:02d}{_r(_DIGITS, 4)}")
        if amka.is_valid(number):
            return number


def _idnp() -> str:
    while True:
        body = "2" + _r(_DIGITS, 11)
        for check in _DIGITS:
            if idno.is_valid(body + check):
                return body + check


def _austrian_vnr() -> str:
    while True:
        y, m, d = _date()
        serial = _num(3)
        for check in _DIGITS:
            number = f"{serial}{check}{d:02d}{m:02d}{y % 100:02d}"
            if vnr.is_valid(number):
                return f"{number[:4]} {number[4:]}"


def _with_check(body: str, valid: Callable[[str], bool]) -> str:
    """``body`` and the digit that makes ``valid`` accept it (a new body while none does)."""
    while True:
        for check in _DIGITS:
            if valid(body + check):
                return body + check
        body = body[0] + _r(_DIGITS, len(body) - 1)


def _iin() -> str:
    """A Kazakh ИИН: birth date, century and sex, a serial and a mod-11 digit."""
    while True:
        y, m, d = _date()
        body = f"{y % 100:02d}{m:02d}{d:02d}{3 if y < 2000 else 5}{_r(_DIGITS, 4)}"
        check = sum(int(c) * w for c, w in zip(body, range(1, 12), strict=True)) % 11
        if check == 10:
            weights = (3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2)
            check = sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 11
        if check < 10:
            return body + str(check)


def _iran_code() -> str:
    while True:
        body = _r(_DIGITS, 9)
        if len(set(body)) < 3:
            continue
        s = sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11
        return body + str(s if s < 2 else 11 - s)


def _nric() -> str:
    digits = _r(_DIGITS, 7)
    s = sum(int(c) * w for c, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True))
    return "S" + digits + "JZIHGFEDCBA"[s % 11]


def _hkid() -> str:
    letter = _RNG.choice(_UPPER)
    digits = _r(_DIGITS, 6)
    s = 36 * 9 + (ord(letter) - 55) * 8
    s += sum(int(c) * w for c, w in zip(digits, (7, 6, 5, 4, 3, 2), strict=True))
    check = (11 - s % 11) % 11
    return f"{letter}{digits}({'A' if check == 10 else check})"


_TW_LETTERS = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def _taiwan_id() -> str:
    letter = _RNG.choice("ABCDEFGHJKLMNPQRSTUVXYWZIO")
    body = _RNG.choice("12") + _r(_DIGITS, 7)
    code = _TW_LETTERS[letter]
    s = code // 10 + (code % 10) * 9
    s += sum(int(c) * w for c, w in zip(body, (8, 7, 6, 5, 4, 3, 2, 1), strict=True))
    return f"{letter}{body}{(10 - s % 10) % 10}"


def _mykad() -> str:
    y, m, d = _date()
    return f"{y % 100:02d}{m:02d}{d:02d}-{_RNG.choice(['01', '10', '14', '08'])}-{_r(_DIGITS, 4)}"


def _cnic() -> str:
    return f"{_RNG.choice('34')}{_r(_DIGITS, 4)}-{_r(_DIGITS, 7)}-{_RNG.choice('13579')}"


def _cedula_ec() -> str:
    while True:
        body = f"{_RNG.randint(1, 24):02d}{_RNG.randint(0, 5)}{_r(_DIGITS, 6)}"
        for check in _DIGITS:
            if ci.is_valid(body + check):
                return body + check


def _tfn() -> str:
    while True:
        body = _num(8)
        for check in _DIGITS:
            if tfn.is_valid(body + check):
                number = body + check
                return f"{number[:3]} {number[3:6]} {number[6:]}"


def _medicare() -> str:
    body = _RNG.choice("23456") + _r(_DIGITS, 7)
    weights = (1, 3, 7, 9, 1, 3, 7, 9)
    check = sum(int(c) * w for c, w in zip(body, weights, strict=True)) % 10
    number = f"{body}{check}{_RNG.randint(1, 9)}"
    return f"{number[:4]} {number[4:9]} {number[9]}"


def _snils() -> str:
    while True:
        body = _r(_DIGITS, 9)
        if int(body) <= 1001998:
            continue
        s = sum(int(c) * (9 - i) for i, c in enumerate(body))
        check = s if s < 100 else (0 if s in (100, 101) else s % 101)
        if check == 100:
            check = 0
        return f"{body[:3]}-{body[3:6]}-{body[6:]} {check:02d}"


def _saudi_id() -> str:
    return checkdigits.with_luhn("1" + _r(_DIGITS, 8))


def _ird() -> str:
    while True:
        body = str(_RNG.randint(10_000_000, 99_999_999))
        for check in _DIGITS:
            if ird.is_valid(body + check):
                number = body + check
                return f"{number[:3]}-{number[3:6]}-{number[6:]}"


def _hu_tax_id() -> str:
    """A Hungarian adóazonosító jel: 8, days since 1867-01-01, a serial, a mod-11 digit."""
    while True:
        body = "8" + f"{_RNG.randint(30000, 49000):05d}" + _r(_DIGITS, 3)
        check = sum(int(c) * (i + 1) for i, c in enumerate(body)) % 11
        if check < 10:
            return body + str(check)


# --- the samples -----------------------------------------------------------------------------


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _prose_passwords() -> list[Sample]:
    """Passwords in the prose of languages no earlier corpus uses."""
    lines = [
        "Паролата за рутера вкъщи е {v}, не я казвай на съседите.",
        "Новата парола, която Иван сложи вчера след одита на сървъра в Пловдив, е {v}.",
        "Лозинка за вај-фај у канцеларији: {v}",
        "lozinka od mejla mi je {v} ako zatreba",
        "Zaporka za internet bankarstvo promijenjena je u {v}.",
        "evo ti lozinka za netflix -> {v} (ne dijeli dalje)",
        "Geslo za wifi je {v}, velja do konca meseca.",
        "Лозинката за рутерот е {v}.",
        "Heslo k účtu v banke som zmenil na {v}, zapíš si ho.",
        "Mano el. pašto slaptažodis yra {v}.",
        "Slaptažodis į serverį:\n{v}",
        "Wi-Fi parole ir {v}, rūteris ir aiz televizora.",
        "Ruuteri parool on {v}, ära seda kellelegi ütle.",
        "Pangakonto salasõna: {v}",
        "Lykilorðið að netinu er {v}.",
        "nýja lykilorðið mitt fyrir tölvupóstinn er {v} btw",
        "Loyniorðið til wifi er {v}",
        "La contrasenya del correu és {v}, no la comparteixis.",
        "He canviat la contrasenya del wifi a {v}",
        "Wifiaren pasahitza {v} da.",
        "Nire posta elektronikoaren pasahitza: {v}",
        "O contrasinal do router é {v}",
        "Ang password ng wifi natin ay {v}, huwag mong ipamigay.",
        "pre yung password ng admin panel {v} lang, pakipalitan mo na lang bukas",
        "Kata kunci wifi rumah ialah {v}",
        "Fjalëkalimi i email-it tim është {v}.",
        "Wi-Fi-ს პაროლი არის {v}",
        "Իմ էլփոստի գաղտնաբառը {v} է",
        "Wi-Fi şifrəsi: {v}, heç kimə demə.",
        "Поштаның құпия сөзі — {v}",
        "Wi-Fi paroli {v}, hech kimga aytma.",
        "Wi-Fi-н нууц үг: {v}",
        "मेरो इमेलको पासवर्ड {v} हो।",
        "WiFi මුරපදය {v}",
        "ពាក្យសម្ងាត់ Wi-Fi គឺ {v}",
        "ລະຫັດຜ່ານ wifi ແມ່ນ {v}",
        "Wi-Fi စကားဝှက်က {v} ပါ",
        "የዋይፋይ የይለፍ ቃል {v} ነው",
        "Ọ̀rọ̀ aṣínà wifi ni {v}",
        "Kalmar sirri ta imel dina ita ce {v}",
        "Iphasiwedi ye-Wi-Fi ithi {v}",
        "Die wagwoord vir die roeteerder is {v}.",
        "Y cyfrinair ar gyfer y wifi yw {v}.",
        "Is é an pasfhocal don ríomhphost ná {v}",
        "Il-password tal-wifi hija {v}",
        "D'Passwuert fir de Router ass {v}.",
        "ਵਾਈਫਾਈ ਦਾ ਪਾਸਵਰਡ {v} ਹੈ",
        "મારો ઈમેલ પાસવર્ડ {v} છે",
        "వైఫై పాస్‌వర్డ్ {v}",
        "ವೈಫೈ ಪಾಸ್‌ವರ್ಡ್: {v}",
        "വൈഫൈ പാസ്‌വേഡ് {v} ആണ്",
        "د وای فای پټنوم {v} دی",
        "La pasvorto de la retpoŝto estas {v}.",
        "It wachtwurd fan de router is {v}",
        "Şîfreya wifi {v} e",
        "A jelszót, amit Péter a tegnapi karbantartás után a szerveren beállított, ide írom: {v}",
        "parola de la wifi-ul din sufragerie e {v} btw",
        "Neno la siri la benki ni {v}",
        "رمز ورود سرور:\n{v}",
        "পাসওয়ার্ড বদলে {v} করেছি",
    ]
    words = (
        "Sofia Morava Drina Triglav Nemunas Daugava Tartu Hekla Montserrat Gorbeia Lugo Bohol "
        "Penang Tirana Mtkvari Sevan Baku Almaty Samarqand Gobi Everest Kandy Angkor Mekong "
        "Bagan Lalibela Ibadan Kano Durban Karoo Snowdon Galway Gozo Vianden Amritsar Surat "
        "Godavari Mysore Kochi Kabul Esperanto Fryslan Duhok Balaton Carpati Kilimanjaro Shiraz "
        "Dhaka Pirin Rila Istra"
    ).split()
    out = []
    for index, line in enumerate(lines):
        value = _pw(_RNG.randint(10, 14)) if index % 3 else _memo(words[index % len(words)])
        out.append(_s("prose password", line.format(v=value), value))
    return out


def _chat() -> list[Sample]:
    """Chat phrasings, a keyword far from its value, a value on the next line."""
    v = [_pw(_RNG.randint(10, 13)) for _ in range(14)]
    pin = _num(4)
    texts = [
        f"it's {v[0]} btw, same as last time",
        f"lol the wifi one is literally {_memo('Pancake')}",
        f"k so for the NAS: admin / {v[1]}",
        f"pw's {v[2]} — change it after the demo",
        "The password — which Dana set on Tuesday after the audit, and which nobody else on the "
        f"team has seen yet because she was out sick the whole week — is {v[3]}.",
        f"the router login (the one on the sticker is wrong btw):\n{v[4]}",
        f"I typed {v[5]} into the bank site and it worked, so that's the one",
        f"garage door code changed, it's {pin} now",
        f"same pass as the old laptop, {v[6]}, don't judge",
        f"u: admin p: {v[7]}",
        f"login for the vendor portal is marta.k and the pass {v[8]}",
        f"Can you try {v[9]}? That's what IT gave me for the VPN.",
        f"Q: password for grafana?\nA: {v[10]}",
        f"reminder to self — {v[11]} is for the old Synology, the new one has a 2 at the end",
        f"> what's the wifi?\n\n{v[12]} (the 5G one)",
    ]
    secrets = [v[0], None, v[1], v[2], v[3], v[4], v[5], pin, v[6], v[7], v[8], v[9], v[10]]
    secrets += [v[11], v[12]]
    out = []
    for text, secret in zip(texts, secrets, strict=True):
        if secret is None:
            secret = text.rsplit(" ", 1)[1]
        out.append(_s("chat phrasing", text, secret))
    return out


def _mixed_script() -> list[Sample]:
    """Romanised and mixed-script speech."""
    v = [_pw(_RNG.randint(10, 13)) for _ in range(6)]
    texts = [
        (f"bhai wifi ka password {v[0]} hai, kisi ko mat batana", v[0]),
        (f"el password beta3 el wifi {v[1]} ya basha", v[1]),
        (f"VPNのpwは{v[2]}です", v[2]),
        (f"šifra za wifi je {v[3]}", v[3]),
        (f"o kwdikos tou wifi einai {v[4]}", v[4]),
        (f"wifi mima: {v[5]} (bie gaosu bieren)", v[5]),
    ]
    return [_s("mixed script", t, s) for t, s in texts]


def _shell() -> list[Sample]:
    """Shell history lines."""
    v = [_pw(_RNG.randint(10, 13), "!#%^_-") for _ in range(22)]
    token = _r(_ALNUM, 40)
    sp = _uuid()
    tenant = _uuid()
    texts = [
        (f"  512  mysql -u root -p{v[0]} shop_prod", v[0]),
        (f"  513  sshpass -p '{v[1]}' ssh deploy@10.0.4.12", v[1]),
        (f"$ redis-cli -h cache01 -a {v[2]} INFO keyspace", v[2]),
        (f"smbclient //nas/share -U marko%{v[3]}", v[3]),
        (
            f"sudo mount -t cifs //fs01/team /mnt/team -o username=ana,password={v[4]},vers=3.0",
            v[4],
        ),
        (f"lftp -u backup,{v[5]} sftp://files.example.org", v[5]),
        (f"7z a -p{v[6]} -mhe=on archive.7z docs/", v[6]),
        (f"zip -P {v[7]} payroll.zip payroll.xlsx", v[7]),
        (
            "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 "
            f"-passout pass:{v[8]}",
            v[8],
        ),
        (
            f"keytool -importkeystore -srckeystore a.jks -srcstorepass {v[9]} -destkeystore b.p12",
            v[9],
        ),
        (f"htpasswd -b -c /etc/nginx/.htpasswd admin {v[10]}", v[10]),
        (f"net use Z: \\\\fs01\\share /user:CORP\\jdoe {v[11]}", v[11]),
        (f"sqlcmd -S sql01 -U sa -P '{v[12]}' -Q \"select 1\"", v[12]),
        (f"ldapsearch -x -D cn=admin,dc=corp,dc=local -w {v[13]} -b dc=corp,dc=local", v[13]),
        (f"gpg --batch --passphrase {v[14]} -d secrets.tar.gpg > secrets.tar", v[14]),
        (f"wget --user=ci --password={v[15]} https://artifacts.local/build.tar.gz", v[15]),
        (f"echo '{v[16]}' | sudo -S systemctl restart nginx", v[16]),
        (f"mysqldump --user=backup --password='{v[17]}' --all-databases > all.sql", v[17]),
        (f"az login --service-principal -u {sp} -p {v[18]} --tenant {tenant}", v[18]),
        (f"docker login -u ci -p {token} registry.example.com", token),
        (f"unrar x -p{v[19]} backup-2026.rar", v[19]),
        (f"mongosh mongodb://db01:27017/admin -u root -p {v[20]}", v[20]),
    ]
    return [_s("shell history", t, s) for t, s in texts]


def _containers() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#%^_-") for _ in range(5)]
    texts = [
        (f"docker run -d -e POSTGRES_PASSWORD={v[0]} -p 5432:5432 postgres:16", v[0]),
        (
            f"docker run --rm -e MINIO_ROOT_USER=admin -e MINIO_ROOT_PASSWORD='{v[1]}' "
            "minio/minio server /data",
            v[1],
        ),
        (f"podman run --env RABBITMQ_DEFAULT_PASS={v[2]} rabbitmq:3-management", v[2]),
        (f"docker run -p 3000:3000 -e GF_SECURITY_ADMIN_PASSWORD={v[3]} grafana/grafana", v[3]),
        (f"kubectl create secret generic db --from-literal=password={v[4]} -n prod", v[4]),
    ]
    return [_s("container env", t, s) for t, s in texts]


def _terraform() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#%^_-") for _ in range(3)]
    api = _uuid()
    cf = _r(_URLSAFE, 40)
    texts = [
        (
            f'variable "admin_pw" {{\n  type    = string\n  default = "{v[0]}"\n}}',
            v[0],
        ),
        (
            'provider "proxmox" {\n  pm_api_url          = "https://pve01:8006/api2/json"\n'
            f'  pm_api_token_id     = "terraform@pve!ci"\n  pm_api_token_secret = "{api}"\n}}',
            api,
        ),
        (
            'locals {\n  smtp = {\n    host = "smtp.mailgun.org"\n'
            f'    user = "postmaster@mg.example.org"\n    pass = "{v[1]}"\n  }}\n}}',
            v[1],
        ),
        (f'terraform.tfvars:\ndb_root_pw = "{v[2]}"\nregion     = "eu-north-1"', v[2]),
        (f"TF_VAR_cloudflare_api_token={cf} terraform apply -auto-approve", cf),
    ]
    return [_s("terraform", t, s) for t, s in texts]


def _nix() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#%^_-") for _ in range(4)]
    texts = [
        f'services.nextcloud.config.adminpass = "{v[0]}";',
        f'users.users.alice.initialPassword = "{v[1]}";',
        f'networking.wireless.networks."Home-5G".psk = "{v[2]}";',
        f'services.grafana.settings.security.admin_password = "{v[3]}";',
    ]
    return [_s("nix", t, s) for t, s in zip(texts, v, strict=True)]


def _systemd() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#%^_-") for _ in range(3)]
    token = _r(_ALNUM, 36)
    texts = [
        (
            f'[Service]\nEnvironment="PGPASSWORD={v[0]}"\nExecStart=/usr/local/bin/backup.sh',
            v[0],
        ),
        (f"Environment=API_TOKEN={token} LOG_LEVEL=info", token),
        (f"sudo systemctl set-environment REDIS_PASS={v[1]}", v[1]),
        (f"ExecStart=/opt/app/bin/server --db-pass {v[2]} --port 8080", v[2]),
    ]
    return [_s("systemd unit", t, s) for t, s in texts]


def _crontab() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(3)]
    token = _r(_LOWER_ALNUM, 32)
    texts = [
        (f"0 2 * * * PGPASSWORD={v[0]} pg_dump -h db01 app > /backup/app.sql", v[0]),
        (f"*/5 * * * * curl -fsS -u monitor:{v[1]} https://status.internal/ping", v[1]),
        (
            f"30 4 * * 1 /usr/bin/mysqldump -uroot -p{v[2]} --all-databases | gzip > /bak/db.gz",
            v[2],
        ),
        (f"@reboot /usr/local/bin/tunnel --token {token} --name home", token),
    ]
    return [_s("crontab", t, s) for t, s in texts]


def _jupyter() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(2)]
    token = _r(_ALNUM, 40)
    kaggle = _r(_HEX, 32)
    cells = [
        (
            {
                "cell_type": "code",
                "execution_count": 3,
                "source": [
                    "from acme import Client\n",
                    f'client = Client(api_key="{token}")\n',
                ],
            },
            token,
        ),
        (
            {
                "cell_type": "code",
                "outputs": [
                    {"name": "stdout", "text": [f"connecting as etl with password {v[0]}\n"]}
                ],
                "source": ["connect()"],
            },
            v[0],
        ),
        (
            {
                "cell_type": "code",
                "source": ["import os\n", f'os.environ["DB_PASSWORD"] = "{v[1]}"\n'],
            },
            v[1],
        ),
        (
            {"cell_type": "code", "source": [f"!kaggle config set -n key -v {kaggle}"]},
            kaggle,
        ),
    ]
    return [_s("jupyter json", json.dumps(cell), s) for cell, s in cells]


def _csv() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(4)]
    iban = checkdigits.iban("BG", "BNBG9661" + _r(_DIGITS, 10))
    code = _asmens()
    texts = [
        (
            "username,email,password,role\n"
            f"jdoe,j.doe@example.org,{v[0]},admin\nmsmith,m.smith@example.org,{v[1]},viewer",
            (v[0], v[1], "j.doe@example.org", "m.smith@example.org"),
        ),
        (f"servei;usuari;contrasenya\nOVH;admin-web;{v[2]}\n", (v[2],)),
        (f"name,iban,amount\nIvan Petrov,{iban},120.00\n", (iban,)),
        (f"employee_id,name,personal_code\n1042,Jonas Petraitis,{code}\n", (code,)),
        (f"host\tuser\tpass\ndb01\troot\t{v[3]}\n", (v[3],)),
    ]
    return [_s("csv row", t, *s) for t, s in texts]


def _logs() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(4)]
    key = _r(_HEX, 32)
    header = _r(_ALNUM, 40)
    boot = f"{_r(_LOWER_ALNUM, 6)}.{_r(_LOWER_ALNUM, 16)}"
    texts = [
        (
            f"2026-11-03T10:22:41Z INFO auth: login ok user=admin password={v[0]} ip=10.2.3.4",
            v[0],
        ),
        (
            "127.0.0.1 - - [03/Nov/2026:10:22:41 +0000] "
            f'"GET /api/export?apikey={key}&format=csv HTTP/1.1" 200 5123',
            key,
        ),
        (
            'DEBUG urllib3: Sending headers {"X-Api-Key": "'
            f'{header}", "Accept": "application/json"}}',
            header,
        ),
        (
            f"WARN  [db-pool] connect failed: postgresql://app:{v[1]}@db01:5432/app (timeout)",
            v[1],
        ),
        (
            f"Nov 03 10:22:41 web01 sshd[2211]: Failed password for invalid user {v[2]} "
            "from 203.0.113.7 port 52144 ssh2",
            v[2],
        ),
        (f'level=error msg="smtp auth failed" user=noreply pass="{v[3]}"', v[3]),
        (f"E1103 10:22:41.123 kubeadm.go:88] bootstrap token {boot} rejected", boot),
    ]
    return [_s("log line", t, s) for t, s in texts]


def _traces() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(3)]
    key = _r(_HEX, 32)
    texts = [
        (
            'Traceback (most recent call last):\n  File "app.py", line 42, in <module>\n'
            "    conn = psycopg2.connect(dsn)\npsycopg2.OperationalError: password "
            f'authentication failed for user "app" (dsn="host=db01 user=app password={v[0]}")',
            v[0],
        ),
        (
            "java.sql.SQLException: Access denied for user 'root'@'10.0.0.5' (using password: "
            "YES)\n\tat com.mysql.cj.jdbc.ConnectionImpl.createNewIO(ConnectionImpl.java:836)\n"
            f"Caused by: config {{url=jdbc:mysql://db01/app, user=root, password={v[1]}}}",
            v[1],
        ),
        (
            f"panic: redis: AUTH {v[2]} failed: WRONGPASS invalid username-password pair\n\n"
            "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:31 +0x1d4",
            v[2],
        ),
        (
            "requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: "
            f"https://api.example.com/v2/items?access_key={key}&limit=50",
            key,
        ),
    ]
    return [_s("stack trace", t, s) for t, s in texts]


def _urls() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "-_.~") for _ in range(8)]
    reset = _b64url(32)
    magic = _r(_URLSAFE, 32)
    ticket = f"ST-{_num(6)}-{_r(_ALNUM, 20)}-cas01"
    private = _r(_URLSAFE, 20)
    texts = [
        (f"https://admin:{v[0]}@router.local/cgi-bin/luci", v[0]),
        (f"ftp://backup:{v[1]}@files.example.org/dumps/", v[1]),
        (f"https://api.example.net/v1/report?user=ops&passwd={v[2]}&fmt=json", v[2]),
        (f"Password reset link: https://app.example.com/reset?reset_token={reset}", reset),
        (
            f"Magic login: https://app.example.com/auth/magic?code={magic}&email=ana%40example.org",
            magic,
            "ana%40example.org",
        ),
        (f"https://cas.example.edu/serviceValidate?ticket={ticket}&service=x", ticket),
        (f"https://git.example.com/api/v4/projects?private_token={private}", private),
        (f"smb://ana:{v[3]}@nas.local/photos", v[3]),
        (f"REDIS_URL=redis://:{v[4]}@cache01:6379/0", v[4]),
        (f"https://jan.kowal%40corp.example:{v[5]}@proxy.corp:3128", v[5]),
        (f"http://192.168.1.1/login.cgi?username=admin&psw={v[6]}", v[6]),
        (f"amqps://svc:{v[7]}@mq.internal:5671/%2f", v[7]),
    ]
    return [_s("url", t[0], *t[1:]) for t in texts]


def _yaml_heredoc_sql() -> list[Sample]:
    v = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(8)]
    token = _r(_ALNUM, 32)
    texts = [
        (
            f"x-db: &db\n  DB_USER: app\n  DB_PASS: {v[0]}\nservices:\n  api:\n"
            "    environment:\n      <<: *db",
            "yaml anchor",
            v[0],
        ),
        (
            f"defaults: &defaults\n  adapter: postgresql\n  password: {v[1]}\n"
            "development:\n  <<: *defaults\n  database: app_dev",
            "yaml anchor",
            v[1],
        ),
        (f"common: &mail\n  smtp_secret: !!str {token}\nprod:\n  <<: *mail", "yaml anchor", token),
        (
            f"cat <<EOF > ~/.my.cnf\n[client]\nuser=root\npassword={v[2]}\nEOF",
            "heredoc",
            v[2],
        ),
        (
            f"cat > .env <<'EOF'\nMAIL_HOST=smtp.example.org\nMAIL_PASSWORD={v[3]}\n"
            "APP_DEBUG=false\nEOF",
            "heredoc",
            v[3],
        ),
        (
            "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Secret\nmetadata:\n  name: api\n"
            f"stringData:\n  token: {v[4]}\nEOF",
            "heredoc",
            v[4],
        ),
        (f"psql -d app <<SQL\nALTER USER app WITH PASSWORD '{v[5]}';\nSQL", "sql", v[5]),
        (
            f"mysql -e \"CREATE USER 'report'@'%' IDENTIFIED BY '{v[6]}';\"",
            "sql",
            v[6],
        ),
        (f"ALTER LOGIN sa WITH PASSWORD = N'{v[7]}';", "sql", v[7]),
    ]
    return [_s(family, text, secret) for text, family, secret in texts]


def _split() -> list[Sample]:
    token = _r(_ALNUM, 40)
    pw = _pw(14)
    key = _r(_HEX, 48)
    texts = [
        (
            "api key in two parts so the scanner doesn't flag it:\n"
            f"- first half: {token[:20]}\n- second half: {token[20:]}",
            (token[:20], token[20:]),
        ),
        (f"wifi pw, split:\n* {pw[:7]}\n* {pw[7:]}", (pw[:7], pw[7:])),
        (
            f"the signing key is these three joined:\n1. {key[:16]}\n2. {key[16:32]}\n"
            f"3. {key[32:]}",
            (key[:16], key[16:32], key[32:]),
        ),
    ]
    return [_s("split over bullets", t, *s) for t, s in texts]


def _encoded() -> list[Sample]:
    pw = [_pw(_RNG.randint(10, 13), "!#^_-") for _ in range(7)]
    blob = base64.b64encode(f"db_user=app\ndb_password={pw[0]}\n".encode()).decode()
    single = base64.b64encode(pw[1].encode()).decode()
    unseal = _r(_ALNUM, 24)
    unseal_hex = unseal.encode().hex()
    proxy = base64.b64encode(f"proxyuser:{pw[2]}".encode()).decode()
    pct = "".join(f"%{b:02X}" for b in pw[3].encode())
    data_uri = base64.b64encode(f"password: {pw[4]}".encode()).decode()
    py_bytes = "".join(f"\\x{b:02x}" for b in pw[5].encode())
    json_u = "".join(f"\\u{ord(c):04x}" for c in pw[6])
    texts = [
        (f"config blob (base64, paste into the app): {blob}", blob),
        (f"echo {single} | base64 -d   # the root password", single),
        (f"vault unseal key, hex-encoded: {unseal_hex}", unseal_hex),
        (f"Proxy-Authorization: Basic {proxy}", proxy),
        (f"curl -d 'user=svc&pass={pct}' https://login.example.org/api", pct),
        (f"creds attached: data:text/plain;base64,{data_uri}", data_uri),
        (f'SECRET = b"{py_bytes}"', py_bytes),
        (f'{{"password": "{json_u}"}}', json_u),
    ]
    return [_s("encoded", t, s) for t, s in texts]


def _vendors() -> list[Sample]:
    """Keys and tokens of vendors the earlier corpora leave out, in their published shapes."""
    keys = {
        "doppler": "dp.pt." + _r(_ALNUM, 43),
        "doppler_st": "dp.st.prd." + _r(_ALNUM, 40),
        "fly": "FlyV1 fm2_" + _b64url(96),
        "sentry": "sntryu_" + _r(_HEX, 64),
        "dynatrace": f"dt0c01.{_r(_UPPER_ALNUM, 24)}.{_r(_UPPER_ALNUM, 64)}",
        "shippo": "shippo_live_" + _r(_HEX, 40),
        "easypost": "EZAK" + _r(_HEX, 54),
        "square": "sq0csp-" + _r(_URLSAFE, 43),
        "plaid": "access-production-" + _uuid(),
        "prefect": "pnu_" + _r(_ALNUM, 36),
        "trello": "ATTA" + _r(_HEX, 64) + _r("0123456789ABCDEF", 8),
        "riot": "RGAPI-" + _uuid(),
        "b2": "K005" + _r(_ALNUM + "+/", 27),
        "launchdarkly": "sdk-" + _uuid(),
        "posthog": "phx_" + _r(_ALNUM, 47),
        "sonar": "sqp_" + _r(_HEX, 40),
        "yandex": "y0_AgAAAAA" + _r(_URLSAFE, 48),
        "mailchimp": _r(_HEX, 32) + "-us21",
        "vk": "vk1.a." + _r(_URLSAFE, 120),
        "facebook": "EAAG" + _r(_ALNUM, 160),
        "servicebus": _b64(32),
        "salesforce": "00D" + _r(_ALNUM, 12) + "!" + _r(_ALNUM + ".", 96),
        "braintree": f"access_token$production${_r(_LOWER_ALNUM, 16)}${_r(_HEX, 32)}",
        "asana": f"2/{_num(16)}/{_num(16)}:{_r(_HEX, 32)}",
        "clickup": f"pk_{_num(8)}_{_r(_UPPER_ALNUM, 32)}",
        "ghost": f"{_r(_HEX, 24)}:{_r(_HEX, 64)}",
        "wordpress": " ".join(_r(_ALNUM, 4) for _ in range(6)),
        "nextcloud": "-".join(_r(_ALNUM, 5) for _ in range(5)),
        "plex": _r(_URLSAFE, 20),
        "openweather": _r(_HEX, 32),
        "azdo": _r(_B32, 52),
        "ngrok": f"2{_r(_ALNUM, 26)}_{_r(_ALNUM, 21)}",
        "pushover": "a" + _r(_LOWER_ALNUM, 29),
        "ntfy": "tk_" + _r(_LOWER_ALNUM, 29),
        "elevenlabs": "sk_" + _r(_HEX, 48),
        "infisical": f"st.{_uuid()}.{_r(_HEX, 32)}.{_r(_HEX, 32)}",
        "harness": f"pat.{_r(_URLSAFE, 22)}.{_r(_HEX, 24)}.{_r(_ALNUM, 20)}",
        "honeycomb": "hcaik_" + _r(_LOWER_ALNUM, 58),
    }
    k = keys
    teams = (
        f"https://acme.webhook.office.com/webhookb2/{_uuid()}@{_uuid()}/IncomingWebhook/"
        f"{_r(_HEX, 32)}/{_uuid()}"
    )
    ifttt = _r(_URLSAFE, 22)
    zapier = f"{_num(7)}/{_r(_LOWER_ALNUM, 7)}"
    jwk_d = _b64url(32)
    texts = [
        (f"DOPPLER_TOKEN={k['doppler']}", k["doppler"]),
        (f"doppler run --token {k['doppler_st']} -- npm start", k["doppler_st"]),
        (f"FLY_API_TOKEN='{k['fly']}'", k["fly"][6:]),
        (f"sentry-cli login --auth-token {k['sentry']}", k["sentry"]),
        (f"Api-Token {k['dynatrace']}", k["dynatrace"]),
        (f"shippo key (live): {k['shippo']}", k["shippo"]),
        (f"EasyPost production key {k['easypost']}", k["easypost"]),
        (f"SQUARE_APPLICATION_SECRET: {k['square']}", k["square"]),
        (f'plaid.Item access_token = "{k["plaid"]}"', k["plaid"]),
        (f"prefect cloud login -k {k['prefect']}", k["prefect"]),
        (f"trello token for the board bot: {k['trello']}", k["trello"]),
        (f"Riot dev key (expires in 24h): {k['riot']}", k["riot"]),
        (
            f"b2 authorize-account 0051a2b3c4d5e6f0000000003 {k['b2']}",
            k["b2"],
        ),
        (f"LD_SDK_KEY={k['launchdarkly']}", k["launchdarkly"]),
        (f"POSTHOG_PERSONAL_API_KEY={k['posthog']}", k["posthog"]),
        (f"sonar-scanner -Dsonar.token={k['sonar']}", k["sonar"]),
        (f"yc config set token {k['yandex']}", k["yandex"]),
        (f"mailchimp api key {k['mailchimp']} (audience sync)", k["mailchimp"]),
        (f"VK_ACCESS_TOKEN={k['vk']}", k["vk"]),
        (f"page access token for the shop page: {k['facebook']}", k["facebook"]),
        (
            "Endpoint=sb://acme-bus.servicebus.windows.net/;SharedAccessKeyName="
            f"RootManageSharedAccessKey;SharedAccessKey={k['servicebus']}",
            k["servicebus"],
        ),
        (f"sf session id {k['salesforce']}", k["salesforce"]),
        (f"BRAINTREE_ACCESS_TOKEN={k['braintree']}", k["braintree"]),
        (f"asana PAT: {k['asana']}", k["asana"]),
        (f"clickup personal token {k['clickup']}", k["clickup"]),
        (f"Ghost Admin API key: {k['ghost']}", k["ghost"]),
        (f"WordPress application password for the deploy bot: {k['wordpress']}", k["wordpress"]),
        (f"Nextcloud app password (davx5 on the phone): {k['nextcloud']}", k["nextcloud"]),
        (
            f"http://192.168.1.20:32400/library/sections?X-Plex-Token={k['plex']}",
            k["plex"],
        ),
        (
            f"https://api.openweathermap.org/data/2.5/weather?q=Vilnius&appid={k['openweather']}",
            k["openweather"],
        ),
        (f"AZURE_DEVOPS_EXT_PAT={k['azdo']}", k["azdo"]),
        (f"ngrok config add-authtoken {k['ngrok']}", k["ngrok"]),
        (f"pushover app token {k['pushover']}", k["pushover"]),
        (f"ntfy publish --token {k['ntfy']} alerts 'disk full'", k["ntfy"]),
        (f"ELEVENLABS_API_KEY={k['elevenlabs']}", k["elevenlabs"]),
        (f"INFISICAL_TOKEN={k['infisical']}", k["infisical"]),
        (f"harness PAT {k['harness']}", k["harness"]),
        (f"HONEYCOMB_API_KEY={k['honeycomb']}", k["honeycomb"]),
        (f"Teams incoming webhook for #alerts: {teams}", teams.rsplit("/", 2)[1]),
        (f"https://maker.ifttt.com/trigger/door_open/with/key/{ifttt}", ifttt),
        (f"zap: POST https://hooks.zapier.com/hooks/catch/{zapier}/", zapier),
        (
            f'{{"kty":"EC","crv":"P-256","x":"{_b64url(32)}","y":"{_b64url(32)}","d":"{jwk_d}"}}',
            jwk_d,
        ),
    ]
    return [_s("vendor key", t, s) for t, s in texts]


def _national_ids() -> list[Sample]:
    texts = [
        ("ЈМБГ: {v}", _jmbg("71")),
        ("moj JMBG je {v}, treba za ugovor", _jmbg("80")),
        ("EMŠO {v} (za prijavo na ZZZS)", _jmbg("50")),
        ("ЕМБГ на татко ми е {v}", _jmbg("45")),
        ("ЕГН-то ми е {v}, ако трябва за договора", _egn()),
        ("asmens kodas: {v}", _asmens()),
        ("Mano asmens kodas {v}, įrašyk į sutartį", _asmens()),
        ("personas kods {v}", _personas_kods()),
        ("isikukood {v}", _isikukood()),
        ("Minu isikukood on {v}.", _isikukood()),
        ("kennitala: {v}", _kennitala()),
        ("fødselsnummeret mitt er {v}", _fodselsnummer()),
        ("rijksregisternummer {v}", _belgian_nn()),
        ("ΑΜΚΑ: {v}", _amka()),
        ("IDNP {v}", _idnp()),
        ("Sozialversicherungsnummer {v}", _austrian_vnr()),
        ("ЖСН/ИИН: {v}", _iin()),
        ("کد ملی من {v} است", _iran_code()),
        ("NRIC {v} for the visitor pass", _nric()),
        ("HKID: {v}", _hkid()),
        ("身分證字號 {v}", _taiwan_id()),
        ("No. MyKad saya {v}", _mykad()),
        ("CNIC # {v}", _cnic()),
        ("cédula de identidad {v}", _cedula_ec()),
        ("TFN {v} — for the payroll form", _tfn()),
        ("Medicare card number {v}", _medicare()),
        ("СНИЛС {v}", _snils()),
        ("رقم الهوية الوطنية {v}", _saudi_id()),
    ]
    return [_s("national id", t.format(v=v), v) for t, v in texts]


def _documents() -> list[Sample]:
    """Passports, tax numbers, bank accounts, phones, birth dates, cards, e-mails."""
    out: list[Sample] = []
    passports = [
        ("паспорт № {v}, валиден до 2031", _num(9)),
        ("broj pasoša: {v}", _num(9)),
        ("Broj putovnice {v}", _num(9)),
        ("paso numeris {v}", _num(8)),
        ("passi number {v}", "K" + _num(7)),
        ("pases numurs {v}", "LV" + _num(7)),
        ("vegabréfsnúmer {v}", "A" + _num(7)),
        ("numero ng pasaporte {v}", "P" + _num(7) + "A"),
        ("পাসপোর্ট নম্বর {v}", "A" + _num(8)),
        ("Nombor pasport: {v}", "A" + _num(8)),
        ("número de passaport {v}", "PAA" + _num(6)),
    ]
    out += [_s("passport", t.format(v=v), v) for t, v in passports]
    taxes = [
        ("adóazonosító jel: {v}", _hu_tax_id()),
        ("IRD number {v}", _ird()),
        ("Philippine TIN {v}", f"{_num(3)}-{_num(3)}-{_num(3)}-000"),
        ("KRA PIN {v}", f"A{_num(9)}Z"),
        ("davčna številka {v}", _with_check(_num(7), ddv.is_valid)),
        ("ΑΦΜ {v}", _with_check("1" + _r(_DIGITS, 7), gr_vat.is_valid)),
    ]
    out += [_s("tax number", t.format(v=v), v) for t, v in taxes]
    banks = [
        ("Račun za uplatu: {v}", checkdigits.iban("RS", _num(18))),
        ("IBAN za povrat: {v}", checkdigits.iban("HR", _num(17))),
        ("sąskaitos numeris {v}", checkdigits.iban("LT", _num(16))),
        ("konta numurs {v}", checkdigits.iban("LV", "HABA" + _r(_UPPER_ALNUM, 13))),
        ("arvelduskonto {v}", checkdigits.iban("EE", _num(16))),
        ("reikningsnúmer {v}", checkdigits.iban("IS", _num(22))),
        ("TRR: {v}", checkdigits.iban("SI", "19100" + _num(10))),
        ("ანგარიში {v}", checkdigits.iban("GE", "TB" + _num(16))),
        ("hesab nömrəsi {v}", checkdigits.iban("AZ", "NABZ" + _num(20))),
        ("шот нөмірі (IBAN) {v}", checkdigits.iban("KZ", "125" + _r(_UPPER_ALNUM, 13))),
        ("llogaria bankare {v}", checkdigits.iban("AL", _num(8) + _r(_UPPER_ALNUM, 16))),
        ("اکاؤنٹ نمبر {v}", checkdigits.iban("PK", "SCBL" + _num(16))),
    ]
    for index, (template, iban) in enumerate(banks):
        value = _fours(iban) if index % 2 else iban
        out.append(_s("bank account", template.format(v=value), value))
    account = _num(8)
    out.append(_s("bank account", f"BSB {_num(3)}-{_num(3)}, account no. {account}", account))
    nz = f"{_RNG.choice(['01', '02', '12'])}-{_num(4)}-{_num(7)}-00"
    out.append(_s("bank account", f"NZ bank account {nz}", nz))
    bengali = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")
    persian = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
    phones = [
        ("тел.: {v}", f"+359 88 {_num(3)} {_r(_DIGITS, 4)}"),
        ("mob. {v}", f"+381 64 {_num(3)} {_r(_DIGITS, 4)}"),
        ("mano tel. {v}", f"+370 6{_r(_DIGITS, 2)} {_r(_DIGITS, 5)}"),
        ("sími {v}", f"66{_r(_DIGITS, 1)} {_r(_DIGITS, 4)}"),
        ("cp # ko {v}", f"0917 {_num(3)} {_r(_DIGITS, 4)}"),
        ("no. tel bimbit {v}", f"012-{_num(3)} {_r(_DIGITS, 4)}"),
        ("মোবাইল নম্বর {v}", f"01712-{_r(_DIGITS, 6)}".translate(bengali)),
        ("شماره موبایلم {v}", f"0912 {_num(3)} {_r(_DIGITS, 4)}".translate(persian)),
        ("mòbil: {v}", f"+34 6{_r(_DIGITS, 2)} {_r(_DIGITS, 3)} {_r(_DIGITS, 3)}"),
    ]
    out += [_s("phone", t.format(v=v), v) for t, v in phones]
    y, m, d = _date()
    births = [
        ("роден на {v}", f"{d:02d}.{m:02d}.{y}"),
        ("datum rođenja: {v}.", f"{d + 1:02d}.{m:02d}.{y - 3}"),
        ("gimimo data {v}", f"{y - 1}-{m:02d}-{d:02d}"),
        ("sünniaeg {v}", f"{d:02d}.{m:02d}.{y + 1}"),
        ("fæðingardagur {v}", f"{d + 2:02d}.{m:02d}.{y - 2}"),
        ("petsa ng kapanganakan: {v}", f"{m:02d}/{d:02d}/{y + 2}"),
        ("জন্ম তারিখ: {v}", f"{d:02d}-{m:02d}-{y}".translate(bengali)),
        ("تاریخ تولد: {v}", f"13{_RNG.randint(40, 79)}/{m:02d}/{d:02d}".translate(persian)),
    ]
    out += [_s("birth date", t.format(v=v), v) for t, v in births]
    cards = [
        ("номер на картата {c}, CVV {v}", _card("4539", 16), _num(3)),
        ("kortelės numeris {c}, galioja iki 08/29, CVC {v}", _card("5312", 16), _num(3)),
        ("kortanúmer {c} öryggisnúmer {v}", _card("4571", 16), _num(3)),
        ("número de targeta {c}, codi CVV {v}", _card("4916", 16), _num(3)),
        ("numero ng card ko {c} tapos CVV {v}", _card("5198", 16), _num(3)),
    ]
    for template, number, cvv in cards:
        grouped = _fours(number)
        out.append(_s("card", template.format(c=grouped, v=cvv), grouped, cvv))
    emails = [
        ("пишете ми на {v}", "ivan.petrov маймунка abv точка bg"),
        ("piši na {v}", "marko.j majmunče gmail tačka com"),
        ("rašyk: {v}", "jonas.k eta gmail taškas com"),
        ("kirjuta {v}", "mari.tamm ät mail punkt ee"),
        ("escriu-me a {v}", "jordi arrova correu punt cat"),
        ("emel saya {v}", "aminah di yahoo titik com titik my"),
        ("Pišite mi na {v} do petka.", "jelena.markovic@posta.rs"),
        ("Netfang: {v}", "gudrun.sig@simnet.is"),
        ("ang email ko ay {v}", "juan.delacruz@yahoo.com.ph"),
    ]
    out += [_s("email", t.format(v=v), v) for t, v in emails]
    return out


def _build_samples() -> tuple[Sample, ...]:
    out: list[Sample] = []
    for part in (
        _prose_passwords,
        _chat,
        _mixed_script,
        _shell,
        _containers,
        _terraform,
        _nix,
        _systemd,
        _crontab,
        _jupyter,
        _csv,
        _logs,
        _traces,
        _urls,
        _yaml_heredoc_sql,
        _split,
        _encoded,
        _vendors,
        _national_ids,
        _documents,
    ):
        out += part()
    return tuple(out)


# --- look-alikes -----------------------------------------------------------------------------


def _build_lookalikes() -> tuple[Lookalike, ...]:
    talk = (
        "Паролата трябва да е поне 12 символа и да се сменя на всеки 90 дни.",
        "Zaboravio sam lozinku, resetirat ću je sutra ujutro.",
        "Лозинку ћу ти послати преко Signala, не овде.",
        "Geslo mora imeti vsaj 12 znakov.",
        "Heslo si zmeň každé 3 mesiace, tak to chce IT.",
        "Slaptažodis turi būti bent 10 simbolių ilgio.",
        "Parole jāmaina ik pēc 90 dienām.",
        "Parool aegub 90 päeva pärast, siis küsib uut.",
        "Lykilorðið er geymt í Bitwarden.",
        "La contrasenya és a 1Password, a la caixa forta de l'equip.",
        "Pasahitza aldatu behar da hilero.",
        "Ang password ay nasa vault, huwag i-paste dito.",
        "Kata laluan mesti sekurang-kurangnya 8 aksara.",
        "পাসওয়ার্ড ভুলে গেছি, রিসেট করতে হবে।",
        "رمز ورود را فردا عوض می‌کنم.",
        "Fjalëkalimi duhet të ketë të paktën 12 karaktere.",
        "Wi-Fi-ის პაროლი მაცივარზე წერია.",
        "Die wagwoord is in die kluis, vra vir Pieter.",
        "Mae'r cyfrinair yn y rheolwr cyfrineiriau.",
        "Kalmar sirri ta ɓace, zan sake saita ta gobe.",
        "Wi-Fi şifrəsini sabah dəyişəcəyəm.",
        "मेरो पासवर्ड बिर्सिएँ, फेरि सेट गर्छु।",
        "did you rotate the api key yet?",
        "pw is in the usual place",
        "it's the same password as before, you know the one",
        "token expired again, requesting a new one from IT",
        "the secret is to salt the water before it boils",
        "the key to the garage is under the mat",
        "Secret Santa budget is 20 € this year",
        "the password is on a sticky note on the fridge, go look",
        "the wifi network is called Livada-5G",
        "Q: password for grafana?\nA: ask Dana, it's in the vault",
        "bhai wifi ka password bhool gaya, router ke peeche likha hai",
        "VPNのpwはいつもの場所にあります",
    )
    formats = (
        "  512  mysql -u root -p shop_prod",
        "sshpass -f ~/.config/sshpass ssh deploy@10.0.4.12",
        "$ redis-cli -h cache01 INFO keyspace",
        "zip -r docs-2026-11.zip docs/",
        "7z x archive.7z -o/tmp/restore",
        "openssl rand -hex 32 > /etc/app/key.txt",
        "htpasswd -B /etc/nginx/.htpasswd admin",
        'psql "host=db01 user=app dbname=app sslmode=require"',
        "docker login -u ci --password-stdin registry.example.com < ~/.ci-token",
        "history | tail -n 50 | grep ssh",
        "docker run -d -e TZ=Europe/Vilnius -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16",
        "docker run -e POSTGRES_PASSWORD -p 5432:5432 postgres:16",
        "podman run --env-file .env app:1.4.2",
        "kubectl create secret generic db --from-file=password=./db-pass.txt -n prod",
        'variable "admin_pw" {\n  type      = string\n  sensitive = true\n}',
        "password = var.db_password",
        "password = random_password.db.result",
        'password = data.vault_generic_secret.db.data["password"]',
        "services.nextcloud.config.adminpassFile = config.age.secrets.nc.path;",
        "services.nginx.enable = true;",
        'networking.wireless.networks."Home-5G".pskRaw = "ext:psk_home";',
        "EnvironmentFile=/etc/default/app",
        "Environment=LOG_LEVEL=info PORT=8080",
        "LoadCredential=db-pass:/etc/creds/db-pass",
        "0 3 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1",
        "*/15 * * * * /opt/monitor/check --host db01 --timeout 30",
        json.dumps(
            {
                "cell_type": "code",
                "execution_count": 12,
                "outputs": [{"data": {"text/plain": ["0.8734"]}, "output_type": "execute_result"}],
                "source": ["model.score(X_test, y_test)"],
            }
        ),
        json.dumps({"metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4}),
        "order_id,sku,qty,price\n100234,SKU-8841-BLU,2,19.99\n100235,SKU-1120-RED,1,5.49",
        "date,steps,kcal\n2026-11-01,10432,2210\n2026-11-02,8120,1984",
        "host,ip,port\nweb01,10.0.1.11,443\nweb02,10.0.1.12,443",
        "username,email,password,role\njdoe,(see LDAP),(SSO),admin",
        f"2026-11-03T10:22:41Z INFO request_id={_r(_HEX, 32)} status=200 duration_ms=41",
        "127.0.0.1 - - [03/Nov/2026:10:22:41 +0000] "
        '"GET /api/items?page=3&per_page=50 HTTP/1.1" 200 5123',
        "Nov 03 10:22:41 web01 sshd[2211]: Accepted publickey for deploy from 10.0.0.8 port "
        f"52144 ssh2: ED25519 SHA256:{_b64(32)[:43]}",
        f"trace_id={_r(_HEX, 32)} span_id={_r(_HEX, 16)} sampled=1",
        "Nov 03 10:22:45 web01 sshd[2214]: Failed password for root from 203.0.113.7 port 52150",
        'level=info msg="password changed" user=ana changed_by=admin',
        'Traceback (most recent call last):\n  File "/srv/app/views.py", line 88, in login\n'
        "    user = authenticate(request, username=u, password=p)\n"
        "ValueError: password must be a string",
        "\tat com.acme.auth.PasswordValidator.validate(PasswordValidator.java:57)",
        "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:31 +0x1d4\nexit status 2",
        "Segmentation fault at 0x00007f3a2c1b4e10 in libssl.so.3",
        "https://example.com/search?q=password+manager&page=2",
        "https://docs.example.org/reset-password?lang=ca",
        "https://shop.example.com/product?id=884123&color=blue&utm_source=newsletter",
        f"https://github.com/acme/app/commit/{_r(_HEX, 40)}",
        "https://admin@router.local/cgi-bin/luci",
        "smb://nas.local/photos/2026",
        "redis://cache01:6379/0",
        "defaults: &defaults\n  adapter: postgresql\n  pool: 5\n"
        '  password: <%= ENV["DB_PASSWORD"] %>\ndevelopment:\n  <<: *defaults',
        "cat <<EOF > config.ini\n[server]\nport=8080\nworkers=4\nEOF",
        "ALTER USER app VALID UNTIL '2027-01-01';",
        "ALTER USER app WITH PASSWORD NULL;",
        "GRANT SELECT ON ALL TABLES IN SCHEMA public TO report;",
    )
    digests = (
        f"image: ghcr.io/acme/api@sha256:{_r(_HEX, 64)}",
        f'ETag: "{_r(_HEX, 32)}"',
        f'integrity="sha512-{_b64(64)}"',
        f"md5sum: {_r(_HEX, 32)}  ubuntu-24.04.iso",
        f"Fingerprint: SHA256:{_b64(32)[:43]} (ED25519)",
        f"WireGuard PublicKey = {_b64(32)}",
        f"age recipient: age1{_r('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}",
        f"PGP fingerprint {' '.join(_r('0123456789ABCDEF', 4) for _ in range(10))}",
        f"build 2026.11.3-{_r(_HEX, 7)}, chart v4.12.0-rc.3",
        f"request {_uuid()} took 312 ms",
    )
    numbers = (
        "Фактура № 0000012345 от 03.11.2026",
        "Užsakymo nr. 48213920 išsiųstas.",
        "Arve nr 2026-1142, tähtaeg 17.11.",
        "Pöntun nr. 552190 er á leiðinni.",
        "Poziv na broj 2026-11-0452",
        "Order #PH-88213 delivered sa Makati",
        "No. resit 00088213",
        "অর্ডার নম্বর ৮৮২১৩",
        "شماره سفارش ۱۲۳۴۵۶۷۸",
        "Comanda núm. 2026/0412",
        "Eskaera zenbakia: 77120",
        "EAN 5901234123457",
        "ISBN 978-9955-12-345-6",
        "the cat was born on 2019-04-12",
        "Sofia 1000, ул. Витоша 15, ет. 3",
        "LT IBAN turi 20 simbolių.",
        "Viber група: 12 члана",
        "Tracking: LT 0123 4567 8912 (DPD)",
        "Temperatura 21,5 °C, vlažnost 48 %",
        "Rezultat 3:1, gledalaca 12 450",
        "kennitala fyrirtækisins er á reikningnum",
        "JMBG ima 13 cifara, poslednja je kontrolna.",
        "ЕГН се състои от 10 цифри.",
        "isikukood algab soo ja sajandi numbriga",
        "CVV is the 3 digits on the back of the card",
    )
    placeholders = (
        "password: ********",
        "token: <YOUR_TOKEN_HERE>",
        "API_KEY=${API_KEY}",
        "lozinka: [skriveno]",
        "парола: ***",
        "slaptažodis: (žr. slaptažodžių tvarkyklę)",
        "password: xxxxxxxx",
        "token=REDACTED",
        "secret: {{ .Values.secret }}",
        "contrasenya: la de sempre",
        'DB_PASS = os.environ["DB_PASS"]',
        "if password == confirm_password:",
        "password_hash = bcrypt.hashpw(pw.encode(), bcrypt.gensalt())",
        "const token = await getToken();",
        "fn verify(token: &str) -> bool {",
    )
    out = [Lookalike("lookalike-talk", t) for t in talk]
    out += [Lookalike("lookalike-format", t) for t in formats]
    out += [Lookalike("lookalike-digest", t) for t in digests]
    out += [Lookalike("lookalike-number", t) for t in numbers]
    out += [Lookalike("lookalike-placeholder", t) for t in placeholders]
    return tuple(out)


_SAMPLES = _build_samples()
_LOOKALIKES = _build_lookalikes()


def secret_samples() -> list[Sample]:
    """Texts holding secrets, each with the exact strings redaction must remove."""
    return list(_SAMPLES)


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive: redaction must leave each byte for byte."""
    return list(_LOOKALIKES)
