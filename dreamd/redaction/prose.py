"""Passwords said in sentences, in the languages notes are written in, and on the next line.

:mod:`dreamd.redaction.keys` reads a key and the separator right after it; people write
``Das WLAN-Passwort für das Gästenetz lautet …``, ``le mot de passe qu'on a choisi pour le
compte partagé est …``, ``パスワードは … です``, ``Поменял пароль на …``. Rules:

* **A password word, then a verb that gives its value.** A password word (``password``,
  ``Passwort``/``Kennwort`` and their compounds, ``mot de passe``, ``clé``, ``contraseña``,
  ``clave``, ``senha``, ``palavra-passe``, ``parola d'ordine``, ``wachtwoord``, ``hasło``,
  ``пароль``, ``lösenord``, ``şifre``, ``парола``, ``лозинка``, ``lozinka``, ``geslo``,
  ``slaptažodis``, ``parool``, ``salasõna``, ``lykilorð``, ``contrasenya``, ``pasahitza``,
  ``fjalëkalimi``, ``wagwoord``, ``cyfrinair``, ``kata kunci``, ``neno la siri``… in some
  forty more languages, and ``Passwuat``, ``ciav``, ``وشەی نهێنی``, ``konngol suturo`` in Latin
  letters and in Adlam), perhaps an aside between dashes or in brackets (``The password —
  which Dana set on Tuesday, … — is …``), then in the same sentence up to twelve words, then a
  word that gives its value (``is``, ``lautet``, ``ist``, ``c'est``, ``est``, ``es``, ``é``,
  ``è``, ``wordt``, ``är``, ``jest``, ``to``, ``это``, ``е``, ``yra``, ``ir``, ``és``, ``ay``,
  ``është``, ``yw``, ``ej``, ``na``, ``l'é``, ``'s``, ``:``, ``=``, ``→``, ``—``; a comparison
  ``==`` gives none), perhaps ``now`` or ``übrigens``, then the value. Or a change
  (``changed``, ``geändert``, ``cambiato``, ``поменял``, ``diubah``, ``promijenjena``,
  ``zmenil``, ``canviat``…) and the word for *to* (``to``, ``auf``, ``in``, ``en``, ``a``,
  ``para``, ``на``, ``naar``, ``menjadi``, ``kepada``, ``u``, ``į``…). Or a verb that hands
  the value over (``type``, ``paste``, ``enter``, ``tippe``, ``wpisz``…: ``…asks for a
  passphrase, type … and hit enter``).
* **Thai** writes no space between words: ``รหัสผ่าน``, the rest of the clause, ``คือ``
  or ``เป็น`` (*is*) or a colon, then the value.
* **Quotes and brackets.** A value in quotes or brackets (``«…»``, ``(…)``, ``„…“``, ``[…]``,
  ``「…」``) is read inside them: right after the password word (``mot de passe («…»)``,
  ``密码（…）``) or after the verb, perhaps after one noun (``je fráze „…“``).
* **Chinese, Japanese, Korean.** A password word (``密码``, ``密碼``, ``口令``, ``パスワード``,
  ``暗証番号``, ``비밀번호``, ``비번``, or ``pw``/``password`` written against the script:
  ``VPNのpwは…``), then at most twelve characters of the sentence
  (particles and verbs: ``は``, ``を``, ``是``, ``为``, ``改成了``, ``는``, ``를``…; Korean's
  words parted by spaces), then the value, which is written in Latin letters, digits and
  symbols.
* **On the next line.** A line that ends with a password word (``Password:``, ``- **Passwort**``,
  ``The password is``, ``パスワード``, ``公司 VPN 新密碼``, ``Root pw (do not paste):``, ``Q:
  password for grafana?``), and a next line (or the one after a blank line) holding one
  value, perhaps in backticks or after an answer's ``A:``, and nothing else; after a login's
  word (``the router login (…):``) the value must be a strong password (a user's name is no
  secret).
* **Named after the value.** ``Gl4ss-Otter-19, the password I mean``, ``v5_uUzpV5oa — ҫакӑ
  ҫӗнӗ вӑрттӑн сӑмах``: a strong password set off by a comma or a dash, then at most six words
  of the same sentence (none describing the password) before the password word.
* **Words joined by dots.** ``Kestrel.shapla.3370``: two to four words joined by dots, the
  first capitalised and the rest in lower case, then three to six digits: a passphrase as
  password managers make them, wherever it stands (no host ends in a label of digits, no file
  name in digits, no version starts with a word).
* **Changed to, unnamed.** ``changed it to …``, ``reset mine to …``: a strong password with
  a sign in it (``!``, ``@``, ``#``…; not only at its end), which no version or setting is
  written with.
* **Pointed at from the next line.** A chat's message that holds one value shaped like a
  password, and the next line saying what it was with a pointer up (``that's the wifi 👆``,
  ``^ that's the password``, ``the PIN above``): the value is the password.
* **Digits after a word of a script without spaces.** ``暗証番号は 31908 です``, ``비밀번호
  1582#``, ``현관 비밀번호 바꿨어 4417*``: four to twelve digits (a ``#`` or a ``*`` may end
  them), unless the script goes on right after them (``密码2024年``, a year), or they are a
  year after words of the sentence.
* **No verb.** ``şifrem Bogazici_1863 ama …``, ``पासवर्ड Dilli@2026Rk है``: within four words
  of the password word and before any verb (or right before the verb that ends the sentence:
  ``Wifiaren pasahitza … da``, ``… ነው``), a value that needs no verb to be a password
  (eight characters or more, letters and digits, mixed case or a symbol), when nothing in the
  sentence describes the password instead.

In a sentence, the value must look like a password: six characters or more, a letter, and a
digit or a symbol; not a URL, a path, an e-mail address, a version or a date, not a
placeholder or a reference (the rules of :func:`dreamd.redaction.keys.value_is_secret`), not
a password manager's name. Or it is a passphrase (:mod:`dreamd.redaction.phrases`): four
words joined by hyphens, three after a passphrase word (``passphrase``, ``lösenfras``,
``salalause``…) or in quotes, where spaces may join them; never a quoted sentence. Words
between the password word and the verb that describe the password instead (``policy``,
``length``, ``manager``, ``Richtlinie``, ``oublié``…) mean no value follows.

* **Joined by hyphens**, as by dots: ``Kestrel-shapla-3370`` wherever it stands.
* **Callouts.** ``> [!secret]- NAS login`` (a callout whose type or title names a secret or a
  login, behind a list item's marker too): the strong passwords on its quoted lines.
* **A sign says it.** A network's word and a colon (``Gast-WLAN: …``), ``value:``, or a quoted
  argument of a call, a tuple or an Erlang term (``<<"…">>``): a value of four kinds of
  characters with a sign (``!``, ``$``, ``%``…) among them.
* **Other scripts.** After a password word of a script without Latin letters (``패스워드``),
  ten Latin letters or more in both cases with no word's shape.
* **References.** A value that is a variable's or a store's reference (``${SS_PASSWORD}``,
  ``!secret name``) ends the sentence's search, and a password word inside ``${…}`` is a
  variable's name. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import MASK, Finding
from dreamd.redaction.keys import character_classes, is_template, value_is_secret
from dreamd.redaction.phrases import CLOSERS, enclosed, is_passphrase
from dreamd.redaction.scan import ITEM, find_words

__all__ = ["DESCRIBING", "find_prose_passwords", "password_shaped", "strong_password"]

# Password words whose end is a word's end; the long ones may end a compound (WLAN-Passwort).
_LONG_WORDS = (
    "password passwort kennwort passwd passphrase passcode wachtwoord lösenord losenord"
    " adgangskode passord salasana contraseña contrasena lösenfras losenfras wachtwoordzin"
    " salalause passordfrase wagwoord wachtwurd passwuert contrasenya pasvorto cyfrinair"
    " kontraseña kontrasena pasword passwrod passowrd pasword passwd wachwoord mot-de-pass"
    " passwuat"
).split()
# Passphrase words: a value of three joined words is enough after one of them.
_PASSPHRASE_WORDS = frozenset(
    "passphrase lösenfras losenfras wachtwoordzin salalause salalauseeni salalauseen"
    " passordfrase".split()
)
_SHORT_WORDS = (
    "pw pwd mdp clé cle clave senha hasło haslo пароль şifre sifre heslo jelszó jelszo"
    " κωδικός schlüssel lösenordet losenordet şifresi sifresi adgangskoden passordet"
    " şifrem sifrem şifreniz parola parolası parolasi parolam hasła hasłem jelszavam jelszava"
    " jelszót jelszavad sandinya nenosiri пароля паролем паролі סיסמה הסיסמה סיסמא הסיסמא"
    " סיסמת پسورد گذرواژه گذرواژهٔ पासवर्ड पासवर्ड्स salasanani salasanasi salasanan"
    " salalauseeni salalauseen கடவுச்சொல் கடவுச்சொல்லை পাসওয়ার্ড పాస్వర్డ్ പാസ്വേഡ് ಪಾಸ್ವರ್ಡ್"
    " პაროლი գաղտնաբառ پاسورڈ 🔑 🗝 συνθηματικό συνθηματικού"
    " парола паролата лозинка лозинката лозинку лозинке lozinka lozinku lozinke"
    " zaporka zaporku šifra šifru geslo gesla geslom hesla heslá slaptažodis slaptažodį"
    " slaptažodžio slaptazodis parole paroli parool parooli salasõna salasõnaga salasona"
    " lykilorð lykilorðið lykilorðinu lykilord loyniorð loyniorðið pasahitza pasahitz"
    " contrasinal fjalëkalimi fjalëkalim fjalekalimi şifrə şifrəsi şifrəm parol parolim"
    " գաղտնաբառը iphasiwedi pasfhocal kwdikos kodikos şîfre şîfreya"
    " මුරපදය ពាក្យសម្ងាត់ ລະຫັດຜ່ານ စကားဝှက် စကားဝှက်က ਪਾਸਵਰਡ પાસવર્ડ پټنوم"
    " kupuhipa modpas senhal okwuntughe isissutissaq facal-faire פּאַראָל פאראל פּאַראָלן"
    " پارول پارولى پارولی پارولنى পাছৱৰ্ড рамз рамзи рамзҳои сырсөз beassansátni"
    " pasiwedhi pasword phasewete ahintasɛm gronidło ger-tremena passwoort wachwaord passwird"
    " ichtacatlahtolli серһүҙ серһүҙе پاسورڊ ᐃᓯᖅᑯᑎ ꯄꯥꯁꯋꯥꯔꯗ"
    # inflected as each language inflects it: Finnish cases (salasanaksi "to be the password",
    # salasanalla "with the password"), Czech instrumental and genitive, Hungarian possessives
    # and cases, Greek accusative, Romanian articles, Swahili's nywila, Persian رمز ("code":
    # the password of speech)
    " salasanaksi salasanalla salasanaa salasanalle salasanat hesle heslem heslu"
    " jelszavamat jelszavát jelszóval jelszavunk jelszavunkat κωδικό κωδικού κωδικοί"
    " parolei parolele parolă nywila nywira رمز رمزم رمزش رمزت"
    # Piedmontese's key (ciav)
    " ciav"
).split()
_PHRASES = (
    "mot de passe",
    "mot de pass",
    "nimi open",
    "palavra-passe",
    "palavra passe",
    "parola d'ordine",
    "parola chiave",
    "mật khẩu",
    "mật mã",
    "kata sandi",
    "kata sandinya",
    "kata laluan",
    "كلمة المرور",
    "كلمة السر",
    "الرقم السري",
    "رمز عبور",
    "رمز ورود",
    "κωδικός πρόσβασης",
    "پاس ورڈ",
    "kata kunci",
    "neno la siri",
    "kalmar sirri",
    "ọ̀rọ̀ aṣínà",
    "oro asina",
    "የይለፍ ቃል",
    "құпия сөз",
    "құпия сөзі",
    "нууц үг",
    "upu fa'alilolilo",
    "upu faʻalilolilo",
    "lea fufū",
    "lea fufu",
    "erayga sirta",
    "erayga sirtaada",
    "parolla d'accessu",
    "parolla d'ordine",
    "ijambo ry'ibanga",
    "ijambo ry’ibanga",
    "kecap akses",
    "kecap konci",
    "pakasqa simi",
    "pakasqa siminqa",
    "གསང་ཚིག",
    "awal uffir",
    "jecha icciitii",
    "jechi icciitii",
    "baatu jàll",
    "liloba ya kokɔta",
    "mawu achinsinsi",
    "lefoko la sephiri",
    "nya ɣaɣla",
    "parau huna",
    "clau d'acceso",
    "peraule di passaç",
    "biervo sekreto",
    "motî d' passe",
    "fockle follit",
    "bi̍t-bé",
    "parola segreta",
    "parola d'accesso",
    "palora d'accessu",
    "jamasa aru",
    "jamasa arupax",
    "ewan tzij",
    "вӑрттӑн сӑмах",
    "вӑрттӑн сӑмахӗ",
    "къайлаха дош",
    "сусæг дзырд",
    "кистэлэҥ тыл",
    "кистэлэҥ тыла",
    "нюуса үгэ",
    "መሕለፊ ቃል",
    "ⴰⵡⴰⵍ ⵓⴼⴼⵉⵔ",
    "ܡܠܬܐ ܕܐܪܙܐ",
    "ߜߎ߲߬ߘߎ߬ ߞߎߡߊ",
    "ᎤᏕᎵᏛ ᎧᏃᎮᏛ",
    "ᱫᱟᱱᱟᱝ ᱨᱚᱲ",
    "ᠨᠢᠭᠤᠴᠠ ᠦᠭᠡ",
    "ꦠꦼꦩ꧀ꦧꦸꦁ ꦱꦤ꧀ꦝꦶ",
    "kato sandi",
    "kata laluan saya",
    "የይለፍ ቃሌ",
    "የይለፍ ቃሉ",
    "የይለፍ ቃሉን",
    "የይለፍ ቃልህ",
    "የይለፍ ቃልሽ",
    # Sorani, and Pulaar in Latin letters and in Adlam
    "وشەی نهێنی",
    "وشەی تێپەڕ",
    "konngol suturo",
    "𞤳𞤮𞤲𞤲𞤺𞤮𞤤 𞤧𞤵𞤼𞤵𞤪𞤮",
)
_CJK_WORDS = (
    "密码",
    "密碼",
    "口令",
    "パスワード",
    "暗証番号",
    "暗証",
    "비밀번호",
    "비번",
    "비밀 번호",
    "패스워드",
    "パスは",
    "パスを",
    "รหัสผ่าน",
    "พาสเวิร์ด",
    "รหัสเข้า",
    "ㄇㄧˋ ㄇㄚˇ",
)
_COPULAS = frozenset(
    "is was are = : := → -> => — – - lautet lauten ist war sind heißt heisst c'est est était"
    " sera es era será é era será è sarà wordt werd blijft är var blir er jest był była to"
    " это — это: is: ist: est: es: on είναι ήταν este adalah là olduğu brzmi e je ni ialah"
    " هي هو היא הוא е је yra ir és ay është არის ce ithi yw ydy ná hija huwa ass estas"
    " einai គឺ ແມ່ນ 's ’s ko o waa se איז hè bụ nyaéta nyaeta হ'ল হ’ল em hemi ye ndeye ndi"
    " ke ne enye mooy ezali ca dha amo it's it’s its ta li ej na l'é l’é 𞤳𞤮".split()
)
# Verbs that hand a value over: "…its passphrase, paste amber-lantern-ridge-falcon and press enter".
_GIVING = frozenset(
    "type enter use paste tippe eingeben tape saisir saisis escribe introduce digite wpisz"
    " введи введите yaz gõ ketik masukkan".split()
)
_FILLERS = frozenset(
    "now still currently actually btw just simply also jetzt übrigens immer noch nun neu"
    " derzeit aktuell maintenant toujours désormais actuellement ahora todavía actualmente"
    " agora ainda atualmente ora adesso ancora attualmente nu nog momenteel teraz obecnie"
    " сейчас теперь всё ещё nuförtiden fortfarande şimdi hâlâ ang um um, uh uh, erm erm, ehm"
    " ehm, äh äh, euh euh,".split()
)
_CHANGES = LazyPattern(
    r"(?i:chang(?:ed|e)|reset|set|updated|rotated|switched|geändert|ändern|geaendert"
    r"|umgestellt|gesetzt|changé|modifié|cambiad[oa]|cambié|cambiato|cambiata|modificat[oa]"
    r"|alterad[oa]|alterei|mudad[oa]|mudei|mudou|mudaram|troquei|trocad[oa]|gewijzigd|veranderd|zmieni\w*|değiştir\w*"
    r"|ändrade|ändrat|поменял\w*|сменил\w*|изменил\w*|обновил\w*"
    r"|diubah|diganti|ditukar|mengubah|mengganti|menukar|ubah|ganti|tukar"
    r"|promijen\w*|promen\w*|zmenil\w*|zmenen\w*|spremen\w*|pakeič\w*|pakeit\w*|nomainī\w*"
    r"|muutsin|muudetud|breytt\w*|canvia\w*|aldatu\w*|cambiei|pinalitan|pinalitan\w*"
    r"|смен\w*|промен\w*|ndrysho\w*|değiştirdim|schimbat|schimbată|modificat|άλλαξ\w*"
    r"|vaihdoin|vaihdettu|megváltoztattam|změnil\w*|ቀየርኩ\w*|ቀይሬ\w*|nimebadilisha|badilisha)"
)
_TO_WORDS = frozenset(
    "to auf in en a para pra на naar na till på into zu menjadi jadi kepada ke u į uz sa në"
    " в v în σε ወደ kuwa".split()
)
_DESCRIBING = frozenset(
    "policy policies length rules rule requirements requirement manager managers reset hint"
    " hints field prompt strength hash hashed encrypted expiry expires expired expiration"
    " change rotation vault file generator complexity format recovery forgot forgotten"
    " richtlinie richtlinien länge manager vergessen zurücksetzen feld anforderungen"
    " verschlüsselt politique longueur gestionnaire oublié réinitialisation champ exigences"
    " política longitud gestor olvidada olvidé campo requisitos comprimento gerenciador"
    " esquecida esqueci lunghezza gestore dimenticata beleid lengte beheerder vergeten veld"
    " eisen zasady długość menedżer zapomniałem polityka политика длина менеджер поле забыл"
    " требования".split()
)
DESCRIBING = _DESCRIBING  # words that describe a password rather than give it
_MANAGERS = frozenset(
    "1password bitwarden keepass keepassxc lastpass dashlane keychain vault proton pass".split()
)
_SENTENCE_END = LazyPattern(r"[.!?;\n。](?:\s|$)|\n")
# An aside opened right after a password word: a dash with spaces round it, or a bracket.
_ASIDE = LazyPattern(r"[ \t]*(?:(—|–|--)[ \t]|\()")
_TRAILING = ".,;:)]}>\"'»”،؛"
_SHAPE_LETTER = LazyPattern(r"[^\W\d_]")
# A digit or a symbol words are not written with: a hyphen or a dot alone is a compound
# ("wifi-en", "e-mail"), not a password.
_SHAPE_OTHER = LazyPattern(r"[\d!@#$%^&*+=?~_\\|]")
_NOT_A_VALUE = LazyPattern(
    r"[A-Za-z][A-Za-z0-9+.-]*://|[\w.+-]+@[\w-]+\.[\w.]+|v?\d+(?:\.\d+)+[\w-]*"
    r"|\d{4}-\d{2}-\d{2}|\d+(?:\.\d+)?(?:[GMK]Hz|[GMK]B|ms|s|%|px)|[~/.]{0,2}/\S*|\S*/\S*/\S*"
)
_CALL = LazyPattern(r"[\w.]+[(\[]")  # code, not a value: base64.b16encode(random_bytes[8:])
# A key and its value, as a line of a config file or a log gives them (``AutoStart=1``): a
# name of letters (a password with "=" in it, ``vB0Z=!3b5``, has digits or symbols before it).
_KEY_LINE = LazyPattern(r"[A-Za-z_][A-Za-z_.-]*=[\w.:/-]*")
_DIGIT = LazyPattern(r"\d")  # "Pizza.Margherita7" is a password, "settings.DB_PASSWORD" a name
_CJK_PIN = LazyPattern(r"\d{4,12}[#*]?")
_YEAR = LazyPattern(r"(?:19|20)\d\d")
_ITEM = ITEM


def _forms(words: list[str] | tuple[str, ...]) -> list[str]:
    """Each word as written, composed and decomposed (Bengali, Tamil and Devanagari letters
    with a nukta or a vowel sign are typed both ways)."""
    forms: dict[str, None] = {}
    for word in words:
        for form in (word, unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word)):
            forms[form.lower()] = None
    return list(forms)


@cache
def _word_forms() -> tuple[str, ...]:
    """Every password word in lower case, in the forms it is typed in."""
    return tuple(_forms((*_LONG_WORDS, *_SHORT_WORDS, *_PHRASES)))


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The CJK rule and the next-line rule (tried at the start of a line holding a password
    word); the words themselves are found by :func:`dreamd.redaction.scan.find_words`."""
    long_words = "|".join(map(re.escape, _forms(_LONG_WORDS)))
    short_words = "|".join(map(re.escape, _forms(_SHORT_WORDS + list(_PHRASES))))
    cjk_words = "|".join(map(re.escape, _CJK_WORDS))
    login_words = "|".join(map(re.escape, _LOGIN_WORDS))
    cjk = re.compile(
        rf"(?:{cjk_words}|(?i:password|passwd|pwd|pw|pass)(?={_CJK_LETTER}))"
        r"(?:[^\x00-\x7f。、\n]|[ \t](?=[^\x00-\x7f\s])){0,16}?[ \t]*(?:[:=][ \t]*)?"
        r"(?P<value>[!-~]{4,64})(?![!-~])"
    )
    line_end = re.compile(
        rf"(?i:{_ITEM}(?:(?:q|question)[ \t]*[:.)][ \t]*)?(?:\*\*|__)?"
        rf"(?:[^\n:=]{{0,40}}?(?:[\s(-]|{_CJK_LETTER}(?={cjk_words})))?"
        rf"(?:{long_words}|{short_words}|{cjk_words}|(?P<login>{login_words}))(?:\*\*|__)?"
        r"(?P<tail>(?:[ \t]+[^\s:=()*]{1,20}){0,4}?)"
        r"(?:[ \t]*\([^)\n]{0,40}\))?"
        r"(?P<sep>[ \t]*[:=?]|[ \t]+(?:is|lautet|ist|est|es|é|è|は|是))?"
        rf"(?:\*\*|__)?[ \t]*\n(?:[ \t]*\n)?{_ITEM}(?:(?:a|answer|r|re)[ \t]*[:.)][ \t]*)?"
        r"(?:\*\*|__)?`?(?P<value>[^\s`]{4,64})`?[ \t]*$)",
        re.M,
    )
    return cjk, line_end


