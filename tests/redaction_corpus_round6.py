"""The round-six redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them, and it holds only what the
docstrings and texts of the earlier corpora do not: the secrets careless note-takers paste
into chats and daily notes, people moving their setup between machines, and attackers.

Secrets (:func:`secret_samples`): passwords in the prose of some fifty languages and scripts
none of the earlier corpora use (Kabyle, Oromo, Wolof, Lingala, Shona, Chichewa, Sesotho,
Setswana, Twi, Ewe, Tok Pisin, Bislama, Tahitian, Asturian, Aragonese, Friulian, Ladino,
Walloon, Manx, Cornish, Kashubian, Lower Sorbian, Min Nan in Pe̍h-ōe-jī, Venetian, Neapolitan,
Sicilian, Low German, Limburgish, Scots, Nahuatl, Aymara, K'iche', Chuvash, Bashkir, Chechen,
Ossetian, Sakha, Buryat, Tigrinya, Sindhi, Cantonese, Dzongkha; Tamazight in Tifinagh, Syriac,
N'Ko, Cherokee, Inuktitut syllabics, Santali in Ol Chiki, Meitei Mayek, Mongolian and Javanese
in their own scripts, a keyword in Bopomofo); passwords spelled out with the NATO, German,
French and Italian spelling alphabets, dictated letter by letter, written as number words,
split into groups or halves; door, lockbox, keysafe, intercom, garage, safe, voicemail, phone
unlock, radio and WPS codes, a French digicode, a German Türcode, a Japanese auto-lock and a
Korean door-lock code; Helm values and ``--set``, Ansible inventories and vault password
files, kubeconfig tokens and client keys, kustomize literals, a ``.dockerconfigjson`` Secret,
Azure, Bitbucket, Drone, Travis, GitLab and Jenkins pipelines, compose health checks,
``fly.toml``, ``wrangler.toml``, ``alembic.ini``, Poetry, supervisord, Tomcat users, sbt,
Mercurial, ``.boto``, Yarn, ``.terraformrc``, NetworkManager and iwd Wi-Fi files, PPP
``chap-secrets``, IPsec PSKs, ddclient, offlineimap, mbsync, irssi, Gitea, Home Assistant,
Prometheus, Alertmanager, keepalived, BIND TSIG keys, NTP keys, FreeRADIUS clients, TACACS,
OSPF and BGP keys, Jupyter, Rails, Laravel, Symfony, Nextcloud and Django settings; request
headers copied from a browser's panel, HAR and Postman exports, ``X-Vault-Token``,
``PRIVATE-TOKEN``, ``Ocp-Apim-Subscription-Key``, ``X-RapidAPI-Key``, Datadog keys,
``Negotiate``, ``NTLM``, ``OAuth`` and ``Token token=`` credentials, ``curl --oauth2-bearer``,
``--proxy-user``, ``-b``, ``-u :token`` and ``--data-urlencode``, ``wget --http-password``,
PowerShell, ``requests``, axios, grpcurl, xfreerdp, ipmitool, plink, cqlsh, clickhouse,
influx and expect; PHP, Java, ASP.NET, Laravel, NextAuth, WordPress, Rails and Flask session
cookies, a Netscape ``cookies.txt`` line, ``document.cookie``; private keys quoted line by line,
flattened onto one line, indented in a list, in ``<pre>``, in a YAML block, an encrypted key
with its passphrase, a DSA key, an OpenVPN static key, a minisign secret key, a Nostr
``nsec``, a BIP32 ``xprv``, a Solana keypair array and Monero spend and view keys; one-time
codes in eight more languages (one in fullwidth digits), Steam Guard, a chat app's
confirmation code, an authenticator export URI and meeting passcodes; recovery phrases in the
Spanish and French word lists, in a numbered table, Monero's 25 words, Apple, FileVault and
Microsoft recovery keys, a Bitwarden recovery code, a Signal registration PIN, a WhatsApp
backup key and a Keybase paper key; a CLABE, a PIX random key, Canadian, Nigerian, Japanese,
Korean, Russian, Swiss postal, German, Swedish, Danish, Norwegian, Czech, Hungarian, Israeli,
South African, Brazilian, Chilean, Indian and US accounts, and IBANs of some twenty countries
no earlier corpus holds (lower case, dotted, split over lines, in SEPA XML, an EPC QR payload,
a Swiss QR-bill, an MT103 field and a CSV row); tax and health numbers after their words
(German Krankenversichertennummer, Swiss AVS, Canadian NAS and BC PHN, Spanish NUSS, French
numéro fiscal, Brazilian CNS, Mexican NSS, US MBI, Venezuelan RIF, Turkish VKN, Nigerian NIN,
Egyptian national number, PhilHealth, Japanese, Korean and Taiwanese health insurance, an
EHIC, Salvadoran NIT, Guatemalan DPI, Costa Rican cédula, Andorran NRT, Ghana Card); cards of
schemes and languages no earlier corpus uses (Amex with its CID, Diners, Mir, Elo, UnionPay,
JCB, BC Card, a Kartenprüfnummer, a cryptogramme visuel, Arabic and Vietnamese prose); and
disguises none of them try (a git diff, zsh and bash history lines, a line continuation,
``String.fromCharCode``, octal escapes, binary, soft hyphens, circled, squared and superscript
letters, Jinja, LaTeX, an SQL ``INSERT``, a ``mailto:`` body, a Mermaid edge label, a commit
message, an ``<input value>``, an escaped pipe in a table, a lock emoji).

Look-alikes (:func:`lookalikes`) must come through byte for byte: talk about passwords in the
same languages, the same files, headers and commands carrying references, placeholders and
public values (CA certificates, encrypted Travis values, signatures, ETags, trace and
CloudFront ids, CSP nonces), analytics cookies, public keys (certificates, ``npub``,
``xpub``, minisign), the BIP-39 test vector, the AWS documentation's example keys, payment
references (ISO 11649, Swiss QR, UETR), company numbers (CNPJ, ABN, SIREN, VAT), git SHAs in
prose, UUIDs in logs, versions, ISBNs, parcel and order numbers, times and dates,
coordinates, colours, MAC and IPv6 addresses, arithmetic, package hashes named as such
(``--hash=sha256``, ``go.sum``, ``Cargo.lock``, ``flake.lock``, Nix store paths), spelling
alphabets and pins that are no codes, and the same disguises carrying nothing.

Every value is fake: generated from a fixed seed (``random.Random(20270602)``), with the check
digits of each scheme computed (Luhn, mod 97, mod 11, the national schemes) so each value is
valid in form while naming no one.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import string
import textwrap
import urllib.parse
from collections.abc import Callable

from stdnum import iban as iban_number
from stdnum import luhn
from stdnum.ad import nrt
from stdnum.ca import bc_phn, sin
from stdnum.ch import esr, ssn
from stdnum.cz import bankaccount
from stdnum.fr import nif
from stdnum.no import kontonr
from stdnum.sv import nit as sv_nit
from stdnum.tr import vkn
from stdnum.ve import rif

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_ALNUM = string.ascii_letters + string.digits
_LOWER_ALNUM = string.ascii_lowercase + string.digits
_UPPER_ALNUM = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


class _Gen:
    """Fake values drawn from one seeded generator, so the corpus is the same on every run."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def of(self, alphabet: str, length: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def digits(self, length: int) -> str:
        """``length`` digits, the first not a zero."""
        return self.rng.choice("123456789") + self.of(string.digits, length - 1)

    def password(self, length: int = 12) -> str:
        """Upper and lower case, a digit and a symbol, starting and ending with a letter."""
        core = [
            self.rng.choice(string.ascii_uppercase),
            self.rng.choice(string.ascii_lowercase),
            self.rng.choice(string.digits),
            self.rng.choice("!#%^_~-*"),
        ]
        core += [self.rng.choice(_ALNUM + "!#%_-") for _ in range(length - 6)]
        self.rng.shuffle(core)
        return self.of(string.ascii_letters, 1) + "".join(core) + self.of(string.ascii_letters, 1)

    def memorable(self, word: str) -> str:
        """A word, a symbol and a number, the way people choose passwords they can remember."""
        return f"{word}{self.rng.choice('#!@%&')}{self.rng.randint(11, 99)}{self.of('xqkzvw', 1)}"

    def b64(self, size: int) -> str:
        return base64.b64encode(self.rng.randbytes(size)).decode()

    def urlsafe(self, size: int) -> str:
        return base64.urlsafe_b64encode(self.rng.randbytes(size)).decode().rstrip("=")

    def hex(self, length: int) -> str:
        return self.of(_HEX, length)

    def uuid(self) -> str:
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{self.rng.choice('89ab')}{h[17:20]}-{h[20:]}"

    def words(self, pool: tuple[str, ...], count: int) -> list[str]:
        return self.rng.sample(pool, count)

    def valid(self, check: Callable[[str], bool], make: Callable[[], str]) -> str:
        """The first value ``make`` draws that ``check`` accepts."""
        for _ in range(10_000):
            value = make()
            if check(value):
                return value
        raise RuntimeError("no valid value drawn")


_G = _Gen(20270602)


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _grouped(value: str, sizes: tuple[int, ...], sep: str = " ") -> str:
    parts, at = [], 0
    for size in sizes:
        parts.append(value[at : at + size])
        at += size
    return sep.join(parts)


# --- passwords in the prose of more languages and scripts -----------------------------------

_MEMO_WORDS = ("Baobab", "Kora", "Sahel", "Atlas", "Nopal", "Taiga", "Fennec", "Condor", "Okapi")

