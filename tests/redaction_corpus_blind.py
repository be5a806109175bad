"""A fifth redaction corpus, written blind: before any rule it measures was changed.

It holds the kinds, languages and layouts the earlier corpora leave out: passwords said in
prose in fourteen languages (the keyword several words before the value, the value on the next
line, the value before the verb), markdown tables with password, token, secret and PIN columns,
XML and HTML tags, URL query parameters, vendor keys that only their name identifies (hex
strings and UUIDs), passport, identity-card and driving-licence numbers and birth dates after
the words that name them, obfuscated e-mail addresses, cards and IBANs with unusual separators,
encoded values (base64, hex, percent-encoding), tokens split over list items, connection strings
in Go, PowerShell and Ruby, and keywords disguised with look-alike letters, zero-width
characters, fullwidth forms and HTML entities. Its look-alikes are placeholders, numbers that
are not phones, tracking numbers, talk about passwords, harmless tables, tags, URLs, hashes and
encoded text.

It was measured as it stood before the rules were changed (the figures are in the history of
``tests/test_redaction_blind.py``); :func:`secret_samples_heldout` and
:func:`lookalikes_heldout` were written after the rules were tuned, and never tuned on. Every
value is fake: tokens come from a fixed seed, numbers carry computed check digits.
"""

from __future__ import annotations

import base64
import random
import string

from tests import checkdigits
from tests.redaction_corpus_fresh import Lookalike, Sample

_RNG = random.Random(20261227)
_ALNUM = string.ascii_letters + string.digits
_LOWER_DIGITS = string.ascii_lowercase + string.digits
_URLSAFE = _ALNUM + "-_"
_UPPER = string.ascii_uppercase + string.digits
_HEX = "0123456789abcdef"


def _t(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(length))


def _uuid() -> str:
    return "-".join(_t(n, _HEX) for n in (8, 4, 4, 4, 12))


def _s(family: str, text: str, *secrets: str) -> Sample:
    for secret in secrets:
        assert secret in text, (family, secret)
    return Sample(family, text, secrets)


def _l(family: str, text: str) -> Lookalike:
    return Lookalike(family, text)


def _card(prefix: str, length: int) -> str:
    return checkdigits.with_luhn(prefix + _t(length - len(prefix) - 1, string.digits))


def _groups(value: str, size: int, sep: str) -> str:
    return sep.join(value[i : i + size] for i in range(0, len(value), size))


def _fullwidth(value: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in value)


def _prose_passwords() -> list[Sample]:
    return [
        _s(
            "prose: de",
            "Das WLAN-Passwort für das Gästenetz lautet Sommerwiese-2024, bitte nicht weitergeben.",
            "Sommerwiese-2024",
        ),
        _s(
            "prose: de",
            "Mein Kennwort fürs Bankportal lautet jetzt Fuchs&Hase2025",
            "Fuchs&Hase2025",
        ),
        _s("prose: de", "Passwort vom Router ist übrigens kellerTür77!", "kellerTür77!"),
        _s(
            "prose: de",
            "Zugangsdaten für die Fritzbox: Benutzer admin, Passwort Grünkohl#19",
            "Grünkohl#19",
        ),
        _s(
            "prose: de",
            "Das Passwort, das wir für den Server im Keller nutzen, ist Kellerassel-42",
            "Kellerassel-42",
        ),
        _s(
            "prose: de",
            "Passwort geändert auf Regen#Schirm5, das alte gilt nicht mehr",
            "Regen#Schirm5",
        ),
        _s("prose: fr", "Le mot de passe du routeur, c'est Bastille#1789.", "Bastille#1789"),
        _s("prose: fr", "mon mot de passe Netflix : croissant-beurre-42", "croissant-beurre-42"),
        _s("prose: fr", "la clé WPA de la maison de campagne est Lavande-2023!", "Lavande-2023!"),
        _s(
            "prose: fr",
            "le mot de passe qu'on a choisi pour le compte partagé est Baguette!Chaude8",
            "Baguette!Chaude8",
        ),
        _s("prose: es", "La contraseña de la wifi de casa es PatioAzul-77", "PatioAzul-77"),
        _s("prose: es", "mi clave del banco: Toro.Bravo.1990", "Toro.Bravo.1990"),
        _s("prose: es", "la nueva contraseña del correo es Sevilla#2026", "Sevilla#2026"),
        _s(
            "prose: es",
            "La contraseña que puso Javier en el router del despacho es Quijote-1605",
            "Quijote-1605",
        ),
        _s("prose: pt", "A senha do portal agora é Caju!2025", "Caju!2025"),
        _s("prose: pt", "palavra-passe do email: Bacalhau-77x", "Bacalhau-77x"),
        _s("prose: pt", "minha senha do wifi é coxinha2024", "coxinha2024"),
        _s("prose: pt", "A senha do Wi-Fi da casa da praia: Maresia-2024", "Maresia-2024"),
        _s("prose: it", "La password del NAS è Gatto-Nero-88", "Gatto-Nero-88"),
        _s("prose: it", "la parola d'ordine per il server è Vesuvio!1944", "Vesuvio!1944"),
        _s("prose: it", "Ho cambiato la password in Pizza.Margherita7", "Pizza.Margherita7"),
        _s("prose: nl", "Het wachtwoord van de kluis is Tulp$Rood19", "Tulp$Rood19"),
        _s("prose: nl", "wifi-wachtwoord: fietsbel-Oranje-3", "fietsbel-Oranje-3"),
        _s("prose: nl", "het nieuwe wachtwoord wordt Drop-Zout-12", "Drop-Zout-12"),
        _s("prose: zh", "路由器密码是 Hx7!kq29Lm", "Hx7!kq29Lm"),
        _s("prose: zh", "登录密码：Qiu_Tian2024，别告诉别人", "Qiu_Tian2024"),
        _s("prose: zh", "WiFi密码是chaoshi8888", "chaoshi8888"),
        _s("prose: zh", "我的密碼為 TaipeI-101x", "TaipeI-101x"),
        _s("prose: zh", "把密码改成了 Beijing@2008", "Beijing@2008"),
        _s("prose: ja", "パスワードは Sakura-2024! です", "Sakura-2024!"),
        _s("prose: ja", "Wi-Fiのパスワード：Fuji-San-3776", "Fuji-San-3776"),
        _s("prose: ja", "社内VPNのパスワードはmomiji_0815です。", "momiji_0815"),
        _s("prose: ja", "新しいパスワードを Kyoto#1200 に変更しました", "Kyoto#1200"),
        _s("prose: ko", "비밀번호는 Hangang#88 입니다", "Hangang#88"),
        _s("prose: ko", "와이파이 비번: gimchi2024!", "gimchi2024!"),
        _s("prose: ko", "비밀번호를 Busan2030! 로 바꿨어요", "Busan2030!"),
        _s("prose: ru", "Пароль от почты: Medved_2023!", "Medved_2023!"),
        _s("prose: ru", "пароль от wi-fi — Sosna-Bereza7", "Sosna-Bereza7"),
        _s("prose: ru", "Поменял пароль на Zima-Holod99", "Zima-Holod99"),
        _s("prose: pl", "hasło do wifi to Kotek!2020", "Kotek!2020"),
        _s("prose: tr", "wifi şifresi: Bogaz-2024x", "Bogaz-2024x"),
        _s("prose: sv", "lösenordet till routern är Fika!Kanel9", "Fika!Kanel9"),
        _s(
            "prose: en",
            "the password I finally picked for the family Netflix account is Popcorn-Night-7",
            "Popcorn-Night-7",
        ),
        _s(
            "prose: en",
            "for the record, the admin password on the old Synology box is still 8Jx!tree-Lamp",
            "8Jx!tree-Lamp",
        ),
        _s(
            "prose: en", "PW for the shared Gmail (marketing@) → Brightside_2026", "Brightside_2026"
        ),
    ]


def _next_line() -> list[Sample]:
    return [
        _s("next line", "Password:\nBlue-Heron-55", "Blue-Heron-55"),
        _s("next line", "WLAN-Passwort:\n  Seeblick#2023", "Seeblick#2023"),
        _s("next line", "密码：\nAbc12345xyz", "Abc12345xyz"),
        _s("next line", "- **Passwort**\n  - Tannenbaum!88", "Tannenbaum!88"),
        _s("next line", "mot de passe :\nEtoile-Filante-9", "Etoile-Filante-9"),
        _s("next line", "The password is\nOrchid_Velvet_31", "Orchid_Velvet_31"),
        _s("next line", "パスワード\nkoinobori_55", "koinobori_55"),
        _s("next line", "Root pw (do not paste in Slack):\nQ!w2e3r4T", "Q!w2e3r4T"),
    ]


def _tables() -> list[Sample]:
    grafana = _t(16)
    jenkins = "11" + _t(32, _HEX)
    return [
        _s(
            "table",
            "| Service | User | Password |\n|---|---|---|\n| NAS | admin | Pelican-Rock-19 |\n"
            "| Router | root | kF8#pq2Lz |\n| Printer | service | toner2024 |",
            "Pelican-Rock-19",
            "kF8#pq2Lz",
            "toner2024",
        ),
        _s(
            "table",
            "| Dienst | Benutzer | Passwort |\n| --- | --- | --- |\n"
            "| Webmail | lisa | Schnee!Flocke3 |\n| Steuer-Portal | lisa.k | Finanzamt_2025 |",
            "Schnee!Flocke3",
            "Finanzamt_2025",
        ),
        _s(
            "table",
            "| Servicio | Usuario | Contraseña |\n|:--|:--|:--|\n| Banco | jperez | Olivo#4477 |",
            "Olivo#4477",
        ),
        _s(
            "table",
            "| サービス | ユーザー | パスワード |\n|---|---|---|\n| ルーター | admin | Tsuki-Usagi-8 |",
            "Tsuki-Usagi-8",
        ),
        _s(
            "table",
            "| Card | PIN | CVV |\n|---|---|---|\n| Visa personal | 4821 | 739 |\n"
            "| Mastercard | 1593 | 204 |",
            "4821",
            "739",
            "1593",
            "204",
        ),
        _s(
            "table",
            f"| System | API Token | Expires |\n|---|---|---|\n| Grafana | {grafana} | 2026-12 |\n"
            f"| Jenkins | {jenkins} | never |",
            grafana,
            jenkins,
        ),
        _s(
            "table",
            "| Name | Secret |\n| --- | --- |\n| webhook-signing | hmacKey_Vx93LpQ2 |",
            "hmacKey_Vx93LpQ2",
        ),
        _s(
            "table",
            "| Compte | Identifiant | Mot de passe |\n|---|---|---|\n"
            "| Impôts | jdupont | Marianne#1789 |",
            "Marianne#1789",
        ),
        _s("table", "| 账号 | 密码 |\n|---|---|\n| admin | Shanghai_2049 |", "Shanghai_2049"),
    ]


