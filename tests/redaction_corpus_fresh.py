"""A second redaction corpus, written the way careless note-takers and attackers write.

Kept apart from :mod:`tests.redaction_corpus` and never used to tune the rules: it was written
before the rules it measures, and it is reported as it stands (``python bench/redaction.py``).
Each :class:`Sample` is a text a note or a transcript could hold, the family it belongs to, and
the secret strings redaction must remove from it. Each :class:`Lookalike` is a text redaction
must leave byte for byte as it is. Every value is fake: tokens are generated from a fixed seed,
numbers are textbook examples or generated with their check digits.
"""

from __future__ import annotations

import random
import string
from typing import NamedTuple

from tests import checkdigits

_RNG = random.Random(20261214)
_ALNUM = string.ascii_letters + string.digits
_B64 = _ALNUM + "+/"
_URLSAFE = _ALNUM + "-_"
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"


class Sample(NamedTuple):
    """A text holding secrets: ``secrets`` must all be gone from its redaction."""

    family: str
    text: str
    secrets: tuple[str, ...]


class Lookalike(NamedTuple):
    """A text that only looks sensitive: its redaction must equal it."""

    family: str
    text: str


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _card(prefix: str, length: int) -> str:
    body = prefix + "".join(_RNG.choice(string.digits) for _ in range(length - len(prefix) - 1))
    return checkdigits.with_luhn(body)


def _grouped(number: str, size: int = 4, sep: str = " ") -> str:
    return sep.join(number[i : i + size] for i in range(0, len(number), size))


