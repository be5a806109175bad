"""A third redaction corpus, written after the fresh one had been measured and its misses fixed.

It measures the rules again on text they have not seen: new phrasings of the same families and
families the fresh corpus did not hold. Like :mod:`tests.redaction_corpus_fresh` it is reported
as it stands (``python bench/redaction.py``) and never used to tune a rule. Values are fake:
tokens come from a fixed seed, numbers are textbook examples or carry computed check digits.
"""

from __future__ import annotations

import random
import string

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(8675309)
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_HEX = "0123456789abcdef"


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def secret_samples() -> list[Sample]:
    """Secrets and personal data the rules were not tuned on."""
    _RNG.seed("secret_samples")  # the same values whatever was called before
    ado = _t(52, string.ascii_lowercase + "234567")
    ghs = "ghs_" + _t(36)
    xoxp = "xoxp-" + _t(11, string.digits) + "-" + _t(12, string.digits) + "-" + _t(32, _HEX)
    gl = "glpat-" + _t(20, _URLSAFE)
    oai = "sk-" + _t(48)
    bot = "MT" + _t(22) + "." + _t(6, _URLSAFE) + "." + _t(38, _URLSAFE)
    aws_secret = _t(40, _B64)
    key_lines = [_t(64, _B64) for _ in range(5)]
    yaml_key = (
        "tls:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    "
        + "\n    ".join(key_lines)
        + "\n    -----END EC PRIVATE KEY-----"
    )
    quote_lines = [_t(70, _B64) for _ in range(3)]
    quoted_key = (
        "> -----BEGIN OPENSSH PRIVATE KEY-----\n> "
        + "\n> ".join(quote_lines)
        + "\n> -----END OPENSSH PRIVATE KEY-----"
    )
    hook = f"https://hooks.slack.com/services/T0{_t(7)}/B0{_t(7)}/{_t(24)}"
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyfQ." + _t(43, _URLSAFE)
    card1 = checkdigits.with_luhn("4916" + _t(11, string.digits))
    card2 = checkdigits.with_luhn("5137" + _t(11, string.digits))
    iban_de = checkdigits.iban("DE", "500105175407324931").lower()
    iban_be = checkdigits.iban("BE", "539007547034")
    wrapped_a = _t(10, string.ascii_lowercase) + _t(8)
    wrapped_b = _t(24)
    return [
        _s("vendor", f"Azure DevOps PAT for the pipeline: {ado}", ado),
        _s("vendor", f"GitHub app installation token ({ghs}) valid 1h", ghs),
        _s("vendor", f'"slack_user_token": "{xoxp}"', xoxp),
        _s("vendor", f"git clone https://oauth2:{gl}@gitlab.example.org/infra/ops.git", gl),
        _s("vendor", f"I pasted my key {oai} into the chat by mistake", oai),
        _s("vendor", f"discord bot token is {bot}", bot),
        _s("vendor", f'aws_secret_access_key = "{aws_secret}"', aws_secret),
        _s("vendor", f'{{"text": "deploy done", "webhook": "{hook}"}}', hook),
        _s("vendor", f"curl -b 'jwt={jwt}' https://intranet.local/", jwt),
        _s("key block", yaml_key, *key_lines),
        _s("key block", quoted_key, *quote_lines),
        _s("split token", f"sk-proj key below\n{wrapped_a}\n{wrapped_b}", wrapped_b),
        _s("password", "my PIN is 2468, don't tell anyone", "2468"),
        _s("password", "Ana: the vault password is Horse-Battery-9!", "Horse-Battery-9!"),
        _s("password", "root/Qwerty123! on the test box", "Qwerty123!"),
        _s("password", "login: admin  password: Adm!n2026", "Adm!n2026"),
        _s("password", "WLAN: Gäste / Schlüssel: Sommer2026!", "Sommer2026!"),
        _s("password", "código de acceso de la puerta: 8080#", "8080"),
        _s("password", "new passphrase = 'blue whale 42'", "blue whale 42"),
        _s("password", "  POSTGRES_PASSWORD: 'Pg-in-compose-7'", "Pg-in-compose-7"),
        _s("password", "--db-password=Flag#Value2 passed to the job", "Flag#Value2"),
        _s("password", "uri = mysql://reporter:R3p0rt!ng@10.1.2.3/stats", "R3p0rt!ng"),
        _s("password", "the admin pass for Jenkins: J3nk1ns-Adm", "J3nk1ns-Adm"),
        _s("password", "Le code du portail est 1937", "1937"),
        _s("cli", "mysql -h db -uroot -pS3cretRoot db_prod", "S3cretRoot"),
        _s("cli", "curl -u 'ci-bot:Ci#Bot-Pass' https://jenkins.local/api/json", "Ci#Bot-Pass"),
        _s("cli", "sshpass -p Hunter2Hunter2 scp backup.tgz pi@nas:", "Hunter2Hunter2"),
        _s("cli", "docker login --username ana --password D0cker!Pw ghcr.io", "D0cker!Pw"),
        _s("header", "X-Auth-Token: " + (tok := _t(32, _HEX)), tok),
        _s("header", "api-key: " + (azk := _t(32, _HEX)) + " (azure openai)", azk),
        _s("email", "Reply-To: <lena.kowalska@wp.pl>", "lena.kowalska@wp.pl"),
        _s("email", "his work email is PETER.M@BIGCORP.COM now", "PETER.M@BIGCORP.COM"),
        _s("email", "contact françois.dupont@laposte.fr for keys", "françois.dupont@laposte.fr"),
        _s("email", "bob [at] example [dot] net", "bob [at] example [dot] net"),
        _s("phone", "Call me: 917-555-0147", "917-555-0147"),
        _s("phone", "Tel. +34 91 123 45 67", "+34 91 123 45 67"),
        _s("phone", "mobile +44 7700 900123", "+44 7700 900123"),
        _s("phone", "Telefonnummer: 089 12345678", "089 12345678"),
        _s("phone", "numéro : 07 81 23 45 67", "07 81 23 45 67"),
        _s("phone", "my cell is (312) 555-0188", "(312) 555-0188"),
        _s(
            "card",
            f"Visa {card1[:4]} {card1[4:8]} {card1[8:12]} {card1[12:]} 12/29",
            card1[12:],
            f"{card1[:4]} {card1[4:8]} {card1[8:12]} {card1[12:]}",
        ),
        _s("card", f"card no {card2}", card2),
        _s("iban", f"Überweisung an {iban_de}", iban_de),
        _s(
            "iban",
            f"IBAN: {iban_be[:4]} {iban_be[4:8]} {iban_be[8:12]} {iban_be[12:]}",
            f"{iban_be[:4]} {iban_be[4:8]} {iban_be[8:12]} {iban_be[12:]}",
        ),
        _s("national id", "SSN: 123456789 (for the payroll form)", "123456789"),
        _s("national id", "Italian tax code MRTMTT25D09F205Z", "MRTMTT25D09F205Z"),
        _s("national id", "Dutch BSN 123456782", "123456782"),
        _s("national id", "NINO AB123456C", "AB123456C"),
        _s("passport", "Passport number: 987654321", "987654321"),
        _s("passport", "pasaporte n.º XDA123456", "XDA123456"),
        _s("date of birth", "b-day / DOB 04/07/1990", "04/07/1990"),
        _s("date of birth", "Ana was born 1990-07-04", "1990-07-04"),
        _s("postal address", "home: 42 Elm Street, Springfield", "42 Elm Street"),
        _s("postal address", "Lieferadresse: Goethestraße 7, 80336 München", "Goethestraße 7"),
        _s("postal address", "j'habite au 8 avenue Victor Hugo, Lyon", "8 avenue Victor Hugo"),
        _s("postal address", "Flat 2, 10 Downing Street", "Flat 2"),
        _s(
            "crypto",
            "recovery phrase: abandon ability able about above absent absorb abstract "
            "absurd abuse access accident",
            "abandon ability able about above absent absorb abstract absurd abuse access accident",
        ),
        _s("2fa", "backup codes 1111-2222 3333-4444", "1111-2222", "3333-4444"),
    ]