def _markup() -> list[Sample]:
    return [
        _s(
            "xml",
            "<server>\n  <id>nexus</id>\n  <username>deploy</username>\n"
            "  <password>Gr8-Lakes!x</password>\n</server>",
            "Gr8-Lakes!x",
        ),
        _s("xml", '<add key="StripeSecret" value="ws9Lk2Qp7Vx4Rt8Zm3"/>', "ws9Lk2Qp7Vx4Rt8Zm3"),
        _s(
            "xml",
            '<add name="Default" connectionString="Server=sql01;Database=crm;User ID=crm;'
            'Password=Crm!2025sql;" />',
            "Crm!2025sql",
        ),
        _s(
            "xml",
            '<property name="hibernate.connection.password">Hib3rnate!Pw</property>',
            "Hib3rnate!Pw",
        ),
        _s("xml", '<entry key="api.token">tKn_94Lm2Qx8Zp</entry>', "tKn_94Lm2Qx8Zp"),
        _s("xml", '<input type="password" name="pwd" value="Formular#77">', "Formular#77"),
        _s("xml", "<Secret>Aq12-Wsx34-Edc56</Secret>", "Aq12-Wsx34-Edc56"),
        _s("xml", '<string name="backend_secret">bK7#vQ29xLm</string>', "bK7#vQ29xLm"),
        _s("xml", '<datasource user="app" password="Ds!8823kq"/>', "Ds!8823kq"),
        _s("xml", "&lt;password&gt;Esc4ped!Pw&lt;/password&gt;", "Esc4ped!Pw"),
        _s("xml", "<Kennwort>Adler#1871</Kennwort>", "Adler#1871"),
    ]


def _url_parameters() -> list[Sample]:
    appid = _t(32, _HEX)
    mapbox = _t(30, _URLSAFE)
    api_key = _t(24)
    hook = _t(20, _HEX)
    signature = _t(120, _URLSAFE)
    hapikey = _uuid()
    private = _t(20, _URLSAFE)
    client_secret = _t(30)
    apikey = _t(32, _HEX)
    secret = _t(16, _LOWER_DIGITS)
    auth = _t(40, _HEX)
    access_key = _t(28)
    return [
        _s(
            "url parameter",
            f"https://api.openweathermap.org/data/2.5/weather?q=Berlin&appid={appid}",
            appid,
        ),
        _s(
            "url parameter",
            f"https://maps.example.com/tiles/12/2200/1343.png?access_token={mapbox}",
            mapbox,
        ),
        _s(
            "url parameter",
            f"curl 'https://api.example.io/v1/items?api_key={api_key}&limit=10'",
            api_key,
        ),
        _s("url parameter", f"POST https://hooks.example.net/notify?token={hook}", hook),
        _s(
            "url parameter",
            "https://d111111abcdef8.cloudfront.net/video.mp4?Expires=1767225600"
            f"&Signature={signature}&Key-Pair-Id=K2JCJMDEHXQW5F",
            signature,
        ),
        _s(
            "url parameter",
            f"https://api.hubapi.com/contacts/v1/lists/all?hapikey={hapikey}",
            hapikey,
        ),
        _s(
            "url parameter",
            f"https://gitlab.example.com/api/v4/projects?private_token={private}",
            private,
        ),
        _s(
            "url parameter",
            f"https://auth.example.org/token?client_id=web&client_secret={client_secret}",
            client_secret,
        ),
        _s("url parameter", f"https://api.example.com/v2/search?apikey={apikey}&q=tea", apikey),
        _s(
            "url parameter",
            "https://db.example.com/login?user=admin&password=Pa55word!x",
            "Pa55word!x",
        ),
        _s("url parameter", f"https://example.com/webhook?secret={secret}", secret),
        _s("url parameter", f"https://feeds.example.com/rss?auth={auth}", auth),
        _s("url parameter", f"wss://chat.example.com/socket?access_key={access_key}", access_key),
        _s("url parameter", "GET /api/export?format=csv&pwd=Export%2123x", "Export%2123x"),
        _s(
            "url parameter",
            "otpauth://totp/ACME:kenji?secret=JBSWY3DPEHPK3PXPQ4ZA&issuer=ACME",
            "JBSWY3DPEHPK3PXPQ4ZA",
        ),
    ]


def _named_vendors() -> list[Sample]:
    dd_app = _t(40, _HEX)
    dd_env = _t(40, _HEX)
    dd_api = _t(32, _HEX)
    owm = _t(32, _HEX)
    heroku = _uuid()
    postmark = _uuid()
    algolia = _t(32, _HEX)
    cloudflare = _t(37, _HEX)
    trello = _t(64, _HEX)
    mixpanel = _t(32, _HEX)
    newrelic = _t(36, _HEX) + "NRAL"
    pagerduty = _t(32, _HEX)
    segment = _t(32)
    bitly = _t(40, _HEX)
    twitch = _t(30, _LOWER_DIGITS)
    pusher = _t(20, _HEX)
    dd_de = _t(40, _HEX)
    return [
        _s("vendor by name", f"Datadog application key {dd_app}", dd_app),
        _s("vendor by name", f"DD_APP_KEY={dd_env}", dd_env),
        _s("vendor by name", f"datadog api key {dd_api} (EU site)", dd_api),
        _s("vendor by name", f"OpenWeatherMap key {owm}", owm),
        _s("vendor by name", f"Heroku API key: {heroku}", heroku),
        _s("vendor by name", f"Postmark server token {postmark}", postmark),
        _s("vendor by name", f"Algolia admin API key {algolia}", algolia),
        _s("vendor by name", f"Cloudflare global API key {cloudflare}", cloudflare),
        _s("vendor by name", f"Trello token {trello}", trello),
        _s("vendor by name", f"Mixpanel API secret {mixpanel}", mixpanel),
        _s("vendor by name", f"New Relic license key {newrelic}", newrelic),
        _s("vendor by name", f"PagerDuty integration key {pagerduty}", pagerduty),
        _s("vendor by name", f"Segment write key {segment}", segment),
        _s("vendor by name", f"Bitly access token {bitly}", bitly),
        _s("vendor by name", f"Twitch client secret {twitch}", twitch),
        _s("vendor by name", f"Pusher app secret {pusher}", pusher),
        _s("vendor by name", f"Datadog-Anwendungsschlüssel: {dd_de}", dd_de),
    ]


def _documents() -> list[Sample]:
    return [
        _s("document", "Reisepass-Nr. C01X00T47, gültig bis 2031", "C01X00T47"),
        _s("document", "n° de passeport : 18AV12345", "18AV12345"),
        _s("document", "número de pasaporte: PAA123456", "PAA123456"),
        _s("document", "passaporto n. YA1234567 rilasciato a Roma", "YA1234567"),
        _s("document", "paspoortnummer NW3F1RT94", "NW3F1RT94"),
        _s("document", "旅券番号：TZ1234567", "TZ1234567"),
        _s("document", "护照号码：E12345678", "E12345678"),
        _s("document", "여권번호 M12345678", "M12345678"),
        _s("document", "паспорт: 4508 123456, выдан в 2019", "4508 123456"),
        _s("document", "passaporte nº CA123456", "CA123456"),
        _s("document", "driving licence number MORGA657054SM9IJ", "MORGA657054SM9IJ"),
        _s("document", "Driver License No. W426-545-30-761-0", "W426-545-30-761-0"),
        _s("document", "Führerscheinnummer B072RRE2I55", "B072RRE2I55"),
        _s("document", "permis de conduire n° 120375101234", "120375101234"),
        _s("document", "patente di guida n. U1F12345X", "U1F12345X"),
        _s("document", "rijbewijsnummer 5123456789", "5123456789"),
        _s("document", "Personalausweis-Nr.: LZ6311T47", "LZ6311T47"),
        _s("document", "carte d'identité n° 880692310285", "880692310285"),
        _s("document", "numer dowodu osobistego ABC123456", "ABC123456"),
        _s("document", "運転免許証番号 301234567890", "301234567890"),
    ]


def _birth_dates() -> list[Sample]:
    return [
        _s("birth date", "Pierre, né le 12 mars 1985 à Lyon", "12 mars 1985"),
        _s("birth date", "geboren op 5 mei 1979 in Utrecht", "5 mei 1979"),
        _s("birth date", "生日：1992年4月5日", "1992年4月5日"),
        _s("birth date", "생년월일: 1990.05.17", "1990.05.17"),
        _s("birth date", "дата рождения: 17.05.1990", "17.05.1990"),
        _s("birth date", "urodzony 3 maja 1985 w Krakowie", "3 maja 1985"),
        _s("birth date", "doğum tarihi: 01.02.1980", "01.02.1980"),
        _s("birth date", "född 1984-06-30 i Göteborg", "1984-06-30"),
        _s("birth date", "nata a Napoli il 14/02/1987", "14/02/1987"),
        _s("birth date", "fecha de nac.: 03/07/1991", "03/07/1991"),
        _s("birth date", "Birthday: March 3rd, 1988", "March 3rd, 1988"),
        _s(
            "birth date",
            "date of birth (for the insurance form): 1979-08-14",
            "1979-08-14",
        ),
        _s("birth date", "Geburtstag: 14.03.1988", "14.03.1988"),
        _s("birth date", "誕生日は1995年12月24日", "1995年12月24日"),
        _s("birth date", "| Name | DOB |\n|---|---|\n| Anna | 1991-02-17 |", "1991-02-17"),
    ]