_LANGUAGES = (
    ("Kabyle", "Awal uffir n tbewwabt tura d {v}"),
    ("Oromo", "Jechi icciitii kompiitara koo {v} dha"),
    ("Wolof", "Baatu jàll bu Wi-Fi bi mooy {v}"),
    ("Lingala", "Liloba ya kokɔta na compte ezali {v}"),
    ("Shona", "Pasiwedhi yebhangi ndeye {v}"),
    ("Chichewa", "Mawu achinsinsi a foni yanga ndi {v}"),
    ("Sesotho", "Phasewete ya imeile ke {v}"),
    ("Setswana", "Lefoko la sephiri la khomputara ke {v}"),
    ("Twi", "Me ahintasɛm a mede bue kɔmputa no ne {v}"),
    ("Ewe", "Nya ɣaɣla si le kɔmpiuta la ŋu enye {v}"),
    ("Tok Pisin", "Pasword bilong bank akaun em {v}"),
    ("Bislama", "Pasword blong wifi long haos hemi {v}"),
    ("Tahitian", "Te parau huna o te roro'o uira, o {v} ïa"),
    ("Asturian", "La contraseña del enrutador ye {v}"),
    ("Aragonese", "A clau d'acceso d'o correu ye {v}"),
    ("Friulian", "La peraule di passaç dal ordenadôr e je {v}"),
    ("Ladino", "El biervo sekreto del kompyuter es {v}"),
    ("Walloon", "Li motî d' passe do ordinateu c' est {v}"),
    ("Manx", "Yn fockle follit son y chompyuder: {v}"),
    ("Cornish", "An ger-tremena rag an jynn-amontya yw {v}"),
    ("Kashubian", "Hasło do mòjégò kònta je {v}"),
    ("Lower Sorbian", "Gronidło za e-mail jo {v}"),
    ("Min Nan", "Góa ê bi̍t-bé sī {v}"),
    ("Venetian", "Ła parola segreta del computer ła xe {v}"),
    ("Neapolitan", "'A parola d'accesso d''o computer è {v}"),
    ("Sicilian", "A palora d'accessu dû computer è {v}"),
    ("Low German", "Dat Passwoort för den Reekner is {v}"),
    ("Limburgish", "'t Wachwaord vaan de computer is {v}"),
    ("Scots", "The passwird fir the computer is {v}"),
    ("Nahuatl", "In ichtacatlahtolli in nocomputadora ca {v}"),
    ("Aymara", "Computadoraxan jamasa arupax {v}"),
    ("K'iche'", "Ri ewan tzij re le computadora are {v}"),
    ("Chuvash", "Компьютерӑн вӑрттӑн сӑмахӗ — {v}"),
    ("Bashkir", "Почтаның серһүҙе: {v}"),
    ("Chechen", "Компьютеран къайлаха дош {v} ду"),
    ("Ossetian", "Компьютеры сусæг дзырд у {v}"),
    ("Sakha", "Компьютер кистэлэҥ тыла {v}"),
    ("Buryat", "Компьютерэй нюуса үгэ {v}"),
    ("Tigrinya", "ናይ ኮምፒተር መሕለፊ ቃል {v} እዩ"),
    ("Sindhi", "ڪمپيوٽر جو پاسورڊ {v} آهي"),
    ("Cantonese", "部電腦嘅密碼係 {v}"),
    ("Dzongkha", "གློག་རིག་གི་གསང་ཚིག་ {v} ཨིན།"),
    ("Tamazight (Tifinagh)", "ⴰⵡⴰⵍ ⵓⴼⴼⵉⵔ ⵏ ⵓⵙⵔⵓⵙ ⴷ {v}"),
    ("Syriac", "ܡܠܬܐ ܕܐܪܙܐ ܕܟܘܡܦܝܘܛܪ ܗܝ {v}"),
    ("N'Ko", "ߜߎ߲߬ߘߎ߬ ߞߎߡߊ ߦߋ߫ {v} ߘߌ߫"),
    ("Cherokee", "ᎤᏕᎵᏛ ᎧᏃᎮᏛ ᎯᎠ ᎢᎩ {v}"),
    ("Inuktitut", "ᐃᓯᖅᑯᑎ ᖃᕆᑕᐅᔭᒧᑦ {v}"),
    ("Santali (Ol Chiki)", "ᱠᱚᱢᱯᱭᱩᱴᱟᱨ ᱨᱮᱱᱟᱜ ᱫᱟᱱᱟᱝ ᱨᱚᱲ {v}"),
    ("Meitei Mayek", "ꯀꯝꯞꯌꯨꯇꯔꯒꯤ ꯄꯥꯁꯋꯥꯔꯗ {v}"),
    ("Mongolian (script)", "ᠺᠣᠮᠫᠢᠶᠦᠲᠧᠷ ᠤᠨ ᠨᠢᠭᠤᠴᠠ ᠦᠭᠡ {v}"),
    ("Javanese (script)", "ꦠꦼꦩ꧀ꦧꦸꦁ ꦱꦤ꧀ꦝꦶ {v}"),
    ("Bopomofo", "ㄇㄧˋ ㄇㄚˇ：{v}"),
)

# Some sentences put the value first, or on the line after its word.
_VALUE_FIRST = (
    ("Tok Pisin", "{v} — dispela em nupela pasword bilong wifi"),
    ("Asturian", "{v}, esa ye la contraseña nueva del correo"),
    ("Low German", "{v} — dat is nu dat Passwoort för de Bank"),
    ("Chuvash", "{v} — ҫакӑ ҫӗнӗ вӑрттӑн сӑмах"),
)
_NEXT_LINE = (
    ("Kabyle", "Awal uffir amaynut:\n{v}"),
    ("Shona", "Pasiwedhi itsva yeWi-Fi yakanyorwa pasi apa\n\n{v}"),
    ("Cantonese", "公司 VPN 新密碼\n{v}"),
    ("Sindhi", "نئون پاسورڊ\n{v}"),
)


def _languages() -> list[Sample]:
    out = []
    templates = _LANGUAGES + _VALUE_FIRST + _NEXT_LINE
    for index, (language, template) in enumerate(templates):
        if index % 3 == 0:
            value = _G.memorable(_G.rng.choice(_MEMO_WORDS))
        else:
            value = _G.password(_G.rng.randint(10, 15))
        out.append(_s(f"prose: {language}", template.format(v=value), value))
    return out


# --- samples drawn from tables --------------------------------------------------------------

_Row = tuple[str, str, Callable[[], str]]
_SLOTS = ("{v}", "{w}")


def _pw(length: int = 12) -> Callable[[], str]:
    return lambda: _G.password(length)


def _chars(alphabet: str, length: int) -> Callable[[], str]:
    return lambda: _G.of(alphabet, length)


def _from(rows: tuple[_Row, ...]) -> list[Sample]:
    """One sample a row: its template with ``{v}`` (and ``{w}``) replaced by values its maker
    draws, each of them a planted secret."""
    out = []
    for family, template, make in rows:
        text, values = template, []
        for slot in _SLOTS:
            if slot in template:
                values.append(make())
                text = text.replace(slot, values[-1])
        out.append(_s(family, text, *values))
    return out


# --- spelled, dictated and split ------------------------------------------------------------

_SPELLED = (
    (
        "spelled: nato",
        "Wi-Fi password, spelling it for you: K as in kilo, 7, M as in Mike, lower-case q "
        "as in Quebec, hash, 4, X as in X-ray",
        "K as in kilo, 7, M as in Mike",
        "hash, 4, X as in X-ray",
    ),
    (
        "spelled: nato",
        "router admin password is papa-echo-lima-seven-seven-hotel (all lower case)",
        "papa-echo-lima-seven-seven-hotel",
    ),
    (
        "spelled: dictated",
        "ok so the pw is: capital T, lowercase r, e, e, the number 5, at sign, capital B, a, r, k",
        "capital T, lowercase r, e, e",
        "the number 5, at sign, capital B",
    ),
    (
        "spelled: dictated",
        "Mum's email password, she read it out: small g, small o, capital L, f, nine, nine, star",
        "small g, small o, capital L, f, nine, nine",
    ),
    (
        "spelled: German",
        "Passwort buchstabiert: Dora, Anton, Nordpol, vier, sieben, Ida, Ypsilon",
        "Dora, Anton, Nordpol, vier, sieben, Ida",
    ),
    (
        "spelled: French",
        "mot de passe épelé : A comme Anatole, Z comme Zoé, 9, 3, dièse, M comme Marcel",
        "A comme Anatole, Z comme Zoé, 9, 3",
        "dièse, M comme Marcel",
    ),
    (
        "spelled: Italian",
        "la password lettera per lettera: R come Roma, 5, T come Torino, chiocciola, "
        "B come Bologna, 8",
        "R come Roma, 5, T come Torino",
        "chiocciola, B come Bologna, 8",
    ),
    (
        "spelled: number words",
        "the alarm code is nine four one seven, don't write it on the fridge",
        "nine four one seven",
    ),
    (
        "spelled: number words",
        "die PIN vom Tresor ist vier-sieben-null-zwei-acht",
        "vier-sieben-null-zwei-acht",
    ),
    (
        "split: groups",
        "new VPN password (type it without the spaces): Qm7r X2kp 9!Lw",
        "Qm7r X2kp 9!Lw",
    ),
    (
        "split: halves",
        "first half of the DB password: Tz8q-Lm\nsecond half, I'll send the rest by SMS: 4Kv!9Rp",
        "Tz8q-Lm",
        "4Kv!9Rp",
    ),
    (
        "split: halves",
        "the shared mailbox password is the two pieces glued together, Hollow and Pine#62",
        "Hollow and Pine#62",
    ),
)

# --- door codes and PINs in prose ------------------------------------------------------------

_CODES = (
    ("pin: lockbox", "the lockbox at the cottage opens with 3 9 1 7, keys on the hook", "3 9 1 7"),
    ("pin: keysafe", "keysafe by the back door: 58204", "58204"),
    ("pin: intercom", "Buzz 24179 at the street door, then take the lift to the 6th", "24179"),
    ("pin: intercom", "Mum's intercom code is 71#48, the button on the left", "71#48"),
    ("pin: garage", "garage keypad: 6 0 9 2 then the up arrow", "6 0 9 2"),
    ("pin: bike lock", "the U-lock on the red bike is set to 83051", "83051"),
    ("pin: safe", "hotel safe — I set it to 271190 (not my birthday, relax)", "271190"),
    ("pin: voicemail", "voicemail PIN is 40718 if you need to check my messages", "40718"),
    ("pin: unlock pattern", "unlock pattern for Dad's phone: L shape, 1-4-7-8-9", "1-4-7-8-9"),
    ("pin: card", "the PIN for the joint account card is 28461, new since March", "28461"),
    ("pin: parental", "parental-control PIN on the living room TV: 62830", "62830"),
    ("pin: radio code", "radio code for the Golf after the battery swap: 73948", "73948"),
    ("pin: wps", "WPS PIN printed under the router: 39817264", "39817264"),
    ("pin: French", "digicode de l'immeuble : 12B47, puis 2e étage gauche", "12B47"),
    ("pin: German", "Türcode unten ist 8264#, Briefkasten hat keinen", "8264#"),
    ("pin: Spanish", "el código del portal es 47910 y el ascensor va al 3º", "47910"),
    ("pin: Japanese", "マンションのオートロックの暗証番号は 31908 です", "31908"),
    ("pin: Korean", "현관 도어락 비밀번호 1582# 눌러", "1582#"),
)

