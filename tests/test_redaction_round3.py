"""The round-three corpus, held to 97 % recall and 3 % false positives with masks that keep
nothing of a secret but a recognised vendor prefix; and the classes of secret it showed the
rules missing, each held by cases of our own in other words and languages (never the corpus's
strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round3
from tests.corpus_checks import changed, masked, planted, revealing, surviving

SAMPLES = redaction_corpus_round3.secret_samples()
LOOKALIKES = redaction_corpus_round3.lookalikes()


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """250+ planted items in 20+ families, and look-alikes are 35 % of the texts or more."""
    planted_items = planted(SAMPLES)
    families = {s.family for s in SAMPLES}
    share = len(LOOKALIKES) / (len(LOOKALIKES) + len(SAMPLES))
    assert (planted_items >= 250, len(families) >= 20, share >= 0.35) == (True, True, True)


def test_recall_is_at_least_97_percent() -> None:
    """At most 3 % of the planted items survive redaction (they are listed when more do)."""
    misses = surviving(SAMPLES)
    assert len(misses) <= planted(SAMPLES) * 0.03, "\n".join(misses)


def test_false_positives_are_at_most_3_percent() -> None:
    """At most 3 % of the look-alikes are changed by redaction (they are listed when more are)."""
    positives = changed(LOOKALIKES)
    assert len(positives) <= len(LOOKALIKES) * 0.03, "\n".join(positives)


def test_a_mask_reveals_at_most_a_vendor_prefix() -> None:
    """Every mask of every finding in the corpus is ``***``, a block mask, or a vendor prefix
    the value starts with followed by ``***``: no first six or last four characters."""
    assert revealing(SAMPLES) == []


def test_redacting_the_corpus_twice_changes_nothing() -> None:
    """A redacted text holds nothing the rules would mask again."""
    twice = [s.text for s in SAMPLES if redact(redact(s.text)) != redact(s.text)]
    assert twice == []


# --- password and passphrase words in more languages -----------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Kata sandi router sudah diubah menjadi Melati#2027 kemarin.", "Melati#2027"),
        ("Kata laluan emel ditukar kepada Durian_88x minggu lepas", "Durian_88x"),
        ("รหัสผ่านอีเมลของพ่อคือ Chiang!Mai55 นะ", "Chiang!Mai55"),
        ("รหัสผ่านเราเตอร์ใหม่เป็น Tuk-Tuk2027 แล้ว", "Tuk-Tuk2027"),
        ("என் கடவுச்சொல் = Thamizh#99", "Thamizh#99"),
        ("وائی فائی کا پاس ورڈ Lahore@2025x ہے", "Lahore@2025x"),
        ("আমার পাসওয়ার্ড: Dhaka#2024", "Dhaka#2024"),
        ("Lösenfras: tranbär-kanel-skog-fjäll", "tranbär-kanel-skog-fjäll"),
        ("salalauseeni on revontuli-kuusi-järvi-hanki", "revontuli-kuusi-järvi-hanki"),
        ('the passphrase is "purple monkey dishwasher"', "purple monkey dishwasher"),
        ("heslo k wifi je „modrá velryba plave“", "modrá velryba plave"),
    ],
)
def test_password_words_of_more_languages_give_their_value(text: str, secret: str) -> None:
    """Indonesian and Malay changes, Thai copulas, Tamil, Urdu and Bengali words, passphrases
    of joined words, and a quoted phrase after the verb."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        'the password is "whatever you set during setup"',
        "Lösenfrasen är lång, minst fyra ord.",
        "the passphrase should be long-and-easy-to-type",
        "รหัสผ่านคือวันเกิดของแม่",
        "heslo je „dlouhé a těžké“, říkal správce",
        "Kata sandi diubah menjadi lebih panjang.",
    ],
)
def test_password_talk_in_more_languages_stays(text: str) -> None:
    """A quoted sentence, a rule, words joined by short words, a value in words: no secret."""
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "If the vault asks for its passphrase, paste amber-lantern-ridge-falcon and press enter.",
            "amber-lantern-ridge-falcon",
        ),
        ("Beim Passwort-Dialog tippe Zugspitze#2962 ein", "Zugspitze#2962"),
        ("das Passwort [Brezel!Senf42] gilt ab heute", "Brezel!Senf42"),
        ("le mot de passe (« Lyon#Presqu1le ») reste le même", "Lyon#Presqu1le"),
        ("비밀번호 (Hangang!88) 잊지 마", "Hangang!88"),
        ("パスワード「Fuji#San2027」を使ってね", "Fuji#San2027"),
    ],
)
def test_a_value_handed_over_or_put_in_brackets_ismasked(text: str, secret: str) -> None:
    """A verb that hands the value over (type, paste, tippe), and a value in brackets or quotes
    right after the password word."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "das Passwort (siehe Wiki) ist geändert",
        "le mot de passe (8 caractères minimum) est obligatoire",
        "For the password, use the manager and never paste it in chat.",
        "the password, please don't paste it in #random",
        "パスワード（8文字以上）を入力してください",
    ],
)
def test_brackets_and_verbs_without_a_value_stay(text: str) -> None:
    """A note in brackets and advice about where to type a password are no value."""
    assert redact(text) == text


# --- phrasings with no password word before the value ----------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("just use Tr0ut!Lake9 to log in, the user is admin", "Tr0ut!Lake9"),
        ("Try K9#mountain-77 to sign in to the router", "K9#mountain-77"),
        ("log in with Gl@cier2030 as root, then change it", "Gl@cier2030"),
        ("utilise Lune#Rouge44 pour te connecter", "Lune#Rouge44"),
        ("usa Paella%Mixta8 para entrar al panel", "Paella%Mixta8"),
        ("sudo for the staging VM is Qp7#wLx2Zr", "Qp7#wLx2Zr"),
        ("the sudo password on the pi: Rasp!berry314", "Rasp!berry314"),
    ],
)
def test_a_value_given_to_a_verb_of_access_ismasked(text: str, secret: str) -> None:
    """``use X to log in``, ``log in with X``, ``sudo … is X``, in several languages."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("Hx7!pLm2Qw is the password for the printer admin page", ["Hx7!pLm2Qw"]),
        ("W1nter#Lodge9 — that's the new passphrase, don't lose it", ["W1nter#Lodge9"]),
        ("Sommer!2027x ist das Passwort für den Router", ["Sommer!2027x"]),
        ("Vélo#Rouge12 est le mot de passe du garage", ["Vélo#Rouge12"]),
        (
            "Mz4!qPw8Lx is the password for the VPN and Tr4in#Yard2 is the one for the garage.",
            ["Mz4!qPw8Lx", "Tr4in#Yard2"],
        ),
    ],
)
def test_a_value_before_its_password_word_ismasked(text: str, secrets: list[str]) -> None:
    """The value first, then ``is the password for …`` (``the one for …`` after it)."""
    assert [s for s in secrets if not masked(text, s)] == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("here you go ||Vx9#kLm2Qa|| (delete after reading)", "Vx9#kLm2Qa"),
        ("ok it's ||Lamp!Post77|| from now on", "Lamp!Post77"),
        ("new code for the shed >!Gr4vel#Pit9!<", "Gr4vel#Pit9"),
    ],
)
def test_a_spoilered_value_ismasked(text: str, secret: str) -> None:
    """A password-shaped value hidden as a chat spoiler (``||…||``, ``>!…!<``)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "use SSO to log in, not the local account",
        "use your YubiKey5 to sign in",
        "log in with Google or with GitHub",
        "sudo on the build box is broken again",
        "sudo apt install build-essential libssl-dev",
        "Bitwarden is the password manager we use",
        "What is the password for the printer?",
        "v2.3.1 is the password policy version we ship",
        "||spoiler: the butler did it|| and a || b in the code",
        "see ||v2.0.1|| for the changelog",
    ],
)
def test_access_talk_and_spoilers_without_a_secret_stay(text: str) -> None:
    """Login methods, commands, managers, questions, versions, spoilers of prose."""
    assert redact(text) == text


# --- PIN and code words ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("PIN-koden til kortet er 8412", "8412"),
        ("Pinkoden er 7351, husk den", "7351"),
        ("PIN-kood: 4620", "4620"),
        ("PIN-Nummer der neuen Karte: 9034", "9034"),
        ("PIN kartu debit 551274, jangan disebar", "551274"),
        ("الرمز السري للبطاقة: 7315", "7315"),
        ("קוד הדלת: 1948", "1948"),
        ("הקוד לאזעקה הוא 4471", "4471"),
        ("รหัสเข้าบ้านคือ 7312", "7312"),
        ("รหัสบัตร ATM เป็น 482913 นะ", "482913"),
        ("the bike lock combo is 3-7-1-9", "3-7-1-9"),
        ("combo for the padlock: 17-32-05", "17-32-05"),
        ("the gate keypad accepts 7731 followed by #", "7731"),
    ],
)
def test_pin_and_code_words_of_more_languages_give_their_digits(text: str, secret: str) -> None:
    """Nordic and Estonian PIN compounds, a PIN with a word or two before its digits, Arabic
    and Hebrew code words, Thai รหัส with a qualifier, a dialled combination, a keypad."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "pin tweet 2024 to the profile",
        "PIN code 110001 is New Delhi GPO",
        "רחוב הרצל, מיקוד 6713104",
        "รหัสสินค้าคือ 88231",
        "รหัสไปรษณีย์คือ 50200",
        "the combo meal is 12.99 and a combo of 3 drinks",
        "keyboard combo Ctrl-Alt-Del restarts it",
        "the keypad takes 9V batteries",
        "the keypad accepts 4 to 8 digits",
    ],
)
def test_code_words_of_other_things_stay(text: str) -> None:
    """A pinned post, postal PIN codes and Hebrew מיקוד, Thai product and postal codes, a
    combo meal, a key combo, batteries and a rule."""
    assert redact(text) == text


