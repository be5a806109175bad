"""A fourth redaction corpus, written from scratch by someone trying to get secrets past it.

None of its items were shown to the rules before it was measured; it is reported as it stands
(``python bench/redaction.py``). Its look-alikes are what a careless note-taker writes every day
next to real secrets: hashes, ids, counts, commands without their values, prose about passwords.
Values are fake: tokens come from a fixed seed, numbers are textbook examples.
"""

from __future__ import annotations

import base64
import random
import string

from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20261201)
_ALNUM = string.ascii_letters + string.digits
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def secret_samples() -> list[Sample]:
    """Secrets and personal data, phrased as people really leave them in notes."""
    openai = f"sk-proj-{_t(48)}"
    aws_id, aws_secret = f"AKIA{_t(16, _UPPER)}", _t(40, _ALNUM + "+/")
    glpat = f"glpat-{_t(20)}"
    basic = base64.b64encode(b"deploy:Winter2026!x").decode()
    hook = f"https://hooks.slack.com/services/T{_t(8, _UPPER)}/B{_t(8, _UPPER)}/{_t(24)}"
    telegram = f"{_RNG.randint(10**8, 10**9)}:AA{_t(33, _ALNUM + '_-')}"
    stripe = f"sk_live_{_t(24)}"
    sendgrid = f"SG.{_t(22)}.{_t(43)}"
    google = f"AIza{_t(35, _ALNUM + '_-')}"
    npm = f"npm_{_t(36)}"
    jwt_body = base64.urlsafe_b64encode(b'{"sub":"42","role":"admin"}').decode().rstrip("=")
    jwt = f"eyJhbGciOiJIUzI1NiJ9.{jwt_body}.{_t(43, _ALNUM + '_-')}"
    key_body = "\n".join(_t(70, _ALNUM + "+/") for _ in range(4))
    api_hex = _t(32, _HEX)
    return [
        _s("prose", "the wifi at the cabin is moonlight-Otter-42 btw", "moonlight-Otter-42"),
        _s("prose", "door code for the office: 4471#", "4471"),
        _s("prose", "login for the router: admin / Zx9!qLm2", "Zx9!qLm2"),
        _s("prose", "Ansible vault pass is Tr0ub4dor&3, don't lose it", "Tr0ub4dor&3"),
        _s("prose", "pin for the debit card is 2580", "2580"),
        _s("prose", "security question (first pet): Biscuit", "Biscuit"),
        _s("env", f'export OPENAI_API_KEY="{openai}"', openai),
        _s(
            "env",
            f"AWS_ACCESS_KEY_ID={aws_id}\nAWS_SECRET_ACCESS_KEY={aws_secret}",
            aws_id,
            aws_secret,
        ),
        _s(
            "env",
            "```\nDB_USER=app\nDB_PASSWORD=pa55 word with spaces\n```",
            "pa55 word with spaces",
        ),
        _s("url", "postgresql://app:S3cr3t!pass@db.internal:5432/app", "S3cr3t!pass"),
        _s("url", "broker is amqp://guest:rabbitPw9x@mq:5672/", "rabbitPw9x"),
        _s("url", f"git clone https://oauth2:{glpat}@gitlab.com/team/repo.git", glpat),
        _s("url", "mongodb+srv://admin:hunter2xx@cluster0.abcd.mongodb.net/db", "hunter2xx"),
        _s("header", f"Authorization: Basic {basic}", basic),
        _s("header", f"curl -H 'X-Api-Key: {api_hex}' https://api.example.com", api_hex),
        _s("webhook", f"alerts go to {hook}", hook),
        _s("vendor", f"telegram bot token {telegram}", telegram),
        _s("vendor", f"stripe key {stripe} (live!)", stripe),
        _s("vendor", f"sendgrid: {sendgrid}", sendgrid),
        _s("vendor", f"maps key {google}", google),
        _s("vendor", f"//registry.npmjs.org/:_authToken={npm}", npm),
        _s("jwt", f"session cookie was {jwt}", jwt),
        _s("code", f'client = OpenAI(api_key="{openai}")', openai),
        _s("code", 'password = os.environ.get("DB_PW", "fallbackPw123!")', "fallbackPw123!"),
        _s("cli", "docker login -u bob -p 'Dock3rPw!' registry.example.com", "Dock3rPw!"),
        _s(
            "cli",
            "kubectl create secret generic db --from-literal=password=K8sPw_2026",
            "K8sPw_2026",
        ),
        _s(
            "key block",
            f"-----BEGIN OPENSSH PRIVATE KEY-----\n{key_body}\n-----END OPENSSH PRIVATE KEY-----",
            *key_body.split("\n"),
        ),
        _s(
            "crypto",
            "wallet seed: abandon ability able about above absent absorb abstract "
            "absurd abuse access accident",
            "abandon ability able about above absent",
        ),
        _s("codes", "backup codes 8f3k-2m9x 7qpl-4zr1 for github", "8f3k-2m9x", "7qpl-4zr1"),
        # 078-05-1120 (the wallet-insert number) was here at first and counted as a miss:
        # python-stdnum knows it was never issued. A number of the issued shape replaced it.
        _s("national id", "her SSN is 536-22-1234", "536-22-1234"),
        _s("national id", "NI number AB 12 34 56 C", "AB 12 34 56 C"),
        _s("passport", "passport no. 533380006, expires 2031", "533380006"),
        _s("phone", "Berlin office +49 30 901820", "+49 30 901820"),
        _s("phone", "ring Claire on 06 12 34 56 78", "06 12 34 56 78"),
        _s("phone", "his cell is (415) 555-0132", "(415) 555-0132"),
        _s("email", "write to jürgen.müller@beispiel.de", "jürgen.müller@beispiel.de"),
        _s("email", "alerts to ops+alerts@company.io", "ops+alerts@company.io"),
        _s(
            "postal address",
            "ship it to 1600 Amphitheatre Parkway, Mountain View, CA 94043",
            "1600 Amphitheatre Parkway",
        ),
        _s("postal address", "she moved to 221B Baker Street, London NW1 6XE", "221B Baker Street"),
        _s("card", "card 5500-0000-0000-0004 exp 09/29", "5500-0000-0000-0004"),
        _s("iban", "rent goes to DE89 3704 0044 0532 0130 00", "DE89 3704 0044 0532 0130 00"),
        _s("date of birth", "DOB: 1987-03-14 (for the insurance form)", "1987-03-14"),
    ]


