"""One-time codes (SMS, e-mail, authenticator) and the setup keys authenticators are given.

* **After its word.** A word that names a one-time code, in the languages SMS are sent in
  (``verification code``, ``login code``, ``OTP``, ``kod weryfikacyjny``,
  ``Bestätigungscode``, ``code de vérification``, ``doğrulama kodunuz``, ``mã xác thực``,
  ``验证码``, ``ఓటీపీ`` and ``OTP`` in the other Indic scripts, ``認証コード``, ``인증번호``,
  ``رمز التحقق``, ``קוד אימות``, ``код подтверждения``…,
  ``Steam Guard``, a Polish ``BLIK`` code, a service that sends them: ``WhatsApp code``,
  ``código do WhatsApp``; a code someone was sent, as a chat says it: ``the code they sent me
  is``, ``bank sent code``), then at most five words of the same sentence with no digit
  (``is``, ``của Quý khách là``, ``الخاص بك هو``; ``for the new laptop`` too when a colon then
  gives the code), then four to eight digits, three and three (``552 913``) or in pairs
  (``41 87 26``), perhaps in brackets (``[537204]``) or after a brand's letters
  (``FB-58213``), or capitals and digits mixed (``7KQ2D``, ``QX4-7ML``).
* **Before its word.** The code first, where a message starts, then at most four words that
  say whose it is (``is your Facebook``, ``आपका``, ``est votre``), then the word:
  ``FB-58213 is your Facebook confirmation code``, ``552913 आपका OTP है``.
* **Setup keys.** A word that names an authenticator's seed (``setup key``, ``secret key``,
  ``manual entry key``, ``2FA secret``, ``TOTP seed``, ``authy seed``, ``klucz
  konfiguracyjny``, ``kurulum anahtarı``…), then base32 in groups of four (``gg44 c5uu 5arj
  …``) or in one run, letters and at least two digits (one in sixteen characters or more).

Not a code: words that describe it between the word and the number (``expires in 10
minutes``, ``valid for``, ``length``, ``sent to``), a number followed by a unit (``300
seconds``, ``6 digits``), a time (``10:45``), a phone number (``+48 …``, more digits after
it). Pure.
"""

from __future__ import annotations

import re
from functools import cache

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import ITEM, windows

__all__ = ["find_one_time_codes"]

_WORDS = (
    "otp;one-time code;one-time password;one time password;one-time passcode;verification code"
    ";confirmation code;login code;log-in code;sign-in code;signin code;2fa code;two-factor code"
    ";authentication code;auth code;sms code;kod weryfikacyjny;kod sms"
    ";kod potwierdzający;kod jednorazowy;bestätigungscode;verifizierungscode;einmalcode"
    ";anmeldecode;code de vérification;code de confirmation;code à usage unique"
    ";código de verificación;código de confirmación;código de verificação;codice di verifica"
    ";verificatiecode;doğrulama kodu;doğrulama kodunuz;dogrulama kodu;onay kodu;onay kodunuz"
    ";kode otp;kode verifikasi;mã otp;mã xác thực;mã xác nhận;ma otp;ma xac thuc;ma xac nhan"
    ";验证码;驗證碼;校验码;認証コード;確認コード;ワンタイムパスワード;인증번호;인증 번호;인증코드"
    ";رمز التحقق;رمز التأكيد;كود التحقق;קוד אימות;קוד האימות;код подтверждения;код верификации"
    ";одноразовый код;код из смс;κωδικός επαλήθευσης;รหัส otp;รหัสยืนยัน;सत्यापन कोड;ओटीपी"
    ";steam guard code;steam guard;kod blik;blik code;blik"
    # OTP as the Indic scripts write it (Telugu, Tamil, Bengali, Gujarati, Odia, Kannada,
    # Malayalam, Gurmukhi)
    ";ఓటీపీ;ఓటిపి;ஓடிபி;ওটিপি;ઓટીપી;ଓଟିପି;ಒಟಿಪಿ;ഒടിപി;ਓਟੀਪੀ"
    # a code someone was sent, said in a chat: "the code they sent me is …", "bank sent code …"
    ";code they sent;code they sent me;code they texted;code they texted me;code you sent"
    ";code you sent me;code i got;code i was sent;sent code;sent me code;sent me a code"
    ";sent me the code;sent the code;sent a code;texted me a code;texted me the code"
).split(";")
# Services that send login codes: ``WhatsApp code``, ``código do WhatsApp``, ``kod Telegram``.
_SENDERS = (
    "whatsapp telegram signal instagram facebook tiktok discord steam uber paypal revolut"
    " microsoft apple google viber line wechat"
).split()
_WORDS += [
    form
    for sender in _SENDERS
    for form in (
        f"{sender} code",
        f"{sender} login code",
        f"código do {sender}",
        f"código de {sender}",
        f"codice {sender}",
        f"kod {sender}",
        f"code {sender}",
    )
]
# Where a code word can start: anchors found by ``str.find`` before any pattern runs.
_ANCHORS = (
    "otp",
    "code",
    "kod",
    "códi",
    "codi",
    "mã",
    "ma otp",
    "ma xac",
    "验证",
    "驗證",
    "校验",
    "認証",
    "確認コード",
    "ワンタイム",
    "인증",
    "رمز",
    "كود",
    "קוד",
    "код",
    "κωδικ",
    "รหัส",
    "सत्यापन",
    "ओटीपी",
    "ఓటీపీ",
    "ఓటిపి",
    "ஓடிபி",
    "ওটিপি",
    "ઓટીપી",
    "ଓଟିପି",
    "ಒಟಿಪಿ",
    "ഒടിപി",
    "ਓਟੀਪੀ",
    "one-time",
    "one time",
    "blik",
)
# Words between a code word and a number that say the number is something else.
_DESCRIBING = frozenset(
    "expires expire expired expiry valid validity length digits sent send resend after within"
    " in for at every attempts attempt wrong invalid old previous last format field step"
    " gelmedi gönderildi ważny wysłany gültig envoyé válido valido hiệu".split()
)
# Describing words that only link the code to what it is for: after them, a colon still gives
# the code (``Steam Guard code for the new laptop: 7KQ2D``).
_LINKING = frozenset("for in at after within every".split())
_UNITS = (
    r"(?:min|minute|minutes|mins|sec|secs|second|seconds|s|ms|h|hour|hours|digit|digits|char"
    r"|chars|characters|times|attempts|tries|lines?|dakika|saniye|phút|phut|giây|minut|minuty|minuten"
    r"|sekund|sekunden|分钟|分|秒|分間|초|분|دقائق|דקות|минут|секунд)\b"
)
# Digits (after a brand's letters: ``G-483920``), in threes or in pairs (``552 913``,
# ``41 87 26``), or letters and digits in capitals (``7KQ2D``, ``QX4-7ML``).
_VALUE = (
    r"(?P<value>(?:[A-Z]{1,3}-)?\d{4,8}|\d{3}[ -]\d{3}|\d{2}(?:[ -]\d{2}){2,3}"
    r"|(?=[A-Z-]*\d)(?=[\d-]*[A-Z])(?:[A-Z0-9]{5,8}|[A-Z0-9]{3,4}-[A-Z0-9]{3,4})(?![\w-]))"
)
_AFTER_VALUE = r"(?![./:]?\d|,\d{3})(?!\s*" + _UNITS + ")"
# Words that say whose a code is, between a code and its word (``is your Facebook``).
_WHOSE = frozenset(
    "is your votre ton dein ihr deine tu su seu sua twój twoj il tuo uw je sizin của bạn là"
    " आपका आपकी آپ کا 您的 هو ваш ваш ist est es é è adalah anda".split()
)
_SETUP_WORDS = (
    "setup key;set-up key;secret key;manual entry key;key for manual entry;2fa secret;totp secret"
    ";otp secret;mfa secret;authenticator key;klucz konfiguracyjny;klucz tajny;kurulum anahtarı"
    ";gizli anahtar;clé de configuration;clé secrète;clave de configuración;clave secreta"
    ";chave de configuração;einrichtungsschlüssel;geheimer schlüssel;セットアップキー;设置密钥"
    ";설정 키;totp seed;otp seed;2fa seed;mfa seed;authy seed;authenticator seed;totp key;otp key"
    ";2fa key;mfa key"
).split(";")
_SETUP_ANCHORS = (
    "key",
    "secret",
    "klucz",
    "anahtar",
    "clé",
    "clave",
    "chave",
    "schlüssel",
    "キー",
    "密钥",
    "설정 키",
    "seed",
)
_BASE32 = (
    r"(?P<seed>[A-Za-z2-7]{4}(?:[ ][A-Za-z2-7]{4}){3,15}|[A-Z2-7]{16,64}|[a-z2-7]{16,64})"
    r"(?![A-Za-z0-9])"
)


