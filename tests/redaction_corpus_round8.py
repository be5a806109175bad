"""The round-eight redaction corpus for dreamd, written blind: before the rules were measured on it.

Nothing in it was shown to the rules or tuned against them, and it leans on what the earlier
corpora's docstrings list little or not at all. It is written the way people paste things into
their daily notes and chats (a unit file copied from a server, a crontab line, a stack trace, a
voice note transcribed by the phone, a forwarded mail), and the way someone hiding a secret from
a filter would write it.

Secrets (:func:`secret_samples`): systemd ``SetCredential=``, ``set-environment`` and
``systemd-run -E``, crontab lines with inline environment, kopia, duplicity, Duplicati,
Proxmox Backup and Syncthing, rclone obscured passwords; Spring, ESPHome, Netplan, cloud-init,
Grafana provisioning, Traefik, Telegraf, Streamlit, GitLab runner, Rocket, Nomad, Packer,
Consul and Boundary files; Dockerfile ``ARG`` defaults, proxy URLs for apt, npm, git and the
shell; app passwords of Google, Apple and Microsoft; HTTP Basic headers built by hand, client
credentials in a token request, Cloudflare global keys, httpie bearer flags; MQTT, SFTP, RTSP,
Helm, Vault, Fly and Oracle command lines; SQL of Neo4j, Cassandra, Snowflake, ClickHouse,
CockroachDB, SurrealDB and Firebird; key blocks pasted in part, a PGP secret key, a PuTTY v3
key, WireGuard keys; S3, GCS and CloudFront signed URLs, Azure SAS tokens, Google Chat,
Mattermost, Rocket.Chat, DingTalk, WeCom, Feishu, Home Assistant and Jenkins hooks; Slack
app-level and refresh tokens, Matrix, WhatsApp Cloud, LINE, Viber and KakaoTalk tokens; OAuth
client secrets of Auth0, Keycloak, Spotify, X, LinkedIn, Reddit, Strava and Zoom in JSON;
Firebase database secrets and function config; tokens in URL fragments and the keys of shared
links (Mega, PrivateBin, Excalidraw, Bitwarden Send); keys of some sixty vendors none of the
earlier corpora name; passwords in the everyday prose of Swahili, Tagalog, Thai, Greek, Hebrew,
Czech, Hungarian, Finnish, Romanian, Malay, Bengali, Persian and Amharic, the keyword inflected
as each language inflects it (``salasanaksi``, ``jelszavam``, ``heslem``, ``ל-``, ``رمزم``,
``የይለፍ ቃሌ``), and in Luganda, Kikuyu, Ilocano, Hiligaynon, Bhojpuri, Maithili, Konkani,
Minangkabau and Bambara; mobile-money PINs (M-Pesa, GCash, bKash, telebirr, Easypaisa, MoMo,
Orange Money, UPI, Tigo Pesa, Airtel Money); medical record and hospital numbers, health
insurance numbers (TAJ, číslo pojištěnce, BPJS, BHXH, ABHA, NHIF, a US member id, kupat holim),
national numbers (Finnish henkilötunnus, Czech rodné číslo, Romanian CNP, Bangladeshi NID,
Ethiopian Fayda, Tanzanian NIDA, Ugandan NIN, PhilSys, Sri Lankan NIC, Danish CPR, Greek ΑΔΤ,
Persian-digit کد ملی) and tax numbers (Greek ΑΦΜ, Hungarian adóazonosító jel, Philippine TIN,
Bangladeshi e-TIN, Malaysian income-tax number), with their check digits; birth dates in the
Ethiopian, Thai Buddhist, Hebrew, Japanese era, Minguo and Bikram Sambat calendars and in the
same languages; phones in those countries; passwords dictated in voice-note transcripts in six
languages, with the speaker correcting a letter; values in an image's alt text, a link's title,
an e-mail signature, a git diff of the values, stack traces of PHP, Node, Rust, Elixir, .NET
and Ruby, log lines (logfmt, an access log, a JSON log, a sudo line, ``docker inspect``,
``kubectl describe``), JSON escaped inside a JSON string, a quoted-printable mail with the value
broken by a soft line break and an encoded subject, defaults behind references
(``${DB_PASSWORD:…}``, ``${PGPASSWORD:-…}``, ``os.getenv(…, "…")``, ``|| "…"``,
``ENV.fetch(…, "…")``), chat exports of WhatsApp, Telegram, Slack and SMS; and disguises none of
the earlier corpora try (Unicode tag characters, Cherokee letters drawn like Latin ones, Morse,
Braille, keycap emoji, Arabic-Indic digits, a right-to-left override, ``<wbr>``, a keyword
hyphenated over a line break, "the magic word", ascii85, gzip in base64, ROT47, hex with
colons, string concatenation, an HTML ``data-`` attribute and ``<meta>`` content).

Look-alikes (:func:`lookalikes`) must come through byte for byte: hashes and digests named as
such, UUIDs of public things (partition types, Bluetooth services, RFC namespaces), booking,
ticket and shipping references (PNRs, e-tickets, air waybills, S10 parcels, containers, bills of
lading), example keys marked as examples, the KMS client keys Microsoft publishes, Bible and
Quran references, public buildings' addresses, scores, recipes, chemical formulas, CAS numbers,
SMILES and InChIKeys, ISBNs, ISSNs, DOIs, ORCIDs, ISINs, LEIs, VINs and IMEIs named as such (an
IMEI names a handset, not a person, is printed on its box and read out to any repair shop, and
opens nothing: it is a look-alike here), lottery draws and raffle tickets, mobile-money receipts,
till and paybill numbers and USSD codes, public client keys (a Firebase web config, a Mapbox
``pk.`` token, a PostHog project key, a reCAPTCHA site key, a Sentry DSN, an analytics id),
public keys and fingerprints, the same files and commands reading their secrets from files,
commands or variables, log lines, traces, diffs and JSON with no secret in them, and password
policies and forgotten-password talk in the same languages.

Every value is fake: drawn from ``random.Random(20280119)``, with each scheme's check digits
computed (Luhn, mod 11, mod 97, Verhoeff-free national schemes, ISO 6346, S10, VIN, ISBN, CAS),
so each value is valid in form while naming no one.
"""

from __future__ import annotations

import base64
import functools
import gzip
import json
import random
import string
import urllib.parse
from collections.abc import Callable

import phonenumbers
from stdnum import casrn, imo, isin, iso6346, lei
from stdnum.cz import rc
from stdnum.dk import cpr
from stdnum.fi import hetu
from stdnum.gr import vat as gr_vat
from stdnum.iso7064 import mod_11_2
from stdnum.ro import cnp

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20280119)
_ALNUM = string.ascii_letters + string.digits
_URLSAFE = _ALNUM + "-_"
_B64 = _ALNUM + "+/"
_UPPER_ALNUM = string.ascii_uppercase + string.digits
_LOWER_ALNUM = string.ascii_lowercase + string.digits
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
    "Kilimanjaro",
    "sampaguita",
    "Mabuhay",
    "Thalassa",
    "Vltava",
    "Balaton",
    "Revontuli",
    "Carpati",
    "rambutan",
    "Padma",
    "golnar",
    "Lalibela",
    "jollof",
    "Mekong",
    "Tembo",
    "kalamansi",
    "Santorini",
    "Sauna",
    "durian",
    "Sundarban",
)


def _weak() -> str:
    """The password a person picks: a word, maybe capitalised, then a year or a number."""
    word = _RNG.choice(_WORDS)
    tail = _RNG.choice((str(_RNG.randint(1975, 2025)), _of(string.digits, 3), "!" + _digits(2)))
    return f"{word}{tail}"


def _pw() -> str:
    """Half strong, half weak, the mix people actually have."""
    return _strong(_RNG.randint(10, 16)) if _RNG.random() < 0.5 else _weak()


_URL_SAFE_PW = str.maketrans("?#@%&$+/", "_-!*.~_=")


def _urlpw() -> str:
    """A password that can stand in a URL's userinfo as it is."""
    return _strong(_RNG.randint(12, 18)).translate(_URL_SAFE_PW)


def _plain() -> str:
    """A password with no character a shell, a URL or an INI file would treat specially."""
    return _of(string.ascii_letters, 1) + _of(_ALNUM, _RNG.randint(11, 17))


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


def _rows(rows: list[tuple[str, str, tuple[str, ...]]]) -> list[Sample]:
    return [_s(family, text, *secrets) for family, text, secrets in rows]


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _uuid() -> str:
    return (
        f"{_of(_HEX, 8)}-{_of(_HEX, 4)}-4{_of(_HEX, 3)}-"
        f"{_RNG.choice('89ab')}{_of(_HEX, 3)}-{_of(_HEX, 12)}"
    )


def _jwt(payload: dict[str, object]) -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    return f"{head}.{body}.{_of(_URLSAFE, 43)}"


def _native(value: str, zero: str) -> str:
    """``value`` with its ASCII digits written in the script whose zero is ``zero``."""
    return value.translate(
        str.maketrans("0123456789", "".join(chr(ord(zero) + i) for i in range(10)))
    )


_PERSIAN_ZERO, _BENGALI_ZERO, _ARABIC_ZERO, _DEVANAGARI_ZERO = "۰", "০", "٠", "०"


def _aws_key_id(prefix: str = "AKIA") -> str:
    return prefix + _of("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)


def _aws_secret() -> str:
    return _of(_ALNUM + "/+", 40)


def _az_secret() -> str:
    return f"{_of(_ALNUM, 3)}8Q~{_of(_URLSAFE + '~.', 34)}"


def _app_password(sep: str = " ") -> str:
    return sep.join(_of(string.ascii_lowercase, 4) for _ in range(4))


# --- units, schedules and backups ------------------------------------------------------------


def _units_and_backups() -> list[Sample]:
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "systemd unit",
            f"[Service]\nSetCredential=dbpass:{(a := _plain())}\nLoadCredential=tls:/etc/ssl/app.pem\nExecStart=/opt/ledger/bin/ledger --db-pass-file=${{CREDENTIALS_DIRECTORY}}/dbpass",
            (a,),
        ),
        (
            "systemd unit",
            f"sudo systemctl set-environment RESTIC_PASSWORD='{(a := _pw())}' && sudo systemctl start restic-nightly",
            (a,),
        ),
        (
            "systemd unit",
            f"systemd-run --unit=backfill-once -E PGPASSWORD={(a := _plain())} /usr/local/bin/backfill --since 2026-10-01",
            (a,),
        ),
        (
            "systemd unit",
            f'[Service]\nEnvironment="SYNC_TOKEN={(a := _of(_ALNUM, 40))}" "LOG_LEVEL=info" "PORT=8088"\nExecStart=/opt/sync/bin/sync',
            (a,),
        ),
        (
            "systemd unit",
            f"# /etc/systemd/system/grafana-server.service.d/override.conf\n[Service]\nEnvironment=GF_SECURITY_ADMIN_PASSWORD={(a := _plain())}",
            (a,),
        ),
        (
            "systemd unit",
            f"ExecStart=/usr/bin/mosquitto_sub -h broker.lan -u meter -P {(a := _plain())} -t power/#",
            (a,),
        ),
        (
            "crontab",
            f"MAILTO=ops@corp.example\n*/10 * * * * curl -fsS -u uptime:{(a := _plain())} https://status.internal/api/ping >/dev/null",
            (a,),
        ),
        (
            "crontab",
            f"45 1 * * * PGPASSWORD='{(a := _pw())}' pg_dump -h db02 -U ledger ledger | zstd > /backup/ledger-$(date +\\%F).sql.zst",
            (a,),
        ),
        (
            "crontab",
            f"@weekly MYSQL_PWD={(a := _plain())} mysqldump -u root --all-databases | gzip > /srv/dump/all.sql.gz",
            (a,),
        ),
        (
            "crontab",
            f"0 7 * * 1-5 /usr/bin/python3 /opt/report/send.py --smtp-user reports --smtp-pass '{(a := _pw())}'",
            (a,),
        ),
        (
            "crontab",
            f"*/5 * * * * wget -q --user=feeds --password='{(a := _pw())}' -O /var/cache/feed.xml https://feeds.partner.example/export",
            (a,),
        ),
        (
            "backup tool",
            f"kopia repository connect s3 --bucket=kopia-family --access-key={(k := _aws_key_id())} --secret-access-key={(s := _aws_secret())} --password='{(p := _pw())}'",
            (k, s, p),
        ),
        (
            "backup tool",
            f"PASSPHRASE='{(p := _pw())}' duplicity /home/eleni b2://{'0025' + _of(_HEX, 20)}:{(s := 'K002' + _of(_ALNUM + '/+', 27))}@eleni-backup/laptop",
            (p, s),
        ),
        (
            "backup tool",
            f'Duplicati.CommandLine.exe backup "ftp://backup.lan/duplicati?auth-username=dup&auth-password={(a := _urlpw())}" C:\\Users\\ilkka --passphrase="{(b := _pw())}"',
            (a, b),
        ),
        (
            "backup tool",
            f"# /etc/pve/storage.cfg\npbs: backup-box\n\tdatastore store1\n\tserver 10.0.0.40\n\tusername backup@pbs\n\tfingerprint {':'.join(_of(_HEX, 2) for _ in range(32))}\n# password in /etc/pve/priv/storage/backup-box.pw: {(a := _plain())}",
            (a,),
        ),
        (
            "backup tool",
            f'<gui enabled="true" tls="true">\n    <address>127.0.0.1:8384</address>\n    <user>anna</user>\n    <apikey>{(a := _of(_ALNUM, 32))}</apikey>\n</gui>',
            (a,),
        ),
        (
            "backup tool",
            f"[nextcloud]\ntype = webdav\nurl = https://cloud.example.net/remote.php/dav/files/jana\nvendor = nextcloud\nuser = jana\npass = {(a := _of(_URLSAFE, 43))}",
            (a,),
        ),
        (
            "backup tool",
            f"[wasabi]\ntype = s3\nprovider = Wasabi\naccess_key_id = {(k := _of(_UPPER_ALNUM, 20))}\nsecret_access_key = {(s := _aws_secret())}\nendpoint = s3.eu-central-2.wasabisys.com",
            (k, s),
        ),
        (
            "backup tool",
            f"restic -r rest:https://laptop:{(a := _urlpw())}@restic.home.lan:8000/laptop snapshots",
            (a,),
        ),
    ]
    return _rows(rows)