def _pem(label: str, lines: int) -> tuple[str, list[str]]:
    body = [_t(64, _B64) for _ in range(lines)] + [_t(40, _B64) + "=="]
    block = f"-----BEGIN {label}-----\n" + "\n".join(body) + f"\n-----END {label}-----"
    return block, body


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _vendor_samples() -> list[Sample]:
    openai = "sk-proj-" + _t(48, _URLSAFE) + "T3BlbkFJ" + _t(20, _URLSAFE)
    anthropic = "sk-ant-api03-" + _t(93, _URLSAFE) + "AA"
    ghp = "ghp_" + _t(36)
    fine = "github_pat_11" + _t(20, _UPPER) + "_" + _t(59)
    glptt = "glptt-" + _t(40, _HEX)
    glsoat = "glsoat-" + _t(20, _URLSAFE)
    glcbt = "glcbt-" + _t(2, string.digits) + "_" + _t(20, _URLSAFE)
    gldt = "gldt-" + _t(20, _URLSAFE)
    rk = "rk_live_" + _t(99)
    whsec = "whsec_" + _t(32)
    slack = "xoxb-" + _t(12, string.digits) + "-" + _t(13, string.digits) + "-" + _t(24)
    hook = f"https://hooks.slack.com/services/T{_t(8, _UPPER)}/B{_t(8, _UPPER)}/{_t(24)}"
    discord_hook = f"https://discord.com/api/webhooks/{_t(19, string.digits)}/{_t(68, _URLSAFE)}"
    tele = f"{_t(10, string.digits)}:AA{_t(33, _URLSAFE)}"
    hf = "hf_" + _t(34)
    npm = "npm_" + _t(36)
    pypi = "pypi-AgEIcHlwaS5vcmc" + _t(70, _URLSAFE)
    dckr = "dckr_pat_" + _t(27, _URLSAFE)
    aws_id = "AKIA" + _t(16, _UPPER)
    aws_secret = _t(40, _B64)
    asia = "ASIA" + _t(16, _UPPER)
    session_token = "IQoJb3JpZ2luX2VjE" + _t(300, _B64)
    azure_secret = _t(3, _ALNUM) + "8Q~" + _t(34, _URLSAFE + ".~")
    account_key = _t(86, _B64) + "=="
    sas_sig = _t(43, _ALNUM) + "%3D"
    gcp_api = "AIza" + _t(35, _URLSAFE)
    gocspx = "GOCSPX-" + _t(28, _URLSAFE)
    sg = "SG." + _t(22, _URLSAFE) + "." + _t(43, _URLSAFE)
    twilio_sid = "AC" + _t(32, _HEX)
    twilio_auth = _t(32, _HEX)
    mailgun = "key-" + _t(32, _HEX)
    replicate = "r8_" + _t(37)
    groq = "gsk_" + _t(52)
    openrouter = "sk-or-v1-" + _t(64, _HEX)
    mistral = _t(32)
    cohere = _t(40)
    hvs = "hvs." + _t(24) + _t(70, _URLSAFE)
    ops = "ops_eyJ" + _t(120, _URLSAFE)
    doppler = "dp.st.prd." + _t(40)
    tfc = _t(14, string.ascii_lowercase + string.digits) + ".atlasv1." + _t(67)
    pulumi = "pul-" + _t(40, _HEX)
    nfp = "nfp_" + _t(36)
    cloudflare = _t(40, _URLSAFE)
    dop = "dop_v1_" + _t(64, _HEX)
    heroku = "HRKU-" + _t(60, _URLSAFE)
    lin = "lin_api_" + _t(40)
    ntn = "ntn_" + _t(46)
    figd = "figd_" + _t(40, _URLSAFE)
    airtable = "pat" + _t(14) + "." + _t(64, _HEX)
    pmak = "PMAK-" + _t(24, _HEX) + "-" + _t(34, _HEX)
    sentry = "sntrys_eyJ" + _t(100, _URLSAFE)
    datadog = _t(32, _HEX)
    nrak = "NRAK-" + _t(27, _UPPER)
    glsa = "glsa_" + _t(32) + "_" + _t(8, _HEX)
    shpat = "shpat_" + _t(32, _HEX)
    sbp = "sbp_" + _t(40, _HEX)
    pcsk = "pcsk_" + _t(6) + "_" + _t(60)
    lsv2 = "lsv2_pt_" + _t(32, _HEX) + "_" + _t(10, _HEX)
    tskey = "tskey-auth-" + _t(12) + "CNTRL-" + _t(33)
    age = "AGE-SECRET-KEY-1" + _t(58, _UPPER)
    mapbox = "sk.eyJ1Ijoi" + _t(40, _URLSAFE) + "." + _t(22, _URLSAFE)
    dapi = "dapi" + _t(32, _HEX)
    atatt = "ATATT3xFfGF0" + _t(180, _URLSAFE)
    fcm = "AAAA" + _t(7, _URLSAFE) + ":APA91b" + _t(134, _URLSAFE)
    okta = "00" + _t(40, _URLSAFE)
    algolia = _t(32, _HEX)
    ngrok = _t(27) + "_" + _t(21)
    circle = "CCIPAT_" + _t(22) + "_" + _t(40, _HEX)
    return [
        _s("vendor: OpenAI", f"new OpenAI key for the summariser: {openai}", openai),
        _s("vendor: Anthropic", f"claude key {anthropic} (team plan, don't share)", anthropic),
        _s("vendor: GitHub", f"- gh token {ghp} expires in 30 days", ghp),
        _s("vendor: GitHub", f"fine grained PAT for the release bot → {fine}", fine),
        _s("vendor: GitLab", f"pipeline trigger token {glptt}", glptt),
        _s("vendor: GitLab", f"gitlab SCIM token: {glsoat}", glsoat),
        _s("vendor: GitLab", f"CI job token looked like {glcbt} in the log", glcbt),
        _s("vendor: GitLab", f"deploy token {gldt} for the registry", gldt),
        _s("vendor: Stripe", f"restricted stripe key (read only) {rk}", rk),
        _s("vendor: Stripe", f"webhook signing secret = {whsec}", whsec),
        _s("vendor: Slack", f"slack bot: {slack}", slack),
        _s("vendor: Slack", f"alerts go to {hook}", hook),
        _s("vendor: Discord", f"discord webhook for #deploys {discord_hook}", discord_hook),
        _s("vendor: Telegram", f"@dreamy_bot token {tele}", tele),
        _s("vendor: Hugging Face", f"HF read token {hf}", hf),
        _s("vendor: npm", f"npm publish token {npm} (automation)", npm),
        _s("vendor: PyPI", f"pypi upload token {pypi}", pypi),
        _s("vendor: Docker", f"docker hub PAT {dckr}", dckr),
        _s(
            "vendor: AWS",
            f"aws creds for the backup user: {aws_id} / {aws_secret}",
            aws_id,
            aws_secret,
        ),
        _s(
            "vendor: AWS",
            f"temporary key {asia} with session token {session_token}",
            asia,
            session_token,
        ),
        _s(
            "vendor: Azure",
            f"Azure AD app secret (value, not the id!): {azure_secret}",
            azure_secret,
        ),
        _s(
            "vendor: Azure",
            "DefaultEndpointsProtocol=https;AccountName=dreamstore;"
            f"AccountKey={account_key};EndpointSuffix=core.windows.net",
            account_key,
        ),
        _s(
            "vendor: Azure",
            "https://dreamstore.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rl"
            f"&se=2026-12-31T00:00:00Z&st=2026-11-01T00:00:00Z&spr=https&sig={sas_sig}",
            sas_sig,
        ),
        _s("vendor: Google", f"maps key {gcp_api} restricted to our domain", gcp_api),
        _s("vendor: Google", f"oauth client secret {gocspx}", gocspx),
        _s("vendor: SendGrid", f"sendgrid {sg}", sg),
        _s("vendor: Twilio", f"twilio account {twilio_sid} auth token {twilio_auth}", twilio_auth),
        _s("vendor: Mailgun", f"mailgun api key {mailgun}", mailgun),
        _s("vendor: Replicate", f"replicate {replicate}", replicate),
        _s("vendor: Groq", f"groq key {groq}", groq),
        _s("vendor: OpenRouter", f"openrouter {openrouter}", openrouter),
        _s("vendor: unprefixed, named", f"MISTRAL_API_KEY={mistral}", mistral),
        _s("vendor: unprefixed, named", f'cohere api key: "{cohere}"', cohere),
        _s("vendor: Vault", f"vault root token {hvs}", hvs),
        _s("vendor: 1Password", f"OP_SERVICE_ACCOUNT_TOKEN={ops}", ops),
        _s("vendor: Doppler", f"doppler service token {doppler}", doppler),
        _s("vendor: Terraform Cloud", f"TFC token {tfc}", tfc),
        _s("vendor: Pulumi", f"pulumi access token {pulumi}", pulumi),
        _s("vendor: Netlify", f"netlify PAT {nfp}", nfp),
        _s("vendor: unprefixed, named", f"CLOUDFLARE_API_TOKEN: {cloudflare}", cloudflare),
        _s("vendor: DigitalOcean", f"do token {dop}", dop),
        _s("vendor: Heroku", f"heroku key {heroku}", heroku),
        _s("vendor: Linear", f"linear {lin}", lin),
        _s("vendor: Notion", f"notion integration secret {ntn}", ntn),
        _s("vendor: Figma", f"figma token: {figd}", figd),
        _s("vendor: Airtable", f"airtable PAT {airtable}", airtable),
        _s("vendor: Postman", f"postman api key {pmak}", pmak),
        _s("vendor: Sentry", f"SENTRY_AUTH_TOKEN={sentry}", sentry),
        _s("vendor: unprefixed, named", f"DD_API_KEY={datadog}", datadog),
        _s("vendor: New Relic", f"new relic user key {nrak}", nrak),
        _s("vendor: Grafana", f"grafana service account token {glsa}", glsa),
        _s("vendor: Shopify", f"shopify admin token {shpat}", shpat),
        _s("vendor: Supabase", f"supabase access token {sbp}", sbp),
        _s("vendor: Pinecone", f"pinecone {pcsk}", pcsk),
        _s("vendor: LangSmith", f"LANGCHAIN_API_KEY={lsv2}", lsv2),
        _s("vendor: Tailscale", f"tailscale auth key {tskey}", tskey),
        _s("vendor: age", f"age identity {age}", age),
        _s("vendor: Mapbox", f"mapbox secret token {mapbox}", mapbox),
        _s("vendor: Databricks", f"databricks {dapi}", dapi),
        _s("vendor: Atlassian", f"jira api token {atatt}", atatt),
        _s("vendor: Firebase", f"FCM server key {fcm}", fcm),
        _s("vendor: unprefixed, named", f"okta api token = {okta}", okta),
        _s("vendor: unprefixed, named", f"ALGOLIA_ADMIN_KEY={algolia}", algolia),
        _s("vendor: unprefixed, named", f"ngrok authtoken {ngrok}", ngrok),
        _s("vendor: CircleCI", f"circleci personal token {circle}", circle),
    ]


