"""Credentials in command lines and URLs, where no key word names them.

* URL userinfo: in ``scheme://user:password@host`` the password is masked (it may hold ``@``:
  the last ``@`` before the host ends it), and so is a user name that is itself a token
  (``https://<token>@github.com``).
* Oracle's ``user/PW@connect-identifier``: in a JDBC URL (``jdbc:oracle:thin:u/PW@//host``)
  and after its tools (``sqlplus``, ``sqlldr``, ``expdp``, ``impdp``, ``rman``…).
* Command-line forms whose flag is one letter: ``mysql -pPW`` (an exec array's ``"-pPW"``
  too), ``curl -u user:PW`` (``--proxy-user``, ``-U``),
  HTTPie's and xh's ``http -a user:PW`` (``--auth``),
  ``sshpass -p PW``, ``docker login -p PW``, a key given to a CLI's ``login`` (``wandb login
  KEY``: 32 characters or more, digits and lower case among them), ``redis-cli -a PW``,
  ``zip -P PW``, ``7z -pPW``, ``unrar x -pPW``, ``lftp -u user,PW``, Redis's and SMTP's
  ``AUTH [user] PW``, a setting
  named as a secret given to ``config set``/``secrets set`` (``kaggle config set -n key -v
  KEY``, ``gh secret set NAME --body PW``, Redis's ``CONFIG SET requirepass PW``, and a
  variable set by ``launchctl setenv``, ``setx`` or fish's ``set -gx``: the key rules judge
  the name and the value), a value a named flag reads from ``<(echo …)`` (``wg set wg0
  private-key <(echo KEY)``),
  ``sqlcmd -P PW``, ``mosquitto_pub -P PW``, ``ldapsearch -w PW``, ``smbclient -U user%PW``,
  ``openssl … pass:PW``,
  ``htpasswd -b FILE USER PW``, ``rabbitmqctl add_user USER PW``, ``echo PW | sudo -S``,
  ``ssh-keygen -N PW``, ``mc alias set NAME URL KEY SECRET``, ``net use … /user:U PW``,
  ``wpa_passphrase SSID PW``, SNMP's community (``snmp-server community PW``, ``set snmp
  community PW``, ``snmpwalk -c PW``; ``public``, every agent's default, is none),
  ``echo PW | gpg --passphrase-fd 0`` (and ``--password-stdin``, ``--stdin``, ``passwd``),
  and ``root/PW`` (a well-known user, a slash, a value with three kinds of characters).
  Long flags (``--password``) are :mod:`dreamd.redaction.keys`'.
* The password a PHP stack trace prints among the arguments of ``PDO->__construct('dsn',
  'user', 'PW')``.
* An ``expect`` script's answer to a password prompt (``expect "assword:"`` then ``send
  "PW\\r"``), and what ``cat`` prints of a file named for a secret (``cat config/master.key``
  then the key on the next line).
* Connection strings and credentials in code, where the value has no name of its own: Go's
  MySQL DSN (``user:PW@tcp(host)/db``) and a URL built by ``fmt.Sprintf("…://%s:%s@…", user,
  "PW")``; PowerShell's ``ConvertTo-SecureString "PW" -AsPlainText`` (the flags in any
  order), and a variable set to a literal that a ``-Password`` parameter or
  ``ConvertTo-SecureString`` is then given (``$p = 'PW'; … -Password $p``); Ruby's
  ``Net::SMTP.start(host, port, domain, user, "PW", …)``; a login call given a user and a
  password as literals (``.login("u", "PW")``, ``HTTPBasicAuth("u", "PW")``,
  ``auth=("u", "PW")``, ``PSCredential("u", …)``).

Also: ``net user NAME PW /add``, ``--setpw``/``--set-password NAME PW``, a DBI or PDO
``connect('dsn', 'user', 'PW')``, Bundler's ``bundle config HOST USER:PW``, net-snmp's
``createUser NAME SHA "PW" AES "PW"``; ``rar -hpPW``, ``qpdf --encrypt USER OWNER``, DB2's
``connect to DB user U using PW``, ``etcdctl --user root:PW``, ``docker login -p=PW``,
``ejabberdctl register USER HOST PW``; a login tried by hand (``hydra -l USER -p PW``,
NetExec's ``-p PW``: a word list's file is none) and impacket's ``DOMAIN/user:PW@host``;
``curl -u KEY:`` (a user with an empty password is an API key); what a command that creates
a key prints on the next line (``$ headscale preauthkeys create …``); a credentials file's
``URL USER PASSWORD`` line (davfs2), the password a strong one.

Each rule is tried only when its command's name is in the text. Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding

__all__ = ["find_command_credentials", "find_url_credentials"]

_ARG = r"(?:'[^'\n]*'|\"[^\"\n]*\"|[\w.:]+)"
_V = r"(?:'(?P<q1>[^'\n]+)'|\"(?P<q2>[^\"\n]+)\"|(?P<bare>[^\s'\"|;&]+))"
_REST = r"[^\n]*?\s"

# Oracle's user/password@connect-identifier, in a JDBC URL or after one of its tools.
_ORACLE = r"[\w$#.-]+/(?P<bare>[^\s'\"|;&@/]+)@"
_RULES: tuple[tuple[str | tuple[str, ...], str], ...] = (
    (
        "mysql",
        r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb(?:-dump)?)\b"
        + _REST
        + r"[\"']?-p(?!\s)"
        + _V,
    ),
    (
        "curl",
        r"\b(?:curl|wget|http)\b"
        + _REST
        + r"(?:-u|--user|-U|--proxy-user)[\s=]+(?:'[^':\n]*:(?P<q1>[^'\n]+)'"
        r"|\"[^\":\n]*:(?P<q2>[^\"\n]+)\"|[^\s:'\"]*:(?P<bare>\S+))",
    ),
    (
        ("-a ", "-a=", "--auth"),
        r"\b(?:https?|xhs?)\s+(?:[^\n]*?\s)?(?:-a|--auth)[\s=]+(?:'[^':\n]*:(?P<q1>[^'\n]+)'"
        r"|\"[^\":\n]*:(?P<q2>[^\"\n]+)\"|[^\s:'\"]*:(?P<bare>\S+))",
    ),
    ("jdbc:oracle", r"\bjdbc:oracle:(?:thin|oci8?|kprb):" + _ORACLE),
    (
        ("sqlplus", "sqlldr", "expdp", "impdp", "rman", "dgmgrl"),
        r"\b(?:sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl)\s+(?:-\w+\s+)*"
        r"(?:(?:target|catalog|userid)=?\s*)?" + _ORACLE,
    ),
    ("sshpass", r"\bsshpass\b" + _REST + r"-p\s*" + _V),
    ("login", r"\blogin\b" + _REST + r"-p(?:\s+|=)" + _V),
    # A CLI's ``login`` given its API key as an argument: ``wandb login <40 hex>``.
    (
        "login",
        r"(?<![\w-])login[ \t]+(?:--?[\w-]+[ \t]+)*"
        r"(?P<bare>(?=[^\s'\"\\]*\d)(?=[^\s'\"\\]*[a-z])[A-Za-z0-9_.-]{32,})(?![\w.-])",
    ),
    ("redis-cli", r"\bredis-cli\b" + _REST + r"-a\s+" + _V),
    ("zip", r"\b(?:zip|unzip|zipcloak)\b" + _REST + r"-P\s+" + _V),
    ("7z", r"\b7z[az]?\b" + _REST + r"-p(?!\s)" + _V),
    (("unrar", "rar "), r"\b(?:unrar|rar|winrar)\b" + _REST + r"-h?p(?![\s-])" + _V),
    (
        "lftp",
        r"\blftp\b" + _REST + r"-u\s+(?:'[^',\n]*,(?P<q1>[^'\n]+)'|\"[^\",\n]*,"
        r"(?P<q2>[^\"\n]+)\"|[^\s,'\"]+,(?P<bare>[^\s'\"]+))",
    ),
    (  # Redis and SMTP: AUTH [user] PW (an upper-case anchor is looked for as written)
        "AUTH ",
        r"(?<![\w-])AUTH[ \t]+(?:[\w.@-]+[ \t]+)?(?P<bare>(?=[^\s'\"]*[\d\W])[^\s'\"]{6,})(?=\s|$)",
    ),
    (
        ("config set", "config:set", "secrets set", "secret set"),
        r"\b(?i:config|secrets?)[ :](?i:set|add)\s+(?:-{1,2}[\w-]+\s+)*(?P<name>[\w.:/-]+)\s+"
        r"(?:-{1,2}[\w-]+[\s=]+)?" + _V,
    ),
    (  # an environment variable set for the session or the user: the key rules judge it
        ("setenv", "setx", "set -"),
        r"\b(?:launchctl[ \t]+setenv|setx|set[ \t]+-[gxU]+)[ \t]+(?P<name>[\w.]+)[ \t]+" + _V,
    ),
    (  # a secret handed to a flag through a process substitution: ``private-key <(echo KEY)``
        "<(echo",
        r"(?P<name>[\w-]+)[ \t]+<\(echo[ \t]+(?:'(?P<q1>[^'\n]+)'|\"(?P<q2>[^\"\n]+)\""
        r"|(?P<bare>[^\s'\"|;&)]+))[ \t]*\)",
    ),
    ("sql", r"\b(?:sqlcmd|bcp|osql|isql)\b" + _REST + r"-P\s*" + _V),
    # MQTT's clients: mosquitto_pub/_sub/_rr take the password after -P (-p is the port).
    ("mosquitto", r"\bmosquitto(?:_pub|_sub|_rr|_passwd)?\b" + _REST + r"-P\s+" + _V),
    # A PHP stack trace prints the arguments PDO was built with: the DSN, the user, the password.
    ("PDO", r"\bPDO->__construct\('[^'\n]*',\s*'[^'\n]*',\s*'(?P<q1>[^'\n]+)'"),
    ("ldap", r"\bldap\w+\b" + _REST + r"-w\s+" + _V),
    ("mongo", r"\bmongo(?:sh|dump|restore)?\b" + _REST + r"-p\s+" + _V),
    ("-u", r"\b(?:smbclient|rpcclient|smbmap)\b" + _REST + r"-U\s+[^\s%]+%" + _V),
    ("pass:", r"-pass(?:in|out)?\s+pass:" + _V),
    ("htpasswd", r"\bhtpasswd\b\s+-\w*b\w*\s+\S+\s+\S+\s+" + _V),
    ("rabbitmqctl", r"\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+" + _V),
    ("sudo", r"\b(?:echo|printf)\s+" + _V + r"\s*\|\s*sudo\b[^\n]*?\s-S\b"),
    ("ssh-keygen", r"\bssh-keygen\b" + _REST + r"-[NP]\s+" + _V),
    ("net use", r"\bnet\s+use\b" + _REST + r"/user:\S+\s+" + _V),
    # Windows's ``net user NAME PW /add``; a NAS's ``synouser --setpw NAME PW``, ``--setpw``
    # and ``--set-password`` of other tools the same way
    ("net user", r"\bnet\s+user\s+\S+\s+" + _V + r"(?=\s+/)"),
    (("--setpw", "--set-password"), r"--set(?:pw|-password)\s+\S+\s+" + _V),
    # A DBI or PDO handle opened with (DSN, user, password), as a trace or a die prints it
    ("connect(", r"\bconnect\(\s*'[^'\n]*'\s*,\s*'[^'\n]*'\s*,\s*'(?P<q1>[^'\n]+)'"),
    # Bundler's credentials for a gem server: ``bundle config [set] [--global] HOST USER:PW``
    (
        "bundle config",
        r"\bbundle\s+config\s+(?:set\s+)?(?:--(?:global|local)\s+)?[\w-]+(?:\.[\w-]+)+\s+"
        r"(?P<bare>[^\s:'\"]+:[^\s'\"]+)",
    ),
    # net-snmp's USM user: ``createUser NAME SHA "AUTHPW" AES "PRIVPW"``
    (
        "createuser",
        r"\bcreateUser\s+\S+\s+(?:MD5|SHA\S*)\s+" + _V,
    ),
    (
        "createuser",
        r"\bcreateUser\s+\S+\s+(?:MD5|SHA\S*)\s+\S+\s+(?:DES|AES\S*)\s+" + _V,
    ),
    ("wpa_passphrase", r"\bwpa_passphrase\s+\S+\s+" + _V),
    # qpdf's user and owner passwords: ``qpdf --encrypt USER OWNER 256 -- in.pdf out.pdf``
    ("qpdf", r"\bqpdf\b" + _REST + r"--encrypt\s+" + _V),
    ("qpdf", r"\bqpdf\b" + _REST + r"--encrypt\s+\S+\s+" + _V),
    # DB2's ``connect to DB user U using PW``; etcd's ``--user root:PW``
    ("using", r"\bconnect\s+to\s+\S+\s+user\s+\S+\s+using\s+" + _V),
    ("etcdctl", r"\betcdctl\b" + _REST + r"--user[\s=]+[^\s:'\"]+:" + _V),
    # An XMPP server's ``register USER HOST PW`` and ``change_password USER HOST PW``
    (
        ("ejabberdctl", "prosodyctl"),
        r"\b(?:ejabberdctl|prosodyctl)\s+(?:register|change_password|passwd)\s+\S+\s+\S+\s+" + _V,
    ),
    # A login tried or used by hand: ``hydra -l USER -p PW``, NetExec's and CrackMapExec's
    # ``-p PW``, evil-winrm's (a word list's file name is none)
    (
        ("hydra", "nxc", "netexec", "crackmapexec", "evil-winrm", "medusa"),
        r"\b(?:hydra|nxc|netexec|crackmapexec|evil-winrm|medusa)\b" + _REST + r"-p\s+" + _V,
    ),
    # impacket's target: ``DOMAIN/user:PW@host``
    (
        ("impacket", ".py"),
        r"\b(?:impacket-\w+|\w+\.py)\b[^\n]*?\s['\"]?(?:[\w.-]+/)?[\w.$-]+:"
        r"(?P<bare>[^@\s'\"]+)@[\w.-]+",
    ),
    # ``curl -u KEY:``: a user with no password after its colon is an API key (Stripe's, Close's)
    (
        "curl",
        r"\bcurl\b" + _REST + r"(?:-u|--user)[\s=]+['\"]?"
        r"(?P<bare>(?=[^\s:'\"]*\d)(?=[^\s:'\"]*[A-Za-z])[A-Za-z0-9_.+/=-]{20,}):(?=['\"]?(?:\s|$))",
    ),
    # What a command that creates a key prints on the next line: ``$ headscale preauthkeys
    # create …`` then the key
    (
        ("create", "generate", "rand "),
        r"(?m:^[ \t]*(?:[-*+][ \t]+)?[$#%>][ \t]+[^\n]*(?:key|token|secret|passw|rand\b)[^\n]*"
        r"\b(?:create|generate|gen|new|rand)\b[^\n]*\n"
        r"[ \t]*(?P<bare>(?=[^\s]*\d)[A-Za-z0-9_+/=.-]{16,})[ \t]*$)",
    ),
    (
        ("create", "generate", "rand "),
        r"(?m:^[ \t]*(?:[-*+][ \t]+)?[$#%>][ \t]+[^\n]*\b(?:create|generate|gen|new|rand)\b[^\n]*"
        r"(?:key|token|secret|passw|rand\b)[^\n]*\n"
        r"[ \t]*(?P<bare>(?=[^\s]*\d)[A-Za-z0-9_+/=.-]{16,})[ \t]*$)",
    ),
    # A credentials file's line: ``URL USER PASSWORD`` (davfs2's ``secrets``), the password a
    # strong one
    (
        "://",
        r"(?m:^[ \t]*https?://\S+[ \t]+[\w.@-]+[ \t]+(?P<bare>(?=\S*\d)(?=\S*[^\w\s])\S{8,64})"
        r"[ \t]*$)",
    ),
    # SNMP's community string is its password: in a router's config and after ``-c``.
    ("community", r"\bsnmp(?:-server)?\s+community\s+" + _V),
    (
        "snmp",
        r"\bsnmp(?:walk|bulkwalk|get|getnext|bulkget|set|trap|table)\b" + _REST + r"-c\s*" + _V,
    ),
    (
        "|",
        r"\b(?:echo|printf)\s+(?:-[a-z]+\s+)?" + _V + r"\s*\|\s*[^\n]*?(?:--passphrase-fd\s+0"
        r"|--password-stdin|--stdin\b|-passin\s+stdin|\bchpasswd\b|\bpasswd\b)",
    ),
    # An expect script's answer to a password prompt: ``expect "assword:"`` then ``send "…\\r"``.
    (
        "send",
        r"\bexpect\s+(?:-\w+\s+)?\"[^\"\n]*(?:assword|passphrase|PIN)[^\"\n]*\"\s*\n\s*send\s+"
        r"(?:--\s+)?\"(?P<q2>[^\"\n]+?)(?:\\r|\\n)?\"",
    ),
    # What ``cat`` prints of a file named for a secret: ``cat config/master.key`` then the key.
    (
        "cat ",
        r"\bcat\s+[\w./~-]*(?:\.key|secret|password|passwd|token|vault_pass|\.pass)[\w.-]*[ \t]*\n"
        r"[ \t]*(?P<bare>[^\s]{12,})[ \t]*(?:\n|$)",
    ),
    ("@", r"(?<![\w/:])[\w.-]{1,64}:(?P<bare>[^@\s\"'/:]{1,128})@(?:tcp|unix|udp)\("),
    (
        "sprintf",
        r"Sprintf\(\s*\"[a-z][\w+.-]*://%[sv]:%[sv]@[^\"\n]*\"\s*,\s*(?:\"[^\"\n]*\"|[\w.]+)\s*,\s*"
        r"(?:\"(?P<q2>[^\"\n]+)\"|'(?P<q1>[^'\n]+)')",
    ),
    (
        "securestring",
        r"ConvertTo-SecureString\s+(?:(?:-(?!String\b)\w+\s+)*-AsPlainText\s+"
        r"(?:-(?!String\b)\w+\s+)*(?:-String\s+)?"
        r"|(?:-String\s+)?(?=(?:\"[^\"\n]*\"|'[^'\n]*')[^\n]*-AsPlainText))"
        r"(?:\"(?P<q2>[^\"\n$]+)\"|'(?P<q1>[^'\n$]+)')",
    ),
    (
        "net::smtp",
        r"Net::SMTP\.start\(\s*(?:"
        + _ARG
        + r"\s*,\s*){4}"
        + r"(?:'(?P<q1>[^'\n]+)'|\"(?P<q2>[^\"\n]+)\")",
    ),
    (
        "(",
        r"(?:\.(?:login|authenticate|auth|sign_in|signin|basic_auth|set_credentials)"
        r"|\b(?:HTTPBasicAuth|HTTPDigestAuth|BasicAuth|PSCredential|NetworkCredential)"
        r"|\bauth\s*=\s*)\(\s*(?:'[^'\n]+'|\"[^\"\n]+\")\s*,\s*"
        r"(?:'(?P<q1>[^'\n]{4,})'|\"(?P<q2>[^\"\n]{4,})\")\s*[,)]",
    ),
)
_USER_SLASH = re.compile(
    r"(?<![\w/.-])(?:root|admin|administrator|ubuntu|pi|sa|postgres|user|guest|test)/"
    r"([^\s/]*[^\w\s/][^\s/]*|[^\s/]*\d[^\s/]*)(?=\s|$)"
)
# PowerShell: a variable set to a literal, then handed to a parameter that takes a secret
# (``$p = '…'; Connect-Server -Password $p``, ``ConvertTo-SecureString $p -AsPlainText``).
_PS_ASSIGN = re.compile(
    r"\$(?P<name>\w+)[ \t]*=[ \t]*(?:'(?P<q1>[^'\n]{4,})'|\"(?P<q2>[^\"\n$]{4,})\")"
)
_PS_PASSED = (
    r"(?i:-\w*(?:password|passphrase|secret|token|apikey|credential)\w*[ \t:]+"
    r"|convertto-securestring[ \t]+(?:-string[ \t]+)?)\$"
)
_WORD_LIST = re.compile(r"[\w./~-]+\.(?:txt|lst|list|dic|dict|csv|gz)")
_MC = re.compile(r"\bmc\s+alias\s+set\s+\S+\s+\S+\s+(\S+)\s+(\S+)")
_SCHEME = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://$")
_AUTHORITY_END = re.compile(r"[/?#\s\"'<>)\]]|$")
_TOKEN_USER = re.compile(r"[A-Za-z0-9_-]{20,}")
# What a URL in documentation holds instead of a password: postgres://user:password@host.
_PLACEHOLDER_PASSWORD = re.compile(
    r"(?i:pass(?:word|wd)?|pwd|pw|secret|changeme|your[_-]?password|xxx+|\*+|\.+"
    r"|<[^>]*>|\{[^}]*\}|\$\{[^}]*\}|\$[A-Za-z_]\w*|%s|%\([a-z_]+\)s|:[a-z_]+|\[[^\]]*\]"
    r"|\$\([^)]*\)|`[^`]*`|\$[A-Za-z_]\w*\([^)]*\))"
)


def _classes(value: str) -> tuple[bool, bool, bool, bool]:
    return (
        any(c.islower() for c in value),
        any(c.isupper() for c in value),
        any(c.isdigit() for c in value),
        any(not c.isalnum() for c in value),
    )


@cache
def _rules() -> tuple[tuple[tuple[str, ...], re.Pattern[str]], ...]:
    return tuple(
        ((words,) if isinstance(words, str) else words, re.compile(pattern))
        for words, pattern in _RULES
    )


def _names_secret(name: str, value: str) -> bool:
    """A setting called ``name`` holds a secret, and ``value`` is one by the key rules."""
    from dreamd.redaction.keys import kind_of_name, value_is_secret

    kind = kind_of_name(name.rsplit(":", 1)[-1].lstrip("_"))
    return kind is not None and value_is_secret(kind, value)


def find_command_credentials(text: str, low: str) -> list[Finding]:
    """Passwords given to commands by one-letter flags or positions (see the module rules)."""
    found: list[Finding] = []
    for words, pattern in _rules():
        if not any(word in (text if word[:1].isupper() else low) for word in words):
            continue
        for match in pattern.finditer(text):
            group = next(g for g in ("q1", "q2", "bare") if match.groupdict().get(g) is not None)
            if _PLACEHOLDER_PASSWORD.fullmatch(match.group(group)):
                continue
            if _WORD_LIST.fullmatch(match.group(group)):
                continue  # "-p passwords.txt": a list of passwords to try, kept elsewhere
            if "community" in words and match.group(group) == "public":
                continue  # SNMP's documented read-only community, the default of every agent
            name = match.groupdict().get("name")
            if name is not None and not _names_secret(name, match.group(group)):
                continue  # "config set core.editor vim": a setting, not a secret
            found.append(Finding("cli-credential", match.start(group), match.end(group)))
    if "/" in text:
        for match in _USER_SLASH.finditer(text):
            value = match.group(1)
            if len(value) >= 6 and sum(map(bool, _classes(value))) >= 3:
                found.append(Finding("cli-credential", match.start(1), match.end(1)))
    if "$" in text and (
        "-pass" in low or "-secret" in low or "securestring" in low or "-token" in low
    ):
        for assign in _PS_ASSIGN.finditer(text):
            passed = re.compile(_PS_PASSED + re.escape(assign.group("name")) + r"\b")
            if passed.search(text, assign.end()):
                group = "q1" if assign.group("q1") is not None else "q2"
                found.append(Finding("cli-credential", *assign.span(group)))
    if "mc" in low and "alias" in low:
        for match in _MC.finditer(text):
            for index in (1, 2):
                if not _PLACEHOLDER_PASSWORD.fullmatch(match.group(index)):
                    found.append(Finding("cli-credential", *match.span(index)))
    return found


def find_url_credentials(text: str) -> list[Finding]:
    """Passwords (and token user names) in URL userinfo."""
    found: list[Finding] = []
    separator = text.find("://")
    while separator >= 0:
        start = separator + 3
        separator = text.find("://", start)
        if not _SCHEME.search(text, max(0, start - 40), start):
            continue
        end_match = _AUTHORITY_END.search(text, start)
        end = end_match.start() if end_match else len(text)
        authority = text[start:end]
        at = authority.rfind("@")
        if at <= 0:
            continue
        userinfo = authority[:at]
        colon = userinfo.find(":")
        if colon >= 0 and colon + 1 < len(userinfo):
            if _PLACEHOLDER_PASSWORD.fullmatch(userinfo[colon + 1 :]):
                continue
            found.append(Finding("url-credential", start + colon + 1, start + at))
        elif colon < 0 and _TOKEN_USER.fullmatch(userinfo):
            found.append(Finding("url-credential", start, start + at))
    return found