# --- config files ----------------------------------------------------------------------------


def _config_files() -> list[Sample]:
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "yaml file",
            f"spring:\n  mail:\n    host: smtp.gmail.com\n    port: 587\n    username: shop.alerts\n    password: {(a := _app_password())}",
            (a,),
        ),
        (
            "yaml file",
            f'api:\n  encryption:\n    key: "{(a := base64.b64encode(_RNG.randbytes(32)).decode())}"\nota:\n  - platform: esphome\n    password: "{(b := _of(_HEX, 32))}"',
            (a, b),
        ),
        (
            "yaml file",
            f'network:\n  version: 2\n  wifis:\n    wlan0:\n      dhcp4: true\n      access-points:\n        "Kahawa-5G":\n          password: "{(a := _pw())}"',
            (a,),
        ),
        (
            "yaml file",
            f"#cloud-config\nchpasswd:\n  expire: false\n  users:\n    - name: ubuntu\n      password: {(a := _plain())}\n      type: text",
            (a,),
        ),
        (
            "yaml file",
            f'apiVersion: 1\ndatasources:\n  - name: Timescale\n    type: postgres\n    url: tsdb.internal:5432\n    user: grafana\n    secureJsonData:\n      password: "{(a := _pw())}"',
            (a,),
        ),
        (
            "yaml file",
            f'http:\n  middlewares:\n    dash-auth:\n      basicAuth:\n        users:\n          - "admin:{"$apr1$" + _of(_ALNUM, 8) + "$" + _of(_ALNUM + "./", 22)}"\n  # plain one for the team: admin / {(b := _pw())}',
            (b,),
        ),
        (
            "yaml file",
            f"auth:\n  rootPassword: {(a := _plain())}\n  replicaSetKey: {(b := _of(_ALNUM, 32))}\narchitecture: replicaset",
            (a, b),
        ),
        (
            "toml file",
            f'[[outputs.influxdb_v2]]\n  urls = ["http://influx.lan:8086"]\n  token = "{(a := _of(_URLSAFE, 86) + "==")}"\n  organization = "home"\n  bucket = "sensors"',
            (a,),
        ),
        (
            "toml file",
            f'# .streamlit/secrets.toml\n[connections.postgresql]\ndialect = "postgresql"\nhost = "db.internal"\nusername = "st_app"\npassword = "{(a := _pw())}"',
            (a,),
        ),
        (
            "toml file",
            f'[[runners]]\n  name = "build-01"\n  url = "https://gitlab.com/"\n  token = "{(a := "glrt-" + _of(_URLSAFE, 20))}"\n  executor = "docker"',
            (a,),
        ),
        (
            "toml file",
            f'# Rocket.toml\n[release]\nsecret_key = "{(a := base64.b64encode(_RNG.randbytes(32)).decode())}"\naddress = "0.0.0.0"',
            (a,),
        ),
        (
            "toml file",
            f'[build.environment]\n  HUGO_VERSION = "0.139.0"\n  ALGOLIA_ADMIN_KEY = "{(a := _of(_HEX, 32))}"',
            (a,),
        ),
        (
            "ini file",
            f"# /etc/samba/creds-nas (chmod 600)\nusername=anna\npassword={(a := _pw())}\ndomain=WORKGROUP",
            (a,),
        ),
        (
            "ini file",
            f"[security]\nadmin_user = admin\nadmin_password = {(a := _pw())}\nsecret_key = {(b := _of(_ALNUM, 24))}",
            (a, b),
        ),
        (
            "ini file",
            f"[Login]\nServer=kasse01\nUser=kasse\nPwd={(a := _plain())}\nAutoStart=1",
            (a,),
        ),
        (
            "ini file",
            f"[global]\nindex-url = https://__token__:{(a := 'glpat-' + _of(_URLSAFE, 20))}@gitlab.example.org/api/v4/projects/42/packages/pypi/simple",
            (a,),
        ),
        (
            "hcl file",
            f'job "ledger" {{\n  group "api" {{\n    task "api" {{\n      template {{\n        data        = <<EOH\nDB_PASS={(a := _plain())}\nEOH\n        destination = "secrets/app.env"\n        env         = true\n      }}\n    }}\n  }}\n}}',
            (a,),
        ),
        (
            "hcl file",
            f'source "proxmox-iso" "debian12" {{\n  proxmox_url  = "https://pve.lan:8006/api2/json"\n  username     = "root@pam"\n  password     = "{(a := _pw())}"\n  ssh_password = "{(b := _plain())}"\n}}',
            (a, b),
        ),
        (
            "hcl file",
            f"export CONSUL_HTTP_TOKEN={(a := _uuid())}\nconsul kv get -recurse config/",
            (a,),
        ),
        (
            "hcl file",
            f'provider "boundary" {{\n  addr                   = "https://boundary.corp.example:9200"\n  auth_method_login_name = "ops"\n  auth_method_password   = "{(a := _pw())}"\n}}',
            (a,),
        ),
        (
            "hcl file",
            f'# terraform.tfvars\nhcloud_token = "{(a := _of(_ALNUM, 64))}"\nlocation     = "fsn1"',
            (a,),
        ),
        (
            "ansible",
            f"# group_vars/kiosks.yml\nansible_user: kiosk\nansible_become_password: {(a := _pw())}\nkiosk_url: https://menu.cafe.example",
            (a,),
        ),
        (
            "ansible",
            f"[printers]\nprn-lobby ansible_host=10.0.8.21 ansible_user=admin ansible_password={(a := _plain())} ansible_connection=ssh",
            (a,),
        ),
        (
            "ansible",
            f'- name: wifi for the office\n  community.general.nmcli:\n    conn_name: office\n    type: wifi\n    ssid: Ofisi-Kuu\n    wifi_sec:\n      key-mgmt: wpa-psk\n      psk: "{(a := _pw())}"',
            (a,),
        ),
        (
            "ansible",
            f'ansible-playbook site.yml -l db -e "postgres_admin_password={(a := _plain())}"',
            (a,),
        ),
        (
            "dockerfile",
            f'FROM node:22-alpine\nARG NPM_TOKEN={(a := "npm_" + _of(_ALNUM, 36))}\nRUN echo "//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}" > .npmrc && npm ci',
            (a,),
        ),
        (
            "dockerfile",
            f"FROM minio/minio:latest\nENV MINIO_ROOT_USER=admin\nENV MINIO_ROOT_PASSWORD={(a := _plain())}",
            (a,),
        ),
        (
            "dockerfile",
            f"docker build --build-arg GH_TOKEN={(a := 'ghp_' + _of(_ALNUM, 36))} -t registry.lan/app:1.8 .",
            (a,),
        ),
        (
            "proxy setting",
            f"export https_proxy=http://a.novak:{(a := _urlpw())}@proxy.firma.cz:3128",
            (a,),
        ),
        (
            "proxy setting",
            f'# /etc/apt/apt.conf.d/95proxy\nAcquire::http::Proxy "http://build:{(a := _urlpw())}@10.20.0.1:8080/";',
            (a,),
        ),
        (
            "proxy setting",
            f"npm config set https-proxy http://svc_npm:{(a := _urlpw())}@proxy.corp.lan:8080",
            (a,),
        ),
        (
            "proxy setting",
            f"git config --global http.proxy http://jdoe:{(a := _urlpw())}@proxy.corp.lan:3128",
            (a,),
        ),
        (
            "app password",
            f"gmail app password for the scanner (it can't do 2FA): {(a := _app_password())}",
            (a,),
        ),
        (
            "app password",
            f"app-specific password for Thunderbird on the old Mac: {(a := _app_password('-'))}",
            (a,),
        ),
        (
            "app password",
            f"Outlook app password for the printer's scan-to-mail → {(a := _of(string.ascii_lowercase, 16))}",
            (a,),
        ),
    ]
    return _rows(rows)


# --- command lines ---------------------------------------------------------------------------


def _command_lines() -> list[Sample]:
    basic_user = f"svc-jira:{_pw()}"
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "curl / wget",
            f"curl -s -H 'Authorization: Basic {(a := _b64(basic_user))}' https://jira.corp.example/rest/api/2/myself | jq .name",
            (a,),
        ),
        (
            "curl / wget",
            f"curl -X POST https://login.microsoftonline.com/{_uuid()}/oauth2/v2.0/token -d 'client_id={_uuid()}&client_secret={(a := _az_secret())}&grant_type=client_credentials&scope=https://graph.microsoft.com/.default'",
            (a,),
        ),
        (
            "curl / wget",
            f'curl -H "X-Auth-Email: dns@corp.example" -H "X-Auth-Key: {(a := _of(_HEX, 37))}" https://api.cloudflare.com/client/v4/zones',
            (a,),
        ),
        (
            "curl / wget",
            f"http --auth-type=bearer --auth {(a := _of(_ALNUM, 48))} GET https://api.example.org/v3/me",
            (a,),
        ),
        (
            "curl / wget",
            f"wget --ftp-user=scanner --ftp-password='{(a := _pw())}' ftp://192.168.1.20/scans/2026-11-19.pdf",
            (a,),
        ),
        (
            "curl / wget",
            f"aria2c --http-user=media --http-passwd={(a := _plain())} https://seedbox.example.net/dl/holiday.mkv",
            (a,),
        ),
        (
            "curl / wget",
            f'Invoke-RestMethod -Uri https://api.example.org/v2/users -Headers @{{ "X-API-Key" = "{(a := _of(_ALNUM, 40))}" }}',
            (a,),
        ),
        (
            "cli password",
            f"mosquitto_pub -h broker.lan -p 8883 -u sensor-07 -P '{(a := _pw())}' -t home/attic/temp -m 18.4",
            (a,),
        ),
        (
            "cli password",
            f"sftp -o PasswordAuthentication=yes upload@files.partner.example  # pw {(a := _pw())}",
            (a,),
        ),
        (
            "cli password",
            f"ffmpeg -rtsp_transport tcp -i rtsp://admin:{(a := _urlpw())}@192.168.1.64:554/Streaming/Channels/101 -t 60 clip.mp4",
            (a,),
        ),
        (
            "cli password",
            f"sqlplus system/{(a := _plain())}@//db01.corp.lan:1521/ORCLPDB1",
            (a,),
        ),
        (
            "cli password",
            f"rabbitmqctl add_user metrics '{(a := _pw())}' && rabbitmqctl set_user_tags metrics monitoring",
            (a,),
        ),
        (
            "cli password",
            f"influx auth create --org home --read-buckets --token {(a := _of(_URLSAFE, 86) + '==')}",
            (a,),
        ),
        (
            "deploy cli",
            f"helm repo add internal https://charts.corp.example --username ci --password '{(a := _pw())}'",
            (a,),
        ),
        (
            "deploy cli",
            f"vault kv put secret/shop/smtp user=mailer password='{(a := _pw())}'",
            (a,),
        ),
        (
            "deploy cli",
            f"fly secrets set DATABASE_URL=postgres://shop:{(a := _urlpw())}@shop-db.flycast:5432/shop -a shop-prod",
            (a,),
        ),
        (
            "deploy cli",
            f"aws configure set aws_secret_access_key {(a := _aws_secret())} --profile backup",
            (a,),
        ),
        (
            "deploy cli",
            f"gcloud secrets versions add stripe-key --data-file=- <<< '{(a := 'sk_live_' + _of(_ALNUM, 99))}'",
            (a,),
        ),
        (
            "deploy cli",
            f"doctl registry login --access-token {(a := 'dop_v1_' + _of(_HEX, 64))}",
            (a,),
        ),
        (
            "sql statement",
            f"ALTER CURRENT USER SET PASSWORD FROM '{(a := _pw())}' TO '{(b := _pw())}';",
            (a, b),
        ),
        (
            "sql statement",
            f"CREATE ROLE analyst WITH PASSWORD = '{(a := _pw())}' AND LOGIN = true;",
            (a,),
        ),
        (
            "sql statement",
            f"ALTER USER LOADER SET PASSWORD = '{(a := _pw())}' MUST_CHANGE_PASSWORD = FALSE;",
            (a,),
        ),
        (
            "sql statement",
            f"CREATE USER grafana IDENTIFIED WITH sha256_password BY '{(a := _pw())}' SETTINGS readonly = 1;",
            (a,),
        ),
        (
            "sql statement",
            f"CREATE USER ledger_app WITH LOGIN PASSWORD '{(a := _pw())}';  -- cockroach",
            (a,),
        ),
        (
            "sql statement",
            f"DEFINE USER reporter ON DATABASE PASSWORD '{(a := _pw())}' ROLES VIEWER;",
            (a,),
        ),
        (
            "sql statement",
            f"CREATE USER KASSA PASSWORD '{(a := _plain()[:8])}';  -- firebird, 8 chars max",
            (a,),
        ),
    ]
    return _rows(rows)


# --- keys ------------------------------------------------------------------------------------


def _key_lines(count: int, width: int = 70) -> list[str]:
    return [_of(_B64, width) for _ in range(count)]