# --- secrets defined by a call ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("define('SMTP_PASS', 'Mailer!2024x');", "Mailer!2024x"),
        ('define("API_SECRET", "Zq8w!Lm2pX9rTt5v");', "Zq8w!Lm2pX9rTt5v"),
        (
            "define( 'SECURE_AUTH_SALT', 'k#9Lz!qP2@wX 7v^Tb%3nM&8rY*1sQ(4uJ)6oE-0pA=' );",
            "k#9Lz!qP2@wX 7v^Tb%3nM&8rY*1sQ(4uJ)6oE-0pA=",
        ),
        (
            "define('NONCE_KEY', 'Ux<7]Lp|R2w@Zk9!Hq#4Vn$8Mb%3Tc^6');",
            "Ux<7]Lp|R2w@Zk9!Hq#4Vn$8Mb%3Tc^6",
        ),
        ("ini_set('mysql.default_password', 'Sq1!mysqlPw');", "Sq1!mysqlPw"),
        (
            'Sys.setenv("GITHUB_PAT", "f7c2e9a1b4d8c3e6f0a9b2c5d8e1f4a7b0c3d6e9")',
            "f7c2e9a1b4d8c3e6f0a9b2c5d8e1f4a7b0c3d6e9",
        ),
        (
            "Configure::write('Security.salt', 'c7f0e2a9b1d84f6e3a5c7b9d1e3f5a7c');",
            "c7f0e2a9b1d84f6e3a5c7b9d1e3f5a7c",
        ),
    ],
)
def test_a_secret_defined_by_a_call_ismasked(text: str, secret: str) -> None:
    """PHP define() and ini_set(), R's Sys.setenv(), CakePHP's Configure::write(): a call whose
    first argument names a secret (a password, a key, a salt) and whose second is a literal."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        "define('DB_PASSWORD', '');",
        "define('WP_DEBUG', true);",
        "define('AUTH_KEY', 'put your unique phrase here');",
        "ini_set('display_errors', '1');",
        "label('password', 'Passwort');",
        "__('password', 'Enter your password');",
    ],
)
def test_calls_that_define_no_secret_stay(text: str) -> None:
    """A value read from the environment, an empty or placeholder value, a setting that names
    no secret, a translation of the word."""
    assert redact(text) == text


# --- connection strings and commands ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("jdbc:oracle:thin:scott_app/Tig3r!Pass@db.internal:1521:ORCL", "Tig3r!Pass"),
        ("jdbc:oracle:oci:batch/Oc1!batchPw@PRODTNS", "Oc1!batchPw"),
        ("sqlplus hr_admin/Hr#2027pass@//db01:1521/HRPDB", "Hr#2027pass"),
        ("expdp system/Exp0rt!Now@PROD schemas=HR directory=DUMP", "Exp0rt!Now"),
        ("DRIVER={PostgreSQL Unicode};SERVER=pg01;UID=etl;PWD={Pg;Brace!d99};", "Pg;Brace!d99"),
        ("Provider=SQLOLEDB;Data Source=sql01;User ID=sa;Password={Ole#Db2027};", "Ole#Db2027"),
        ("https -a deploy:Dep10y!Key POST https://api.internal/release", "Dep10y!Key"),
        ("http --auth=ci:C1!pipeline42 GET :8080/status", "C1!pipeline42"),
        ("xh -a bob:B0b#Secure99 get httpbin.org/basic-auth/bob/x", "B0b#Secure99"),
    ],
)
def test_credentials_in_connection_strings_and_commands_aremasked(text: str, secret: str) -> None:
    """Oracle's user/password@ in JDBC and its tools, ODBC and OLE DB values in braces,
    HTTPie's and xh's -a/--auth."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "sqlplus / as sysdba",
        "jdbc:oracle:thin:@//db01:1521/HRPDB",
        'conn = f"DRIVER={driver};SERVER={host};UID={user};PWD={password};"',
        "Pwd={db_password};",
        "http -a admin GET :8080/api",
        "http -a $API_USER:$API_PASS :8080/health",
    ],
)
def test_connection_strings_without_credentials_stay(text: str) -> None:
    """No credentials, format placeholders in braces, a password the tool will ask for,
    shell variables."""
    assert redact(text) == text