# Kana, CJK ideographs and Hangul: scripts written without spaces, which end a Latin word
# (``VPNのpwは…``).
_CJK_LETTER = r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]"
_LONG = frozenset(_forms(_LONG_WORDS))
# Words of a login whose next line may hold its password, when that line holds a strong one.
_LOGIN_WORDS = ("login", "log-in", "sign-in", "creds", "credentials")
_LOGIN = LazyPattern("log-?in|sign-in|creds|credentials")
_SUFFIXES = ("s", "et", "en", "e")
# Thai writes no space between words: the password word, the rest of the clause, then the
# verb that gives the value (คือ "is", เป็น "is", a colon), then the value.
_THAI = LazyPattern(r"รหัสผ่าน[^\n.!?。]{0,40}?(?:คือ|เป็น|[:=])[ \t]*")


def _heads(low: str) -> list[tuple[int, int, bool]]:
    """(start, end, a passphrase word?) of every password word: the long ones may end a
    compound (and take a plural or a definite ending), the short ones and the phrases are
    whole words."""
    found = []
    for match in find_words(low, _word_forms()):
        start, end = match.span()
        if match.group(0) in _LONG:
            end += next((len(s) for s in _SUFFIXES if low.startswith(s, end)), 0)
        elif start and low[start - 1].isalpha():
            continue
        if end < len(low) and low[end].isalpha():
            continue
        phrase = match.group(0) in _PASSPHRASE_WORDS or low[start:end] in _PASSPHRASE_WORDS
        found.append((start, end, phrase))
    return found