def _keys() -> list[Sample]:
    middle = _key_lines(4)
    head = _key_lines(3)
    pgp = ["lQdGBG" + _of(_B64, 58), *_key_lines(5, 64)]
    ppk_private = [_of(_B64, 64)]
    wg_private = base64.b64encode(_RNG.randbytes(32)).decode()
    wg_psk = base64.b64encode(_RNG.randbytes(32)).decode()
    wg_public = base64.b64encode(_RNG.randbytes(32)).decode()
    jwk_d = base64.urlsafe_b64encode(_RNG.randbytes(32)).decode().rstrip("=")
    enc_line = _of(_B64, 64)
    enc_pass = _pw()
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "key block, in part",
            "lines 3-6 of the deploy key (the rest is on the usb stick in the drawer):\n"
            + "\n".join(middle),
            tuple(middle),
        ),
        (
            "key block, in part",
            "-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + "\n".join(head)
            + "\n[… cut, phone screen ended here]",
            tuple(head),
        ),
        (
            "key block, in part",
            "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: anna@laptop, backup 2026\n\n"
            + "\n".join(pgp)
            + f"\n={_of(_B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----",
            tuple(pgp),
        ),
        (
            "key block, in part",
            f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eduroam-box\nPublic-Lines: 2\n{_of(_B64, 64)}\n{_of(_B64, 16)}\nPrivate-Lines: 1\n{ppk_private[0]}\nPrivate-MAC: {_of(_HEX, 64)}",
            tuple(ppk_private),
        ),
        (
            "key block, in part",
            f"[Interface]\nPrivateKey = {wg_private}\nAddress = 10.8.0.7/32\nDNS = 10.8.0.1\n\n[Peer]\nPublicKey = {wg_public}\nPresharedKey = {wg_psk}\nEndpoint = vpn.example.net:51820\nAllowedIPs = 0.0.0.0/0",
            (wg_private, wg_psk),
        ),
        (
            "key block, in part",
            f'{{"kty":"OKP","crv":"Ed25519","x":"{base64.urlsafe_b64encode(_RNG.randbytes(32)).decode().rstrip("=")}","d":"{jwk_d}","kid":"signing-2026"}}',
            (jwk_d,),
        ),
        (
            "key block, in part",
            f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{enc_line}\n…\n-----END ENCRYPTED PRIVATE KEY-----\nand its passphrase, so it's not useless: {enc_pass}",
            (enc_line, enc_pass),
        ),
    ]
    return _rows(rows)


# --- links, hooks, bots and OAuth clients ----------------------------------------------------


def _links_and_clients() -> list[Sample]:
    s3_sig, s3_key = _of(_HEX, 64), _aws_key_id()
    sts_key, sts_token, sts_sig = (
        _aws_key_id("ASIA"),
        urllib.parse.quote(_of(_B64, 300) + "==", safe=""),
        _of(_HEX, 64),
    )
    gcs_sig = _of(_HEX, 512)
    cf_sig = base64.b64encode(_RNG.randbytes(128)).decode().translate(str.maketrans("+=/", "-_~"))
    sas_sig = urllib.parse.quote(base64.b64encode(_RNG.randbytes(32)).decode(), safe="")
    sb_key = base64.b64encode(_RNG.randbytes(32)).decode()
    eh_sig = urllib.parse.quote(base64.b64encode(_RNG.randbytes(32)).decode(), safe="")
    snowflake = _digits(19)
    discord = (
        base64.b64encode(snowflake.encode()).decode().rstrip("=")
        + "."
        + _of(_URLSAFE, 6)
        + "."
        + _of(_URLSAFE, 38)
    )
    matrix_user = base64.b64encode(b"ilkka").decode().rstrip("=")
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "signed url",
            f"report link for the auditors (valid 7 days): https://acme-reports.s3.eu-west-1.amazonaws.com/2026/q3.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={s3_key}%2F20261119%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20261119T081402Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={s3_sig}",
            (s3_key, s3_sig),
        ),
        (
            "signed url",
            f"https://media-uploads.s3.amazonaws.com/raw/clip.mov?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={sts_key}%2F20261119%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261119T090000Z&X-Amz-Expires=3600&X-Amz-Security-Token={sts_token}&X-Amz-SignedHeaders=host&X-Amz-Signature={sts_sig}",
            (sts_key, sts_token, sts_sig),
        ),
        (
            "signed url",
            f"upload here, expires in 15 min: https://storage.googleapis.com/scans-inbox/batch-7.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=uploader%40scans-prod.iam.gserviceaccount.com%2F20261119%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20261119T101500Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={gcs_sig}",
            (gcs_sig,),
        ),
        (
            "signed url",
            f"https://d111111abcdef8.cloudfront.net/course/lesson-04.mp4?Expires=1795000000&Signature={cf_sig}&Key-Pair-Id=K2JCJMDEHXQW5F",
            (cf_sig,),
        ),
        (
            "sas token",
            f"photos container, read+write till new year: https://stfamilyphotos.blob.core.windows.net/photos?sv=2022-11-02&ss=b&srt=sco&sp=rwdlacupiytfx&se=2026-12-31T23:59:59Z&st=2026-11-19T08:00:00Z&spr=https&sig={sas_sig}",
            (sas_sig,),
        ),
        (
            "sas token",
            f"Endpoint=sb://orders-ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={sb_key}",
            (sb_key,),
        ),
        (
            "sas token",
            f"Authorization: SharedAccessSignature sr=telemetry-hub.servicebus.windows.net%2Fdevices&sig={eh_sig}&se=1795000000&skn=send",
            (eh_sig,),
        ),
        (
            "chat webhook",
            f"standup reminder posts to https://chat.googleapis.com/v1/spaces/AAAA{_of(_URLSAFE, 7)}/messages?key=AIzaSy{_of(_URLSAFE, 33)}&token={(a := _of(_URLSAFE, 43))}",
            (a,),
        ),
        (
            "chat webhook",
            f"MATTERMOST_HOOK=https://mm.corp.example/hooks/{(a := _of(_LOWER_ALNUM, 26))}",
            (a,),
        ),
        (
            "chat webhook",
            f"rocket.chat integration: https://chat.club.example/hooks/{_of(_ALNUM, 17)}/{(a := _of(_ALNUM, 48))}",
            (a,),
        ),
        (
            "chat webhook",
            f"钉钉机器人：https://oapi.dingtalk.com/robot/send?access_token={(a := _of(_HEX, 64))}",
            (a,),
        ),
        (
            "chat webhook",
            f"企业微信群机器人 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={(a := _uuid())}",
            (a,),
        ),
        (
            "chat webhook",
            f"飞书 bot: https://open.feishu.cn/open-apis/bot/v2/hook/{(a := _uuid())}",
            (a,),
        ),
        (
            "chat webhook",
            f"door sensor automation calls http://homeassistant.local:8123/api/webhook/{(a := 'front-door-' + _of(_URLSAFE, 24))}",
            (a,),
        ),
        (
            "chat webhook",
            f"curl -X POST 'https://jenkins.corp.example/buildByToken/build?job=deploy-web&token={(a := _of(_HEX, 32))}'",
            (a,),
        ),
        (
            "bot token",
            f"for the standup bot you need the app-level token too, socket mode: {(a := 'xapp-1-A' + _of(_UPPER_ALNUM, 10) + '-' + _digits(13) + '-' + _of(_HEX, 64))}",
            (a,),
        ),
        (
            "bot token",
            f"token rotation is on, so store the refresh token as well: {(a := 'xoxe-1-' + _of(_ALNUM, 146))}",
            (a,),
        ),
        (
            "bot token",
            f"regenerated the discord bot token after Jonas pasted it in #general, new one {discord}",
            (discord,),
        ),
        (
            "bot token",
            f"matrix access token for the reminder bot: {(a := 'syt_' + matrix_user + '_' + _of(_ALNUM, 20) + '_' + _of(_ALNUM, 6))}",
            (a,),
        ),
        (
            "bot token",
            f"WhatsApp Cloud API permanent token (system user): {(a := 'EAAG' + _of(_ALNUM, 180))}",
            (a,),
        ),
        (
            "bot token",
            f"LINE channel access token (long-lived) {(a := _of(_B64, 171) + '=')}",
            (a,),
        ),
        (
            "bot token",
            f"viber bot auth token: {(a := f'{_of(_LOWER_ALNUM, 16)}-{_of(_LOWER_ALNUM, 16)}-{_of(_LOWER_ALNUM, 16)}')}",
            (a,),
        ),
        (
            "bot token",
            f"카카오 REST API 키 {(a := _of(_HEX, 32))} (관리자 키는 따로)",
            (a,),
        ),
        (
            "oauth client secret",
            json.dumps(
                {
                    "domain": "shop-eu.eu.auth0.com",
                    "clientId": _of(_ALNUM, 32),
                    "clientSecret": (a := _of(_URLSAFE, 64)),
                }
            ),
            (a,),
        ),
        (
            "oauth client secret",
            json.dumps(
                {
                    "realm": "staff",
                    "auth-server-url": "https://sso.corp.example/",
                    "resource": "wiki",
                    "credentials": {"secret": (a := _of(_ALNUM, 32))},
                },
                indent=2,
            ),
            (a,),
        ),
        (
            "oauth client secret",
            f"Spotify app for the party playlist: client id {_of(_HEX, 32)}, client secret {(a := _of(_HEX, 32))}",
            (a,),
        ),
        (
            "oauth client secret",
            json.dumps(
                {
                    "api_key": _of(_ALNUM, 25),
                    "api_key_secret": (a := _of(_ALNUM, 50)),
                    "bearer_token": (b := "AAAAAAAAAAAAAAAAAAAAA" + _of(_ALNUM + "%", 90)),
                }
            ),
            (a, b),
        ),
        (
            "oauth client secret",
            f"LINKEDIN_CLIENT_ID={_of(_LOWER_ALNUM, 14)}\nLINKEDIN_CLIENT_SECRET={(a := 'WPL_AP1.' + _of(_ALNUM, 16) + '.' + _of(_ALNUM, 8) + '==')}",
            (a,),
        ),
        (
            "oauth client secret",
            f"reddit script app: client_id={_of(_URLSAFE, 22)} client_secret={(a := _of(_URLSAFE, 30))} user_agent=modbot/0.3",
            (a,),
        ),
        (
            "oauth client secret",
            f'{{"client_id": {_RNG.randint(100000, 199999)}, "client_secret": "{(a := _of(_HEX, 40))}", "refresh_token": "{(b := _of(_HEX, 40))}"}}',
            (a, b),
        ),
        (
            "oauth client secret",
            f"Zoom server-to-server app: account id {_of(_URLSAFE, 22)}, client id {_of(_URLSAFE, 22)}, secret {(a := _of(_ALNUM, 32))}",
            (a,),
        ),
        (
            "firebase",
            f"curl 'https://shop-app-default-rtdb.europe-west1.firebasedatabase.app/orders.json?auth={(a := _of(_ALNUM, 40))}'",
            (a,),
        ),
        (
            "firebase",
            f'firebase functions:config:set stripe.secret="{(a := "sk_live_" + _of(_ALNUM, 99))}" mail.pass="{(b := _pw())}"',
            (a, b),
        ),
        (
            "url fragment",
            f"after login it bounced to https://app.example.com/callback#access_token={(a := 'ya29.a0' + _of(_URLSAFE, 150))}&token_type=Bearer&expires_in=3599&scope=email",
            (a,),
        ),
        (
            "url fragment",
            f"reset link from the mail, didn't use it yet: https://accounts.example.org/reset#token={(a := _of(_URLSAFE, 48))}",
            (a,),
        ),
        (
            "url fragment",
            f"https://app.example.com/#access_token={(a := _jwt({'sub': _uuid(), 'role': 'authenticated', 'exp': 1795000000}))}&expires_in=3600&refresh_token={(b := _of(_URLSAFE, 22))}&token_type=bearer&type=magiclink",
            (a, b),
        ),
        (
            "shared link key",
            f"scans of the passports: https://mega.nz/file/{_of(_ALNUM, 8)}#{(a := _of(_URLSAFE, 43))}",
            (a,),
        ),
        (
            "shared link key",
            f"pasted the config here, burns after reading: https://paste.example.org/?{_of(_HEX, 16)}#{(a := _of('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 44))}",
            (a,),
        ),
        (
            "shared link key",
            f"whiteboard with the network plan https://excalidraw.com/#json={_of(_URLSAFE, 20)},{(a := _of(_URLSAFE, 22))}",
            (a,),
        ),
        (
            "shared link key",
            f"Bitwarden Send with the recovery codes: https://send.bitwarden.com/#{_of(_URLSAFE, 22)}/{(a := _of(_URLSAFE, 22))}",
            (a,),
        ),
    ]
    return _rows(rows)


# --- vendor keys -----------------------------------------------------------------------------