def lookalikes() -> list[Lookalike]:
    """Harmless texts the rules were not tuned on."""
    _RNG.seed("lookalikes")  # the same values whatever was called before
    rows = [
        ("counts", "context window: 200k tokens, output max_tokens: 8192"),
        ("counts", "rate limit 60 requests/min per api key"),
        ("counts", "we issued 12 tokens to the beta testers"),
        ("counts", "password attempts: 5 before lockout"),
        ("counts", "PIN length: 6 digits"),
        ("counts", "token_type=bearer expires_in=3600"),
        ("names", 'author = "Ana Silva"'),
        ("names", "authors: Ana, Bo and Chen"),
        ("names", "co-authored-by: Bo Chen"),
        ("paths", "keyfile: /etc/ssl/private/web.key"),
        ("paths", "secrets are mounted at /var/run/secrets/kubernetes.io"),
        ("paths", "passwd is in /etc/passwd, shadow in /etc/shadow"),
        ("references", "password: !vault |"),
        ("references", "DB_PASSWORD: ${{ secrets.DB_PASSWORD }}"),
        ("references", 'token = os.getenv("GITHUB_TOKEN")'),
        ("references", "api_key: env(OPENAI_API_KEY)"),
        ("references", "password_hash = bcrypt.hash(password)"),
        ("references", "secret_name: prod/db/credentials"),
        ("prose", "the key question is who owns the backup"),
        ("prose", "key: F# minor, tempo 96"),
        ("prose", "Pin the dependency to 2.3"),
        ("prose", "a pinch of salt and a pass of the knife"),
        ("prose", "my password manager suggested a longer passphrase"),
        ("prose", "token economics talk on Friday"),
        ("prose", "secret: none, it's all in the README"),
        ("prose", "the session cookie expires after 30 minutes"),
        ("prose", "auth is handled by the gateway now"),
        ("prose", "credentials: ask Bo, he has them in 1Password"),
        ("prose", "we rotated every key after the incident"),
        ("prose", "the signature on the contract is missing"),
        ("prose", "first pet photos are on the NAS"),
        ("prose", "Schlüssel für den Keller liegt beim Nachbarn"),
        ("prose", "la clave es documentar todo"),
        ("prose", "le mot de passe est dans le coffre"),
        ("prose", "backup codes were printed and put in the safe"),
        ("prose", "door code changed, ask the front desk"),
        ("ids", "trace id 4bf92f3577b34da6a3ce929d0e0e4736"),
        ("ids", "span 00f067aa0ba902b7"),
        ("ids", "correlation-id: 7d5b2c1e-9a4f-4c3b-8e2d-1f0a9b8c7d6e"),
        ("ids", "order ORD-7781-2026"),
        ("ids", "container 3f4e5d6c7b8a"),
        ("ids", "build #4711 and run 88213"),
        ("ids", "Jira DREAM-1234 and PR !567"),
        ("ids", "S3 key reports/2026/11/summary.csv"),
        ("ids", "gcr.io/dream-prod-4471/api@sha256:" + _t(64, _HEX)),
        ("ids", "k8s uid 2f1e0d9c-8b7a-6c5d-4e3f-2a1b0c9d8e7f"),
        ("ids", "git tag v1.4.2 (commit 3e1f2a9)"),
        ("ids", "wheel dreamd-0.4.0-py3-none-any.whl"),
        ("numbers", "call 3 of 5 went fine"),
        ("numbers", "room 2.041, building B"),
        ("numbers", "line 1234 of app.py"),
        ("numbers", "the 2026 budget is 1 250 000 EUR"),
        ("numbers", "latency p99 123.45 ms"),
        ("numbers", "chmod 0644 and umask 022"),
        ("numbers", "postcode 10115"),
        ("numbers", "tracking number 9400 1000 0000 0000 0000 00"),
        ("numbers", "lot 2026-11-20-0042"),
        ("dates", "due 2026-12-01, review 01.12.2026"),
        ("dates", "birthday party on Saturday at 7"),
        ("dates", "born-again server after the rebuild"),
        ("network", "redis://cache01:6379/0"),
        ("network", "amqp://rabbit01:5672/%2F"),
        ("network", "ssh -i ~/.ssh/deploy_key deploy@web-03"),
        ("network", "https://user@bitbucket.org/team/repo.git"),
        ("network", "ping 192.168.178.1"),
        ("network", "DNS 1.1.1.1 and 8.8.8.8"),
        ("config", "auth_type = oauth2"),
        ("config", "secret_store: vault"),
        ("config", "password_policy = strict"),
        ("config", "session_timeout=900"),
        ("config", "api_key_header: X-API-Key"),
        ("code", "if token is None: raise AuthError()"),
        ("code", "def verify_password(plain, hashed):"),
        ("code", "SELECT id, email_hash FROM users"),
        ("code", "const key = `${prefix}:${id}`"),
        ("code", 'assert secret != ""'),
        ("places", "meeting at Baker Street station"),
        ("places", "the Avenue Q musical"),
        ("hashes", "sha1 " + _t(40, _HEX)),
        ("hashes", "blake2b " + _t(128, _HEX)),
        ("public keys", "age1" + _t(58, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")),
        ("public keys", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + _t(300, _B64) + " bo@box"),
    ]
    return [Lookalike(family, text) for family, text in rows]


def secret_samples_second() -> list[Sample]:
    """A second unseen batch, written after the first batch's misses were fixed."""
    _RNG.seed("secret_samples_second")  # the same values whatever was called before
    gh = "gho_" + _t(36)
    hf = "hf_" + _t(34)
    stripe = "sk_test_" + _t(24)
    aws = "AKIA" + _t(16, string.ascii_uppercase + string.digits)
    rnd = _t(28)
    pem = [_t(64, _B64) for _ in range(4)]
    block = (
        "- key:\n  -----BEGIN RSA PRIVATE KEY-----\n  "
        + "\n  ".join(pem)
        + ("\n  -----END RSA PRIVATE KEY-----")
    )
    card = checkdigits.with_luhn("3782" + _t(10, string.digits))
    iban = checkdigits.iban("ES", "91" + _t(18, string.digits))
    return [
        # An e-mail address spelled out is an e-mail address (it stood among the look-alikes
        # until spelled-out addresses were masked).
        _s("email", "Author: Ana Silva <ana at uni dot pt>", "ana at uni dot pt"),
        _s("vendor", f"oauth token from the device flow: {gh}", gh),
        _s("vendor", f"huggingface `{hf}` for the embedding job", hf),
        _s("vendor", f"STRIPE_SECRET={stripe}", stripe),
        _s("vendor", f"found {aws} in an old commit, rotated it", aws),
        _s("vendor", f'client_secret: "{rnd}"', rnd),
        _s("key block", block, *pem),
        _s("password", "the password for prod-db is Tr4mpoline!", "Tr4mpoline!"),
        _s("password", "PASSWORD=letmein2026", "letmein2026"),
        _s("password", "pwd=hunter2x", "hunter2x"),
        _s("password", "wifi pw → CoffeeShop#11", "CoffeeShop#11"),
        _s("password", "Zugangsdaten: ana / Passwort Bl4uerHimmel", "Bl4uerHimmel"),
        _s("password", "senha: Brasil#2026 (não compartilhar)", "Brasil#2026"),
        _s("password", "パスワード＝Tokyo2026!", "Tokyo2026!"),
        _s("password", "gate code 5521", "5521"),
        _s("password", "the alarm PIN: 7788", "7788"),
        _s("cli", "PGPASSWORD='pg pass 7' pg_dump -h db app > app.sql", "pg pass 7"),
        _s("cli", "redis-cli -a 'R3dis!Pw' info", "R3dis!Pw"),
        _s("cli", "mysqldump -u backup -pB4ckup!Now --all-databases", "B4ckup!Now"),
        _s("url", "postgresql://ana:An4%21Secret@db.internal/ana", "An4%21Secret"),
        _s("url", "https://deploy:Dep1oy-Key@registry.internal/v2/", "Dep1oy-Key"),
        _s("header", "Authorization: Token " + (tok := _t(40, _HEX)), tok),
        _s("email", "write to ana.maria.silva@uni-lisboa.pt", "ana.maria.silva@uni-lisboa.pt"),
        _s(
            "email",
            "CC: m.rossi@libero.it, j.smith@yahoo.co.uk",
            "m.rossi@libero.it",
            "j.smith@yahoo.co.uk",
        ),
        _s("phone", "ring Bo on 0207 946 0321", "0207 946 0321"),
        _s("phone", "Handynummer 0176 12345678", "0176 12345678"),
        _s("phone", "WhatsApp: +55 11 98765-4321", "+55 11 98765-4321"),
        _s("phone", "phone: +81 90-1234-5678", "+81 90-1234-5678"),
        _s("card", f"amex {card}", card),
        _s("iban", f"cuenta {iban}", iban),
        _s("national id", "SSN 457-55-5463", "457-55-5463"),
        _s("national id", "codice fiscale: VRDGPP80A01H501X", "VRDGPP80A01H501X"),
        _s("passport", "passport # X1234567", "X1234567"),
        _s("date of birth", "Date of birth: 14 February 1988", "14 February 1988"),
        _s("postal address", "we moved to 17 Maple Avenue, Toronto", "17 Maple Avenue"),
        _s("postal address", "Büro: Lindenstraße 23, Köln", "Lindenstraße 23"),
        _s("postal address", "calle de Alcalá 48, Madrid", "calle de Alcalá 48"),
    ]


def lookalikes_second() -> list[Lookalike]:
    """A second unseen batch of harmless texts."""
    _RNG.seed("lookalikes_second")  # the same values whatever was called before
    rows = [
        ("counts", "max_output_tokens = 2048"),
        ("counts", "tokens/sec: 85"),
        ("counts", "password changes: 3 this year"),
        ("counts", "the key count dropped to 12"),
        ("names", "authorised by the board"),
        ("paths", "private key at ~/.ssh/id_rsa (never commit it)"),
        ("paths", "token cache in ~/.cache/dreamd/tokens"),
        ("references", "password: ${SMTP_PASSWORD:?required}"),
        ("references", "secret = vault.read('kv/app')"),
        ("references", "apiKey: process.env.API_KEY"),
        ("prose", "PIN code reset needs the PUK"),
        ("prose", "the pass over the Alps was closed"),
        ("prose", "passport renewal is due in May"),
        ("prose", "security question feature was removed"),
        ("prose", "my secret plan is to sleep more"),
        ("prose", "cookie recipe: 200 g butter"),
        ("prose", "signature: see attachment"),
        ("prose", "die Kennwortrichtlinie gilt ab Montag"),
        ("prose", "contraseña olvidada, pedí una nueva"),
        ("prose", "token: see the vault"),
        ("ids", "cluster id c-9f8e7d6c5b4a"),
        ("ids", "release-2026.11.20-build.7"),
        ("ids", "uuid 123e4567-e89b-12d3-a456-426614174000"),
        ("ids", "commit a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0"),
        ("ids", "npm package @dreamco/redact-core@1.0.0"),
        ("numbers", "phone model Pixel 8 Pro"),
        ("numbers", "invoice no. 2026-11-0042"),
        ("numbers", "error code 0xC0000005"),
        ("numbers", "order total 1 299,00 €"),
        ("numbers", "between 09:00-17:30 daily"),
        ("numbers", "ratio 1:1000000"),
        ("numbers", "page 123 of 456"),
        ("dates", "born in the 80s, raised in Porto"),
        ("dates", "deadline 31/12/2026"),
        ("network", "10.20.30.40:9090/metrics"),
        ("network", "https://grafana.internal/d/abc123/overview?orgId=1"),
        ("network", "mongodb://mongo-0.mongo:27017/?replicaSet=rs0"),
        ("code", "user.password = hash(user.password)"),
        ("code", "headers['Authorization'] = f'Bearer {token}'"),
        ("code", "let pin = pins.first()"),
        ("places", "lunch at Union Square"),
        ("places", "Platform 9 3/4"),
    ]
    return [Lookalike(family, text) for family, text in rows]


def secret_samples_third() -> list[Sample]:
    """A third unseen batch, written after the second batch's misses were fixed; reported as
    it stands."""
    _RNG.seed("secret_samples_third")  # the same values whatever was called before
    glpat = "glpat-" + _t(20, _URLSAFE)
    anth = "sk-ant-api03-" + _t(90, _URLSAFE)
    sendgrid = "SG." + _t(22, _URLSAFE) + "." + _t(43, _URLSAFE)
    raw = _t(32)
    body = [_t(64, _B64) for _ in range(3)]
    pgp = (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n"
        + "\n".join(body)
        + ("\n-----END PGP PRIVATE KEY BLOCK-----")
    )
    visa = checkdigits.with_luhn("4024" + _t(11, string.digits))
    iban = checkdigits.iban("IT", "X" + _t(22, string.digits))
    return [
        _s("vendor", f"CI var GITLAB_TOKEN set to {glpat}", glpat),
        _s("vendor", f"Anthropic console key: {anth}", anth),
        _s("vendor", f"sendgrid api key {sendgrid} for newsletters", sendgrid),
        _s("vendor", f"export SERVICE_API_KEY='{raw}'", raw),
        _s("key block", pgp, *body),
        _s("password", "Password for the printer admin page is Pr1nt3r!", "Pr1nt3r!"),
        _s("password", "db password -> Zebra!Stripes9", "Zebra!Stripes9"),
        _s("password", "mot de passe du wifi : Maison2026", "Maison2026"),
        _s("password", "Kennwort = Rotkehlchen#5", "Rotkehlchen#5"),
        _s("password", "smtp_pass: 'Mail Me 2026'", "Mail Me 2026"),
        _s("password", "locker combination 31-07-19", "31-07-19"),
        _s("password", "CVC: 482", "482"),
        _s("cli", "sqlcmd -S prod -U sa -P 'S@ Pa55word'", "S@ Pa55word"),
        _s("cli", "zip -P Arch1ve#Pw logs.zip *.log", "Arch1ve#Pw"),
        _s("url", "amqps://svc:Rabb1t%23Mq@mq.internal:5671/", "Rabb1t%23Mq"),
        _s(
            "header",
            "Proxy-Authorization: Basic Ym9iOnByb3h5cGFzczIwMjY=",
            "Ym9iOnByb3h5cGFzczIwMjY=",
        ),
        _s(
            "email",
            "new hire: Zoë Müller-Lüdenscheidt, zoe.mueller@firma.de",
            "zoe.mueller@firma.de",
        ),
        _s("email", "ping ops+alerts@dreamco.io", "ops+alerts@dreamco.io"),
        _s("phone", "Notfallnummer Praxis: 030 4567890", "030 4567890"),
        _s("phone", "call +1-202-555-0175", "+1-202-555-0175"),
        _s("phone", "mobile 06 98 76 54 32", "06 98 76 54 32"),
        _s(
            "card",
            f"VISA {visa[:4]}-{visa[4:8]}-{visa[8:12]}-{visa[12:]}",
            f"{visa[:4]}-{visa[4:8]}-{visa[8:12]}-{visa[12:]}",
        ),
        _s("iban", f"IBAN {iban}", iban),
        _s("national id", "Steuer-ID: 12 345 678 901", "12 345 678 901"),
        _s("national id", "CPF 529.982.247-25", "529.982.247-25"),
        _s("passport", "Reisepassnummer C4J9KL2M1", "C4J9KL2M1"),
        _s("date of birth", "D.O.B.: 1979-11-02", "1979-11-02"),
        _s("postal address", "send it to 55 Water Street, Brooklyn", "55 Water Street"),
        _s("postal address", "Adres: Prinsengracht 263, Amsterdam", "Prinsengracht 263"),
        _s("security answers", "security answer: Rosebud", "Rosebud"),
    ]


def lookalikes_third() -> list[Lookalike]:
    """A third unseen batch of harmless texts."""
    _RNG.seed("lookalikes_third")  # the same values whatever was called before
    rows = [
        ("counts", "max_tokens: 1024, top_p: 0.9"),
        ("counts", "we burned 3.2M tokens yesterday"),
        ("counts", "key_length=256 bits"),
        ("names", "Author: Zoë Müller"),
        ("names", "auth0 tenant: dreamco-prod"),
        ("paths", "pwd → /home/ana/projects/dreamd"),
        ("paths", "token file at /var/lib/dreamd/tokens.json"),
        ("references", "password = ENV['DB_PASSWORD']"),
        ("references", "token: {{ .Values.token }}"),
        ("references", "secretRef: smtp-credentials"),
        ("prose", "pass the salt, please"),
        ("prose", "the password field must not autocomplete"),
        ("prose", "tokenization is slow on CJK"),
        ("prose", "secret sauce: good defaults"),
        ("prose", "session 12: deploy review"),
        ("prose", "we need a better key rotation story"),
        ("prose", "PIN pad arrived for the office"),
        ("ids", "ticket SEC-2026-0117"),
        ("ids", "digest md5:" + _t(32, _HEX)),
        ("ids", "run id 20261120T030000Z-7"),
        ("ids", "Stripe customer cus_NffrFeUfNV2Hib"),
        ("ids", "image ghcr.io/dreamco/dreamd:0.4.0"),
        ("numbers", "SKU 400-123-4567"),
        ("numbers", "call volume 12 000 per day"),
        ("numbers", "order 5105-1051-0510-5106 refunded"),
        ("numbers", "version 4.2.1234.5678"),
        ("numbers", "ZIP 94103"),
        ("dates", "11/20/2026 14:05:33 UTC"),
        ("network", "https://docs.python.org/3/library/re.html#re.ASCII"),
        ("network", "ssh://git@github.com/dreamco/dreamd.git"),
        ("network", "172.20.0.0/16 and fd12:3456:789a::/48"),
        ("code", "if (password.length < 12) return false;"),
        ("code", "api_key=None  # set in the env"),
        ("places", "Elm Street nightmare marathon"),
        ("places", "Baker Street Irregulars meetup"),
    ]
    return [Lookalike(family, text) for family, text in rows]