def _password_samples() -> list[Sample]:
    rows = [
        ("password: assignment", "DB_PASS=Gr33nT3a!2026", "Gr33nT3a!2026"),
        ("password: assignment", "SMTP_PIN=4821", "4821"),
        ("password: assignment", "ADMIN_PWD='k9#Lm2$pQ'", "k9#Lm2$pQ"),
        ("password: assignment", "export REDIS_AUTH=xY7!kq2Lmn", "xY7!kq2Lmn"),
        ("password: assignment", "MASTER_KEY=8f2e9c1d7b", "8f2e9c1d7b"),
        ("password: assignment", "JWT_SIGNING_SECRET=mumble-42-jelly", "mumble-42-jelly"),
        ("password: assignment", "ENCRYPTION_PASSPHRASE=river stone 77", "river stone 77"),
        (
            "password: quoted",
            'password = "correct horse battery staple"',
            "correct horse battery staple",
        ),
        ("password: quoted", "password: 'p,a;ss w0rd'", "p,a;ss w0rd"),
        ("password: quoted", '"db_password": "S3cure, but long"', "S3cure, but long"),
        ("password: with @", "router admin pw: P@ssw0rd!2026", "P@ssw0rd!2026"),
        ("password: with @", "mail password is hello@World99", "hello@World99"),
        ("password: prose", "the wifi password for guests is BlueHouse#77", "BlueHouse#77"),
        ("password: prose", "Password for the NAS: tEa4two&me", "tEa4two&me"),
        ("password: prose", "pw for grafana admin = Zebra-Crossing-19", "Zebra-Crossing-19"),
        ("password: prose", "new laptop login pass: Kiwi2026kiwi", "Kiwi2026kiwi"),
        ("password: other languages", "Passwort: Sonnenblume#42", "Sonnenblume#42"),
        ("password: other languages", "WLAN-Kennwort ist Fritz!Box7590x", "Fritz!Box7590x"),
        ("password: other languages", "mot de passe : Chaton-Rouge-88", "Chaton-Rouge-88"),
        ("password: other languages", "mdp du serveur = rT5#vB8q", "rT5#vB8q"),
        ("password: other languages", "contraseña: Mariposa_2026", "Mariposa_2026"),
        ("password: other languages", "la clave del wifi es Casa-Azul-555", "Casa-Azul-555"),
        ("password: other languages", "senha do banco: Tucano#808", "Tucano#808"),
        ("password: other languages", "wachtwoord: Fiets!Rood9", "Fiets!Rood9"),
        ("password: other languages", "hasło do VPN: Zubr2026!", "Zubr2026!"),
        ("password: other languages", "пароль от почты: Medved_1977", "Medved_1977"),
        ("password: other languages", "数据库密码：Panda2026xyz", "Panda2026xyz"),
        ("password: other languages", "ルーターのパスワード: Sakura#2026", "Sakura#2026"),
        ("password: other languages", "la password di root è Gatto.Nero.12", "Gatto.Nero.12"),
        ("password: code", 'conn = psycopg.connect(password="Lx9!wq2Z")', "Lx9!wq2Z"),
        (
            "password: code",
            "db.createUser({user: 'app', pwd: 'Pz7#mongo', roles: []})",
            "Pz7#mongo",
        ),
        ("password: code", "ALTER USER app WITH PASSWORD 'Pg!2026secret';", "Pg!2026secret"),
        ("password: code", "CREATE USER 'ro'@'%' IDENTIFIED BY 'MyRo#Pass1';", "MyRo#Pass1"),
        ("password: code", "spring.datasource.password=Sprng#Boot42", "Sprng#Boot42"),
        (
            "password: code",
            "Server=db01;Database=crm;User Id=sa;Password=Sa!Pass2026;",
            "Sa!Pass2026",
        ),
        ("password: code", "jdbc:mysql://db01:3306/crm?user=crm&password=Crm2026pw", "Crm2026pw"),
        ("codes and PINs", "door code for the office is 4711#", "4711"),
        ("codes and PINs", "alarm code: 2580", "2580"),
        ("codes and PINs", "garage keypad 9931", "9931"),
        ("codes and PINs", "bank card PIN 7319", "7319"),
        ("codes and PINs", "SIM PUK 12345678, PIN 0000 changed to 4462", "12345678", "4462"),
        ("codes and PINs", "safe combination 12-34-56", "12-34-56"),
        ("codes and PINs", "Türcode Keller: 1357", "1357"),
        ("codes and PINs", "card CVV 731, expires 09/28", "731"),
        ("wifi", "WPA2 key: lemon-tree-0815", "lemon-tree-0815"),
        ("wifi", "nmcli dev wifi connect HomeNet password Hx7kq!22", "Hx7kq!22"),
        ("wifi", "psk=summerhouse2026", "summerhouse2026"),
        ("security answers", "security question (first pet): Biscuit", "Biscuit"),
        ("security answers", "mother's maiden name: Kowalczyk", "Kowalczyk"),
    ]
    return [_s(family, text, *secrets) for family, text, *secrets in rows]