_VENDORS: tuple[tuple[str, str, Callable[[], str]], ...] = (
    ("ai", "XAI_API_KEY={}", lambda: "xai-" + _of(_ALNUM, 80)),
    ("ai", "perplexity key for the research script {}", lambda: "pplx-" + _of(_ALNUM, 48)),
    ("ai", "openrouter: {}", lambda: "sk-or-v1-" + _of(_HEX, 64)),
    ("ai", "DeepSeek API key {}", lambda: "sk-" + _of(_HEX, 32)),
    ("ai", "PINECONE_API_KEY: {}", lambda: "pcsk_" + _of(_ALNUM, 5) + "_" + _of(_ALNUM, 63)),
    (
        "ai",
        "LANGSMITH_API_KEY={}",
        lambda: "lsv2_pt_" + _of(_HEX, 32) + "_" + _of(_HEX, 10),
    ),
    ("ai", "together.ai key {}", lambda: _of(_HEX, 64)),
    ("ai", "fireworks: {}", lambda: "fw_" + _of(_ALNUM, 24)),
    ("ai", "GEMINI_API_KEY={}", lambda: "AIza" + _of(_URLSAFE, 35)),
    ("ai", "DeepL Pro auth key {}", lambda: _uuid() + ":fx"),
    ("ai", "Deepgram key for the voice notes: {}", lambda: _of(_HEX, 40)),
    ("ai", "AssemblyAI token {}", lambda: _of(_HEX, 32)),
    ("ai", "stability key {}", lambda: "sk-" + _of(_ALNUM, 48)),
    ("devops", "VERCEL_TOKEN={}", lambda: _of(_ALNUM, 24)),
    ("devops", "railway project token {}", _uuid),
    ("devops", "netlify personal access token {}", lambda: "nfp_" + _of(_ALNUM, 36)),
    ("devops", "supabase CLI: SUPABASE_ACCESS_TOKEN={}", lambda: "sbp_" + _of(_HEX, 40)),
    ("devops", "x-hasura-admin-secret: {}", lambda: _of(_ALNUM, 32)),
    ("devops", "appwrite API key {}", lambda: "standard_" + _of(_HEX, 256)),
    (
        "devops",
        "CONVEX_DEPLOY_KEY={}",
        lambda: (
            "prod:" + _of(string.ascii_lowercase, 12) + "-" + _digits(3) + "|" + _of(_ALNUM, 60)
        ),
    ),
    (
        "devops",
        "tailscale API key {}",
        lambda: "tskey-api-k" + _of(_ALNUM, 11) + "CNTRL-" + _of(_ALNUM, 33),
    ),
    ("devops", "ZeroTier API token: {}", lambda: _of(_ALNUM, 32)),
    ("devops", "UptimeRobot main API key {}", lambda: "u" + _digits(7) + "-" + _of(_HEX, 24)),
    ("devops", "opsgenie GenieKey {}", _uuid),
    (
        "devops",
        '{"routing_key": "{}", "event_action": "trigger"}',
        lambda: "R0" + _of(_UPPER_ALNUM, 30),
    ),
    ("devops", "gotify app token {}", lambda: "A" + _of(_URLSAFE, 14)),
    (
        "devops",
        "sentry org auth token {}",
        lambda: "sntrys_" + _of(_ALNUM, 74) + "_" + _of(_ALNUM, 43),
    ),
    (
        "payments",
        "PADDLE_API_KEY={}",
        lambda: (
            "pdl_live_apikey_"
            + _of(_LOWER_ALNUM, 26)
            + "_"
            + _of(_ALNUM, 22)
            + "_"
            + _of(_ALNUM, 3)
        ),
    ),
    ("payments", "RevenueCat secret key {}", lambda: "sk_" + _of(_ALNUM, 32)),
    (
        "payments",
        "lemon squeezy key: {}",
        lambda: _jwt({"aud": "1", "jti": _of(_HEX, 32), "sub": _digits(6)}),
    ),
    ("payments", "Paystack live secret {}", lambda: "sk_live_" + _of(_HEX, 40)),
    (
        "payments",
        "Adyen API key for the POS: {}",
        lambda: "AQE" + _of(_ALNUM, 9) + "+" + _of(_B64, 120) + "==",
    ),
    ("payments", "PayPal REST app secret {}", lambda: "E" + _of(_URLSAFE, 79)),
    ("payments", "Wise API token (read only, personal) {}", _uuid),
    ("payments", "binance API secret {}", lambda: _of(_ALNUM, 64)),
    ("payments", "Braintree private key: {}", lambda: _of(_HEX, 32)),
    ("messaging", "brevo: {}", lambda: "xkeysib-" + _of(_HEX, 64) + "-" + _of(_ALNUM, 16)),
    ("messaging", "Mandrill key {}", lambda: "md-" + _of(_URLSAFE, 22)),
    ("messaging", "SparkPost API key {}", lambda: _of(_HEX, 40)),
    ("messaging", "Vonage api_secret {}", lambda: _of(_ALNUM, 16)),
    ("messaging", "plivo auth token: {}", lambda: _of(_ALNUM, 40)),
    ("messaging", "PUSHER_APP_SECRET={}", lambda: _of(_HEX, 20)),
    (
        "messaging",
        "ably root key {}",
        lambda: f"{_of(_URLSAFE, 6)}.{_of(_URLSAFE, 6)}:{_of(_URLSAFE, 43)}",
    ),
    ("cloud", "R2 secret access key {}", lambda: _of(_HEX, 64)),
    ("cloud", "linode personal access token {}", lambda: _of(_HEX, 64)),
    ("cloud", "Vultr API key: {}", lambda: _of(_UPPER_ALNUM, 36)),
    ("cloud", "OVH application secret {}", lambda: _of(_ALNUM, 32)),
    ("cloud", "OCI auth token for docker login: {}", lambda: _of(_ALNUM + "(){}<>:;.#+-_", 20)),
    ("cloud", "IBM Cloud API key {}", lambda: _of(_URLSAFE, 44)),
    ("cloud", "meilisearch master key {}", lambda: _of(_URLSAFE, 43)),
    ("cloud", "typesense admin key {}", lambda: _of(_ALNUM, 32)),
    ("apps", "zendesk API token {}", lambda: _of(_ALNUM, 40)),
    ("apps", "intercom access token {}", lambda: _b64("tok:" + _uuid())),
    ("apps", "freshdesk api key {}", lambda: _of(_ALNUM, 20)),
    ("apps", "Webflow site token {}", lambda: _of(_HEX, 64)),
    ("apps", "miro access token {}", lambda: "eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_" + _of(_URLSAFE, 27)),
    ("apps", "Calendly PAT {}", lambda: _jwt({"iss": "https://auth.calendly.com", "jti": _uuid()})),
    ("apps", "Rollbar post_server_item token {}", lambda: _of(_HEX, 32)),
    ("apps", "Bugsnag API key {}", lambda: _of(_HEX, 32)),
    ("apps", "Mixpanel service account secret {}", lambda: _of(_ALNUM, 32)),
    ("apps", "Lokalise API token {}", lambda: _of(_HEX, 40)),
    ("apps", "crowdin personal token {}", lambda: _of(_HEX, 80)),
    ("games", "Steam Web API key {}", lambda: _of("0123456789ABCDEF", 32)),
    ("games", "psn npsso (for the trophy script) {}", lambda: _of(_ALNUM, 64)),
    (
        "games",
        ".ROBLOSECURITY={}",
        lambda: (
            "_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-ROBUX-and-items.|_"
            + _of("0123456789ABCDEF", 300)
        ),
    ),
    ("games", "last.fm shared secret {}", lambda: _of(_HEX, 32)),
)


def _vendor_keys() -> list[Sample]:
    out = []
    for kind, template, make in _VENDORS:
        out += _each(f"vendor key ({kind})", (template,), make)
    return out


# --- passwords in prose ----------------------------------------------------------------------

_PROSE: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "sw",
        (
            "Nimebadilisha nenosiri la benki kuwa {} jana usiku",
            "ingia kwa jina la mtumiaji juma.k na nywila {}",
            "nywila ya wifi ya ofisini ni {}, usiibandike ubaoni",
        ),
    ),
    (
        "tl",
        (
            "pinalitan ko na yung password ng wifi, {} na ngayon",
            "yung pass ng Netflix natin: {} wag mong ipamigay ha",
            "Ito ang bagong password ng account ni Lola: {}",
        ),
    ),
    (
        "th",
        (
            "เปลี่ยนรหัสผ่านอีเมลเป็น {} แล้วนะ",
            "รหัสเข้าเครื่องที่ร้าน {} อย่าบอกใคร",
            "พาสเวิร์ดไวไฟบ้านแม่ {}",
        ),
    ),
    (
        "el",
        (
            "Άλλαξα τον κωδικό του email σε {}",
            "ο κωδικός για το wifi του εξοχικού: {}",
            "ο κωδικός μου στο taxisnet είναι {}, μην τον πεις",
        ),
    ),
    (
        "he",
        (
            "שיניתי את הסיסמה של הבנק ל-{}",
            "הסיסמא לוויי-פיי של המשרד: {}",
            "סיסמתי לאתר של הביטוח לאומי היא {}",
        ),
    ),
    (
        "cs",
        (
            "Změnil jsem heslo k e-mailu na {}",
            "přihlas se heslem {} a pak si ho změň",
            "heslo na wifinu u babičky je pořád {}",
        ),
    ),
    (
        "hu",
        (
            "Megváltoztattam a jelszót erre: {}",
            "a wifi jelszava {}",
            "az ügyfélkapus jelszavam {}, ne add tovább",
        ),
    ),
    (
        "fi",
        (
            "vaihdoin sähköpostin salasanaksi {}",
            "kirjaudu salasanalla {} ja vaihda se heti",
            "wlanin salasana on {}",
        ),
    ),
    (
        "ro",
        (
            "Am schimbat parola de la mail în {}",
            "parola de la wifi e {}",
            "parola contului de ANAF: {} — n-o da nimănui",
        ),
    ),
    (
        "ms",
        (
            "Kata laluan baru untuk akaun bank saya ialah {}",
            "katalaluan wifi rumah mak: {}",
            "dah tukar kata laluan jadi {}",
        ),
    ),
    (
        "bn",
        (
            "আমার ইমেইলের পাসওয়ার্ড বদলে {} করেছি",
            "ওয়াইফাই পাসওয়ার্ডটা হলো {}",
            "অফিসের কম্পিউটারের পাসওয়ার্ড: {}",
        ),
    ),
    (
        "fa",
        (
            "رمز ایمیلم رو عوض کردم، الان {} هست",
            "رمز وای‌فای خونه: {}",
            "رمزم برای سامانه‌ی مالیات {} است",
        ),
    ),
    (
        "am",
        (
            "የኢሜል የይለፍ ቃሌ {} ነው",
            "የዋይፋይ የይለፍ ቃል፡ {}",
            "የይለፍ ቃሉን ወደ {} ቀይሬዋለሁ",
        ),
    ),
    (
        "more languages",
        (
            "Password yange eri {}",
            "password yakwa nĩ {}",
            "Ti password ko ket {}",
            "Ang password ko sa email amo ang {}",
            "हमार पासवर्ड {} बा",
            "हमर पासवर्ड {} अछि",
            "म्हजो पासवर्ड {} आसा",
            "kato sandi awak {}",
            "n ka password ye {} ye",
        ),
    ),
)


def _prose() -> list[Sample]:
    return [s for lang, rows in _PROSE for s in _each(f"password prose ({lang})", rows, _pw)]


# --- mobile money, health and identity numbers -------------------------------------------------

_MOBILE_MONEY: tuple[tuple[str, int], ...] = (
    ("PIN yangu ya M-Pesa ni {}, usimwambie mtu", 4),
    ("Lipa na M-Pesa ilikataa, nimebadilisha PIN kuwa {}", 4),
    ("GCash MPIN ko: {}", 4),
    ("বিকাশ পিন {} — কাউকে বলবে না", 5),
    ("የቴሌብር ፒን ኮዴ {} ነው", 6),
    ("Easypaisa ka PIN {} hai, ammi ke liye likh raha hoon", 5),
    ("mum's MoMo PIN is {} (she keeps forgetting it)", 5),
    ("code secret Orange Money : {}", 4),
    ("UPI पिन {} है, PhonePe वाला", 6),
    ("namba yangu ya siri ya Tigo Pesa ni {}", 4),
    ("Airtel Money PIN {} — change it after the trip", 4),
)


def _mobile_money() -> list[Sample]:
    out = []
    for template, length in _MOBILE_MONEY:
        value = _of(string.digits, length)
        out.append(_s("mobile money PIN", template.replace("{}", value), value))
    return out


def _taj() -> str:
    body = _of(string.digits, 8)
    check = sum(int(d) * (3 if i % 2 == 0 else 7) for i, d in enumerate(body)) % 10
    full = body + str(check)
    return f"{full[:3]} {full[3:6]} {full[6:]}"


def _hu_tax() -> str:
    def make() -> str:
        body = "8" + _of(string.digits, 8)
        check = sum(int(d) * (i + 1) for i, d in enumerate(body)) % 11
        return body + str(check) if check < 10 else ""

    return _valid(bool, make)


def _ir_code() -> str:
    body = _of(string.digits, 9)
    total = sum(int(d) * (10 - i) for i, d in enumerate(body)) % 11
    return body + str(total if total < 2 else 11 - total)


def _rodne_cislo() -> str:
    def make() -> str:
        month = _RNG.randint(1, 12) + _RNG.choice((0, 50))
        return f"{_RNG.randint(60, 99)}{month:02d}{_RNG.randint(1, 28):02d}{_of(string.digits, 4)}"

    number = _valid(rc.is_valid, make)
    return f"{number[:6]}/{number[6:]}"


def _hetu() -> str:
    def make() -> str:
        date = f"{_RNG.randint(1, 28):02d}{_RNG.randint(1, 12):02d}{_RNG.randint(50, 99)}"
        serial = f"{_RNG.randint(2, 899):03d}"
        return f"{date}-{serial}{'0123456789ABCDEFHJKLMNPRSTUVWXY'[int(date + serial) % 31]}"

    return _valid(hetu.is_valid, make)


def _cnp() -> str:
    body = (
        f"{_RNG.choice('12')}{_RNG.randint(60, 99)}{_RNG.randint(1, 12):02d}"
        f"{_RNG.randint(1, 28):02d}{_RNG.randint(1, 40):02d}{_of(string.digits, 3)}"
    )
    return body + cnp.calc_check_digit(body)


def _cpr() -> str:
    def make() -> str:
        return f"{_RNG.randint(1, 28):02d}{_RNG.randint(1, 12):02d}{_RNG.randint(60, 99)}-{_of(string.digits, 4)}"

    return _valid(cpr.is_valid, make)


def _philsys() -> str:
    return f"{_of(string.digits, 4)}-{_of(string.digits, 4)}-{_of(string.digits, 4)}-{_of(string.digits, 4)}"


def _gr_afm() -> str:
    def make() -> str:
        body = _of(string.digits, 8)
        return body + gr_vat.calc_check_digit(body)

    return _valid(gr_vat.is_valid, make)