def _emails() -> list[Sample]:
    return [
        _s(
            "obfuscated email",
            "reach me: kenji dot x at gmail dot com",
            "kenji dot x at gmail dot com",
        ),
        _s("obfuscated email", "Mail an anna.k＠gmail.com schicken", "anna.k＠gmail.com"),
        _s("obfuscated email", "contacto: jose&#64;correo.es", "jose&#64;correo.es"),
        _s(
            "obfuscated email",
            "écris à pierre.martin at orange dot fr",
            "pierre.martin at orange dot fr",
        ),
        _s("obfuscated email", "email li.wei AT qq DOT com", "li.wei AT qq DOT com"),
        _s("obfuscated email", "john(dot)doe(at)proton(dot)me", "john(dot)doe(at)proton(dot)me"),
        _s("obfuscated email", "e-post: sara.lind (at) telia.se", "sara.lind (at) telia.se"),
        _s("obfuscated email", "E-Mail: hans_meier&#x40;web.de", "hans_meier&#x40;web.de"),
        _s(
            "obfuscated email",
            "mailto:info%40kanzlei-berger.de?subject=Termin",
            "info%40kanzlei-berger.de",
        ),
        _s("obfuscated email", "메일 kim.min＠naver．com", "kim.min＠naver．com"),
        _s("obfuscated email", "メールはyuki.tanaka@docomo.ne.jpまで", "yuki.tanaka@docomo.ne.jp"),
        _s(
            "obfuscated email",
            "Mail: klaus punkt weber at gmx punkt de",
            "klaus punkt weber at gmx punkt de",
        ),
        _s(
            "obfuscated email",
            "correo: maria.garcia arroba gmail punto com",
            "maria.garcia arroba gmail punto com",
        ),
        _s("obfuscated email", "jan.devries&commat;ziggo.nl", "jan.devries&commat;ziggo.nl"),
    ]


def _cards_and_ibans() -> list[Sample]:
    visa = _card("4532", 16)
    master = _card("5105", 16)
    amex = _card("3782", 15)
    fullwidth_card = _card("4916", 16)
    underscore = _card("4485", 16)
    nbsp = _card("4539", 16)
    zw = _card("5425", 16)
    de = checkdigits.iban("DE", "37040044" + _t(10, string.digits))
    fr = checkdigits.iban("FR", "30006000011234567890" + _t(3, string.digits))
    nl = checkdigits.iban("NL", "ABNA" + _t(10, string.digits))
    es = checkdigits.iban("ES", "21000418" + _t(12, string.digits))
    it = checkdigits.iban("IT", "X0542811101" + _t(12, string.digits))
    be = checkdigits.iban("BE", _t(12, string.digits))
    at = checkdigits.iban("AT", "19043" + _t(11, string.digits))
    fw_card = _fullwidth(_groups(fullwidth_card, 4, " "))
    return [
        _s("card", f"Visa {_groups(visa, 4, '/')} exp 09/28", _groups(visa, 4, "/")),
        _s("card", f"Karte {_groups(master, 4, '/')}", _groups(master, 4, "/")),
        _s(
            "card",
            f"amex {amex[:4]}/{amex[4:10]}/{amex[10:]}",
            f"{amex[:4]}/{amex[4:10]}/{amex[10:]}",
        ),
        _s("card", f"カード番号 {fw_card}", fw_card),
        _s("card", f"card: {_groups(underscore, 4, '_')}", _groups(underscore, 4, "_")),
        _s("card", f"carte {_groups(nbsp, 4, chr(0xA0))}", _groups(nbsp, 4, chr(0xA0))),
        _s("card", f"cc {_groups(zw, 4, chr(0x200B))}", _groups(zw, 4, chr(0x200B))),
        _s("iban", f"Miete an {_groups(de, 4, '.')}", _groups(de, 4, ".")),
        _s("iban", f"virement sur {_groups(fr, 4, '-')}", _groups(fr, 4, "-")),
        _s("iban", f"rekening {_groups(nl, 4, '.')}", _groups(nl, 4, ".")),
        _s("iban", f"transferencia a {_groups(es, 4, '/')}", _groups(es, 4, "/")),
        _s("iban", f"bonifico: {_groups(it, 4, chr(0xA0))}", _groups(it, 4, chr(0xA0))),
        _s("iban", f"IBAN {_fullwidth(be)}", _fullwidth(be)),
        _s("iban", f"Konto {_groups(at, 4, '.')} (Sparkasse)", _groups(at, 4, ".")),
    ]


def _encoded() -> list[Sample]:
    ghp = "ghp_" + _t(36)
    openai = "sk-proj-" + _t(40, _URLSAFE)
    b64_password = base64.b64encode(b"Kellerassel-42").decode()
    b64_pair = base64.b64encode(b"Winter2026!Summer").decode()
    b64_json = base64.b64encode(b'{"password":"Blue-Moon99"}').decode()
    b64_token = base64.b64encode(openai.encode()).decode()
    hex_token = ghp.encode().hex()
    hex_password = b"Sunflower-Rain-88".hex()
    pct_token = "ghp%5F" + ghp[4:]
    b64url_token = base64.urlsafe_b64encode(ghp.encode()).decode().rstrip("=")
    return [
        _s("encoded", f"stored it as {b64_password} so it isn't plain text", b64_password),
        _s("encoded", f"echo '{b64_pair}' | base64 -d", b64_pair),
        _s("encoded", f"the config blob was {b64_json}", b64_json),
        _s("encoded", f"base64 of the key: {b64_token}", b64_token),
        _s("encoded", f"the CI log printed {hex_token}", hex_token),
        _s("encoded", f"hexdump of the secret: {hex_password}", hex_password),
        _s("encoded", f"redirect_uri=https%3A%2F%2Fapp%2F%3Ft%3D{pct_token}", pct_token),
        _s("encoded", f"cookie value {b64url_token}", b64url_token),
        _s(
            "encoded",
            "grant_type=password&username=kenji&password=Hx%217pq%40Lm2",
            "Hx%217pq%40Lm2",
        ),
    ]


def _split_items() -> list[Sample]:
    ghp = "ghp_" + _t(36)
    proj = "sk-proj-" + _t(40, _URLSAFE)
    akia = "AKIA" + _t(16, _UPPER)
    xoxb = "xoxb-" + _t(12, string.digits) + "-" + _t(13, string.digits) + "-" + _t(24)
    header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    payload = base64.urlsafe_b64encode(b'{"sub":"1042","name":"Kenji"}').decode().rstrip("=")
    signature = _t(43, _URLSAFE)
    return [
        _s(
            "split over items",
            f"token (split so Slack doesn't eat it):\n- {ghp[:20]}\n- {ghp[20:]}",
            ghp[:20],
            ghp[20:],
        ),
        _s("split over items", f"1. {proj[:24]}\n2. {proj[24:]}", proj[:24], proj[24:]),
        _s("split over items", f"* {akia[:10]}\n* {akia[10:]}", akia[:10], akia[10:]),
        _s("split over items", f"> {xoxb[:26]}\n> {xoxb[26:]}", xoxb[:26], xoxb[26:]),
        _s(
            "split over items",
            f"JWT from the logs:\n- {header}.\n- {payload}.\n- {signature}",
            payload,
            signature,
        ),
    ]


def _connection_strings() -> list[Sample]:
    return [
        _s(
            "connection: go",
            'db, err := sql.Open("mysql", "shop:Zq7!mw3R@tcp(10.0.0.5:3306)/shop")',
            "Zq7!mw3R",
        ),
        _s(
            "connection: go",
            'dsn := "host=db.internal user=app password=Kx8pq!2z dbname=orders sslmode=disable"',
            "Kx8pq!2z",
        ),
        _s(
            "connection: go",
            'connStr := fmt.Sprintf("postgres://%s:%s@%s/app", "svc", "Gopher#2024", host)',
            "Gopher#2024",
        ),
        _s(
            "connection: go",
            'rdb := redis.NewClient(&redis.Options{Addr: "cache:6379", Password: "R3dis-Cache!", DB: 0})',
            "R3dis-Cache!",
        ),
        _s(
            "connection: go",
            'opts.SetAuth(options.Credential{Username: "app", Password: "M0ngo_Pw9"})',
            "M0ngo_Pw9",
        ),
        _s(
            "connection: powershell",
            '$password = ConvertTo-SecureString "Hx7!pq22Lm" -AsPlainText -Force',
            "Hx7!pq22Lm",
        ),
        _s(
            "connection: powershell",
            '$connStr = "Server=sql01;Database=hr;User Id=hradmin;Password=Tulip#447;"',
            "Tulip#447",
        ),
        _s(
            "connection: powershell",
            "Invoke-Sqlcmd -ServerInstance sql02 -Username sa -Password 'Sql2022!Pw' -Query \"SELECT 1\"",
            "Sql2022!Pw",
        ),
        _s(
            "connection: powershell",
            '$cred = New-Object PSCredential("deploy", (ConvertTo-SecureString "Depl0y!Now" -AsPlainText -Force))',
            "Depl0y!Now",
        ),
        _s("connection: powershell", '$env:API_TOKEN = "pt_9sK2mQ7xLr4V"', "pt_9sK2mQ7xLr4V"),
        _s(
            "connection: ruby",
            'ActiveRecord::Base.establish_connection(adapter: "postgresql", host: "db", '
            'username: "rails", password: "Rub1es!Red")',
            "Rub1es!Red",
        ),
        _s(
            "connection: ruby",
            "Net::SMTP.start('smtp.example.com', 587, 'example.com', 'mailer', 'Smtp!Pass9', :plain)",
            "Smtp!Pass9",
        ),
        _s(
            "connection: ruby",
            "DB = Sequel.connect(adapter: 'mysql2', user: 'root', password: 'S3quel!db', host: 'localhost')",
            "S3quel!db",
        ),
        _s("connection: ruby", 'config = { :password => "Rocket#55x", :pool => 5 }', "Rocket#55x"),
        _s(
            "connection: jdbc",
            "jdbc:sqlserver://db:1433;databaseName=hr;user=sa;password=Sql!Srv2022",
            "Sql!Srv2022",
        ),
        _s(
            "connection: odbc",
            "Driver={ODBC Driver 17 for SQL Server};Server=tcp:sql03;Uid=sa;Pwd=Odbc#55x;",
            "Odbc#55x",
        ),
    ]