# --- national identity numbers after their words ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("rodné číslo: 855102/3448", "855102/3448"),
        ("Moje r.č. je 9203151188, potřebuju ho do formuláře", "9203151188"),
        ("Vaše rodné číslo 785712/0030 bylo ověřeno.", "785712/0030"),
        ("居民身份证号码 11010519491231002X", "11010519491231002X"),
        ("เลขประจำตัวประชาชน 1101200345671", "1101200345671"),
        ("สำเนาบัตร: 3-1005-01234-56-3", "3-1005-01234-56-3"),
        ("No. KTP 3273014509870003 untuk formulir", "3273014509870003"),
        ("מספר תעודת זהות: 039381769", "039381769"),
    ],
)
def test_national_ids_after_their_words_aremasked(text: str, secret: str) -> None:
    """Czech and Slovak birth numbers (with or without the slash), a Chinese resident id, a
    Thai id (named, or in its own dashed form), an Indonesian NIK, an Israeli id."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Faktura 202301/0045 je zaplacená.",
        "身份证号码请不要发在群里",
        "NIK-1234 is the Jira ticket",
        "Build 3-1005-01234-56-4 failed on arm64",
        "Order 1101200345672 shipped today",
    ],
)
def test_numbers_that_are_not_national_ids_stay(text: str) -> None:
    """An invoice with a slash, a warning with no number, a ticket, a build number in a Thai
    id's shape and a 13-digit order number whose check digits fail."""
    assert redact(text) == text


