"""The round-ten redaction corpus for dreamd, written blind: before the rules were read.

Nothing in it was shown to the rules or tuned against them. It leans on the files people export
from the tools of their lives and paste into a note, and on the countries and languages the
earlier rounds did not reach: a migrating user who moves a password manager, a phone's chats
and a laptop's settings into one Markdown file, and an attacker who picks those shapes because
a filter may not know them.

Secrets (:func:`secret_samples`): Markdown footnotes and tables; password-manager CSV exports
(Bitwarden, 1Password, Chrome, KeePassXC, LastPass) and a browser's saved cards; iCalendar
events with meeting passcodes and vCards with notes; email headers, forwarded requests and
signatures; chat exports of WhatsApp, Signal, Slack and Telegram; spreadsheets pasted as TSV;
LaTeX macros; Jupyter notebooks as JSON; Dockerfile ``ARG``/``ENV`` and ``docker run``;
GitHub Actions, GitLab CI and CircleCI; systemd units and credentials; Helm values and
``--set``; ``.env`` files with ``export`` and quotes; iOS plists and Android resources and
Gradle signing; Windows registry exports; PowerShell SecureString and credentials; the backup
files of authenticator apps (Aegis, 2FAS, andOTP, a migration URI) and printed backup codes;
BitLocker and FileVault recovery keys; SIM PIN and PUK; kubeconfig, rclone, s3cmd, ``gh``
and Docker's ``config.json``; tokens in package manifests; LDIF; SQL that creates users;
nginx and Apache headers; literals in Go, Rust, Java, C#, Swift, Kotlin, R, Julia and PHP;
OAuth codes and tokens in redirect URLs; Ethereum keys, an age key; PuTTY and OpenVPN keys;
HAR files; a Streamlit ``secrets.toml``; a macOS keychain dump; HTML forms; tokens of vendors
seen less often (Shopify, Atlassian, Supabase, PlanetScale, Grafana, Contentful, Dynatrace,
Brevo, Square, Databricks, Alibaba Cloud, Tencent Cloud, Yandex); national numbers of
Mexico (CURP, RFC), Argentina (CUIT, DNI), Chile (RUT), South Africa, Nigeria (NIN, BVN),
Kenya (KRA PIN), the Philippines (TIN, SSS, PhilSys), Thailand, Japan (My Number), Korea
(RRN), Israel, Portugal (NIF), Belgium, the Netherlands (BSN), Denmark (CPR), Finland
(HETU), Norway, Czechia, Romania (CNP), Hungary (TAJ, tax id), Ukraine (RNOKPP), Malaysia
(MyKad), Iran and Bangladesh; IBANs and domestic accounts (CLABE, CBU, NUBAN and others)
in Hebrew, Thai, Swahili, Tagalog, Ukrainian, Persian, Bengali, Malay, Hungarian, Czech,
Portuguese, Dutch, Danish, Finnish, Norwegian and Romanian; passwords and PINs said in
those languages and in Japanese and Korean; mobile phones of seventeen countries, some in
Persian and Bengali digits; passport numbers in travel notes; cards in a wallet note.

Look-alikes (:func:`lookalikes`) must come through byte for byte: the same files with
their secrets read from elsewhere (``${{ secrets.X }}``, ``existingSecret``,
``LoadCredential``, ``Read-Host -AsSecureString``, ``--mount=type=secret``), lock-file
hashes (``go.sum``, ``integrity``, ``Cargo.lock``, Pipfile), Subresource Integrity, image
data in a notebook and a data URI, Git LFS pointers, DKIM signatures and Message-IDs,
calendar UIDs and GEO lines, Slack timestamps and ids, registry GUIDs and DWORDs, Android
colours and version codes, app bundle versions, certificate fingerprints, Ethereum addresses
and transaction hashes named as such, public age keys, company registry numbers, postcodes,
order and invoice numbers, prices and dates in the same languages, and talk of passwords,
PINs and national numbers that holds none.

Every value is fake: drawn from ``random.Random(20301019)``, with each scheme's check digits
computed by python-stdnum where it has the scheme (and by the published rule where it does
not), so each value is valid in form while naming no one.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from types import ModuleType

import phonenumbers
from stdnum import iban as stdnum_iban
from stdnum import luhn
from stdnum.ar import cbu, cuit
from stdnum.be import nn as be_nn
from stdnum.cl import rut
from stdnum.cz import rc as cz_rc
from stdnum.dk import cpr
from stdnum.fi import hetu
from stdnum.il import idnr as il_idnr
from stdnum.jp import in_ as jp_in
from stdnum.kr import rrn
from stdnum.mx import curp, rfc
from stdnum.my import nric
from stdnum.nl import bsn
from stdnum.no import fodselsnummer
from stdnum.pt import nif
from stdnum.ro import cnp
from stdnum.th import pin as th_pin
from stdnum.ua import rntrc
from stdnum.za import idnr as za_idnr

from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20301019)
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_DIGITS = string.digits

_WORDS = (
    "Tulipan Kestrel Baobab Simba Ombak Harimau Hajnal Saudade Fjeld Revontuli Carpati "
    "Aurinko Sakura Haneul Nyota Bahari Dagat Bituin Kalina Shapla Pelangi Duna Vltava "
    "Mariposa Kolibri Tortuga Jacaranda Zambezi Laranja Molen Ravn Kuusi Nordlys Codru "
    "Kavkaz Yasaman Padma Rambutan Balaton Sumava Tejo Schelde Skagen Lappi Lofoten"
).split()


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _d(length: int) -> str:
    return _t(length, _DIGITS)


def _pw() -> str:
    """A password the way people make them: a word, digits and a sign, or a random string."""
    word = _RNG.choice(_WORDS)
    digits = str(_RNG.randrange(10, 9999))
    sign = _RNG.choice("!@#%&*?")
    style = _RNG.randrange(5)
    if style == 0:
        return f"{word}{digits}{sign}"
    if style == 1:
        return f"{word}{sign}{digits}"
    if style == 2:
        return f"{word.lower()}{sign}{_RNG.choice(_WORDS)}{digits[:2]}"
    if style == 3:
        return _t(14, _ALNUM + "!#%")
    return f"{word}.{_RNG.choice(_WORDS).lower()}.{digits}"


def _pin(length: int = 4) -> str:
    while True:
        value = _d(length)
        if value[0] != "0" and len(set(value)) > 2:
            return value


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
        if phonenumbers.is_valid_number(number):
            fmt = (
                phonenumbers.PhoneNumberFormat.INTERNATIONAL
                if style == "intl"
                else phonenumbers.PhoneNumberFormat.NATIONAL
            )
            return phonenumbers.format_number(number, fmt)
    raise AssertionError(region)


def _clabe() -> str:
    body = _RNG.choice(("002", "012", "014", "021", "072")) + "180" + _d(11)
    total = sum(int(c) * (3, 7, 1)[i % 3] % 10 for i, c in enumerate(body))
    return body + str((10 - total % 10) % 10)


def _iran_melli() -> str:
    while True:
        body = _d(9)
        total = sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11
        check = total if total < 2 else 11 - total
        if len(set(body)) > 3:
            return body + str(check)


def _taj() -> str:
    body = _RNG.choice("123456789") + _d(7)
    total = sum(int(c) * (3 if i % 2 == 0 else 7) for i, c in enumerate(body))
    return body + str(total % 10)


def _hu_tax() -> str:
    while True:
        body = "8" + str(_RNG.randrange(30000, 45000)) + _d(3)
        check = sum(int(c) * (i + 1) for i, c in enumerate(body)) % 11
        if check < 10:
            return body + str(check)


def _curp() -> str:
    def make() -> str:
        year = _RNG.randrange(60, 99)
        month, day = _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        state = _RNG.choice(("DF", "JC", "NL", "PL", "VZ", "YN", "CH"))
        letters = _RNG.choice(("GARC", "LOPM", "HEMA", "ROSJ", "MEDL", "TOVA"))
        consonants = _t(3, "BCDFGHJKLMNPRSTVZ")
        body = f"{letters}{year:02d}{month:02d}{day:02d}{_RNG.choice('HM')}{state}{consonants}0"
        return body + curp.calc_check_digit(body)

    return _valid(curp, make)


def _rfc() -> str:
    def make() -> str:
        year = _RNG.randrange(60, 99)
        month, day = _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        letters = _RNG.choice(("GOMA", "PERL", "SAVR", "MORE", "CAST"))
        body = f"{letters}{year:02d}{month:02d}{day:02d}{_t(2, 'ABCDEFGHJKLMNPRSTUVWXYZ123456789')}"
        return body + rfc.calc_check_digit(body)

    return _valid(rfc, make)


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


# --- national numbers ----------------------------------------------------------------------


def _cuit() -> str:
    body = _RNG.choice(("20", "27", "23")) + _d(8)
    return cuit.format(body + cuit.calc_check_digit(body))


def _rut() -> str:
    body = str(_RNG.randrange(5_000_000, 25_000_000))
    return rut.format(body + rut.calc_check_digit(body))


def _za() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        body = f"{y:02d}{m:02d}{d:02d}{_d(4)}0{_RNG.choice('89')}"
        return body + luhn.calc_check_digit(body)

    return _valid(za_idnr, make)


def _thai() -> str:
    body = _RNG.choice("1358") + _d(11)
    return th_pin.format(body + th_pin.calc_check_digit(body))


def _my_number() -> str:
    body = _RNG.choice("123456789") + _d(10)
    return jp_in.format(body + jp_in.calc_check_digit(body))


def _rrn() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        body = f"{y:02d}{m:02d}{d:02d}{_RNG.choice('12')}{_d(5)}"
        return body + rrn.calc_check_digit(body)

    return rrn.format(_valid(rrn, make))


def _teudat() -> str:
    return _valid(il_idnr, lambda: _RNG.choice("23") + _d(8))


def _nif() -> str:
    body = _RNG.choice("123") + _d(7)
    return body + nif.calc_check_digit(body)


def _be_nn() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        return f"{y:02d}{m:02d}{d:02d}{_d(3)}{_d(2)}"

    return be_nn.format(_valid(be_nn, make))


def _bsn() -> str:
    return _valid(bsn, lambda: _RNG.choice("12346") + _d(8))


def _cpr() -> str:
    def make() -> str:
        d, m, y = _RNG.randrange(1, 29), _RNG.randrange(1, 13), _RNG.randrange(60, 99)
        return f"{d:02d}{m:02d}{y:02d}-{_RNG.choice('01234')}{_d(3)}"

    return _valid(cpr, make)


def _hetu() -> str:
    def make() -> str:
        d, m, y = _RNG.randrange(1, 29), _RNG.randrange(1, 13), _RNG.randrange(60, 99)
        return f"{d:02d}{m:02d}{y:02d}-{_d(3)}{_RNG.choice('0123456789ABCDEFHJKLMNPRSTUVWXY')}"

    return _valid(hetu, make)


def _fnr() -> str:
    def make() -> str:
        d, m, y = _RNG.randrange(1, 29), _RNG.randrange(1, 13), _RNG.randrange(60, 99)
        body = f"{d:02d}{m:02d}{y:02d}{_d(3)}"
        first = fodselsnummer.calc_check_digit1(body)
        return body + first + fodselsnummer.calc_check_digit2(body + first)

    return _valid(fodselsnummer, make)


def _rodne() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        m += _RNG.choice((0, 50))
        return f"{y:02d}{m:02d}{d:02d}/{_d(4)}"

    return cz_rc.format(_valid(cz_rc, make))


def _cnp() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        body = f"{_RNG.choice('12')}{y:02d}{m:02d}{d:02d}{_RNG.randrange(1, 40):02d}{_d(3)}"
        return body + cnp.calc_check_digit(body)

    return _valid(cnp, make)


def _rnokpp() -> str:
    body = _RNG.choice("23") + _d(8)
    return body + rntrc.calc_check_digit(body)


def _mykad() -> str:
    def make() -> str:
        y, m, d = _RNG.randrange(60, 99), _RNG.randrange(1, 13), _RNG.randrange(1, 29)
        return f"{y:02d}{m:02d}{d:02d}{_RNG.choice(('14', '10', '08', '01'))}{_d(4)}"

    return nric.format(_valid(nric, make))


def _cbu() -> str:
    return _valid(cbu, lambda: "0170" + _d(18))


_FA = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
_BN = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")


def _national_samples() -> list[Sample]:
    out: list[Sample] = []
    c1, c2, r1, r2 = _curp(), _curp(), _rfc(), _rfc()
    out += [
        _s("mexico curp rfc", f"Trámite del IMSS: mi CURP es {c1} y el RFC {r1}.", c1, r1),
        _s(
            "mexico curp rfc",
            f"nombre,curp,rfc,puesto\nAna Gómez,{c2},{r2},contadora\n",
            c2,
            r2,
        ),
    ]
    cu1, cu2, dni = _cuit(), _cuit(), f"{_RNG.randrange(20, 45)}.{_d(3)}.{_d(3)}"
    out += [
        _s("argentina cuit dni", f"Para la factura: CUIT {cu1}, DNI {dni} (monotributo)", cu1, dni),
        _s("argentina cuit dni", f"- [ ] pasarle a la contadora el CUIL de mamá: {cu2}", cu2),
    ]
    ru1, ru2 = _rut(), _rut()
    out += [
        _s("chile rut", f"Boleta a nombre de Felipe, RUT {ru1}, retiro en sucursal.", ru1),
        _s("chile rut", f"| Paciente | RUT |\n|---|---|\n| Camila Soto | {ru2} |", ru2),
    ]
    z1, z2 = _za(), _za()
    out += [
        _s("south africa id", f"SASSA form: applicant ID number {z1}, Soweto.", z1),
        _s("south africa id", f"Thandi's ID no: {z2} (for the FICA docs)", z2),
    ]
    nin, bvn = _d(11), "22" + _d(9)
    out += [
        _s("nigeria nin bvn", f"Abeg use my NIN {nin} and BVN {bvn} for the GTBank form", nin, bvn),
    ]
    kra, kid = f"A{_d(9)}{_RNG.choice(string.ascii_uppercase)}", _d(8)
    out += [
        _s("kenya kra pin", f"KRA PIN yangu ni {kra}, na namba ya kitambulisho {kid}.", kra, kid),
    ]
    tin = f"{_d(3)}-{_d(3)}-{_d(3)}-000"
    sss = f"{_d(2)}-{_d(7)}-{_d(1)}"
    psn = _grouped(_d(16), 4, "-")
    out += [
        _s("philippines ids", f"Para sa BIR: TIN ko ay {tin}. SSS No. {sss}.", tin, sss),
        _s("philippines ids", f"PhilSys Card Number (PCN): {psn}", psn),
    ]
    th1, th2 = _thai(), _thai()
    out += [
        _s("thailand id", f"เลขประจำตัวประชาชน {th1} สำหรับเปิดบัญชี", th1),
        _s("thailand id", f"ID card (บัตรประชาชน) of landlord: {th2}", th2),
    ]
    mn1, mn2 = _my_number(), _my_number()
    out += [
        _s("japan my number", f"マイナンバー：{mn1}（年末調整用）", mn1),
        _s(
            "japan my number",
            f"個人番号 {mn2.replace(' ', '')} を会社に提出済み",
            mn2.replace(" ", ""),
        ),
    ]
    k1, k2 = _rrn(), _rrn()
    out += [
        _s("korea rrn", f"주민등록번호: {k1} (은행 서류용)", k1),
        _s("korea rrn", f"mom's RRN for the hospital form is {k2}", k2),
    ]
    i1, i2 = _teudat(), _teudat()
    out += [
        _s("israel id", f"מספר תעודת זהות: {i1} (לטופס של קופת חולים)", i1),
        _s("israel id", f"ת.ז. של אבא {i2}", i2),
    ]
    n1, n2 = _nif(), _nif()
    out += [
        _s("portugal nif", f"Fatura com contribuinte n.º {n1}, por favor.", n1),
        _s("portugal nif", f"NIF da Joana: {n2} — IRS automático", n2),
    ]
    b1, b2 = _be_nn(), _be_nn()
    out += [
        _s("belgium national number", f"Numéro de registre national : {b1}", b1),
        _s("belgium national number", f"rijksregisternummer van oma {b2}", b2),
    ]
    bs1, bs2 = _bsn(), _bsn()
    out += [
        _s("netherlands bsn", f"Voor de huurtoeslag: BSN {bs1}, geboren 1984.", bs1),
        _s("netherlands bsn", f"burgerservicenummer Daan: {bs2}", bs2),
    ]
    cp1, cp2 = _cpr(), _cpr()
    out += [
        _s("denmark cpr", f"Lægen skal bruge mit CPR-nr. {cp1} ved ankomst.", cp1),
        _s("denmark cpr", f"cpr nummer (Freja) {cp2.replace('-', '')}", cp2.replace("-", "")),
    ]
    h1, h2 = _hetu(), _hetu()
    out += [
        _s("finland hetu", f"Henkilötunnus: {h1} (Kela-hakemus)", h1),
        _s("finland hetu", f"Aino's social security number {h2}", h2),
    ]
    f1, f2 = _fnr(), _fnr()
    out += [
        _s("norway fodselsnummer", f"Fødselsnummer til Ingrid: {f1}", f1),
        _s(
            "norway fodselsnummer", f"Skattemeldingen — fnr {f2[:6]} {f2[6:]}", f"{f2[:6]} {f2[6:]}"
        ),
    ]
    rc1, rc2 = _rodne(), _rodne()
    out += [
        _s("czech rodne cislo", f"Rodné číslo: {rc1}, pojišťovna 111", rc1),
        _s("czech rodne cislo", f"RČ syna pro školku {rc2}", rc2),
    ]
    cn1, cn2 = _cnp(), _cnp()
    out += [
        _s("romania cnp", f"CNP-ul meu este {cn1}, pentru dosarul de la ANAF.", cn1),
        _s("romania cnp", f"Cod numeric personal: {cn2}", cn2),
    ]
    taj, adoaz = _taj(), _hu_tax()
    taj_spaced = f"{taj[:3]} {taj[3:6]} {taj[6:]}"
    out += [
        _s(
            "hungary taj tax",
            f"TAJ szám: {taj_spaced}, adóazonosító jel: {adoaz}",
            taj_spaced,
            adoaz,
        ),
    ]
    u1, u2 = _rnokpp(), _rnokpp()
    out += [
        _s("ukraine rnokpp", f"РНОКПП (ІПН) для довідки: {u1}", u1),
        _s("ukraine rnokpp", f"ідентифікаційний код мами {u2}, паспорт у шухляді", u2),
    ]
    my1, my2 = _mykad(), _mykad()
    out += [
        _s("malaysia mykad", f"No. MyKad saya {my1} untuk borang LHDN.", my1),
        _s("malaysia mykad", f"IC number: {my2.replace('-', '')}", my2.replace("-", "")),
    ]
    ir1, ir2 = _iran_melli(), _iran_melli()
    out += [
        _s("iran national code", f"کد ملی من {ir1} است", ir1),
        _s("iran national code", f"کد ملی پدر: {ir2.translate(_FA)}", ir2.translate(_FA)),
    ]
    bd1, bd2 = _RNG.choice("123456789") + _d(9), "19" + _d(15)
    out += [
        _s("bangladesh nid", f"আমার জাতীয় পরিচয়পত্র নম্বর {bd1}", bd1),
        _s("bangladesh nid", f"NID (old, 17 digits): {bd2}", bd2),
    ]
    return out


# --- banks ---------------------------------------------------------------------------------


def _bank_samples() -> list[Sample]:
    il = _iban("IL", lambda: "0108" + _d(15))
    pt = _iban("PT", lambda: "0035" + _d(17))
    be = _iban("BE", lambda: _d(12))
    nl = _iban("NL", lambda: _RNG.choice(("ABNA", "INGB", "RABO")) + _d(10))
    dk = _iban("DK", lambda: _d(14))
    fi = _iban("FI", lambda: _d(14))
    no = _iban("NO", lambda: _d(11))
    cz = _iban("CZ", lambda: "0800" + _d(16))
    ro = _iban("RO", lambda: "BTRL" + _t(16, string.digits + "ABCDEFGH"))
    hu = _iban("HU", lambda: _d(24))
    ua = _iban("UA", lambda: "305299" + _d(19))
    ir = _mod97("IR", "0120" + _d(18))  # python-stdnum has no Iranian IBAN
    clabe, cbu_n, nuban = _clabe(), _cbu(), _d(10)
    th_acct = f"{_d(3)}-{_d(1)}-{_d(5)}-{_d(1)}"
    ke_acct = _d(13)
    ph_acct = _d(12)
    bd_acct = _d(13)
    my_acct = _d(12)
    return [
        _s("iban hebrew", f"פרטי חשבון להעברה: IBAN {_grouped(il)}, בנק לאומי", _grouped(il)),
        _s("iban portuguese", f"Transferência para o senhorio — IBAN: {pt}", pt),
        _s("iban belgian", f"Virement loyer: BE compte {_grouped(be)} (Mme Peeters)", _grouped(be)),
        _s("iban dutch", f"Tikkie kwam niet aan, maak het over op {nl} t.n.v. S. de Vries", nl),
        _s("iban danish", f"Kontonummer til huslejen: IBAN {dk}", dk),
        _s("iban finnish", f"Tilinumero: {_grouped(fi)} (Aino Virtanen)", _grouped(fi)),
        _s(
            "iban norwegian",
            f"Kontonummeret mitt er {no[4:8]}.{no[8:10]}.{no[10:]}",
            f"{no[4:8]}.{no[8:10]}.{no[10:]}",
        ),
        _s("iban czech", f"Číslo účtu pro zálohu: {_grouped(cz)}", _grouped(cz)),
        _s("iban romanian", f"Contul meu IBAN este {ro}, Banca Transilvania", ro),
        _s("iban hungarian", f"Számlaszám (IBAN): {_grouped(hu)}", _grouped(hu)),
        _s("iban ukrainian", f"Реквізити для переказу: IBAN {ua}, ПриватБанк", ua),
        _s("iban persian", f"شماره شبا: {ir}", ir),
        _s("domestic account", f"CLABE interbancaria para el depósito: {clabe}", clabe),
        _s("domestic account", f"CBU de mi cuenta sueldo {cbu_n} (alias no lo recuerdo)", cbu_n),
        _s(
            "domestic account",
            f"Send the money to GTBank, account number {nuban}, Chinedu O.",
            nuban,
        ),
        _s("domestic account", f"เลขที่บัญชีกสิกร {th_acct} ชื่อ สมชาย", th_acct),
        _s(
            "domestic account", f"Tuma pesa kwa akaunti ya Equity {ke_acct}, jina Wanjiru.", ke_acct
        ),
        _s("domestic account", f"Pakideposito sa BDO account no. {ph_acct}, salamat!", ph_acct),
        _s("domestic account", f"ব্যাংক হিসাব নম্বর {bd_acct} (ডাচ-বাংলা ব্যাংক)", bd_acct),
        _s("domestic account", f"No. akaun Maybank: {my_acct} (Siti)", my_acct),
    ]


# --- passwords and PINs said in other languages ---------------------------------------------


def _prose_samples() -> list[Sample]:
    phrases = [
        "הסיסמה לוויי-פיי היא {}",
        "הסיסמה החדשה של הבנק: {}",
        "รหัสผ่านอีเมลคือ {}",
        "รหัส wifi ที่บ้าน: {}",
        "Nenosiri la benki ni {} usimwambie mtu",
        "nywila ya wifi: {}",
        "Ang password ng wifi ay {}",
        "bagong password ko sa Lazada: {}",
        "Пароль від пошти: {}",
        "новий пароль — {}",
        "رمز عبور ایمیل من {} است",
        "আমার ইমেইলের পাসওয়ার্ড হলো {}",
        "Kata laluan wifi rumah: {}",
        "kata laluan baru ialah {}",
        "A jelszó a routerhez: {}",
        "az új jelszavam {}",
        "Heslo k wifi je {}",
        "nové heslo do banky: {}",
        "a senha do Nubank é {}",
        "het wachtwoord van de NAS is {}",
        "adgangskoden til MitID-appen er {}",
        "salasana on {}",
        "passordet til ruteren er {}",
        "parola de la router este {}",
        "Wi-Fiのパスワードは{}です",
        "비밀번호는 {}입니다",
        "Mật mã mới: {}",
    ]
    out = []
    for phrase in phrases:
        pw = _pw()
        out.append(_s("password, other languages", phrase.format(pw), pw))
    pins = [
        "הקוד לכספומט {}",
        "PIN ke kartě je {}",
        "a kártya PIN kódja {}",
        "ПІН-код картки {}",
        "รหัส ATM {}",
        "nombor PIN kad: {}",
        "MPIN ko sa GCash ay {}",
        "PIN ya M-Pesa ni {}",
        "o PIN do cartão é {}",
        "pincode van de bankpas: {}",
        "koden til porten er {}#",
        "کد عابربانک {}",
    ]
    for phrase in pins:
        pin = _pin(_RNG.choice((4, 4, 4, 6)))
        out.append(_s("pin, other languages", phrase.format(pin), pin))
    english = [
        "I told Dana my bank password was {} — need to change it",
        "note to self: laptop login {} (don't forget the sign)",
        "Gran's iPad password is {} written on the fridge",
        "wifi at the cabin → {}",
        "Mum's email: same as always, {}",
        "he typed {} twice before the vault opened",
    ]
    for phrase in english:
        pw = _pw()
        out.append(_s("password in english prose", phrase.format(pw), pw))
    return out


def _phone_samples() -> list[Sample]:
    il = _phone("IL", ("050", "052", "054", "058"), 10)
    th = _phone("TH", ("081", "089", "062"), 10, "national")
    ke = _phone("KE", ("0712", "0722", "0790"), 10, "national")
    ng = _phone("NG", ("0803", "0806", "0813"), 11, "national")
    ph = _phone("PH", ("0917", "0918", "0927"), 11, "national")
    ua = _phone("UA", ("067", "050", "093"), 10)
    ir = _phone("IR", ("0912", "0935"), 11, "national")
    bd = _phone("BD", ("01712", "01812", "01912"), 11, "national")
    my = _phone("MY", ("012", "017", "019"), 10, "national")
    hu = _phone("HU", ("0620", "0630", "0670"), 11, "national")
    cz = _phone("CZ", ("601", "602", "731"), 9)
    mx = _phone("MX", ("55", "33", "81"), 10)
    ar = _phone("AR", ("91123", "91155"), 11)
    cl = _phone("CL", ("9",), 9)
    za = _phone("ZA", ("072", "082", "083"), 10, "national")
    jp = _phone("JP", ("090", "080"), 11, "national")
    kr = _phone("KR", ("010",), 11, "national")
    return [
        _s("phone", f"הנייד של רונית: {il}", il),
        _s("phone", f"โทรหาพี่ได้ที่ {th} นะ", th),
        _s("phone", f"Nipigie kwa {ke} ukifika Nairobi", ke),
        _s("phone", f"call me on {ng} when you land for Lagos", ng),
        _s("phone", f"text mo ako sa {ph} pag nandito ka na", ph),
        _s("phone", f"мій новий номер {ua}, старий не працює", ua),
        _s(
            "phone",
            f"شماره موبایل من {ir.replace(' ', '').translate(_FA)}",
            ir.replace(" ", "").translate(_FA),
        ),
        _s(
            "phone",
            f"আমার মোবাইল নম্বর {bd.replace('-', '').translate(_BN)}",
            bd.replace("-", "").translate(_BN),
        ),
        _s("phone", f"WhatsApp Aminah: {my}", my),
        _s("phone", f"A szerelő száma: {hu}", hu),
        _s("phone", f"Volej mi na {cz}", cz),
        _s("phone", f"mi cel es {mx}, escríbeme por WhatsApp", mx),
        _s("phone", f"celu de Martín: {ar}", ar),
        _s("phone", f"el fono del gásfiter {cl}", cl),
        _s("phone", f"Sipho's cell {za}", za),
        _s("phone", f"携帯：{jp}（田中）", jp),
        _s("phone", f"민지 핸드폰 번호 {kr}", kr),
    ]


def _passport_samples() -> list[Sample]:
    p1 = _RNG.choice("CFGHJK") + _t(8, "CFGHJKLMNPRTVWXYZ0123456789")
    p2 = _t(2, string.ascii_uppercase) + _d(7)
    p3 = _RNG.choice("EPS") + _d(8)
    p4 = _t(2, string.ascii_uppercase) + _d(6)
    p5 = "P" + _d(7) + _RNG.choice(string.ascii_uppercase)
    return [
        _s("passport", f"Flight to Lisbon — passport no. {p1}, expires 2031", p1),
        _s("passport", f"numer paszportu Ewy {p2} (wiza do Kenii)", p2),
        _s("passport", f"hộ chiếu số {p3} của bố", p3),
        _s("passport", f"Check-in form: Passport number: {p4} / nationality: NL", p4),
        _s("passport", f"pasaporte (Filipino) {p5} — renew before March", p5),
    ]


def _card_samples() -> list[Sample]:
    v, m, a = _card("4539"), _card("5425"), _card("3782", 15)
    mir, jcb, unionpay = _card("2202"), _card("3566"), _card("6250")
    cvv = _d(3)
    return [
        _s("card", f"כרטיס אשראי: {_grouped(v)} תוקף 09/29 CVV {cvv}", _grouped(v), cvv),
        _s("card", f"บัตรเครดิต {m} หมดอายุ 11/28", m),
        _s("card", f"Amex ya kazi {a[:4]} {a[4:10]} {a[10:]}", f"{a[:4]} {a[4:10]} {a[10:]}"),
        _s("card", f"Карта МИР: {_grouped(mir, 4, '-')}", _grouped(mir, 4, "-")),
        _s("card", f"JCBカード番号 {jcb}", jcb),
        _s("card", f"银联卡 {_grouped(unionpay)}", _grouped(unionpay)),
    ]


# --- files people export -------------------------------------------------------------------


def _markdown_samples() -> list[Sample]:
    gh, pw1, pw2 = "ghp_" + _t(36), _pw(), _pw()
    sk = "sk_live_" + _t(24)
    tok = "xoxp-" + _d(11) + "-" + _d(12) + "-" + _d(13) + "-" + _t(32, _HEX)
    return [
        _s(
            "markdown footnote",
            "Moved the deploy to the new runner.[^tok]\n\n"
            f"[^tok]: token used for the push was {gh}, revoke after.",
            gh,
        ),
        _s(
            "markdown footnote",
            "The router sits behind the TV[^1] and the NAS[^2].\n\n"
            f"[^1]: admin / {pw1}\n[^2]: login: nas-admin, password {pw2}",
            pw1,
            pw2,
        ),
        _s(
            "markdown footnote",
            f"Billing works again.^[Stripe key in the old `.env` was `{sk}`.]",
            sk,
        ),
        _s(
            "markdown table",
            "| service | user | secret |\n|---|---|---|\n"
            f"| slack | me | `{tok}` |\n| shop | admin | {pw1[::-1] + 'Q'} |",
            tok,
            pw1[::-1] + "Q",
        ),
    ]


def _password_manager_samples() -> list[Sample]:
    rows = [(_pw(), _t(32, _B32)) for _ in range(5)]
    bw = "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n"
    bw += "".join(
        f",,login,Site{i},,,0,https://site{i}.example,me{i}@mail.example,{pw},{totp}\n"
        for i, (pw, totp) in enumerate(rows)
    )
    op_pw = [_pw() for _ in range(5)]
    op = "Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes\n"
    op += "".join(
        f'"Bank {i}","https://bank{i}.example","anna","{pw}",,false,false,,\n'
        for i, pw in enumerate(op_pw)
    )
    ch_pw = [_pw() for _ in range(5)]
    chrome = "name,url,username,password,note\n" + "".join(
        f"shop{i}.example,https://shop{i}.example/login,kofi{i},{pw},\n"
        for i, pw in enumerate(ch_pw)
    )
    kp_pw = [_pw() for _ in range(4)]
    keepass = '"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\n'
    keepass += "".join(
        f'"Root/Email","Mail {i}","petra","{pw}","https://mail.example","","","0","2030-01-0{i + 1}T10:00:00Z",""\n'
        for i, pw in enumerate(kp_pw)
    )
    lp_pw = [_pw() for _ in range(4)]
    lastpass = "url,username,password,totp,extra,name,grouping,fav\n" + "".join(
        f"https://forum{i}.example,nadia,{pw},,,Forum {i},Social,0\n" for i, pw in enumerate(lp_pw)
    )
    return [
        _s("password manager csv", bw, *(x for row in rows for x in row)),
        _s("password manager csv", op, *op_pw),
        _s("password manager csv", chrome, *ch_pw),
        _s("password manager csv", keepass, *kp_pw),
        _s("password manager csv", lastpass, *lp_pw),
    ]


def _autofill_samples() -> list[Sample]:
    c1, c2 = _card("4916"), _card("5168")
    iban = _iban("NL", lambda: "INGB" + _d(10))
    return [
        _s(
            "browser autofill",
            "guid,name_on_card,expiration_month,expiration_year,card_number,nickname\n"
            f"5f0e...,Lea Novak,7,2029,{c1},Visa\n"
            f"9a1c...,Lea Novak,3,2030,{c2},Mastercard\n",
            c1,
            c2,
        ),
        _s(
            "browser autofill",
            f"Firefox saved payment methods:\n  • IBAN {iban} (Lea)\n  • Card ending 4242",
            iban,
        ),
    ]


def _calendar_samples() -> list[Sample]:
    zpwd = _t(32, _ALNUM)
    code = _d(6)
    pin = _d(8)
    teams = _d(6)
    return [
        _s(
            "icalendar",
            "BEGIN:VEVENT\nUID:7c1e2a90-3b44-4b8e-9d2f-0a1b2c3d4e5f\nDTSTART:20300314T090000Z\n"
            "SUMMARY:Quarterly review\n"
            f"LOCATION:https://us02web.zoom.us/j/{_d(11)}?pwd={zpwd}\n"
            f"DESCRIPTION:Join Zoom. Passcode: {code}\\nDial-in PIN {pin}#\nEND:VEVENT",
            zpwd,
            code,
            pin,
        ),
        _s(
            "icalendar",
            "BEGIN:VEVENT\nSUMMARY:Board call\n"
            f"DESCRIPTION:Microsoft Teams meeting\\nMeeting ID: 349 221 087 615\\nPasscode: {teams}\n"
            "END:VEVENT",
            teams,
        ),
    ]


def _vcard_samples() -> list[Sample]:
    pin, pw = _pin(), _pw()
    ssn = f"{_RNG.randrange(100, 665)}-{_d(2)}-{_d(4)}"
    tel = _phone("NL", ("0612", "0623", "0645"), 10)
    return [
        _s(
            "vcard",
            "BEGIN:VCARD\nVERSION:3.0\nFN:Grandpa Joe\n"
            f"TEL;TYPE=CELL:{tel}\nNOTE:alarm code {pin}\\, wifi {pw}\nEND:VCARD",
            tel,
            pin,
            pw,
        ),
        _s(
            "vcard",
            f"BEGIN:VCARD\nVERSION:4.0\nFN:Jordan Reyes\nX-SSN:{ssn}\nEND:VCARD",
            ssn,
        ),
    ]


def _email_samples() -> list[Sample]:
    key = _t(40, _HEX)
    bearer = "eyJhbGciOiJIUzI1NiJ9." + _t(60, _URLSAFE) + "." + _t(43, _URLSAFE)
    temp = _pw()
    mob = _phone("ZA", ("082", "083"), 10)
    iban = _iban("PT", lambda: "0033" + _d(17))
    return [
        _s(
            "email headers",
            "Received: from mx.example (203.0.113.5)\nX-Mailer: curl/8.5\n"
            f"X-Api-Key: {key}\nSubject: nightly export",
            key,
        ),
        _s(
            "email headers",
            "---------- Forwarded message ---------\nFrom: ops\n\n"
            f"> POST /v2/export HTTP/1.1\n> Authorization: Bearer {bearer}\n",
            bearer,
        ),
        _s(
            "email signature",
            f"Your temporary password is: {temp}\nPlease change it on first login.\n-- \nIT Desk",
            temp,
        ),
        _s(
            "email signature",
            f"Kind regards,\nPieter\n--\nMobile {mob}\nIBAN {iban}\nSent from my phone",
            mob,
            iban,
        ),
    ]


def _chat_samples() -> list[Sample]:
    pw1, pw2, pin, otp = _pw(), _pw(), _pin(), _d(6)
    pw3 = _pw()
    slack_tok = "xoxb-" + _d(12) + "-" + _d(13) + "-" + _t(24)
    aws = "AKIA" + _t(16, string.ascii_uppercase + "234567")
    aws_s = _t(40, _B64)
    tg_pw = _pw()
    signal_pw = _pw()
    return [
        _s(
            "whatsapp export",
            f"[12/03/2030, 14:22:01] Mum: what's the netflix password again\n"
            f"[12/03/2030, 14:23:40] Tomás: {pw1}\n"
            f"[12/03/2030, 14:24:02] Mum: and the card pin?\n[12/03/2030, 14:24:30] Tomás: {pin}",
            pw1,
            pin,
        ),
        _s(
            "whatsapp export",
            f"14/05/30, 9:02 PM - Kofi: the code they sent me is {otp}\n"
            f"14/05/30, 9:03 PM - Kofi: and new password {pw2}",
            otp,
            pw2,
        ),
        _s(
            "whatsapp export",
            f"[3/7/30 08:15:11] Bà Ngoại: mật khẩu wifi là {pw3}",
            pw3,
        ),
        _s(
            "signal export",
            f"Sarah (2030-02-11 18:04): door code changed, the new one is {signal_pw}",
            signal_pw,
        ),
        _s(
            "slack export",
            json.dumps(
                [
                    {
                        "type": "message",
                        "user": "U024BE7LH",
                        "ts": "1912345678.000200",
                        "text": f"here's the bot token for the staging app: {slack_tok}",
                    },
                    {
                        "type": "message",
                        "user": "U012AB3CD",
                        "ts": "1912345690.000300",
                        "text": f"aws creds for the sandbox {aws} / {aws_s}",
                    },
                ],
                indent=2,
            ),
            slack_tok,
            aws,
            aws_s,
        ),
        _s(
            "telegram export",
            json.dumps(
                {
                    "name": "Family",
                    "messages": [
                        {
                            "id": 31,
                            "date": "2030-04-01T10:00:00",
                            "from": "Olena",
                            "text": f"пароль від Дії {tg_pw}",
                        },
                    ],
                },
                ensure_ascii=False,
            ),
            tg_pw,
        ),
    ]


def _tsv_samples() -> list[Sample]:
    ib = [_iban("DK", lambda: _d(14)) for _ in range(4)]
    cprs = [_cpr() for _ in range(4)]
    rows = "\n".join(f"Emp{i}\t{cprs[i]}\t{ib[i]}\t42.000 kr" for i in range(4))
    pws = [_pw() for _ in range(5)]
    acc = "\n".join(f"vm-{i}\troot\t{pws[i]}\t10.0.0.{i + 10}" for i in range(5))
    cur = [_curp() for _ in range(4)]
    return [
        _s("tsv paste", "Navn\tCPR\tKonto\tLøn\n" + rows, *cprs, *ib),
        _s("tsv paste", "host\tuser\tpassword\tip\n" + acc, *pws),
        _s(
            "tsv paste",
            "Nombre\tCURP\tTeléfono\n" + "\n".join(f"P{i}\t{c}\t—" for i, c in enumerate(cur)),
            *cur,
        ),
    ]


def _latex_samples() -> list[Sample]:
    key, pw = "sk-" + _t(48), _pw()
    orcid_pw = _pw()
    return [
        _s(
            "latex",
            "\\documentclass{article}\n"
            f"\\newcommand{{\\apikey}}{{{key}}}\n"
            "\\begin{document}Results\\end{document}",
            key,
        ),
        _s(
            "latex",
            f"% overleaf login: me@uni.example / {pw}\n\\section{{Methods}}",
            pw,
        ),
        _s("latex", f"\\def\\dbpassword{{{orcid_pw}}}\n\\input{{tables}}", orcid_pw),
    ]


def _notebook_samples() -> list[Sample]:
    key = "sk-proj-" + _t(48, _URLSAFE) + "T3BlbkFJ" + _t(20, _URLSAFE)
    hf = "hf_" + _t(34)
    pw = _pw()
    nb = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": 3,
                "id": "9c2f1b7e",
                "metadata": {},
                "source": [
                    "import os\n",
                    f"os.environ['OPENAI_API_KEY'] = '{key}'\n",
                    f'login(token="{hf}")\n',
                ],
                "outputs": [],
            }
        ],
        "nbformat": 4,
    }
    nb2 = {
        "cells": [
            {
                "cell_type": "code",
                "source": ["conn = psycopg2.connect(host='db', user='ana', password='" + pw + "')"],
                "outputs": [{"name": "stdout", "output_type": "stream", "text": ["connected\n"]}],
            }
        ]
    }
    return [
        _s("jupyter json", json.dumps(nb, indent=1), key, hf),
        _s("jupyter json", json.dumps(nb2), pw),
    ]


def _docker_samples() -> list[Sample]:
    npm = "npm_" + _t(36)
    pw, pw2 = _pw(), _pw()
    gh = "ghp_" + _t(36)
    return [
        _s(
            "dockerfile",
            "FROM node:22-alpine\n"
            f"ARG NPM_TOKEN={npm}\n"
            'RUN echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" > .npmrc\n'
            f'ENV DB_PASSWORD="{pw}" \\\n    NODE_ENV=production\n',
            npm,
            pw,
        ),
        _s(
            "dockerfile",
            f"docker run -d --name pg -e POSTGRES_PASSWORD={pw2} -p 5432:5432 postgres:16",
            pw2,
        ),
        _s(
            "dockerfile",
            f"FROM golang:1.23\nENV GOPRIVATE=github.com/acme\nENV GITHUB_TOKEN {gh}\n",
            gh,
        ),
    ]


def _ci_samples() -> list[Sample]:
    pw, tok, key = _pw(), "glpat-" + _t(20, _URLSAFE), _t(40, _HEX)
    dpw = _pw()
    circle = _t(40, _HEX)
    return [
        _s(
            "github actions",
            "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n"
            f"      SONAR_TOKEN: {key}\n    steps:\n      - uses: docker/login-action@v3\n"
            f"        with:\n          username: acme\n          password: {pw}\n",
            key,
            pw,
        ),
        _s(
            "github actions",
            f"      - run: echo {dpw} | docker login ghcr.io -u acme --password-stdin",
            dpw,
        ),
        _s(
            "gitlab ci",
            f"variables:\n  DEPLOY_TOKEN: {tok}\n  DOCKER_DRIVER: overlay2\n",
            tok,
        ),
        _s(
            "circleci",
            f"version: 2.1\njobs:\n  build:\n    environment:\n      CODECOV_TOKEN: {circle}\n",
            circle,
        ),
    ]


def _systemd_samples() -> list[Sample]:
    pw, key, cred = _pw(), _t(32, _ALNUM), _pw()
    return [
        _s(
            "systemd",
            "[Service]\nExecStart=/usr/bin/app\n"
            f"Environment=DB_PASSWORD={pw}\n"
            f'Environment="API_KEY={key}" "LOG_LEVEL=info"\n',
            pw,
            key,
        ),
        _s(
            "systemd",
            f"[Service]\nSetCredential=mysql-pass:{cred}\nDynamicUser=yes\n",
            cred,
        ),
    ]


def _helm_samples() -> list[Sample]:
    root, user, redis = _pw(), _pw(), _t(24)
    set_pw = _pw()
    return [
        _s(
            "helm values",
            "postgresql:\n  auth:\n"
            f'    postgresPassword: {root}\n    username: app\n    password: "{user}"\n'
            "redis:\n  auth:\n    enabled: true\n"
            f"    password: '{redis}'\n",
            root,
            user,
            redis,
        ),
        _s(
            "helm values",
            "helm upgrade --install kc bitnami/keycloak "
            f"--set auth.adminPassword={set_pw} --set replicaCount=2",
            set_pw,
        ),
    ]


def _dotenv_samples() -> list[Sample]:
    stripe = "sk_live_" + _t(99)
    pg, secret = _pw(), _t(50, _URLSAFE)
    mail = _pw()
    twilio = _t(32, _HEX)
    redis = f"{_RNG.choice(_WORDS)}{_d(4)}"
    return [
        _s(
            "dotenv export",
            f"export STRIPE_SECRET_KEY=\"{stripe}\"\nexport PGPASSWORD='{pg}'\n"
            f"export DJANGO_SECRET_KEY={secret}\nexport DEBUG=0\n",
            stripe,
            pg,
            secret,
        ),
        _s(
            "dotenv export",
            f'MAIL_PASSWORD="{mail}" # gmail app password\nTWILIO_AUTH_TOKEN = {twilio}\n',
            mail,
            twilio,
        ),
        _s("dotenv export", f"set -a; REDIS_PASSWORD='{redis}'; set +a", redis),
    ]


def _mobile_samples() -> list[Sample]:
    gapi = "AIza" + _t(35, _URLSAFE)
    rc = "appl_" + _t(27)
    store, keypw = _pw(), _pw()
    maps = "AIza" + _t(35, _URLSAFE)
    fb_secret = _t(32, _HEX)
    return [
        _s(
            "plist",
            '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
            f"  <key>API_KEY</key>\n  <string>{gapi}</string>\n"
            f"  <key>RevenueCatKey</key>\n  <string>{rc}</string>\n"
            "  <key>CFBundleShortVersionString</key>\n  <string>3.2.1</string>\n</dict>\n</plist>",
            gapi,
            rc,
        ),
        _s(
            "android xml",
            "<resources>\n"
            f'    <string name="google_maps_key" translatable="false">{maps}</string>\n'
            f'    <string name="facebook_client_token">{fb_secret}</string>\n'
            "</resources>",
            maps,
            fb_secret,
        ),
        _s(
            "android gradle",
            "signingConfigs {\n    release {\n        storeFile file('release.jks')\n"
            f'        storePassword "{store}"\n        keyAlias "upload"\n'
            f'        keyPassword "{keypw}"\n    }}\n}}',
            store,
            keypw,
        ),
    ]


def _windows_samples() -> list[Sample]:
    auto, proxy = _pw(), _pw()
    vnc = _t(16, _HEX)
    sec, ss_pw = _pw(), _pw()
    api = _t(32, _HEX)
    return [
        _s(
            "windows registry",
            "Windows Registry Editor Version 5.00\n\n"
            "[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"
            '"AutoAdminLogon"="1"\n"DefaultUserName"="kiosk"\n'
            f'"DefaultPassword"="{auto}"\n',
            auto,
        ),
        _s(
            "windows registry",
            "[HKEY_CURRENT_USER\\Software\\ProxyTool]\n"
            f'"ProxyUser"="corp\\\\svc"\n"ProxyPass"="{proxy}"\n'
            f'"Password"=hex:{",".join(vnc[i : i + 2] for i in range(0, 16, 2))}\n',
            proxy,
            ",".join(vnc[i : i + 2] for i in range(0, 16, 2)),
        ),
        _s(
            "powershell",
            f'$pw = ConvertTo-SecureString "{sec}" -AsPlainText -Force\n'
            "$cred = New-Object System.Management.Automation.PSCredential('corp\\svc', $pw)",
            sec,
        ),
        _s(
            "powershell",
            f'$env:OPENWEATHER_API_KEY = "{api}"\nInvoke-RestMethod -Uri $url',
            api,
        ),
        _s(
            "powershell",
            f"New-LocalUser -Name backup -Password (ConvertTo-SecureString '{ss_pw}' -AsPlainText -Force)",
            ss_pw,
        ),
    ]


def _two_factor_samples() -> list[Sample]:
    seeds = [_t(32, _B32) for _ in range(5)]
    aegis = json.dumps(
        {
            "version": 1,
            "header": {"slots": None, "params": None},
            "db": {
                "version": 3,
                "entries": [
                    {
                        "type": "totp",
                        "uuid": f"0f{i}e1c2d-aaaa-4bbb-8ccc-1234567890a{i}",
                        "name": f"user{i}",
                        "issuer": ("GitHub", "Proton", "Binance", "Kraken", "Fastmail")[i],
                        "info": {"secret": s, "algo": "SHA1", "digits": 6, "period": 30},
                    }
                    for i, s in enumerate(seeds)
                ],
            },
        },
        indent=2,
    )
    twofas_seed = _t(16, _B32)
    twofas = json.dumps(
        {"services": [{"name": "Dropbox", "secret": twofas_seed, "otp": {"digits": 6}}]}
    )
    payload = base64.b64encode(bytes(_RNG.randrange(256) for _ in range(60))).decode()
    migration = "otpauth-migration://offline?data=" + payload.replace("+", "%2B").replace(
        "/", "%2F"
    ).replace("=", "%3D")
    andotp = _t(26, _B32)
    codes = [f"{_d(4)} {_d(4)}" for _ in range(8)]
    codes2 = [
        f"{_t(5, string.ascii_lowercase + string.digits)}-{_t(5, string.ascii_lowercase + string.digits)}"
        for _ in range(6)
    ]
    return [
        _s("2fa backup", aegis, *seeds),
        _s("2fa backup", twofas, twofas_seed),
        _s(
            "2fa backup",
            f"Google Authenticator export QR decoded:\n{migration}",
            payload[:40].replace("+", "%2B").replace("/", "%2F"),
        ),
        _s(
            "2fa backup",
            json.dumps([{"secret": andotp, "label": "Bitwarden", "digits": 6, "type": "TOTP"}]),
            andotp,
        ),
        _s(
            "2fa backup",
            "Google backup codes (print me)\n"
            + "\n".join(f"{i + 1}. {c}" for i, c in enumerate(codes)),
            *codes,
        ),
        _s("2fa backup", "GitHub recovery codes:\n" + "\n".join(codes2), *codes2),
    ]


def _recovery_samples() -> list[Sample]:
    bitlocker = "-".join(_d(6) for _ in range(8))
    filevault = "-".join(_t(4, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
    adp = "-".join(_t(4, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(7))
    puk, sim = _d(8), _pin()
    puk2 = _d(8)
    return [
        _s(
            "recovery key",
            f"BitLocker recovery for LAPTOP-7\nIdentifier: 4F2A9C1B\nRecovery Key: {bitlocker}",
            bitlocker,
        ),
        _s("recovery key", f"FileVault recovery key {filevault} (kept in the drawer)", filevault),
        _s("recovery key", f"Apple Advanced Data Protection recovery key:\n{adp}", adp),
        _s("sim pin puk", f"new SIM card: PIN {sim}, PUK {puk}", sim, puk),
        _s("sim pin puk", f"PUK-Code der Prepaid-Karte: {puk2}", puk2),
    ]


def _tool_config_samples() -> list[Sample]:
    kube_tok = "eyJhbGciOiJSUzI1NiIsImtpZCI6Ij" + _t(200, _URLSAFE)
    key_data = base64.b64encode(
        b"-----BEGIN EC PRIVATE KEY-----\n" + _t(96, _B64).encode()
    ).decode()
    rclone = _t(40, _URLSAFE)
    s3_secret = _t(40, _B64)
    s3_access = "AKIA" + _t(16, string.ascii_uppercase + "234567")
    gho = "gho_" + _t(36)
    docker_auth = base64.b64encode(f"acme:{_pw()}".encode()).decode()
    return [
        _s(
            "kubeconfig",
            "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n"
            f"    token: {kube_tok}\n- name: cert\n  user:\n    client-key-data: {key_data}\n",
            kube_tok,
            key_data,
        ),
        _s(
            "tool config",
            f"[gdrive]\ntype = drive\nclient_id = 123.apps.googleusercontent.com\npass = {rclone}\n",
            rclone,
        ),
        _s(
            "tool config",
            f"[default]\naccess_key = {s3_access}\nsecret_key = {s3_secret}\nhost_base = s3.example\n",
            s3_access,
            s3_secret,
        ),
        _s(
            "tool config",
            f"github.com:\n    user: mona\n    oauth_token: {gho}\n    git_protocol: https\n",
            gho,
        ),
        _s(
            "tool config",
            json.dumps({"auths": {"registry.acme.example": {"auth": docker_auth}}}, indent=2),
            docker_auth,
        ),
    ]


def _manifest_samples() -> list[Sample]:
    tok = "ghp_" + _t(36)
    idx = _t(24)
    gl = "glpat-" + _t(20, _URLSAFE)
    return [
        _s(
            "package manifest",
            '{\n  "dependencies": {\n'
            f'    "acme-ui": "git+https://mona:{tok}@github.com/acme/ui.git#v2"\n  }}\n}}',
            tok,
        ),
        _s(
            "package manifest",
            f"--extra-index-url https://__token__:{idx}@pypi.acme.example/simple\nrequests==2.32.3\n",
            idx,
        ),
        _s(
            "package manifest",
            f'[[tool.poetry.source]]\nname = "acme"\nurl = "https://gitlab-ci-token:{gl}@gitlab.example/api/v4/projects/7/packages/pypi/simple"\n',
            gl,
        ),
    ]


def _ldif_sql_samples() -> list[Sample]:
    ldap_pw = _pw()
    encoded = base64.b64encode(ldap_pw.encode()).decode()
    bind = _pw()
    ora, my, pg = _pw(), _pw(), _pw()
    ins = _pw()
    return [
        _s(
            "ldif",
            "dn: uid=jdoe,ou=people,dc=example,dc=org\nobjectClass: inetOrgPerson\n"
            f"uid: jdoe\nuserPassword:: {encoded}\n",
            encoded,
        ),
        _s(
            "ldif",
            f"ldapsearch -x -D cn=admin,dc=example,dc=org -w {bind} -b dc=example,dc=org",
            bind,
        ),
        _s(
            "sql user",
            f'CREATE USER reporting IDENTIFIED BY "{ora}";\nGRANT CONNECT TO reporting;',
            ora,
        ),
        _s(
            "sql user", f"ALTER USER 'app'@'%' IDENTIFIED WITH mysql_native_password BY '{my}';", my
        ),
        _s("sql user", f"CREATE ROLE etl LOGIN PASSWORD '{pg}' VALID UNTIL '2031-01-01';", pg),
        _s(
            "sql user",
            f"INSERT INTO users (email, password, role) VALUES ('ops@acme.example', '{ins}', 'admin');",
            ins,
        ),
    ]


def _web_samples() -> list[Sample]:
    basic = base64.b64encode(f"svc:{_pw()}".encode()).decode()
    apache = _t(32, _HEX)
    form_pw = _pw()
    data_key = _t(32, _HEX)
    har_tok = "Bearer " + _t(64, _URLSAFE)
    har_cookie = _t(48, _HEX)
    return [
        _s(
            "web server config",
            "location /api/ {\n    proxy_pass http://backend;\n"
            f'    proxy_set_header Authorization "Basic {basic}";\n}}',
            basic,
        ),
        _s("web server config", f"SetEnv MAPS_SECRET {apache}\nSetEnv APP_ENV production", apache),
        _s(
            "html form",
            f'<form method="post"><input type="text" name="user" value="admin">'
            f'<input type="password" name="pass" value="{form_pw}"></form>',
            form_pw,
        ),
        _s("html form", f'<div id="map" data-api-key="{data_key}" data-zoom="12"></div>', data_key),
        _s(
            "har file",
            json.dumps(
                {
                    "log": {
                        "entries": [
                            {
                                "request": {
                                    "method": "GET",
                                    "url": "https://api.acme.example/v1/me",
                                    "headers": [
                                        {"name": "Authorization", "value": har_tok},
                                        {"name": "Cookie", "value": f"session_id={har_cookie}"},
                                    ],
                                }
                            }
                        ]
                    }
                },
                indent=1,
            ),
            har_tok.removeprefix("Bearer "),
            har_cookie,
        ),
    ]


def _code_samples() -> list[Sample]:
    vals = [_t(32, _ALNUM) for _ in range(4)] + [_pw() for _ in range(5)]
    return [
        _s(
            "source literal",
            f'const apiKey = "{vals[0]}" // TODO move to vault\nfunc main() {{}}',
            vals[0],
        ),
        _s("source literal", f'let client_secret: &str = "{vals[1]}";', vals[1]),
        _s("source literal", f'private static final String DB_PASSWORD = "{vals[5]}";', vals[5]),
        _s(
            "source literal",
            f'var conn = new SmtpClient {{ Credentials = new NetworkCredential("bot", "{vals[6]}") }};',
            vals[6],
        ),
        _s("source literal", f'let stripeKey = "{vals[2]}"  // Swift', vals[2]),
        _s("source literal", f'val adminPassword = "{vals[7]}"', vals[7]),
        _s("source literal", f'Sys.setenv(CENSUS_API_KEY = "{vals[3]}")', vals[3]),
        _s("source literal", f'ENV["DB_PASS"] = "{vals[8]}"  # Julia', vals[8]),
        _s("source literal", f"define('DB_PASSWORD', '{vals[4]}');", vals[4]),
    ]


def _oauth_samples() -> list[Sample]:
    access = "ya29.a0" + _t(120, _URLSAFE)
    code = "4/0A" + _t(60, _URLSAFE)
    secret = "GOCSPX-" + _t(28, _URLSAFE)
    implicit = _t(40, _URLSAFE)
    return [
        _s(
            "oauth redirect",
            f"GET /callback#access_token={implicit}&token_type=bearer&expires_in=3600",
            implicit,
        ),
        _s(
            "oauth redirect",
            f'127.0.0.1 - - "GET /oauth2/cb?code={code}&scope=email HTTP/1.1" 302',
            code,
        ),
        _s(
            "oauth redirect",
            f"curl -d client_id=123.apps.googleusercontent.com -d client_secret={secret} "
            "-d grant_type=authorization_code https://oauth2.googleapis.com/token",
            secret,
        ),
        _s("oauth redirect", f'{{"access_token": "{access}", "expires_in": 3599}}', access),
    ]


def _crypto_samples() -> list[Sample]:
    k1, k2 = "0x" + _t(64, _HEX), _t(64, _HEX)
    age = "AGE-SECRET-KEY-1" + _t(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L").upper()
    mm = "0x" + _t(64, _HEX)
    return [
        _s(
            "ethereum key",
            "module.exports = {\n  networks: {\n    sepolia: {\n      url: process.env.RPC,\n"
            f'      accounts: ["{k1}"],\n    }},\n  }},\n}};',
            k1,
        ),
        _s("ethereum key", f"# foundry .env\nPRIVATE_KEY={k2}\nETHERSCAN_API_KEY=", k2),
        _s("ethereum key", f"MetaMask → Export private key: {mm}", mm),
        _s("age key", f"# created: 2030-01-01T10:00:00Z\n# public key: age1xyz\n{age}\n", age),
    ]


def _key_file_samples() -> list[Sample]:
    ppk_lines = [_t(64, _B64) for _ in range(5)]
    ppk = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: laptop\n"
        "Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIJ"
        + _t(43, _B64)
        + "\n"
        + _t(20, _B64)
        + "\nPrivate-Lines: 5\n"
        + "\n".join(ppk_lines)
        + "\nPrivate-MAC: "
        + _t(64, _HEX)
    )
    ovpn = [_t(32, _HEX) for _ in range(8)]
    static = (
        "<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n"
        + "\n".join(ovpn)
        + "\n-----END OpenVPN Static key V1-----\n</tls-auth>"
    )
    user, pw = "vpnuser", _pw()
    return [
        _s("putty key", ppk, *ppk_lines),
        _s("openvpn", static, *ovpn),
        _s("openvpn", f"# auth.txt for auth-user-pass\n{user}\n{pw}\n", pw),
    ]


def _misc_config_samples() -> list[Sample]:
    st_pw, st_key = _pw(), "sk-ant-api03-" + _t(93, _URLSAFE) + "AA"
    kc_pw = _pw()
    return [
        _s(
            "streamlit secrets",
            f'[connections.postgresql]\ndialect = "postgresql"\nhost = "db.internal"\n'
            f'password = "{st_pw}"\n\n[anthropic]\napi_key = "{st_key}"\n',
            st_pw,
            st_key,
        ),
        _s(
            "keychain dump",
            'keychain: "/Users/lea/Library/Keychains/login.keychain-db"\nclass: "genp"\n'
            'attributes:\n    "acct"<blob>="lea"\n    "svce"<blob>="Wi-Fi"\n'
            f'password: "{kc_pw}"',
            kc_pw,
        ),
    ]


def _vendor_samples() -> list[Sample]:
    tokens = {
        "shopify": "shpat_" + _t(32, _HEX),
        "shopify secret": "shpss_" + _t(32, _HEX),
        "atlassian": "ATATT3xFfGF0" + _t(170, _URLSAFE) + "=" + _t(8, _UPPER),
        "supabase": "sbp_" + _t(40, _HEX),
        "planetscale": "pscale_pw_" + _t(43, _URLSAFE),
        "grafana": "glsa_" + _t(32) + "_" + _t(8, _HEX),
        "contentful": "CFPAT-" + _t(43, _URLSAFE),
        "dynatrace": "dt0c01." + _t(24, _UPPER) + "." + _t(64, _UPPER),
        "brevo": "xkeysib-" + _t(64, _HEX) + "-" + _t(16),
        "square": "sq0csp-" + _t(43, _URLSAFE),
        "databricks": "dapi" + _t(32, _HEX),
        "alibaba": "LTAI5t" + _t(18),
        "tencent": "AKID" + _t(32),
        "yandex": "y0_AgAAAA" + _t(50, _URLSAFE),
        "fly": "fo1_" + _t(43, _URLSAFE),
        "prefect": "pnu_" + _t(36),
    }
    places = [
        "Slack: {} (pinned in #ops)",
        "- {}",
        '<string name="token">{}</string>',
        "token={}",
        "`{}`",
        "pasted from the dashboard: {}",
    ]
    out = []
    for i, (name, tok) in enumerate(tokens.items()):
        place = places[i % len(places)]
        out.append(_s("vendor token", f"{name}: " + place.format(tok), tok))
    ali_secret = _t(30)
    tc_secret = _t(32)
    out.append(
        _s(
            "vendor token",
            f"AccessKeyId: LTAI5t{_t(18)}\nAccessKeySecret: {ali_secret}",
            ali_secret,
        )
    )
    out.append(_s("vendor token", f"SecretId=AKID{_t(32)}\nSecretKey={tc_secret}", tc_secret))
    return out


def _contacts_samples() -> list[Sample]:
    phones = [
        _phone("TH", ("081", "086"), 10),
        _phone("KE", ("0712", "0733"), 10),
        _phone("NG", ("0803", "0816"), 11),
        _phone("PH", ("0917", "0998"), 11),
        _phone("MY", ("012", "016"), 10),
        _phone("UA", ("067", "097"), 10),
    ]
    names = ["Somchai", "Wanjiru", "Chidi", "Liza", "Farah", "Oksana"]
    google = "Name,Given Name,Phone 1 - Type,Phone 1 - Value\n" + "".join(
        f"{n},{n},Mobile,{p}\n" for n, p in zip(names, phones, strict=True)
    )
    outlook_phones = [
        _phone("CZ", ("604", "777"), 9),
        _phone("HU", ("0630",), 11),
        _phone("IL", ("052",), 10),
    ]
    outlook = '"First Name","Last Name","Mobile Phone","Business Phone"\n' + "".join(
        f'"{n}","X","{p}",""\n'
        for n, p in zip(("Jana", "Bence", "Noa"), outlook_phones, strict=True)
    )
    return [
        _s("contacts csv", google, *phones),
        _s("contacts csv", outlook, *outlook_phones),
    ]


def _hr_samples() -> list[Sample]:
    nns = [_be_nn() for _ in range(4)]
    ibs = [_iban("BE", lambda: _d(12)) for _ in range(4)]
    be = "naam;rijksregisternummer;rekening\n" + "".join(
        f"Werknemer {i};{nns[i]};{ibs[i]}\n" for i in range(4)
    )
    cnps = [_cnp() for _ in range(3)]
    ros = [_iban("RO", lambda: "RNCB" + _d(16)) for _ in range(3)]
    ro = "Nume,CNP,IBAN\n" + "".join(f"Angajat {i},{cnps[i]},{ros[i]}\n" for i in range(3))
    return [
        _s("hr export", be, *nns, *ibs),
        _s("hr export", ro, *cnps, *ros),
    ]


def _env_dump_samples() -> list[Sample]:
    values = {
        "OPENAI_API_KEY": "sk-proj-" + _t(48, _URLSAFE) + "T3BlbkFJ" + _t(20, _URLSAFE),
        "SENDGRID_API_KEY": "SG." + _t(22, _URLSAFE) + "." + _t(43, _URLSAFE),
        "DATABASE_URL": f"postgres://app:{_pw()}@db.internal:5432/app",
        "SESSION_SECRET": _t(64, _HEX),
        "MAPBOX_TOKEN": "sk.eyJ1IjoiYWNtZSIsImEiOiJ" + _t(40, _URLSAFE) + "." + _t(22, _URLSAFE),
        "SLACK_SIGNING_SECRET": _t(32, _HEX),
        "FIREBASE_PRIVATE_KEY_ID": _t(40, _HEX),
        "ADMIN_PASSWORD": _pw(),
    }
    text = "# copied from the old laptop\n" + "".join(f"{k}={v}\n" for k, v in values.items())
    secrets = [
        v if k != "DATABASE_URL" else v.split(":")[2].split("@")[0] for k, v in values.items()
    ]
    group = [_pw() for _ in range(3)] + [_pin(), _d(6)]
    chat = (
        f"[02/01/2031, 19:01:12] Dad: wifi at grandma's is {group[0]}\n"
        f"[02/01/2031, 19:02:40] Ife: thanks! and the Netflix one?\n"
        f"[02/01/2031, 19:03:05] Dad: {group[1]}\n"
        f"[02/01/2031, 19:05:51] Mum: Disney+ → {group[2]}\n"
        f"[02/01/2031, 19:07:09] Dad: garage door keypad {group[3]}\n"
        f"[02/01/2031, 19:09:30] Ife: bank sent code {group[4]}, what do I do with it?\n"
    )
    bare = [
        "sntryu_" + _t(64, _HEX),
        "glc_eyJvIjoi" + _t(60, _URLSAFE),
        "lin_oauth_" + _t(64, _HEX),
        "shpca_" + _t(32, _HEX),
        "pscale_tkn_" + _t(43, _URLSAFE),
        "dp.pt." + _t(43),
    ]
    return [
        _s("env dump", text, *secrets),
        _s("whatsapp export", chat, *group),
        _s("vendor token", "tokens to rotate:\n" + "".join(f"* {b}\n" for b in bare), *bare),
    ]


def secret_samples() -> list[Sample]:
    """Every sample of the round-ten corpus, in a fixed order (the same whenever it is asked)."""
    _RNG.seed(20301019)
    return [
        *_national_samples(),
        *_bank_samples(),
        *_prose_samples(),
        *_phone_samples(),
        *_passport_samples(),
        *_card_samples(),
        *_markdown_samples(),
        *_password_manager_samples(),
        *_autofill_samples(),
        *_calendar_samples(),
        *_vcard_samples(),
        *_email_samples(),
        *_chat_samples(),
        *_tsv_samples(),
        *_latex_samples(),
        *_notebook_samples(),
        *_docker_samples(),
        *_ci_samples(),
        *_systemd_samples(),
        *_helm_samples(),
        *_dotenv_samples(),
        *_mobile_samples(),
        *_windows_samples(),
        *_two_factor_samples(),
        *_recovery_samples(),
        *_tool_config_samples(),
        *_manifest_samples(),
        *_ldif_sql_samples(),
        *_web_samples(),
        *_code_samples(),
        *_oauth_samples(),
        *_crypto_samples(),
        *_key_file_samples(),
        *_misc_config_samples(),
        *_vendor_samples(),
        *_contacts_samples(),
        *_hr_samples(),
        *_env_dump_samples(),
    ]


# --- look-alikes ---------------------------------------------------------------------------


def _b64_of(nbytes: int) -> str:
    return base64.b64encode(bytes(_RNG.randrange(256) for _ in range(nbytes))).decode()


def _file_lookalikes() -> list[Lookalike]:
    sha = _t(40, _HEX)
    digest = _t(64, _HEX)
    uuid = f"{_t(8, _HEX)}-{_t(4, _HEX)}-4{_t(3, _HEX)}-a{_t(3, _HEX)}-{_t(12, _HEX)}"
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4" + _t(40, _B64) + "=="
    return [
        _x(
            "dockerfile",
            "FROM node:22-alpine\nARG NODE_VERSION=22.11.0\nENV PATH=/app/node_modules/.bin:$PATH\nWORKDIR /app",
        ),
        _x("dockerfile", "RUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci --omit=dev"),
        _x("dockerfile", f"FROM python:3.12-slim@sha256:{digest}\nENV PYTHONUNBUFFERED=1"),
        _x(
            "dockerfile",
            "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg -v pgdata:/var/lib/postgresql/data postgres:16",
        ),
        _x(
            "github actions",
            "    env:\n      NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n      NODE_ENV: production",
        ),
        _x("github actions", f"      - uses: actions/checkout@{sha} # v4.2.2"),
        _x(
            "github actions",
            "        with:\n          password: ${{ secrets.GHCR_PASSWORD }}\n          registry: ghcr.io",
        ),
        _x(
            "gitlab ci",
            'variables:\n  DOCKER_DRIVER: overlay2\n  GIT_DEPTH: "10"\n  DEPLOY_TOKEN: $CI_DEPLOY_PASSWORD',
        ),
        _x(
            "systemd",
            "[Service]\nLoadCredential=db-password:/etc/credstore/db-password\nEnvironment=PYTHONUNBUFFERED=1",
        ),
        _x(
            "systemd",
            "[Service]\nEnvironmentFile=/etc/app/secrets.env\nRestart=on-failure\nRestartSec=5",
        ),
        _x(
            "helm values",
            "postgresql:\n  auth:\n    existingSecret: pg-creds\n    secretKeys:\n      adminPasswordKey: postgres-password",
        ),
        _x(
            "helm values",
            "image:\n  repository: bitnami/redis\n  tag: 7.4.1-debian-12-r0\nreplicaCount: 3",
        ),
        _x(
            "dotenv export",
            "export DATABASE_URL=${DATABASE_URL:?set it}\nexport PORT=8080\nexport PASSWORD_MIN_LENGTH=12",
        ),
        _x("dotenv export", 'export API_KEY="$(pass show acme/api)"\nexport EDITOR=vim'),
        _x(
            "plist",
            "<key>CFBundleVersion</key>\n<string>20310114.2</string>\n<key>CFBundleIdentifier</key>\n<string>com.acme.notes</string>",
        ),
        _x(
            "plist",
            "<key>NSCameraUsageDescription</key>\n<string>Scan receipts and QR codes</string>",
        ),
        _x(
            "android xml",
            '<manifest package="com.acme.app" android:versionCode="31042" android:versionName="4.2.0">',
        ),
        _x(
            "android xml",
            '<color name="colorPrimary">#FF6200EE</color>\n<string name="app_name">Acme Notes</string>',
        ),
        _x(
            "android gradle",
            'signingConfigs {\n    release {\n        storePassword System.getenv("STORE_PASSWORD")\n        keyAlias "upload"\n    }\n}',
        ),
        _x(
            "windows registry",
            '[HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4D36E972-E325-11CE-BFC1-08002BE10318}]\n"Class"="Net"',
        ),
        _x(
            "windows registry",
            '"InstallDate"=dword:6a3f1b2c\n"EditionID"="Professional"\n"CurrentBuild"="26100"',
        ),
        _x(
            "powershell",
            "$cred = Get-Credential -UserName 'corp\\svc' -Message 'Service account'\n$pw = Read-Host -AsSecureString",
        ),
        _x("powershell", "$PSVersionTable.PSVersion\nGet-ChildItem Env: | Sort-Object Name"),
        _x(
            "jupyter json",
            json.dumps(
                {
                    "cell_type": "code",
                    "execution_count": 12,
                    "id": "a1b2c3d4",
                    "metadata": {"tags": ["parameters"]},
                    "source": ["seed = 20310101\n"],
                }
            ),
        ),
        _x(
            "jupyter json",
            json.dumps(
                {
                    "output_type": "display_data",
                    "data": {"image/png": png, "text/plain": ["<Figure size 640x480>"]},
                }
            ),
        ),
        _x("markdown", f"![chart](data:image/png;base64,{png})"),
        _x(
            "markdown footnote",
            "Backups run nightly.[^1]\n\n[^1]: See RFC 9110 §11 and ISBN 978-0-13-468599-1.",
        ),
        _x(
            "markdown footnote",
            "The fix landed in v2.4.1.[^fix]\n\n[^fix]: commit " + sha + " on main.",
        ),
        _x(
            "markdown table",
            "| item | qty | price |\n|---|---|---|\n| SSD 2TB | 2 | 129.90 |\n| cable | 4 | 3.50 |",
        ),
        _x(
            "icalendar",
            f"BEGIN:VEVENT\nUID:{uuid}\nDTSTAMP:20310114T083000Z\nRRULE:FREQ=WEEKLY;BYDAY=MO\nGEO:52.3676;4.9041\nSEQUENCE:3\nEND:VEVENT",
        ),
        _x(
            "icalendar",
            "BEGIN:VALARM\nTRIGGER:-PT15M\nACTION:DISPLAY\nDESCRIPTION:Standup in room 4.12\nEND:VALARM",
        ),
        _x(
            "vcard",
            "BEGIN:VCARD\nVERSION:4.0\nFN:Acme Support\nORG:Acme BV\nTITLE:Helpdesk\nURL:https://acme.example/help\nEND:VCARD",
        ),
        _x(
            "email headers",
            f"Message-ID: <{uuid}@mail.acme.example>\nIn-Reply-To: <CAF{_t(20)}@mail.example>\nX-Mailer: Thunderbird 128.5.2",
        ),
        _x(
            "email headers",
            "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.example; s=mail2031;\n"
            f" h=from:to:subject:date; bh={_b64_of(32)};\n b={_b64_of(96)}",
        ),
        _x(
            "email headers",
            "Received: from mx2.acme.example (mx2.acme.example [198.51.100.23])\n\tby mail.example with ESMTPS id 4Xk9Q2",
        ),
        _x(
            "email signature",
            "Best,\nIngrid\n--\nAcme Studio · Keizersgracht 12, 1015 CN Amsterdam\nKvK 64321987",
        ),
        _x(
            "slack export",
            json.dumps(
                {
                    "type": "message",
                    "user": "U024BE7LH",
                    "channel": "C01ABCDEF",
                    "ts": "1912345678.000200",
                    "text": "deploy done :tada:",
                }
            ),
        ),
        _x(
            "telegram export",
            json.dumps(
                {
                    "id": 4412,
                    "date": "2031-01-02T11:00:00",
                    "from_id": "user482019331",
                    "text": "See you at 7",
                }
            ),
        ),
        _x(
            "whatsapp export",
            "[12/03/2031, 14:22:01] Mum: did you change the netflix password?\n[12/03/2031, 14:23:40] Tomás: yes, it's in the family vault",
        ),
        _x(
            "whatsapp export",
            "14/05/31, 9:02 PM - Kofi: Messages and calls are end-to-end encrypted.\n14/05/31, 9:03 PM - Kofi: <Media omitted>",
        ),
        _x(
            "tsv paste",
            "SKU\tEAN\tQty\tPrice\nAC-1042\t4006381333931\t12\t9.99\nAC-1043\t5901234123457\t3\t24.50",
        ),
        _x(
            "tsv paste",
            "date\tamount\tcategory\n2031-01-03\t-42.10\tgroceries\n2031-01-04\t1800.00\tsalary",
        ),
        _x(
            "password manager csv",
            "folder,favorite,type,name,notes,fields,reprompt,login_uri,login_username,login_password,login_totp\n",
        ),
        _x(
            "password manager csv",
            "name,url,username,password,note\nforum.example,https://forum.example,lea,,passkey only\n",
        ),
        _x(
            "latex",
            "\\usepackage[utf8]{inputenc}\n\\definecolor{brand}{HTML}{1A2B3C}\n\\label{sec:methods}\\cite{vaswani2017attention}",
        ),
        _x("latex", "\\newcommand{\\R}{\\mathbb{R}}\n\\def\\version{2.4.1}"),
        _x(
            "kubeconfig",
            "users:\n- name: sso\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: kubelogin\n      args: [get-token]",
        ),
        _x(
            "tool config",
            "[gdrive]\ntype = drive\nscope = drive.readonly\nroot_folder_id = \nteam_drive = ",
        ),
        _x("tool config", '{"auths": {}, "credsStore": "desktop", "currentContext": "default"}'),
        _x(
            "package manifest",
            f'"node_modules/left-pad": {{"version": "1.3.0", "integrity": "sha512-{_b64_of(64)}"}}',
        ),
        _x(
            "package manifest",
            f"golang.org/x/text v0.21.0 h1:{_b64_of(32)}\ngolang.org/x/text v0.21.0/go.mod h1:{_b64_of(32)}",
        ),
        _x(
            "package manifest",
            f'[[package]]\nname = "serde"\nversion = "1.0.217"\nchecksum = "{digest}"',
        ),
        _x(
            "package manifest",
            f'"requests": {{"hashes": ["sha256:{_t(64, _HEX)}"], "version": "==2.32.3"}}',
        ),
        _x(
            "html form",
            f'<script src="https://cdn.example/lib.min.js" integrity="sha384-{_b64_of(48)}" crossorigin="anonymous"></script>',
        ),
        _x(
            "html form",
            '<input type="password" name="pass" autocomplete="current-password" minlength="12" required>',
        ),
        _x("har file", json.dumps({"name": "Accept-Encoding", "value": "gzip, deflate, br"})),
        _x(
            "git lfs",
            f"version https://git-lfs.github.com/spec/v1\noid sha256:{_t(64, _HEX)}\nsize 48213",
        ),
        _x("ldif", "dn: ou=people,dc=example,dc=org\nobjectClass: organizationalUnit\nou: people"),
        _x(
            "sql user", "CREATE USER reporting IDENTIFIED EXTERNALLY;\nALTER USER app ACCOUNT LOCK;"
        ),
        _x(
            "sql user",
            "SELECT id, email, created_at FROM users WHERE password_changed_at < now() - interval '90 days';",
        ),
        _x(
            "web server config",
            'location / {\n    auth_basic "Staff";\n    auth_basic_user_file /etc/nginx/.htpasswd;\n}',
        ),
        _x(
            "source literal",
            'const apiKey = process.env.MAPS_API_KEY ?? ""\nlet password = readPassword()',
        ),
        _x("source literal", 'private static final String PASSWORD_FIELD = "password";'),
        _x("oauth redirect", "GET /oauth2/cb?state=af0ifjsldkj&scope=openid%20email HTTP/1.1"),
        _x("ethereum key", "Send to 0x" + _t(40, _HEX) + " (my public address)"),
        _x("ethereum key", "tx hash 0x" + _t(64, _HEX) + " on etherscan, 12 confirmations"),
        _x("age key", "# public key: age1" + _t(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")),
        _x(
            "certificate",
            "SHA256 Fingerprint=14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5",
        ),
        _x(
            "recovery key",
            "BitLocker is on; the recovery key is saved in the Microsoft account, not here.",
        ),
        _x(
            "2fa backup",
            "Backup codes were printed and locked in the safe; the authenticator is Aegis on the old phone.",
        ),
        _x(
            "2fa backup",
            json.dumps(
                {"version": 1, "header": {"slots": None}, "db": {"version": 3, "entries": []}}
            ),
        ),
        _x("sim pin puk", "The PUK is on the plastic card the SIM came in."),
        _x(
            "keychain dump",
            'class: "genp"\nattributes:\n    "svce"<blob>="Wi-Fi"\n    "cdat"<timedate>=0x32303331303131343038333030305A00',
        ),
        _x(
            "streamlit secrets",
            '[server]\nport = 8501\nheadless = true\n[theme]\nprimaryColor = "#F63366"',
        ),
        _x(
            "vendor token",
            "Shopify app version 2031-01, Grafana 11.4.0, Dynatrace OneAgent 1.305.112.20310110-142316",
        ),
    ]


def _language_lookalikes() -> list[Lookalike]:
    return [
        _x("password, other languages", "שכחתי את הסיסמה, צריך לאפס דרך האפליקציה"),
        _x("password, other languages", "ลืมรหัสผ่าน ต้องกดรีเซ็ตในแอป"),
        _x("password, other languages", "Nenosiri lazima liwe na herufi 12 au zaidi."),
        _x("password, other languages", "Nakalimutan ko ang password, magre-reset ako bukas."),
        _x("password, other languages", "Пароль має містити щонайменше 12 символів."),
        _x("password, other languages", "رمز عبور را فراموش کردم، باید بازنشانی کنم"),
        _x("password, other languages", "পাসওয়ার্ড ভুলে গেছি, রিসেট করতে হবে"),
        _x("password, other languages", "Kata laluan mesti sekurang-kurangnya 12 aksara."),
        _x("password, other languages", "A jelszó legalább 12 karakter legyen."),
        _x("password, other languages", "Heslo musí mít aspoň 12 znaků a jedno číslo."),
        _x("password, other languages", "a senha do Nubank está no cofre, não no bloco de notas"),
        _x("password, other languages", "het wachtwoord staat in Bitwarden"),
        _x("password, other languages", "adgangskoden skal skiftes hver 90. dag"),
        _x("password, other languages", "salasana on vaihdettava ensi viikolla"),
        _x("password, other languages", "passordet er lagret i 1Password"),
        _x("password, other languages", "parola trebuie schimbată la fiecare 3 luni"),
        _x("password, other languages", "パスワードは12文字以上にしてください"),
        _x("password, other languages", "비밀번호는 12자 이상이어야 합니다"),
        _x("pin, other languages", "Kartu PIN dikirim terpisah dalam 7 hari kerja."),
        _x("pin, other languages", "ПІН-код надійде окремим листом."),
        _x("pin, other languages", "הקוד נשלח בהודעת SMS"),
        _x(
            "password in english prose",
            "I changed my bank password today, it is in the manager now.",
        ),
        _x(
            "password in english prose",
            "The password policy says 14 characters, 1 digit, 1 symbol.",
        ),
        _x("password in english prose", "wifi at the cabin → ask Dana, it's on the router sticker"),
        _x("phone", "Emergency: 112 (EU), 1669 (Thailand), 999 (Kenya), 911 (Mexico)"),
        _x("phone", "Flight TG 917 departs 23:45 from gate D4, seat 31A"),
        _x("card", "Paid with the card ending 4242, total ฿1,290.00"),
        _x("card", "Gift card balance: 25,000 ₩ — valid until 2031-06-30"),
        _x("passport", "Passport renewal takes 6 weeks; the fee is €75.20."),
        _x("passport", "hộ chiếu hết hạn tháng 5 năm 2032"),
    ]


def _national_lookalikes() -> list[Lookalike]:
    return [
        _x(
            "mexico curp rfc",
            "El RFC se tramita en el portal del SAT; la CURP se consulta en gob.mx. C.P. 06600, CDMX.",
        ),
        _x("mexico curp rfc", "Factura folio 2031-000482, subtotal $1,250.00 MXN, IVA 16%"),
        _x("argentina cuit dni", "Av. Corrientes 1234, piso 5, CABA (C1043AAZ). Turno 14:30."),
        _x(
            "argentina cuit dni",
            "El CUIT de la empresa figura en la factura; el DNI lo pido en la entrada.",
        ),
        _x("chile rut", "Pedido N° 2031-88412, despacho a Providencia, total $34.990"),
        _x(
            "south africa id",
            "Postal code 2196, Sandton. Load-shedding stage 2 from 18:00 to 20:30.",
        ),
        _x("nigeria nin bvn", "Link your NIN at the NIMC office; BVN enrolment takes 15 minutes."),
        _x("kenya kra pin", "File your KRA returns by 30 June; the fine is KSh 2,000."),
        _x("philippines ids", "Order #PH-2031-004512 shipped via J&T, 3-5 days"),
        _x("thailand id", "ไปรษณีย์ 10110 ถนนสุขุมวิท ซอย 11 เวลา 09:00-17:00"),
        _x("japan my number", "〒150-0002 東京都渋谷区渋谷2-21-1 注文番号 250117-0042"),
        _x("korea rrn", "서울특별시 강남구 테헤란로 152 (우편번호 06236), 주문번호 20310114-0173"),
        _x("israel id", "רחוב הרצל 12, תל אביב 6578901, מחיר ₪149.90"),
        _x("portugal nif", "Código postal 1100-148 Lisboa, fatura FT 2031/412"),
        _x("belgium national number", "Ondernemingsnummer 0403.170.701 (Belgische Staat, KBO)"),
        _x("netherlands bsn", "Postcode 1012 AB, huisnummer 15-III, factuurnummer 20310114003"),
        _x("denmark cpr", "Postnummer 2100 København Ø, ordrenummer 4410-2931"),
        _x("finland hetu", "Postinumero 00100 Helsinki, tilausnumero 31-20884"),
        _x("norway fodselsnummer", "Organisasjonsnummer 974 760 673 (Brønnøysundregistrene)"),
        _x("czech rodne cislo", "IČO firmy 27082440, číslo objednávky 2031/0153"),
        _x("romania cnp", "Cod poștal 010011, București, factura nr. 2031-00871"),
        _x("hungary taj tax", "Irányítószám 1051, rendelésszám 2031-77420"),
        _x("ukraine rnokpp", "Код ЄДРПОУ банку 14360570, відділення № 42"),
        _x("malaysia mykad", "Poskod 50450 Kuala Lumpur, no. pesanan 2031-66120"),
        _x("iran national code", "کد پستی را بعداً می‌فرستم، سفارش شماره ۲۰۳۱"),
        _x("bangladesh nid", "পোস্ট কোড ১২০৫, ঢাকা; অর্ডার নম্বর ২০৩১-০৪৫"),
        _x(
            "domestic account",
            "CLABE y CBU se piden en la app del banco; el alias es pelota.casa.sol",
        ),
        _x("domestic account", "Bank of Thailand rate 2.25 %, swift code KASITHBK"),
        _x("iban dutch", "BIC INGBNL2A, Bankcode ABNA, rente 1,75 %"),
        _x("iban hungarian", "A bank SWIFT kódja OTPVHUHB, a díj 350 Ft."),
        _x("iban czech", "Kód banky 0800 (Česká spořitelna), poplatek 0 Kč"),
        _x(
            "hr export",
            "naam;afdeling;startdatum\nWerknemer 0;Finance;2031-02-01\nWerknemer 1;IT;2031-03-15\n",
        ),
        _x(
            "contacts csv",
            "Name,Given Name,Group Membership\nSomchai,Somchai,* myContacts\nWanjiru,Wanjiru,Family\n",
        ),
        _x(
            "env dump",
            "# copied from the old laptop\nNODE_ENV=production\nLOG_LEVEL=info\nTZ=Europe/Amsterdam\nFEATURE_FLAGS=beta,dark-mode\n",
        ),
    ]


def lookalikes() -> list[Lookalike]:
    """Every look-alike of the round-ten corpus, in a fixed order (the same whenever it is
    asked, whether or not the samples were drawn first)."""
    _RNG.seed(20301020)
    return [*_file_lookalikes(), *_language_lookalikes(), *_national_lookalikes()]
