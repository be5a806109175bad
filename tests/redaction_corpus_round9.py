"""The round-nine redaction corpus for dreamd, written blind: before the rules were read.

Nothing in it was shown to the rules or tuned against them. It leans on whole files and long
pastes, each holding many values, the way a careless note-taker drops a config or a terminal
session into the day's note, and on the shapes an attacker would pick to slip past a filter.

Secrets (:func:`secret_samples`): YAML with anchors, merge keys, block scalars and several
documents; Terraform variables, ``tfvars``, heredocs and a piece of state; Kubernetes
``Secret`` manifests with base64 ``data:`` and ``stringData:``; Ansible group variables and an
INI inventory; docker-compose environments in list and map form; ``.netrc`` in its one-line and
many-line forms; ``.pgpass`` and ``.my.cnf``; ``.git-credentials``, remotes and ``insteadOf``
URLs; JDBC, ODBC, ADO.NET and broker URLs; SMTP settings of Django, Postfix, msmtp, PHPMailer,
Rails and mutt; a Postman environment export; curl, HTTPie and wget with credentials; a raw
HTTP exchange with Basic, proxy and session cookies, a Netscape ``cookies.txt``; ``otpauth``
URIs and spaced TOTP seeds; recovery and backup codes; SSH keys pasted inside YAML, JSON and an
environment variable; a PGP secret key; WireGuard and RouterOS keys; BIP39 phrases, raw,
WIF and extended private keys; bank details in Polish, Turkish, Greek, Arabic, Hindi,
Vietnamese, Indonesian and Swedish prose with the national numbers next to them (PESEL, TC
Kimlik, AMKA, Saudi and Emirati ids, Aadhaar and PAN, CCCD, NIK, personnummer); CPF, NIR and
codice fiscale; NHS, Medicare and hospital record numbers; number plates beside their keepers'
names; passwords dictated in a chat, spelled with the NATO alphabet, with spaces, in quotes
after "the new one is"; values in a unified diff, in log lines and in a Markdown link's title;
router and switch configs (Cisco, Juniper, a WLAN controller); password hashes (shadow,
htpasswd, bcrypt, Argon2); a notebook cell; package registry credentials (pip, npm, PyPI,
Cargo, RubyGems, Composer, NuGet, Maven, Gradle); Spring properties, Tomcat users and .NET
``appsettings.json``; Wi-Fi keys in NetworkManager, wpa_supplicant, hostapd, nmcli, netsh and
a QR payload; SQL and CLI password flags of a dozen tools; cloud credential files of AWS, GCP
and Azure; browser storage dumps; tokens of forty vendors listed bare, without a keyword beside
them; cards in a form and in JSON; phones in eight countries; and disguises (URL-encoded, HTML
entities, reversed, hex, split by a string concatenation, a bytes literal, base64 of
``user:password``).

Look-alikes (:func:`lookalikes`) must come through byte for byte: commit hashes and release
digests named as such, image digests, version and build strings, order, invoice, tracking and
ticket numbers, measurements, placeholders and template references, example keys documented as
examples, ISBNs, timestamps and epochs, coordinates, request ids and ARNs, public keys, the
same files and commands with their secrets read from elsewhere, bank codes that name a branch
(BIC, IFSC, ABA routing), codes of diseases and lab tests, CVEs and RFCs, chess moves, recipes,
and password policies in the same languages.

Every value is fake: drawn from ``random.Random(20290207)``, with each scheme's check digits
computed by python-stdnum where it has the scheme, so each value is valid in form while naming
no one.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import urllib.parse
from collections.abc import Callable

from mnemonic import Mnemonic
from stdnum import luhn
from stdnum.br import cpf
from stdnum.fr import nir
from stdnum.gb import nhs
from stdnum.gr import amka
from stdnum.it import codicefiscale
from stdnum.pl import pesel
from stdnum.se import personnummer
from stdnum.tr import tckimlik

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20290207)
_ALNUM = string.ascii_letters + string.digits
_URLSAFE = _ALNUM + "-_"
_B64 = _ALNUM + "+/"
_UPPER_ALNUM = string.ascii_uppercase + string.digits
_LOWER_ALNUM = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B32 = string.ascii_uppercase + "234567"
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _of(alphabet: str, length: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _digits(length: int) -> str:
    """``length`` digits, the first not a zero."""
    return _RNG.choice("123456789") + _of(string.digits, length - 1)


def _strong(length: int = 14) -> str:
    """A generated password: both cases, digits and a symbol, a letter at each end."""
    core = [
        _RNG.choice(string.ascii_uppercase),
        _RNG.choice(string.ascii_lowercase),
        _RNG.choice(string.digits),
        _RNG.choice("!%*+?@#^"),
    ] + [_RNG.choice(_ALNUM + "!%*?") for _ in range(length - 6)]
    _RNG.shuffle(core)
    return _of(string.ascii_letters, 1) + "".join(core) + _of(string.ascii_lowercase, 1)


_WORDS = (
    "Wisla",
    "kartofel",
    "Bosphorus",
    "simit",
    "Olympos",
    "souvlaki",
    "Qamar",
    "zaatar",
    "Ganga",
    "jalebi",
    "Halong",
    "phoxao",
    "Merapi",
    "rendang",
    "Norrsken",
    "kanelbulle",
    "Vesuvio",
    "Ipanema",
    "Camembert",
    "Tatry",
)


def _weak() -> str:
    """The password a person picks: a word, maybe capitalised, then a year or a number."""
    word = _RNG.choice(_WORDS)
    tail = _RNG.choice((str(_RNG.randint(1970, 2026)), _of(string.digits, 3), "!" + _digits(2)))
    return f"{word}{tail}"


def _pw() -> str:
    """Half strong, half weak, the mix people actually have."""
    return _strong(_RNG.randint(11, 17)) if _RNG.random() < 0.5 else _weak()


_URL_SAFE_PW = str.maketrans("?#@%&$+/^", "_-!*.~_=-")


def _urlpw() -> str:
    """A password that can stand in a URL's userinfo as it is."""
    return _strong(_RNG.randint(12, 18)).translate(_URL_SAFE_PW)


def _plain(low: int = 14, high: int = 22) -> str:
    """A password with no character a shell, a URL or an INI file would treat specially."""
    return _of(string.ascii_letters, 1) + _of(_ALNUM, _RNG.randint(low, high))


def _valid(check: Callable[[str], bool], make: Callable[[], str]) -> str:
    for _ in range(20_000):
        value = make()
        if check(value):
            return value
    raise RuntimeError("no valid value drawn")


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    assert len(set(secrets)) == len(secrets), (family, "a secret counted twice")
    return Sample(family, text, secrets)