def password_shaped(value: str) -> bool:
    """Looks like a password: 6+ characters, a letter and a digit or a symbol, nothing else;
    not a piece of JSON (``changed","user_id":48213``) nor a key's line (``AutoStart=1``)."""
    return (
        6 <= len(value) <= 64
        and '","' not in value
        and '":' not in value
        and _KEY_LINE.fullmatch(value) is None
        and _SHAPE_LETTER.search(value) is not None
        and _SHAPE_OTHER.search(value) is not None
        and _NOT_A_VALUE.fullmatch(value) is None
        and value.lower() not in _MANAGERS
        and _CALL.match(value) is None
        and value_is_secret("password", value.replace(".", "-") if _DIGIT.search(value) else value)
    )


def _token_at(text: str, pos: int) -> tuple[int, int]:
    """The value starting at ``pos``: one token, or what quotes or brackets opening there hold
    (``«…»``, ``(…)``, ``„…“``, spaces included); a lone opener is skipped."""
    inside = enclosed(text, pos)
    if inside is not None:
        return inside
    while pos < len(text) and text[pos] in CLOSERS:
        pos += 1
    end = pos
    while end < len(text) and not text[end].isspace():
        end += 1
    while end > pos and text[end - 1] in _TRAILING:
        end -= 1
    return pos, end