def _disguised() -> list[Sample]:
    proj = "sk-proj-" + _t(40, _URLSAFE)
    zw_token = proj[:18] + "\u200b" + proj[18:]
    return [
        _s("disguised", "p\u0430ssword: Gr33n-Apple!", "Gr33n-Apple!"),
        _s("disguised", "p\u200bassword = Qx7pL2mz!", "Qx7pL2mz!"),
        _s(
            "disguised",
            _fullwidth("PASSWORD=Zen2024!"),
            _fullwidth("Zen2024!"),
        ),
        _s("disguised", "t\u03bfken: rainbow-Unicorn-77", "rainbow-Unicorn-77"),
        _s("disguised", "pass\u00adword: Soft-Hyphen-42", "Soft-Hyphen-42"),
        _s("disguised", "Passw\u043ert: Birke#1990", "Birke#1990"),
        _s("disguised", "contrasen\u0303a: Jamón-Ibérico9", "Jamón-Ibérico9"),
        _s("disguised", "API\u200d_KEY=ak_live_9fX2Lm7Qp3Rt", "ak_live_9fX2Lm7Qp3Rt"),
        _s("disguised", "password&#58; Hunter-Moon-22", "Hunter-Moon-22"),
        _s("disguised", "pass&shy;word: Entity-Hyphen-7", "Entity-Hyphen-7"),
        _s("disguised", _fullwidth("password") + ": Narrow-Value-33", "Narrow-Value-33"),
        _s("disguised", "secret\u2060: Wj-Joiner-77x", "Wj-Joiner-77x"),
        _s("disguised", "\u0420assword: Latin-Cyr-55", "Latin-Cyr-55"),
        _s("disguised", f"new key {zw_token}", zw_token),
        _s("disguised", "P&#97;ssword: Decimal-Ent-31", "Decimal-Ent-31"),
    ]


def _phones_and_ids() -> list[Sample]:
    return [
        _s("phone", "電話番号は03-1234-5678です", "03-1234-5678"),
        _s("phone", "전화 010-1234-5678", "010-1234-5678"),
        _s("phone", "тел. +7 916 123-45-67", "+7 916 123-45-67"),
        _s("phone", "chiamami al 347 123 4567", "347 123 4567"),
        _s("phone", "numer telefonu: 512 345 678", "512 345 678"),
        _s("phone", "手机号 138 0013 8000", "138 0013 8000"),
        _s("national id", "NIF 271458933", "271458933"),
        _s("national id", "RUT 16.427.093-9", "16.427.093-9"),
        _s("national id", "CNP 1860315224513", "1860315224513"),
        _s("national id", "PPS number 8426391N", "8426391N"),
        _s("national id", "SVNR 4710 150386", "4710 150386"),
        _s("national id", "SA ID number 8604125210089", "8604125210089"),
        _s("national id", "ЕГН 8407231459", "8407231459"),
        _s("national id", "OIB: 69218470356", "69218470356"),
        _s("national id", "マイナンバー 4821 3759 0616", "4821 3759 0616"),
    ]


def _misc() -> list[Sample]:
    npm_uuid = _uuid()
    header = "eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ"
    payload = base64.urlsafe_b64encode(b'{"sub":"kenji","exp":1767225600}').decode().rstrip("=")
    signature = _t(86, _URLSAFE)
    api_hex = _t(32, _HEX)
    rails = _t(128, _HEX)
    return [
        _s("misc", "WIFI:T:WPA;S:HomeNet;P:Lagoon-Blue-42;;", "Lagoon-Blue-42"),
        _s("misc", f"//registry.example.com/:_authToken={npm_uuid}", npm_uuid),
        _s(
            "misc",
            f"the id token, wrapped by the terminal:\n{header}.{payload}.\n{signature}",
            payload,
            signature,
        ),
        _s("misc", f"curl -H 'X-Api-Key: {api_hex}' https://api.example.com/v1/me", api_hex),
        _s("misc", f"SECRET_KEY_BASE={rails}", rails),
        _s(
            "misc",
            "SECRET_KEY = 'django-insecure-7x#k!q2@z9$w%l^m&n*p(r)s_t+u=v'",
            "django-insecure-7x#k!q2@z9$w%l^m&n*p(r)s_t+u=v",
        ),
        _s(
            "misc",
            "echo Gpg!Phrase77 | gpg --batch --passphrase-fd 0 --decrypt notes.gpg",
            "Gpg!Phrase77",
        ),
    ]


def secret_samples() -> list[Sample]:
    """Secrets and personal data in kinds and layouts the earlier corpora do not hold."""
    _RNG.seed("blind secret_samples")
    return [
        *_prose_passwords(),
        *_next_line(),
        *_tables(),
        *_markup(),
        *_url_parameters(),
        *_named_vendors(),
        *_documents(),
        *_birth_dates(),
        *_emails(),
        *_cards_and_ibans(),
        *_encoded(),
        *_split_items(),
        *_connection_strings(),
        *_disguised(),
        *_phones_and_ids(),
        *_misc(),
    ]


def _placeholders() -> list[Lookalike]:
    return [
        _l(
            "placeholder", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (replace with yours)"
        ),
        _l("placeholder", "export OPENAI_API_KEY=sk-...your-key-here"),
        _l("placeholder", "token: <your-token>"),
        _l("placeholder", "password: changeme"),
        _l("placeholder", "api_key = 'YOUR_API_KEY'"),
        _l("placeholder", "Passwort: <geheim>"),
        _l("placeholder", "mot de passe : à définir"),
        _l("placeholder", "contraseña: (pedir a Juan)"),
        _l("placeholder", "パスワード：（管理者に確認）"),
        _l("placeholder", "DD_APP_KEY=<datadog-app-key>"),
        _l(
            "placeholder",
            "https://api.openweathermap.org/data/2.5/weather?q=Paris&appid={API_KEY}",
        ),
        _l("placeholder", "https://api.example.com/v1/items?api_key=REPLACE_ME"),
        _l("placeholder", "token: xxxxxxxxxxxxxxxxxxxx"),
        _l("placeholder", "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX"),
        _l("placeholder", "GITHUB_TOKEN=ghp_************************************"),
        _l("placeholder", "sk-proj-XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX is what the key looks like"),
        _l("placeholder", 'password = "<insert password here>"'),
        _l("placeholder", "Authorization: Bearer <token>"),
        _l("placeholder", "Authorization: Bearer YOUR_TOKEN_HERE"),
        _l("placeholder", "SECRET_KEY=your-secret-key"),
        _l("placeholder", "client_secret: REDACTED"),
        _l("placeholder", "password: ********"),
        _l("placeholder", "Token: [hidden]"),
        _l("placeholder", "api key: sk-... (see the team vault)"),
        _l("placeholder", "PIN: ****"),
        _l("placeholder", "STRIPE_KEY=sk_test_XXXXXXXXXXXXXXXXXXXXXXXX"),
        _l("placeholder", "password=example"),
        _l("placeholder", "mot de passe : ******"),
        _l("placeholder", "密码：******"),
        _l("placeholder", "DATABASE_URL=postgres://user:password@localhost:5432/db"),
        _l("placeholder", "REDIS_URL=redis://:<password>@cache:6379/0"),
        _l("placeholder", "password: <from 1Password>"),
        _l("placeholder", "export GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"),
        _l("placeholder", "api_key: 'sk-...'"),
        _l("placeholder", 'token = "TODO"'),
        _l("placeholder", "Passwort: ********** (steht im Tresor)"),
        _l("placeholder", "API_SECRET=<replace-me>"),
        _l("placeholder", "DD_API_KEY=${DD_API_KEY}"),
    ]


def _bare_numbers() -> list[Lookalike]:
    return [
        _l("bare number", "order 4930123456 shipped on Monday"),
        _l("bare number", "Bestellnummer 123456789012 ist unterwegs"),
        _l("bare number", "ticket 918273645 closed"),
        _l("bare number", "log line 20240517123456 repeated"),
        _l("bare number", "build 1234567890 passed"),
        _l("bare number", "EAN 4006381333931 on the box"),
        _l("bare number", "unix time 1732000000"),
        _l("bare number", "Kundennummer 0301234567"),
        _l("bare number", "Rechnung 491711234567 bezahlt"),
        _l("bare number", "pedido 612345678 enviado"),
        _l("bare number", "commande 0612345678 livrée"),
        _l("bare number", "numéro de commande 0612345678"),
        _l("bare number", "Auftragsnummer 08912345678"),
        _l("bare number", "case number 2125551234"),
        _l("bare number", "the 13-digit ISBN 9780306406157"),
        _l("bare number", "serial number 447700900123"),
        _l("bare number", "record 07700900123 in the CSV"),
        _l("bare number", "invoice total 1234567890 cents"),
        _l("bare number", "member number 11987654321"),
        _l("bare number", "注文番号 09012345678"),
        _l("bare number", "주문번호 01012345678"),
        _l("bare number", "номер заказа 89161234567"),
        _l("bare number", "numer zamówienia 512345678"),
        _l("bare number", "the checksum is 3344556677889"),
        _l("bare number", "we served 2125550199 requests last year"),
        _l("bare number", "row 0039061234567 of the export"),
    ]