def _b64(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return base64.b64encode(raw).decode()


def _lines(body: str, width: int = 70) -> list[str]:
    return [body[i : i + width] for i in range(0, len(body), width)]


def _b58check(payload: bytes) -> str:
    check = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number = int.from_bytes(payload + check, "big")
    out = ""
    while number:
        number, rest = divmod(number, 58)
        out = _B58[rest] + out
    pad = len(payload + check) - len((payload + check).lstrip(b"\0"))
    return "1" * pad + out


def _random_bytes(length: int) -> bytes:
    return bytes(_RNG.randrange(256) for _ in range(length))


# --- generators of the planted values ------------------------------------------------------


def _aws_key_id() -> str:
    return "AKIA" + _of(_UPPER_ALNUM.replace("0", "").replace("1", ""), 16)


def _aws_secret() -> str:
    return _of(_B64, 40)


def _jwt() -> str:
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"})).rstrip("=").replace("+", "-")
    body = json.dumps({"sub": _digits(8), "iat": 1780000000 + _RNG.randrange(10**6)})
    return f"{head}.{_b64(body).rstrip('=')}.{_of(_URLSAFE, 43)}"


def _iban_pl() -> str:
    return checkdigits.iban("PL", _digits(8) + _of(string.digits, 16))


def _iban_tr() -> str:
    return checkdigits.iban("TR", _of(string.digits, 5) + "0" + _of(string.digits, 16))


def _iban_gr() -> str:
    return checkdigits.iban("GR", _digits(7) + _of(string.digits, 16))


def _iban_sa() -> str:
    return checkdigits.iban("SA", _digits(2) + _of(string.digits, 18))


def _iban_se() -> str:
    return checkdigits.iban("SE", _digits(3) + _of(string.digits, 17))


def _grouped(value: str, size: int = 4) -> str:
    return " ".join(value[i : i + size] for i in range(0, len(value), size))


def _pesel() -> str:
    def make() -> str:
        year, month, day = _RNG.randint(50, 99), _RNG.randint(1, 12), _RNG.randint(1, 28)
        partial = f"{year:02d}{month:02d}{day:02d}{_of(string.digits, 4)}"
        return partial + pesel.calc_check_digit(partial)

    return _valid(pesel.is_valid, make)


def _tckimlik() -> str:
    def make() -> str:
        partial = _digits(9)
        return partial + tckimlik.calc_check_digits(partial)

    return _valid(tckimlik.is_valid, make)


def _amka() -> str:
    def make() -> str:
        day, month, year = _RNG.randint(1, 28), _RNG.randint(1, 12), _RNG.randint(50, 99)
        return checkdigits.with_luhn(f"{day:02d}{month:02d}{year:02d}{_of(string.digits, 4)}")

    return _valid(amka.is_valid, make)


def _aadhaar() -> str:
    return checkdigits.with_verhoeff(_RNG.choice("23456789") + _of(string.digits, 10))


def _cpf() -> str:
    def make() -> str:
        partial = _of(string.digits, 9)
        first = sum((10 - i) * int(d) for i, d in enumerate(partial)) * 10 % 11 % 10
        second = sum((11 - i) * int(d) for i, d in enumerate(partial + str(first))) * 10 % 11 % 10
        return f"{partial}{first}{second}"

    number = _valid(cpf.is_valid, make)
    return f"{number[:3]}.{number[3:6]}.{number[6:9]}-{number[9:]}"


def _nir() -> str:
    def make() -> str:
        sex, year, month = _RNG.choice("12"), _RNG.randint(50, 99), _RNG.randint(1, 12)
        partial = f"{sex}{year:02d}{month:02d}{_RNG.randint(1, 95):02d}{_of(string.digits, 6)}"
        return partial + nir.calc_check_digits(partial)

    return _valid(nir.is_valid, make)


def _codice_fiscale() -> str:
    def make() -> str:
        month = _RNG.choice("ABCDEHLMPRST")
        day = f"{_RNG.randint(1, 28) + _RNG.choice((0, 40)):02d}"
        place = _RNG.choice("ABCDEFGHLMZ") + _of(string.digits, 3)
        stem = _of(string.ascii_uppercase, 6) + f"{_RNG.randint(50, 99)}" + month + day + place
        return stem + codicefiscale.calc_check_digit(stem)

    return _valid(codicefiscale.is_valid, make)


def _personnummer() -> str:
    def make() -> str:
        year, month, day = _RNG.randint(50, 99), _RNG.randint(1, 12), _RNG.randint(1, 28)
        partial = f"{year:02d}{month:02d}{day:02d}{_of(string.digits, 3)}"
        return f"19{partial[:6]}-{partial[6:]}{luhn.calc_check_digit(partial)}"

    return _valid(personnummer.is_valid, make)


def _nhs() -> str:
    def make() -> str:
        partial = _digits(9)
        digit = str((11 - sum((10 - i) * int(d) for i, d in enumerate(partial)) % 11) % 11)
        return f"{partial[:3]} {partial[3:6]} {partial[6:]}{digit}"

    return _valid(lambda v: nhs.is_valid(v.replace(" ", "")), make)


def _medicare_au() -> str:
    partial = _RNG.choice("23456") + _of(string.digits, 7)
    check = sum(int(d) * w for d, w in zip(partial, (1, 3, 7, 9, 1, 3, 7, 9), strict=True)) % 10
    number = f"{partial}{check}{_RNG.randint(1, 9)}"
    return f"{number[:4]} {number[4:9]} {number[9]}"


def _saudi_id() -> str:
    return checkdigits.with_luhn("1" + _of(string.digits, 8))


def _emirates_id() -> str:
    number = checkdigits.with_luhn("784" + str(_RNG.randint(1970, 2005)) + _of(string.digits, 7))
    return f"{number[:3]}-{number[3:7]}-{number[7:14]}-{number[14]}"


def _card(prefix: str = "4", length: int = 16) -> str:
    return checkdigits.with_luhn(prefix + _of(string.digits, length - len(prefix) - 1))


def _seed(strength: int = 128) -> str:
    return Mnemonic("english").to_mnemonic(_random_bytes(strength // 8))


def _openssh_key_lines(count: int = 6) -> list[str]:
    body = _b64(b"openssh-key-v1\0\0\0\0\x04none\0\0\0\x04none" + _random_bytes(count * 52))
    return _lines(body)[:count]


# --- secrets -------------------------------------------------------------------------------


def _yaml_anchors() -> list[Sample]:
    db, replica, cache, api, sign, admin, smtp = (
        _pw(),
        _pw(),
        _plain(),
        _of(_ALNUM, 32),
        _of(_HEX, 64),
        _pw(),
        _plain(),
    )
    folded, literal = _plain(20, 28), _strong(18)
    text = (
        "# values.yaml pasted from the staging box\n"
        "x-db: &db\n"
        "  host: pg-staging.internal\n"
        "  user: app\n"
        f"  password: {db}\n"
        "primary:\n"
        "  <<: *db\n"
        "replica:\n"
        "  <<: *db\n"
        f"  password: '{replica}'\n"
        "cache:\n"
        f"  auth: &redis_auth {cache}\n"
        "worker:\n"
        "  redis_password: *redis_auth\n"
        "---\n"
        "# second document: the api\n"
        f"apiKey: {api}\n"
        f'signingSecret: "{sign}"\n'
        "admin:\n"
        "  username: root\n"
        f"  pass: {admin}\n"
        "mail:\n"
        f"  smtp_password: {smtp}\n"
        "---\n"
        "webhook_secret: >-\n"
        f"  {folded}\n"
        "oauth_client_secret: |\n"
        f"  {literal}\n"
        "...\n"
    )
    return [
        _s(
            "YAML anchors and documents",
            text,
            db,
            replica,
            cache,
            api,
            sign,
            admin,
            smtp,
            folded,
            literal,
        )
    ]


def _terraform() -> list[Sample]:
    key_id, secret, db, gh, dd, cf, tf_state, heredoc, local = (
        _aws_key_id(),
        _aws_secret(),
        _pw(),
        "ghp_" + _of(_ALNUM, 36),
        _of(_HEX, 32),
        _of(_URLSAFE, 40),
        _strong(20),
        _plain(),
        _pw(),
    )
    text = (
        'provider "aws" {\n'
        '  region     = "eu-north-1"\n'
        f'  access_key = "{key_id}"\n'
        f'  secret_key = "{secret}"\n'
        "}\n\n"
        'variable "db_password" {\n'
        "  type      = string\n"
        f'  default   = "{db}"\n'
        "  sensitive = true\n"
        "}\n\n"
        "# terraform.tfvars\n"
        f'github_token      = "{gh}"\n'
        f'datadog_api_key   = "{dd}"\n'
        f'cloudflare_token  = "{cf}"\n\n'
        'resource "nomad_job" "api" {\n'
        "  jobspec = <<EOT\n"
        "    template {\n"
        "      data = <<EOH\n"
        f"DB_PASS={heredoc}\n"
        "EOH\n"
        "    }\n"
        "EOT\n"
        "}\n\n"
        "locals {\n"
        f'  admin_pw = "{local}"\n'
        "}\n\n"
        "# from terraform.tfstate\n"
        '"outputs": { "root_password": { "sensitive": true, "type": "string",\n'
        f'  "value": "{tf_state}" }} }}\n'
    )
    return [_s("Terraform and HCL", text, key_id, secret, db, gh, dd, cf, heredoc, local, tf_state)]


def _kubernetes() -> list[Sample]:
    user, pw, token, key, cert_key, s_pw, s_url_pw, dockercfg = (
        _b64("app"),
        _b64(_pw()),
        _b64(_of(_ALNUM, 40)),
        _b64(_of(_HEX, 64)),
        _b64(_random_bytes(90)),
        _plain(),
        _urlpw(),
        _b64(json.dumps({"auths": {"ghcr.io": {"auth": _b64("ci:" + _of(_ALNUM, 36))}}})),
    )
    text = (
        "apiVersion: v1\n"
        "kind: Secret\n"
        "metadata:\n"
        "  name: app-credentials\n"
        "  namespace: prod\n"
        "type: Opaque\n"
        "data:\n"
        f"  username: {user}\n"
        f"  password: {pw}\n"
        f"  api-token: {token}\n"
        f"  encryption_key: {key}\n"
        f"  tls.key: {cert_key}\n"
        "---\n"
        "apiVersion: v1\n"
        "kind: Secret\n"
        "metadata:\n"
        "  name: db\n"
        "stringData:\n"
        f"  POSTGRES_PASSWORD: {s_pw}\n"
        f"  DATABASE_URL: postgres://app:{s_url_pw}@pg.prod.svc:5432/app\n"
        "---\n"
        "apiVersion: v1\n"
        "kind: Secret\n"
        "type: kubernetes.io/dockerconfigjson\n"
        "data:\n"
        f"  .dockerconfigjson: {dockercfg}\n"
    )
    # the username ``app`` in base64 is too short and too common to count as a secret
    return [_s("Kubernetes Secret", text, pw, token, key, cert_key, s_pw, s_url_pw, dockercfg)]


def _ansible() -> list[Sample]:
    become, root, ssh, vault_pw, mysql, grafana, h1, h2, winrm = (
        _pw(),
        _pw(),
        _plain(),
        _strong(16),
        _pw(),
        _plain(),
        _pw(),
        _plain(),
        _strong(15),
    )
    text = (
        "# group_vars/all.yml (no vault yet, TODO)\n"
        f"ansible_become_password: {become}\n"
        f'mysql_root_password: "{root}"\n'
        f"ansible_ssh_pass: {ssh}\n"
        f"vault_unseal_password: '{vault_pw}'\n"
        "app_db:\n"
        "  name: shop\n"
        f"  pass: {mysql}\n"
        f"grafana_admin_password: {grafana}\n\n"
        "# inventory/hosts.ini\n"
        "[web]\n"
        f"web1 ansible_host=10.0.3.11 ansible_user=deploy ansible_password={h1}\n"
        f"web2 ansible_host=10.0.3.12 ansible_user=deploy ansible_become_pass='{h2}'\n"
        "[win]\n"
        f'dc1 ansible_connection=winrm ansible_user=Administrator ansible_password="{winrm}"\n'
    )
    return [
        _s("Ansible variables", text, become, root, ssh, vault_pw, mysql, grafana, h1, h2, winrm)
    ]


def _compose() -> list[Sample]:
    values = [
        _pw(),
        _plain(),
        _pw(),
        _plain(),
        _strong(),
        _pw(),
        _plain(),
        _of(_HEX, 40),
        _pw(),
        _plain(),
    ]
    pg, my, redis, minio, rabbit, kc, gf, secret_key, mongo, ms = values
    text = (
        "services:\n"
        "  db:\n"
        "    image: postgres:16\n"
        "    environment:\n"
        f"      - POSTGRES_PASSWORD={pg}\n"
        "  mysql:\n"
        "    environment:\n"
        f"      MYSQL_ROOT_PASSWORD: {my}\n"
        "  redis:\n"
        f"    command: redis-server --requirepass {redis} --appendonly yes\n"
        "  minio:\n"
        "    environment:\n"
        "      MINIO_ROOT_USER: admin\n"
        f'      MINIO_ROOT_PASSWORD: "{minio}"\n'
        "  rabbit:\n"
        f"    environment: [RABBITMQ_DEFAULT_USER=guest, RABBITMQ_DEFAULT_PASS={rabbit}]\n"
        "  keycloak:\n"
        "    environment:\n"
        f'      - "KEYCLOAK_ADMIN_PASSWORD={kc}"\n'
        "  grafana:\n"
        "    environment:\n"
        f"      GF_SECURITY_ADMIN_PASSWORD: '{gf}'\n"
        "  app:\n"
        "    environment:\n"
        f"      SECRET_KEY: {secret_key}\n"
        "  mongo:\n"
        "    environment:\n"
        f"      - MONGO_INITDB_ROOT_PASSWORD={mongo}\n"
        "  meili:\n"
        f"    command: meilisearch --master-key={ms}\n"
    )
    return [_s("docker-compose environment", text, *values)]


def _netrc() -> list[Sample]:
    heroku, gh, nexus, ftp, anon = (
        _of(_HEX[:16], 8)
        + "-"
        + _of(_HEX, 4)
        + "-"
        + _of(_HEX, 4)
        + "-"
        + _of(_HEX, 4)
        + "-"
        + _of(_HEX, 12),
        "ghp_" + _of(_ALNUM, 36),
        _pw(),
        _plain(),
        _pw(),
    )
    text = (
        "~/.netrc from the old laptop\n"
        "machine api.heroku.com\n"
        "  login ops@example.org\n"
        f"  password {heroku}\n"
        f"machine github.com login octo-ci password {gh}\n"
        "machine nexus.corp.lan\n"
        "login deployer\n"
        f"password {nexus}\n"
        f"machine ftp.archive.lan login mirror password {ftp} account backups\n"
        f"default login anonymous password {anon}\n"
    )
    return [_s(".netrc", text, heroku, gh, nexus, ftp, anon)]


def _pgpass() -> list[Sample]:
    rows = [_pw(), _plain(), _urlpw(), _pw(), _plain()]
    escaped = _plain(10, 12) + "\\:" + _plain(6, 8)
    mycnf, mysqldump = _pw(), _plain()
    text = (
        "cat ~/.pgpass\n"
        f"db1.internal:5432:app:app_rw:{rows[0]}\n"
        f"db1.internal:5432:*:postgres:{rows[1]}\n"
        f"localhost:*:*:replicator:{rows[2]}\n"
        f"10.20.0.5:6432:billing:billing:{rows[3]}\n"
        f"*:*:analytics:readonly:{rows[4]}\n"
        f"warehouse:5439:dw:etl:{escaped}\n\n"
        "cat ~/.my.cnf\n"
        "[client]\n"
        "user=root\n"
        f'password="{mycnf}"\n'
        "[mysqldump]\n"
        f"password={mysqldump}\n"
    )
    return [_s("pgpass and my.cnf", text, *rows, escaped, mycnf, mysqldump)]


def _git_credentials() -> list[Sample]:
    gh, gl, bb, azure, gitea, insteadof, clone = (
        "github_pat_" + _of(_ALNUM, 22) + "_" + _of(_ALNUM, 59),
        "glpat-" + _of(_URLSAFE, 20),
        _of(_ALNUM, 32),
        _of(_LOWER_ALNUM, 52),
        _of(_HEX, 40),
        "ghp_" + _of(_ALNUM, 36),
        _urlpw(),
    )
    text = (
        "$ cat ~/.git-credentials\n"
        f"https://octo:{gh}@github.com\n"
        f"https://oauth2:{gl}@gitlab.com\n"
        f"https://x-token-auth:{bb}@bitbucket.org\n"
        f"https://anything:{azure}@dev.azure.com\n"
        f"$ git remote set-url origin https://ci-bot:{gitea}@git.home.lan/infra/ansible.git\n"
        f'$ git config --global url."https://{insteadof}@github.com/".insteadOf "https://github.com/"\n'
        f"$ git clone https://marta:{clone}@git.studio.lan/site.git\n"
    )
    return [_s("git credentials", text, gh, gl, bb, azure, gitea, insteadof, clone)]


def _connection_strings() -> list[Sample]:
    values = [
        _urlpw(),
        _pw(),
        _plain(),
        _pw(),
        _urlpw(),
        _plain(),
        _urlpw(),
        _urlpw(),
        _plain(),
        _urlpw(),
    ]
    jdbc_pg, mssql, oracle, odbc, mongo, ado, redis, amqp, db2, ldap = values
    text = (
        "connection strings, for the migration doc\n"
        f"jdbc:postgresql://pg.prod:5432/orders?user=orders&password={jdbc_pg}&ssl=true\n"
        f"jdbc:sqlserver://sql01:1433;databaseName=erp;user=sa;password={mssql};encrypt=false\n"
        f"jdbc:oracle:thin:scott/{oracle}@//ora.prod:1521/ORCLPDB1\n"
        f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:sql02,1433;Uid=report;Pwd={{{odbc}}};\n"
        f"mongodb+srv://atlas-admin:{mongo}@cluster0.ab1cd.mongodb.net/?retryWrites=true\n"
        f"Server=sql03;Database=hr;User Id=hr_app;Password={ado};TrustServerCertificate=True\n"
        f"rediss://default:{redis}@cache.prod:6380/0\n"
        f"amqps://orders:{amqp}@mq.prod:5671/%2F\n"
        f"DATABASE=SAMPLE;HOSTNAME=db2.lan;PORT=50000;UID=db2inst1;PWD={db2};\n"
        f"ldaps://cn=admin,dc=corp,dc=lan:{ldap}@ldap.corp.lan:636\n"
    )
    return [_s("JDBC, ODBC and broker strings", text, *values)]


def _smtp() -> list[Sample]:
    django, postfix, msmtp, php, rails, mutt, sg = (
        _pw(),
        _of(string.ascii_lowercase, 16),
        _plain(),
        _strong(),
        _pw(),
        _plain(),
        "SG." + _of(_URLSAFE, 22) + "." + _of(_URLSAFE, 43),
    )
    text = (
        "# settings.py\n"
        "EMAIL_HOST = 'smtp.office365.com'\n"
        "EMAIL_HOST_USER = 'noreply@shop.example'\n"
        f"EMAIL_HOST_PASSWORD = '{django}'\n\n"
        "# /etc/postfix/sasl_passwd\n"
        f"[smtp.gmail.com]:587 alerts.box@gmail.com:{postfix}\n\n"
        "# ~/.msmtprc\n"
        "account default\nhost mail.example.net\nuser me\n"
        f"password {msmtp}\n\n"
        f"$mail->Password = '{php}';\n\n"
        "config.action_mailer.smtp_settings = { address: 'smtp.mailgun.org', user_name: 'postmaster',\n"
        f'  password: "{rails}" }}\n\n'
        f'set smtp_pass = "{mutt}"\n'
        f"SENDGRID_API_KEY={sg}\n"
    )
    return [_s("SMTP settings", text, django, postfix, msmtp, php, rails, mutt, sg)]


def _postman() -> list[Sample]:
    api, client, access, refresh, password, basic = (
        _of(_ALNUM, 32),
        _of(_URLSAFE, 40),
        _jwt(),
        _of(_URLSAFE, 64),
        _pw(),
        _b64("svc-reports:" + _plain()),
    )
    env = {
        "id": "5e0f1f2a-8d7c-4b51-9e0a-2f4c6d8e1a3b",
        "name": "prod",
        "values": [
            {"key": "baseUrl", "value": "https://api.shop.example", "enabled": True},
            {"key": "apiKey", "value": api, "type": "secret", "enabled": True},
            {"key": "clientSecret", "value": client, "type": "secret", "enabled": True},
            {"key": "access_token", "value": access, "type": "default", "enabled": True},
            {"key": "refresh_token", "value": refresh, "type": "default", "enabled": True},
            {"key": "password", "value": password, "type": "default", "enabled": True},
            {"key": "basicAuth", "value": basic, "type": "default", "enabled": True},
        ],
        "_postman_variable_scope": "environment",
    }
    text = "exported the postman env:\n" + json.dumps(env, indent=2)
    return [_s("Postman environment", text, api, client, access, refresh, password, basic)]


def _curl() -> list[Sample]:
    values = [
        _plain(),
        _pw(),
        _b64("admin:" + _plain()),
        _strong(),
        _plain(),
        _of(_ALNUM, 32),
        _of(_HEX, 40),
        _of(_URLSAFE, 36),
        _plain(),
        _urlpw(),
    ]
    u, user, basic, httpie, wget, xkey, query, form, aria, proxy = values
    text = (
        f"curl -u deploy:{u} https://ci.lan/job/build/buildWithParameters\n"
        f"curl --user 'ana:{user}' -X POST https://nas.home/api/login\n"
        f"curl -H 'Authorization: Basic {basic}' https://registry.lan/v2/_catalog\n"
        f"http -a bob:{httpie} PUT https://api.lan/items/7 qty:=3\n"
        f"wget --http-user=mirror --http-password={wget} https://files.lan/dump.tar\n"
        f'curl -H "X-API-Key: {xkey}" https://api.weather.example/v1/now\n'
        f"curl 'https://api.maps.example/geocode?q=Oslo&api_key={query}'\n"
        f"curl -d 'grant_type=client_credentials&client_id=reports&client_secret={form}' https://id.lan/token\n"
        f"aria2c --http-user=me --http-passwd={aria} https://dl.lan/iso\n"
        f"curl -x http://proxyuser:{proxy}@proxy.corp:3128 https://example.org\n"
    )
    return [_s("curl, HTTPie and wget", text, *values)]


def _http_exchange() -> list[Sample]:
    basic, proxy, sess, csrf, jsession, php, connect, laravel, gitlab, xauth = (
        _b64("jenkins:" + _plain()),
        _b64("corp\\svc:" + _pw()),
        _of(_LOWER_ALNUM, 32),
        _of(_ALNUM, 64),
        _of(_HEX.upper(), 32),
        _of(_LOWER_ALNUM, 26),
        "s%3A" + _of(_URLSAFE, 32) + "." + _of(_ALNUM, 43),
        _of(_B64, 120).replace("/", "%2F"),
        _of(_HEX, 32),
        _of(_HEX, 40),
    )
    text = (
        "GET /api/v1/builds HTTP/1.1\n"
        "Host: ci.lan\n"
        f"Authorization: Basic {basic}\n"
        f"Proxy-Authorization: Basic {proxy}\n"
        f"Cookie: sessionid={sess}; csrftoken={csrf}; theme=dark\n"
        f"X-Auth-Token: {xauth}\n\n"
        "HTTP/1.1 200 OK\n"
        f"Set-Cookie: JSESSIONID={jsession}; Path=/; HttpOnly\n"
        f"Set-Cookie: PHPSESSID={php}; path=/\n"
        f"Set-Cookie: connect.sid={connect}; Path=/; HttpOnly\n"
        f"Set-Cookie: laravel_session={laravel}; expires=Fri, 20 Nov 2026 10:00:00 GMT\n"
        f"Set-Cookie: _gitlab_session={gitlab}; path=/; secure\n"
    )
    return [
        _s(
            "HTTP exchange",
            text,
            basic,
            proxy,
            sess,
            csrf,
            jsession,
            php,
            connect,
            laravel,
            gitlab,
            xauth,
        )
    ]


def _cookies_txt() -> list[Sample]:
    values = [
        _of(_URLSAFE, 40),
        _of(_HEX, 32),
        _of(_ALNUM, 48),
        _of(_URLSAFE, 71),
        _of(_LOWER_ALNUM, 26),
        _jwt(),
    ]
    names = (
        "__Secure-next-auth.session-token",
        "session",
        "user_session",
        "SID",
        "PHPSESSID",
        "auth",
    )
    hosts = (".vercel.app", "git.lan", "github.com", ".google.com", "forum.lan", ".shop.example")
    rows = "\n".join(
        f"{host}\tTRUE\t/\tTRUE\t17990{_of(string.digits, 5)}\t{name}\t{value}"
        for host, name, value in zip(hosts, names, values, strict=True)
    )
    text = "# Netscape HTTP Cookie File\n# exported for yt-dlp\n" + rows + "\n"
    return [_s("cookies.txt", text, *values)]


def _otp() -> list[Sample]:
    uri1, uri2 = _of(_B32, 32), _of(_B32, 16)
    spaced = _of(_B32.lower(), 32)
    spaced_text = " ".join(spaced[i : i + 4] for i in range(0, 32, 4))
    migration = _of(_B64, 80)
    authy, steam = _of(_B32, 26), _of(_B32, 32)
    text = (
        "2FA seeds before I wipe the phone:\n"
        f"otpauth://totp/GitHub:octo?secret={uri1}&issuer=GitHub\n"
        f"otpauth://hotp/VPN:marta?secret={uri2}&counter=12&digits=8\n"
        f"Proton setup key: {spaced_text}\n"
        f"otpauth-migration://offline?data={urllib.parse.quote(migration, safe='')}\n"
        f"authy seed (decoded) {authy}\n"
        f'steam shared_secret in maFile: "shared_secret": "{_b64(steam.encode())}"\n'
    )
    quoted = urllib.parse.quote(migration, safe="")
    return [_s("OTP seeds", text, uri1, uri2, spaced_text, quoted, authy, _b64(steam.encode()))]


def _recovery_codes() -> list[Sample]:
    github = [f"{_of(_LOWER_ALNUM[:16] + _LOWER_ALNUM[26:], 5)}-{_of(_HEX, 5)}" for _ in range(8)]
    google = [f"{_digits(4)} {_of(string.digits, 4)}" for _ in range(6)]
    bw = "-".join(_of(string.ascii_lowercase, 4) for _ in range(8))
    proton = "-".join(_of(_UPPER_ALNUM, 4) for _ in range(4))
    text = (
        "GitHub recovery codes (keep safe!)\n"
        + "\n".join(github)
        + "\n\nGoogle backup codes:\n"
        + "\n".join(f"{i}. {code}" for i, code in enumerate(google, 1))
        + f"\n\nBitwarden two-step login recovery code: {bw}\n"
        + f"Tuta recovery code {proton}\n"
    )
    return [_s("recovery codes", text, *github, *google, bw, proton)]


def _ssh_keys() -> list[Sample]:
    yaml_key = _openssh_key_lines()
    json_key = _openssh_key_lines()
    env_key = _openssh_key_lines()
    yaml_block = "\n".join(f"    {line}" for line in yaml_key)
    json_block = "\\n".join(json_key)
    env_block = "\n".join(env_key)
    text = (
        "deploy:\n"
        "  ssh_private_key: |\n"
        "    -----BEGIN OPENSSH PRIVATE KEY-----\n"
        f"{yaml_block}\n"
        "    -----END OPENSSH PRIVATE KEY-----\n\n"
        '{"name": "runner", "key": "-----BEGIN OPENSSH PRIVATE KEY-----\\n'
        f'{json_block}\\n-----END OPENSSH PRIVATE KEY-----\\n"}}\n\n'
        'export SSH_PRIVATE_KEY="-----BEGIN OPENSSH PRIVATE KEY-----\n'
        f"{env_block}\n"
        '-----END OPENSSH PRIVATE KEY-----"\n'
    )
    picked = yaml_key[1:4] + json_key[1:4] + env_key[1:4]
    return [_s("SSH keys inlined", text, *picked)]


def _pgp() -> list[Sample]:
    body = _lines("lQVYBG" + _of(_B64, 64 * 7), 64)
    passphrase, env = _strong(20), _plain()
    armored = "\n".join(body)
    text = (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n"
        "Comment: backup of the signing key\n\n"
        f"{armored}\n"
        f"={_of(_B64, 4)}\n"
        "-----END PGP PRIVATE KEY BLOCK-----\n"
        f"gpg --batch --pinentry-mode loopback --passphrase '{passphrase}' --import key.asc\n"
        f"GPG_PASSPHRASE={env}\n"
    )
    return [_s("PGP secret key", text, body[1], body[3], body[5], passphrase, env)]


def _wireguard() -> list[Sample]:
    def key() -> str:
        return _b64(_random_bytes(32))

    private, psk1, psk2, cli, ros, mobile = key(), key(), key(), key(), key(), key()
    public1, public2 = key(), key()
    text = (
        "[Interface]\n"
        "Address = 10.8.0.1/24\n"
        "ListenPort = 51820\n"
        f"PrivateKey = {private}\n\n"
        "[Peer]\n"
        f"PublicKey = {public1}\n"
        f"PresharedKey = {psk1}\n"
        "AllowedIPs = 10.8.0.2/32\n\n"
        "[Peer]\n"
        f"PublicKey = {public2}\n"
        f"PresharedKey = {psk2}\n"
        "AllowedIPs = 10.8.0.3/32\n\n"
        f"wg set wg0 private-key <(echo {cli})\n"
        f'/interface wireguard add listen-port=13231 name=wg1 private-key="{ros}"\n'
        f"phone tunnel privkey: {mobile}\n"
    )
    return [_s("WireGuard keys", text, private, psk1, psk2, cli, ros, mobile)]


def _crypto() -> list[Sample]:
    s12, s24, s18 = _seed(128), _seed(256), _seed(192)
    eth = "0x" + _of(_HEX, 64)
    wif = _b58check(b"\x80" + _random_bytes(32) + b"\x01")
    xprv = _b58check(
        bytes.fromhex("0488ade4") + _random_bytes(9) + _random_bytes(32) + b"\0" + _random_bytes(32)
    )
    sol = "[" + ",".join(str(_RNG.randrange(256)) for _ in range(64)) + "]"
    text = (
        f"metamask phrase: {s12}\n"
        f"Ledger 24 words — {s24}\n"
        f"old trezor wallet {s18}\n"
        f"exported eth private key {eth}\n"
        f"paper wallet WIF {wif}\n"
        f"{xprv}\n"
        f"solana id.json: {sol}\n"
    )
    return [_s("crypto keys and seeds", text, s12, s24, s18, eth, wif, xprv, sol)]


def _banks() -> list[Sample]:
    pl_iban, pl_raw, pl_pesel, pl_pw, blik = _iban_pl(), _iban_pl(), _pesel(), _weak(), _digits(6)
    tr_iban, tr_tc, tr_pw, tr_card, tr_cvv = (
        _iban_tr(),
        _tckimlik(),
        _pw(),
        _card("5"),
        _of(string.digits, 3),
    )
    gr_iban, gr_amka, gr_pw = _iban_gr(), _amka(), _pw()
    sa_iban, sa_id, ae_id, ar_pw = _iban_sa(), _saudi_id(), _emirates_id(), _pw()
    in_acct, in_aadhaar, in_pan, in_pw, upi = (
        _digits(14),
        _aadhaar(),
        _of(string.ascii_uppercase, 3)
        + "P"
        + _of(string.ascii_uppercase, 1)
        + _digits(4)
        + _of(string.ascii_uppercase, 1),
        _pw(),
        _digits(6),
    )
    vn_acct, vn_cccd, vn_pw = "0" + _digits(12), "0" + _of(string.digits, 11), _pw()
    id_acct, id_nik, id_pw, id_pin = _digits(10), _digits(16), _pw(), _digits(6)
    se_iban, se_pnr, se_pw, se_acct = (
        _iban_se(),
        _personnummer(),
        _pw(),
        f"{_digits(4)}-{_digits(1)}, {_digits(3)} {_digits(3)} {_digits(3)}-{_digits(1)}",
    )
    aadhaar_spaced = f"{in_aadhaar[:4]} {in_aadhaar[4:8]} {in_aadhaar[8:]}"
    nik_spaced = " ".join(id_nik[i : i + 4] for i in range(0, 16, 4))
    return [
        _s(
            "bank details, Polish",
            f"Przelej proszę na konto {_grouped(pl_iban)} (mBank). Stare konto to {pl_raw[2:]}.\n"
            f"Mój PESEL: {pl_pesel}. Hasło do bankowości: {pl_pw}. Kod BLIK {blik[:3]} {blik[3:]} ważny 2 min.",
            _grouped(pl_iban),
            pl_raw[2:],
            pl_pesel,
            pl_pw,
            f"{blik[:3]} {blik[3:]}",
        ),
        _s(
            "bank details, Turkish",
            f"Kira için IBAN: {_grouped(tr_iban)}\nTC Kimlik No {tr_tc}, internet bankacılığı şifrem {tr_pw}\n"
            f"Kart numarası {_grouped(tr_card)} son kullanma 08/29 CVV {tr_cvv}",
            _grouped(tr_iban),
            tr_tc,
            tr_pw,
            _grouped(tr_card),
            f"CVV {tr_cvv}",
        ),
        _s(
            "bank details, Greek",
            f"Στοιχεία για την κατάθεση: IBAN {gr_iban}, δικαιούχος Ελένη Π.\n"
            f"ΑΜΚΑ: {gr_amka}\nΟ κωδικός πρόσβασης για το e-banking είναι {gr_pw}",
            gr_iban,
            gr_amka,
            gr_pw,
        ),
        _s(
            "bank details, Arabic",
            f"رقم الآيبان: {_grouped(sa_iban)}\nرقم الهوية الوطنية {sa_id}\nرقم الهوية الإماراتية: {ae_id}\n"
            f"كلمة السر الجديدة هي {ar_pw}",
            _grouped(sa_iban),
            sa_id,
            ae_id,
            ar_pw,
        ),
        _s(
            "bank details, Hindi",
            f"मेरा खाता संख्या {in_acct} है, IFSC SBIN0004321.\nआधार नंबर: {aadhaar_spaced}\n"
            f"पैन कार्ड {in_pan}\nनेटबैंकिंग का पासवर्ड {in_pw} है और UPI पिन {upi}",
            in_acct,
            aadhaar_spaced,
            in_pan,
            in_pw,
            f"पिन {upi}",
        ),
        _s(
            "bank details, Vietnamese",
            f"Chuyển khoản vào số tài khoản {vn_acct} Vietcombank, chủ TK Nguyễn Văn An.\n"
            f"Số CCCD: {vn_cccd}. Mật khẩu ngân hàng là {vn_pw} nhé.",
            vn_acct,
            vn_cccd,
            vn_pw,
        ),
        _s(
            "bank details, Indonesian",
            f"Transfer ke rekening BCA {id_acct} a.n. Dewi Lestari.\nNIK: {nik_spaced}\n"
            f"Kata sandi m-banking: {id_pw}, PIN ATM {id_pin}",
            id_acct,
            nik_spaced,
            id_pw,
            f"PIN ATM {id_pin}",
        ),
        _s(
            "bank details, Swedish",
            f"Betala till kontonummer {se_acct} (Swedbank) eller IBAN {_grouped(se_iban)}.\n"
            f"Personnummer {se_pnr}. Lösenordet till internetbanken är {se_pw}",
            se_acct,
            _grouped(se_iban),
            se_pnr,
            se_pw,
        ),
    ]


def _national_ids() -> list[Sample]:
    p1, t1, a1, c1, n1, f1 = _pesel(), _tckimlik(), _aadhaar(), _cpf(), _nir(), _codice_fiscale()
    p2, t2, a2, c2, n2, f2 = _pesel(), _tckimlik(), _aadhaar(), _cpf(), _nir(), _codice_fiscale()
    n1_spaced = f"{n1[0]} {n1[1:3]} {n1[3:5]} {n1[5:7]} {n1[7:10]} {n1[10:13]} {n1[13:]}"
    text = (
        "form rows for the visa agency\n"
        f"| Anna Kowalska | PESEL | {p1} |\n"
        f"| Mehmet Yılmaz | T.C. kimlik | {t1} |\n"
        f"| Priya Nair | Aadhaar | {a1} |\n"
        f"| João Souza | CPF | {c1} |\n"
        f"| Claire Martin | n° de sécurité sociale | {n1_spaced} |\n"
        f"| Luca Bianchi | codice fiscale | {f1} |\n\n"
        f"pesel mamy {p2}, tc no babamın {t2}\n"
        f"aadhar (no h) {a2}\n"
        f"cpf do Pedro {c2.replace('.', '').replace('-', '')}\n"
        f"sécu: {n2}\n"
        f"CF {f2.lower()}\n"
    )
    return [
        _s(
            "national numbers",
            text,
            p1,
            t1,
            a1,
            c1,
            n1_spaced,
            f1,
            p2,
            t2,
            a2,
            c2.replace(".", "").replace("-", ""),
            n2,
            f2.lower(),
        )
    ]


def _medical() -> list[Sample]:
    mrn1, mrn2, nhs1, nhs2, medicare, kvnr, hosp, insurer = (
        f"{_digits(3)}-{_of(string.digits, 2)}-{_of(string.digits, 4)}",
        "MRN" + _digits(8),
        _nhs(),
        _nhs(),
        _medicare_au(),
        _RNG.choice(string.ascii_uppercase) + _digits(9),
        _digits(7),
        "XGH" + _digits(9),
    )
    text = (
        "Dad's hospital stuff:\n"
        f"MRN: {mrn1} (St Olav)\n"
        f"patient id {mrn2}\n"
        f"NHS number {nhs1}; mum's is {nhs2}\n"
        f"Medicare card {medicare}\n"
        f"Krankenversichertennummer {kvnr}\n"
        f"Krankenhaus-Fallnummer {hosp}\n"
        f"BCBS member ID {insurer}\n"
    )
    return [
        _s("medical record numbers", text, mrn1, mrn2, nhs1, nhs2, medicare, kvnr, hosp, insurer)
    ]


def _plates() -> list[Sample]:
    rows = [
        (
            "reg. {} — owner Lena Berg, Volvo XC60",
            f"{_of(string.ascii_uppercase, 3)} {_digits(2)}{_of(string.ascii_uppercase, 1)}",
        ),
        (
            "Kennzeichen {} (Halter: Jürgen Weiß)",
            f"M-{_of(string.ascii_uppercase, 2)} {_digits(4)}",
        ),
        (
            "registration {}, keeper Sarah Chen",
            f"{_of(string.ascii_uppercase, 2)}{_digits(2)} {_of(string.ascii_uppercase, 3)}",
        ),
        ("nr rej. {}, właściciel: Tomasz Nowak", f"WA {_digits(5)}"),
        (
            "targa {} intestata a Giulia Russo",
            f"{_of(string.ascii_uppercase, 2)}{_digits(3)}{_of(string.ascii_uppercase, 2)}",
        ),
        ("plaka {} ruhsat sahibi Ayşe Demir", f"34 {_of(string.ascii_uppercase, 3)} {_digits(3)}"),
    ]
    text = "cars in the parking-permit list:\n" + "\n".join(t.format(v) for t, v in rows)
    return [_s("licence plates with owners", text, *(v for _, v in rows))]


def _dictated() -> list[Sample]:
    quoted_new, spaced, single = _pw(), "lantern copper meadow 42", _strong()
    nato = "Kilo 7 Echo romeo 9 Tango hotel"
    dictated = "capital P, then 4, lowercase x, dollar sign, k, m, 7"
    spelled = "M a r g o t 1 9 8 4"
    text = (
        "[09:14] Ola: changed the router admin, the new one is '" + quoted_new + "'\n"
        f'[09:15] Ola: and the nas passphrase is "{spaced}" (with the spaces)\n'
        f"[09:15] Piotr: wifi for guests?\n"
        f"[09:16] Ola: it's {dictated}\n"
        f"[09:17] Ola: for the alarm panel: {nato}\n"
        f"[09:18] Ola: mum's laptop login is {spelled} — no wait, the o is a zero\n"
        f"[09:20] Ola: oh and the printer pw: {single}\n"
    )
    return [
        _s("dictated passwords in chat", text, quoted_new, spaced, dictated, nato, spelled, single)
    ]


def _diff() -> list[Sample]:
    old_sk, new_sk, old_pw, new_pw, old_hook, new_hook, old_tok, new_tok = (
        "sk_live_" + _of(_ALNUM, 24),
        "sk_live_" + _of(_ALNUM, 24),
        _pw(),
        _pw(),
        _of(_HEX, 32),
        _of(_HEX, 32),
        _of(_ALNUM, 40),
        _of(_ALNUM, 40),
    )
    text = (
        "diff --git a/.env.production b/.env.production\n"
        "index 3c1f2aa..9be77d0 100644\n"
        "--- a/.env.production\n"
        "+++ b/.env.production\n"
        "@@ -3,9 +3,9 @@ APP_ENV=production\n"
        f"-STRIPE_SECRET_KEY={old_sk}\n"
        f"+STRIPE_SECRET_KEY={new_sk}\n"
        f"-DB_PASSWORD={old_pw}\n"
        f"+DB_PASSWORD={new_pw}\n"
        f"-WEBHOOK_SIGNING_SECRET={old_hook}\n"
        f"+WEBHOOK_SIGNING_SECRET={new_hook}\n"
        "diff --git a/config/deploy.yml b/config/deploy.yml\n"
        "@@ -12,3 +12,3 @@\n"
        f"-  token: {old_tok}\n"
        f"+  token: {new_tok}\n"
    )
    return [
        _s(
            "secrets in a diff",
            text,
            old_sk,
            new_sk,
            old_pw,
            new_pw,
            old_hook,
            new_hook,
            old_tok,
            new_tok,
        )
    ]


def _logs() -> list[Sample]:
    login, access, dsn, bearer, sudo, uvicorn, celery, k8s = (
        _pw(),
        _of(_URLSAFE, 40),
        _urlpw(),
        _jwt(),
        _pw(),
        _of(_ALNUM, 32),
        _urlpw(),
        _of(_ALNUM, 24),
    )
    text = (
        f'2026-03-02T10:11:12Z INFO auth: login attempt user=bob password="{login}" ok=false\n'
        f'10.0.0.7 - - [02/Mar/2026:10:11:13 +0000] "GET /export.csv?access_token={access} HTTP/1.1" 200 5120\n'
        f"DEBUG sqlalchemy.engine: connecting to postgresql://app:{dsn}@db:5432/app\n"
        f"WARN  upstream responded 401 for header Authorization: Bearer {bearer}\n"
        f"Mar  2 10:12:01 web1 sudo: deploy : COMMAND=/usr/bin/mysql -uroot -p{sudo} -e 'SHOW DATABASES'\n"
        f'INFO:     10.0.0.9:51234 - "POST /hook?apikey={uvicorn} HTTP/1.1" 204\n'
        f"[2026-03-02 10:13:00,101: ERROR/MainProcess] consumer: Cannot connect to amqp://celery:{celery}@mq:5672//\n"
        f'level=error msg="registry login failed" username=robot$ci password={k8s}\n'
    )
    return [
        _s("secrets in log lines", text, login, access, dsn, bearer, sudo, uvicorn, celery, k8s)
    ]


def _markdown_titles() -> list[Sample]:
    grafana, totp, vault, wifi = _pw(), _of(_B32, 32), "hvs." + _of(_ALNUM, 24), _pw()
    text = (
        f'- [grafana](https://grafana.home.lan "admin / {grafana}")\n'
        f'- ![qr of the 2fa](otp.png "TOTP seed {totp}")\n'
        "- see the [vault][v] docs\n\n"
        f'[v]: https://vault.home.lan:8200 "root token {vault}"\n'
        f'<a href="http://192.168.1.1" title="router pw: {wifi}">router</a>\n'
    )
    return [_s("secrets in Markdown titles", text, grafana, totp, vault, wifi)]


def _vendor_tokens() -> list[Sample]:
    tokens = [
        "github_pat_" + _of(_ALNUM, 22) + "_" + _of(_ALNUM, 59),
        "glpat-" + _of(_URLSAFE, 20),
        "glrt-" + _of(_URLSAFE, 20),
        "npm_" + _of(_ALNUM, 36),
        "pypi-AgEIcHlwaS5vcmc" + _of(_URLSAFE, 60),
        "dckr_pat_" + _of(_URLSAFE, 27),
        "hf_" + _of(_ALNUM, 34),
        "sk-proj-" + _of(_URLSAFE, 48) + "T3BlbkFJ" + _of(_URLSAFE, 48),
        "sk-ant-api03-" + _of(_URLSAFE, 93) + "AA",
        "rk_live_" + _of(_ALNUM, 99),
        "whsec_" + _of(_ALNUM, 32),
        "xapp-1-A" + _digits(10) + "-" + _digits(13) + "-" + _of(_HEX, 64),
        "shpat_" + _of(_HEX, 32),
        "shpss_" + _of(_HEX, 32),
        "ATATT3xFfGF0" + _of(_URLSAFE, 170) + "=" + _of(_HEX.upper(), 8),
        "lin_api_" + _of(_ALNUM, 40),
        "ntn_" + _of(_ALNUM, 46),
        "dp.st.prd." + _of(_ALNUM, 43),
        "pul-" + _of(_HEX, 40),
        "nfp_" + _of(_ALNUM, 36),
        "sbp_" + _of(_HEX, 40),
        "tskey-auth-k" + _of(_ALNUM, 16) + "-" + _of(_ALNUM, 33),
        "ops_eyJ" + _of(_URLSAFE, 180),
        "glsa_" + _of(_ALNUM, 32) + "_" + _of(_HEX, 8),
        "NRAK-" + _of(_UPPER_ALNUM, 27),
        "PMAK-" + _of(_HEX, 24) + "-" + _of(_HEX, 34),
        "sntrys_eyJ" + _of(_URLSAFE, 120),
        "AGE-SECRET-KEY-1" + _of("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
        "hvs.CAESI" + _of(_URLSAFE, 90),
        _of(_ALNUM, 14) + ".atlasv1." + _of(_ALNUM, 67),
        "dop_v1_" + _of(_HEX, 64),
        "figd_" + _of(_URLSAFE, 40),
        "dapi" + _of(_HEX, 32),
        "pscale_pw_" + _of(_URLSAFE, 43),
        "re_" + _of(_ALNUM, 8) + "_" + _of(_ALNUM, 24),
        "r8_" + _of(_ALNUM, 37),
        "gsk_" + _of(_ALNUM, 52),
        "pplx-" + _of(_ALNUM, 48),
        "fo1_" + _of(_URLSAFE, 43),
        "xoxe.xoxp-1-" + _of(_ALNUM, 140),
    ]
    first, second = tokens[:20], tokens[20:]
    text1 = "tokens to rotate (from the old 1password export):\n" + "\n".join(
        f"* {t}" for t in first
    )
    text2 = "| | |\n|---|---|\n" + "\n".join(f"| {i} | `{t}` |" for i, t in enumerate(second, 1))
    return [
        _s("vendor tokens, bare list", text1, *first),
        _s("vendor tokens, table", text2, *second),
    ]


def _shell_exports() -> list[Sample]:
    values = [
        _aws_secret(),
        "sk-proj-" + _of(_URLSAFE, 48),
        _of(_HEX, 40),
        "ghp_" + _of(_ALNUM, 36),
        _of(_ALNUM, 32),
        _of(_HEX, 128),
        _plain(),
        _pw(),
        _plain(),
        _strong(),
        _pw(),
        _plain(),
        _urlpw(),
        _plain(),
    ]
    aws, oai, fish, pwsh, setx, rails, fly, gh, kubectl, docker, mysql, sshpass, pgpass, lctl = (
        values
    )
    text = (
        f"export AWS_SECRET_ACCESS_KEY='{aws}'\n"
        f'$env:OPENAI_API_KEY = "{oai}"\n'
        f"set -gx HCLOUD_TOKEN {fish}\n"
        f"[Environment]::SetEnvironmentVariable('GITHUB_TOKEN', '{pwsh}', 'User')\n"
        f"setx ANTHROPIC_API_KEY {setx}\n"
        f"heroku config:set SECRET_KEY_BASE={rails} -a shop\n"
        f"fly secrets set DATABASE_PASSWORD={fly}\n"
        f'gh secret set DEPLOY_PASSWORD --body "{gh}"\n'
        f"kubectl create secret generic app --from-literal=password='{kubectl}'\n"
        f"docker login registry.lan -u ci -p {docker}\n"
        f"mysql -h db -uroot -p'{mysql}' shop < dump.sql\n"
        f"sshpass -p '{sshpass}' ssh pi@10.0.0.42\n"
        f"PGPASSWORD={pgpass} psql -h db -U app\n"
        f"launchctl setenv NPM_TOKEN {lctl}\n"
    )
    return [_s("shell exports and CLIs", text, *values)]


def _dotnet_java() -> list[Sample]:
    conn, jwt_key, smtp, storage, spring_ds, spring_mail, tomcat, ctx, jenkins, keystore = (
        _pw(),
        _of(_B64, 44),
        _plain(),
        _of(_B64, 86) + "==",
        _pw(),
        _plain(),
        _strong(),
        _pw(),
        "{AQAAABAAAAAQ" + _of(_B64, 44) + "=}",
        _plain(),
    )
    app = {
        "ConnectionStrings": {"Default": f"Server=sql;Database=crm;User Id=sa;Password={conn};"},
        "Jwt": {"Issuer": "crm", "Key": jwt_key},
        "Smtp": {"Host": "smtp.lan", "Password": smtp},
        "Storage": f"DefaultEndpointsProtocol=https;AccountName=crmfiles;AccountKey={storage};EndpointSuffix=core.windows.net",
    }
    text = (
        "appsettings.Production.json:\n"
        + json.dumps(app, indent=2)
        + "\n\napplication.properties:\n"
        f"spring.datasource.password={spring_ds}\n"
        f"spring.mail.password={spring_mail}\n"
        f"server.ssl.key-store-password={keystore}\n\n"
        f'<user username="admin" password="{tomcat}" roles="manager-gui,admin-gui"/>\n'
        f'<Resource name="jdbc/crm" username="crm" password="{ctx}" url="jdbc:mysql://db/crm"/>\n'
        f"<password>{jenkins}</password>\n"
    )
    return [
        _s(
            ".NET and Java config",
            text,
            conn,
            jwt_key,
            smtp,
            storage,
            spring_ds,
            spring_mail,
            keystore,
            tomcat,
            ctx,
            jenkins,
        )
    ]


def _registries() -> list[Sample]:
    pip, npm, npm_auth, pypirc, cargo, gem, composer, nuget, maven, gradle, yarn = (
        _urlpw(),
        "npm_" + _of(_ALNUM, 36),
        _b64("ci:" + _plain()),
        _pw(),
        "cio" + _of(_ALNUM, 32),
        "rubygems_" + _of(_HEX, 48),
        "ghp_" + _of(_ALNUM, 36),
        _pw(),
        _plain(),
        _strong(),
        _of(_ALNUM, 40),
    )
    text = (
        "# pip.conf\n[global]\n"
        f"index-url = https://deploy:{pip}@pypi.corp.lan/simple\n\n"
        "# .npmrc\n"
        f"//registry.npmjs.org/:_authToken={npm}\n"
        f"//npm.corp.lan/:_auth={npm_auth}\n\n"
        "# .pypirc\n[pypi]\nusername = __token__\n"
        f"password = {pypirc}\n\n"
        "# ~/.cargo/credentials.toml\n[registry]\n"
        f'token = "{cargo}"\n\n'
        "# ~/.gem/credentials\n"
        f":rubygems_api_key: {gem}\n\n"
        f'auth.json: {{"github-oauth": {{"github.com": "{composer}"}}}}\n\n'
        f'<add key="ClearTextPassword" value="{nuget}" />\n'
        f"<server><id>nexus</id><username>deploy</username><password>{maven}</password></server>\n"
        f"ossrhPassword={gradle}\n"
        f'npmAuthToken: "{yarn}"\n'
    )
    return [
        _s(
            "package registry credentials",
            text,
            pip,
            npm,
            npm_auth,
            pypirc,
            cargo,
            gem,
            composer,
            nuget,
            maven,
            gradle,
            yarn,
        )
    ]


def _wifi() -> list[Sample]:
    values = [_pw(), _pw(), _plain(), _weak(), _strong(), _pw()]
    nm, wpa, hostapd, nmcli, netsh, qr = values
    text = (
        "/etc/NetworkManager/system-connections/Home.nmconnection\n"
        "[wifi-security]\nkey-mgmt=wpa-psk\n"
        f"psk={nm}\n\n"
        "network={\n"
        '    ssid="Dom_5G"\n'
        f'    psk="{wpa}"\n'
        "}\n"
        f"wpa_passphrase={hostapd}\n"
        f"nmcli dev wifi connect Cafe_Guest password {nmcli}\n"
        f"netsh wlan show profile name=Biuro key=clear -> Key Content            : {netsh}\n"
        f"WIFI:T:WPA;S:Stuga;P:{qr};;\n"
    )
    return [_s("Wi-Fi keys in config", text, *values)]


def _sql_cli() -> list[Sample]:
    values = [
        _pw(),
        _strong(),
        _plain(),
        _pw(),
        _plain(),
        _pw(),
        _strong(),
        _plain(),
        _pw(),
        _plain(),
        _weak(),
        _plain(),
        _strong(),
    ]
    (
        pg,
        my,
        mssql,
        redis,
        redis_cfg,
        mongo,
        rabbit,
        htpasswd,
        openssl,
        keytool,
        zip_pw,
        sevenz,
        vault,
    ) = values
    text = (
        f"ALTER USER reporting WITH PASSWORD '{pg}';\n"
        f"CREATE USER 'shop'@'%' IDENTIFIED BY '{my}';\n"
        f"CREATE LOGIN etl WITH PASSWORD = '{mssql}', CHECK_POLICY = OFF;\n"
        f"127.0.0.1:6379> AUTH {redis}\n"
        f'127.0.0.1:6379> CONFIG SET requirepass "{redis_cfg}"\n'
        f'db.createUser({{user: "app", pwd: "{mongo}", roles: ["readWrite"]}})\n'
        f"rabbitmqctl add_user orders '{rabbit}'\n"
        f"htpasswd -b /etc/nginx/.htpasswd admin {htpasswd}\n"
        f"openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:{openssl}\n"
        f"keytool -genkeypair -alias app -keystore app.jks -storepass {keytool}\n"
        f"zip -P {zip_pw} taxes-2025.zip *.pdf\n"
        f"7z a -p{sevenz} -mhe=on scans.7z scans/\n"
        f"vault login -method=userpass username=ops password='{vault}'\n"
    )
    return [_s("SQL and CLI password flags", text, *values)]


def _cloud_files() -> list[Sample]:
    key_lines = _lines(_b64(b"0\x82\x04\xbe" + _random_bytes(300)), 64)
    pk = (
        "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(key_lines) + "\\n-----END PRIVATE KEY-----\\n"
    )
    key_id = _of(_HEX, 40)
    sa = (
        '{\n  "type": "service_account",\n  "project_id": "shop-prod-4821",\n'
        f'  "private_key_id": "{key_id}",\n'
        f'  "private_key": "{pk}",\n'
        '  "client_email": "deployer@shop-prod-4821.iam.gserviceaccount.com"\n}'
    )
    a1, s1, t1, a2, s2 = (
        _aws_key_id(),
        _aws_secret(),
        "IQoJb3JpZ2luX2VjE" + _of(_B64, 300),
        _aws_key_id(),
        _aws_secret(),
    )
    az_secret, az_sas = (
        _of(_URLSAFE + "~.", 40),
        "sv=2024-11-04&ss=b&srt=sco&sp=rwdlac&se=2027-01-01T00:00:00Z&sig="
        + urllib.parse.quote(_b64(_random_bytes(32)), safe=""),
    )
    sig = az_sas.split("sig=")[1]
    text = (
        sa + "\n\n~/.aws/credentials\n[default]\n"
        f"aws_access_key_id = {a1}\naws_secret_access_key = {s1}\naws_session_token = {t1}\n"
        f"[backup]\naws_access_key_id={a2}\naws_secret_access_key={s2}\n\n"
        f"AZURE_CLIENT_SECRET={az_secret}\n"
        f"https://crmfiles.blob.core.windows.net/exports?{az_sas}\n"
    )
    return [
        _s(
            "cloud credential files",
            text,
            key_id,
            key_lines[1],
            key_lines[3],
            a1,
            s1,
            t1,
            a2,
            s2,
            az_secret,
            sig,
        )
    ]


def _browser_storage() -> list[Sample]:
    access, refresh, sid, fb, supa = (
        _jwt(),
        _of(_URLSAFE, 64),
        _of(_HEX, 48),
        "AMf-vB" + _of(_URLSAFE, 200),
        _jwt(),
    )
    text = (
        "from devtools console:\n"
        f'localStorage.setItem("access_token", "{access}")\n'
        f"sessionStorage.refresh = '{refresh}'\n"
        f'document.cookie = "sid={sid}; path=/"\n'
        f'> JSON.parse(localStorage["firebase:authUser:AIza..:[DEFAULT]"]).stsTokenManager.refreshToken\n"{fb}"\n'
        f'sb-xyzcompany-auth-token: {{"access_token":"{supa}","token_type":"bearer"}}\n'
    )
    return [_s("browser storage", text, access, refresh, sid, fb, supa)]


def _cards() -> list[Sample]:
    visa, mc, amex, cvv1, cvv2, cid, json_pan, json_cvc = (
        _card("4"),
        _card("51"),
        _card("37", 15),
        _of(string.digits, 3),
        _of(string.digits, 3),
        _of(string.digits, 4),
        _card("4"),
        _of(string.digits, 3),
    )
    text = (
        "card for the hotel booking:\n"
        f"Card number: {_grouped(visa)}   Exp: 11/28   CVV: {cvv1}\n"
        f"backup mastercard {mc} exp 03/27 cvc {cvv2}\n"
        f"amex {amex[:4]} {amex[4:10]} {amex[10:]} CID {cid}\n"
        f'{{"pan": "{json_pan}", "exp_month": 9, "exp_year": 2029, "cvc": "{json_cvc}"}}\n'
    )
    return [
        _s(
            "cards",
            text,
            _grouped(visa),
            f"CVV: {cvv1}",
            mc,
            f"cvc {cvv2}",
            f"{amex[:4]} {amex[4:10]} {amex[10:]}",
            f"CID {cid}",
            json_pan,
            f'"cvc": "{json_cvc}"',
        )
    ]


def _phones() -> list[Sample]:
    phones = [
        f"+48 {_RNG.choice('5678')}{_of(string.digits, 2)} {_of(string.digits, 3)} {_of(string.digits, 3)}",
        f"+90 5{_RNG.choice('0345')}{_of(string.digits, 1)} {_of(string.digits, 3)} {_of(string.digits, 2)} {_of(string.digits, 2)}",
        f"+30 69{_RNG.choice('4789')} {_of(string.digits, 3)} {_of(string.digits, 4)}",
        f"+966 5{_RNG.choice('03456')} {_of(string.digits, 3)} {_of(string.digits, 4)}",
        f"+91 9{_of(string.digits, 4)} {_of(string.digits, 5)}",
        f"+84 9{_RNG.choice('0134')} {_of(string.digits, 3)} {_of(string.digits, 2)} {_of(string.digits, 2)}",
        f"+62 812-{_of(string.digits, 4)}-{_of(string.digits, 4)}",
        f"+46 70-{_of(string.digits, 3)} {_of(string.digits, 2)} {_of(string.digits, 2)}",
    ]
    names = ("Kasia", "Emre", "Nikos", "Fatimah", "Rohan", "Linh", "Putri", "Johan")
    text = "team phone tree\n" + "\n".join(
        f"- {n}: {p}" for n, p in zip(names, phones, strict=True)
    )
    return [_s("phones in eight countries", text, *phones)]


def _chat_languages() -> list[Sample]:
    pt, fr, es, de, it, nl, pl, tr = _pw(), _pw(), _pw(), _pw(), _pw(), _pw(), _pw(), _digits(4)
    text = (
        f"[12/03/26, 08:01] Bia: a senha nova do wifi é {pt}\n"
        f"[12/03/26, 08:02] Hugo: le mot de passe du routeur : {fr}\n"
        f"[12/03/26, 08:03] Lucía: la contraseña nueva es «{es}»\n"
        f"[12/03/26, 08:04] Jonas: Das Passwort lautet jetzt {de}\n"
        f"[12/03/26, 08:05] Marco: la password della NAS è {it}\n"
        f"[12/03/26, 08:06] Sanne: wachtwoord voor de server: {nl}\n"
        f"[12/03/26, 08:07] Kuba: hasło do skrzynki to {pl}\n"
        f"[12/03/26, 08:08] Elif: kapının şifresi {tr}\n"
    )
    return [_s("chat in eight languages", text, pt, fr, es, de, it, nl, pl, tr)]


def _disguises() -> list[Sample]:
    raw_pct = _strong(16)
    pct = urllib.parse.quote(raw_pct, safe="")
    entity_raw = _plain(10, 12)
    entity = entity_raw[:4] + "&#64;" + entity_raw[4:] + "&#33;"
    reversed_pw = _plain()[::-1]
    head, tail = "sk_live_" + _of(_ALNUM, 10), _of(_ALNUM, 16)
    bytes_pw = _plain()
    basic = _b64("backup-bot:" + _pw())
    hexed = _pw().encode().hex()
    text = (
        f"login form posted: username=ewa&password={pct}&remember=1\n"
        f'<input type="password" value="{entity}">\n'
        f"pw backwards so nobody reads it over my shoulder: {reversed_pw}\n"
        f'STRIPE = "{head}" + "{tail}"\n'
        f"conn = connect(host='db', password=b'{bytes_pw}')\n"
        f'"credentials": "{basic}"\n'
        f"hex of the admin password: {hexed}\n"
    )
    return [_s("disguises", text, pct, entity, reversed_pw, head, tail, bytes_pw, basic, hexed)]


def _network_gear() -> list[Sample]:
    enable = "$9$" + _of(_ALNUM + "./", 14) + "$" + _of(_ALNUM + "./", 43)
    values = [
        enable,
        _pw(),
        _plain(10, 14),
        _plain(),
        _pw(),
        _strong(),
        _plain(),
        "$6$" + _of(_ALNUM + "./", 16) + "$" + _of(_ALNUM + "./", 86),
        _pw(),
        _plain(),
        _pw(),
    ]
    _, admin, community, tacacs, radius, isakmp, junos_psk, junos_root, bgp, ospf, wlc = values
    text = (
        "show running-config (core-sw1)\n"
        f"enable secret 9 {enable}\n"
        f"username admin privilege 15 secret 0 {admin}\n"
        f"snmp-server community {community} RW\n"
        f"tacacs-server host 10.1.1.5 key {tacacs}\n"
        f"radius-server key 0 {radius}\n"
        f"crypto isakmp key {isakmp} address 0.0.0.0 0.0.0.0\n"
        " router bgp 65010\n"
        f"  neighbor 10.0.0.2 password {bgp}\n"
        "interface Gi0/1\n"
        f" ip ospf message-digest-key 1 md5 {ospf}\n"
        "! juniper side\n"
        f'set security ike policy vpn pre-shared-key ascii-text "{junos_psk}"\n'
        f'set system root-authentication encrypted-password "{junos_root}"\n'
        f"config wlan security wpa akm psk set-key ascii {wlc} 3\n"
    )
    return [_s("network gear config", text, *values)]


def _password_hashes() -> list[Sample]:
    salt = _ALNUM + "./"
    values = [
        "$6$" + _of(salt, 16) + "$" + _of(salt, 86),
        "$y$j9T$" + _of(salt, 22) + "$" + _of(salt, 43),
        "$apr1$" + _of(salt, 8) + "$" + _of(salt, 22),
        "$2y$12$" + _of(salt, 53),
        "$argon2id$v=19$m=65536,t=3,p=4$" + _of(_B64, 22) + "$" + _of(_B64, 43),
    ]
    shadow, yes, apr, bcrypt, argon = values
    text = (
        "grep -v nologin /etc/shadow\n"
        f"root:{shadow}:19800:0:99999:7:::\n"
        f"marta:{yes}:19810:0:99999:7:::\n"
        f".htpasswd -> admin:{apr}\n"
        f"INSERT INTO users (id, email, password) VALUES (1, 'owner@shop.example', '{bcrypt}');\n"
        f'users.json: {{"name": "ewa", "hash": "{argon}"}}\n'
    )
    return [_s("password hashes", text, *values)]


def _notebook() -> list[Sample]:
    oai, hf, wandb, kaggle = (
        "sk-" + _of(_ALNUM, 48),
        "hf_" + _of(_ALNUM, 34),
        _of(_HEX, 40),
        _of(_HEX, 32),
    )
    cell = {
        "cell_type": "code",
        "execution_count": 3,
        "metadata": {},
        "outputs": [],
        "source": [
            "import openai, os\n",
            f'openai.api_key = "{oai}"\n',
            f"login(token='{hf}')\n",
            f"!wandb login {wandb}\n",
            f'os.environ["KAGGLE_KEY"] = "{kaggle}"',
        ],
    }
    text = "the cell from train.ipynb:\n" + json.dumps(cell, indent=1)
    return [_s("notebook cell", text, oai, hf, wandb, kaggle)]


def secret_samples() -> list[Sample]:
    """The secret-bearing texts of round nine."""
    return [
        *_yaml_anchors(),
        *_terraform(),
        *_kubernetes(),
        *_ansible(),
        *_compose(),
        *_netrc(),
        *_pgpass(),
        *_git_credentials(),
        *_connection_strings(),
        *_smtp(),
        *_postman(),
        *_curl(),
        *_http_exchange(),
        *_cookies_txt(),
        *_otp(),
        *_recovery_codes(),
        *_ssh_keys(),
        *_pgp(),
        *_wireguard(),
        *_crypto(),
        *_banks(),
        *_national_ids(),
        *_medical(),
        *_plates(),
        *_dictated(),
        *_diff(),
        *_logs(),
        *_markdown_titles(),
        *_vendor_tokens(),
        *_shell_exports(),
        *_dotnet_java(),
        *_registries(),
        *_wifi(),
        *_sql_cli(),
        *_cloud_files(),
        *_browser_storage(),
        *_cards(),
        *_phones(),
        *_chat_languages(),
        *_disguises(),
        *_network_gear(),
        *_password_hashes(),
        *_notebook(),
    ]


# --- look-alikes ---------------------------------------------------------------------------


def lookalikes() -> list[Lookalike]:
    """Texts that must come through unchanged."""
    commit = _of(_HEX, 40)
    short = commit[:7]
    digest = _of(_HEX, 64)
    image = _of(_HEX, 64)
    uuid = f"{_of(_HEX, 8)}-{_of(_HEX, 4)}-4{_of(_HEX, 3)}-a{_of(_HEX, 3)}-{_of(_HEX, 12)}"
    wg_public = _b64(_random_bytes(32))
    ed25519 = "AAAAC3NzaC1lZDI1NTE5AAAAI" + _of(_B64, 43)
    rows = [
        ("commit hash", f"Fixed in commit {commit} (short {short}); reverted by {_of(_HEX, 40)}."),
        (
            "git log",
            f"{short} Bump pyyaml from 6.0.1 to 6.0.2\n{_of(_HEX, 7)} Merge pull request #4821 from org/fix-ci",
        ),
        ("release digest", f"sha256sum dreamd-1.9.0.tar.gz\n{digest}  dreamd-1.9.0.tar.gz"),
        ("image digest", f"image: ghcr.io/org/api@sha256:{image}"),
        (
            "versions",
            "Upgraded to v2.14.3-rc.1+build.5678, kernel 6.8.0-45-generic, Android 14 (UP1A.231005.007), Windows build 22631.4317.",
        ),
        ("order numbers", "Order #112-4938572-9938211 shipped; invoice INV-2026-004512; PO-77120."),
        (
            "tracking",
            "UPS 1Z999AA10123456784, PostNord 00370723220512345678, DHL JJD000390007312345678.",
        ),
        (
            "tickets",
            "Jira PROJ-1234, ServiceNow INC0012345, CVE-2024-3094, RFC 9110, GHSA-2xpw-w6gg-jr37.",
        ),
        (
            "measurements",
            "Ran 12.5 km in 58:14, 1,240 kcal; fridge at 4.2 °C; disk 4.7 GiB of 931.5 GiB used.",
        ),
        (
            "placeholders",
            "password: <your-password-here>\napi_key: YOUR_API_KEY\ntoken: ${GITHUB_TOKEN}\npass: {{ vault_db_password }}",
        ),
        (
            "documented example",
            "The AWS docs use AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY as the example key pair.",
        ),
        ("ISBNs", "Read: ISBN 978-0-13-468599-1 and ISBN 0-306-40615-2 (second edition)."),
        (
            "timestamps",
            "deployed 2026-03-14T09:26:53.589Z (epoch 1773480413), rollback at 2026-03-14 10:02:11+01:00",
        ),
        ("coordinates", "Meet at 52.2297° N, 21.0122° E, or geo:59.3293,18.0686 — the old town."),
        (
            "request ids",
            f"request id {uuid} failed with 503; trace 4bf92f3577b34da6a3ce929d0e0e4736",
        ),
        (
            "ARN",
            "Role arn:aws:iam::123456789012:role/deploy-ci assumed from arn:aws:sts::123456789012:assumed-role/x",
        ),
        (
            "public keys",
            f"[Peer]\nPublicKey = {wg_public}\nAllowedIPs = 10.8.0.2/32\nssh-ed25519 {ed25519} marta@laptop",
        ),
        (
            "Terraform with references",
            'variable "db_password" {\n  type      = string\n  sensitive = true\n}\npassword = var.db_password\nmaster_password = random_password.db.result',
        ),
        (
            "compose with references",
            "environment:\n  POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n  REDIS_PASSWORD: ${REDIS_PASSWORD:?set it}\nsecrets:\n  db_password:\n    file: ./secrets/db.txt",
        ),
        (
            "ConfigMap",
            "apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: search,export\n  TZ: Europe/Stockholm",
        ),
        (
            "git URLs",
            "git clone https://github.com/org/dreamd.git\ngit remote add upstream git@github.com:org/dreamd.git",
        ),
        (
            "JDBC without password",
            "jdbc:postgresql://localhost:5432/app?sslmode=require&ApplicationName=reports",
        ),
        (
            "curl with variables",
            'curl -u "$CI_USER:$CI_TOKEN" https://ci.lan/api\ncurl -H "Authorization: Bearer $(gh auth token)" https://api.github.com/user',
        ),
        (
            "pgpass format",
            "The .pgpass format is hostname:port:database:username:password, one line per server, mode 0600.",
        ),
        (
            "bank codes",
            "BIC PKOPPLPW (PKO BP), IFSC SBIN0000691 is the New Delhi main branch, ABA routing 021000021 is Chase.",
        ),
        (
            "medical codes",
            "ICD-10 E11.9, LOINC 2345-7 glucose, dose 500 mg twice daily, BP 128/82, HbA1c 6.1 %.",
        ),
        ("chess", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 — Ruy Lopez, closed."),
        (
            "recipe",
            "Cardamom buns: 500 g flour, 75 g sugar, 2 tsp cardamom, 25 g yeast, 250 ml milk; bake 8 min at 225 °C.",
        ),
        (
            "policy, Polish",
            "Hasło musi mieć co najmniej 12 znaków, jedną wielką literę i cyfrę. Nie udostępniaj go nikomu.",
        ),
        (
            "policy, Turkish",
            "Şifreniz en az 10 karakter olmalı ve son üç şifrenizden farklı olmalıdır.",
        ),
        (
            "policy, Swedish",
            "Lösenordet måste bytas var 90:e dag; glömt lösenord? Klicka på länken i mejlet.",
        ),
        (
            "policy, Indonesian",
            "Kata sandi minimal 8 karakter. Jangan berikan kode OTP kepada siapa pun.",
        ),
        ("hex colours", "Palette: #1e90ff, #ff6347, #2e8b57, rgba(30, 144, 255, 0.6)."),
        (
            "cron and regex",
            r"schedule: '*/15 3-5 * * 1-5'  # and the id pattern is ^[A-Z]{2}\d{6}$",
        ),
        (
            "IP and MAC",
            "NAS at 192.168.1.20 (MAC 3c:22:fb:7a:10:9e), gateway fe80::1%en0, port 51820/udp.",
        ),
        (
            "public ids",
            "YouTube video dQw4w9WgXcQ, Spotify track 4cOdK2wGLETKBW3PvgPWqT, ORCID 0000-0002-1825-0097.",
        ),
        (
            "sports scores",
            "Final: 3–1 (HT 1–1), attendance 41,203; lap record 1:23.456; 2/3 sets 6-4 3-6 7-6(5).",
        ),
        (
            "changed password talk",
            "Changed my bank password today, the new one is in the password manager, not here.",
        ),
        (
            "dictation without a secret",
            "It's capital letters at the start of each sentence, then a full stop, then a space.",
        ),
        (
            "plate without an owner",
            "The 74 bus to Centralen was late again; the tram line 7 is closed on Sundays.",
        ),
        (
            "log without secrets",
            '2026-03-02T10:11:12Z INFO auth: login ok user=bob ip=10.0.0.7 duration_ms=84\n10.0.0.7 - - [02/Mar/2026:10:11:13 +0000] "GET /health HTTP/1.1" 200 2',
        ),
        ("diff without secrets", "-LOG_LEVEL=info\n+LOG_LEVEL=debug\n-WORKERS=4\n+WORKERS=8"),
    ]
    return [Lookalike(family, text) for family, text in rows]