def _given(text: str, span: tuple[int, int], *, phrase: bool) -> bool:
    """The value at ``span`` is one a password word gives: shaped like a password, or a
    passphrase (four joined words, three after a passphrase word or in quotes); a JSON
    object's key (``"token_ttl_s": 3600``) is a name, no value."""
    if text.startswith('":', span[1]):
        return False
    value = text[span[0] : span[1]]
    quoted = span[0] > 0 and text[span[0] - 1] in CLOSERS
    if " " in value:
        return quoted and is_passphrase(value, minimum=2)
    return password_shaped(value) or is_passphrase(value, minimum=3 if phrase or quoted else 4)


def _words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(r"\S+", text[start:end])]


def _past_aside(text: str, pos: int) -> int:
    """Where the sentence goes on when an aside between dashes or in brackets follows the
    password word at ``pos`` (``The password — which Dana set on Tuesday, … — is …``): after
    it; else ``pos``."""
    aside = _ASIDE.match(text, pos)
    if aside is None:
        return pos
    opener = aside.group(1) or "("
    close = text.find(")" if opener == "(" else opener, aside.end(), aside.end() + 400)
    if close < 0 or "\n" in text[aside.end() : close]:
        return pos
    words = text[aside.end() : close].split()
    if opener == "(" and (len(words) < 3 or not words[0].isalpha() or not words[0].islower()):
        return pos  # "(« Lyon#Presqu1le »)", "(8 characters minimum)": a value or a note
    return close + len(opener)