def _tracking() -> list[Lookalike]:
    return [
        _l("tracking", "UPS 1Z999AA10123456784"),
        _l("tracking", "UPS tracking 1Z 999 AA1 01 2345 6784"),
        _l("tracking", "DHL Sendungsnummer 00340434161094042557"),
        _l("tracking", "DHL: JJD 0001 2345 6789 0123"),
        _l("tracking", "USPS tracking 9400111899223197428490"),
        _l("tracking", "FedEx tracking 123456789012"),
        _l("tracking", "Colissimo 6A12345678901"),
        _l("tracking", "La Poste LA123456789FR"),
        _l("tracking", "PostNL 3SABCD1234567"),
        _l("tracking", "顺丰单号 SF1234567890123"),
        _l("tracking", "ヤマト運輸 伝票番号 1234-5678-9012"),
        _l("tracking", "Correos PQ4F6P0703673180108020F"),
        _l("tracking", "DPD 01234567890123"),
        _l("tracking", "Royal Mail tracking AB123456789GB"),
        _l("tracking", "GLS parcel 12345678901"),
        _l("tracking", "Amazon order 112-1234567-1234567"),
        _l("tracking", "Sendung 1 85 05 78 006 084 36 zugestellt"),
        _l("tracking", "tracking 12 345 678 901 via Hermes"),
    ]


def _password_talk() -> list[Lookalike]:
    return [
        _l("password talk", "Passwort vergessen? Klicke auf den Link in der Mail."),
        _l("password talk", "das Passwort muss mindestens 12 Zeichen lang sein"),
        _l("password talk", "Das WLAN-Passwort steht auf der Rückseite des Routers."),
        _l("password talk", "mot de passe oublié, je le réinitialise demain"),
        _l("password talk", "le mot de passe est dans le gestionnaire"),
        _l("password talk", "la contraseña debe tener al menos 8 caracteres"),
        _l("password talk", "la contraseña está en el sobre azul"),
        _l("password talk", "パスワードを変更しました"),
        _l("password talk", "パスワードは管理者に聞いてください"),
        _l("password talk", "비밀번호를 잊어버렸어요"),
        _l("password talk", "пароль должен содержать цифры"),
        _l("password talk", "пароль лежит в менеджере паролей"),
        _l("password talk", "wachtwoord vergeten, morgen resetten"),
        _l("password talk", "密码错误，请重试"),
        _l("password talk", "密码在便签上，明天给你"),
        _l("password talk", "senha incorreta, tente de novo"),
        _l("password talk", "A senha do Wi-Fi está colada na geladeira"),
        _l("password talk", "la password è scaduta ieri"),
        _l("password talk", "hasło wygasło wczoraj"),
        _l("password talk", "şifre sıfırlama bağlantısı gönderildi"),
        _l("password talk", "lösenordet byttes igår"),
        _l("password talk", "The password is on the sticky note under the keyboard"),
        _l("password talk", "the password for the guest network is printed on the card"),
        _l("password talk", "Das Passwort lautet wie immer: siehe KeePass"),
        _l("password talk", "비밀번호는 관리자에게 물어보세요"),
        _l("password talk", "the token bucket refills at 100 per second"),
        _l("password talk", "secret santa list is done"),
        _l("password talk", "Kennwort-Richtlinie: mindestens 12 Zeichen"),
        _l("password talk", "PIN-Eingabe am Automaten fehlgeschlagen"),
        _l("password talk", "the API key rotation is scheduled for Friday"),
        _l("password talk", "暗証番号を忘れた"),
        _l("password talk", "we keep passwords in Bitwarden, never in notes"),
        _l("password talk", "the tokenizer splits 'unbelievable' into three tokens"),
        _l("password talk", "Secrets Manager costs $0.40 per secret per month"),
        _l("password talk", "clé USB perdue dans le train"),
        _l("password talk", "la clave del éxito es la constancia"),
        _l("password talk", "the password field is required"),
        _l("password talk", "Zugangsdaten kommen per Post"),
        _l("password talk", "비번 바꿨어"),
        _l("password talk", "新しいパスワードは明日お知らせします"),
    ]


def _harmless_tables() -> list[Lookalike]:
    return [
        _l(
            "table",
            "| Service | Owner | Password |\n|---|---|---|\n| NAS | Kenji | in 1Password |\n"
            "| Router | Ana | (rotated) |",
        ),
        _l("table", "| model | tokens | cost |\n|---|---|---|\n| gpt-4o | 12840 | $0.31 |"),
        _l(
            "table",
            "| PIN | GPIO | Funktion |\n|---|---|---|\n| 7 | GPIO4 | LED |\n| 11 | GPIO17 | Taster |",
        ),
        _l(
            "table",
            "| Secret | Owner | Rotated |\n|---|---|---|\n| STRIPE_KEY | billing | 2026-10-01 |",
        ),
        _l("table", "| Benutzer | Passwort |\n|---|---|\n| lisa | ✓ gesetzt |\n| tom | — |"),
        _l("table", "| Token | Count |\n|---|---|\n| the | 3021 |\n| of | 1877 |"),
        _l("table", "| Feld | Pflicht |\n|---|---|\n| Passwort | ja |\n| E-Mail | nein |"),
        _l("table", "| サービス | パスワード |\n|---|---|\n| ルーター | 管理者に確認 |"),
        _l("table", "| Name | Password policy |\n|---|---|\n| prod | 16 chars |"),
        _l("table", "| Secret name | Used by |\n|---|---|\n| DB_PASSWORD | api, worker |"),
        _l(
            "table",
            "| Key | Value |\n|---|---|\n| max_tokens | 4096 |\n| temperature | 0.2 |",
        ),
        _l("table", "| Contraseña | Estado |\n|---|---|\n| ******** | cambiada |"),
        _l(
            "table",
            "| Step | Secret needed |\n|---|---|\n| deploy | yes |\n| lint | no |",
        ),
    ]


def _harmless_markup() -> list[Lookalike]:
    return [
        _l("xml", "<password>${DB_PASSWORD}</password>"),
        _l("xml", "<token/>"),
        _l("xml", "<secret></secret>"),
        _l("xml", '<passwordPolicy minLength="12" requireDigit="true"/>'),
        _l("xml", '<input type="password" name="pw" placeholder="Password">'),
        _l("xml", '<add key="ApiSecret" value="#{ApiSecret}#" />'),
        _l("xml", '<label for="password">Passwort</label>'),
        _l("xml", '<string name="password_hint">At least 8 characters</string>'),
        _l("xml", "<password>{{ vault_db_password }}</password>"),
        _l("xml", "&lt;b&gt;bold&lt;/b&gt; and &amp; entities"),
    ]


def _harmless_urls() -> list[Lookalike]:
    return [
        _l("url", "https://example.com/search?q=password+reset&page=2"),
        _l("url", "https://shop.example.com/cart?sort=asc&page=3"),
        _l("url", "https://example.com/?utm_source=newsletter&utm_campaign=spring2026"),
        _l("url", "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s"),
        _l("url", "https://api.example.com/items?id=1234567890"),
        _l("url", "https://example.com/login?session=expired"),
        _l("url", "https://www.google.com/maps/@52.5200,13.4050,15z"),
        _l("url", "https://example.com/auth?response_type=code&code_challenge_method=S256"),
        _l("url", "https://example.com/reset?token="),
        _l("url", "https://docs.example.com/api#authentication"),
        _l("url", "https://example.com/callback?state=xyz&code="),
        _l("url", "https://example.com/download?file=report-2026-11.pdf&version=3"),
        _l("url", "https://example.org/page?lang=de&theme=dark&token_type=bearer"),
        _l("url", "https://example.com/?ref=producthunt"),
        _l(
            "url",
            "https://maps.googleapis.com/maps/api/staticmap?center=Berlin&zoom=12&size=400x400&key=YOUR_KEY",
        ),
        _l("url", "https://api.openweathermap.org/data/2.5/weather?q=Rome&units=metric&lang=it"),
        _l("url", "https://example.com/oauth/authorize?client_id=web-app&scope=read+write"),
    ]