# --- manifests, pipelines and config files ---------------------------------------------------

_MANIFESTS: tuple[_Row, ...] = (
    (
        "helm values",
        "postgresql:\n  auth:\n    username: shop\n    password: {v}\n    postgresPassword: {w}\n"
        "  primary:\n    persistence:\n      size: 20Gi",
        _pw(15),
    ),
    (
        "helm --set",
        "helm upgrade --install shop ./chart --set redis.auth.password={v} --set image.tag=2.4.1",
        _pw(13),
    ),
    (
        "helm repo add",
        "helm repo add corp https://charts.corp.example.net --username ci --password {v}",
        _pw(),
    ),
    (
        "ansible inventory",
        "[web]\nweb01 ansible_host=10.0.3.11 ansible_user=deploy ansible_password={v}\n"
        "web02 ansible_host=10.0.3.12",
        _pw(),
    ),
    ("ansible group_vars", 'ansible_user: ops\nansible_ssh_pass: "{v}"', _pw(14)),
    (
        "ansible extra vars",
        "ansible-playbook db.yml --extra-vars 'db_root_password={v} db_name=shop'",
        _pw(15),
    ),
    (
        "ansible vault password file",
        "echo '{v}' > ~/.vault_pass.txt && chmod 600 ~/.vault_pass.txt",
        lambda: _G.memorable("Lantern"),
    ),
    (
        "kubeconfig token",
        "users:\n- name: ci-bot\n  user:\n    token: {v}\ncontexts:\n- name: prod",
        lambda: _G.urlsafe(48),
    ),
    (
        "kubeconfig basic auth",
        "- name: legacy\n  user:\n    username: admin\n    password: {v}",
        _pw(),
    ),
    (
        "kustomize literals",
        "secretGenerator:\n- name: app-env\n  literals:\n  - DB_PASSWORD={v}\n  - SMTP_PASSWORD={w}",
        _pw(14),
    ),
    (
        "azure pipelines",
        "variables:\n  buildConfiguration: Release\n  dbPassword: '{v}'\n  vmImage: ubuntu-latest",
        _pw(13),
    ),
    (
        "bitbucket pipelines",
        "- pipe: atlassian/ftp-deploy:0.3.7\n  variables:\n    USER: deploy\n"
        "    PASSWORD: '{v}'\n    SERVER: ftp.shop.example.net",
        _pw(),
    ),
    (
        "drone",
        "- name: publish\n  image: plugins/docker\n  settings:\n    username: ci\n"
        "    password: {v}\n    repo: corp/shop",
        _pw(14),
    ),
    ("travis", "env:\n  global:\n    - SONAR_TOKEN={v}\n    - NODE_ENV=test", _chars(_HEX, 40)),
    (
        "gitlab ci",
        'test:\n  services:\n    - mysql:8\n  variables:\n    MYSQL_ROOT_PASSWORD: "{v}"',
        _pw(15),
    ),
    ("jenkinsfile", "pipeline {\n  environment {\n    NEXUS_PASS = '{v}'\n  }\n}", _pw(13)),
    (
        "github actions login",
        "- uses: docker/login-action@v3\n  with:\n    registry: ghcr.io\n"
        "    username: corp-ci\n    password: {v}",
        _pw(14),
    ),
    (
        "compose healthcheck",
        'healthcheck:\n  test: ["CMD", "mysqladmin", "ping", "-uroot", "-p{v}"]\n  interval: 10s',
        _pw(),
    ),
    (
        "compose command",
        "  cache:\n    image: redis:7\n    command: redis-server --requirepass {v}",
        _pw(16),
    ),
)

_CONFIG_FILES: tuple[_Row, ...] = (
    (
        "fly.toml",
        'app = "shop"\n\n[env]\n  SESSION_SECRET = "{v}"\n  PORT = "8080"',
        _chars(_HEX, 64),
    ),
    ("wrangler.toml", 'name = "edge"\n[vars]\nUPSTREAM_TOKEN = "{v}"', _chars(_ALNUM, 40)),
    (
        "alembic.ini",
        "[alembic]\nscript_location = migrations\n"
        "sqlalchemy.url = postgresql+psycopg://app:{v}@db:5432/app",
        _pw(13),
    ),
    ("poetry config", "poetry config http-basic.corp ci {v}", _pw(14)),
    ("supervisord", "[inet_http_server]\nport=127.0.0.1:9001\nusername=admin\npassword={v}", _pw()),
    (
        "tomcat users",
        '<tomcat-users>\n  <user username="manager" password="{v}" roles="manager-gui"/>\n'
        "</tomcat-users>",
        _pw(13),
    ),
    (
        "sbt credentials",
        "realm=Sonatype Nexus Repository Manager\nhost=nexus.corp.example.net\nuser=ci\n"
        "password={v}",
        _pw(14),
    ),
    (
        "hgrc",
        "[auth]\ncorp.prefix = hg.corp.example.net\ncorp.username = jo\ncorp.password = {v}",
        _pw(),
    ),
    (
        "boto",
        "[Credentials]\ngs_access_key_id = GOOG1EQ4XK2L9M3N7P5R8T6V\ngs_secret_access_key = {v}",
        lambda: _G.b64(30),
    ),
    (
        "yarnrc",
        'npmRegistryServer: "https://verdaccio.corp.example.net"\nnpmAuthToken: "{v}"',
        _G.uuid,
    ),
    (
        "terraformrc",
        'credentials "tfe.corp.example.net" {\n  token = "{v}"\n}',
        lambda: _G.of(_ALNUM, 14) + ".tfe." + _G.of(_ALNUM, 40),
    ),
    (
        "networkmanager",
        "[wifi]\nssid=Fjord-5G\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={v}",
        _pw(13),
    ),
    (
        "iwd",
        "# /var/lib/iwd/Fjord-5G.psk\n[Security]\nPassphrase={v}",
        lambda: _G.memorable("Taiga"),
    ),
    ("chap-secrets", '# client\tserver\tsecret\tIP addresses\n"jdoe"\t*\t"{v}"\t*', _pw()),
    ("ipsec secrets", '%any 203.0.113.5 : PSK "{v}"', _pw(20)),
    ("ddclient", "protocol=dyndns2\nlogin=home-nas\npassword='{v}'\nhome.dyn.example.net", _pw()),
    (
        "offlineimap",
        "[Repository Remote]\ntype = IMAP\nremoteuser = jo\nremotepass = {v}",
        _pw(14),
    ),
    ("mbsync", "IMAPAccount work\nHost imap.corp.example.net\nUser jo\nPass {v}", _pw(13)),
    (
        "irssi",
        'servers = ({ address = "irc.libera.chat"; chatnet = "libera"; password = "{v}"; });',
        _pw(),
    ),
    ("gitea app.ini", "[database]\nDB_TYPE = postgres\nUSER = gitea\nPASSWD = {v}", _pw(15)),
    (
        "home assistant secrets",
        "# secrets.yaml\nmqtt_password: {v}\nhome_latitude: 52.37",
        _pw(13),
    ),
    (
        "prometheus",
        "- job_name: nodes\n  basic_auth:\n    username: prom\n    password: {v}",
        _pw(14),
    ),
    (
        "alertmanager",
        "global:\n  smtp_auth_username: alerts\n  smtp_auth_password: '{v}'",
        _pw(16),
    ),
    (
        "keepalived",
        "vrrp_instance VI_1 {\n    authentication {\n        auth_type PASS\n"
        "        auth_pass {v}\n    }\n}",
        _chars(_ALNUM, 8),
    ),
    (
        "bind tsig",
        'key "transfer" {\n  algorithm hmac-sha256;\n  secret "{v}";\n};',
        lambda: _G.b64(32),
    ),
    ("ntp keys", "# /etc/ntp.keys\n12 SHA1 {v}  # sha1 key 12", _chars(_HEX, 40)),
    ("freeradius", "client ap1 {\n  ipaddr = 10.1.1.5\n  secret = {v}\n}", _pw(16)),
    ("tacacs", "tacacs server ISE\n address ipv4 10.0.0.5\n key {v}", _pw(14)),
    (
        "ospf",
        "interface Gi0/1\n ip ospf message-digest-key 1 md5 {v}",
        _chars(_ALNUM, 12),
    ),
    ("bgp", "router bgp 64512\n neighbor 192.0.2.1 password {v}", _pw(14)),
    ("jupyter", "c.ServerApp.ip = '0.0.0.0'\nc.ServerApp.token = '{v}'", _chars(_HEX, 48)),
    ("rails master key", "$ cat config/master.key\n{v}", _chars(_HEX, 32)),
    (
        "laravel",
        "APP_NAME=Shop\nAPP_ENV=production\nAPP_KEY=base64:{v}",
        lambda: _G.b64(32),
    ),
    ("symfony", "###> symfony/framework-bundle ###\nAPP_SECRET={v}", _chars(_HEX, 32)),
    ("nextcloud", "  'dbuser' => 'nextcloud',\n  'dbpassword' => '{v}',", _pw(15)),
    (
        "django settings",
        "EMAIL_HOST = 'smtp.corp.example.net'\nEMAIL_HOST_PASSWORD = '{v}'",
        _pw(13),
    ),
    ("dotenv with comment", 'SMTP_PASS="{v}" # prod! rotate after the audit', _pw()),
)

# --- HTTP requests and clients ---------------------------------------------------------------