def _sentence_value(text: str, head_end: int, *, phrase: bool) -> tuple[int, int] | None:
    """The value a sentence gives the password word ending at ``head_end``, if any
    (``phrase``: the word names a passphrase)."""
    head_end = _past_aside(text, head_end)
    stop = _SENTENCE_END.search(text, head_end)
    limit = min(stop.start() if stop else len(text), head_end + 200)
    words = [(head_end + a, head_end + b) for a, b in _words(text, head_end, limit)]
    sentence_start = max(text.rfind("\n", 0, head_end), head_end - 60)
    changed = _CHANGES.search(text, max(0, sentence_start), limit) is not None
    early: tuple[int, int] | None = None  # a value before any verb (verb-final languages)
    early_index = 0
    for index, (start, end) in enumerate(words[:13]):
        word = text[start:end].lower().strip(",")
        if MASK in word:
            return None  # the value came already, and was masked: what follows is no value
        if word.strip("?!").lstrip("-") in _DESCRIBING:
            return None  # "password policy", "#password-reset": the word describes, no value
        if word in ("==", "!=", "===", "!==", "<=", ">="):
            return None  # "if password == confirm_password": code compares, it gives nothing
        copula = word in _COPULAS or word in _GIVING or (changed and word in _TO_WORDS)
        if not copula and word.endswith((":", "=")) and len(word) > 1:
            copula = True  # "email:" ends the key
        if not copula:
            bare = text[start:end].lstrip("".join(CLOSERS)).rstrip(_TRAILING)
            if is_template(bare):
                return None  # "password": "${SS_PASSWORD}": the value is kept elsewhere
            if early is None and password_shaped(bare) and not text.startswith('":', end):
                if not text[start - 1].isspace():
                    return None  # "password@localhost", "password+reset": one word, not two
                early, early_index = _token_at(text, start), index
                if index > 3 or not strong_password(text[early[0] : early[1]]):
                    return None  # a value came before any verb: not this rule's sentence
                if index == 0 and early[0] > start:
                    return early  # "mot de passe («…»)": the value in brackets, right after
            continue
        if early is not None:
            if index + 1 == len(words) or text[early[1] : early[1] + 1] == ",":
                return early  # "şîfreya wifi … e": the verb ends the sentence, after the value
            if index > early_index + 2:
                return early  # "salasanalla … ja vaihda se heti": the verb is another clause's
            return None  # "the password for user42 is …": a name, then the verb
        rest = words[index + 1 : index + 5]
        while rest and text[rest[0][0] : rest[0][1]].lower() in _FILLERS:
            rest = rest[1:]
        if not rest:
            return None
        value = _token_at(text, rest[0][0])
        if is_template(text[value[0] : value[1]].lstrip("".join(CLOSERS))):
            return None  # "password": "${SS_PASSWORD}": the value is kept elsewhere
        if len(rest) > 1 and text[rest[1][0]] in CLOSERS and text[value[0] : value[1]].isalpha():
            value = _token_at(text, rest[1][0])  # "je fráze „…“": a noun, then the quoted value
        if _given(text, value, phrase=phrase):
            follow = rest[1:2]
            after = text[follow[0][0] : follow[0][1]].lower() if follow else ""
            if after in _COPULAS and any(c.isalpha() for c in after):
                continue  # "the password to Gmail2 is …": the verb comes later
            return value
        late = None if word in _GIVING else _late_value(text, rest, limit)
        if late is not None:
            return late  # a verb that hands a value over hands it right after it
    if early is not None and not any(
        text[a:b].lower().strip(",.") in _DESCRIBING for a, b in words
    ):
        return early  # "şifrem Bogazici_1863 ama …", "पासवर्ड Dilli@2026Rk है": no verb before it
    return None