_HEALTH: tuple[tuple[str, str, Callable[[], str]], ...] = (
    (
        "medical record number",
        "MRN {} — bring the card to radiology on Thursday",
        lambda: _digits(8),
    ),
    (
        "medical record number",
        "HN {} โรงพยาบาลนัดวันจันทร์ 9 โมง",
        lambda: f"{_RNG.randint(60, 69)}-{_of(string.digits, 6)}",
    ),
    ("medical record number", "número de historia clínica de papá: {}", lambda: _digits(7)),
    ("medical record number", "מספר תיק רפואי של אמא {}", lambda: _digits(9)),
    ("medical record number", "αριθμός μητρώου ασθενούς {} (Ευαγγελισμός)", lambda: _digits(7)),
    ("medical record number", "hospital no. ni Lola sa PGH: {}", lambda: _digits(8)),
    ("medical record number", "potilasnumero {} — Meilahden sairaala", lambda: _digits(8)),
    ("health insurance number", "TAJ-szám: {}", _taj),
    ("health insurance number", "číslo pojištěnce {}, VZP", _rodne_cislo),
    (
        "health insurance number",
        "no. kartu BPJS Kesehatan ibu {}",
        lambda: "0001" + _of(string.digits, 9),
    ),
    ("health insurance number", "mã số BHXH của con: {}", lambda: _of(string.digits, 10)),
    (
        "health insurance number",
        "ABHA नंबर {}",
        lambda: f"91-{_of(string.digits, 4)}-{_of(string.digits, 4)}-{_of(string.digits, 4)}",
    ),
    ("health insurance number", "namba ya NHIF ya mama {}", lambda: _digits(8)),
    (
        "health insurance number",
        "insurance card — Member ID {}, Group 0481193",
        lambda: _of(string.ascii_uppercase, 3) + _digits(9),
    ),
    ("health insurance number", "מספר חבר במכבי {}", lambda: _digits(9)),
    (
        "health insurance number",
        "numărul cardului de sănătate {}",
        lambda: "80642" + _of(string.digits, 15),
    ),
    ("national id", "henkilötunnus {} (Kelaa varten)", _hetu),
    ("national id", "rodné číslo syna {}", _rodne_cislo),
    ("national id", "CNP-ul meu e {}", _cnp),
    ("national id", "এনআইডি নম্বর {}", lambda: _native(_digits(10), _BENGALI_ZERO)),
    ("national id", "کد ملی‌ام {} هست", lambda: _native(_ir_code(), _PERSIAN_ZERO)),
    (
        "national id",
        "የፋይዳ ቁጥሬ {}",
        lambda: f"{_of(string.digits, 4)} {_of(string.digits, 4)} {_of(string.digits, 4)}",
    ),
    (
        "national id",
        "namba ya NIDA {}",
        lambda: (
            f"{_RNG.randint(1970, 2000)}{_RNG.randint(1, 12):02d}{_RNG.randint(1, 28):02d}-{_of(string.digits, 5)}-{_of(string.digits, 5)}-{_of(string.digits, 2)}"
        ),
    ),
    (
        "national id",
        "NIN ya Uganda: {}",
        lambda: "CM" + _of(string.digits, 2) + _of(_UPPER_ALNUM, 10),
    ),
    ("national id", "PhilSys number ko {}", _philsys),
    (
        "national id",
        "NIC අංකය {}",
        lambda: (
            f"{_RNG.randint(1965, 2000)}{_RNG.randint(1, 366):03d}{_of(string.digits, 4)}{_RNG.randint(0, 9)}"
        ),
    ),
    ("national id", "CPR-nr. til lægen: {}", _cpr),
    (
        "national id",
        "ΑΔΤ {}",
        lambda: _RNG.choice(("ΑΚ", "ΑΒ", "ΑΗ", "ΑΙ")) + " " + _of(string.digits, 6),
    ),
    ("tax number", "ΑΦΜ {} για το τιμολόγιο", _gr_afm),
    ("tax number", "adóazonosító jelem {}", _hu_tax),
    (
        "tax number",
        "TIN ko sa BIR {}",
        lambda: f"{_of(string.digits, 3)}-{_of(string.digits, 3)}-{_of(string.digits, 3)}-000",
    ),
    ("tax number", "ই-টিআইএন {}", lambda: _digits(12)),
    ("tax number", "no. cukai pendapatan {}", lambda: "IG" + _digits(10) + "0"),
)


def _health_and_ids() -> list[Sample]:
    out = []
    for family, template, make in _HEALTH:
        out += _each(family, (template,), make)
    return out


_THAI_MONTHS = (
    "ม.ค.",
    "ก.พ.",
    "มี.ค.",
    "เม.ย.",
    "พ.ค.",
    "มิ.ย.",
    "ก.ค.",
    "ส.ค.",
    "ก.ย.",
    "ต.ค.",
    "พ.ย.",
    "ธ.ค.",
)
_HEBREW_DAYS = ("ג׳", "ז׳", "י״א", "ט״ו", "י״ח", "כ״ג", "כ״ח")
_HEBREW_MONTHS = (
    "בתשרי",
    "בחשוון",
    "בכסלו",
    "בטבת",
    "בשבט",
    "בניסן",
    "באייר",
    "בסיוון",
    "בתמוז",
    "באב",
    "באלול",
)
_HEBREW_YEARS = ("תשל״ט", "תשמ״ה", "תשמ״ח", "תש״ן", "תשנ״ב", "תשנ״ו")
_NEPALI_MONTHS = (
    "बैशाख",
    "जेठ",
    "असार",
    "साउन",
    "भदौ",
    "असोज",
    "कात्तिक",
    "मंसिर",
    "पुस",
    "माघ",
    "फागुन",
    "चैत",
)
_TAGALOG_MONTHS = (
    "Enero",
    "Pebrero",
    "Marso",
    "Abril",
    "Mayo",
    "Hunyo",
    "Hulyo",
    "Agosto",
    "Setyembre",
    "Oktubre",
    "Nobyembre",
    "Disyembre",
)


def _dmy() -> tuple[int, int, int]:
    return _RNG.randint(1, 28), _RNG.randint(1, 12), _RNG.randint(1962, 2004)


def _birth_values() -> list[tuple[str, str]]:
    d = [_dmy() for _ in range(15)]
    return [
        ("የትውልድ ቀን {} ዓ.ም.", f"{d[0][0]:02d}/{d[0][1]:02d}/{d[0][2] - 8}"),
        ("วันเกิด {}", f"{d[1][0]} {_THAI_MONTHS[d[1][1] - 1]} {d[1][2] + 543}"),
        (
            "תאריך לידה {}",
            f"{_RNG.choice(_HEBREW_DAYS)} {_RNG.choice(_HEBREW_MONTHS)} {_RNG.choice(_HEBREW_YEARS)}",
        ),
        (
            "生年月日：{}",
            f"{_RNG.choice(('昭和', '平成'))}{_RNG.randint(2, 30)}年{d[3][1]}月{d[3][0]}日",
        ),
        ("出生日期 {}", f"民國{d[4][2] - 1911}年{d[4][1]}月{d[4][0]}日"),
        (
            "जन्म मिति {}",
            _native(
                f"वि.सं. {d[5][2] + 57} {_NEPALI_MONTHS[d[5][1] - 1]} {d[5][0]}", _DEVANAGARI_ZERO
            ),
        ),
        ("alizaliwa tarehe {}", f"{d[6][0]:02d}/{d[6][1]:02d}/{d[6][2]}"),
        ("ipinanganak noong {}", f"{_TAGALOG_MONTHS[d[7][1] - 1]} {d[7][0]}, {d[7][2]}"),
        ("ημερομηνία γέννησης {}", f"{d[8][0]:02d}/{d[8][1]:02d}/{d[8][2]}"),
        ("datum narození {}", f"{d[9][0]}. {d[9][1]}. {d[9][2]}"),
        ("születési idő: {}", f"{d[10][2]}. {d[10][1]:02d}. {d[10][0]:02d}."),
        ("syntymäaika {}", f"{d[11][0]}.{d[11][1]}.{d[11][2]}"),
        ("data nașterii {}", f"{d[12][0]:02d}.{d[12][1]:02d}.{d[12][2]}"),
        ("tarikh lahir {}", f"{d[13][0]:02d}/{d[13][1]:02d}/{d[13][2]}"),
        ("জন্ম তারিখ {}", _native(f"{d[14][0]:02d}/{d[14][1]:02d}/{d[14][2]}", _BENGALI_ZERO)),
    ]


_PHONES: tuple[tuple[str, str, str], ...] = (
    ("namba yangu ya simu {}", "KE", "07## ### ###"),
    ("eto number ko: {}", "PH", "0917 ### ####"),
    ("เบอร์โทรของฉัน {}", "TH", "08#-###-####"),
    ("το κινητό μου {}", "GR", "69# ### ####"),
    ("הנייד שלי {}", "IL", "052-###-####"),
    ("moje číslo {}", "CZ", "6## ### ###"),
    ("a mobilszámom {}", "HU", "+36 30 ### ####"),
    ("puhelinnumeroni {}", "FI", "040 ### ####"),
    ("numărul meu de telefon {}", "RO", "07## ### ###"),
    ("no. telefon saya {}", "MY", "012-### ####"),
    ("আমার মোবাইল নম্বর {}", "BD", "017##-######"),
    ("شماره موبایلم {}", "IR", "0912 ### ####"),
    ("ስልክ ቁጥሬ {}", "ET", "091# ## ## ##"),
    ("namba ya simu ya Baba {}", "TZ", "07## ### ###"),
    ("my line: {}", "NG", "0803 ### ####"),
)


def _phone(region: str, pattern: str) -> str:
    def make() -> str:
        return "".join(_RNG.choice(string.digits) if c == "#" else c for c in pattern)

    def ok(value: str) -> bool:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, region))

    return _valid(ok, make)


def _births_and_phones() -> list[Sample]:
    out = [_s("birth date", t.replace("{}", v), v) for t, v in _birth_values()]
    for template, region, pattern in _PHONES:
        value = _phone(region, pattern)
        if region == "IR":
            value = _native(value, _PERSIAN_ZERO)
        out.append(_s("phone", template.replace("{}", value), value))
    return out


# --- voice notes -----------------------------------------------------------------------------

_SAY: dict[str, tuple[tuple[str, ...], str, str, dict[str, str]]] = {
    "en": (
        ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"),
        "capital {}",
        "lowercase {}",
        {
            "#": "hash",
            "!": "exclamation mark",
            "@": "at sign",
            "$": "dollar",
            "%": "percent",
            "&": "ampersand",
            "*": "star",
            "+": "plus",
            "?": "question mark",
        },
    ),
    "fi": (
        (
            "nolla",
            "yksi",
            "kaksi",
            "kolme",
            "neljä",
            "viisi",
            "kuusi",
            "seitsemän",
            "kahdeksan",
            "yhdeksän",
        ),
        "iso {}",
        "pieni {}",
        {
            "#": "risuaita",
            "!": "huutomerkki",
            "@": "ät-merkki",
            "$": "dollari",
            "%": "prosentti",
            "&": "et-merkki",
            "*": "tähti",
            "+": "plus",
            "?": "kysymysmerkki",
        },
    ),
    "hu": (
        ("nulla", "egy", "kettő", "három", "négy", "öt", "hat", "hét", "nyolc", "kilenc"),
        "nagy {}",
        "kis {}",
        {
            "#": "kettőskereszt",
            "!": "felkiáltójel",
            "@": "kukac",
            "$": "dollárjel",
            "%": "százalék",
            "&": "és-jel",
            "*": "csillag",
            "+": "plusz",
            "?": "kérdőjel",
        },
    ),
    "cs": (
        ("nula", "jedna", "dva", "tři", "čtyři", "pět", "šest", "sedm", "osm", "devět"),
        "velké {}",
        "malé {}",
        {
            "#": "mřížka",
            "!": "vykřičník",
            "@": "zavináč",
            "$": "dolar",
            "%": "procento",
            "&": "ampersand",
            "*": "hvězdička",
            "+": "plus",
            "?": "otazník",
        },
    ),
    "es": (
        ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"),
        "{} mayúscula",
        "{} minúscula",
        {
            "#": "almohadilla",
            "!": "signo de exclamación",
            "@": "arroba",
            "$": "dólar",
            "%": "por ciento",
            "&": "ampersand",
            "*": "asterisco",
            "+": "más",
            "?": "interrogación",
        },
    ),
    "sw": (
        ("sifuri", "moja", "mbili", "tatu", "nne", "tano", "sita", "saba", "nane", "tisa"),
        "{} kubwa",
        "{} ndogo",
        {
            "#": "alama ya reli",
            "!": "alama ya mshangao",
            "@": "et",
            "$": "dola",
            "%": "asilimia",
            "&": "na",
            "*": "nyota",
            "+": "jumlisha",
            "?": "alama ya kuuliza",
        },
    ),
}


def _dictated(value: str, lang: str) -> list[str]:
    words, upper, lower, symbols = _SAY[lang]
    out = []
    for char in value:
        if char.isdigit():
            out.append(words[int(char)])
        elif char.isupper():
            out.append(upper.format(char))
        elif char.islower():
            out.append(lower.format(char))
        else:
            out.append(symbols[char])
    return out


def _halves(parts: list[str]) -> tuple[str, str]:
    middle = len(parts) // 2
    return ", ".join(parts[:middle]), ", ".join(parts[middle:])


_VOICE = (
    ("en", "[voice note 0:21] ok the router password, ready? {a}, {b}. got it? that's the new one"),
    ("fi", "[ääniviesti 0:14] eli uusi salasana on {a}, {b}, kirjoitatko ylös"),
    ("hu", "[hangüzenet] szóval a jelszó: {a}, {b}, ennyi"),
    ("cs", "[hlasová zpráva, přepis] heslo je {a}, {b}, jo a bez mezer"),
    ("es", "[nota de voz 00:32] apunta la clave: {a}, {b}, todo junto"),
    ("sw", "[ujumbe wa sauti] nenosiri ni {a}, {b}, umeandika?"),
)