# --- tax numbers after their words -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("NIP firmy: 778-123-45-63, proszę wpisać na fakturze", "778-123-45-63"),
        ("Mój NIP to 5260001246.", "5260001246"),
        ("ІПН: 3123456789", "3123456789"),
        ("ИНН физлица 500123456750", "500123456750"),
        ("Vergi kimlik no 9876543217, fatura için.", "9876543217"),
        ("NPWP 01.234.567.4-901.000 untuk faktur pajak", "01.234.567.4-901.000"),
    ],
)
def test_tax_numbers_after_their_words_aremasked(text: str, secret: str) -> None:
    """Polish NIP (dashed or not), Ukrainian ІПН, Russian ИНН, Turkish VKN, Indonesian NPWP
    (its dotted form is its own)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "NIP ma 10 cyfr, bez kresek.",
        "ИНН организации указан в договоре.",
        "Release 01.234.567 of the firmware",
        "Vergi dairesi Kadıköy, 2027 yılı beyannamesi",
    ],
)
def test_tax_talk_without_a_number_stays(text: str) -> None:
    """A rule about the number, a pointer to it, a version, a tax office and a year."""
    assert redact(text) == text


# --- passports after their words, and machine-readable zones ---------------------------------

_TD3 = "P<NORNORDMANN<<KARI<ANNE<<<<<<<<<<<<<<<<<<<<\nX4R29T7QK7NOR9005178M3202241<<<<<<<<<<<<<<08"
_TD1 = (
    "IDUTOL898902C36<<<<<<<<<<<<<<<\n7408122F3304156UTO<<<<<<<<<<<4\nERIKSSON<<ANNA<MARIA<<<<<<<<<<"
)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Passnummer für den Antrag: C4J7N2K9P", "C4J7N2K9P"),
        ("numéro de passeport pour l'ambassade : 19AV45873", "19AV45873"),
        ("Nomor paspor saya: A1234567", "A1234567"),
        ("pasaport numarası U12345678", "U12345678"),
        ("पासपोर्ट नंबर: M1234567", "M1234567"),
        ("رقم جواز السفر: N12345678", "N12345678"),
        ("מספר דרכון 31234567", "31234567"),
        ("αριθμός διαβατηρίου: AK1234567", "AK1234567"),
        ("หนังสือเดินทางเลขที่ AA1234567", "AA1234567"),
        (f"page scanned:\n{_TD3}", "X4R29T7QK"),
        (f"page scanned:\n{_TD3}", "NORDMANN"),
        (f"back of the card:\n{_TD1}", "L898902C3"),
    ],
)
def test_passports_after_their_words_and_machine_zones_aremasked(text: str, secret: str) -> None:
    """Passport words of more languages with a labelled phrase before the number, and the
    machine-readable zone of a passport (two lines of 44) or an id card (three of 30)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Passport photo for the visa: 2 copies",
        "Reisepass verlängern: Termin am 14.03.2027",
        "Pasaport randevusu: 2027-03-01",
        "<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<<",
        "P<NORNORDMANN<<KARI<ANNE<<<<<<<<<<<<<<<<<<<<\nX4R29T7QK8NOR9005178M3202241<<<<<<<<<<<<<<08",
    ],
)
def test_passport_talk_and_broken_zones_stay(text: str) -> None:
    """No number, a date, a row of fillers, a zone whose check digits fail."""
    assert redact(text) == text