def _named_after(text: str, head_start: int, head_end: int) -> tuple[int, int] | None:
    """``Gl4ss-Otter-19, the password I mean``, ``v5_uUzpV5oa — ҫакӑ ҫӗнӗ вӑрттӑн сӑмах``: a
    strong password set off by a comma or a dash, then at most six words of the same sentence
    (none describing the password) before the password word that names it, and no describing
    word after it (``Build_Fix#3 — the password policy ticket``)."""
    following = text[head_end : head_end + 40].split()[:1]
    if following and following[0].lower().strip(",.:;") in _DESCRIBING:
        return None
    floor = max(0, head_start - 120)
    ends = list(_SENTENCE_END.finditer(text, floor, head_start))
    start = ends[-1].end() if ends else floor
    words = _words(text, start, head_start)
    for index, (a, b) in enumerate(words):
        word = text[start + a : start + b]
        rest = [text[start + x : start + y].lower() for x, y in words[index + 1 :]]
        dash = bool(rest) and rest[0] in ("—", "–", "-", "--")
        if not (word.endswith(",") or dash) or len(rest) - dash > 6:
            continue
        if any(w.strip(",.:") in _DESCRIBING for w in rest):
            continue
        value = word.rstrip(",").lstrip("".join(CLOSERS))
        if strong_password(value) and password_shaped(value):
            at = start + a + word.index(value)
            return at, at + len(value)
    return None


def _cjk_pin(text: str, span: tuple[int, int]) -> bool:
    """``暗証番号は 31908 です``, ``비밀번호 1582#``: digits (a ``#`` may end them) after a
    password word of a script written without spaces are its value, unless the script goes on
    right after them (``密码2024年``: a year)."""
    value = text[span[0] : span[1]]
    after = text[span[1] : span[1] + 1]
    return _CJK_PIN.fullmatch(value) is not None and not re.match(_CJK_LETTER, after)


def strong_password(value: str) -> bool:
    """A value that needs no verb to be a password: eight characters or more, letters and
    digits, and mixed case or a symbol (``Gx8tLm2qPz``, ``Duna_hid_58``; not ``user42``)."""
    return (
        len(value) >= 8
        and _DIGIT.search(value) is not None
        and (
            (value.lower() != value and value.upper() != value)
            or any(c in "!@#$%^&*_+=?~" for c in value)
        )
        and any(c.isalpha() for c in value)
    )