def _cli_samples() -> list[Sample]:
    rows = [
        ("cli flag", "mysql -u root -pR00tMy!sql shop", "R00tMy!sql"),
        ("cli flag", "mysqldump --password=Dump#2026 crm > crm.sql", "Dump#2026"),
        ("cli flag", "PGPASSWORD=pgPass!77 psql -h db01 -U app", "pgPass!77"),
        ("cli flag", "curl -u deploy:Dep!oy2026 https://ci.internal/api", "Dep!oy2026"),
        ("cli flag", "curl --user 'admin:Adm1n pass' https://nas.local", "Adm1n pass"),
        ("cli flag", "sshpass -p 'Ssh#Pass9' ssh pi@10.0.0.7", "Ssh#Pass9"),
        ("cli flag", "docker login -u bot -p Dock3rHub! registry.gitlab.com", "Dock3rHub!"),
        ("cli flag", "redis-cli -h cache01 -a Red1s#Auth ping", "Red1s#Auth"),
        ("cli flag", "htpasswd -b /etc/nginx/.htpasswd ana Nginx#Ana1", "Nginx#Ana1"),
        ("cli flag", "smbclient //nas/share -U ana%Smb#Share7", "Smb#Share7"),
        ("cli flag", "openssl pkcs12 -export -out c.p12 -passout pass:P12#export", "P12#export"),
        (
            "cli flag",
            "keytool -genkey -storepass Store#Pass1 -keypass Key#Pass2",
            "Store#Pass1",
            "Key#Pass2",
        ),
        ("cli flag", "zip -P Zip#Secret9 backup.zip notes/", "Zip#Secret9"),
        ("cli flag", "7z a -pSevenZip#1 archive.7z docs", "SevenZip#1"),
        ("cli flag", "sqlcmd -S db02 -U sa -P Sql#Server2026 -Q 'select 1'", "Sql#Server2026"),
        ("cli flag", "ldapsearch -x -D cn=admin -w Ldap#Bind3 -b dc=corp", "Ldap#Bind3"),
        ("cli flag", "rabbitmqctl add_user monitor Rabbit#Mq5", "Rabbit#Mq5"),
        ("cli flag", "echo 'Sud0#Pass' | sudo -S apt upgrade", "Sud0#Pass"),
        (
            "cli flag",
            "kubectl create secret generic db --from-literal=password=K8s#Lit3ral",
            "K8s#Lit3ral",
        ),
        (
            "cli flag",
            "helm install pg bitnami/postgresql --set auth.postgresPassword=Helm#Pg9",
            "Helm#Pg9",
        ),
        ("cli flag", "docker run -e POSTGRES_PASSWORD=Pg#Docker1 postgres:16", "Pg#Docker1"),
        (
            "cli flag",
            "wget --http-user=ana --http-password=Wget#Pw1 https://files.local/x",
            "Wget#Pw1",
        ),
        ("cli flag", "gpg --batch --passphrase 'Gpg sign 2026' --sign notes.tar", "Gpg sign 2026"),
        ("cli flag", "ssh-keygen -t ed25519 -N 'Keygen#Pass4' -f deploy_key", "Keygen#Pass4"),
    ]
    return [_s(family, text, *secrets) for family, text, *secrets in rows]


def _url_samples() -> list[Sample]:
    rows = [
        ("url userinfo", "DATABASE_URL=postgres://app:Pg%40ss2026@db01:5432/app", "Pg%40ss2026"),
        ("url userinfo", "redis://:Red1sOnly!@cache01:6379/0", "Red1sOnly!"),
        (
            "url userinfo",
            "mongodb+srv://svc:M0ngo#Atlas@cluster0.ab1cd.mongodb.net/prod",
            "M0ngo#Atlas",
        ),
        ("url userinfo", "broker: amqp://celery:C3lery!mq@rabbit01:5672//", "C3lery!mq"),
        ("url userinfo", "ftp://upload:Ftp_Up2026@files.example.net/in", "Ftp_Up2026"),
        ("url userinfo", "the mirror is https://ana:p@ss@w0rd@mirror.internal/repo", "p@ss@w0rd"),
        (
            "url userinfo",
            "git remote set-url origin https://oauth2:glpat-"
            "Ab3dEf6hIj9kLm2nOp5q@gitlab.com/team/app.git",
            "glpat-Ab3dEf6hIj9kLm2nOp5q",
        ),
        (
            "url userinfo",
            "pip install --index-url https://pypi:Idx#Pass7@pkgs.internal/simple",
            "Idx#Pass7",
        ),
        (
            "signed url",
            "presigned: https://bkt.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC"
            "-SHA256&X-Amz-Credential=AKIAQ3EGUTZ7YHJKL4MN%2F20261120%2Fus-east-1%2Fs3%2Faws4_"
            "request&X-Amz-Signature=9f2c" + "1e7b" * 15,
            "9f2c" + "1e7b" * 15,
            "AKIAQ3EGUTZ7YHJKL4MN",
        ),
        (
            "signed url",
            "https://storage.googleapis.com/b/o.pdf?X-Goog-Signature=" + "a3" * 64,
            "a3" * 64,
        ),
        (
            "signed url",
            "otpauth://totp/Acme:ana?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Acme",
            "JBSWY3DPEHPK3PXPJBSWY3DP",
        ),
    ]
    return [_s(family, text, *secrets) for family, text, *secrets in rows]


def _header_samples() -> list[Sample]:
    jwt = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbmEiLCJleHAiOjE3OTAwMDAwMDB9." + _t(
        86, _URLSAFE
    )
    basic = "YW5hOlN1cGVyU2VjcmV0UGFzc3dvcmQ="
    cookie = _t(32, _HEX)
    csrf = _t(40)
    xkey = _t(32)
    bearer = _t(40, _URLSAFE + ".")
    connect = f"s%3A{_t(32, _URLSAFE)}.{_t(43, _URLSAFE)}"
    return [
        _s("header", f'curl -H "Authorization: Bearer {jwt}" https://api.internal/me', jwt),
        _s("header", f"Authorization: Basic {basic}", basic),
        _s("header", f"Cookie: sessionid={cookie}; csrftoken={csrf}", cookie, csrf),
        _s("header", f"X-API-Key: {xkey}", xkey),
        _s("header", f"sent it with bearer {bearer} and it worked", bearer),
        _s("jwt", f"the id_token in the callback was {jwt}", jwt),
        _s("header", f"Set-Cookie: connect.sid={connect}; Path=/; HttpOnly", connect),
    ]