_HTTP: tuple[_Row, ...] = (
    (
        "devtools headers",
        ":authority\napi.shop.example.net\n:method\nGET\naccept\napplication/json\n"
        "authorization\nBearer {v}\nuser-agent\nMozilla/5.0",
        lambda: _G.urlsafe(40),
    ),
    (
        "har header",
        '"headers": [{"name": "Accept", "value": "*/*"}, '
        '{"name": "Authorization", "value": "Bearer {v}"}]',
        lambda: _G.urlsafe(36),
    ),
    (
        "har cookie",
        '"cookies": [{"name": "sessionid", "value": "{v}", "path": "/", "httpOnly": true}]',
        _chars(_LOWER_ALNUM, 32),
    ),
    (
        "postman",
        '"auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{v}", '
        '"type": "string"}]}',
        lambda: _G.urlsafe(30),
    ),
    (
        "x-vault-token",
        'curl -H "X-Vault-Token: {v}" https://vault:8200/v1/kv/app',
        lambda: "s." + _G.of(_ALNUM, 24),
    ),
    (
        "private-token",
        "PRIVATE-TOKEN: {v}\n(gitlab 12 self-hosted, old style token)",
        _chars(_ALNUM + "-_", 20),
    ),
    ("ocp-apim", "Ocp-Apim-Subscription-Key: {v}", _chars(_HEX, 32)),
    (
        "x-rapidapi-key",
        "'X-RapidAPI-Key': '{v}',\n'X-RapidAPI-Host': 'weather.p.rapidapi.com'",
        _chars(_ALNUM, 50),
    ),
    ("datadog headers", '-H "DD-API-KEY: {v}" -H "DD-APPLICATION-KEY: {w}"', _chars(_HEX, 40)),
    (
        "oauth 1",
        'Authorization: OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_token="{v}", '
        'oauth_signature_method="HMAC-SHA1", oauth_version="1.0"',
        _chars(_ALNUM, 40),
    ),
    ("token token", 'Authorization: Token token="{v}"', _chars(_HEX, 32)),
    (
        "curl oauth2-bearer",
        "curl --oauth2-bearer {v} https://api.corp.example.net/me",
        lambda: _G.urlsafe(32),
    ),
    (
        "curl proxy-user",
        "curl --proxy-user proxyuser:{v} -x http://proxy:3128 https://example.org",
        _pw(),
    ),
    (
        "curl cookie",
        'curl -b "PHPSESSID={v}" https://shop.example.net/admin',
        _chars(_LOWER_ALNUM, 26),
    ),
    (
        "curl empty user",
        "curl -u :{v} https://dev.azure.com/corp/_apis/projects",
        _chars(_LOWER_ALNUM, 52),
    ),
    (
        "curl data-urlencode",
        'curl https://portal.example.net/login --data-urlencode "user=jo" '
        '--data-urlencode "password={v}"',
        _pw(13),
    ),
    (
        "wget",
        "wget --http-user=ci --http-password={v} https://nexus.corp.example.net/app.jar",
        _pw(),
    ),
    (
        "powershell headers",
        'Invoke-WebRequest -Uri $u -Headers @{"Authorization" = "Bearer {v}"}',
        lambda: _G.urlsafe(42),
    ),
    (
        "powershell credential",
        '$cred = New-Object PSCredential("svc-backup", '
        '(ConvertTo-SecureString "{v}" -AsPlainText -Force))',
        _pw(14),
    ),
    ("python requests", 'r = requests.get(url, auth=("admin", "{v}"))', _pw()),
    ("python basic auth", 'session.auth = HTTPBasicAuth("svc-report", "{v}")', _pw(13)),
    ("axios", 'await axios.get(url, { auth: { username: "ops", password: "{v}" } })', _pw()),
    (
        "grpcurl",
        'grpcurl -H "authorization: bearer {v}" api.corp:443 list',
        lambda: _G.urlsafe(34),
    ),
    ("xfreerdp", "xfreerdp /u:Administrator /p:{v} /v:10.0.0.8", _pw()),
    ("ipmitool", "ipmitool -I lanplus -H 10.0.0.40 -U ADMIN -P {v} chassis status", _pw(10)),
    ("plink", "plink -ssh -pw {v} root@10.0.0.9 uptime", _pw()),
    ("cqlsh", "cqlsh -u cassandra -p {v} 10.0.0.12", _pw()),
    ("clickhouse", "clickhouse-client --user default --password {v} -q 'SELECT 1'", _pw(14)),
    ("influx", "influx -username admin -password '{v}' -database metrics", _pw()),
    ("expect", 'spawn ssh admin@10.0.0.2\nexpect "assword:"\nsend "{v}\\r"', _pw()),
)

# --- session cookies ---------------------------------------------------------------------------

_COOKIES: tuple[_Row, ...] = (
    ("cookie: php", "Cookie: PHPSESSID={v}; lang=en", _chars(_LOWER_ALNUM, 26)),
    (
        "cookie: java",
        "https://shop.example.net/cart;jsessionid={v}?item=4",
        _chars("0123456789ABCDEF", 32),
    ),
    (
        "cookie: wordpress",
        "wordpress_logged_in_5f4dcc3b5aa765d61d8327deb882cf99=admin%7C1767225600%7C{v}%7C{w}",
        _chars(_ALNUM, 43),
    ),
    (
        "cookie: cookies.txt",
        "# Netscape HTTP Cookie File\n.example.net\tTRUE\t/\tTRUE\t1767225600\tsession\t{v}",
        _chars(_ALNUM, 40),
    ),
    (
        "cookie: document.cookie",
        'document.cookie = "sid={v}; path=/";',
        lambda: _G.urlsafe(30),
    ),
    (
        "cookie: flask",
        "Set-Cookie: session=eyJ1c2VyX2lkIjo0Mn0.ZxYz9A.{v}; HttpOnly; Path=/",
        lambda: _G.urlsafe(27),
    ),
)


def _long_tokens() -> list[Sample]:
    """Tokens too long to plant whole: a stretch of each must be gone."""
    rows = (
        ("negotiate", "Authorization: Negotiate YIIC", 160),
        ("ntlm", "Authorization: NTLM TlRMTVNTUAADAAAA", 120),
        ("cookie: laravel", "laravel_session=eyJpdiI6", 180),
        ("cookie: asp.net", "ASP.NET_SessionId=kq3xw0mlt1ouv2ahzzb5j4gd; .ASPXAUTH=", 120),
        ("cookie: next-auth", "__Secure-next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOi", 140),
        ("cookie: rails", "_shop_session=", 130),
        ("otp: authenticator export", "otpauth-migration://offline?data=", 60),
        ("key: minisign", "untrusted comment: minisign encrypted secret key\nRWRTY0Iy", 150),
    )
    out = []
    for family, lead, size in rows:
        value = _G.b64(size).rstrip("=")
        out.append(_s(family, lead + value, value[10:70]))
    return out


# --- private keys quoted in notes --------------------------------------------------------------

# (family, text before the block, each line's prefix, label, text after the block)
_QUOTED_KEYS = (
    (
        "key: blockquote",
        "Ops pasted the deploy key in the channel:\n\n",
        "> ",
        "OPENSSH PRIVATE KEY",
        "",
    ),
    ("key: list item", "- staging box\n  - user: deploy\n  - key:\n\n", "    ", "PRIVATE KEY", ""),
    ("key: pre", "<pre>", "", "RSA PRIVATE KEY", "</pre>"),
    ("key: yaml block", "stringData:\n  tls.key: |\n", "    ", "EC PRIVATE KEY", ""),
    ("key: dsa", "old router key, in case we need it again\n", "", "DSA PRIVATE KEY", ""),
    (
        "key: encrypted with passphrase",
        "",
        "",
        "ENCRYPTED PRIVATE KEY",
        "\npassphrase for it is Okapi&Dune71",
    ),
)


def _key_body(lines: int, width: int = 64) -> list[str]:
    return [_G.b64(width)[:width] for _ in range(lines)]


def _keys() -> list[Sample]:
    out = []
    for family, before, prefix, label, after in _QUOTED_KEYS:
        body = _key_body(5)
        lines = [f"-----BEGIN {label}-----", *body, f"-----END {label}-----"]
        text = before + "\n".join(prefix + line for line in lines) + after
        secrets = (body[1], body[4], *(["Okapi&Dune71"] if "Okapi" in after else []))
        out.append(_s(family, text, *secrets))
    body = _key_body(5, 70)
    out.append(
        _s(
            "key: one line",
            "key (Slack ate the newlines): -----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEA"
            + " ".join(body)
            + " -----END RSA PRIVATE KEY-----",
            body[2],
            body[4],
        )
    )
    rows = [_G.hex(32) for _ in range(16)]
    out.append(
        _s(
            "key: openvpn static",
            "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
            + "\n".join(rows)
            + "\n-----END OpenVPN Static key V1-----",
            rows[2],
            rows[9],
            rows[15],
        )
    )
    pem = f"-----BEGIN EC PRIVATE KEY-----\n{_G.b64(90)}\n-----END EC PRIVATE KEY-----\n"
    data = base64.b64encode(pem.encode()).decode()
    out.append(
        _s(
            "kubeconfig client key",
            "users:\n- name: admin@prod\n  user:\n"
            "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJ\n"
            f"    client-key-data: {data}",
            data[40:100],
        )
    )
    auth = base64.b64encode(f"ci:{_G.password(14)}".encode()).decode()
    config = json.dumps({"auths": {"registry.corp.example.net": {"auth": auth}}})
    blob = base64.b64encode(config.encode()).decode()
    out.append(
        _s(
            "kubernetes dockerconfigjson",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\n"
            f"type: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {blob}",
            blob[20:80],
        )
    )
    nsec, xprv = "nsec1" + _G.of(_BECH32, 58), "xprv9s21ZrQH143K" + _G.of(_B58, 95)
    spend, view = _G.hex(64), _G.hex(64)
    numbers = [str(_G.rng.randrange(256)) for _ in range(64)]
    out += [
        _s("key: nostr", f"my nostr login is {nsec} (don't share lol)", nsec),
        _s("key: xprv", f"account root: {xprv}", xprv),
        _s(
            "key: solana keypair",
            "cat ~/.config/solana/id.json\n[" + ",".join(numbers) + "]",
            ",".join(numbers[4:14]),
            ",".join(numbers[40:50]),
        ),
        _s(
            "key: monero",
            f"wallet keys — secret spend key: {spend}\nsecret view key: {view}",
            spend,
            view,
        ),
    ]
    return out