# --- dates of birth after their words --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Tarikh lahir: 12/03/1988", "12/03/1988"),
        ("ngay sinh 05/06/1991, que Hue", "05/06/1991"),
        ("تاریخ تولد: 1990/05/17", "1990/05/17"),
        ("datum narození 03.04.1975", "03.04.1975"),
        ("data nașterii: 21.09.1984", "21.09.1984"),
        ("születési dátum: 1979.11.02", "1979.11.02"),
        ("जन्मतिथि 15-08-1990", "15-08-1990"),
        ("জন্ম তারিখ: 01/01/1995", "01/01/1995"),
        ("נולד ב-12.03.1985 בחיפה", "12.03.1985"),
        ("γεννήθηκε στις 12/03/1985", "12/03/1985"),
        ("народився 14.02.1979 у Львові", "14.02.1979"),
    ],
)
def test_dates_of_birth_after_words_of_more_languages_aremasked(text: str, secret: str) -> None:
    """Malay, Vietnamese without its marks, Persian, Czech, Romanian, Hungarian, Hindi,
    Bengali, and the words for *born* in Hebrew, Greek and Ukrainian."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Tanggal lahir anak kedua belum diisi.",
        "תאריך לידה: לא צוין",
        "Ημερομηνία γέννησης και τόπος: βλ. φάκελο",
        "datum narození je povinné pole",
    ],
)
def test_birth_words_without_a_date_stay(text: str) -> None:
    """A birth-date field that is empty, not given, or only described."""
    assert redact(text) == text


# --- bank accounts after their words ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("acc no. 0123456789 (sort code 20-00-00)", "0123456789"),
        ("send it to a/c 0012345678 with IFSC SBIN0001234", "0012345678"),
        ("Nomor rekening BCA saya: 1234567890", "1234567890"),
        ("Hesap numaram: 12345678901", "12345678901"),
        ("Số tài khoản: 0123456789 (Vietcombank)", "0123456789"),
        ("číslo účtu 19-2000145399/0800", "19-2000145399"),
        (
            "numer rachunku do wpłat: 89 1240 1234 5678 9012 3456 7890",
            "89 1240 1234 5678 9012 3456 7890",
        ),
        ("przelew na 61 1090 1014 0000 0712 1981 2874, dzięki", "61 1090 1014 0000 0712 1981 2874"),
    ],
)
def test_bank_accounts_after_their_words_aremasked(text: str, secret: str) -> None:
    """Abbreviations (acc, a/c), Indonesian, Turkish, Vietnamese and Czech account words, a
    label before the number, and a Polish NRB (an IBAN without its PL) by its check digits."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "acc. to the report, 125000 units shipped",
        "Account created: 2027-01-14",
        "Account balance: 1 250 000 PLN",
        "IFSC HDFC0005546 is the branch code",
        "a 26-digit reference 12 3456 7890 1234 5678 9012 3456",
        "Numer konta założony: 14.01.2027",
    ],
)
def test_account_talk_without_an_account_number_stays(text: str) -> None:
    """An abbreviation of *according*, dates, a balance, a branch code, a reference whose
    NRB check fails."""
    assert redact(text) == text