def _block_samples() -> list[Sample]:
    rsa, rsa_body = _pem("RSA PRIVATE KEY", 6)
    openssh, ssh_body = _pem("OPENSSH PRIVATE KEY", 5)
    ec, ec_body = _pem("EC PRIVATE KEY", 2)
    pkcs8, pkcs8_body = _pem("ENCRYPTED PRIVATE KEY", 4)
    pgp_body = [_t(64, _B64) for _ in range(6)]
    pgp = (
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
        + "\n".join(pgp_body)
        + "\n="
        + _t(4, _B64)
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )
    putty_private = [_t(64, _B64) for _ in range(3)]
    putty = (
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ana@laptop\n"
        f"Public-Lines: 2\n{_t(64, _B64)}\n{_t(20, _B64)}\nPrivate-Lines: 3\n"
        + "\n".join(putty_private)
        + f"\nPrivate-MAC: {_t(64, _HEX)}"
    )
    sa_key_lines = [_t(64, _B64) for _ in range(4)]
    sa_key = "\\n".join(sa_key_lines)
    service_account = (
        "{\n"
        '  "type": "service_account",\n'
        '  "project_id": "dream-prod-4471",\n'
        f'  "private_key_id": "{_t(40, _HEX)}",\n'
        f'  "private_key": "-----BEGIN PRIVATE KEY-----\\n{sa_key}\\n-----END PRIVATE KEY-----\\n",\n'
        '  "client_email": "backup@dream-prod-4471.iam.gserviceaccount.com",\n'
        '  "client_id": "104523987766512349876",\n'
        '  "token_uri": "https://oauth2.googleapis.com/token"\n'
        "}"
    )
    env_db = _t(24)
    env_stripe = "sk_live_" + _t(24)
    env_session = _t(48, _HEX)
    dotenv = (
        "```env\n"
        "NODE_ENV=production\n"
        f"DB_PASSWORD={env_db}\n"
        f"STRIPE_KEY={env_stripe}\n"
        f"SESSION_SECRET={env_session}\n"
        "PORT=3000\n"
        "```"
    )
    npm_auth = "npm_" + _t(36)
    npmrc = (
        "```ini\n"
        "registry=https://registry.npmjs.org/\n"
        f"//registry.npmjs.org/:_authToken={npm_auth}\n"
        "always-auth=true\n"
        "```"
    )
    pypi_pw = "pypi-AgEIcHlwaS5vcmc" + _t(60, _URLSAFE)
    pypirc = f"```\n[pypi]\nusername = __token__\npassword = {pypi_pw}\n```"
    netrc_pw = _t(8, _HEX) + "-" + _t(4, _HEX) + "-" + _t(4, _HEX) + "-" + _t(12, _HEX)
    netrc = f"machine api.heroku.com\n  login ana@dreamco.io\n  password {netrc_pw}"
    pgpass_pw = "Pgp#" + _t(10)
    pgpass = f"~/.pgpass:\n\ndb01.internal:5432:app:app_rw:{pgpass_pw}"
    ini_pw = "Ini!" + _t(10)
    ini = f"[database]\nhost = db01\nuser = report\npassword = {ini_pw}\nport = 5432"
    k8s_user = "YWRtaW4="
    k8s_pass = "UzNjcmV0UGFzc3dvcmQyMDI2IQ=="
    k8s_url = "cG9zdGdyZXM6Ly9hcHA6UGdQYXNzMjAyNkBkYjAxOjU0MzIvYXBw"
    k8s = (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\n"
        f"data:\n  username: {k8s_user}\n  password: {k8s_pass}\n  url: {k8s_url}"
    )
    docker_auth = "Ym90OkRvY2tlckh1YlBhc3MyMDI2"
    docker = (
        '{\n  "auths": {\n    "https://index.docker.io/v1/": {\n'
        f'      "auth": "{docker_auth}"\n    }}\n  }}\n}}'
    )
    split_head = "ghp_" + _t(14)
    split_tail = _t(22)
    split = f"token (wrapped by the terminal):\n{split_head}\n{split_tail}\nworks again"
    openai_head = "sk-proj-" + _t(30, _URLSAFE)
    openai_tail = _t(40, _URLSAFE)
    split2 = f"- OPENAI key: {openai_head}\n  {openai_tail}"
    yaml_block = (
        "smtp:\n  host: smtp.mailgun.org\n  user: postmaster@mg.dreamco.io\n"
        '  password: "Yaml#Smtp2026"'
    )
    toml = f'[model]\nname = "gpt-4o"\napi_key = "sk-{_t(48)}"'
    aws_file_id = "AKIA" + _t(16, _UPPER)
    aws_file_secret = _t(40, _B64)
    aws_file = (
        "~/.aws/credentials\n```\n[default]\n"
        f"aws_access_key_id = {aws_file_id}\naws_secret_access_key = {aws_file_secret}\n```"
    )
    value_next_line = "Hx" + _t(10) + "!"
    next_line = f"Root password:\n    {value_next_line}\n(rotate after the audit)"
    truncated_body = [_t(64, _B64) for _ in range(3)]
    truncated = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(truncated_body) + "\n(cut off)"
    indented_body = [_t(64, _B64) for _ in range(3)]
    indented = (
        "- deploy key for web-03:\n  ```\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  "
        + "\n  ".join(indented_body)
        + "\n  -----END OPENSSH PRIVATE KEY-----\n  ```"
    )
    return [
        _s("key block", rsa, *rsa_body),
        _s("key block", openssh, *ssh_body),
        _s("key block", f"ec key:\n{ec}", *ec_body),
        _s("key block", pkcs8, *pkcs8_body),
        _s("key block", pgp, *pgp_body),
        _s("key block", putty, *putty_private),
        _s("key block", truncated, *truncated_body),
        _s("key block", indented, *indented_body),
        _s("service account", service_account, *sa_key_lines),
        _s("config block", dotenv, env_db, env_stripe, env_session),
        _s("config block", npmrc, npm_auth),
        _s("config block", pypirc, pypi_pw),
        _s("config block", netrc, netrc_pw),
        _s("config block", pgpass, pgpass_pw),
        _s("config block", ini, ini_pw),
        _s("config block", yaml_block, "Yaml#Smtp2026"),
        _s("config block", toml, toml.rsplit('"', 2)[1]),
        _s("config block", aws_file, aws_file_id, aws_file_secret),
        _s("base64-wrapped", k8s, k8s_pass, k8s_url),
        _s("base64-wrapped", docker, docker_auth),
        _s("split token", split, split_head, split_tail),
        _s("split token", split2, openai_head, openai_tail),
        _s("value on next line", next_line, value_next_line),
    ]


def _crypto_samples() -> list[Sample]:
    seed = "legal winner thank year wave sausage worth useful legal winner thank yellow"
    wif = "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ"
    eth = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
    totp = "JBSWY3DPEHPK3PXP"
    return [
        _s("crypto", f"wallet seed phrase: {seed}", seed),
        _s("crypto", f"paper wallet private key {wif}", wif),
        _s("crypto", f"metamask private key: {eth}", eth),
        _s("2fa", f"TOTP secret for the admin console: {totp}", totp),
        _s(
            "2fa",
            "github recovery codes: 4f2a1-9c3e7 8b6d0-1a2f4 77c1e-03b9d",
            "4f2a1-9c3e7",
            "8b6d0-1a2f4",
            "77c1e-03b9d",
        ),
        _s(
            "licence",
            "Windows product key VK7JG-NPHTM-C97JM-9MPGT-3V66T",
            "VK7JG-NPHTM-C97JM-9MPGT-3V66T",
        ),
        _s(
            "licence",
            "JetBrains licence key: 7QZ4M2LK8P-eyJsaWNlbnNlSWQiOiI3UVo0TTJMSzhQIn0",
            "7QZ4M2LK8P-eyJsaWNlbnNlSWQiOiI3UVo0TTJMSzhQIn0",
        ),
    ]