def _voice_notes() -> list[Sample]:
    out = []
    for lang, template in _VOICE:
        a, b = _halves(_dictated(_strong(10), lang))
        out.append(_s("voice transcript", template.format(a=a, b=b), a, b))
    pin = [str(_RNG.randint(0, 9)) for _ in range(4)]
    words = "... ".join(_SAY["en"][0][int(d)] for d in pin)
    out.append(
        _s(
            "voice transcript",
            f"[voice memo, auto-transcribed] the garage PIN is {words}. yeah that's it",
            words,
        )
    )
    fixed = _strong(10)
    first, rest = _dictated(fixed[:4], "en"), _dictated(fixed[4:], "en")
    wrong = "capital Q" if not fixed[4].isupper() else "lowercase q"
    said = ", ".join(first) + f", {wrong}, no sorry, " + ", ".join(rest)
    out.append(
        _s(
            "voice transcript",
            f"[00:00:12.4 --> 00:00:21.9] SPEAKER_1: for the shop laptop it's {said}",
            ", ".join(first),
            ", ".join(rest),
        )
    )
    digits = _of(string.digits, 4) + " " + _of(string.digits, 2)
    out.append(
        _s(
            "voice transcript",
            f"[transcript] ...and the alarm code is {digits}, the two at the end are for the garage door",
            digits,
        )
    )
    return out


# --- where a secret turns up: documents, traces, logs, mail, chats ---------------------------


def _places() -> list[Sample]:
    qp_value = _plain()
    qp_cut = 6
    subject_b64 = _b64(f"Ihr neues Kennwort: {_strong(12)}")
    escaped_inner = json.dumps(
        {"event": "signup", "email": "n.k@mail.example", "password": (jp := _pw())}
    )
    tf_inner = json.dumps({"client_id": _uuid(), "client_secret": (tfs := _az_secret())})
    double_tok = "ghp_" + _of(_ALNUM, 36)
    double = json.dumps(json.dumps(json.dumps({"token": double_tok})))
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        (
            "markdown link or image",
            f"![router sticker, wifi key {(a := _pw())}](./img/router-sticker.jpg)",
            (a,),
        ),
        (
            "markdown link or image",
            f'see [the admin docs](https://wiki.corp.example/nas "login admin / {(a := _pw())}") before you touch it',
            (a,),
        ),
        (
            "markdown link or image",
            f'<img src="keypad.jpg" alt="side door keypad, code {(a := _of(string.digits, 6))}">',
            (a,),
        ),
        (
            "markdown link or image",
            f"[ci]: https://ci.corp.example/buildByToken/build?job=deploy&token={(a := _of(_HEX, 32))}",
            (a,),
        ),
        (
            "email signature",
            f"--\nMaria Kowalczyk\nDział finansów\ntel. kom. {(a := _phone('PL', '5## ### ###'))}\nprywatnie: {(b := 'maria.k' + _digits(2) + '@poczta.example.pl')}",
            (a, b),
        ),
        (
            "email signature",
            f"Ystävällisin terveisin\nMatti Virtanen\npuh. {(a := _phone('FI', '050 ### ####'))}",
            (a,),
        ),
        (
            "email signature",
            f"Με εκτίμηση,\nΕλένη Παπαδοπούλου\nκιν. {(a := _phone('GR', '69# ### ####'))}",
            (a,),
        ),
        (
            "email signature",
            f"Regards,\nTunde\n📱 {(a := _phone('NG', '+234 80# ### ####'))}\nSent from my Galaxy",
            (a,),
        ),
        (
            "git diff",
            f"--- a/deploy/app.ini\n+++ b/deploy/app.ini\n@@ -3,4 +3,4 @@\n [db]\n host = db01\n-password = {(a := _pw())}\n+password = {(b := _pw())}\n port = 5432",
            (a, b),
        ),
        (
            "git diff",
            f"diff --git a/.env.production b/.env.production\n@@ -1,3 +1,3 @@\n-PAYSTACK_SECRET=sk_live_{(a := _of(_HEX, 40))}\n+PAYSTACK_SECRET=sk_live_{(b := _of(_HEX, 40))}\n APP_URL=https://shop.example",
            (a, b),
        ),
        (
            "git diff",
            f"@@ -8,6 +8,6 @@ metadata:\n   name: db-credentials\n data:\n-  password: {(a := _b64(_pw()))}\n+  password: {(b := _b64(_pw()))}",
            (a, b),
        ),
        (
            "stack trace",
            f"PDOException: SQLSTATE[HY000] [1045] Access denied for user 'shop'@'10.0.3.9'\n#0 /var/www/html/lib/db.php(12): PDO->__construct('mysql:host=db;d...', 'shop', '{(a := _pw())}')\n#1 /var/www/html/index.php(5): Db::connect()",
            (a,),
        ),
        (
            "stack trace",
            f"AxiosError: Request failed with status code 401\n    at settle (/app/node_modules/axios/lib/core/settle.js:19:12)\n  config: {{\n    auth: {{ username: 'svc-sync', password: '{(a := _pw())}' }},\n    headers: {{ 'X-Api-Key': '{(b := _of(_ALNUM, 40))}', Accept: 'application/json' }},",
            (a, b),
        ),
        (
            "stack trace",
            f'thread \'main\' panicked at src/main.rs:41:10:\ncalled `Result::unwrap()` on an `Err` value: Connect(Config {{ host: "db.internal", user: "ledger", password: "{(a := _pw())}", dbname: "ledger" }})',
            (a,),
        ),
        (
            "stack trace",
            f'** (DBConnection.ConnectionError) connection not available\n    %{{hostname: "db", username: "shop", password: "{(a := _pw())}", database: "shop_prod"}}',
            (a,),
        ),
        (
            "stack trace",
            f"Unhandled exception. System.ArgumentException: Keyword not supported: 'trustservercertificate '.\n   at Microsoft.Data.SqlClient.SqlConnectionStringBuilder..ctor(String connectionString = \"Server=sql01;Database=crm;User Id=crm_app;Password={(a := _plain())};TrustServerCertificate =true\")",
            (a,),
        ),
        (
            "stack trace",
            f"Redis::CannotConnectError: Error connecting to Redis on cache.internal:6379 (redis://:{(a := _urlpw())}@cache.internal:6379/1)\n\tfrom /app/vendor/bundle/ruby/3.3.0/gems/redis-5.2.0/lib/redis/client.rb:98:in `connect'",
            (a,),
        ),
        (
            "log line",
            f'ts=2026-11-19T08:14:02Z level=debug caller=client.go:88 msg="auth ok" user=ops api_key={(a := _of(_ALNUM, 32))} latency_ms=41',
            (a,),
        ),
        (
            "log line",
            f'203.0.113.7 - - [19/Nov/2026:08:14:02 +0000] "POST /login.cgi?user=admin&passwd={(a := _urlpw())} HTTP/1.1" 302 0 "-" "curl/8.5.0"',
            (a,),
        ),
        (
            "log line",
            f'{{"level":"debug","ts":1795000000.41,"msg":"outgoing request","headers":{{"Content-Type":"application/json","X-Api-Key":"{(a := _of(_ALNUM, 40))}"}}}}',
            (a,),
        ),
        (
            "log line",
            f"Nov 19 08:14:02 db01 sudo[4121]: deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/mysql -uroot -p{(a := _plain())}",
            (a,),
        ),
        (
            "log line",
            f'"Env": [\n    "PATH=/usr/local/sbin:/usr/local/bin",\n    "REDIS_PASSWORD={(a := _plain())}",\n    "TZ=Europe/Helsinki"\n],',
            (a,),
        ),
        (
            "log line",
            f"    Environment:\n      DB_HOST:      postgres.shop.svc\n      DB_PASSWORD:  {(a := _pw())}\n    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-x2k4p (ro)",
            (a,),
        ),
        (
            "json in a json string",
            json.dumps({"MessageId": _uuid(), "Body": escaped_inner}),
            (jp,),
        ),
        (
            "json in a json string",
            json.dumps({"type": "azurerm_key_vault_secret", "attributes": {"value": tf_inner}}),
            (tfs,),
        ),
        (
            "json in a json string",
            f'{{"job": "sync", "args": {double}}}',
            (double_tok,),
        ),
        (
            "json in a json string",
            json.dumps(
                {
                    "name": "pg-sink",
                    "config": json.dumps(
                        {"connection.user": "sink", "connection.password": (kp := _pw())}
                    ),
                }
            ),
            (kp,),
        ),
        (
            "quoted-printable mail",
            f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nIhr vorl=C3=A4ufiges Kennwort lautet: {qp_value[:qp_cut]}=\n{qp_value[qp_cut:]}\nBitte =C3=A4ndern Sie es nach der ersten Anmeldung.",
            (qp_value[:qp_cut], qp_value[qp_cut:]),
        ),
        (
            "quoted-printable mail",
            f"From: it-support@firma.example\nSubject: =?UTF-8?B?{subject_b64}?=\n\nsiehe Betreff",
            (subject_b64,),
        ),
        (
            "quoted-printable mail",
            f"Content-Transfer-Encoding: quoted-printable\n\nlogin: j.nowak / has=C5=82o: {(a := _plain())}=3D=3D",
            (a,),
        ),
        (
            "default behind a reference",
            f"spring.datasource.password=${{DB_PASSWORD:{(a := _plain())}}}",
            (a,),
        ),
        (
            "default behind a reference",
            f'export PGPASSWORD="${{PGPASSWORD:-{(a := _plain())}}}"',
            (a,),
        ),
        (
            "default behind a reference",
            f'SECRET_KEY = os.environ.get("SECRET_KEY", "django-insecure-{(a := _of(_LOWER_ALNUM + "!@#%^&*(-_=+)", 50))}")',
            (a,),
        ),
        (
            "default behind a reference",
            f'const secret = process.env.JWT_SECRET || "{(a := _of(_ALNUM, 48))}";',
            (a,),
        ),
        (
            "default behind a reference",
            f'smtp_password = ENV.fetch("SMTP_PASSWORD", "{(a := _pw())}")',
            (a,),
        ),
        (
            "default behind a reference",
            f"      POSTGRES_PASSWORD: ${{POSTGRES_PASSWORD:-{(a := _plain())}}}",
            (a,),
        ),
        (
            "default behind a reference",
            f'password: {{{{ .Values.auth.password | default "{(a := _pw())}" | quote }}}}',
            (a,),
        ),
        (
            "chat export",
            f"[19/11/2026, 21:04:11] Ana Souza: {(a := _pw())}\n[19/11/2026, 21:04:30] Ana Souza: that's the wifi 👆 the other one doesn't work anymore",
            (a,),
        ),
        (
            "chat export",
            json.dumps(
                {
                    "id": 48213,
                    "type": "message",
                    "from": "Ilkka",
                    "text": f"salasana: {(tp := _pw())}",
                },
                ensure_ascii=False,
            ),
            (tp,),
        ),
        (
            "chat export",
            f"Dana Whitfield  9:41 AM\nanyone have the sentry token for the release script?\nJonas Berg  9:43 AM\n{(a := 'sntryu_' + _of(_HEX, 64))}",
            (a,),
        ),
        (
            "chat export",
            f"Mum: what's the netflix password again\nMe: {(a := _pw())}\nMum: thank you love",
            (a,),
        ),
    ]
    return _rows(rows)


# --- disguises -------------------------------------------------------------------------------

_MORSE = {
    **dict(
        zip(
            string.ascii_lowercase,
            ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- --..".split(),
            strict=True,
        )
    ),
    **dict(
        zip(
            string.digits,
            "----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split(),
            strict=True,
        )
    ),
}

_BRAILLE = dict(
    zip(
        string.ascii_lowercase,
        "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵",
        strict=True,
    )
)

_CHEROKEE_PASSWORD = "".join(
    chr(c) for c in (0x13E2, 0x13AA, 0x13DA, 0x13DA, 0x13B3, 0x13EB, 0x13A1, 0x13A0)
)


def _rot47(value: str) -> str:
    return "".join(chr(33 + (ord(c) - 33 + 47) % 94) if "!" <= c <= "~" else c for c in value)


def _disguises() -> list[Sample]:
    v = [_strong(14) for _ in range(20)]
    lower = _of(string.ascii_lowercase + string.digits, 10)
    morse = " ".join(_MORSE[c] for c in lower)
    letters = _of(string.ascii_lowercase, 8)
    braille = "".join(_BRAILLE[c] for c in letters)
    tags = "".join(chr(0xE0000 + ord(c)) for c in v[0])
    pin = _of(string.digits, 4)
    keycaps = "".join(d + "\ufe0f\u20e3" for d in pin)
    arabic_pin = _native(_of(string.digits, 6), _ARABIC_ZERO)
    gz = base64.b64encode(gzip.compress(f"user=ops\npassword={v[1]}\n".encode(), mtime=0)).decode()
    a85 = base64.a85encode(v[2].encode(), adobe=True).decode()
    colon_hex = ":".join(f"{b:02x}" for b in v[3].encode())
    wbr = (v[4][:5], v[4][5:10], v[4][10:])
    dashed = "-".join(v[5])
    split = (v[6][:5], v[6][5:9], v[6][9:])
    rows: list[tuple[str, str, tuple[str, ...]]] = [
        ("disguise: tag characters", f"all good on my side 👍{tags}", (tags,)),
        ("disguise: cherokee letters", f"{_CHEROKEE_PASSWORD}: {v[7]}", (v[7],)),
        ("disguise: morse", f"pw in morse so the filter doesn't eat it: {morse}", (morse,)),
        ("disguise: braille", f"vault passphrase ⠏⠺ {braille}", (braille,)),
        ("disguise: keycap emoji", f"garage door code {keycaps}", (keycaps,)),
        ("disguise: arabic-indic digits", f"الرقم السري للبطاقة {arabic_pin}", (arabic_pin,)),
        (
            "disguise: right-to-left override",
            f"staging password: \u202e{v[8][::-1]}\u202c",
            (v[8][::-1],),
        ),
        ("disguise: wbr", f"<p>root password: {wbr[0]}<wbr>{wbr[1]}<wbr>{wbr[2]}</p>", wbr),
        (
            "disguise: hyphenated keyword",
            f"the new pass-\nword for the shared inbox is {v[9]}",
            (v[9],),
        ),
        ("disguise: magic word", f"the magic word for the staging box is {v[10]}", (v[10],)),
        ("disguise: magic word", f"open sesame for the NAS: {v[11]}", (v[11],)),
        ("disguise: ascii85", f"admin pw, ascii85 (python: base64.a85decode): {a85}", (a85,)),
        ("disguise: gzip and base64", f"old .env, gzipped + base64: {gz}", (gz,)),
        ("disguise: rot47", f"rot47 of the db password: {_rot47(v[12])}", (_rot47(v[12]),)),
        ("disguise: hex with colons", f"pw bytes: {colon_hex}", (colon_hex,)),
        ("disguise: one character at a time", f"password, one char at a time: {dashed}", (dashed,)),
        (
            "disguise: string concatenation",
            f'DB_PASS = "{split[0]}" + "{split[1]}" "{split[2]}"',
            split,
        ),
        (
            "disguise: html attribute",
            f'<div id="app" data-api-token="{(a := _of(_ALNUM, 40))}"></div>',
            (a,),
        ),
        (
            "disguise: html attribute",
            f'<meta name="openai-key" content="{(b := "sk-proj-" + _of(_URLSAFE, 74))}">',
            (b,),
        ),
        (
            "disguise: quoted reply, value first",
            f"{v[13]}\n> ^ is that the new root pw?\nyes",
            (v[13],),
        ),
    ]
    return _rows(rows)