def _late_value(text: str, rest: list[tuple[int, int]], limit: int) -> tuple[int, int] | None:
    """``ist seit gestern Waldmeister#7``: one or two plain words (when, since when) between
    the verb and a value that ends the sentence."""
    for skip in (1, 2):
        if len(rest) != skip + 1:
            continue
        words = [text[a:b] for a, b in rest[:skip]]
        if not all(w.isalpha() and len(w) <= 10 and w.lower() not in _DESCRIBING for w in words):
            return None
        value = _token_at(text, rest[skip][0])
        ends = not text[value[1] : limit].strip(_TRAILING)
        if password_shaped(text[value[0] : value[1]]) and ends:
            return value
    return None


# A line naming what the line above gave, with a pointer up; the value ends the line above.
_POINTED = LazyPattern(
    r"(?P<value>[^\s:]{6,64})[ \t]*\n[^\n]{0,60}?(?i:that'?s|this is|it'?s|is|was)[ \t]+"
    r"(?:the|my|our)[ \t]+(?i:wi-?fi|password|pw|pin|passcode|code|key|login)\b"
    r"[^\n]{0,20}?(?:👆|☝|\^|(?i:above))"
)


def _pointed_at(text: str) -> list[Finding]:
    """Values a next line names with a pointer up (see the module rules)."""
    found = []
    for match in _POINTED.finditer(text):
        start, end = match.span("value")
        line = text.rfind("\n", 0, start) + 1
        before = text[line:start]
        alone = not before.strip() or before.rstrip().endswith(":")  # a chat message's text
        if alone and password_shaped(text[start:end]):
            found.append(Finding("secret-assignment", start, end))
    return found


# A change of what the sentence does not name, to a value (``changed it to …``): a password's
# change when the value is a strong password with a sign in it (``Mariposa!99``), which no
# version, name or setting is written with.
_CHANGED_IT = LazyPattern(
    r"(?i:\b(?:changed|reset|switched|updated|rotated|set)[ \t]+(?:it|mine|that|this)[ \t]+"
    r"(?:again[ \t]+)?to)[ \t]+(?P<value>\S{8,64})"
)
_SIGNS = frozenset("!@#$%^&*?")


# Words joined by dots and ending in digits, the first capitalised (``Kestrel.shapla.3370``):
# a password manager's passphrase. No host ends in a label of digits alone, no file in digits,
# no version starts with a word.
_DOTTED_PASSPHRASE = LazyPattern(
    r"(?<![\w.@/:#-])[A-Z][a-z]{3,14}(?:\.[a-z]{4,14}){1,3}\.\d{3,6}(?![\w@/-]|\.\w)"
    # and joined by hyphens the same way (``Kestrel-shapla-3370``): no host, package or branch
    # is a capitalised word, lower-case words and a number of three digits or more
    r"|(?<![\w.@/:#-])[A-Z][a-z]{3,14}(?:-[a-z]{4,14}){1,3}-\d{3,6}(?![\w@/-]|\.\w)"
)


def _changed_to(text: str) -> list[Finding]:
    """Strong passwords an unnamed thing was changed to (see :data:`_CHANGED_IT`)."""
    found = []
    for match in _CHANGED_IT.finditer(text):
        start, end = match.span("value")
        while end > start and text[end - 1] in _TRAILING:
            end -= 1
        value = text[start:end]
        signed = any(c in _SIGNS for c in value.rstrip("!?"))
        if signed and strong_password(value) and password_shaped(value):
            found.append(Finding("secret-assignment", start, end))
    return found


_LETTERS_ONLY = LazyPattern(r"[A-Za-z]{10,64}")
_CAMEL_WORDS = LazyPattern(r"[a-z]*(?:[A-Z][a-z]{2,})+")
# A value named only as one (``value: …``) in four kinds of characters, a sign among them.
_NAMED_VALUE = LazyPattern(r"(?i:\bvalue)[ \t]*[:=][ \t]*(?P<value>[^\s\"'`]{8,64})(?![^\s.,;])")
# A callout (Obsidian's and GitHub's ``> [!secret]- NAS login``) whose type or title names a
# secret or a login, and the quoted lines of its body.
_CALLOUT = LazyPattern(
    r"(?im)^[ \t]*(?:[-*+][ \t]+)?>[ \t]*\[!(?P<type>[\w-]+)\][+-]?(?P<title>[^\n]*)\n"
    r"(?P<body>(?:[ \t]*>[^\n]*(?:\n|$)){1,8})"
)
_CALLOUT_WORDS = LazyPattern(
    r"(?i:secret|password|passwort|credential|creds|login|log-in|sign-in|wifi|wi-fi|pin\b|key\b)"
)
_QUOTED_LINE = LazyPattern(r"(?m)^[ \t]*>[ \t]*(?P<value>\S+)[ \t]*$")
# A network's word, a colon, and a value with a sign in it: ``Gast-WLAN: Mopane714$`` (a
# network's name has no ``$`` or ``!``).
_NETWORK_VALUE = LazyPattern(
    r"(?i:\b(?:wlan|wifi|wi-fi|wpa2?|ssid-key|guest[ \t-]network))[ \t]*[:=][ \t]*"
    r"(?P<value>[^\s\"'`]{8,64})(?![^\s.,;])"
)
# A quoted argument in a call, a tuple or a term (``<<"…">>``) of four kinds of characters,
# a sign among them: ``args: [{amqp_params,<<"shop">>,<<"Guajira$1727">>,…``.
_STRONG_ARGUMENT = LazyPattern(
    r"(?<=[,(\[{])[ \t]*(?:<<)?(?P<q>[\"'])(?P<value>[^\s\"'<>]{8,64})(?P=q)(?:>>)?"
    r"[ \t]*(?=[,)\]}])"
)