def _harmless_ids() -> list[Lookalike]:
    return [
        _l("ids", "Datadog application key rotated yesterday, new one is in Vault"),
        _l("ids", "DD_SITE=datadoghq.eu"),
        _l("ids", "Datadog trace id 5765432109876543210"),
        _l("ids", "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        _l("ids", "md5 of the file: d41d8cd98f00b204e9800998ecf8427e"),
        _l("ids", "Sentry event 9f1c2e7d3b4a5c6d7e8f9a0b1c2d3e4f"),
        _l("ids", "request-id: 0f8fad5b-d9cb-469f-a165-70867728950e"),
        _l("ids", "Algolia app ID: 4K2ZJ8X1QP"),
        _l("ids", "Cloudflare zone id 023e105f4ecef8ad9ca31a8372d0c353"),
        _l("ids", "OpenWeather city id 2950159"),
        _l("ids", "Trello board id 5abbe4b7ddc1b351ef961414"),
        _l(
            "ids",
            "image sha256:a3ed95caeb02ffe68cdd9fd84406680ae93d633cb16422d00e8a7c22955b46d4",
        ),
        _l("ids", "Heroku release v142 deployed"),
        _l("ids", "PagerDuty incident #48213 resolved"),
        _l("ids", "Segment source slug: web-prod"),
        _l("ids", 'etag "33a64df551425fcc55e4d42a148795d9f25f89d4"'),
        _l("ids", "UUID 123e4567-e89b-12d3-a456-426614174000"),
    ]


def _harmless_personal() -> list[Lookalike]:
    return [
        _l("documents", "Passport photo booth on the corner is closed"),
        _l("documents", "Reisepass beantragt, Abholung in 3 Wochen"),
        _l("documents", "passport renewal takes 6 weeks"),
        _l("documents", "License: MIT"),
        _l("documents", "licensed under Apache-2.0"),
        _l("documents", "Führerschein Klasse B seit 2010"),
        _l("documents", "permis B obtenu en 2015"),
        _l("documents", "passport control at gate B12"),
        _l("documents", "driving licence category C1E renewal"),
        _l("documents", "passaporto scaduto, rinnovo a marzo"),
        _l("documents", "护照照片要白底"),
        _l("documents", "パスポートの更新は来月"),
        _l("documents", "License key format: XXXXX-XXXXX-XXXXX"),
        _l("dates", "born in 1985 in Porto"),
        _l("dates", "Happy birthday! 🎂"),
        _l("dates", "birth rate 1.5 in 2024"),
        _l("dates", "date of birth field added to the signup form"),
        _l("dates", "DOB column is optional in the CSV"),
        _l("dates", "the project was started on 2024-03-01"),
        _l("dates", "생일 축하해!"),
        _l("dates", "день рождения в субботу"),
        _l("dates", "fecha de nacimiento: obligatoria en el formulario"),
        _l("email", "we met at the dot com party"),
        _l("email", "@channel please review before 5"),
        _l("email", "git@github.com:org/repo.git"),
        _l("email", "npm i @types/node@20.11.5"),
        _l("email", "x = a @ b  # matrix multiplication"),
        _l("email", "@dataclass(frozen=True)"),
        _l("email", "name at domain dot com is the format we use"),
        _l("email", "Twitter handle @kenji_dev"),
        _l("email", "price is 3 @ 4.99"),
        _l("email", "the dot com bubble at its peak"),
        _l("email", "the at-sign ＠ is fullwidth in Japanese input"),
        _l("email", "Slack: @maria.garcia"),
        _l("email", "look at it dot by dot"),
    ]


def _harmless_numbers() -> list[Lookalike]:
    return [
        _l("numbers", "aspect 16/9, ratio 4/3"),
        _l("numbers", "due 12/2026"),
        _l("numbers", "ISBN 978-3-16-148410-0"),
        _l("numbers", "IMEI 490154203237518"),
        _l("numbers", "version 4.1.1.1"),
        _l("numbers", "SWIFT/BIC COBADEFFXXX"),
        _l("numbers", "sort code 20-00-00"),
        _l("numbers", "Laufzeit 2024/2025/2026/2027"),
        _l("numbers", "dates 2024/01/15 and 2025/02/28"),
        _l("numbers", "country code +49 is Germany"),
        _l("numbers", "GTIN 00012345600012"),
        _l("numbers", "10.0.0.12:8443 and port 5432"),
        _l("numbers", "2026-11-20 09:30:15"),
        _l("numbers", "MAC 00:1A:2B:3C:4D:5E"),
        _l("numbers", "coordinates 48.8566, 2.3522"),
        _l("numbers", "total $1,234,567.89"),
        _l("numbers", "phone model Pixel 8 Pro, 128 GB"),
        _l("numbers", "pages 1234/5678/9012/3456 of the scan"),
        _l("numbers", "ＮＡＳ の ＩＰ は １９２．１６８．１．１０"),
    ]


def _harmless_encoded() -> list[Lookalike]:
    return [
        _l(
            "encoded",
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        ),
        _l("encoded", "SGVsbG8gV29ybGQh is base64 for Hello World!"),
        _l("encoded", "Q29uZmlnTG9hZGVy decodes to a class name"),
        _l("encoded", "color #ff00aa and #00ff7f"),
        _l("encoded", "hex dump: 48 65 6c 6c 6f"),
        _l("encoded", "68656c6c6f20776f726c64 is 'hello world' in hex"),
        _l("encoded", "q=caf%C3%A9+au+lait"),
        _l("encoded", "path /docs/My%20Files/report.pdf"),
        _l("encoded", "base64 of 'release notes': cmVsZWFzZSBub3Rlcw=="),
        _l("encoded", "dGhlIHF1aWNrIGJyb3duIGZveA== is a pangram"),
        _l("encoded", "encoded=%E6%97%A5%E6%9C%AC%E8%AA%9E"),
        _l("encoded", "the header was eyJhbGciOiJIUzI1NiJ9 (just the algorithm)"),
        _l("encoded", "base64 'MjAyNi0xMS0yMA==' is a date"),
    ]


def _harmless_lists() -> list[Lookalike]:
    return [
        _l("list", "- build-2024-11-20-abcdef\n- deploy-prod-eu-west-1"),
        _l("list", "- ItemA1\n- ItemB2"),
        _l("list", "1. Reinstall the CLI\n2. Login again with SSO"),
        _l("list", "- commit 3f2a9c1\n- commit 8b7e6d5"),
        _l("list", "- a1b2c3d4e5f6\n- 0f9e8d7c6b5a"),
        _l("list", "* Kubernetes1_29_upgrade\n* HelmChart3_14_release"),
        _l("list", "- step1_initialize_db\n- step2_run_migrations"),
        _l("list", "- SKU AB12CD34EF56\n- SKU GH78IJ90KL12"),
        _l("list", "> quoted line one\n> quoted line two"),
    ]


def _harmless_code() -> list[Lookalike]:
    return [
        _l("code", 'dsn := os.Getenv("DATABASE_URL")'),
        _l("code", '$password = Read-Host -AsSecureString "Password"'),
        _l("code", 'password: ENV["DB_PASSWORD"]'),
        _l("code", '"Server=sql01;Database=hr;Integrated Security=true;"'),
        _l("code", 'sql.Open("postgres", "host=db user=app dbname=orders sslmode=disable")'),
        _l("code", "password: Rails.application.credentials.db_password"),
        _l("code", "$cred = Get-Credential -UserName deploy"),
        _l("code", 'db, err := sql.Open("mysql", os.Getenv("MYSQL_DSN"))'),
        _l("code", "Password: cfg.Redis.Password,"),
        _l("code", ':password => ENV.fetch("SMTP_PASSWORD")'),
        _l("code", 'if password == "" { return errMissingPassword }'),
        _l("code", "jdbc:postgresql://db:5432/app?user=app&password=${DB_PASSWORD}"),
        _l("code", "$securePw = ConvertTo-SecureString $env:DEPLOY_PW -AsPlainText -Force"),
        _l("code", "validates :password, length: { minimum: 12 }"),
        _l("code", "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())"),
        _l("code", 'token := strings.TrimPrefix(header, "Bearer ")'),
        _l("code", "opts.SetAuth(options.Credential{Username: user, Password: pass})"),
    ]


def _harmless_disguised() -> list[Lookalike]:
    return [
        _l("normalisation", "Пароль изменён вчера"),
        _l("normalisation", "Ελληνικό κείμενο χωρίς μυστικά"),
        _l("normalisation", _fullwidth("fullwidth text is fine")),
        _l("normalisation", "zero\u200bwidth space in a word"),
        _l("normalisation", "family emoji 👨\u200d👩\u200d👧 uses zero width joiners"),
        _l("normalisation", "Ｗｉ－Ｆｉ は つながらない"),
        _l("normalisation", "p\u0430ssword reset link sent"),
        _l("normalisation", "t\u03bfken count: 4096"),
        _l("normalisation", _fullwidth("password:") + " ＊＊＊＊"),
        _l("normalisation", "p\u200bassword policy: 12 characters"),
        _l("normalisation", "caf\u00e9 vs cafe\u0301, both fine"),
        _l("normalisation", "pass&shy;word reset is on the login page"),
    ]


def lookalikes() -> list[Lookalike]:
    """Texts that only look sensitive, in the same kinds and layouts."""
    return [
        *_placeholders(),
        *_bare_numbers(),
        *_tracking(),
        *_password_talk(),
        *_harmless_tables(),
        *_harmless_markup(),
        *_harmless_urls(),
        *_harmless_ids(),
        *_harmless_personal(),
        *_harmless_numbers(),
        *_harmless_encoded(),
        *_harmless_lists(),
        *_harmless_code(),
        *_harmless_disguised(),
    ]


def secret_samples_heldout() -> list[Sample]:
    """A held-out batch, written after the rules were tuned on the corpus above; never tuned on."""
    _RNG.seed("blind heldout secrets")
    ghp = "ghp_" + _t(36)
    dd = _t(40, _HEX)
    uuid_key = _uuid()
    b64 = base64.b64encode(b"Rotterdam#2031").decode()
    hex_pw = b"Zeppelin!Blue55".hex()
    card = _card("4716", 16)
    iban = checkdigits.iban("PT", "0002" + _t(17, string.digits))
    iban_ch = checkdigits.iban("CH", "00762" + _t(12, string.digits))
    akia = "AKIA" + _t(16, _UPPER)
    return [
        _s("prose: da", "adgangskoden til routeren er Hygge!Kaffe42", "Hygge!Kaffe42"),
        _s("prose: no", "passordet til wifi-en er Fjord-Troll-88", "Fjord-Troll-88"),
        _s("prose: fi", "wlan-salasana on Sauna#Kalja7", "Sauna#Kalja7"),
        _s("prose: cs", "heslo k wifi je Knedlik-2024!", "Knedlik-2024!"),
        _s("prose: hu", "a wifi jelszó: Gulyas_Leves9", "Gulyas_Leves9"),
        _s("prose: el", "ο κωδικός του wifi είναι Souvlaki#77", "Souvlaki#77"),
        _s(
            "prose: de",
            "Unser neues Router-Kennwort ist seit gestern Waldmeister#7",
            "Waldmeister#7",
        ),
        _s("prose: fr", "Mot de passe de la box : Croque!Madame21", "Croque!Madame21"),
        _s("prose: es", "Te paso la contraseña del NAS: Paella-Valencia3", "Paella-Valencia3"),
        _s("prose: it", "la password di casa è ancora Limoncello_42", "Limoncello_42"),
        _s("prose: pt", "senha nova do roteador -> Feijoada#2030", "Feijoada#2030"),
        _s("prose: ja", "ルーターのパスワードはTokyo_Tower333です", "Tokyo_Tower333"),
        _s("prose: zh", "服务器的登录密码为 Xian#Bing2025", "Xian#Bing2025"),
        _s("prose: ko", "공유기 비밀번호: Kimbap#2024", "Kimbap#2024"),
        _s("prose: ru", "Пароль для сервера — Borshch!Krasny9", "Borshch!Krasny9"),
        _s(
            "prose: en",
            "reminder to self: the new admin password that IT gave me this morning is Velvet-Moth-63",
            "Velvet-Moth-63",
        ),
        _s("next line", "Password for the VPN\n> Graphite!Owl29", "Graphite!Owl29"),
        _s("next line", "* WiFi password:\n    HarborLights_2025", "HarborLights_2025"),
        _s(
            "table",
            "| Account | Login | Passwd |\n| :-- | :-- | :-- |\n| Bank | k.tanaka | Sakura#Bank7 |",
            "Sakura#Bank7",
        ),
        _s(
            "table",
            "Service | Token\n--- | ---\nDeploy bot | tok_4Rq8Lm2Xz9Vb7Np1",
            "tok_4Rq8Lm2Xz9Vb7Np1",
        ),
        _s("table", "| Lock | Code |\n|---|---|\n| Garage | 48213 |", "48213"),
        _s("yaml", f"datadog:\n  app_key: {dd}\n  site: datadoghq.eu", dd),
        _s("json", f'{{"service": "mail", "apiToken": "{uuid_key}"}}', uuid_key),
        _s(
            "toml", '[smtp]\nhost = "mail.example.com"\npassword = "Toml!Smtp2026"', "Toml!Smtp2026"
        ),
        _s("csv", "name,user,password\nnas,admin,Csv#Nas2024", "Csv#Nas2024"),
        _s("sql", "CREATE USER app WITH PASSWORD 'Pg!Create77';", "Pg!Create77"),
        _s("xml", "<apiKey>mK7#pL2qX9vR4t</apiKey>", "mK7#pL2qX9vR4t"),
        _s("html", '<input name="password" type="password" value="Html#Form55">', "Html#Form55"),
        _s(
            "url parameter",
            f"https://api.example.net/v1/data?client_id=app&api_token={dd[:32]}",
            dd[:32],
        ),
        _s(
            "url parameter",
            "https://intranet.example.com/login?user=kim&pass=Hangul!2024",
            "Hangul!2024",
        ),
        _s("encoded", f"pw in base64 (don't ask): {b64}", b64),
        _s("encoded", f"0x{hex_pw}", hex_pw),
        _s("encoded", f"token%3D{ghp.replace('_', '%5F')}", ghp.replace("_", "%5F")),
        _s("split over items", f"- {akia[:12]}\n- {akia[12:]}", akia[:12], akia[12:]),
        _s("disguised", "Pass\u200cword: Hidden-Joiner-8", "Hidden-Joiner-8"),
        _s("disguised", "p&#x61;ssword = Hex-Entity-91", "Hex-Entity-91"),
        _s("disguised", "𝐩𝐚𝐬𝐬𝐰𝐨𝐫𝐝: Math-Bold-47", "Math-Bold-47"),
        _s("disguised", "ΡΑSSWORD: Greek-Caps-19", "Greek-Caps-19"),
        _s("document", "Passport number: 123456789 (UK)", "123456789"),
        _s("document", "numéro de passeport 19FR54321", "19FR54321"),
        _s("document", "Reisepassnummer: CF7K9L2M4", "CF7K9L2M4"),
        _s("document", "rijbewijs nr. 4712589630", "4712589630"),
        _s("birth date", "DOB: 04/11/1979", "04/11/1979"),
        _s("birth date", "geboren am 3. Mai 1984 in Köln", "3. Mai 1984"),
        _s("birth date", "data de nascimento: 15 de agosto de 1990", "15 de agosto de 1990"),
        _s("birth date", "出生日期：1988年7月9日", "1988年7月9日"),
        _s("obfuscated email", "write to li.ming [at] 163 [dot] com", "li.ming [at] 163 [dot] com"),
        _s("obfuscated email", "mail: tomasz.nowak at wp dot pl", "tomasz.nowak at wp dot pl"),
        _s(
            "obfuscated email",
            "contact: ana&#46;lima&#64;uol&#46;com&#46;br",
            "ana&#46;lima&#64;uol&#46;com&#46;br",
        ),
        _s(
            "card",
            f"card {card[:4]}/{card[4:8]}/{card[8:12]}/{card[12:]}",
            f"{card[:4]}/{card[4:8]}/{card[8:12]}/{card[12:]}",
        ),
        _s("iban", f"IBAN {_groups(iban, 4, '.')}", _groups(iban, 4, ".")),
        _s("iban", f"Konto: {_groups(iban_ch, 4, '-')}", _groups(iban_ch, 4, "-")),
        _s("phone", "Handynummer: 0170 1234567", "0170 1234567"),
        _s("phone", "téléphone : 06 12 34 56 78", "06 12 34 56 78"),
        _s(
            "connection: go",
            'db, _ := sql.Open("postgres", "postgres://svc:Go!Pg2025@db:5432/app?sslmode=disable")',
            "Go!Pg2025",
        ),
        _s(
            "connection: powershell",
            "$secure = ConvertTo-SecureString -String 'Ps!Plain42' -AsPlainText -Force",
            "Ps!Plain42",
        ),
        _s(
            "connection: ruby",
            "Mysql2::Client.new(host: 'db', username: 'app', password: 'My!Sql2Ruby')",
            "My!Sql2Ruby",
        ),
        _s("connection: python", 'smtp.login("reports@example.com", "Smtp#Py2026")', "Smtp#Py2026"),
        _s("vendor by name", f"Mixpanel secret: {dd[8:40]}", dd[8:40]),
        _s("vendor by name", f"Heroku key {uuid_key}", uuid_key),
        _s("misc", "WIFI:S:Cafe;T:WPA;P:Espresso!Doppio5;;", "Espresso!Doppio5"),
    ]


def lookalikes_heldout() -> list[Lookalike]:
    """Held-out look-alikes, written with the held-out secrets above; never tuned on."""
    return [
        _l("placeholder", "password: <same as staging>"),
        _l("placeholder", "API_TOKEN=xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"),
        _l("placeholder", "DD_APP_KEY=0000000000000000000000000000000000000000"),
        _l("placeholder", "token = 'PUT-YOUR-TOKEN-HERE'"),
        _l("placeholder", "Passwort: ******** (im Tresor)"),
        _l("placeholder", "mysql://root:<password>@localhost/app"),
        _l("placeholder", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
        _l("password talk", "adgangskoden er på bagsiden af routeren"),
        _l("password talk", "passordet må ha minst 12 tegn"),
        _l("password talk", "salasana vaihdettu eilen"),
        _l("password talk", "heslo je v trezoru"),
        _l("password talk", "ο κωδικός άλλαξε χθες"),
        _l("password talk", "Das Router-Kennwort ist seit gestern geändert"),
        _l("password talk", "Mot de passe de la box : voir l'étiquette"),
        _l("password talk", "ルーターのパスワードは裏面に書いてあります"),
        _l("password talk", "服务器的登录密码已经重置了"),
        _l("password talk", "공유기 비밀번호는 스티커에 있어요"),
        _l("password talk", "Пароль для сервера лежит в KeePass"),
        _l("password talk", "the admin password that IT gave me this morning expires Friday"),
        _l("password talk", "Password for the VPN\n> ask the helpdesk"),
        _l(
            "table",
            "| Account | Login | Passwd |\n| :-- | :-- | :-- |\n| Bank | k.tanaka | (in the safe) |",
        ),
        _l("table", "| Step | Token budget |\n|---|---|\n| plan | 4000 |"),
        _l("table", "| Lock | Code |\n|---|---|\n| Garage | see Anna |"),
        _l("table", "Service | Owner\n--- | ---\nDeploy bot | Kenji"),
        _l("yaml", "datadog:\n  app_key: ${DD_APP_KEY}\n  site: datadoghq.eu"),
        _l("json", '{"service": "mail", "apiToken": null, "retries": 3}'),
        _l("toml", '[smtp]\nhost = "mail.example.com"\nport = 587'),
        _l("csv", "name,user,password_set\nnas,admin,yes"),
        _l("sql", "ALTER USER app WITH PASSWORD NULL;"),
        _l("xml", "<apiKey/>"),
        _l("html", '<input name="password" type="password" autocomplete="current-password">'),
        _l("url", "https://api.example.net/v1/data?client_id=app&page_token=2"),
        _l("url", "https://intranet.example.com/login?user=kim&next=%2Fhome"),
        _l("encoded", "base64 of 'good morning': Z29vZCBtb3JuaW5n"),
        _l("encoded", "0x48656c6c6f2c20576f726c6421"),
        _l("encoded", "path=%2Fvar%2Flog%2Fapp.log"),
        _l("list", "- Kubernetes\n- 1.29.3-eks"),
        _l("list", "- SKU-4482-AB\n- SKU-4483-CD"),
        _l("disguised", "Ｐａｓｓｗｏｒｄ ｐｏｌｉｃｙ： １２ ｃｈａｒｓ"),
        _l("disguised", "𝐛𝐨𝐥𝐝 𝐭𝐞𝐱𝐭 in a heading"),
        _l("document", "Passport office opens at 9"),
        _l("document", "Reisepass läuft 2031 ab"),
        _l("document", "rijbewijs categorie B, behaald in 2012"),
        _l("birth date", "DOB field: optional"),
        _l("birth date", "geboren in Köln, aufgewachsen in Bonn"),
        _l("birth date", "出生日期格式：YYYY-MM-DD"),
        _l("email", "meet at 5 at the station"),
        _l("email", "@here standup moved to 10"),
        _l("email", "release notes at docs dot example"),
        _l("card", "photo 4716/2024 of the series"),
        _l("iban", "PT50 is the country code and check digits"),
        _l("phone", "Auftrag 01701234567 bestätigt"),
        _l("phone", "temperature 06 12 34 56 78 readings"),
        _l("numbers", "version 2024.11.20.1530"),
        _l("numbers", "Sendungsnummer 0034 0434 1610 9404 2557"),
        _l("code", 'db, _ := sql.Open("postgres", os.Getenv("PG_URL"))'),
        _l("code", "$secure = Read-Host 'Password' -AsSecureString"),
        _l("code", "Mysql2::Client.new(host: 'db', username: 'app', password: ENV['DB_PW'])"),
        _l("code", "smtp.login(user, password)"),
        _l("ids", "Mixpanel project id 2984412"),
        _l("ids", "Heroku app: dreamd-staging"),
        _l("misc", "WIFI:S:Cafe;T:nopass;;"),
    ]


def secret_samples_third() -> list[Sample]:
    """A third batch, written after the changes the held-out batch prompted; never tuned on."""
    _RNG.seed("blind third secrets")
    hexkey = _t(32, _HEX)
    token = _t(24)
    uuid_key = _uuid()
    card = _card("5392", 16)
    iban = checkdigits.iban("BE", _t(12, string.digits))
    b64 = base64.b64encode(b"Nordlicht!2027").decode()
    return [
        _s("prose: en", "fyi the garage wifi passphrase is now Tulip-Rain-2049", "Tulip-Rain-2049"),
        _s("prose: en", "Sarah's laptop login password = Bluebird#771", "Bluebird#771"),
        _s("prose: de", "Das neue Kennwort für den Drucker heißt Tinte!Blau42", "Tinte!Blau42"),
        _s("prose: de", "PW vom Gäste-WLAN: Kaffeeklatsch_9", "Kaffeeklatsch_9"),
        _s("prose: fr", "le mdp du compte Freebox est Paris#Nord75", "Paris#Nord75"),
        _s("prose: es", "contraseña del wifi de la oficina = Madrid_Sol44", "Madrid_Sol44"),
        _s("prose: pt", "a senha do banco mudou para Cabral#1500", "Cabral#1500"),
        _s("prose: it", "La password dell'email aziendale è Gondola!88", "Gondola!88"),
        _s("prose: nl", "wachtwoord voor de NAS is nu Molen#Wind33", "Molen#Wind33"),
        _s("prose: pl", "Hasło do konta to Pierogi!2023", "Pierogi!2023"),
        _s("prose: sv", "Lösenord till wifi: Kanelbulle#8", "Kanelbulle#8"),
        _s("prose: tr", "sunucu şifresi Lokum_2024! olarak değişti", "Lokum_2024!"),
        _s("prose: ru", "новый пароль от роутера: Matryoshka#7", "Matryoshka#7"),
        _s("prose: zh", "新密码：Panda_Bamboo88", "Panda_Bamboo88"),
        _s("prose: ja", "管理画面のパスワードを Fuji#Yama2025 にしました", "Fuji#Yama2025"),
        _s("prose: ko", "관리자 비밀번호는 Seoul!Tower7 이에요", "Seoul!Tower7"),
        _s("next line", "Wi-Fi (guest network) password\n  Sunny_Meadow_12", "Sunny_Meadow_12"),
        _s(
            "table",
            "| Host | Username | Password |\n|------|----------|----------|\n| mail | ops | Mail#Ops2026 |",
            "Mail#Ops2026",
        ),
        _s("table", "| Dienst | Kennwort |\n|---|---|\n| VPN | Tunnel!Nacht9 |", "Tunnel!Nacht9"),
        _s("csv", "service;login;password\nftp;upload;Ftp#Upload77", "Ftp#Upload77"),
        _s("yaml", "smtp:\n  user: alerts\n  password: Yaml!Alerts55", "Yaml!Alerts55"),
        _s("env", f"OPENWEATHER_APPID={hexkey}", hexkey),
        _s("json", f'{{"auth": {{"token": "{token}"}}}}', token),
        _s(
            "xml",
            '<setting name="SmtpPassword" serializeAs="String"><value>Xml#Smtp99</value></setting>',
            "Xml#Smtp99",
        ),
        _s("url parameter", f"https://api.example.org/geo?lat=1&lon=2&key={hexkey}", hexkey),
        _s("url parameter", f"https://svc.example.com/hook?auth_token={token}", token),
        _s("vendor by name", f"Postmark API token: {uuid_key}", uuid_key),
        _s("vendor by name", f"Algolia search admin key {hexkey}", hexkey),
        _s("encoded", f"echo {b64} | base64 --decode", b64),
        _s("document", "Passport No: K1234567", "K1234567"),
        _s("document", "numero passaporto AA1234567", "AA1234567"),
        _s("document", "Nº do passaporte: FT123456", "FT123456"),
        _s("document", "driver's licence # D12-3456-7890", "D12-3456-7890"),
        _s("birth date", "Date of Birth: 12 June 1978", "12 June 1978"),
        _s("birth date", "fecha de nacimiento 07/09/1993", "07/09/1993"),
        _s("birth date", "né le 01/04/1982", "01/04/1982"),
        _s(
            "obfuscated email",
            "ping me at marco.rossi [at] gmail [dot] com",
            "marco.rossi [at] gmail [dot] com",
        ),
        _s("obfuscated email", "j.smith AT outlook DOT com", "j.smith AT outlook DOT com"),
        _s("obfuscated email", "Mail: eva.berg＠telia．se", "eva.berg＠telia．se"),
        _s(
            "card",
            f"Mastercard {card[:4]}.{card[4:8]}.{card[8:12]}.{card[12:]}",
            f"{card[:4]}.{card[4:8]}.{card[8:12]}.{card[12:]}",
        ),
        _s("iban", f"IBAN: {_groups(iban, 4, '/')}", _groups(iban, 4, "/")),
        _s("phone", "tel. 089 123 456 78", "089 123 456 78"),
        _s(
            "connection: go",
            'dsn := "root:Go#Maria2025@tcp(127.0.0.1:3306)/shop?parseTime=true"',
            "Go#Maria2025",
        ),
        _s(
            "connection: powershell",
            "$pw = ConvertTo-SecureString -AsPlainText -Force -String 'Ps#Ordered88'",
            "Ps#Ordered88",
        ),
        _s(
            "connection: ruby", "Redis.new(host: 'cache', password: 'Ruby#Redis31')", "Ruby#Redis31"
        ),
        _s(
            "connection: csharp",
            '"ConnectionStrings": { "Db": "Host=db;Username=app;Password=Cs#Npgsql7" }',
            "Cs#Npgsql7",
        ),
        _s("disguised", "pass\u200bwd: Zero-Width-Passwd9", "Zero-Width-Passwd9"),
        _s("disguised", "\uff50\uff57\uff44: Full-Width-Pwd3", "Full-Width-Pwd3"),
        _s(
            "split over items",
            f"1. {hexkey[:16]}\n2. {hexkey[16:]}\n(the Algolia admin key, split)",
            hexkey[:16],
            hexkey[16:],
        ),
        _s(
            "misc",
            "git remote add origin https://deploy:Git#Deploy55@git.example.com/app.git",
            "Git#Deploy55",
        ),
    ]


def lookalikes_third() -> list[Lookalike]:
    """Look-alikes written with the third batch; never tuned on."""
    return [
        _l("password talk", "fyi the garage wifi passphrase changed, ask Tom"),
        _l("password talk", "Sarah's laptop login password expired again"),
        _l("password talk", "Das neue Kennwort für den Drucker kommt per Brief"),
        _l("password talk", "le mdp du compte Freebox est sur l'étiquette"),
        _l("password talk", "contraseña del wifi de la oficina: pregunta a Luis"),
        _l("password talk", "a senha do banco mudou ontem"),
        _l("password talk", "wachtwoord voor de NAS staat in Bitwarden"),
        _l("password talk", "Hasło do konta zostało zmienione"),
        _l("password talk", "sunucu şifresi değişti"),
        _l("password talk", "новый пароль от роутера придёт по почте"),
        _l("password talk", "新密码已经发到你的邮箱"),
        _l("password talk", "管理画面のパスワードを変更しました"),
        _l("password talk", "관리자 비밀번호를 바꿨어요"),
        _l("password talk", "Wi-Fi (guest network) password\n  is on the fridge"),
        _l(
            "table",
            "| Host | Username | Password |\n|------|----------|----------|\n| mail | ops | vault:kv/mail |",
        ),
        _l("table", "| Dienst | Kennwort-Länge |\n|---|---|\n| VPN | 16 |"),
        _l("csv", "service;login;password_changed\nftp;upload;2026-01-04"),
        _l("yaml", "smtp:\n  user: alerts\n  password: !vault |"),
        _l("env", "OPENWEATHER_APPID="),
        _l("json", '{"auth": {"token": null, "type": "bearer"}}'),
        _l(
            "xml",
            '<setting name="SmtpHost" serializeAs="String"><value>smtp.example.com</value></setting>',
        ),
        _l("url", "https://api.example.org/geo?lat=52.52&lon=13.40&units=metric"),
        _l("url", "https://svc.example.com/hook?event=push&branch=main"),
        _l("ids", "Postmark message id 7d0f2a6c-1b9e-4c77-9a7e-3c2f1e0d4b5a in the bounce log"),
        _l("ids", "Algolia index products_v2, 12840 records"),
        _l("encoded", "echo SGVsbG8= | base64 --decode"),
        _l("document", "Passport No. field is optional"),
        _l("document", "passaporto in scadenza il 2027"),
        _l("document", "driver's licence renewal fee is 45 EUR"),
        _l("birth date", "Date of Birth field added on 12 June 2026"),
        _l("birth date", "né à Lyon, il vit à Paris"),
        _l("email", "ping me at noon, not at 9"),
        _l("email", "the AT DOT notation is old-fashioned"),
        _l("email", "the user＠host form in the docs"),
        _l("card", "versions 5392.1.2.0 and 5392.1.3.0"),
        _l("iban", "BE is Belgium's country code"),
        _l("phone", "Invoice 089123456 paid"),
        _l("phone", "between 10 and 12 there were 089 123 456 78 samples"),
        _l("code", 'dsn := os.Getenv("MYSQL_DSN") // root:...@tcp(...)/shop'),
        _l("code", "$pw = Read-Host -AsSecureString -Prompt 'Password'"),
        _l("code", "Redis.new(host: 'cache', password: ENV.fetch('REDIS_PASSWORD'))"),
        _l("code", '"ConnectionStrings": { "Db": "Host=db;Username=app;Password=${DB_PASSWORD}" }'),
        _l("disguised", "pass\u200bwd file: /etc/passwd"),
        _l("disguised", "\uff50\uff57\uff44 prints the working directory"),
        _l("list", "1. install\n2. configure\n3. restart"),
        _l("misc", "git remote add origin https://git.example.com/app.git"),
        _l("numbers", "the build took 1234567890 ns"),
        _l("numbers", "tracking 1Z 879 E83 03 1234 5678"),
        _l("placeholder", "password: <see onboarding doc>"),
        _l("placeholder", "OPENWEATHER_APPID=your_appid_here"),
    ]