def secret_samples_second() -> list[Sample]:
    """A second batch, written after the first batch's misses were fixed, measured as is."""
    gh = f"ghp_{_t(36)}"
    slack = f"xoxb-{_RNG.randint(10**11, 10**12)}-{_RNG.randint(10**11, 10**12)}-{_t(24)}"
    hf = f"hf_{_t(34)}"
    anthropic = f"sk-ant-api03-{_t(93, _ALNUM + '_-')}AA"
    pg_pw = "N0t-So-S3cret"
    return [
        _s("prose", "guest network password: BlueHeron#77", "BlueHeron#77"),
        _s("prose", "my bank app passcode is 739204", "739204"),
        _s("prose", "alarm code at mum's: 1962", "1962"),
        _s("prose", "creds for the NAS are root / Pl@ntpot9", "Pl@ntpot9"),
        _s("prose", "sign-in for grafana: viewer:ObsV1ew!", "ObsV1ew!"),
        _s("env", f"GITHUB_TOKEN={gh}", gh),
        _s("env", f"SLACK_BOT_TOKEN='{slack}'", slack),
        _s("env", f"HF_TOKEN: {hf}", hf),
        _s("code", f'anthropic.Anthropic(api_key="{anthropic}")', anthropic),
        _s("code", f'DATABASES["default"]["PASSWORD"] = "{pg_pw}"', pg_pw),
        _s("code", 'token = os.getenv("SERVICE_TOKEN", "svc_9f8e7d6c5b4a")', "svc_9f8e7d6c5b4a"),
        _s("url", "redis://:r3dis-Pass@cache.internal:6379/0", "r3dis-Pass"),
        _s("url", "https://bob:Sunny%21Day9@git.example.org/repo", "Sunny%21Day9"),
        _s("cli", "psql 'postgresql://admin:Qw3rty!9@pg:5432/prod'", "Qw3rty!9"),
        _s("cli", "htpasswd -b .htpasswd alice Alic3Pass!", "Alic3Pass!"),
        _s(
            "crypto",
            "recovery phrase, keep offline:\nlegal winner thank year wave sausage "
            "worth useful legal winner thank yellow",
            "legal winner thank year wave sausage",
        ),
        _s("phone", "dentist: 020 7946 0958", "020 7946 0958"),
        _s("phone", "Kenji's number is +81 90-1234-5678", "+81 90-1234-5678"),
        _s("email", "forward invoices to billing.team@exämple.com", "billing.team@exämple.com"),
        _s("card", "Amex 3782 822463 10005 for travel", "3782 822463 10005"),
        _s("iban", "pay into GB82 WEST 1234 5698 7654 32", "GB82 WEST 1234 5698 7654 32"),
        _s("date of birth", "date of birth 03/07/1990 on the form", "03/07/1990"),
        _s("postal address", "new flat: 12 Rue de Rivoli, 75001 Paris", "12 Rue de Rivoli"),
        _s("national id", "SIN 046 454 286 for payroll", "046 454 286"),
        _s(
            "header",
            "Cookie: session=9f3a7c2e1b8d4f6a0e5c3b2a1d9f8e7c",
            "9f3a7c2e1b8d4f6a0e5c3b2a1d9f8e7c",
        ),
    ]