def _callout_values(text: str) -> list[Finding]:
    """The strong passwords on the quoted lines of a callout that names a secret or a login."""
    found = []
    for callout in _CALLOUT.finditer(text):
        if not _CALLOUT_WORDS.search(callout.group("type") + " " + callout.group("title")):
            continue
        for line in _QUOTED_LINE.finditer(text, callout.start("body"), callout.end("body")):
            value = line.group("value")
            if strong_password(value) and password_shaped(value):
                found.append(Finding("secret-assignment", *line.span("value")))
    return found


def _mixed_case(value: str) -> bool:
    """Ten Latin letters or more in both cases, three of each at least, and no word's shape
    (``uLYBElkFuHGLeuB``; not ``WiFi``, ``iPhone`` or ``McDonald``): after a password word of a
    script without Latin letters, such a value is written as the password is."""
    return (
        _LETTERS_ONLY.fullmatch(value) is not None
        and sum(c.isupper() for c in value) >= 3
        and sum(c.islower() for c in value) >= 3
        and _CAMEL_WORDS.fullmatch(value) is None
    )


def _signed(value: str) -> bool:
    return strong_password(value) and any(c in _SIGNS for c in value)


def _signed_values(pattern: LazyPattern, text: str, *, every_class: bool = False) -> list[Finding]:
    """The ``value`` groups of ``pattern`` in ``text`` that are strong passwords with a sign
    (``every_class``: of all four kinds of characters too)."""
    return [
        Finding("secret-assignment", *match.span("value"))
        for match in pattern.finditer(text)
        if _signed(value := match.group("value"))
        and (not every_class or character_classes(value) == 4)
    ]


def _in_template(text: str, pos: int) -> bool:
    """Whether ``pos`` stands inside a variable's reference (``${…}``; a template's ``{{ … }}``
    may hold a default value, and is read)."""
    line_start = text.rfind("\n", 0, pos) + 1
    opened = text.rfind("${", line_start, pos)
    return opened >= 0 and "}" not in text[opened:pos]


def find_prose_passwords(text: str, low: str) -> list[Finding]:
    """Passwords given in sentences and on the line after their word (``low``: lower case)."""
    cjk, line_end = _patterns()
    found: list[Finding] = (
        _pointed_at(text) if ("👆" in text or "^" in text or "above" in low) else []
    )
    if " to " in low and ("it" in low or "mine" in low or "th" in low):
        found += _changed_to(text)
    if "." in text or "-" in text:
        found += [
            Finding("secret-assignment", *m.span()) for m in _DOTTED_PASSPHRASE.finditer(text)
        ]
    if "[!" in text:
        found += _callout_values(text)
    if "wlan" in low or "wi" in low or "wpa" in low or "network" in low:
        found += _signed_values(_NETWORK_VALUE, text)
    if "value" in low:
        found += _signed_values(_NAMED_VALUE, text, every_class=True)
    if '"' in text or "'" in text:
        found += _signed_values(_STRONG_ARGUMENT, text, every_class=True)
    heads = _heads(low)
    for head_start, head_end, phrase in heads:
        if _in_template(text, head_start):
            continue  # "${SS_PASSWORD}": a variable's name, not a word of the sentence
        span = _sentence_value(text, head_end, phrase=phrase)
        span = span or _named_after(text, head_start, head_end)
        if span is not None:
            found.append(Finding("secret-assignment", *span))
    ascii_only = low.isascii()
    if not ascii_only:
        values: list[tuple[int, int]] = [
            m.span("value")
            for m in cjk.finditer(text)
            # after words of the sentence (``비밀번호 바꿨어 …``), a year is the sentence's
            if not (
                " " in text[m.start() : m.start("value")].strip() and _YEAR.fullmatch(m["value"])
            )
        ]
        if "รหัสผ่าน" in text:
            values += [(m.end(), len(text)) for m in _THAI.finditer(text)]
        for at, stop in values:
            start, end = _token_at(text, at)
            if start == at:
                end = min(end, stop)  # "パスワードはAbc123!xyzです": the value ends with its script
            value = text[start:end]
            while value and not value[-1].isalnum() and value[-1] not in "!#$%&*+-=?@_~":
                value = value[:-1]
            span = (start, start + len(value))
            if _given(text, span, phrase=False) or _cjk_pin(text, span) or _mixed_case(value):
                found.append(Finding("secret-assignment", *span))
    if "\n" not in text:
        return found
    starts = {text.rfind("\n", 0, start) + 1 for start, _, _ in heads}
    if "log" in low or "sign-in" in low or "cred" in low:
        for login in _LOGIN.finditer(low):
            starts.add(text.rfind("\n", 0, login.start()) + 1)
    if not ascii_only:
        starts |= {
            text.rfind("\n", 0, m.start()) + 1 for m in re.finditer("|".join(_CJK_WORDS), text)
        }
    for line_start in sorted(starts):
        line = line_end.match(text, line_start)
        if line is None:
            continue
        value = line.group("value").rstrip(_TRAILING)
        if _KEY_LINE.fullmatch(value):
            continue  # "Pwd=" then "AutoStart=1": an empty value, then the next key's line
        tail = line.group("tail").lower().split()
        if any(word in _DESCRIBING for word in tail):
            continue  # "Password policy" then "12chars!": a rule, not a key and its value
        if line.group("login") is not None and not strong_password(value):
            continue  # "Login:" then "ana.k": a user's name; a login's password is a strong one
        separated = (line.group("sep") or "").strip() in (":", "=")
        given = separated and len(value) >= 6 and value_is_secret("password", value)
        if given or password_shaped(value):
            start = line.start("value")
            found.append(Finding("secret-assignment", start, start + len(value)))
    return found