# --- one-time codes -----------------------------------------------------------------------------

_ONE_TIME = (
    ("otp: google", "G-483920 is your Google verification code.", "483920"),
    ("otp: Russian", "Ваш код подтверждения: 5183. Никому не сообщайте его.", "5183"),
    ("otp: Italian", "Il tuo codice di verifica è 602 481, scade tra 5 minuti", "602 481"),
    ("otp: Polish", "Kod weryfikacyjny: 739104. Nie udostępniaj go nikomu.", "739104"),
    ("otp: Dutch", "Uw verificatiecode is 41 87 26", "41 87 26"),
    ("otp: Portuguese", "Seu código do WhatsApp: 318-604. Não compartilhe.", "318-604"),
    ("otp: Turkish", "Doğrulama kodunuz: 925173 — kimseyle paylaşmayın", "925173"),
    ("otp: Vietnamese", "Mã xác thực của bạn là 804615", "804615"),
    ("otp: fullwidth", "確認コード：４８２９０１（10分間有効）", "４８２９０１"),
    ("otp: steam guard", "Steam Guard code for the new laptop: 7KQ2D", "7KQ2D"),
    (
        "otp: chat app",
        "Slack sent a confirmation code, QX4-7ML, typed it in on the desktop",
        "QX4-7ML",
    ),
    ("meeting passcode", "Zoom: Meeting ID 843 2291 0573, Passcode: 7fK2qa", "7fK2qa"),
    (
        "meeting passcode",
        "Join on Teams — Meeting ID: 271 884 903 512  Passcode: Xb9hQ3",
        "Xb9hQ3",
    ),
    (
        "meeting link",
        "https://us02web.zoom.us/j/84322910573?pwd=bU9xZ0tKc2x4R2ZJd3pQbVd2Y1NxQT09",
        "bU9xZ0tKc2x4R2ZJd3pQbVd2Y1NxQT09",
    ),
)
# --- recovery phrases and keys ------------------------------------------------------------------

_SPANISH_WORDS = tuple(
    "ábaco abdomen abeja abierto abogado abono aborto abrazo abrir abuelo abuso acabar "
    "academia acceso acción aceite acelga acento aceptar ácido aclarar acné acoger acoso "
    "activo acto actriz actuar acudir acuerdo acusar adicto admitir adoptar adorno aduana".split()
)
_FRENCH_WORDS = tuple(
    "abaisser abandon abdiquer abeille abolir aborder aboutir aboyer abrasif abreuver "
    "abriter abroger abrupt absence absolu absurde abusif abyssal académie acajou acarien "
    "accabler accepter acclamer accolade accroche accuser acerbe achat acheter aciduler".split()
)
_ENGLISH_WORDS = tuple(
    "orbit lemon castle quartz walnut harbor violin meadow pepper saddle tunnel glacier "
    "cobalt fossil lantern marble nectar oyster parrot quiver ribbon salmon thimble velvet "
    "wander yonder zephyr bramble cactus dolphin ember falcon goblet hazel igloo jasmine".split()
)

# (family, text before the words, word list, how many words)
_PHRASES = (
    ("recovery: Spanish words", "frase de recuperación de la cartera: ", _SPANISH_WORDS, 12),
    ("recovery: French words", "phrase de récupération : ", _FRENCH_WORDS, 12),
    ("recovery: monero", "monero seed (25 words): ", _ENGLISH_WORDS, 25),
    (
        "recovery: prose",
        "Proton gave me these twelve words when I set the account up, keep them safe: ",
        _ENGLISH_WORDS,
        12,
    ),
    ("recovery: paper key", "keybase paper key for the laptop: ", _ENGLISH_WORDS, 13),
    ("recovery: German", "Wiederherstellungsphrase vom Trezor: ", _ENGLISH_WORDS, 12),
)

# (family, text with {v}, alphabet, group size, groups, separator)
_RECOVERY_KEYS = (
    ("recovery: apple", "Apple Account recovery key {v}", _UPPER_ALNUM, 4, 7, "-"),
    ("recovery: filevault", "FileVault says: your recovery key is {v}", _UPPER_ALNUM, 4, 6, "-"),
    ("recovery: microsoft", "Microsoft account recovery code — {v}", _UPPER_ALNUM, 5, 5, "-"),
    ("recovery: bitwarden", "Bitwarden two-step recovery code: {v}", _LOWER_ALNUM, 4, 8, " "),
    ("recovery: whatsapp", "WhatsApp backup encryption key: {v}", string.digits, 4, 16, " "),
)


def _recovery() -> list[Sample]:
    out = []
    for family, lead, pool, count in _PHRASES:
        words = _G.words(pool, count)
        out.append(_s(family, lead + " ".join(words), " ".join(words[:4]), " ".join(words[-4:])))
    words = _G.words(_ENGLISH_WORDS, 24)
    rows = [f"| {n} | {w} |" for n, w in enumerate(words, 1)]
    out.append(
        _s(
            "recovery: table",
            "Ledger words, keep offline!\n\n| # | word |\n|---|---|\n" + "\n".join(rows),
            rows[2],
            rows[13],
            rows[23],
        )
    )
    for family, template, alphabet, size, groups, sep in _RECOVERY_KEYS:
        key = sep.join(_G.of(alphabet, size) for _ in range(groups))
        out.append(_s(family, template.replace("{v}", key), key))
    out += _from(
        (
            (
                "recovery: signal pin",
                "registration lock PIN on Signal is {v}",
                lambda: _G.digits(8),
            ),
            (
                "recovery: veracrypt",
                "VeraCrypt container on the USB stick: {v}, PIM 485",
                _pw(18),
            ),
        )
    )
    return out


# --- bank accounts -------------------------------------------------------------------------------


def _clabe() -> str:
    body = "002180" + _G.of(string.digits, 11)
    total = sum(int(d) * w % 10 for d, w in zip(body, (3, 7, 1) * 6, strict=False))
    clabe = body + str((10 - total % 10) % 10)
    return _grouped(clabe, (4, 4, 4, 4, 2))


def _nuban() -> str:
    serial = _G.of(string.digits, 9)
    weights = (3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3)
    total = sum(int(d) * w for d, w in zip("058" + serial, weights, strict=True))
    return serial + str((10 - total % 10) % 10)


def _ru_account() -> str:
    """A Russian personal account whose control digit (the ninth) fits the BIK 044525225."""
    weights = ((7, 1, 3) * 8)[:23]
    body = "40817810?" + _G.of(string.digits, 11)
    for check in string.digits:
        candidate = body.replace("?", check)
        if sum(int(d) * w for d, w in zip("225" + candidate, weights, strict=True)) % 10 == 0:
            return candidate
    raise AssertionError(body)


def _giro() -> str:
    body = _G.of(string.digits, 7)
    total = sum(int(d) * w for d, w in zip(body, (9, 7, 3, 1, 9, 7, 3), strict=True))
    return f"11773016-{body}{(10 - total % 10) % 10}"


def _swiss_postal() -> str:
    body = _G.of(string.digits, 6)
    return f"87-{body}-{esr.calc_check_digit('87' + body)}"


def _norwegian_account() -> str:
    number = _G.valid(kontonr.is_valid, lambda: "1503" + _G.of(string.digits, 7))
    return f"{number[:4]}.{number[4:6]}.{number[6:]}"


_ACCOUNTS: tuple[_Row, ...] = (
    ("bank: clabe", "CLABE interbancaria para el depósito: {v}", _clabe),
    ("bank: pix", "me manda por PIX, chave aleatória {v}", _G.uuid),
    (
        "bank: canada",
        "direct deposit form: transit 04512, institution 003, account {v}",
        lambda: _G.digits(7),
    ),
    ("bank: nigeria", "GTBank NUBAN {v}, send the rest there too", _nuban),
    ("bank: nigeria", "my BVN is {v}", lambda: "22" + _G.of(string.digits, 9)),
    (
        "bank: japan",
        "振込先：三井住友銀行 渋谷支店 普通 口座番号 {v}",
        lambda: _G.digits(7),
    ),
    (
        "bank: korea",
        "입금 계좌: 국민은행 {v} (예금주 김)",
        lambda: f"{_G.digits(6)}-04-{_G.of(string.digits, 6)}",
    ),
    ("bank: russia", "Реквизиты: БИК 044525225, р/с {v}", _ru_account),
    ("bank: swiss postal", "Einzahlung auf Postkonto {v}", _swiss_postal),
    (
        "bank: germany legacy",
        "alte Bankverbindung: Kontonummer {v}, BLZ 370 400 44",
        lambda: _G.digits(10),
    ),
    (
        "bank: sweden",
        "clearingnummer 8327-9, kontonummer {v}",
        lambda: f"{_G.digits(3)} {_G.of(string.digits, 3)} {_G.of(string.digits, 3)}-4",
    ),
    ("bank: denmark", "reg.nr. 1551 kontonr. {v}", lambda: _G.digits(10)),
    ("bank: norway", "lønna går til kontonummer {v}", _norwegian_account),
    (
        "bank: czech",
        "pošli to na účet {v}, díky",
        lambda: _G.valid(bankaccount.is_valid, lambda: f"{_G.digits(10)}/2010"),
    ),
    ("bank: hungary", "számlaszám: {v}", _giro),
    ("bank: israel", "בנק 12 סניף 601 מספר חשבון {v}", lambda: _G.digits(6)),
    (
        "bank: south africa",
        "Capitec, branch code 470010, account {v}",
        lambda: _G.digits(11),
    ),
    (
        "bank: brazil",
        "agência 0001-9, conta corrente {v}, Banco do Brasil",
        lambda: f"{_G.digits(5)}-{_G.of(string.digits, 1)}",
    ),
    (
        "bank: chile",
        "cuenta corriente N° {v} del Banco de Chile",
        lambda: f"00-{_G.of(string.digits, 3)}-{_G.of(string.digits, 5)}-{_G.of(string.digits, 2)}",
    ),
    (
        "bank: india",
        "A/c no. {v}, IFSC HDFC0001234, Andheri branch",
        lambda: _G.digits(14),
    ),
    ("bank: us dda", "wire: ABA 021000021, DDA {v}, ref rent", lambda: _G.digits(12)),
)