def lookalikes_second() -> list[Lookalike]:
    """Harmless lines of the second batch."""
    texts = [
        ("prose", "the guest network is slow again"),
        ("prose", "we chose passkeys over passwords for the app"),
        ("prose", "creds are in the team vault now"),
        ("prose", "sign-in page redesign: mockups / feedback"),
        ("prose", "login options: google / github / email"),
        ("code", 'host = os.getenv("DB_HOST", "localhost")'),
        ("code", 'os.getenv("DB_PASSWORD", "")'),
        ("code", "timeout = ${TIMEOUT:-30}"),
        ("code", "if not token: raise AuthError('missing token')"),
        ("cli", "redis-cli -h cache.internal -p 6379 ping"),
        ("cli", "git push origin main --force-with-lease"),
        ("counts", "the account is 12/2026 overdue by 3 days"),
        ("counts", "we stored 739204 rows last night"),
        ("counts", "battery at 82% after 1962 cycles"),
        ("ids", "build 2026.11.30-4 passed"),
        ("ids", "container 9f3a7c2e1b8d is unhealthy"),
        ("ids", "trace id 4bf92f3577b34da6a3ce929d0e0e4736"),
        ("numbers", "pi is roughly 3.14159 26535"),
        ("numbers", "route 66 is 2448 miles long"),
        ("places", "the office moved to the Rivoli district"),
        ("places", "flight LH 400 leaves at 13:55 from gate B44"),
        ("dates", "release on 03/07/2027, freeze on 01/07/2027"),
        ("network", "wifi at the office was 5GHz-only this week"),
        ("references", "the recovery phrase goes in the safe, never in notes"),
        ("references", "use ghp_ tokens only for CI, see the wiki"),
    ]
    return [Lookalike(family, text) for family, text in texts]