def _samples() -> tuple[Sample, ...]:
    return tuple(
        _units_and_backups()
        + _config_files()
        + _command_lines()
        + _keys()
        + _links_and_clients()
        + _vendor_keys()
        + _prose()
        + _mobile_money()
        + _health_and_ids()
        + _births_and_phones()
        + _voice_notes()
        + _places()
        + _disguises()
    )


# --- look-alikes -----------------------------------------------------------------------------


def _isbn13() -> str:
    body = "978" + _of(string.digits, 9)
    check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body)) % 10) % 10
    full = body + str(check)
    return f"{full[:3]}-{full[3]}-{full[4:8]}-{full[8:12]}-{full[12]}"


def _issn() -> str:
    body = _of(string.digits, 7)
    check = (11 - sum(int(d) * (8 - i) for i, d in enumerate(body)) % 11) % 11
    return f"{body[:4]}-{body[4:]}{'X' if check == 10 else check}"


def _s10(country: str) -> str:
    body = _of(string.digits, 8)
    check = 11 - sum(int(d) * w for d, w in zip(body, (8, 6, 4, 2, 3, 5, 9, 7), strict=True)) % 11
    digit = {10: 0, 11: 5}.get(check, check)
    return f"{_of(string.ascii_uppercase, 2)}{body}{digit}{country}"


def _awb() -> str:
    serial = _of(string.digits, 7)
    return f"{_RNG.choice(('176', '157', '020', '618'))}-{serial}{int(serial) % 7}"


def _container() -> str:
    body = _RNG.choice(("MSCU", "MAEU", "CMAU", "HLXU")) + _of(string.digits, 6)
    return body + iso6346.calc_check_digit(body)


def _vin() -> str:
    values = {**{str(d): d for d in range(10)}, **dict(zip("ABCDEFGH", range(1, 9), strict=True))}
    values |= dict(zip("JKLMN", range(1, 6), strict=True)) | {"P": 7, "R": 9}
    values |= dict(zip("STUVWXYZ", range(2, 10), strict=True))
    alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    weights = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
    body = "WVW" + _of(alphabet, 5) + "0" + _of(alphabet, 2) + _of(string.digits, 6)
    total = sum(values[c] * w for c, w in zip(body, weights, strict=True)) % 11
    return body[:8] + ("X" if total == 10 else str(total)) + body[9:]


def _imei() -> str:
    number = checkdigits.with_luhn("35" + _of(string.digits, 12))
    return f"{number[:2]}-{number[2:8]}-{number[8:14]}-{number[14]}"


def _isin() -> str:
    body = "US" + _of(string.digits, 9)
    return body + isin.calc_check_digit(body)


def _lei() -> str:
    return _valid(
        lei.is_valid,
        lambda: _of(string.digits, 4) + "00" + _of(_UPPER_ALNUM, 12) + _of(string.digits, 2),
    )


def _orcid() -> str:
    body = "0000000" + _of(string.digits, 8)
    full = body + mod_11_2.calc_check_digit(body)
    return "-".join(full[i : i + 4] for i in range(0, 16, 4))


def _cas() -> str:
    body = _digits(_RNG.randint(2, 6)) + _of(string.digits, 2)
    return f"{body[:-2]}-{body[-2:]}-{casrn.calc_check_digit(body)}"


def _imo() -> str:
    body = _digits(6)
    return f"IMO {body}{imo.calc_check_digit(body)}"