def _email_samples() -> list[Sample]:
    rows = [
        "ana.silva+billing@gmail.com",
        "j.o'brien@corkcity.ie",
        "ops-team@sub.dreamco.co.uk",
        "josé.garcía@correo.es",
        "müller.jens@beispiel.de",
        "иван.петров@почта.рф",
        "李雷@例子.公司",
        "first.last@company-name.io",
    ]
    samples = [_s("email", f"send the contract to {addr} by Friday", addr) for addr in rows]
    samples += [
        _s("email", "contact: jane.doe(at)gmail(dot)com", "jane.doe(at)gmail(dot)com"),
        # An e-mail address spelled out is an e-mail address (it stood among the look-alikes
        # until spelled-out addresses were masked).
        _s(
            "email",
            "Authored-by: Jens Müller <jens at dreamco dot io>",
            "jens at dreamco dot io",
        ),
        _s("email", "[mailto:hr@dreamco.io](mailto:hr@dreamco.io)", "hr@dreamco.io"),
        _s("email", 'From: "Ana Silva" <ana.silva@outlook.com>', "ana.silva@outlook.com"),
        _s("email", "Ana's private mail is ANA.SILVA@PROTONMAIL.COM", "ANA.SILVA@PROTONMAIL.COM"),
    ]
    return samples


def _phone_samples() -> list[Sample]:
    rows = [
        ("call Ana on +1 (415) 555-0132 after 6pm", "+1 (415) 555-0132"),
        ("Mum's mobile: 07700 900461", "07700 900461"),
        ("office 020 7946 0018", "020 7946 0018"),
        ("Handy von Jens: 0151 23456789", "0151 23456789"),
        ("Praxis Dr. Weber 030 12345678", "030 12345678"),
        ("+49 (0)89 1234 5678 is the Munich desk", "+49 (0)89 1234 5678"),
        ("portable de Claire : 06 12 34 56 78", "06 12 34 56 78"),
        ("tél. 01 42 68 53 00", "01 42 68 53 00"),
        ("móvil de Lucía 612 345 678", "612 345 678"),
        ("chiamami al 333 123 4567", "333 123 4567"),
        ("bel me op 06-12345678", "06-12345678"),
        ("celular do Pedro: (11) 91234-5678", "(11) 91234-5678"),
        ("田中さんの携帯 090-1234-5678", "090-1234-5678"),
        ("WhatsApp +91 98765 43210", "+91 98765 43210"),
        ("Aussie number 0412 345 678", "0412 345 678"),
        ("手机 138 0013 8000", "138 0013 8000"),
        ("fax +33 1 70 36 39 50", "+33 1 70 36 39 50"),
        ("reach me at 0044 20 7946 0958", "0044 20 7946 0958"),
        ("support line +1 604 555 0199 ext. 204", "+1 604 555 0199"),
        ("tel:+4930901820", "+4930901820"),
    ]
    return [_s("phone", text, number) for text, number in rows]


def _payment_samples() -> list[Sample]:
    visa = _card("4", 16)
    mastercard = _card("5425", 16)
    amex = _card("37", 15)
    discover = _card("6011", 16)
    jcb = _card("3530", 16)
    mc2 = _card("2221", 16)
    unionpay = _card("62", 16)
    maestro = _card("6759", 19)
    de = checkdigits.iban("DE", "370400440532013000")
    gb = checkdigits.iban("GB", "NWBK60161331926819")
    fr = checkdigits.iban("FR", "20041010050500013M02606")
    es = checkdigits.iban("ES", "21000418450200051332")
    it = checkdigits.iban("IT", "X0542811101000000123456")
    nl = checkdigits.iban("NL", "ABNA0417164300")
    ch = checkdigits.iban("CH", "0076201162385295")
    pl = checkdigits.iban("PL", "109010140000071219812874")
    return [
        _s("card", f"company card {_grouped(visa)} exp 11/27", _grouped(visa)),
        _s("card", f"MC {_grouped(mastercard, sep='-')}", _grouped(mastercard, sep="-")),
        _s(
            "card",
            f"amex {amex[:4]} {amex[4:10]} {amex[10:]}",
            f"{amex[:4]} {amex[4:10]} {amex[10:]}",
        ),
        _s("card", f"discover card {discover}", discover),
        _s("card", f"JCB {_grouped(jcb, sep='.')}", _grouped(jcb, sep=".")),
        _s("card", f"new mastercard 2-series {_grouped(mc2)}", _grouped(mc2)),
        _s("card", f"银联卡 {_grouped(unionpay)}", _grouped(unionpay)),
        _s("card", f"Maestro {maestro}", maestro),
        _s("iban", f"rent goes to {_grouped(de)}", _grouped(de)),
        _s("iban", f"UK account {gb}", gb),
        _s("iban", f"IBAN FR : {_grouped(fr)}", _grouped(fr)),
        _s("iban", f"transferir a {_grouped(es)}", _grouped(es)),
        _s("iban", f"bonifico su {it}", it),
        _s("iban", f"lowercase as pasted: {_grouped(nl).lower()}", _grouped(nl).lower()),
        _s("iban", f"Swiss {_grouped(ch)}", _grouped(ch)),
        _s("iban", f"przelew na {_grouped(pl)}", _grouped(pl)),
        _s("bank account", "sort code 20-00-00 account 55779911", "55779911"),
        _s("bank account", "routing 021000021, account no. 483920174", "483920174"),
        _s("bank account", "Kontonummer 0532013000 bei der Commerzbank", "0532013000"),
    ]