def _iban(country: str, *parts: tuple[str, int]) -> Callable[[], str]:
    """A maker of IBANs of ``country`` whose account part is ``parts`` (alphabet, length)."""

    def draw() -> str:
        return checkdigits.iban(country, "".join(_G.of(a, n) for a, n in parts))

    def make() -> str:
        return _G.valid(iban_number.is_valid, draw)

    return make


_D = string.digits


def _in_fours(make: Callable[[], str], sep: str = " ") -> Callable[[], str]:
    return lambda: sep.join(textwrap.wrap(make(), 4))


_IBANS: tuple[_Row, ...] = (
    ("iban: lower case", "tilinumero {v}", lambda: _iban("FI", (_D, 14))().lower()),
    ("iban: prose", "lønnskonto {v} i DNB", _iban("NO", (_D, 11))),
    ("iban: dotted", "IBAN {v}", _in_fours(_iban("DK", (_D, 14)), ".")),
    (
        "iban: sepa xml",
        "<CdtrAcct>\n  <Id>\n    <IBAN>{v}</IBAN>\n  </Id>\n</CdtrAcct>",
        _iban("LU", (_D, 3), (_UPPER_ALNUM, 13)),
    ),
    (
        "iban: epc qr",
        "BCD\n002\n1\nSCT\nETHNGRAA\nK. Papadopoulou\n{v}\nEUR120.00\n\nRent March",
        _iban("GR", (_D, 23)),
    ),
    (
        "iban: swiss qr-bill",
        "SPC\n0200\n1\n{v}\nS\nMax Muster\nHauptstrasse\n1\n9490\nVaduz\nLI",
        _iban("LI", (_D, 5), (_UPPER_ALNUM, 12)),
    ),
    (
        "iban: mt103",
        ":50K:/{v}\nANDREAS GEORGIOU\n:59:/GB-ACC",
        _iban("CY", (_D, 8), (_UPPER_ALNUM, 16)),
    ),
    (
        "iban: csv",
        "name;iban;amount\nrent;{v};850.00",
        _iban("MT", (string.ascii_uppercase, 4), (_D, 5), (_UPPER_ALNUM, 18)),
    ),
    ("iban: Hungarian", "Az IBAN számom {v}, köszi!", _iban("HU", (_D, 24))),
    ("iban: Slovak", "číslo účtu v tvare IBAN: {v}", _in_fours(_iban("SK", (_D, 20)))),
    ("iban: Bosnian", "broj računa (IBAN) {v}", _iban("BA", (_D, 16))),
    (
        "iban: Macedonian",
        "ИБАН: {v}",
        _iban("MK", (_D, 3), (_UPPER_ALNUM, 10), (_D, 2)),
    ),
    ("iban: Moldovan", "cont IBAN {v} la Moldindconbank", _iban("MD", (_UPPER_ALNUM, 20))),
    ("iban: Kosovo", "llogaria: {v}", _iban("XK", (_D, 16))),
    (
        "iban: Arabic",
        "رقم الآيبان: {v}",
        _iban("JO", (string.ascii_uppercase, 4), (_D, 4), (_UPPER_ALNUM, 18)),
    ),
    (
        "iban: Qatar",
        "please send the deposit to {v} (QNB)",
        _iban("QA", (string.ascii_uppercase, 4), (_UPPER_ALNUM, 21)),
    ),
    ("iban: Egypt", "حسابي {v}", _iban("EG", (_D, 25))),
    (
        "iban: Brazil",
        "IBAN da conta: {v}",
        _iban("BR", (_D, 23), (string.ascii_uppercase, 1), (_UPPER_ALNUM, 1)),
    ),
    ("iban: Costa Rica", "cuenta IBAN {v} (BAC)", _iban("CR", ("0", 1), (_D, 17))),
    (
        "iban: Guatemala",
        "mi IBAN es {v}",
        _in_fours(_iban("GT", (_UPPER_ALNUM, 4), (_UPPER_ALNUM, 20))),
    ),
    ("iban: Monaco", "RIB / IBAN : {v}", _iban("MC", (_D, 10), (_UPPER_ALNUM, 11), (_D, 2))),
)


def _bank() -> list[Sample]:
    split = _iban("IE", (string.ascii_uppercase, 4), (_D, 14))()
    two_lines = _s("iban: two lines", f"IBAN: {split[:12]}\n{split[12:]}", split[:12], split[12:])
    return [*_from(_ACCOUNTS), *_from(_IBANS), two_lines]


# --- tax, health and national numbers after their words ------------------------------------------


def _kvnr() -> str:
    letter, digits = _G.rng.choice(string.ascii_uppercase), _G.digits(8)
    total = 0
    for index, char in enumerate(f"{ord(letter) - 64:02d}{digits}"):
        product = int(char) * (index % 2 + 1)
        total += product // 10 + product % 10
    return f"{letter}{digits}{total % 10}"


def _avs() -> str:
    body = "756" + _G.of(_D, 9)
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body))
    number = body + str((10 - total % 10) % 10)
    assert ssn.is_valid(number), number
    return f"{number[:3]}.{number[3:7]}.{number[7:11]}.{number[11:]}"


def _nas() -> str:
    number = _G.valid(sin.is_valid, lambda: checkdigits.with_luhn(_G.digits(8)))
    return f"{number[:3]} {number[3:6]} {number[6:]}"


def _phn() -> str:
    number = _G.valid(bc_phn.is_valid, lambda: "9" + _G.of(_D, 9))
    return f"{number[:4]} {number[4:7]} {number[7:]}"


def _nuss() -> str:
    head = f"28{_G.digits(8)}"
    return f"{head[:2]} {head[2:]} {int(head) % 97:02d}"


def _french_nif() -> str:
    body = _G.rng.choice("0123") + _G.of(_D, 9)
    number = body + nif.calc_check_digits(body)
    return f"{number[:2]} {number[2:4]} {number[4:7]} {number[7:10]} {number[10:]}"


def _cns() -> str:
    """A Brazilian health card number from a PIS whose check digit is no 10."""
    while True:
        pis = _G.rng.choice("12") + _G.of(_D, 10)
        check = 11 - sum(int(d) * (15 - i) for i, d in enumerate(pis)) % 11
        if check != 10:
            number = pis + "000" + str(check % 11)
            assert sum(int(d) * (15 - i) for i, d in enumerate(number)) % 11 == 0
            return f"{number[:3]} {number[3:7]} {number[7:11]} {number[11:]}"


def _mbi() -> str:
    letters = "ACDEFGHJKMNPQRTUVWXY"
    shape = (
        "123456789",
        letters,
        letters + _D,
        _D,
        letters,
        letters + _D,
        _D,
        letters,
        letters,
        _D,
        _D,
    )
    raw = "".join(_G.rng.choice(alphabet) for alphabet in shape)
    return f"{raw[:4]}-{raw[4:7]}-{raw[7:]}"


def _rif() -> str:
    body = "V" + _G.digits(8)
    return f"V-{body[1:]}-{rif.calc_check_digit(body)}"


def _vkn() -> str:
    body = _G.digits(9)
    return body + vkn.calc_check_digit(body)


def _egypt_id() -> str:
    year, month, day = _G.rng.randint(60, 99), _G.rng.randint(1, 12), _G.rng.randint(1, 28)
    return f"2{year:02d}{month:02d}{day:02d}01{_G.of(_D, 5)}"


def _salvador_nit() -> str:
    day, month, year = _G.rng.randint(1, 28), _G.rng.randint(1, 12), _G.rng.randint(60, 99)
    body = f"0614{day:02d}{month:02d}{year}{_G.of(_D, 3)}"
    number = body + sv_nit.calc_check_digit(body)
    return f"{number[:4]}-{number[4:10]}-{number[10:13]}-{number[13]}"


def _nrt() -> str:
    number = _G.valid(nrt.is_valid, lambda: "F" + _G.of(_D, 6) + _G.of(string.ascii_uppercase, 1))
    return f"{number[0]}-{number[1:7]}-{number[7]}"


_NUMBERS: tuple[_Row, ...] = (
    ("health: Germany", "Krankenversichertennummer (eGK): {v}", _kvnr),
    ("health: Switzerland", "numéro AVS de l'assuré : {v}", _avs),
    ("tax: Canada French", "numéro d'assurance sociale : {v}", _nas),
    ("health: British Columbia", "BC PHN {v} on the CareCard", _phn),
    ("health: Spain", "número de la Seguridad Social (NUSS): {v}", _nuss),
    ("tax: France", "numéro fiscal de référence : {v}", _french_nif),
    ("health: Brazil", "Cartão Nacional de Saúde (CNS): {v}", _cns),
    ("health: Mexico", "mi NSS del IMSS es {v}", lambda: checkdigits.with_luhn(_G.digits(10))),
    ("health: US Medicare", "Medicare Beneficiary Identifier {v}", _mbi),
    ("tax: Venezuela", "RIF {v}", _rif),
    ("tax: Turkey", "vergi kimlik numarası {v}", _vkn),
    ("national: Nigeria", "NIN: {v} (from the NIMC slip)", lambda: _G.digits(11)),
    ("national: Egypt", "الرقم القومي {v}", _egypt_id),
    (
        "health: Philippines",
        "PhilHealth ID {v}",
        lambda: f"{_G.digits(2)}-{_G.of(_D, 9)}-{_G.of(_D, 1)}",
    ),
    ("health: Japan", "保険証の被保険者番号は {v} です", lambda: _G.digits(8)),
    ("health: Korea", "건강보험증 번호 {v}", lambda: f"{_G.digits(1)}-{_G.of(_D, 10)}"),
    ("health: Taiwan", "健保卡號 {v}", lambda: f"0000 {_G.of(_D, 4)} {_G.of(_D, 4)}"),
    ("health: EHIC", "European Health Insurance Card no. {v}", lambda: "80276" + _G.of(_D, 15)),
    ("tax: El Salvador", "NIT {v}", _salvador_nit),
    ("national: Guatemala", "DPI {v}", lambda: f"{_G.digits(4)} {_G.of(_D, 5)} 0101"),
    (
        "national: Costa Rica",
        "cédula de identidad {v}",
        lambda: f"1-{_G.digits(4)}-{_G.of(_D, 4)}",
    ),
    ("tax: Andorra", "NRT {v}", _nrt),
    ("national: Ghana", "Ghana Card {v}", lambda: f"GHA-{_G.digits(9)}-{_G.of(_D, 1)}"),
)