def lookalikes() -> list[Lookalike]:
    """Harmless lines that look like secrets at a glance: masking any of them loses memory."""
    texts = [
        ("counts", "max_tokens=4096 and temperature 0.2 worked best"),
        ("counts", "token count dropped from 128000 to 32000 after the trim"),
        ("counts", "1600 people attended the keynote"),
        ("prose", "the password reset flow ships on Friday"),
        ("prose", "The secret to good bread is patience."),
        ("prose", "API key rotation is scheduled monthly"),
        ("prose", "The passphrase policy now requires four words"),
        ("prose", "Phone screen with Dana went well"),
        ("prose", "Password: see the 1Password entry 'prod db'"),
        ("code", "call get_api_key() from settings instead of reading env"),
        ("code", "set `DB_PASSWORD` in the vault, never in the repo"),
        ("code", "export PATH=$HOME/.local/bin:$PATH"),
        ("code", "key: value pairs in YAML need a space after the colon"),
        ("code", "use the `sk-` prefix check in the validator"),
        ("cli", "pass --password-file /run/secrets/db to the tool"),
        ("cli", "mysql -h db -u app -p prompts for the password"),
        ("cli", "docker run -p 8080:80 nginx"),
        ("cli", "cron 0 3 * * * runs the sweep"),
        ("ids", "commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 fixed the crash"),
        ("ids", "request id 123e4567-e89b-12d3-a456-426614174000 timed out"),
        ("ids", "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("ids", "Ticket JIRA-12345 and PR #6789 are linked"),
        ("ids", "the model id is claude-3-5-sonnet-20241022"),
        ("numbers", "order #4111-2222 shipped"),
        ("numbers", "version 10.4.12-rc3 is out"),
        ("numbers", "ISBN 978-3-16-148410-0 for the reading list"),
        ("numbers", "Invoice total 1.234,56 EUR"),
        ("numbers", "coordinates 52.5200, 13.4050"),
        ("places", "meeting in room 4.12 at 14:30"),
        ("places", "street food on Baker Street was great"),
        ("places", "postcode lookups now use the Royal Mail API"),
        ("network", "port 5432 on 10.0.0.12 is the replica"),
        ("references", "AKIA is the prefix of AWS access key ids"),
        ("references", "base64 of 'hello' is aGVsbG8="),
        ("dates", "Alice's birthday party is on 2026-03-14"),
    ]
    return [Lookalike(family, text) for family, text in texts]


def secret_samples_third() -> list[Sample]:
    """A third batch, written after the second was measured and its one miss fixed; as is."""
    do = f"dop_v1_{_t(64, _HEX)}"
    gl = f"glpat-{_t(20)}"
    pat = f"github_pat_{_t(22)}_{_t(59)}"
    lin = f"lin_api_{_t(40)}"
    vault = f"hvs.{_t(24)}"
    azure = f"{_t(3)}8Q~{_t(34, _ALNUM + '_-.~')}"
    b64 = base64.b64encode(b"admin:S3cure-Pa55").decode()
    return [
        _s("prose", "the safe combination is 31-7-22", "31-7-22"),
        _s("prose", "my garage opener code: 88213", "88213"),
        _s("prose", "netflix login: dana.k@mail.example / Popcorn!2026", "Popcorn!2026"),
        _s("prose", "Passwort für das WLAN: Sonnenblume#12", "Sonnenblume#12"),
        _s("prose", "le mot de passe du routeur est Azur-Bleu-77", "Azur-Bleu-77"),
        _s("env", f"DIGITALOCEAN_TOKEN={do}", do),
        _s("env", f"export GITLAB_TOKEN='{gl}'", gl),
        _s("env", f"GH_PAT: {pat}", pat),
        _s("env", f"LINEAR_API_KEY={lin}", lin),
        _s("env", f"VAULT_TOKEN={vault}", vault),
        _s("env", f"AZURE_CLIENT_SECRET={azure}", azure),
        _s("code", f'headers = {{"Authorization": "Basic {b64}"}}', b64),
        _s("code", 'db = connect(user="app", password="Tr1cky,pass word")', "Tr1cky,pass word"),
        _s(
            "code",
            "const SECRET = process.env.JWT_SECRET || 'dev-jwt-s3cret-42';",
            "dev-jwt-s3cret-42",
        ),
        _s("url", "smtp://mailer:Ma1l-Pass@smtp.example.com:587", "Ma1l-Pass"),
        _s("url", "ftp://backup:Bkp%40ss99@files.example.net/", "Bkp%40ss99"),
        _s("cli", "mysql -u root -pR00tPass! -h db", "R00tPass!"),
        _s("cli", "curl -u ops:Curl-Secret-1 https://ci.example.com/api", "Curl-Secret-1"),
        _s("cli", "sshpass -p 'Ssh!Pass22' ssh pi@10.0.0.5", "Ssh!Pass22"),
        _s("phone", "call the plumber at +44 7700 900123", "+44 7700 900123"),
        _s("phone", "Oma: 030 12345678", "030 12345678"),
        _s("email", "her private mail is maria.lópez@correo.es", "maria.lópez@correo.es"),
        _s("card", "visa 4012 8888 8888 1881 exp 11/28", "4012 8888 8888 1881"),
        _s("iban", "IBAN fr76 3000 6000 0112 3456 7890 189", "fr76 3000 6000 0112 3456 7890 189"),
        _s("national id", "SSN: 219-09-9999", "219-09-9999"),
        _s("date of birth", "born on 1979-08-23 in Porto", "1979-08-23"),
        _s("postal address", "deliver to 350 Fifth Avenue, New York, NY 10118", "350 Fifth Avenue"),
        _s("postal address", "Ich wohne in der Hauptstraße 5, 10115 Berlin", "Hauptstraße 5"),
    ]


def lookalikes_third() -> list[Lookalike]:
    """Harmless lines of the third batch."""
    texts = [
        ("prose", "the safe is in the basement, behind the boiler"),
        ("prose", "netflix login screen froze on the TV again"),
        ("prose", "Das WLAN im Büro ist heute langsam"),
        ("prose", "le mot de passe doit changer tous les 90 jours"),
        ("code", "password = getpass.getpass()"),
        ("code", 'token_url = "https://auth.example.com/oauth/token"'),
        ("code", "const SECRET_HEADER = 'X-Signature';"),
        ("code", "for key, value in settings.items(): print(key)"),
        ("cli", "mysql -u root -p -h db"),
        ("cli", "curl -s https://ci.example.com/api/health"),
        ("cli", "ssh -p 2222 pi@10.0.0.5"),
        ("counts", "we served 4012 requests in 8888 ms"),
        ("counts", "born-on date labels print at 300 dpi"),
        ("ids", "run 219-09-9999 of the nightly batch is cached"),
        ("ids", "the git tag is v2026.11.30"),
        ("ids", "md5 9e107d9d372bb6826bd81d3542a419d6"),
        ("numbers", "Fifth Avenue parade was moved to noon"),
        ("numbers", "temperatures of -3 to 5 degrees"),
        ("places", "Hauptstraße is closed for the market"),
        ("places", "we flew from Porto to Berlin"),
        ("dates", "the sprint runs 2026-11-23 to 2026-12-04"),
        ("references", "rotate the GITLAB_TOKEN every quarter"),
        ("references", "AZURE_CLIENT_SECRET comes from the key vault"),
        ("references", "see RFC 7617 for Basic auth"),
        ("network", "SMTP on port 587 needs STARTTLS"),
    ]
    return [Lookalike(family, text) for family, text in texts]