# --- card security codes after local words, and more card ranges ----------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Kartenprüfnummer: 123, gültig bis 08/29", "123"),
        ("cryptogramme 417 au dos de la carte", "417"),
        ("código de seguridad 904", "904"),
        ("보안코드 731", "731"),
        ("安全码 372，有效期 11/28", "372"),
        (
            "| Karte | Nummer | Sicherheitscode |\n|---|---|---|\n| Visa | 4111 1111 1111 1111 | 553 |",
            "553",
        ),
        ("Troy kartım 9792 0312 3456 7897, son kullanma 10/30", "9792 0312 3456 7897"),
    ],
)
def test_card_security_codes_after_local_words_aremasked(text: str, secret: str) -> None:
    """German, French, Spanish, Korean and Chinese words for a card's security code, one as a
    table's column, and a Troy card (9792)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "security code review moved to Friday",
        "Sicherheitscode der App: siehe 2FA-Einstellungen",
        "güvenlik kodu gelmedi, tekrar denedim",
        "| Customer | CID |\n|---|---|\n| ACME | 100234 |",
        "Troy kartım 9792 0312 3456 7898 reddedildi",
    ],
)
def test_security_code_talk_and_other_numbers_stay(text: str) -> None:
    """A review, a pointer, an SMS that did not come, a customer id of six digits, a number
    in a card's range whose Luhn check fails."""
    assert redact(text) == text


# --- one-time codes and authenticator setup keys ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Your verification code is 552 913", "552 913"),
        ("Twój kod weryfikacyjny to 481920", "481920"),
        ("Ihr Bestätigungscode lautet 730215.", "730215"),
        ("Votre code de vérification : 664102", "664102"),
        ("Código de verificación: 3391", "3391"),
        ("【淘宝】验证码 482913，5分钟内有效", "482913"),
        ("[카카오] 인증번호 [537204]를 입력해주세요", "537204"),
        ("認証コード：904412", "904412"),
        ("رمز التحقق الخاص بك هو 7731", "7731"),
        ("Mã xác thực của bạn là 662109", "662109"),
        ("one-time password: 80412933", "80412933"),
        ("FB-58213 is your Facebook confirmation code", "58213"),
        ("123456 is your Amazon OTP. Don't share it.", "123456"),
    ],
)
def test_one_time_codes_aremasked(text: str, secret: str) -> None:
    """SMS and e-mail codes after their words in many languages, and a code before them
    (``N is your … code``)."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Secret key for manual entry: JBSW Y3DP EHPK 3PXP", "JBSW Y3DP EHPK 3PXP"),
        ("2FA secret: MFRGGZDFMZTWQ2LK", "MFRGGZDFMZTWQ2LK"),
        ("klucz konfiguracyjny: 3kq2 7vnz h5dt e4pa", "3kq2 7vnz h5dt e4pa"),
    ],
)
def test_authenticator_setup_keys_aremasked(text: str, secret: str) -> None:
    """A TOTP seed in base32, grouped by four or not, after the words that name it."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "the verification code expires in 10 minutes",
        "OTP valid for 3000 seconds, then request a new one",
        "OTP length is 6 digits",
        "verification code sent to the phone ending in 0457",
        "2FA codes: see the 2023 audit",
        "OTP sent at 10:45, arrived at 10:47",
        "setup key: this will take time",
        "Exit code 1337 from the OTP service",
    ],
)
def test_code_talk_without_a_code_stays(text: str) -> None:
    """Durations, a length, a phone's last digits, a year, times, words that fit base32, an exit
    code."""
    assert redact(text) == text


# --- recovery codes, recovery keys and seed phrases ------------------------------------------