def _id_samples() -> list[Sample]:
    rows = [
        ("national id", "SSN 536-90-4399 for the W-9", "536-90-4399"),
        ("national id", "Ana's social security number is 219-09-9991", "219-09-9991"),
        ("national id", "NI number QQ 12 34 56 C", "QQ 12 34 56 C"),
        ("national id", "SIN 046 454 286", "046 454 286"),
        (
            "national id",
            "numéro de sécurité sociale 2 95 10 99 126 111 93",
            "2 95 10 99 126 111 93",
        ),
        ("national id", "DNI 12345678Z", "12345678Z"),
        ("national id", "NIE X1234567L", "X1234567L"),
        ("national id", "codice fiscale RSSMRA85T10A562S", "RSSMRA85T10A562S"),
        ("national id", "Steuer-ID 36 574 261 809", "36 574 261 809"),
        ("national id", "BSN 111222333", "111222333"),
        ("national id", "CPF 123.456.789-09", "123.456.789-09"),
        ("national id", "Aadhaar 2341 2341 2346", "2341 2341 2346"),
        ("national id", "PAN ACUPA7085R", "ACUPA7085R"),
        ("national id", "personnummer 811228-9874", "811228-9874"),
        ("national id", "CPR 211062-5629", "211062-5629"),
        ("national id", "henkilötunnus 131052-308T", "131052-308T"),
        ("national id", "PESEL 44051401458", "44051401458"),
        ("national id", "AHV-Nr. 756.1234.5678.97", "756.1234.5678.97"),
        ("national id", "身份证号 360426199101010071", "360426199101010071"),
        ("national id", "CURP BOXW310820HNERXN09", "BOXW310820HNERXN09"),
        ("national id", "NHS number 943 476 5919", "943 476 5919"),
        ("national id", "TC kimlik 17291716060", "17291716060"),
        ("passport", "passport no. 533380006 (US)", "533380006"),
        ("passport", "Reisepass C01X00T47 gültig bis 2031", "C01X00T47"),
        ("passport", "passeport n° 18AB34567", "18AB34567"),
        ("passport", "driver's licence DL# D1234-56789-01234", "D1234-56789-01234"),
        ("date of birth", "DOB: 1985-03-12", "1985-03-12"),
        ("date of birth", "Geburtsdatum 12.03.1985", "12.03.1985"),
        ("date of birth", "fecha de nacimiento: 12/03/1985", "12/03/1985"),
        ("date of birth", "born on 3 March 1985 in Porto", "3 March 1985"),
    ]
    return [_s(family, text, *secrets) for family, text, *secrets in rows]


def _address_samples() -> list[Sample]:
    rows = [
        "1600 Amphitheatre Parkway, Mountain View, CA 94043",
        "221B Baker Street, London NW1 6XE",
        "Hauptstraße 12, 10115 Berlin",
        "12 rue de la Paix, 75002 Paris",
        "Calle Mayor 5, 28013 Madrid",
        "Via Roma 10, 00184 Roma",
        "Keizersgracht 123, 1015 CJ Amsterdam",
        "ul. Marszałkowska 84, 00-514 Warszawa",
        "Apt 4B, 350 Fifth Avenue, New York, NY 10118",
        "PO Box 4471, Springfield, IL 62701",
    ]
    return [
        _s("postal address", f"ship the old monitor to {address}", address.split(",")[0])
        for address in rows
    ]


def secret_samples() -> list[Sample]:
    """Every secret and personal-data sample of the fresh corpus."""
    _RNG.seed("secret_samples")  # the same values whatever was called before
    return [
        *_vendor_samples(),
        *_password_samples(),
        *_cli_samples(),
        *_url_samples(),
        *_header_samples(),
        *_block_samples(),
        *_crypto_samples(),
        *_email_samples(),
        *_phone_samples(),
        *_payment_samples(),
        *_id_samples(),
        *_address_samples(),
    ]


_CERT_BODY = "\n".join(_t(64, _B64) for _ in range(4))


