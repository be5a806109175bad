"""Values that a secret-naming key announces: ``DB_PASS=…``, ``"apiKey": "…"``, ``--token …``,
``Authorization: Bearer …``, ``the wifi password for guests is …``, ``PIN 4821``.

Found from the name, not the value: a word that names a secret (``password`` and its
equivalents in a dozen languages, ``pass``, ``pwd``, ``pw``, ``pin``, ``puk``, ``cvv``,
``token``, ``secret``, ``credential``, ``auth``, ``cookie``, ``sig``, ``dsn``, a qualified
``key`` such as ``api key``, ``WPA2 key``, ``MASTER_KEY``…) is the *head* of a key; up to six
words may follow it (``for the NAS``), then a separator (``=``, ``:``, ``=>``, ``is``, ``ist``,
``est``, ``es``, ``è``…, a space after a command-line flag). Rules, in order:

* The key's words are read from ``snake_case``, ``kebab-case``, ``dotted.names`` and
  ``camelCase``; a last word that gives the form of the value (``SECRET_KEY_BASE``,
  ``TOKEN_HEX``) is left out. A key whose last word describes the secret rather than holding
  it (``length``, ``count``, ``ttl``, ``policy``, ``rules``, ``file``, ``env``, ``id``,
  ``url``, ``method``…), or that counts (``max_tokens``, ``tokens``), announces nothing.
* The value is the quoted string (spaces, commas and ``@`` included; ``„…“`` and ``«…»``
  too), an ODBC value in braces (``PWD={…};``, a format field such as ``{password}`` is no
  value), else one token; an ``export NAME=…`` line takes the rest of the line unless it
  goes on as a command. A colon with a space before it and none after (``$PASS :8080``)
  starts a token and separates nothing. After a separator with spaces round it
  (``pass = a&b``) an ``&`` belongs to the value (in a query string it ends it); a value typed
  one character at a time (``K 7 m P 2 x Q 9``) is one value, judged without its spaces.
* A key inside an AWS ARN (``arn:aws:secretsmanager:…:secret:app/db``) names where a secret
  is kept, not the secret.
* A value is not a secret when it is a placeholder (``none``, ``true``, ``<your key>``,
  ``***``), a reference (``${VAR}``, ``{{ var }}``, ``$VAR``, ``OPENAI_API_KEY``, ``os.environ[…]``,
  ``settings.key``, a call, a name and the file it is read from: ``db-pass:/etc/creds/db``),
  a path or a plain URL, a fingerprint (``SHA256:…``), a type's name or a keyword of code
  (``pw: str) -> bool``, ``raise``), or an ordinary word of prose
  (``reset``, ``stored``, ``in``, ``expired``, ``ask`` in any language: ``pregunta a Luis``;
  after a word separator or a dash that opens an aside, any plain lower-case
  word), or a name compared with (``password == confirm_password``). Tokens, secrets and
  keys must look like tokens (letters and digits, mixed case or symbols); passwords may be
  words; PINs and codes are digits. A literal's prefix (``b"…"``, ``r'…'``) and the escaped
  quotes of a JSON string (``api_key=\\"…\\"``) are read past. A value built of literals
  (``"Kx7#" + "q2Lm" "9vB"``) is masked piece by piece, and so is a password's second half
  after a plus (``pw is SwEnfm8 + ILv@Jga``: three kinds of characters in it).
* A value that is a secret's name in PascalCase (``"ParameterKey": "DBMasterPassword"``) is
  a name, as ``postgres-password`` is.
* A key whose first word says where a secret is kept names none: ``existingSecret`` (a
  chart's secret object), ``from_secret`` (a pipeline's). A flag followed by another flag
  (``--ask-password --user=ci``) takes no value. A ``Cookie`` header's values are masked
  when they can hold a session: not an attribute (``expires``, ``Path``), not a plain word or
  a language (``theme=dark``, ``lang=en-GB``), not an analytics id of counters
  (``_ga=GA1.2.184….173…``), unless the cookie's name names a secret (``sid``, ``session``,
  ``auth``, a ``…sessionid`` such as ``jsessionid``).
* A config file's directive needs none: ``password <value>`` alone on its line (msmtp,
  fetchmail), the value of two kinds of characters or more.
* Without a separator, only a PIN-like word followed by digits, or a password followed by a
  value with three kinds of characters or a word and a number (``şifresi lale2019``,
  ``पासवर्ड chandni77 है``: languages that put no verb there; not a technical name such as
  ``sha256``), counts; an upper-case ``PIN`` may have one or two words before its digits
  (``PIN kartu debit 551274``). An access code (``code d'accès``, ``Zugangscode``, ``kod
  dostępu``) and a network's code (``code wifi``, ``clé wifi``) are passwords; an access code
  of digits follows its name without a separator too (a printer's ``access code 7731…``).
  A generated value needs no separator either (``secret k4Rq9vLm2x``, ``password Z7KQ2MXP9``):
  letters and digits switching at every third character, as no word or version does; nor,
  after a door or alarm code's separator, letters that switch case at every second.
* A card's security code, by any of its names (``CVV``, ``CVC2``, ``CID``,
  ``Kartenprüfnummer``, ``cryptogramme``, ``código de seguridad``, ``güvenlik kodu``,
  ``セキュリティコード``, ``보안코드``, ``安全码``, ``öryggisnúmer``, ``codi de seguretat``,
  ``sigurnosni kod``, ``apsaugos kodas``, ``turvakood``…), is three or four digits.
* PINs in more words: compounds (``PIN-koodi``, ``Pinkoden``, ``PIN-Nummer``), Arabic
  ``الرقم السري``, Hebrew ``קוד`` before a door word (``קוד הכניסה``), a ``combo`` beside a lock
  word or before a dialled value (``3-7-1-9``), a keypad that ``takes`` or ``accepts`` its
  digits; Thai ``รหัส`` with a qualifier (ATM, card, entry, door) before ``คือ``/``เป็น``; a
  ``code`` beside an intercom, a buzzer or a key box. A PIN may be typed a digit at a time
  (``6 0 9 2``), hold a ``#`` or a ``*`` (``71#48``) or a keypad's letter (a digicode's
  ``12B47``, ``1984B``; ``*2847#``).
* A door's code said the way each language says it: a code word (``code``, ``codice``,
  ``kod``, ``код``, ``kode``, ``رمز``) and up to four words naming a door, a gate, an alarm
  (``codice del cancello``, ``kod do bramy garażowej``, ``код от подъезда``, ``kode pintu
  kos``), then the digits; a password word after a door word (``kapı şifresi``, ``현관
  비밀번호``) names the door's code.
* A PIN on a line of a device's factory defaults whose digits count up or repeat (``PIN
  123456``, ``PUK 12345678``) is the manual's, not a secret.
* A PIN, password or token that changed is masked old and new: ``PIN 0000 changed to 4462``,
  ``PIN reset to 2580``, ``the PIN is now 4462``, ``alarm code from 1234 to 9876``,
  ``door code was 1234, now 5678``, ``password A -> B``, ``PIN 5821 (was 1975)``,
  ``code changed, it's 9197 now``. Words that
  say the value changed (``changed``, ``reset``, ``set``… before ``to``) do not describe the
  key; what follows a change must still look like the kind's value (digits for a PIN, no
  plain lower-case word after ``now`` or ``->``).

* A few more names and forms: ``passkey``, ``authtok``, an authenticator's ``restore code``, an
  RTC app's ``app certificate``, the ``numbers on the back`` of a card; an aside in brackets
  among a key's words; chat's ``4``/``2`` for *for*/*to* (``pin 4 the gate is …``); a second
  code span right after a value in one, and the rest of a hex value wrapped onto the next line;
  ``!secret``, an Azure Key Vault reference and SOPS's ``ENC[…]`` are references.

The value alone is masked: the key stays readable. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from dreamd.redaction.finding import MASK, Finding
from dreamd.redaction.phrases import CLOSERS, is_passphrase
from dreamd.redaction.scan import find_words

__all__ = [
    "VENDORS",
    "character_classes",
    "cookie_holds_session",
    "factory_default",
    "find_named_values",
    "is_template",
    "kind_of_name",
    "scrambled",
    "value_is_secret",
]

_HEAD_WORDS: tuple[str, ...] = (
    "password",
    "passwords",
    "passwd",
    "passwort",
    "kennwort",
    "passphrase",
    "passcode",
    "passkey",
    "authtok",
    "ipin",
    "pass",
    "pwd",
    "pw",
    "psk",
    "contraseña",
    "contrasena",
    "clave",
    "mot de passe",
    "mdp",
    "senha",
    "wachtwoord",
    "hasło",
    "haslo",
    "пароль",
    "密码",
    "密碼",
    "口令",
    "パスワード",
    "비밀번호",
    "parola",
    "salasana",
    "lösenord",
    "losenord",
    "adgangskode",
    "passord",
    "heslo",
    "jelszó",
    "jelszo",
    "şifre",
    "sifre",
    "κωδικός",
    "暗証番号",
    "schlüssel",
    "schluessel",
    "schlussel",
    "storepass",
    "keypass",
    "requirepass",
    "masterauth",
    "srcpass",
    "destpass",
    "newpass",
    "oldpass",
    "adminpass",
    "rootpass",
    "dbpass",
    "userpass",
    "smtppass",
    "mailpass",
    "ftppass",
    "proxypass",
    "pin",
    "pins",
    "pincode",
    "pin-code",
    "geheimzahl",
    "puk",
    "cvv",
    "cvv2",
    "cvc",
    "cvc2",
    "csc",
    "cid",
    "security code",
    "numbers on the back",
    "digits on the back",
    "sicherheitscode",
    "kartenprüfnummer",
    "prüfnummer",
    "cryptogramme",
    "cryptogramme visuel",
    "code de sécurité",
    "código de seguridad",
    "codigo de seguridad",
    "codice di sicurezza",
    "código de segurança",
    "kod bezpieczeństwa",
    "güvenlik kodu",
    "guvenlik kodu",
    "セキュリティコード",
    "보안코드",
    "보안 코드",
    "安全码",
    "安全碼",
    "öryggisnúmer",
    "öryggiskóði",
    "سیویوی",
    "سیویوی2",
    "codi de seguretat",
    "sigurnosni kod",
    "varnostna koda",
    "apsaugos kodas",
    "drošības kods",
    "turvakood",
    "kod keselamatan",
    "код за сигурност",
    "keypad",
    "türcode",
    "torcode",
    "portkode",
    "portkoden",
    "portkod",
    "dørkode",
    "dørkoden",
    "dörrkod",
    "dörrkoden",
    "ovikoodi",
    "porttikoodi",
    "koden",
    "koodi",
    "digicode",
    "code",
    "código",
    "codigo",
    "codice",
    "combination",
    "combo",
    "kod",
    "kód",
    "pinkod",
    "pinkoden",
    "pinkode",
    "pinkoder",
    "pinkoodi",
    "קוד",
    "הקוד",
    "الرقم السري",
    "الرمز السري",
    "رقم سري",
    "رمز سري",
    "token",
    "токен",
    "secret",
    "credential",
    "credentials",
    "creds",
    "auth",
    "authorization",
    "cookie",
    "sessionid",
    "session id",
    "session_id",
    "session-id",
    "session token",
    "session_token",
    "session key",
    "session_key",
    "session secret",
    "session_secret",
    "session cookie",
    "session_cookie",
    "sid",
    "sig",
    "signature",
    "dsn",
    "bearer",
    "jwt",
    "key",
    "pat",
    "personal access token",
    "seed phrase",
    "seed words",
    "recovery phrase",
    "mnemonic",
    "recovery codes",
    "recovery code",
    "restore code",
    "app certificate",
    "backup codes",
    "backup code",
    "maiden name",
    "security question",
    "security answer",
    "secret question",
    "secret answer",
    "first pet",
    "identified by",
    "identified with",
    "appid",
    "hapikey",
    "비번",
    "palavra-passe",
    "lösenordet",
    "losenordet",
    "şifresi",
    "sifresi",
    "парола",
    "паролата",
    "лозинка",
    "лозинката",
    "lozinka",
    "lozinku",
    "zaporka",
    "slaptažodis",
    "slaptazodis",
    "parool",
    "salasõna",
    "salasona",
    "lykilorð",
    "lykilord",
    "lykilorðið",
    "contrasenya",
    "pasahitza",
    "contrasinal",
    "fjalëkalimi",
    "fjalekalimi",
    "şifrə",
    "wagwoord",
    "cyfrinair",
    "pasfhocal",
    "passwuert",
    "pasvorto",
    "wachtwurd",
    "psw",
    "код",
    "kode",
    "رمز",
    "पासवर्ड",
    "parolayı",
    "parolayi",
    "şifreyi",
    "sifreyi",
    "şifrem",
    "parolam",
    "code d'accès",
    "code d'acces",
    "código de acceso",
    "codice d'accesso",
    "access code",
    "zugangscode",
    "kod dostępu",
    "код доступа",
    "code wifi",
    "code wi-fi",
    "clé wifi",
    "clé wi-fi",
)
# Short heads that are only heads as whole words (``bypass``, ``spin`` and ``shipping`` are not).
_LEFT_BOUNDED = frozenset(
    "pass pw psk clave mdp parola heslo şifre sifre pin pins pincode pin-code puk cvv cvv2 cvc"
    " cvc2 csc code código codigo codice creds sid sig dsn jwt pat appid hapikey combo קוד cid ipin"
    " cryptogramme prüfnummer kod kód koden koodi psw код kode رمز".split()
)
_LOCKS = frozenset("safe lock locker padlock".split())
# Where a lock word may stand after a combination: its stems (lockers, Zahlenschloss, kłódka).
_LOCK_STEMS = ("lock", "safe", "padlock", "schloss", "tresor", "kłódk", "cadenas", "candado")
_DIAL = re.compile(r"[ \t]*(?:is|was|[:=])?[ \t]*\d{1,2}(?:-\d{1,2}){2,3}(?![\d-])")
# Code words that name a PIN only beside a door, a lock or a preposition (``code du portail``,
# ``kod do bramy``).
_CODE_HEADS = frozenset(
    "code código codigo codice kod kód koden koodi קוד הקוד код kode رمز".split()
)
# The last word of a PIN's name in other languages (PIN-koodi, Pinkoden, PIN-kood, PIN-Nummer).
_CODE_ENDINGS = ("code", "kod", "kód", "koden", "kode", "koodi", "kood", "קוד")
_NUMBER_ENDINGS = frozenset("nummer number numer numero número nr no".split())

_PASSWORD = frozenset(
    "password passwords passwd passwort kennwort passphrase passcode pass pwd pw psk contraseña"
    " contrasena clave mdp senha wachtwoord hasło haslo пароль parola salasana lösenord"
    " losenord adgangskode passord heslo jelszó jelszo şifre sifre schlüssel schluessel"
    " schlussel 비번 palavra-passe lösenordet losenordet şifresi sifresi парола паролата лозинка"
    " лозинката lozinka lozinku zaporka slaptažodis slaptazodis parool salasõna salasona"
    " lykilorð lykilord lykilorðið contrasenya pasahitza contrasinal fjalëkalimi fjalekalimi"
    " şifrə wagwoord cyfrinair pasfhocal passwuert pasvorto wachtwurd psw पासवर्ड parolayı"
    " parolayi şifreyi sifreyi şifrem parolam ipin".split()
)
# Codes that open an account or a network rather than a door: letters as well as digits.
_ACCESS_CODES = frozenset(
    "code d'accès;code d'acces;código de acceso;codice d'accesso;access code;zugangscode"
    ";kod dostępu;код доступа;code wifi;code wi-fi;clé wifi;clé wi-fi".split(";")
)
_PIN = frozenset("pin pins pincode pin-code geheimzahl puk keypad السري سري".split())
# A card's security code: three or four digits, by any of its names.
_CARD_CODES = frozenset(
    "cvv cvv2 cvc cvc2 csc cid cryptogramme sicherheitscode kartenprüfnummer prüfnummer"
    " セキュリティコード 보안코드 安全码 安全碼 öryggisnúmer öryggiskóði turvakood"
    " سیویوی سیویوی2".split()
)
_CARD_CODE_PHRASES = frozenset(
    "security code;code de sécurité;código de seguridad;codigo de seguridad;codice di sicurezza"
    ";código de segurança;kod bezpieczeństwa;güvenlik kodu;guvenlik kodu;보안 코드"
    ";codi de seguretat;sigurnosni kod;varnostna koda;apsaugos kodas;drošības kods"
    ";kod keselamatan;код за сигурност;cryptogramme visuel;numbers on the back"
    ";digits on the back".split(";")
)
_CARD_CODE = re.compile(r"\d{3,4}")
_TOKEN = frozenset(
    "token токен secret credential credentials creds auth sid sig signature dsn jwt sessionid pat"
    " authtoken apikey appid hapikey appkey accesskey secretkey privatekey passkey authtok".split()
)
_COMPOUND_ENDINGS = (
    ("password", "password"),
    ("passwd", "password"),
    ("passwort", "password"),
    ("kennwort", "password"),
    ("passphrase", "password"),
    ("pwd", "password"),
    ("pass", "password"),
    ("token", "token"),
    ("secret", "token"),
    ("apikey", "token"),
    ("wachtwoord", "password"),
    ("schlüssel", "token"),
    ("schluessel", "token"),
    ("code", "pin"),
    ("sessionid", "token"),
)
_KEY_QUALIFIERS = frozenset(
    "api access secret private signing sign encryption encrypt master license licence product"
    " client app application auth session account service admin root deploy ssh gpg pgp"
    " webhook bot subscription consumer activation recovery wpa wpa2 wpa3 wifi wlan network"
    " shared storage hmac jwt aes crypto cipher decryption server integration sdk developer"
    " serial x-api ocp-apim-subscription".split()
)
# Vendors whose keys are known by name (a "Datadog application key", an "OpenWeatherMap key"):
# a key after one of them is that vendor's secret, whatever words its name is made of.
_VENDORS = frozenset(
    "openweathermap openweather datadog algolia cloudflare trello mixpanel newrelic pagerduty"
    " segment bitly twitch pusher heroku postmark sendgrid mailgun mailchimp mailjet stripe"
    " twilio github gitlab bitbucket slack discord telegram openai anthropic google firebase"
    " aws azure gcp mapbox sentry shopify zendesk hubspot airtable notion figma vercel netlify"
    " supabase okta auth0 contentful brevo sendinblue plaid braintree paypal square coinbase"
    " binance dropbox box asana jira atlassian linear clickup monday intercom amplitude"
    " posthog rollbar bugsnag honeycomb grafana splunk elastic algolia's datadog's".split()
)
VENDORS = _VENDORS
_NOT_SECRET_KEYS = frozenset(
    "public publishable primary foreign sort partition cache hash unique composite row lookup"
    " idempotency dedupe cursor hot music main object dict map registry translation i18n"
    " config setting settings field column index natural surrogate range shard routing group"
    " message react list ordering s3 object storage-object".split()
)
_DESCRIBING = frozenset(
    "length len size count counts max min limit limits ttl expiry expires expiration expire"
    " timeout age rotation days policy policies rule rules reset hint hints prompt field fields"
    " file files path paths dir directory env var vars variable name names type types format"
    " version prefix suffix url urls uri endpoint enabled enable disabled required strength"
    " manager managers store vault provider source helper command cmd mode method methods"
    " algorithm alg hash hashed hashes digest scope scopes usage used budget window rate cost"
    " price bucket issuer audience location ref refs reference id ids label change changed"
    " update updated owner request requests column table guidance strategy regex pattern"
    " validation check generator bits counter index page list test tests example examples doc"
    " docs help flow grant response server service exchange protection login standard ring"
    " recovery forgotten forgot vergessen oublié olvidada esquecida lifetime header headers"
    " level levels spec support auth-method options option choices".split()
)
# Last words of a key that say in what form it holds the secret its other words name.
_FORM_WORDS = frozenset("base value val raw b64 base64 hex str string".split())
_COUNTING = frozenset("max min num n count total no has is use enable disable allow show".split())
# First words of a key that names where a secret is kept, not the secret (``existingSecret``,
# a chart's secret object; ``from_secret``, a pipeline's stored secret).
_REFERRING = frozenset("existing from".split())
# Hebrew door words, bare and with the prefixes they take (ה the, ל to, ב at): קוד הדלת.
_HEBREW_DOORS = tuple(
    prefix + stem
    for stem in "דלת שער אזעקה כניסה בניין חניה כספת מנעול".split()
    for prefix in ("", "ה", "ל", "ב")
)
_DOORS = frozenset(
    "door gate garage alarm entry building house front portail porte entrée alarme immeuble"
    " puerta portal acceso alarma garaje portão portao entrada portone cancello ingresso"
    " tür haustür tor eingang intercom buzzer interphone citofono portero keysafe lockbox"
    " keybox kapı kapi kapının kapinin 현관 подъезда подъезд домофона домофон двери ворот калитки"
    " brama bramy porten port grind grinden døren dør dörr dörren garasjen garaget ovi oven"
    " portti portin"
    " drzwi domofonu furtki pintu gerbang باب الباب البوابة duress disarm tresor".split()
    + list(_HEBREW_DOORS)
)
_PREPOSITIONS = frozenset(
    "for of to on at in de del du des da do di von für vom zum zur od от для per van voor til"
    " till för på".split()
)
_WORD_SEPARATORS = frozenset(
    "is was are = est ist es é è är er jest to je это是 ist: is: est: takes accepts הוא היא c'est"
    " هو هي е је yra ir és ay është hija yw ass estas".split()
)
_PROSE = frozenset(
    "a an the in on at is are was be been see ask set unset stored saved kept changed change"
    " reset rotated rotate updated update expired expires expire required optional missing"
    " unknown same new old still now here there via from with without it this that my your"
    " our their his her its default empty blank hidden masked redacted removed deleted revoked"
    " invalid valid wrong weak strong manager policy rules use using used please shared sent"
    " generated needed needs required? and or not none null nil true false yes no on off ok"
    " n/a na tbd todo xxx placeholder example changeme redacted secret password token value"
    " ist im wird wurde neu alt geändert siehe kommt gleich est dans oublié réinitialisé"
    " changé voir le la les es en el cambiada caduca ver é no na alterada nel cambiata"
    " gewijzigd vergeten steht liegt hängt findest está fica sta staat ligt"
    " basic oauth oauth2 sso saml ldap bearer digest negotiate ntlm pass pwd"
    " passwd pw key creds pregunta pregúntale pide frag frage fragen demande demander chiedi"
    " chiedere pergunte pergunta vraag zapytaj spytaj спроси спросите sor tanya"
    " str string int integer bool boolean float double bytes dict list tuple object any void"
    " number raise return await yield lambda def class import continue break throw".split()
)
_SCHEMES = frozenset("bearer basic token bot digest negotiate ntlm apikey sso-key key".split())
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[._\-\s/:]+")
_NAME_TAIL = re.compile(r"[\w.\-]*")
_SEPARATOR = re.compile(r"[ \t]*(?:\\?[\"'\]\)]){0,3}[ \t]*(?::=|=>|->|==|[=:：＝→])(?!//)[ \t]*")
_SCHEME_WORD = re.compile(r"([A-Za-z0-9-]+)[ \t]+")
_HEADER_TOKEN = re.compile(r"[A-Za-z0-9._~+/=:%-]{6,}")
_HYPHENATED_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")
_COOKIE_PAIR = re.compile(r"([^=;\s\"']+)=([^;\s\"']+)")
_COOKIE_ATTRIBUTES = frozenset("expires path domain max-age samesite secure httponly".split())
# A cookie value that holds no session: words and a language tag (``accepted``, ``en-GB``),
# or counters and a short prefix (an analytics id: ``GA1.2.1843921234.1735689600``).
_PLAIN_COOKIE = re.compile(r"[A-Za-z]+(?:[-_][A-Za-z]+)*|(?:[A-Z]{1,3}\d?\.)?\d+(?:\.\d+)*")
_SESSION_COOKIE = re.compile(r"(?i)sess|sid|auth|token|login|remember|csrf|xsrf")
_PAREN = re.compile(r"[ \t]*\([^)\n]{1,40}\)")
_WORD = re.compile(r"[ \t]+(\S+)")
_SEED = re.compile(r"(?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8}")
_SYMBOL_SEPARATORS = frozenset(("=", ":", "=>", ":=", "->", "：", "＝", "→", "⇒", "-", "—", "–"))
MAX_KEY_WORDS = 6
# A quoted value: the quotes of CLOSERS a value may be given in, anything but the closer inside.
_QUOTED = re.compile(
    "|".join(
        f"{re.escape(opener)}([^{re.escape(CLOSERS[opener])}\\n]*)[{re.escape(CLOSERS[opener])}]"
        for opener in ('"', "'", "`", "“", "«", "„", "‚")
    )
)
_TOKEN_VALUE = re.compile(r"[^\s\"'`<>,;&]+")
# After a separator with spaces round it (``pass = a&b``), ``&`` is the value's: no query.
_SPACED_TOKEN = re.compile(r"[^\s\"'`<>,;]+")
# A value typed one character at a time: ``K 7 m P 2 x Q 9``.
_SPACED_OUT = re.compile(r"(?:[^\s\"'`<>,;] ){5,31}[^\s\"'`<>,;](?!\S)")
_BRACED = re.compile(r"\{((?:[^}\n]|\}\})+)\}(?=;|\s|$)")
_FORMAT_FIELD = re.compile(
    r"[a-z_][a-z0-9_.]*|[A-Z_][A-Z0-9_.]*|\d*|[a-z_]\w*(?:\[\w*\])?(?::[^}]*)?"
)
_TRAILING = ".,;:)]}>\"'"
_STRING_PREFIX = re.compile(r"(?:[bBrRuUfF]|[bBrR][bBrR])(?=[\"'])")
_PREFIX_LETTERS = frozenset("bBrRuUfF")
_REFERENCE = re.compile(
    r"(?:\$\{|\$\(|\{\{|#\{|__[A-Za-z_]+__$|\$[A-Za-z_]|%[A-Za-z_]+(?:\([\w:.-]+\))?%|`[\w.-]+ [^`]*`$|<[^>]*>$|\[[^\]]*\]$|env:|vault:|op://"
    r"|secret://|arn:aws:secretsmanager|file:|@/|\./|\.\./|/|~/|[A-Za-z]:\\|!vault|ref:"
    r"|!secret\b|!env_var\b|!include\b|@Microsoft\.KeyVault\(|ENC\[[A-Z0-9_]+,data:)"
)
_URL_VALUE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
# A name and the file it is read from or mounted at: ``LoadCredential=db-pass:/etc/creds/db``,
# ``-v secrets:/run/secrets``.
_MOUNTED = re.compile(r"[\w.-]+:~?/[\w.-]")
# After a comparison, a name is a variable compared with (``if password == confirm_password``).
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_]\w*)*(?:\(\)?)?:?")
_PATH_VALUE = re.compile(r"[\w.-]+(?:/[\w.-]+)+/?")
# Jenkins keeps a secret encrypted as ``{AQAAABAAAAAQ…=}``: base64 in braces is no template.
_BRACED_BASE64 = re.compile(r"\{[A-Za-z0-9+/]{20,}={0,2}\}")
# A YAML anchor before a value: ``auth: &redis_auth <value>``.
_ANCHOR = re.compile(r"&[\w-]+[ \t]+(?=\S)")
_PADDED_BASE64 = re.compile(r"[A-Za-z0-9+/]{20,}={1,2}")
# A long flag where a value was looked for: ``gh secret set NAME --body …``.
_FLAG = re.compile(r"--[a-z][a-z-]*")
_LOWER_WORD = re.compile(r"[^\W\d_]+")
_ENV_NAME = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_DOTTED = re.compile(r"[A-Za-z_][A-Za-z_]*(?:\.[A-Za-z_]\w*)+")
_EXPRESSION = re.compile(
    r"[A-Za-z_][\w.]*(?:::[A-Za-z_]\w*)*[(\[]|(?:Get|Set|New|Read|Write|ConvertTo|ConvertFrom|Import|Export"
    r"|Invoke|Select|Out|Add|Remove|Start|Test|Join|Format|Resolve)-[A-Z][A-Za-z]+$"
)
_NUMBER = re.compile(r"[0-9][0-9_,.]*[kKmMbB]?")
# A placeholder glued to a vendor's prefix: ``sk-or-v1-<your key>`` (the prefix is no value).
_GLUED_PLACEHOLDER = re.compile(r"<(?!/|br\b)[^<>\n]{1,40}>")  # a closing tag ends a value
# The next literal of a string built of pieces: "…" + "…", "…" . "…", "…" & "…", "…" "…".
_NEXT_PIECE = re.compile(r"[ \t]*(?:\+|\.|&|\|\|)?[ \t]*\"([^\"\n]*)\"")
_LAST_WORD = re.compile(r"(\S+)[ \t]*(?:\n|$)")
_HALF = re.compile(r"[ \t]+\+[ \t]+([^\s\"'`<>,;()]{5,64})(?=[\s.,;)]|$)")
_KEY_PAIR = re.compile(r"[A-Za-z_][A-Za-z_.-]*=[\w.:/-]*")
# A value that is the name of a secret, not the secret (``postgres-password``, ``db_token``:
# the key a chart's ``existingSecret`` holds it under), and a markup attribute that follows
# a key's name (``autocomplete="current-password" minlength="12"``): no value.
_SECRET_NAME_VALUE = re.compile(
    r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*[-_](?:password|passwd|pwd|secret|token|api-?key|key)"
    # and in PascalCase, a template's parameter (``"ParameterKey": "DBMasterPassword"``)
    r"|(?:[A-Z]{2,}(?=[A-Z][a-z])|[A-Z][a-z0-9]+)+(?:Password|Passwd|Secret|Token|ApiKey)"
)
_ATTRIBUTE = re.compile(r"[A-Za-z][\w:-]*=[\"']")
# A PIN: digits, perhaps grouped; a dialled combination (``17-32-05``); a keypad's entry with
# ``#`` or ``*`` inside it (``71#48``) or one of its letters (a digicode's ``12B47``).
_PIN_VALUE = re.compile(
    r"\d{3,12}(?:[ -]\d{2,6}){0,3}#?|\d{1,2}(?:-\d{1,2}){2,3}(?![\d-])|\d{1,6}[#*]\d{1,6}#?"
    r"|(?=(?:[A-D]?\d){3})\d{1,5}[A-D]\d{1,5}|[*#]\d{3,8}#?|\d{3,6}[A-D]"
)
# A PIN typed one digit at a time: ``6 0 9 2``.
_SPACED_DIGITS = re.compile(r"\d(?: \d){3,7}#?(?![^\s.,;!?)])")
_LINE_START = re.compile(r"(?:^|\n)[ \t]*(?:export[ \t]+|set[ \t]+|[-*][ \t]+)?$")
_COMMAND_TAIL = re.compile(r"\s(?:-{1,2}[A-Za-z]|\||&&|;)")
_PLACEHOLDER = re.compile(r"[*xX.•…_-]{3,}|\?+|<[^>]*>|\[[^\]]*\]|your[_-].*|xxx.*", re.I)
# A value that only stands for one: ``sk-xxxx…``, ``sk-...your-key-here``, ``REPLACE_ME``.
# Documentation's keys end with EXAMPLE (AWS's ``…/bPxRfiCYEXAMPLEKEY``) or are zeros
# (``00000000-0000-0000-0000-000000000000``).
_PLACEHOLDER_PART = re.compile(
    r"x{4,}|\*{3,}|\.\.\.|…|(?<![a-z])(?:your|replace|insert|changeme|change_me|placeholder"
    r"|dummy|redacted|todo|tbd)(?![a-z])|example(?:key)?$|0{8}-0{4}-0{4}-0{4}-0{12}|0{16,}",
    re.I,
)
_BRACKETED = ("(", "[", "{", "<")
_DIGEST_VALUE = re.compile(r"(?i:sha(?:1|224|256|384|512)|md5)[:-]")
_CHANGED_VERBS = frozenset("changed reset set updated rotated switched moved".split())
_AUXILIARIES = frozenset("has have had been was is got gets it back".split())
_CHANGED_TO = r"(?:changed|reset|set|updated|rotated|switched)(?:[ \t]+(?:it|back))?[ \t]+to"
_LEADING_CHANGE = re.compile(
    r"(?:(?:now|currently|still)[ \t]+(?:(?:is|it's)[ \t]+)?"
    r"|(?:(?:has|have|had|got|been)[ \t]+)*" + _CHANGED_TO + r"[ \t]*:?[ \t]+"
    r"|(?:changed|reset|updated|rotated|switched)[ \t]*[,;:—–-]?[ \t]+(?:it's|it[ \t]+is)"
    r"(?:[ \t]+now)?[ \t]+"
    r"|(?:(?:went|was[ \t]+changed|changed|moved|switched)[ \t]+)?(?P<origin>from)[ \t]+"
    r"|(?:was|be|used[ \t]+to[ \t]+be)[ \t]+)",
    re.IGNORECASE,
)
_FOLLOWING_CHANGE = re.compile(
    r"[ \t]*,?[ \t]*(?:"
    r"(?:(?:and|but|which|then)[ \t]+)?(?:(?:was|is|has|have|had|got|been|were)[ \t]+)*"
    + _CHANGED_TO
    + r"|->|→|=>|⇒"
    r"|\((?:was|formerly|previously|before|old)(?:[ \t]*:)?"
    r"|(?:(?:and|but)[ \t]+)?(?:(?:is|it's)[ \t]+)?now(?:[ \t]+(?:is|it's))?"
    r"|(?P<to>to)"
    r")[ \t]*:?[ \t]*",
    re.IGNORECASE,
)
_CHANGING_KINDS = frozenset(("pin", "password", "token"))
_THAI_CODE = re.compile(
    r"รหัส(?!ไปรษณีย์)(?P<gap>[^\n.!?:=]{0,30}?)(?:คือ|เป็น|[:=])[ \t]*(?P<value>\d{4,8})(?!\d)"
)
_THAI_QUALIFIERS = ("atm", "pin", "บัตร", "เข้า", "ประตู", "ล็อค", "ล็อก", "เซฟ", "กุญแจ", "ลับ", "ผ่าน")
# A password right after its word with no verb (``şifresi girassol341``, ``पासवर्ड citron140
# है``): a word and a number, not a technical name (``password sha256``, ``utf8``).
_WORD_AND_NUMBER = re.compile(r"[^\W\d_]{3,}\d{2,}|\d{2,}[^\W\d_]{3,}")
_TECHNICAL = re.compile(
    r"(?i)(?:sha|md|utf|base|aes|rsa|ecdsa|ed|x|arm|ipv|win|pbkdf|argon|crc|tls|ssl|http|des)"
    r"-?\d+[a-z]*$"
)
# SQL's IDENTIFIED BY '…', and ClickHouse's IDENTIFIED WITH sha256_password BY '…'.
_SQL = re.compile(r"identified\s+(?:with\s+\w+\s+)?by\s+(?:'([^'\n]*)'|\"([^\"\n]*)\")")


def _heads(low: str) -> list[re.Match[str]]:
    """Every head in ``low``, in order (a head ends where a word does)."""
    return find_words(low, _HEAD_WORDS, r"(?![a-z])")


def _words(name: str) -> list[str]:
    return [w.lower() for w in _SPLIT.split(_CAMEL.sub(" ", name)) if w]


_MARKUP_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?>")


def _kind_of(words: Sequence[str], before: str) -> str | None:
    """What the key names: ``password``, ``pin``, ``token``, ``key``, ``bare-key``, ``header``,
    ``cookie``, ``security``, ``seed``, ``codes`` or nothing."""
    if "<" in before:
        before = _MARKUP_TAG.sub(" ", before)  # "<p>wifi key:": the tag is no word of the key
    if len(words) > 1 and words[-1] in _FORM_WORDS:
        words = words[:-1]  # SECRET_KEY_BASE, DB_PASSWORD_HEX: the secret in some form
    if not words:
        return None
    joined = " ".join(words)
    last = words[-1]
    if "maiden" in joined or "question" in joined or "answer" in joined or "pet" in words:
        return "security"
    if "mnemonic" in words or "phrase" in words or ("seed" in words and "words" in words):
        return "seed"
    if last in ("code", "codes") and ("recovery" in words or "backup" in words):
        return "codes"
    if (last == "code" and "restore" in words) or joined == "app certificate":
        return "token"  # an authenticator's restore code, an RTC app's certificate: letters too
    if last in _DESCRIBING or (len(words) > 1 and words[0] in _COUNTING and last != "key"):
        return None
    if len(words) > 1 and words[0] in _REFERRING:
        return None
    if joined in _ACCESS_CODES:
        return "password"
    if joined in ("authorization", "proxy authorization"):
        return "header"
    if joined in ("cookie", "set cookie"):
        return "cookie"
    if last in _PASSWORD or "mot de passe" in joined or joined.endswith("key material"):
        return "password"  # keyMaterial: a Wi-Fi profile's passphrase
    if last in _CARD_CODES or joined in _CARD_CODE_PHRASES:
        return "card-code"
    if last in _PIN or last in ("combination", "combo") or last.endswith(_CODE_ENDINGS):
        return "pin"
    if words[0] in _PIN and last in _NUMBER_ENDINGS:
        return "pin"
    if last in _TOKEN or last == "bearer" or (last in ("id", "key") and "session" in words):
        return "token"
    if last in ("salt", "pepper") and len(words) > 1:
        return "token"  # AUTH_SALT, Security.salt: a hash's secret input (a cook's salt has none)
    if last == "key":
        vendor = before.split()[-1].lower().strip(":,-(") if before.split() else ""
        if vendor in _VENDORS or any(word in _VENDORS for word in words[:-1]):
            return "token"
        qualifiers = [*words[:-1], *_words(before)[-1:]]
        if any(q in _NOT_SECRET_KEYS for q in qualifiers):
            return None
        if any(q in _KEY_QUALIFIERS for q in qualifiers) or len(words) > 1:
            return "token"
        return "bare-key"
    for ending, kind in _COMPOUND_ENDINGS:
        if last.endswith(ending) and last != ending:
            return kind
    if any(
        last.endswith(cjk) for cjk in ("密码", "密碼", "口令", "パスワード", "비밀번호", "暗証番号")
    ):
        return "password"
    return None


def kind_of_name(name: str) -> str | None:
    """What a variable or key called ``name`` holds (``password``, ``token``…), or None."""
    return _kind_of(_words(name), "")


def value_is_secret(kind: str, value: str) -> bool:
    """Whether ``value``, held by a key of ``kind`` (from :func:`kind_of_name`), is a secret
    by the value rules (a table cell, a tag's text, a URL parameter)."""
    return _is_secret(kind, value, quoted=False, separated=True, name="")


def character_classes(value: str) -> int:
    """How many of lower case, upper case, digits and other characters ``value`` holds."""
    return (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )


# A template's or a secret store's reference: what a config puts where the value will be.
_TEMPLATE = re.compile(
    r"(?:\$\{[\w.:-]+\}|#\{\w+\}|%[A-Za-z_]+%|!secret|!vault|@Microsoft\.KeyVault\(\S*)[\"',]*"
)


def is_template(value: str) -> bool:
    """``${SS_PASSWORD}``, ``#{ApiSecret}``, ``!secret`` (before a name): the whole value is a
    reference to one kept elsewhere, never the value."""
    return _TEMPLATE.fullmatch(value) is not None


def _is_reference(value: str) -> bool:
    if value[:1] == "/" and _PADDED_BASE64.fullmatch(value):
        return False  # a key in base64 that happens to start with a slash: no path ends in =
    return bool(
        _REFERENCE.match(value)
        or _MOUNTED.match(value)
        or _ENV_NAME.fullmatch(value)
        or _DOTTED.fullmatch(value)
        or _EXPRESSION.match(value)
        or _URL_VALUE.match(value) is not None  # its password, if any: commands' rule
    )


def _is_secret(kind: str, value: str, *, quoted: bool, separated: bool, name: str) -> bool:
    plain = value.strip()
    low = plain.lower()
    if not plain or _PLACEHOLDER.fullmatch(plain) or _PLACEHOLDER_PART.search(plain):
        return False
    if plain[:2] == "--" and _FLAG.fullmatch(plain):
        return False  # the next flag, not a value
    if plain[:1] in "sSmM" and _DIGEST_VALUE.match(plain):
        return False  # SHA256:…, md5:…: a fingerprint or a checksum, public by nature
    if plain.startswith(_BRACKETED) and kind != "pin" and not _BRACED_BASE64.fullmatch(plain):
        return False  # a note in brackets, a template: (ask Juan), [hidden], {API_KEY}
    if kind == "pin":
        if separated and scrambled(plain):
            return True  # "alarm panel master code: …": a code of letters, as random as a key
        return bool(_PIN_VALUE.fullmatch(plain)) and len(set(plain)) > 1
    if kind == "card-code":
        return bool(_CARD_CODE.fullmatch(plain))
    if kind == "security":
        return len(plain) >= 2 and low not in _PROSE
    if (
        _is_reference(plain)
        or _is_reference(plain.lstrip("\"'`"))
        or (low in _PROSE and not quoted)
        or _SECRET_NAME_VALUE.fullmatch(plain) is not None
        or _ATTRIBUTE.match(plain) is not None
    ):
        return False
    if kind == "password":
        if not separated:
            if _KEY_PAIR.fullmatch(plain):
                return False  # "reason=bad_password attempts=3": the next pair of a log line
            if name.lower() in _ACCESS_CODES and plain.isdigit():
                return 4 <= len(plain) <= 12  # "access code 7731…": a printer's, a door's
            return len(plain) >= 6 and (
                character_classes(plain) >= 3
                or (_WORD_AND_NUMBER.fullmatch(plain) is not None and not _TECHNICAL.match(plain))
                or scrambled(plain)
            )
        if name.lower() == "pass" and _NUMBER.fullmatch(plain) and len(plain) < 4:
            return False
        return len(plain) >= 4 or (plain.isdigit() and len(plain) >= 4)
    if _NUMBER.fullmatch(plain):
        return False
    token_like = character_classes(plain) >= 2 and (
        any(c.isdigit() for c in plain) or not plain.isalpha() or not plain.istitle()
    )
    if kind == "bare-key":
        return (
            len(plain) >= 16 and token_like and any(c.isdigit() for c in plain)
        ) and not _PATH_VALUE.fullmatch(plain)
    if not separated:
        return (len(plain) >= 20 and token_like) or scrambled(plain)
    return (len(plain) >= 6 and token_like) or (quoted and len(plain) >= 8 and " " not in plain)


_LOWER_RUN = re.compile(r"[a-z]{4}")


def _class_of(char: str) -> int:
    return 0 if char.isdigit() else 1 if char.islower() else 2


def scrambled(value: str) -> bool:
    """Letters and digits that switch between cases and digits as no word does: eight
    characters or more with a digit, switching at every third at least (``k4Rq9vLm``,
    ``Z7KQ2MXP9``), or ten letters switching case at every second (``QwErTyUiOp``), and no run
    of four lower-case letters: a generated value (``JavaScript``, ``McDonald``, ``SHA256``,
    ``AES256GCM``, ``ERC20Token`` are words and names)."""
    if len(value) < 8 or not value.isascii() or not value.isalnum():
        return False
    if _LOWER_RUN.search(value):
        return False  # "ERC20Token", "HelloWorld2024": a word of four lower-case letters in it
    switches = sum(_class_of(a) != _class_of(b) for a, b in pairwise(value))
    if any(c.isdigit() for c in value):
        return not value.isdigit() and switches >= max(3, len(value) // 3)
    return len(value) >= 10 and switches >= len(value) // 2


def _starts_a_token(separator: str) -> bool:
    """`` :8080/health``: a colon with a space before it and none after starts a token (an
    HTTPie host, a keyword); it separates no key from its value."""
    return (
        separator[:1] in (" ", "\t")
        and separator.strip(" \t\"')]") == ":"
        and not separator.endswith((" ", "\t"))
    )


def _braced(text: str, pos: int) -> tuple[int, int] | None:
    """An ODBC or OLE DB value in braces after ``=`` (``PWD={Pg;Brace!d99};``: braces let a
    value hold ``;``, and ``}}`` is a brace); a format placeholder (``{password}``,
    ``{0}``) is no value."""
    match = _BRACED.match(text, pos)
    if match is None or text[:pos].rstrip(" \t")[-1:] != "=":
        return None
    if _FORMAT_FIELD.fullmatch(match.group(1)) and not _WORD_AND_NUMBER.fullmatch(match.group(1)):
        return None  # {password}, {0}; but {souvlaki1973} is a password in braces
    return match.start(1), match.end(1)


def _value_at(text: str, pos: int, *, whole_line: bool) -> tuple[int, int, bool] | None:
    """(start, end, quoted) of the value that begins at ``pos``."""
    if text[pos : pos + 1] == "&":
        anchor = _ANCHOR.match(text, pos)
        pos = anchor.end() if anchor else pos  # YAML's ``&name`` names the value, is not it
    lead = text[pos : pos + 2]
    if lead in ('\\"', "\\'"):  # an escaped quote in a JSON string: \"…\"
        close = text.find(lead, pos + 2)
        if close > pos + 2 and "\n" not in text[pos + 2 : close]:
            return pos + 2, close, True
    if lead[:1] in _PREFIX_LETTERS:
        prefix = _STRING_PREFIX.match(text, pos)
        if prefix is not None:
            pos = prefix.end()  # b"…", r'…', f"…": a literal's prefix is no part of its value
    quoted = _QUOTED.match(text, pos)
    if quoted:
        group = next(i for i in range(1, 8) if quoted.group(i) is not None)
        return quoted.start(group), quoted.end(group), True
    braced = _braced(text, pos) if text[pos : pos + 1] == "{" else None
    if braced is not None:
        return braced[0], braced[1], True
    token = _TOKEN_VALUE.match(text, pos)
    if not token:
        return None
    end = token.end()
    if text[end : end + 1] == "&" and text[pos - 1 : pos] in (" ", "\t"):
        longer = _SPACED_TOKEN.match(text, pos)
        end = longer.end() if longer else end
    if whole_line:
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        rest = text[end:line_end]
        comment = rest.find(" #")
        rest = rest[:comment] if comment >= 0 else rest
        if rest.strip() and not _COMMAND_TAIL.search(rest):
            end += len(rest.rstrip())
    while end > pos and text[end - 1] in _TRAILING:
        end -= 1
    return (pos, end, False) if end > pos else None


def _header_value(text: str, pos: int) -> tuple[int, int] | None:
    """The credentials of an ``Authorization`` header: after its scheme, a known one or any
    word of letters a token follows (``Splunk <token>``, ``SharedKey …``); a lower-case word,
    or words joined by hyphens (``authorization read-write``), is a setting or prose, not a
    credential."""
    scheme = _SCHEME_WORD.match(text, pos)
    if scheme and (
        scheme.group(1).lower() in _SCHEMES
        or (scheme.group(1).isalpha() and _HEADER_TOKEN.match(text, scheme.end()))
    ):
        pos = scheme.end()
    token = _HEADER_TOKEN.match(text, pos)
    if token is None or _PLACEHOLDER_PART.search(token.group(0)) or _is_reference(token.group(0)):
        return None
    if _HYPHENATED_WORDS.fullmatch(token.group(0)):
        return None
    return token.start(), token.end()


def _cookie_values(text: str, pos: int, *, first_only: bool) -> list[tuple[int, int]]:
    """The values of a ``Cookie`` header's pairs (a ``Set-Cookie``'s first pair) that can hold
    a session: not an attribute (``expires=…``, ``Path=/``), not a plain word or a language
    (``theme=dark``, ``lang=en-GB``), not an analytics id of counters (``_ga=GA1.2.184….173…``),
    unless the cookie's name names a secret (``sid=abc123``)."""
    line_end = text.find("\n", pos)
    line = text[pos : len(text) if line_end < 0 else line_end]
    spans = []
    for pair in list(_COOKIE_PAIR.finditer(line))[: 1 if first_only else None]:
        name, value = pair.group(1), pair.group(2)
        if name.lower() not in _COOKIE_ATTRIBUTES and cookie_holds_session(name, value):
            spans.append((pos + pair.start(2), pos + pair.end(2)))
    return spans


def cookie_holds_session(name: str, value: str) -> bool:
    """A cookie called ``name`` holding ``value`` can hold a session: its name names a secret
    (``sid``, ``session``, ``auth``…), or its value is no plain word, language tag or counter
    and is eight characters or more."""
    named = kind_of_name(name) is not None or _SESSION_COOKIE.search(name) is not None
    return named or not (_PLAIN_COOKIE.fullmatch(value) or len(value) < 8)


def _list_values(text: str, pos: int, pattern: str) -> list[tuple[int, int]]:
    line_end = text.find("\n", pos)
    line = text[pos : len(text) if line_end < 0 else line_end]
    return [(pos + m.start(), pos + m.end()) for m in re.finditer(pattern, line)]


def _qualified(low: str, start: int, end: int, head: str) -> bool:
    """A bare ``code`` is a PIN's only after a door word (one of the three words before it:
    ``garage opener code``, ``alarm panel master code``), before a preposition (``code du
    portail``) or before a door word (Hebrew ``קוד הדלת``); a ``combination`` or a ``combo``,
    after a lock word, before one in the same sentence (``the combo is …, bike lock …``) or
    before a dialled value (``combo is 17-32-05``)."""
    previous = _LETTER_RUN.findall(low, max(0, start - 32), start)[-3:]
    if head in ("combination", "combo"):
        after = re.split(r"[.!?\n]", low[end : end + 80], maxsplit=1)[0].split()
        return (
            any(word in _LOCKS for word in previous)
            or any(word.startswith(_LOCK_STEMS) for word in after)
            or _DIAL.match(low, end) is not None
        )
    following = low[end : end + 16].split()[:1]
    return any(word in _DOORS for word in previous) or bool(
        following and (following[0] in _PREPOSITIONS or following[0].rstrip(":") in _DOORS)
    )


_LETTER_RUN = re.compile(r"[^\W\d_]+")  # a word, whatever markup or dash stands round it


def _skip_spaces(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


# "4 the", "2 my": a chat's "for" and "to" written as digits, before a word that a
# preposition takes.
_CHAT_PREPOSITION = re.compile(r"[ \t]+(?:the|my|our|your|ur|u|me|us|teh|da)\b")


def _after_name(text: str, name_end: int) -> tuple[list[str], int, bool]:
    """(words between the key and its separator, where the value starts, separated?)."""
    pos = name_end
    paren = _PAREN.match(text, pos)
    if paren:
        pos = paren.end()
    sep = _SEPARATOR.match(text, pos)
    if sep and not _starts_a_token(sep.group(0)):
        return [], sep.end(), True
    words: list[str] = []
    for _ in range(MAX_KEY_WORDS + 1):
        found = _WORD.match(text, pos)
        if not found:
            break
        word = found.group(1)
        close = text.find(")", found.start(1), found.start(1) + 80) if word[0] == "(" else -1
        if close >= 0 and "\n" not in text[found.start(1) : close]:
            pos = close + 1  # "wifi key for the guest QR (base32, no padding):": an aside
            sep = _SEPARATOR.match(text, pos)
            if sep and not _starts_a_token(sep.group(0)):
                return words, sep.end(), True
            continue
        if word in ("4", "2") and _CHAT_PREPOSITION.match(text, found.end()):
            words.append({"4": "for", "2": "to"}[word])  # "pin 4 the gate is …": chat's "for"
            pos = found.end()
            continue
        if any(c.isdigit() for c in word) or MASK in word:
            break  # a value came first (or its mask, on a second pass): no separator
        if word.lower() in _WORD_SEPARATORS or word in _SYMBOL_SEPARATORS:
            return words, _skip_spaces(text, found.end()), True
        if len(word) > 1 and word[-1] in ":=：":
            return [*words, word[:-1]], _skip_spaces(text, found.end()), True
        words.append(word)
        pos = found.end()
    first = _WORD.match(text, name_end)
    return [], first.start(1) if first else -1, False


def _bridged(text: str, name_end: int, value_at: int) -> int:
    """Where the digits of ``PIN kartu debit 551274`` start: an upper-case PIN may have one or
    two words (no digits, no code or describing word) between it and its digits."""
    pos = name_end
    for _ in range(3):
        word = _WORD.match(text, pos)
        if word is None:
            break
        if word.group(1)[:1].isdigit():
            return word.start(1) if pos > name_end else value_at
        low = word.group(1).lower().strip(",:")
        if any(c.isdigit() for c in low) or low in _DESCRIBING or low.endswith(_CODE_ENDINGS):
            break
        pos = word.end()
    return value_at


def _door_digits(text: str, before: str, value_at: int) -> bool:
    """A password word after a door word (``kapı şifresi``), then a keypad's code."""
    door = before.split()[-1:]
    if not door or door[0].lower() not in _DOORS or value_at < 0:
        return False
    token = _TOKEN_VALUE.match(text, value_at)
    return token is not None and _PIN_VALUE.fullmatch(token.group(0).rstrip(_TRAILING)) is not None


def _door_bridge(text: str, name_end: int) -> int | None:
    """Where the digits of ``codice del cancello 4471`` or ``kod do bramy garażowej 5821``
    start: up to four words naming a door, a gate or an alarm, then the code."""
    pos, door = name_end, False
    for _ in range(5):
        word = _WORD.match(text, pos)
        if word is None:
            return None
        value = word.group(1)
        if value[:1].isdigit() or (value[:1] in "*#" and value[1:2].isdigit()):
            return word.start(1) if door else None
        if any(c.isdigit() for c in value):
            return None
        door = door or value.lower().strip(",:") in _DOORS
        pos = word.end()
    return None


def _thai_codes(text: str) -> list[Finding]:
    """Thai ``รหัส`` (code) and a qualifier (ATM, บัตร card, เข้า entry, ประตู door…), then
    ``คือ``/``เป็น`` (is) or a colon, then four to eight digits; no space between words, so a
    product's or a postal code (``รหัสสินค้า``, ``รหัสไปรษณีย์``) has no qualifier."""
    found = []
    for match in _THAI_CODE.finditer(text):
        gap = match.group("gap").strip().lower()
        if not gap or any(word in gap for word in _THAI_QUALIFIERS):
            found.append(Finding("secret-assignment", *match.span("value")))
    return found


def find_named_values(text: str, low: str) -> list[Finding]:
    """Every value a secret-naming key announces in ``text`` (``low`` is its lower case)."""
    found: list[Finding] = _thai_codes(text) if "รหัส" in text else []
    done = -1
    pieces = '" ' in text or '"+' in text or '".' in text or '"&' in text  # literals joined
    for match in _heads(low):
        if match.start() < done:
            continue
        head = match.group(0)
        if head in _LEFT_BOUNDED and match.start() and low[match.start() - 1].isalnum():
            continue
        if head in (*_CODE_HEADS, "combination", "combo") and not _qualified(
            low, match.start(), match.end(), head
        ):
            continue
        if head in ("identified by", "identified with"):
            sql = _SQL.match(low, match.start())
            if sql:
                group = 1 if sql.group(1) is not None else 2
                found.append(Finding("secret-assignment", sql.start(group), sql.end(group)))
            continue
        name_start = match.start()
        floor = max(0, name_start - 80)
        while name_start > floor and (
            text[name_start - 1].isalnum() or text[name_start - 1] in "_.-"
        ):
            name_start -= 1
        tail = _NAME_TAIL.match(text, match.end())
        name_end = tail.end() if tail else match.end()
        done = name_end
        if text.endswith(("${", "{{", "$(", "{{ "), 0, name_start):
            continue  # a template or an expansion names a secret, it does not hold one
        token_start = max(text.rfind(c, 0, name_start) for c in " \t\n(\"'`") + 1
        if text.startswith("arn:", token_start):
            continue  # arn:aws:secretsmanager:…:secret:prod/db: where a secret is kept
        raw = text[name_start:name_end]
        name = raw.strip(".-")
        line_start = text.rfind("\n", 0, name_start) + 1
        before = text[line_start:name_start]
        between, value_at, separated = _after_name(text, name_end)
        if not separated and not before.strip() and _directive(text, value_at):
            separated = True  # msmtp's or a daemon's ``password <value>`` line: no separator
        if not separated and before.endswith(("$", "$env:", "%", "env.", "ENV.")):
            continue  # a variable used, not set: ``ConvertTo-SecureString $env:DEPLOY_PW``
        owner: list[str] = []
        for index, word in enumerate(between):
            if word.lower() in _PREPOSITIONS:
                between, owner = between[:index], between[index + 1 :]
                break
        if _changed_to(between, text, value_at):
            between = []  # "PIN changed to 4462": the words say the value changed
        if any(w.lower().strip("?!:=") in _DESCRIBING for w in between):
            continue
        words = ["mot de passe"] if "mot de passe" in head else _words(name)
        kind = _kind_of(words, before)
        if words == ["key"] and [w.lower() for w in between] == ["content"]:
            kind = "password"  # what ``netsh wlan show profile … key=clear`` prints of a Wi-Fi key
        if kind == "password" and _door_digits(text, before, value_at):
            kind = "pin"  # kapı şifresi 190734, 현관 비밀번호 *2847#: a door's password is a code
        if not separated and head in _CODE_HEADS and kind in (None, "pin"):
            door_code = _door_bridge(text, name_end)
            if door_code is not None:
                kind, value_at = "pin", door_code
        if kind is None and words[-1:] in (["code"], ["código"], ["codigo"], ["codice"]):
            doors = {w.lower().strip(":") for w in owner} & _DOORS
            kind = "pin" if doors else None
        if kind is None or value_at < 0:
            continue
        bridged = kind == "pin" and not separated and raw.isupper()
        if bridged and _LEADING_CHANGE.match(text, value_at) is None:  # not "PIN went from…"
            value_at = _bridged(text, name_end, value_at)
        flag = raw.startswith("-")
        if flag and text.startswith("-", value_at):
            continue  # "--ask-password --user=ci": a flag that takes no value, then another
        spans = _values(text, kind, name, value_at, separated=separated or flag)
        family = "cli-credential" if flag else "secret-assignment"
        if kind in ("password", "token", "bare-key", "pin", "card-code", "security"):
            whole = (
                text[name_end : name_end + 1] == "="
                and bool(_ENV_NAME.fullmatch(name))
                and _LINE_START.search(text, 0, name_start) is not None
            )
            changing, origin = kind in _CHANGING_KINDS and not whole, False
            if changing:
                value_at, origin = _past_change(text, value_at)
            spans = _plain_value(
                text, kind, name, value_at, separated=separated or flag, whole_line=whole
            )
            if changing:
                spans += _changed_values(text, kind, name, value_at, origin=origin)
            if kind == "pin":
                spans = [s for s in spans if not factory_default(before, text[s[0] : s[1]])]
        found += [
            Finding(family, start, end)
            for start, end in spans
            if end > start and _GLUED_PLACEHOLDER.match(text, end) is None
        ]
        for _, end in spans if pieces else ():
            found += _concatenated(text, end)
        for _, end in spans if "` `" in text else ():
            found += _next_code_spans(text, end)
        for start, end in spans if kind in ("token", "password", "bare-key") else ():
            found += _wrapped_hex(text, start, end)
        for _, end in spans if kind == "password" and " + " in text else ():
            found += _second_half(text, end)
    return found


# A line that lists a device's factory defaults (``YubiKey PIV factory defaults: PIN 123456``):
# what every such device ships with, printed in its manual.
_DEFAULTS = re.compile(r"(?i:\bdefaults?\b|\bwerkseinstellung|\bpar défaut|\bpor defecto)")


def factory_default(before: str, value: str) -> bool:
    """A PIN on a line of factory defaults (``before``: the line up to the PIN's name) whose
    digits count up or repeat (``123456``, ``0000``): the manual's, not a chosen PIN."""
    if _DEFAULTS.search(before) is None:
        return False
    digits = [int(c) for c in value if c.isdigit()]
    steps = {(b - a) % 10 for a, b in pairwise(digits)}
    return len(digits) >= 4 and len(steps) == 1 and steps <= {0, 1}


def _directive(text: str, value_at: int) -> bool:
    """The value at ``value_at`` is a config directive's (``password RsDUwhbAFObUjpW`` alone on
    its line, as msmtp, fetchmail and many daemons write it): the line's last word, of two
    kinds of characters or more and no capitalised word (``Password Hygiene`` is a heading)."""
    word = _LAST_WORD.match(text, value_at) if value_at >= 0 else None
    if word is None:
        return False
    value = word.group(1)
    return len(value) >= 6 and character_classes(value) >= 2 and not value.istitle()


def _second_half(text: str, end: int) -> list[Finding]:
    """The half a password goes on in after a plus (``pw is SwEnfm8 + ILv@Jga``): a word of
    three kinds of characters or more (``+ 2FA`` is a second factor, not a half)."""
    half = _HALF.match(text, end)
    if half is None or character_classes(half.group(1)) < 3:
        return []
    return [Finding("secret-assignment", *half.span(1))]


_HEX_VALUE = re.compile(r"[0-9a-f]{12,}|[0-9A-F]{12,}")
_HEX_GOES_ON = re.compile(r"[ \t]*\n[ \t]*([0-9a-fA-F]{8,})(?=[ \t]|$)")


def _wrapped_hex(text: str, start: int, end: int) -> list[Finding]:
    """The rest of a hex value that a mail or an editor wrapped onto the next line: a line
    that starts with hex digits of the same case, right under a value that ended its line."""
    if not _HEX_VALUE.fullmatch(text, start, end):
        return []
    rest = _HEX_GOES_ON.match(text, end)
    if rest is None or (rest.group(1).lower() != rest.group(1)) != text[start:end].isupper():
        return []
    return [Finding("secret-assignment", *rest.span(1))]


_CODE_SPAN = re.compile(r"`[ \t]+`([^`\s]{4,})(?=`)")


def _next_code_spans(text: str, end: int) -> list[Finding]:
    """The code spans that go on right after a value in one (``key is `abc…` `def…```): an
    editor wrapped one value into two spans."""
    found: list[Finding] = []
    pos = end
    while (span := _CODE_SPAN.match(text, pos)) is not None and len(found) < 4:
        found.append(Finding("secret-assignment", *span.span(1)))
        pos = span.end(1)
    return found


def _concatenated(text: str, end: int) -> list[Finding]:
    """The pieces a quoted value goes on in (``"Kx7#" + "q2Lm" "9vB"``): a string built of
    literals joined by ``+``, ``.``, ``&`` or set side by side is one value."""
    found: list[Finding] = []
    if text[end : end + 1] != '"':
        return found
    pos = end + 1
    while True:
        piece = _NEXT_PIECE.match(text, pos)
        if piece is None or not piece.group(1):
            return found
        found.append(Finding("secret-assignment", *piece.span(1)))
        pos = piece.end()


def _changed_to(between: Sequence[str], text: str, value_at: int) -> bool:
    """The words between a key and its value only say that it changed (``changed … to``)."""
    words = [w.lower() for w in between]
    if words == ["used"]:  # "PIN used to be 1357"
        return text[value_at : value_at + 3].lower() == "be "
    if not words or not any(w in _CHANGED_VERBS for w in words):
        return False
    if not all(w in _CHANGED_VERBS or w in _AUXILIARIES for w in words):
        return False
    before = text[max(0, value_at - 4) : value_at].rstrip(" \t").lower()
    return before.endswith(("to", "to:", ":"))


def _past_change(text: str, pos: int) -> tuple[int, bool]:
    """Where the value starts once ``now``, ``changed to`` or ``from`` are skipped, and whether
    it was a ``from`` (the new value then follows a bare ``to``)."""
    change = _LEADING_CHANGE.match(text, pos)
    if change is None:
        return pos, False
    return change.end(), change.group("origin") is not None


def _changed_values(
    text: str, kind: str, name: str, pos: int, *, origin: bool
) -> list[tuple[int, int]]:
    """The values the one at ``pos`` was changed to (``0000 changed to 4462``, ``A -> B``)."""
    spans: list[tuple[int, int]] = []
    for _ in range(4):
        value = _value_at(text, pos, whole_line=False)
        if value is None or not _could_hold(kind, text[value[0] : value[1]], quoted=value[2]):
            break  # "the passphrase policy now requires…": no value came before the change
        end = value[1]
        while end < len(text) and not text[end].isspace() and text[end] not in ",;":
            end += 1  # past what the value's token stops at (``Tr0ub4dor&3``)
        change = _FOLLOWING_CHANGE.match(text, end)
        if change is None or (change.group("to") is not None and not origin):
            break
        pos, origin = change.end(), False
        found = _plain_value(text, kind, name, pos, separated=True, whole_line=False)
        if not found or _LOWER_WORD.fullmatch(text[found[0][0] : found[0][1]]):
            break  # a plain lower-case word after "now" or "->" is prose
        spans += found
    return spans


def _could_hold(kind: str, value: str, *, quoted: bool) -> bool:
    """``value`` is one the key could hold (all zeros too: ``PIN 0000 changed to …``)."""
    if kind == "pin":
        return bool(_PIN_VALUE.fullmatch(value.strip()))
    return _is_secret(kind, value, quoted=quoted, separated=True, name="")


def _plain_value(
    text: str, kind: str, name: str, pos: int, *, separated: bool, whole_line: bool
) -> list[tuple[int, int]]:
    digits = _SPACED_DIGITS.match(text, pos) if kind == "pin" else None
    if digits is not None:
        return [digits.span()]
    spaced = _SPACED_OUT.match(text, pos)
    if spaced is not None:
        compact = spaced.group(0).replace(" ", "")
        mixed = kind in ("pin", "card-code") or character_classes(compact) >= 2
        if mixed and _is_secret(kind, compact, quoted=False, separated=separated, name=name):
            return [spaced.span()]  # letters of one kind spaced out are a list, not a value
    value = _value_at(text, pos, whole_line=whole_line)
    if value is None:
        return []
    start, end, quoted = value
    if not quoted and _prose_after_word(text, start, end):
        return []
    if not quoted and _compared(text, start) and _IDENTIFIER.fullmatch(text[start:end]):
        return []  # "if password == confirm_password:": compared with a variable
    if _quoted_sentence(text, kind, start, end, quoted=quoted):
        return []  # 'the password is "whatever you set during setup"': a sentence quoted
    secret = _is_secret(kind, text[start:end], quoted=quoted, separated=separated, name=name)
    return [(start, end)] if secret else []


def _compared(text: str, start: int) -> bool:
    """The value at ``start`` follows a comparison (``==``, ``!=``), not an assignment."""
    return text[max(0, start - 6) : start].rstrip(" \t").endswith(("==", "!="))


def _quoted_sentence(text: str, kind: str, start: int, end: int, *, quoted: bool) -> bool:
    """A quoted value with spaces after a verb (``is "…"``) that is no passphrase: a sentence.
    A security answer may be a few words of any kind."""
    return (
        quoted
        and kind != "security"
        and " " in text[start:end]
        and _after_word(text, start - 1)
        and not is_passphrase(text[start:end], minimum=2)
    )


def _after_word(text: str, start: int) -> bool:
    """The value at ``start`` follows a separator that is a word (``is``, ``ist``, ``je``) or
    a dash, which in prose opens an aside (``the password — which Dana set …``)."""
    before = text[max(0, start - 8) : start].split()
    if before and before[-1] in ("—", "–", "-", "--"):
        return True
    return bool(before) and before[-1].lower() in _WORD_SEPARATORS and before[-1].isalpha()


def _prose_after_word(text: str, start: int, end: int) -> bool:
    """``the key is documenting everything``, ``the pass … was closed``: after a word
    separator, a plain lower-case word is prose."""
    if not _after_word(text, start):
        return False
    value = text[start:end]
    return bool(_LOWER_WORD.fullmatch(value)) and value.islower()


def _values(text: str, kind: str, name: str, pos: int, *, separated: bool) -> list[tuple[int, int]]:
    """The value spans of the structured kinds (headers, cookies, code lists, seed phrases)."""
    if kind == "header":
        value = _header_value(text, pos)
        return [value] if value else []
    if kind == "cookie":
        return _cookie_values(text, pos, first_only=name.lower().startswith("set"))
    if kind == "codes":
        return _list_values(text, pos, r"(?<![\w-])[A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{4,})+")
    if kind == "seed":
        seed = _SEED.match(text, pos)
        return [(seed.start(), seed.end())] if seed else []
    return []