# --- cards ------------------------------------------------------------------------------------------

# (family, text with {card} and {code}, prefix, length, groups, separator, what names the code)
_CARDS = (
    ("card: amex", "Amex {card} exp 11/28 CID {code}", "37", 15, (4, 6, 5), " ", "CID"),
    ("card: diners", "Diners Club {card}, valid thru 02/29", "36", 14, (4, 6, 4), " ", ""),
    ("card: mir", "карта Мир {card}, срок 08/29, CVC {code}", "2200", 16, (4,) * 4, " ", "CVC"),
    (
        "card: elo",
        "cartão Elo {card} validade 05/30 código de segurança {code}",
        "636368",
        16,
        (4,) * 4,
        " ",
        "segurança",
    ),
    (
        "card: unionpay",
        "卡号 {card}，有效期 09/28，安全码 {code}",
        "6212",
        19,
        (4, 4, 4, 4, 3),
        " ",
        "安全码",
    ),
    (
        "card: jcb",
        "カード番号 {card} 有効期限 04/27 セキュリティコード {code}",
        "3530",
        16,
        (4,) * 4,
        " ",
        "コード",
    ),
    (
        "card: bc card",
        "카드번호 {card} 유효기간 12/27 CVC {code}",
        "9410",
        16,
        (4,) * 4,
        "-",
        "CVC",
    ),
    (
        "card: German",
        "Kreditkarte {card}, gültig bis 03/29, Kartenprüfnummer {code}",
        "5412",
        16,
        (4,) * 4,
        " ",
        "Kartenprüfnummer",
    ),
    (
        "card: French",
        "carte {card} exp 06/28 cryptogramme visuel {code}",
        "4970",
        16,
        (4,) * 4,
        " ",
        "visuel",
    ),
    (
        "card: Arabic",
        "رقم البطاقة {card} تاريخ الانتهاء 10/27 الرمز {code}",
        "4847",
        16,
        (4,) * 4,
        " ",
        "الرمز",
    ),
    ("card: Vietnamese", "số thẻ ATM của mẹ {card}, hết hạn 07/28", "9704", 16, (4,) * 4, " ", ""),
)


def _cards() -> list[Sample]:
    out = []
    for family, template, prefix, length, groups, sep, word in _CARDS:
        number = checkdigits.with_luhn(prefix + _G.of(_D, length - len(prefix) - 1))
        card = _grouped(number, groups, sep)
        code = _G.of(_D, 4 if word == "CID" else 3)
        text = template.replace("{card}", card).replace("{code}", code)
        out.append(_s(family, text, card, *([f"{word} {code}"] if word else [])))
    return out


# --- disguises ----------------------------------------------------------------------------------

_DISGUISES: tuple[_Row, ...] = (
    (
        "disguise: git diff",
        "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -3 +3 @@\n"
        "-DB_PASSWORD={v}\n+DB_PASSWORD={w}",
        _pw(),
    ),
    ("disguise: zsh history", ": 1735829012:0;mysql -u root -p'{v}' shop", _pw()),
    (
        "disguise: bash history",
        "  511  cd /srv/app\n  512  docker login -u ci -p {v} registry.corp.example.net",
        _pw(13),
    ),
    (
        "disguise: line continuation",
        "curl -u admin:\\\n{v} \\\n  https://nas.lan/api/backup",
        _pw(),
    ),
    ("disguise: soft hyphen", "pass\u00adword: {v}", _pw()),
    ("disguise: circled letters", "ⓟⓐⓢⓢⓦⓞⓡⓓ: {v}", _pw()),
    ("disguise: squared letters", "🅿🅰🆂🆂🆆🅾🆁🅳 {v}", _pw()),
    ("disguise: superscript", "ᵖᵃˢˢʷᵒʳᵈ {v}", _pw()),
    ("disguise: jinja", '{% set db_pass = "{v}" %}', _pw(13)),
    ("disguise: latex", "\\newcommand{\\dbpassword}{{v}}", _pw()),
    (
        "disguise: sql insert",
        "INSERT INTO users (login, password_plain) VALUES ('ops', '{v}');",
        _pw(),
    ),
    ("disguise: mermaid", "graph LR\n  A[Login] -->|pw: {v}| B[Dashboard]", _pw()),
    (
        "disguise: commit message",
        'git commit -m "rotate SMTP creds (old pass was {v})"',
        _pw(),
    ),
    ("disguise: input value", '<input type="password" name="pw" value="{v}">', _pw()),
    ("disguise: lock emoji", "guest Wi-Fi 🔐 {v}", _pw()),
)

# (family, text with {v}, how the password is written)
_ENCODED = (
    (
        "disguise: char codes",
        "const pw = String.fromCharCode({v});",
        lambda p: ",".join(str(ord(c)) for c in p),
    ),
    (
        "disguise: octal escapes",
        "printf '{v}' | sudo -S systemctl restart app",
        lambda p: "".join(f"\\{ord(c):03o}" for c in p),
    ),
    (
        "disguise: binary",
        "the wifi password, in binary because Jonas thinks it's funny: {v}",
        lambda p: " ".join(f"{ord(c):08b}" for c in p),
    ),
    (
        "disguise: mailto body",
        "mailto:?subject=reset&body={v}",
        lambda p: urllib.parse.quote(f"my new password is {p}"),
    ),
)


def _disguises() -> list[Sample]:
    out = _from(_DISGUISES)
    for family, template, encode in _ENCODED:
        written = encode(_G.memorable(_G.rng.choice(_MEMO_WORDS)))
        out.append(_s(family, template.replace("{v}", written), written[-40:]))
    piped = "Kx7\\|m2!Qa9"
    out.append(
        _s("disguise: escaped pipe", f"| service | password |\n|---|---|\n| vpn | {piped} |", piped)
    )
    return out


def _samples() -> tuple[Sample, ...]:
    return (
        *_languages(),
        *(_s(*row) for row in _SPELLED + _CODES + _ONE_TIME),
        *_from(_MANIFESTS + _CONFIG_FILES + _HTTP + _COOKIES),
        *_long_tokens(),
        *_keys(),
        *_recovery(),
        *_bank(),
        *_from(_NUMBERS),
        *_cards(),
        *_disguises(),
    )


# --- look-alikes ------------------------------------------------------------------------------


def _valid_siren() -> str:
    number = _G.valid(luhn.is_valid, lambda: _G.digits(9))
    return f"{number[:3]} {number[3:6]} {number[6:]}"