def lookalikes() -> list[Lookalike]:
    """Texts that look sensitive and are not: redaction must keep each byte."""
    _RNG.seed("lookalikes")  # the same values whatever was called before
    rows = [
        ("counts", "max_tokens=4096"),
        ("counts", "max_new_tokens: 512, temperature: 0.2"),
        ("counts", "token_count: 1200"),
        ("counts", "tokens used: 15k of 128k"),
        ("counts", "prompt_tokens=812 completion_tokens=95"),
        ("counts", "num_tokens = 8192"),
        ("counts", "token_limit=128000"),
        ("counts", "KEY_ROTATION_DAYS=90"),
        ("counts", "password_min_length = 12"),
        ("counts", "key_size=4096"),
        ("names", "author: Maria Lopez"),
        ("names", "auth method: SSO via Okta"),
        ("names", "authentication: required"),
        ("names", "Author: J. Smith"),
        ("paths", "pwd: /srv/app"),
        ("paths", "PWD=/home/bob/project"),
        ("paths", "password_file: /run/secrets/db_password"),
        ("paths", "ssh key: ~/.ssh/id_ed25519"),
        ("paths", "C:\\Users\\ana\\AppData\\Local\\Temp\\setup.log"),
        ("paths", "s3://dream-backups/2026-11-20/db.sql.gz"),
        ("references", "DB_PASSWORD=${DB_PASSWORD}"),
        ("references", 'password: "{{ vault_db_password }}"'),
        ("references", 'api_key_env = "OPENAI_API_KEY"'),
        ("references", "token: ${{ secrets.GITHUB_TOKEN }}"),
        ("references", "POSTGRES_PASSWORD_FILE=/run/secrets/pg"),
        ("references", "secretKeyRef: db-credentials"),
        ("references", "password = os.environ['DB_PASSWORD']"),
        ("references", "password = getpass.getpass()"),
        ("references", "api_key = settings.openai_api_key"),
        ("references", "token = tokenizer.encode(text)"),
        ("references", "secret = None"),
        ("prose", "password rules: at least 12 characters and a passphrase"),
        ("prose", "the password is in 1Password, ask Ana"),
        ("prose", "Password: reset it every 90 days"),
        ("prose", "password reset link sent to the team"),
        ("prose", "passwordless login via magic links ships Monday"),
        ("prose", "the token bucket refills every second"),
        ("prose", "token ring networks are gone"),
        ("prose", "the tokenizer vocab is 50k"),
        ("prose", "pass: 120 fail: 2 skip: 5"),
        ("prose", "we passed the audit"),
        ("prose", "bypass mode is off"),
        ("prose", "PIN diodes on the RF board"),
        ("prose", "pinned the tab with the dashboard"),
        ("prose", "session: planning, Friday 10:00"),
        ("prose", "session 3 recap: caching"),
        ("prose", "cookie: chocolate chip, from the bakery"),
        ("prose", "cookie consent banner text was updated"),
        ("prose", "secret santa budget: 20 EUR"),
        ("prose", "the secret ingredient is cinnamon"),
        ("prose", "signature dish: paella"),
        ("prose", "seed the database with fixtures"),
        ("prose", "random seed 42 for the benchmark"),
        ("prose", "license: MIT"),
        ("prose", "the key insight: caching beats recomputing"),
        ("prose", "key takeaways: ship smaller, ship often"),
        ("prose", "primary key: id"),
        ("prose", "sort_key=created_at"),
        ("prose", "hotkey: ctrl+shift+p"),
        ("prose", "credential rotation is quarterly"),
        ("prose", "the authorization header is required"),
        ("prose", "bearer of bad news today"),
        ("prose", "Basic plan costs $10"),
        ("prose", "Passwort vergessen? Link kommt per Mail"),
        ("prose", "mot de passe oublié : réinitialisé hier"),
        ("prose", "la contraseña caduca cada 90 días"),
        ("prose", "パスワードは毎月変更する"),
        ("prose", "密码已经重置了"),
        ("prose", "token: expired, ask for a new one"),
        ("config", "always-auth=true"),
        ("config", "registry=https://registry.npmjs.org/"),
        ("config", "username = __token__"),
        ("config", "timeout=30 retries=3 log_level=debug"),
        ("config", "NODE_ENV=production"),
        ("config", "auth: none"),
        ("config", "user: admin"),
        ("hashes", "sha256 " + _t(64, _HEX)),
        ("hashes", "md5 " + _t(32, _HEX) + " matches"),
        ("hashes", "fixed in commit " + _t(40, _HEX) + ", reverted in " + _t(7, _HEX)),
        ("hashes", 'integrity="sha512-' + _t(86, _B64) + '=="'),
        ("hashes", "image digest sha256:" + _t(64, _HEX)),
        ("hashes", "bcrypt hash $2b$12$" + _t(53, _ALNUM + "./")),
        ("ids", "request 0f8fad5b-d9cb-469f-a165-70867728950e failed twice"),
        ("ids", "ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV"),
        ("ids", "job id V1StGXR8_Z5jdHi6B-myT finished"),
        ("ids", "video dQw4w9WgXcQ"),
        ("ids", "instance i-0abcd1234ef567890 in us-east-1a"),
        ("ids", "ami-0c55b159cbfafe1f0 and sg-0123456789abcdef0"),
        ("ids", "arn:aws:iam::123456789012:role/deploy"),
        ("ids", "pod coredns-7db6d8ff4d-x2x9k restarted"),
        ("ids", "https://docs.google.com/document/d/1aBcD3eFgH5iJkL7mNoP9qRsT1uVwX3yZ5aBcD7/edit"),
        ("ids", "tracking 1Z999AA10123456784"),
        ("ids", "ETH address 0x742d35Cc6634C0532925a3b844Bc454e4438f44e"),
        ("ids", "btc bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        ("versions", "v2.14.0-rc.1 ships next week"),
        ("versions", "python 3.11.9, node v20.11.1"),
        ("versions", "Qwen2.5-Coder-32B-Instruct-Q4_K_M.gguf"),
        ("versions", "x86_64-unknown-linux-gnu"),
        ("versions", "Windows 10.0.19045.3803"),
        ("versions", "docker.io/library/postgres:16-alpine"),
        ("numbers", "SKU 123-456-7890"),
        ("numbers", "order #100045678"),
        ("numbers", "ORD-2026-11-000123"),
        ("numbers", "PO 4500012345"),
        ("numbers", "ticket 4815162342"),
        ("numbers", "invoice 2026-0042 paid"),
        ("numbers", "ISBN 978-0-306-40615-7"),
        ("numbers", "ISSN 0378-5955"),
        ("numbers", "order 4111-1111-1111-1112 was shipped"),
        ("numbers", "epoch 1732070400"),
        ("numbers", "build 2026111901"),
        ("numbers", "we had 1,234,567 visitors"),
        ("numbers", "population 83 200 000"),
        ("numbers", "error 0x80070005"),
        ("numbers", "PID 123456"),
        ("numbers", "case 2026-CV-001234"),
        ("numbers", "BIC DEUTDEFFXXX"),
        ("numbers", "VAT DE136695976"),
        ("numbers", "AB12 3456 7890 1234 5678 is a test string"),
        ("numbers", "room 12-34-5678"),
        ("dates", "2026-11-20 09:30"),
        ("dates", "20/11/2026 and 11/20/2026 3:45 PM"),
        ("dates", "20.11.2026"),
        ("dates", "2026-11-20T09:30:00+01:00"),
        ("dates", "launched on 3 March 2025 in Porto"),
        ("network", "10.0.0.12 and 192.168.1.254:8080"),
        ("network", "172.16.4.2/24 gateway 172.16.4.1"),
        ("network", "127.0.0.1:5432 and [::1]:8443"),
        ("network", "port 5432, ports 3000-3010"),
        ("network", "MAC 3c:22:fb:12:ab:cd"),
        ("network", "ssh bob@10.0.0.5"),
        ("network", "git@github.com:dreamco/dreamd.git"),
        ("network", "postgres://db.internal:5432/app"),
        ("network", "https://github.com/dreamco/dreamd/pull/1234"),
        ("network", "https://example.com/search?q=token&page=2"),
        ("network", "https://api.dreamco.io/oauth/token"),
        ("prices", "$1,299.99 for the NAS"),
        ("prices", "€ 49,90 per month"),
        ("prices", "1.234,56 EUR"),
        ("prices", "¥12,800 and £7.50"),
        ("code", "@types/node and @pytest.fixture"),
        ("code", "npm i react@18.2.0"),
        ("code", "user@localhost"),
        ("code", "AbstractSingletonProxyFactoryBean"),
        ("code", "en_US.UTF-8"),
        ("code", "com.dreamco.app.MainActivity"),
        ("places", "the Wall Street Journal piece"),
        ("places", "Main Street project kickoff"),
        ("places", "Route 66 road trip"),
        ("places", "Building 4, floor 2, room 12"),
        ("public keys", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _t(43, _B64) + " ana@laptop"),
        (
            "public keys",
            "-----BEGIN CERTIFICATE-----\n" + _CERT_BODY + "\n-----END CERTIFICATE-----",
        ),
        ("public keys", "-----BEGIN PUBLIC KEY-----\n" + _CERT_BODY + "\n-----END PUBLIC KEY-----"),
        ("blocks", "```env\nNODE_ENV=production\nPORT=3000\nLOG_LEVEL=info\n```"),
        (
            "blocks",
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\ndata:\n"
            "  LOG_LEVEL: debug\n  FEATURE_FLAGS: search,recall",
        ),
        ("blocks", '{\n  "name": "dreamd",\n  "version": "0.4.0",\n  "private": true\n}'),
        ("blocks", "[database]\nhost = db01\nport = 5432\nuser = report"),
    ]
    return [Lookalike(family, text) for family, text in rows]