_SEED = "amateur cake bunker banner gesture knock author unique poem thunder goat jeans"


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        (
            "Discord backup codes:\n- 8f3k-2m9x\n- a7b2-c4d9\n- 1q2w-3e4r",
            ["8f3k-2m9x", "a7b2-c4d9", "1q2w-3e4r"],
        ),
        (
            "Wiederherstellungscodes für Proton:\n\n7d2k9x4m\nq8w3e5r1\nz6y7u2i9",
            ["7d2k9x4m", "q8w3e5r1", "z6y7u2i9"],
        ),
        (
            "Kody zapasowe do konta:\n1) 4821 0937\n2) 5530 2741\n3) 9016 3358",
            ["4821 0937", "5530 2741", "9016 3358"],
        ),
        (
            "gitlab_recovery_codes.txt\n3a9f1c2e7b4d5a60\n9c1e2f3a4b5d6e7f",
            ["3a9f1c2e7b4d5a60", "9c1e2f3a4b5d6e7f"],
        ),
        ("códigos de respaldo: 48213 90371 22865 61734", ["48213", "90371", "22865", "61734"]),
        (
            "klucz odzyskiwania: 652234-671363-651442-273790-266233-685949-268422-135696",
            ["652234-671363"],
        ),
        (f"frase semilla de la cartera: {_SEED}", [_SEED]),
        (f"Wiederherstellungsphrase (12 Wörter):\n{_SEED}", [_SEED]),
    ],
)
def test_recovery_codes_keys_and_seed_phrases_aremasked(text: str, secrets: list[str]) -> None:
    """Lines of codes under a heading that names them (in other languages, as a file name, in
    list items, numbered), codes after the heading on its line, a BitLocker key (eight blocks
    of six digits, each a multiple of 11), a seed phrase announced in Spanish or German."""
    assert [s for s in secrets if not masked(text, s)] == []


@pytest.mark.parametrize(
    "text",
    [
        "Recovery codes\n- print them\n- store them offline",
        "Backup schedule:\n02:00 daily\n03:00 weekly",
        "recovery codes regenerated on 2027-01-04\nnext review in April",
        "643886-437438-204436-130725-060380-571176-653115-227074",
        "frase semilla: guárdala offline, nunca en la nube",
    ],
)
def test_recovery_talk_and_look_alike_numbers_stay(text: str) -> None:
    """Advice under a heading, times under another, a date, eight blocks of six digits that are
    no BitLocker key, talk about a seed phrase."""
    assert redact(text) == text


# --- Wi-Fi QR strings and a key emoji --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (r"WIFI:S:Home\;Net;T:WPA;P:Pa\;ss\:w0rd!;H:false;;", r"Pa\;ss\:w0rd!"),
        ("WIFI:T:WPA;S:Café Wi-Fi;P:Crois5ant#Beurre;;", "Crois5ant#Beurre"),
        ('WIFI:P:"Quoted;Pass1";S:Lab;T:WPA;;', "Quoted;Pass1"),
        ("Wi-Fi 🔑 Lakeside!2027", "Lakeside!2027"),
        ("🔑: Gr33n-Tea#4 (guest network)", "Gr33n-Tea#4"),
        ("🗝️ Rusty!Gate99", "Rusty!Gate99"),
    ],
)
def test_wifi_qr_passwords_and_key_emoji_values_aremasked(text: str, secret: str) -> None:
    """The P field of a WIFI: QR string (escaped ; and :, a quoted value, any field order),
    and a value after a key emoji."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "WIFI:T:nopass;S:Cafe Guest;P:;;",
        "🔑 Keys are in the drawer",
        "🔑 Rotate the keys by 2027-03-01",
        "🔑 SSO only, no local accounts",
    ],
)
def test_open_networks_and_key_emoji_talk_stay(text: str) -> None:
    """An open network's QR string, and a key emoji before talk."""
    assert redact(text) == text


# --- values with & after a spaced separator, and spaced-out values ---------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("<!-- db pass = Rock&Roll42 -->", "Rock&Roll42"),
        ("ftp password : B&Q-store77", "B&Q-store77"),
        ("`api_secret = x&y9Zk2#Lm`", "x&y9Zk2#Lm"),
        ("wifi password: K 7 m P 2 x Q 9", "K 7 m P 2 x Q 9"),
        ("Passwort = h 4 L z 8 W q 1 (mit Leerzeichen getippt)", "h 4 L z 8 W q 1"),
        ("PIN: 4 8 2 1 9 3", "4 8 2 1 9 3"),
    ],
)
def test_values_with_an_ampersand_or_spaced_out_aremasked(text: str, secret: str) -> None:
    """After a separator with spaces around it, ``&`` is part of the value; a value typed one
    character at a time with spaces between is one value. The whole value goes, no piece of
    it stays."""
    assert redact(text) == text.replace(secret, "***")


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/login?token=abc123def456&page=2",
        "password rules: a b c d e f are the allowed groups",
        "PIN pad layout: 1 2 3 / 4 5 6 / 7 8 9",
    ],
)
def test_query_strings_and_spaced_talk_stay_as_they_were(text: str) -> None:
    """A query string's ``&`` still ends a value (the page stays); letters of one kind and a
    key pad's digits are no spaced-out value."""
    out = redact(text)
    assert out == text or ("page=2" in out and "abc123def456" not in out)