def _build_lookalikes() -> tuple[Lookalike, ...]:
    talk = (
        "Awal uffir ad t-id-yaweḍ azekka",
        "Jecha icciitii haaraa barbaachisa",
        "Liloba ya kokɔta ezali na kati ya buku ya bleu",
        "Mawu achinsinsi ndi aatali kwambiri",
        "Pasword i mas gat 12 leta o moa",
        "Pasword blong wifi hemi stap long pepa long fridge",
        "La contraseña ta nel caxón de la cocina",
        "La peraule di passaç e je sul tacuin",
        "Dat Passwoort steiht op den Zeddel an'n Köhlschapp",
        "The passwird's oan the fridge, ask yer maw",
        "Вӑрттӑн сӑмах кирлӗ мар",
        "Серһүҙ иртәгә килә",
        "መሕለፊ ቃል ኣብ ወረቐት ኣሎ",
        "پاسورڊ سڀاڻي ملندو",
        "密碼喺個櫃桶度",
        "ⴰⵡⴰⵍ ⵓⴼⴼⵉⵔ ⴰⵎⴰⵢⵏⵓ ⴰⵣⴽⴽⴰ",
        "ܡܠܬܐ ܕܐܪܙܐ ܚܕܬܐ",
        "ㄇㄧˋ ㄇㄚˇ ㄨㄤˋ ㄐㄧˋ ㄌㄜ˙",
        "Bi̍t-bé bē-kì--ah",
        "the door code changes every Monday, ask Mia for the new one",
        "PIN pad on the card reader is broken again",
        "the new lockbox arrives Thursday",
        "voicemail PIN reset link went to Ana",
        "digicode en panne, sonnez chez la gardienne",
        "Steam Guard is on for both accounts now",
        "I wrote the 24 words on the steel plate, it's in the safe",
        "the recovery key is in the envelope at the notary",
        "type the password without the spaces, it said",
        "spell it out slowly when you call the helpdesk",
    )
    configs = (
        "auth:\n  existingSecret: shop-db\n  secretKeys:\n    userPasswordKey: password",
        "password: {{ .Values.db.password | quote }}",
        "helm upgrade shop ./chart --set image.tag=2.4.1 --set replicaCount=3",
        "helm repo add bitnami https://charts.bitnami.com/bitnami",
        'ansible_password: "{{ vault_ansible_password }}"',
        "ansible-playbook site.yml --vault-password-file ~/.vault_pass.txt",
        "ansible-vault encrypt_string --stdin-name db_password",
        "users:\n- name: eks\n  user:\n    exec:\n      command: aws\n      args: [eks, get-token, --cluster-name, prod]",
        "clusters:\n- cluster:\n    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM1ekNDQWMrZ0F3SUJBZ0lCQURBTkJna3Foa2lHOXcwQkFRc0ZBREFWTVJNd0VRWURWUVFERXdwcmRXSmwK\n    server: https://10.0.0.1:6443",
        "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password",
        "password: $(dbPassword)",
        "password: ${{ secrets.REGISTRY_PASSWORD }}",
        'echo "$CI_REGISTRY_PASSWORD" | docker login -u "$CI_REGISTRY_USER" --password-stdin $CI_REGISTRY',
        "environment {\n    NEXUS = credentials('nexus-deploy')\n}",
        'env:\n  global:\n    - secure: "d2lsbCBub3QgZGVjcnlwdCB0aGlzIGlzIGp1c3QgYSBwbGFjZWhvbGRlciB2YWx1ZQ=="',
        "settings:\n  password:\n    from_secret: docker_password",
        "environment:\n  POSTGRES_PASSWORD_FILE: /run/secrets/pg_pass",
        'healthcheck:\n  test: ["CMD", "pg_isready", "-U", "postgres"]',
        "DB_PASSWORD=changeme\nAPI_TOKEN=<your-token>",
        "SECRET_KEY=replace-me-in-production",
        '[env]\n  PORT = "8080"\n  LOG_LEVEL = "info"',
        '[vars]\nENVIRONMENT = "production"',
        ";password=123               ; default is no password (open server)",
        "[wifi-security]\nkey-mgmt=wpa-psk\npsk-flags=1",
        "[Settings]\nAutoConnect=true",
        "# Secrets for authentication using CHAP\n# client\tserver\tsecret\tIP addresses",
        "include /var/lib/strongswan/ipsec.secrets.inc",
        'remotepasseval = get_password("work")',
        'PassCmd "pass show mail/work"',
        "basic_auth:\n  username: prom\n  password_file: /etc/prometheus/pw",
        "authentication {\n    auth_type PASS\n}",
        'allow-transfer { key "transfer"; };',
        "c.ServerApp.token = ''",
        "APP_KEY=",
        'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]',
        "  'dbuser' => 'nextcloud',",
        "interface Gi0/1\n ip ospf authentication message-digest",
        "router bgp 64512\n neighbor 192.0.2.1 remote-as 64513",
        '<role rolename="manager-gui"/>',
        "poetry config http-basic.corp ci",
    )
    http = (
        "Authorization: Bearer <token>",
        "Authorization: Bearer ${ACCESS_TOKEN}",
        '-H "PRIVATE-TOKEN: $GITLAB_TOKEN"',
        'curl --oauth2-bearer "$(gh auth token)" https://api.github.com/user',
        'curl -u "$NEXUS_USER:$NEXUS_PASS" -T app.jar https://nexus.corp.example.net/repo/',
        "curl -b cookies.txt -c cookies.txt https://example.net/login",
        "wget --ask-password --user=ci https://nexus.corp.example.net/app.jar",
        "r = requests.get(url, auth=(user, password))",
        "session.auth = HTTPBasicAuth(settings.REPORT_USER, settings.REPORT_PASSWORD)",
        "auth: { username: process.env.OPS_USER, password: process.env.OPS_PASS }",
        "Cookie: cookie_consent=accepted; theme=dark; lang=en-GB",
        "Set-Cookie: sessionid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/",
        "Cookie: _ga=GA1.2.1843921234.1735689600; _gid=GA1.2.918273645.1735689600",
        'ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"',
        "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "X-Amz-Cf-Id: 3kdlXGzMZ3O0F1N5kbr6uhwS3_0Rk6V6zSg6kqYV3oK7o2Eh-Pw8tw==",
        "CF-Ray: 8a1b2c3d4e5f6789-FRA",
        "Content-Security-Policy: script-src 'nonce-2726c7f26c' 'strict-dynamic'",
        "X-Hub-Signature-256: sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
        "Digest: sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=",
        "xfreerdp /u:Administrator /v:10.0.0.8 /cert:ignore",
        "ipmitool -I lanplus -H 10.0.0.40 -U ADMIN -E chassis status",
        "plink -ssh -i deploy.ppk root@10.0.0.9 uptime",
        'expect "assword:"\nsend "$env(PW)\\r"',
        "ConvertTo-SecureString $env:SVC_PASS -AsPlainText -Force",
        'Invoke-WebRequest -Uri $u -Headers @{ "Accept" = "application/json" }',
        "the JSESSIONID cookie goes missing after the SSO redirect",
        "PHPSESSID is regenerated on login, session timeout 30 min",
        "Zoom: Meeting ID 843 2291 0573, no passcode (waiting room on)",
    )
    keys = (
        "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----",
        "npub180cvv07tjdrrgpa0j7j7tmnyl2yr6yr7l8j4s3evf6u64th6gkwsyjh6w6",
        "xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz",
        "untrusted comment: minisign public key 3F3A1C2B\nRWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
        "256 SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s jo@laptop (ED25519)",
        "pub   rsa4096 2024-01-09 [SC]\n      3A1F9C2B7D4E5F60A1B2C3D4E5F6A7B8C9D0E1F2",
        "tls-auth ta.key 1",
        "Solana address 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV for the refund",
        "the BIP-39 test vector: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
        "AWS docs' example keys: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "example from the README: sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    )
    money = (
        "BIC: BPOTBEB1 for the Belgian transfers",
        "creditor reference RF18 5390 0754 7034",
        "QR reference 21 00000 00003 13947 14300 09017",
        "UETR 97ed4827-7b6f-4491-a06f-b548d5a7512d",
        "invoice INV-2026-0412 due in 30 days",
        "SAP PO 4500012345 approved",
        "amount 1 234 567,89 € incl. VAT",
        "la CLABE tiene 18 dígitos, la pides en la sucursal",
        "Norwegian IBANs are 15 characters: NOkk bbbb cccc ccx",
        "sort codes look like 00-00-00",
        "Kontoauszug 03/2026 ist da",
        "ABN 51 824 753 556",
        "CNPJ 11.222.333/0001-81 no rodapé da nota",
        f"SIREN {_valid_siren()} (la société)",
        "USt-IdNr. DE136695976",
        "regex ^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$ matches IBANs",
        "chave PIX é o e-mail da empresa, está no site",
        "card ending 4417 was declined",
    )
    ids = (
        "reverted 9fceb02d0ae598e95dc970b74767f19372d61af8 and cherry-picked a3f1c2e onto main",
        "4b825dc642cb6eb9a060e54bf8d69288fbee4904 is git's empty tree",
        "2026-03-04T10:22:31Z INFO job=7c9e6679-7425-40de-944b-e07fc1f90ae7 finished in 312 ms",
        "upgraded to Python 3.12.4, then 3.13.0rc2",
        "node v22.11.0, npm 10.9.0, pnpm 9.12.3",
        "ISBN 978-0-306-40615-7",
        "UPS 1Z999AA10123456784 out for delivery",
        "Royal Mail tracking AB123456785GB",
        "Amazon order 114-3941689-8772232",
        "AliExpress order 8183492057761234 shipped",
        "call window 14:30–15:45 on 2026-04-07",
        "meet 07/04 at 0930 by the fountain",
        "52.520008, 13.404954",
        "N 48° 51.396' E 002° 17.700'",
        "brand colours #1e90ff and #FF6347, rgb(30,144,255)",
        "2^31 − 1 = 2147483647",
        "e ≈ 2.718281828459045",
        "0xDEADBEEF is the magic number in the header",
        "requests==2.32.3 --hash=sha256:70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc6",
        "golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=",
        'checksum = "a3c5f1e8b7d9024c6e1f3a5b7c9d0e2f4a6b8c0d1e3f5a7b9c1d3e5f7a9b0c2d"',
        '"narHash": "sha256-QzQk1qNYb0rXzSbQqR1yqL9VnQvYxWbCq9fW0g9nKjE="',
        "/nix/store/b6gvzjyb2pg0kjfwrjmg1vfhh54ad73z-firefox-133.0",
        "MAC 00:1A:2B:3C:4D:5E on the printer",
        "IPv6 2001:db8::8a2e:370:7334",
        "port 5432, pid 48213, uid 1000",
        "room 1204, seat 14C, gate B22, platform 9",
        "CVE-2024-3094 in xz 5.6.0",
        "RFC 9110 section 11.6.2",
        "Unix time 1767225600 is 2026-01-01",
        "cron 0 3 * * 1-5",
        "ISO 8601 duration P3Y6M4DT12H30M5S",
        "Wikipedia oldid=1183724915",
        "resistor 4.7 kΩ ±5 %, 0.25 W",
        "Wi-Fi channel 36, 80 MHz, RT-AX88U",
        "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
        "YOUR_API_KEY_HERE",
        "password: ••••••••",
        "token: [REDACTED]",
        "TODO: fill in the token before deploying",
    )
    spelled_pins = (
        "Alpha, Bravo and Charlie teams rotate weekly",
        "Company B as in Bravo moved out at 0600",
        "the call sign is Echo Seven",
        "Apartment 4B, B as in boy",
        "PIN 7 on the Raspberry Pi header is GPIO4",
        "error code 4021 from the card reader",
        "gate 22, boarding 13:40",
        "bus 142 to Kreuzberg",
        "the WPS button is on the back of the router",
        "radio 101.5 FM",
        "the safe weighs 40 kg",
        "Türcode steht im Handbuch vom Schlüsselkasten",
        "enter the 6-digit code from the app",
        "the code expires in 10 minutes",
    )
    disguises = (
        "diff --git a/.env b/.env\n-LOG_LEVEL=info\n+LOG_LEVEL=debug",
        ": 1735829012:0;git status",
        "  512  docker ps -a",
        "String.fromCharCode(72,101,108,108,111)",
        "01001000 01101001",
        "Donau\u00addampf\u00adschiff\u00adfahrt",
        "ⓐⓑⓒ song for the kids",
        '{% set title = "Quarterly report" %}',
        "\\newcommand{\\R}{\\mathbb{R}}",
        "INSERT INTO settings (key, value) VALUES ('theme', 'dark');",
        "mailto:?subject=Lunch%20on%20Friday",
        "graph LR\n  A[Start] -->|ok| B[Done]",
        'git commit -m "docs: explain password rotation"',
        '<input type="password" name="pw" placeholder="Password">',
        "| service | password |\n|---|---|\n| vpn | in the vault |",
        "🔐 locked until Friday",
        "① ② ③ steps to set up the router",
    )
    by_family = {
        "talk": talk,
        "config": configs,
        "http": http,
        "key": keys,
        "money": money,
        "id": ids,
        "spelled-or-pin": spelled_pins,
        "disguise": disguises,
    }
    return tuple(Lookalike(f"lookalike-{f}", t) for f, texts in by_family.items() for t in texts)


@functools.cache
def _corpus() -> tuple[tuple[Sample, ...], tuple[Lookalike, ...]]:
    return _samples(), _build_lookalikes()


def secret_samples() -> list[Sample]:
    """Texts holding secrets, each with the exact strings redaction must remove."""
    return list(_corpus()[0])


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive: redaction must leave each byte for byte."""
    return list(_corpus()[1])