def _alternation(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    words = _alternation(_WORDS)
    after = re.compile(
        rf"(?i:(?<![^\W\d_])(?:{words})(?![^\W\d_]))(?P<gap>[^\n\d.!?。।]{{0,40}}?)"
        rf"(?P<lead>[\s:：=\-–—\[(【「]*)(?<![+\d]){_VALUE}{_AFTER_VALUE}"
    )
    before = re.compile(
        rf"(?:^{ITEM}|(?<=[\n.!?:\]】>]\s)|(?<=[\n\]】>]))\s*{_VALUE}{_AFTER_VALUE}"
        rf"(?P<gap>(?:\s+[^\s\d]+){{1,4}}?)\s+(?i:(?:{words}))",
        re.M,
    )
    setup = re.compile(
        rf"(?i:(?:{_alternation(_SETUP_WORDS)}))[^\n:=\d]{{0,30}}?[:=]?\s*(?-i:{_BASE32})"
    )
    return after, before, setup


def _gap_words(gap: str) -> list[str]:
    return [w.strip(",;:()[]【】「」").lower() for w in gap.split()]


def _seed(value: str) -> bool:
    """Base32 with letters and at least two digits (one in a run of sixteen characters or
    more, as a random key of ten bytes or more may well have): ``this will take time`` is
    words."""
    digits = sum(c.isdigit() for c in value)
    enough = digits >= 2 or (digits == 1 and len(value.replace(" ", "")) >= 16)
    return enough and sum(c.isalpha() for c in value) >= 2


def find_one_time_codes(text: str, low: str) -> list[Finding]:
    """One-time codes and authenticator setup keys (``low``: ``text`` in lower case)."""
    after, before, setup = _patterns()
    found: list[Finding] = []
    for start, end in windows(low, _ANCHORS, before=90, after=90):
        for match in after.finditer(text, start, end):
            words = _gap_words(match.group("gap"))
            colon = ":" in match.group("lead") or "：" in match.group("lead")
            describing = _DESCRIBING - _LINKING if colon else _DESCRIBING
            if len(words) <= 5 and not any(w in describing for w in words):
                found.append(Finding("secret-assignment", *match.span("value")))
        for match in before.finditer(text, start, end):
            words = _gap_words(match.group("gap"))
            if any(w in _WHOSE for w in words):
                found.append(Finding("secret-assignment", *match.span("value")))
    for start, end in windows(low, _SETUP_ANCHORS, before=24, after=120):
        for match in setup.finditer(text, start, end):
            if _seed(match.group("seed")):
                found.append(Finding("secret-assignment", *match.span("seed")))
    return found