# --- e-mail addresses spelled with local words -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("mailim mehmet nokta kaya et hotmail nokta com", "mehmet nokta kaya et hotmail nokta com"),
        (
            "γράψε μου: maria τελεία k παπάκι gmail τελεία com",
            "maria τελεία k παπάκι gmail τελεία com",
        ),
        ("dana שטרודל walla נקודה co נקודה il", "dana שטרודל walla נקודה co נקודה il"),
        (
            "olena крапка shevchenko равлик ukr крапка net",
            "olena крапка shevchenko равлик ukr крапка net",
        ),
    ],
)
def test_email_spelled_with_local_words_ismasked(text: str, secret: str) -> None:
    """Turkish (et, nokta), Greek (παπάκι, τελεία), Hebrew (שטרודל, נקודה) and Ukrainian
    (равлик, крапка) words for *at* and *dot*."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Pierre et Marie point de vue, chapitre deux",
        "Ahmet et yemeyi sever, balık değil",
        "Σύνδεση στις 10 τελεία",
    ],
)
def test_words_for_at_and_dot_in_sentences_stay(text: str) -> None:
    """French *et* (and), Turkish *et* (meat), Greek *τελεία* (full stop) in sentences."""
    assert redact(text) == text


# --- references that only look like secrets --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "set DB_PASS=%ADMIN_PASS% && run.cmd",
        "set SMTP_PASSWORD=%BE_SMTP_PW% & mailer.exe --send",
        "arn:aws:secretsmanager:us-east-1:111122223333:secret:app/db-creds-AbCdEf",
        "Stored at arn:aws:secretsmanager:eu-central-1:210987654321:secret:billing/stripe, ask ops.",
    ],
)
def test_windows_variables_and_secret_arns_stay(text: str) -> None:
    """``%ADMIN_PASS%`` is a variable, not percent-encoding (``%AD`` alone is no UTF-8); an
    ARN's ``secret:name`` is where a secret is kept, not the secret."""
    assert redact(text) == text


def test_percent_encoded_secrets_are_still_decoded() -> None:
    """Escapes that decode to text still do: an encoded token, an encoded e-mail address."""
    token = "ghp%5F" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    assert token not in redact(f"url=https://x.test/?t={token}")
    assert "maria.lopez%40correo.es" not in redact("mailto: maria.lopez%40correo.es")


@pytest.mark.parametrize(
    "text",
    [
        "Moje hasło do poczty brzmi Jesien#4471 — zanotuj gdzieś bezpiecznie.",
        "mein Passwort fürs Konto lautet Herbst#2027 — schreib es auf.",
        "staging sudo pw is Qm8!zRt2Lp — please don't paste it in #random",
    ],
)
def test_redacting_twice_changes_nothing(text: str) -> None:
    """A mask among the words after a key means its value came already: the word after a dash
    on the second pass is no value."""
    once = redact(text)
    assert redact(once) == once


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Το συνθηματικό του email μου είναι Θάλασσα#88", "Θάλασσα#88"),
        ("συνθηματικό: Kafes!2030", "Kafes!2030"),
        ("kod do bramy: 2580", "2580"),
        ("kód od dveří je 7741", "7741"),
        ("kód od brány: 3390", "3390"),
    ],
)
def test_greek_password_word_and_slavic_code_words(text: str, secret: str) -> None:
    """Greek *συνθηματικό* beside *κωδικός*; Polish, Czech and Slovak *kod*/*kód* before a
    preposition, as *código* and *codice* are."""
    assert masked(text, secret)


@pytest.mark.parametrize(
    "text",
    [
        "Kod pocztowy 02-495 Warszawa",
        "kód zdroje je na GitHubu",
        "kod do rabatu: WIOSNA",
        "Kód k výrobku najdete na krabici.",
    ],
)
def test_slavic_code_words_of_other_things_stay(text: str) -> None:
    """A postal code, source code, a discount code in letters, a product code with no value."""
    assert redact(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "Order no 1234567890 shipped",
        "číslo objednávky 1234567890",
        "номер заказа 1234567890",
        "nomor pesanan 1234567890123456",
        "код товару 2812190754",
        "Sipariş no 9876543217 kargoda",
    ],
)
def test_a_word_of_an_ids_name_alone_names_no_id(text: str) -> None:
    """*no*, *číslo*, *номер*, *nomor*, *код* are words of some ids' names (vergi no, rodné
    číslo, ідентифікаційний номер, nomor induk kependudukan); alone they name an order."""
    assert redact(text) == text