def _build_lookalikes() -> tuple[Lookalike, ...]:
    sha256 = _of(_HEX, 64)
    sha1 = _of(_HEX, 40)
    md5 = _of(_HEX, 32)
    b3 = _of(_HEX, 64)
    infohash = _of(_HEX, 40)
    change_id = "I" + _of(_HEX, 40)
    etag = _of(_HEX, 32)
    firebase_key = "AIza" + _of(_URLSAFE, 35)
    mapbox = (
        "pk."
        + base64.b64encode(f'{{"u":"annak","a":"{_of(_LOWER_ALNUM, 25)}"}}'.encode())
        .decode()
        .rstrip("=")
        + "."
        + _of(_URLSAFE, 22)
    )
    posthog = "phc_" + _of(_ALNUM, 43)
    recaptcha = "6Lc" + _of(_URLSAFE, 37)
    dsn = f"https://{_of(_HEX, 32)}@o{_digits(6)}.ingest.sentry.io/{_digits(7)}"
    ga = "G-" + _of(_UPPER_ALNUM, 10)
    wg_public = base64.b64encode(_RNG.randbytes(32)).decode()
    gpg_fpr = " ".join(_of("0123456789ABCDEF", 4) for _ in range(10))
    host_fpr = "SHA256:" + base64.b64encode(_RNG.randbytes(32)).decode().rstrip("=")
    rows: list[tuple[str, str]] = [
        # hashes and digests named as such
        ("hash named", f"MD5 (debian-12.8.0-amd64-netinst.iso) = {md5}"),
        ("hash named", f"{sha1}  backup-2026-11-19.tar.zst  (sha1sum, matches the mirror)"),
        ("hash named", f"SHA-256 of the firmware from the vendor page: {sha256}"),
        ("hash named", f"b3sum says {b3} for the export, same as yesterday"),
        ("hash named", f"magnet:?xt=urn:btih:{infohash}&dn=ubuntu-24.04.1-desktop-amd64.iso"),
        ("hash named", f"Change-Id: {change_id}"),
        ("hash named", f'ETag: "{etag}"'),
        ("hash named", "bcrypt cost factor raised from 10 to 12, argon2id with m=19456, t=2"),
        # public UUIDs
        ("public uuid", "EFI system partition type GUID C12A7328-F81F-11D2-BA4B-00A0C93EC93B"),
        ("public uuid", "Linux filesystem data: 0FC63DAF-8483-4772-8E79-3D69D8477DE4"),
        (
            "public uuid",
            "heart rate service 0000180d-0000-1000-8000-00805f9b34fb on the chest strap",
        ),
        (
            "public uuid",
            "uuid5 with NAMESPACE_DNS (6ba7b810-9dad-11d1-80b4-00c04fd430c8) gives stable ids",
        ),
        ("public uuid", "God Mode folder: name it GodMode.{ED7BA470-8E54-465E-825C-99712043E01C}"),
        # bookings, tickets, shipping
        ("booking reference", "booking ref K7QX2M, Lufthansa, seat 23A"),
        ("booking reference", f"e-ticket 220-{_digits(10)} issued, baggage 1PC"),
        ("booking reference", "Airbnb reservation HMXQ4K2R9T, check-in from 15:00"),
        (
            "booking reference",
            f"Booking.com confirmation {_digits(4)}.{_of(string.digits, 3)}.{_of(string.digits, 3)}",
        ),
        ("booking reference", "tiketi ya SGR: behewa 4, kiti 32, treni ya saa 3 asubuhi"),
        ("booking reference", "ตั๋วรถไฟ ขบวน 9 ตู้ 3 ที่นั่ง 14"),
        ("booking reference", "κράτηση ΑΝΕΚ για Χανιά, αριθμός κράτησης 4HX9QZ"),
        ("shipping reference", f"air waybill {_awb()}, 3 pieces, 41 kg"),
        ("shipping reference", f"EMS {_s10('CN')} — arrived at the sorting centre"),
        ("shipping reference", f"container {_container()} discharged at Mombasa"),
        ("shipping reference", f"B/L MAEU{_digits(9)}, vessel {_imo()}"),
        ("shipping reference", f"Zásilkovna: zásilka Z {_digits(10)} je připravena k vyzvednutí"),
        ("shipping reference", f"Posti: lähetystunnus JJFI{_digits(14)}"),
        ("shipping reference", f"csomagkövetés: {_s10('HU')}"),
        ("shipping reference", f"J&T resi {_digits(12)} sedang dalam perjalanan"),
        # example keys and public product keys
        (
            "example key",
            "AWS docs example: aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        ("example key", "example from the README: SLACK_BOT_TOKEN=xoxb-your-bot-token"),
        ("example key", "e.g. OPENROUTER_API_KEY=sk-or-v1-<your key>"),
        ("example key", 'sample config uses token = "glrt-REPLACE_WITH_RUNNER_TOKEN"'),
        (
            "example key",
            "the jwt.io sample: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        ),
        (
            "product key in docs",
            "KMS client setup key for Windows 11 Pro (from Microsoft's docs): W269N-WFGWX-YVC9B-4J6C9-T83GX",
        ),
        (
            "product key in docs",
            "generic install key, activates nothing: VK7JG-NPHTM-C97JM-9MPGT-3V66T",
        ),
        # scripture, places, scores, recipes, chemistry
        ("scripture", "John 3:16 and Psalm 23:1–6 for Sunday's reading"),
        ("scripture", "Mwanzo 1:1–5, kisha Zaburi 91:11"),
        ("scripture", "1 Corinthians 13:4-7 at the wedding"),
        ("scripture", "Surah Al-Baqarah 2:255 (Ayat al-Kursi)"),
        ("scripture", "Ιωάννης 1:1, Ψαλμός 50"),
        ("public address", "the Prado is at Calle de Ruiz de Alarcón 23, open 10–20"),
        ("public address", "Nemzeti Múzeum, Múzeum krt. 14-16, Budapest"),
        ("sports score", "Simba SC 2-0 Young Africans, goals at 34' and 78'"),
        ("sports score", "Lakers 112–108 Celtics (OT)"),
        ("sports score", "final set 6-4 3-6 7-6(5)"),
        ("sports score", "Bangladesh 287/6 in 50 overs, won by 41 runs"),
        ("sports score", "Ολυμπιακός - Παναθηναϊκός 1-1"),
        ("sports score", "Kipchoge ran 2:01:09 in Berlin"),
        ("recipe", "200 g flour, 3 eggs, 250 ml milk, bake at 180 °C for 25 min"),
        ("recipe", "ต้มยำ: ตะไคร้ 2 ต้น, ใบมะกรูด 5 ใบ, พริก 10 เม็ด"),
        ("recipe", "pilau: mchele vikombe 2, maji vikombe 3½, dakika 20"),
        ("recipe", "pörkölt: 1 kg marhalábszár, 2 fej hagyma, 2 ek pirospaprika"),
        ("chemistry", "C6H12O6 + 6 O2 → 6 CO2 + 6 H2O"),
        ("chemistry", f"CAS {_cas()}, keep below 25 °C"),
        (
            "chemistry",
            "aspirin: SMILES CC(=O)OC1=CC=CC=C1C(=O)O, InChIKey BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
        ),
        ("chemistry", "NaHCO3 + CH3COOH → CH3COONa + H2O + CO2, pH 8.3"),
        # identifiers of things
        ("identifier of a thing", f"ISBN {_isbn13()}"),
        ("identifier of a thing", f"ISSN {_issn()}"),
        ("identifier of a thing", "doi:10.1126/science.adk1234 (the paper Eleni sent)"),
        ("identifier of a thing", f"ORCID {_orcid()}"),
        ("identifier of a thing", f"ISIN {_isin()} in the index fund factsheet"),
        ("identifier of a thing", f"LEI {_lei()}"),
        ("identifier of a thing", f"VIN {_vin()} (on the windscreen, for the insurance quote)"),
        ("identifier of a thing", f"IMEI {_imei()} — the repair shop asked for it"),
        (
            "identifier of a thing",
            f"IMEI ya simu: {checkdigits.with_luhn('86' + _of(string.digits, 12))}",
        ),
        ("identifier of a thing", "arXiv:2405.01234v2, PMID 38912345"),
        # lotteries and raffles
        ("lottery", "Lotto 6 aus 49: 3 11 19 27 38 45, Superzahl 7"),
        ("lottery", f"สลากกินแบ่งรัฐบาล งวด 16 พ.ย. รางวัลที่ 1 เลข {_of(string.digits, 6)}"),
        ("lottery", "ötöslottó nyerőszámai: 7, 19, 33, 61, 88"),
        ("lottery", "Sportka: 4, 12, 18, 26, 37, 44, dodatkové 9"),
        ("lottery", "Loto 6/49 extragerea de duminică: 2 9 17 23 31 40"),
        ("lottery", "raffle ticket no. 0482, draw on Friday"),
        ("lottery", "Λόττο: 5 12 18 22 39 41, τζόκερ 3"),
        # mobile money receipts and public numbers
        (
            "mobile money receipt",
            f"{_of(_UPPER_ALNUM, 10)} Confirmed. Ksh1,200.00 sent to KPLC PREPAID for account 54201233198",
        ),
        ("mobile money receipt", "Lipa na M-Pesa till number 5123456 (the kiosk by the gate)"),
        ("mobile money receipt", "Paybill 888880, account number = meter number"),
        ("mobile money receipt", f"GCash Ref No. {_digits(13)} — padala kay Tita"),
        ("mobile money receipt", "bKash মেনু পেতে ডায়াল করুন *247#"),
        ("mobile money receipt", "dial *150*00# for M-Pesa Tanzania, *334# for Safaricom"),
        (
            "mobile money receipt",
            "Usimpe mtu yeyote PIN yako ya M-Pesa. Safaricom haitakuuliza PIN.",
        ),
        ("public number", "Notruf 112, Polizei 110, Giftnotruf 030 19240"),
        ("public number", "hotline ng PhilHealth (02) 8441-7442"),
        # public client keys
        (
            "public client key",
            f'const firebaseConfig = {{\n  apiKey: "{firebase_key}",\n  authDomain: "shop-app.firebaseapp.com",\n  projectId: "shop-app",\n  storageBucket: "shop-app.appspot.com",\n  messagingSenderId: "{_digits(12)}",\n  appId: "1:{_digits(12)}:web:{_of(_HEX, 22)}"\n}};',
        ),
        (
            "public client key",
            f"mapboxgl.accessToken = '{mapbox}';  // public token, URL-restricted",
        ),
        (
            "public client key",
            f"posthog.init('{posthog}', {{ api_host: 'https://eu.i.posthog.com' }})",
        ),
        ("public client key", f'<div class="g-recaptcha" data-sitekey="{recaptcha}"></div>'),
        ("public client key", f"Sentry DSN for the browser bundle (public by design): {dsn}"),
        ("public client key", f"gtag('config', '{ga}');"),
        # public keys and fingerprints
        (
            "public key",
            f"[Peer]\nPublicKey = {wg_public}\nEndpoint = vpn.example.net:51820\nAllowedIPs = 10.8.0.0/24",
        ),
        ("public key", f"gpg fingerprint for signing releases: {gpg_fpr}"),
        ("public key", f"ED25519 key fingerprint is {host_fpr}."),
        (
            "public key",
            "-----BEGIN PGP SIGNATURE-----\n\niHUEABYKAB0WIQ"
            + _of(_B64, 50)
            + "\n"
            + _of(_B64, 40)
            + "\n="
            + _of(_B64, 4)
            + "\n-----END PGP SIGNATURE-----",
        ),
        # the same files and commands without a secret
        (
            "config reference",
            "[Service]\nLoadCredential=dbpass:/etc/credstore/ledger.dbpass\nEnvironmentFile=-/etc/default/ledger",
        ),
        (
            "config reference",
            "*/10 * * * * curl -fsS --netrc-file /root/.netrc-uptime https://status.internal/api/ping",
        ),
        (
            "config reference",
            "restic -r rest:https://restic.home.lan:8000/laptop --password-file /etc/restic/pw backup ~",
        ),
        ("config reference", "export BORG_PASSCOMMAND='pass show backup/borg'"),
        (
            "config reference",
            'IMAPAccount work\nHost outlook.office365.com\nUser j.novak@firma.example\nPassCmd "pass show mail/work"',
        ),
        ("config reference", 'ansible_become_password: "{{ vault_kiosk_become_pw }}"'),
        (
            "config reference",
            'resource "aws_db_instance" "main" {\n  password = random_password.db.result\n}',
        ),
        ("config reference", "spring.datasource.password=${DB_PASSWORD}"),
        ("config reference", 'export PGPASSWORD="${PGPASSWORD:?set it first}"'),
        ("config reference", 'SECRET_KEY = os.environ["SECRET_KEY"]'),
        (
            "config reference",
            "wget --user=feeds --ask-password https://feeds.partner.example/export",
        ),
        (
            "config reference",
            'curl -u "$JIRA_USER:$JIRA_TOKEN" https://jira.corp.example/rest/api/2/myself',
        ),
        ("config reference", 'fly secrets set DATABASE_URL="$(op read op://shop/db/url)"'),
        (
            "config reference",
            'echo "$REGISTRY_PASSWORD" | docker login ghcr.io -u anna --password-stdin',
        ),
        (
            "config reference",
            "ARG NPM_TOKEN\nRUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci",
        ),
        ("config reference", "password_file: /run/secrets/grafana_admin_password"),
        ("config reference", "[Login]\nServer=kasse01\nUser=kasse\nPwd=\nAutoStart=1"),
        # harmless logs, traces, diffs, JSON, URLs, mail, markdown
        (
            "harmless log line",
            'level=info msg="login failed" user=anna reason=bad_password attempts=3',
        ),
        (
            "harmless log line",
            'AH01617: user ops: authentication failure for "/admin": Password Mismatch',
        ),
        (
            "harmless log line",
            '{"level":"info","msg":"password changed","user_id":48213,"mfa":true}',
        ),
        (
            "harmless log line",
            "Nov 19 08:14:02 db01 sudo[4121]: deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl restart ledger",
        ),
        (
            "harmless trace",
            "KeyError: 'DB_PASSWORD'\n  File \"/srv/app/settings.py\", line 12, in <module>",
        ),
        (
            "harmless trace",
            'psycopg2.OperationalError: connection to server at "db" (10.0.3.9), port 5432 failed: FATAL:  password authentication failed for user "app"',
        ),
        (
            "harmless trace",
            "thread 'main' panicked at src/main.rs:41:10:\ncalled `Option::unwrap()` on a `None` value",
        ),
        (
            "harmless diff",
            "--- a/deploy/app.ini\n+++ b/deploy/app.ini\n@@ -3,4 +3,4 @@\n [db]\n-port = 5432\n+port = 6432\n password_file = /etc/app/db.pw",
        ),
        (
            "harmless json",
            '{"password_min_length": 12, "password_require_symbol": true, "token_ttl_s": 3600}',
        ),
        (
            "harmless json",
            json.dumps(
                {"Body": json.dumps({"event": "signup", "plan": "free", "referrer": "newsletter"})}
            ),
        ),
        ("harmless url", "https://docs.example.org/admin/security#password-reset"),
        ("harmless url", "https://app.example.com/#/settings/security?tab=2fa"),
        ("harmless url", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"),
        (
            "harmless mail",
            'Content-Transfer-Encoding: quoted-printable\n\nDas Caf=C3=A9 =C3=B6ffnet um 8 Uhr, Kennwort-Reset unter "Konto".',
        ),
        ("harmless markdown", "![diagram of the login flow](./img/auth-flow.png)"),
        (
            "harmless markdown",
            '[reset your password](https://accounts.example.org/reset "opens the reset page")',
        ),
        ("signature", "--\nLena\nsent from my phone, excuse the typos"),
        (
            "voice note",
            "[voice note 0:09] remind me to change the wifi password tomorrow, the old one's on the fridge",
        ),
        ("voice note", "[ääniviesti] muista vaihtaa salasana huomenna, vanha on jääkaapin ovessa"),
        (
            "chat export",
            "[19/11/2026, 21:04:11] Ana Souza: did you get the wifi working?\n[19/11/2026, 21:05:02] Ana Souza: 👍",
        ),
        # password policy and forgotten passwords in the same languages
        ("password talk (sw)", "Nenosiri lazima liwe na herufi 8 au zaidi"),
        ("password talk (sw)", "Nimesahau nenosiri langu la barua pepe, nitaliweka upya kesho"),
        ("password talk (tl)", "Dapat may 8 character ang password at may isang numero"),
        ("password talk (tl)", "Nakalimutan ko ang password ko sa GCash, nag-reset ako"),
        ("password talk (th)", "รหัสผ่านต้องมีอย่างน้อย 8 ตัวอักษร"),
        ("password talk (th)", "ลืมรหัสผ่านอีกแล้ว ต้องรีเซ็ตใหม่"),
        ("password talk (el)", "Ο κωδικός πρέπει να έχει τουλάχιστον 8 χαρακτήρες"),
        ("password talk (el)", "Ξέχασα τον κωδικό μου και έκανα επαναφορά"),
        ("password talk (he)", "הסיסמה חייבת להכיל לפחות 8 תווים"),
        ("password talk (he)", "שכחתי את הסיסמה, ביקשתי קישור לאיפוס"),
        ("password talk (cs)", "Heslo musí mít alespoň 8 znaků a jednu číslici"),
        ("password talk (cs)", "Zapomněl jsem heslo k bance, musím si ho obnovit"),
        ("password talk (hu)", "A jelszónak legalább 8 karakterből kell állnia"),
        ("password talk (hu)", "Elfelejtettem a jelszavamat, új jelszót kértem"),
        ("password talk (fi)", "Salasanassa pitää olla vähintään 8 merkkiä"),
        ("password talk (fi)", "Unohdin salasanani, pyysin palautuslinkin"),
        ("password talk (ro)", "Parola trebuie să aibă cel puțin 8 caractere"),
        ("password talk (ro)", "Mi-am uitat parola, am cerut resetarea"),
        ("password talk (ms)", "Kata laluan mestilah sekurang-kurangnya 8 aksara"),
        ("password talk (ms)", "Saya terlupa kata laluan, kena reset"),
        ("password talk (bn)", "পাসওয়ার্ড কমপক্ষে ৮ অক্ষরের হতে হবে"),
        ("password talk (bn)", "পাসওয়ার্ড ভুলে গেছি, রিসেট করতে হবে"),
        ("password talk (fa)", "رمز عبور باید حداقل ۸ کاراکتر باشد"),
        ("password talk (fa)", "رمزم رو فراموش کردم، باید ریست کنم"),
        ("password talk (am)", "የይለፍ ቃሉ ቢያንስ 8 ቁምፊዎች መሆን አለበት"),
        ("password talk (am)", "የይለፍ ቃሌን ረሳሁት፣ እንደገና ማስጀመር አለብኝ"),
        ("password talk (en)", "the magic word is 'please', as my grandmother used to say"),
        (
            "password talk (en)",
            "PINs for mobile money are 4 to 6 digits; never read one out on a voice note",
        ),
        # codes and numbers that open nothing
        ("number", "postinumero 00100 Helsinki, PSČ 110 00 Praha, irányítószám 1051"),
        ("number", "Basi namba 34 kwenda Kariakoo, kituo cha 5"),
        ("number", "ห้อง 1204 ชั้น 12 อาคาร B"),
        ("number", "Πλατφόρμα 4, βαγόνι 7, θέση 52"),
        ("number", "error 0x800F081F while installing .NET 3.5"),
        ("number", "MRN field is 8 digits and the HN field takes the hospital prefix"),
        ("number", "ΑΜΚΑ έχει 11 ψηφία, το ΑΦΜ 9"),
        ("number", "PhilHealth contribution is 5% of the monthly basic salary"),
        ("number", "Sri Lankan NIC numbers have had 12 digits since 2016"),
        ("number", "Bangkok 10330, Tel Aviv-Yafo 6100000, Kuala Lumpur 50450"),
        ("hash named", f"tag v2.4.0 points at {sha1[:12]}, signed by the release key"),
        ("hash named", f"sha256sum -c SHA256SUMS: OK ({sha256[:16]}… for the arm64 image)"),
        ("booking reference", "PNR 5XQ2LM — Ethiopian ET 308, ADD–NBO, 07:40"),
        ("booking reference", "MRT-kortti ei ole, mutta lippu HSL-sovelluksessa, tunnus AB-4821"),
        ("shipping reference", f"Ninja Van tracking NVMY{_of(_UPPER_ALNUM, 10)} out for delivery"),
        (
            "shipping reference",
            f"Kerry Express {_of(string.ascii_uppercase, 4)}{_digits(9)} ถึงศูนย์คัดแยกแล้ว",
        ),
        ("lottery", "tiketi ya bahati nasibu namba 004821, droo ni Jumamosi"),
        ("lottery", "Lotto-rivi: 3, 8, 14, 22, 29, 31, 38 + lisänumero 12"),
        (
            "mobile money receipt",
            f"bKash TrxID {_of(_UPPER_ALNUM, 10)}, Tk 500 received from 01XXXXXXXXX",
        ),
        ("mobile money receipt", f"telebirr transaction number {_of(_UPPER_ALNUM, 10)}, 350 ብር"),
        ("example key", "DEEPL_AUTH_KEY=00000000-0000-0000-0000-000000000000:fx  # put yours here"),
        ("example key", "example from the wiki: STEAM_API_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        (
            "config reference",
            "[Service]\nEnvironment=LOG_LEVEL=debug PORT=8080\nExecStart=/opt/sync/bin/sync",
        ),
        ("config reference", "0 3 * * * /usr/local/bin/backup.sh >/dev/null 2>&1"),
        (
            "config reference",
            "kopia repository connect s3 --bucket=kopia-family --access-key=$AWS_ACCESS_KEY_ID --secret-access-key=$AWS_SECRET_ACCESS_KEY",
        ),
        (
            "harmless log line",
            'ts=2026-11-19T08:14:02Z level=warn msg="token expired" token_age_s=3700 user=ops',
        ),
        ("harmless url", "https://maps.google.com/?q=-1.2921,36.8219&z=15"),
        ("harmless url", "https://acme-public.s3.amazonaws.com/brand/logo.png"),
        ("voice note", "[voice note] the gate code changed again, ask Wanjiru when you get there"),
        ("chemistry", "H2SO4 98 %, density 1.84 g/cm³, UN 1830"),
        ("scripture", "Matthew 6:9–13, then hymn 432"),
        (
            "password talk (en)",
            "the password field shows dots; tap the eye icon to see what you typed",
        ),
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
