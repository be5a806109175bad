"""Numbers that identify a person or an account, validated by libraries made for them.

* Phone numbers: Google's libphonenumber (``phonenumbers``). Written internationally
  (``+44 …``, ``0044 …``) a number must be valid; written nationally it must be valid in one
  of the regions tried *and* grouped the way that region writes it (``030 12345678``,
  ``06 12 34 56 78``, ``(11) 91234-5678``), or follow a word that says it is a phone
  (``call``, ``mobile``, ``Handy``, ``móvil``, ``携帯``, ``sími``, ``মোবাইল``…), in which case
  a possible number is enough, and digits in groups (seven or more) are one in any country.
  ``SKU 123-456-7890``, dates, IP addresses and version strings never qualify, nor a number
  after an order's or a postcode's word (``pedido``, ``Bestellnummer``, ``CEP``), a
  business's line (``hotline``, ``Kundenservice``, ``service client``) or a toll-free or
  shared-cost number (``0800 …``, ``1-800-…``).
* Payment cards: 13 to 19 digits that pass python-stdnum's Luhn check and start with an
  issuer's prefix (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro, Mir,
  Troy, Napas, BC Card), separated by spaces, dashes or dots or not at all; after a card and
  its expiry (``10/27``), three or four digits standing alone in the same line (or on the
  next line, the card and its expiry each on a list item of their own) are its security code,
  whatever word names them (``الرمز 016``). A number said to be a test card (``Stripe's test
  card 4242 …``, ``Testkarte``, ``sandbox``) is no one's.
* IBANs in any case and spacing: python-stdnum's ``iban`` (country format and mod 97); a
  known country's IBAN whose check digits hold counts even when its account part does not;
  one broken over two lines counts when the two pieces make it.
* National identity numbers with check digits, through python-stdnum (US SSN and ITIN,
  Canadian SIN, French NIR, Spanish DNI/NIE, Italian codice fiscale, German Steuer-ID, Dutch
  BSN, Brazilian CPF, Indian Aadhaar and PAN, Swedish, Danish, Norwegian, Finnish, Polish,
  Swiss, Chinese, Mexican, Korean, Belgian, Turkish, Czech and Slovak (``rodné číslo``, its
  slash form), Thai (its dashed form), Indonesian (NIK) and Israeli ids, NHS numbers, Malaysian
  MyKad and Pakistani CNIC numbers by their dashed forms; their
  names in their own scripts too: ``身份证``, ``บัตรประชาชน``, ``תעודת זהות``), the UK's
  National Insurance number, Hong Kong's identity card (``A123456(3)``) and Russia's СНИЛС by
  our own checks; after their names, the JMBG, EMŠO and EMBG of the former Yugoslavia,
  Lithuanian, Latvian and Estonian personal codes, Greek AMKA, Moldovan IDNP, Kazakh ИИН,
  Iranian کد ملی, Ecuadorian, Dominican and Cuban identity numbers (``cédula``, ``carné``),
  Argentine CUIL, Peruvian DNI, Paraguayan RUC, Saudi identity numbers, Singapore NRIC,
  Taiwanese ids, Nigerian NIN and BVN, Egyptian national numbers, Guatemalan DPI, Costa Rican
  cédula, Andorran NRT, the Ghana Card; health and social insurance numbers (the German
  Krankenversichertennummer, British Columbia's PHN, Brazil's CNS, Mexico's NSS, the US
  Medicare MBI, PhilHealth, Japanese, Korean and Taiwanese insurance cards, the EHIC);
  Venezuela's RIF and El Salvador's NIT by their check digits
  (a long name may take an ending: ``fødselsnummeret``). A shape only ids use must pass the
  id's check;
  a plain run
  of digits needs the id's name before it (``SSN``, ``BSN``, ``PESEL``…), and is then taken
  whatever its check digit says.
* Tax numbers the same way: Polish NIP (``778-123-45-63``), Ukrainian ``РНОКПП``/``ІПН``,
  Russian ``ИНН``, Turkish VKN, Hungarian ``adóazonosító jel``, Philippine TIN, Kenyan KRA
  PIN, Slovenian ``davčna številka`` and Greek ``ΑΦΜ`` after their names, an Indonesian NPWP
  by its dotted form.
* Round eleven: the Belgian BIS number by python-stdnum's check, the US ATIN by its fixed
  group (``9XX-93-XXXX``), the Aadhaar VID, the Bulgarian ``ЛНЧ`` and the Norwegian
  ``D-nummer`` after their names; a card's sixteen digits as eight and eight, and a card's
  digits in pieces over lines or table rows after the card's word (``Dankort: 5019`` /
  ``8067 8444`` / ``5940``); Georgian phone words; no phone after an invoice's, an order's, a
  booking's or a postcode's word (``faktura``, ``ordernummer``, ``Postnummer``).
* Round twelve: the German Rentenversicherungsnummer by its check digit wherever it stands
  (``65 170839 J 003`` in a spreadsheet's column), El Salvador's ``DUI``, Brazil's ``RG``,
  Taiwan's resident certificate of 2021 (``B8…``) and Macau's card (``5215299(8)``) after their
  names; phone words of Khmer, Myanmar, Lao, the Indic scripts, Sinhala, Armenian and
  Mongolian, and Portuguese ``telemóvel``.
* A Polish NRB (an IBAN without its ``PL``) by its check digits alone; account numbers
  after their words are :mod:`dreamd.redaction.accounts`'.

The libraries are imported the first time a candidate needs them. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import import_module

from dreamd.redaction.finding import Finding
from dreamd.redaction.scan import trie

__all__ = ["find_numbers"]

_CANDIDATE = re.compile(r"[+(\d][\d .()/_-]{5,24}\d")
# What may stand right before a number: no letter, digit or joiner (CJK may touch a number),
# a phone's field name and its colon (``tel:``, a vCard's ``TYPE=cell:``), a colon after a
# word of another script (``携帯：``), or a comma that ends a field of a CSV line (a digit
# group of a thousands-grouped amount has three digits: ``1,250,000`` makes no candidate).
_BEFORE_NUMBER = re.compile(
    r"(?:(?i:tel|cell|mobile|phone|fax|voice):|[^\x00-\x7f]:|,|[^A-Za-z0-9_+.,/:-])$"
)
_DATE_OR_ADDRESS = re.compile(
    r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}|\d{1,3}(?:\.\d{1,3}){3}"
)
_PHONE_CUE = re.compile(
    r"(?i:phone|tel\b(?![ -]aviv)|tél|telef|teléf|téléph|mobile?|móvil|movil|cell|celular"
    r"|cellulare|handy|portable|fax|whatsapp|signal|call|(?<![a-z])ring(?![a-z])|text me|sms"
    r"|dial|hotline|helpline"
    r"|\bbel\b|chiam"
    r"|llam|ligue|appel|anruf|ruf\b|telep|sđt|sdt\b|điện thoại|dien thoai|(?:no\.?|nomor) hp\b"
    r"|gsm\b|cep\b|mob\b|mobitel|sími|simi\b|farsím|bimbit|simu\b|telefonu|puhelin)"
    r"|电话|手机|携帯|電話|휴대폰|전화|телефон|тел\b|моб\b|мобилен|मोबाइल|फ़ोन|फोन|মোবাইল|ফোন|هاتف|جوال"
    r"|موبايل|تلفن|موبایل|טלפון|נייד|โทร|ስልክ|ሞባይል|ტელეფონ|მობილურ"
    # and in more scripts: Khmer, Myanmar, Lao, Odia, Gujarati, Telugu, Tamil, Kannada,
    # Malayalam, Gurmukhi, Sinhala, Armenian, Mongolian; Portuguese's telemóvel
    r"|ទូរស័ព្ទ|ဖုန်း|ໂທລະສັບ|ମୋବାଇଲ|ଫୋନ|મોબાઇલ|ફોન|మొబైల్|ఫోన్|கைபேசி|தொலைபேசி|மொபைல்"
    r"|ಮೊಬೈಲ್|ಫೋನ್|മൊബൈൽ|ഫോൺ|ਮੋਬਾਈਲ|ਫ਼ੋਨ|ਫੋਨ|දුරකථන|ජංගම|հեռախոս|утас|(?i:telem[óo]vel)"
)
# Words that go with phones and with every other kind of number: they count only for a number
# written the way phones are, in groups ("my number is 0151 2345678"), never for bare digits.
_WEAK_CUE = re.compile(
    r"(?i:number(?!s)|numer|nummer|número|numéro|contact|reach|praxis|office|desk|line\b)"
    r"|ნომერ"
)
# A company's number in its register (``KvK``, ``IČO``, ``Organisasjonsnummer``, ``CVR``,
# ``ЄДРПОУ``): printed on its letters, no one's phone and no one's id.
_COMPANY_NUMBER = (
    r"kvk|kbo|ondernemingsnummer|organisasjonsnummer|org\.?\s?nr|orgnr|cvr|ičo|ico|dič"
    r"|y-tunnus|edrpou|єдрпоу|егрпоу|handelsregister|hrb|siren|siret|company\s+(?:number|no)"
    r"|registration\s+number|cnpj|ruc\s+de\s+la\s+empresa|abn|acn"
)
_ORDER_OR_COMPANY = rf"order\w*|invoice|ordre\w*|tilaus\w*|faktura\w*|{_COMPANY_NUMBER}"
_ORDER_CJK = r"注文番号|주문번호"
_NOT_PHONE_CUE = re.compile(
    r"(?i:\b(?:isbn|issn|sku|ticket|po|case|build|version|pid|port|epoch"
    r"|serial|tracking|id|ref|iban|ports|imei|account|routing|konto|ssn|sin|bsn|nhs|pesel|cpf"
    r"|aadhaar|steuer|population|visitors|pedido|commande|bestell\w*|auftrag\w*|ordine"
    r"|bestelling|encomenda|zamówieni\w*|заказ\w*|sipariş\w*|rastreio|zip|postcode|postal"
    r"|plz|objednávk\w*|rendelés\w*|bestilling\w*|factuur\w*|pesanan|rechnung\w*"
    r"|postnummer|postnr|booking|buchung\w*|reservation"
    rf"|fatura|factura|{_ORDER_OR_COMPANY})\b|{_ORDER_CJK})[^\n]{{0,12}}$"
)
# Words before a number that make it an order's or a company's, never a person's id.
_NOT_ID_CUE = re.compile(rf"(?i:\b(?:{_ORDER_OR_COMPANY})\b|{_ORDER_CJK})[^\n]{{0,12}}$")
# A line a business or a public service answers (a hotline, customer service, an emergency or
# a poison-control line): public, printed on its letters and signs.
_SERVICE_LINE = re.compile(
    r"(?i:hotline|helpline|customer\s+(?:service|care|support)"
    r"|kundenservice|kundendienst|service\s+client|atención\s+al\s+cliente|servicio\s+al"
    r"\s+cliente|atendimento|servizio\s+clienti|klantenservice|biuro\s+obsługi|müşteri"
    r"\s+hizmetleri|служба\s+поддержки|горячая\s+линия|toll[- ]free|notruf\b|giftnotruf"
    r"|giftinformation\w*|poison\s+(?:control|cent(?:er|re))|centre\s+antipoison)|客服|カスタマー"
)
# Brazil's CEP (01310-100) is a postcode; no phone is written five digits, a dash, three.
_CEP = re.compile(r"\d{5}-\d{3}")
_REGIONS = (
    "US", "GB", "DE", "FR", "ES", "IT", "NL", "BR", "JP", "IN", "AU", "CN", "MX", "PL", "TR",
    "VN", "ID",
)  # fmt: skip
# Words before a number that make it a product's or a parcel's, never a card's.
# Numbers a shop or a payment gives (a barcode, a transaction's reference): no card.
# A card's word, then its digits in pieces over lines or a table's rows (``Dankort: 5019`` /
# ``8067 8444`` / ``5940``; ``| card | 40243742 |`` / ``| (cont.) | 18793258 |``).
_CARD_WORD = re.compile(
    r"(?i:\b(?:card|cards|kort|dankort|karte|kaart|carte|tarjeta|cartão|carta|karta|kart)\b)"
    r"[ \t]*[:|]?[ \t|]*"
)
_CARD_PIECE = re.compile(r"(?:[ \t|]*\n?[ \t|]*(?:\([^()\n]{1,12}\)[ \t|]*)?)(\d{3,8})(?![\d/])")
_NOT_CARD_CUE = re.compile(
    r"(?i:\b(?:ean|gtin|upc|isbn|sku|barcode|tracking|imei|ref|reference|txn|trx|transaction"
    r"|receipt)\b)[^\n]{0,12}$"
)
_CARD_PREFIXES = (
    ("4", (13, 16, 19)),
    ("51 52 53 54 55 2221-2720", (16,)),
    ("34 37", (15,)),
    ("6011 644-649 65", (16, 17, 18, 19)),
    ("3528-3589", (16, 17, 18, 19)),
    ("300-305 36 38 39", (14, 15, 16, 17, 18, 19)),
    ("62", (16, 17, 18, 19)),
    ("50 56-69", (12, 13, 14, 15, 16, 17, 18, 19)),
    ("2200-2204", (16,)),
    ("9792", (16,)),
    ("9704", (16, 19)),
    ("94", (16,)),
)
# After a card: its expiry (``10/27``), then, in the same line or the next, three or four
# digits standing alone are its security code, whatever word (or none) names them.
_CODE_AFTER_EXPIRY = re.compile(
    r"[^\n\d]{0,40}?(?:\n[^\n\d]{0,20}?)?(?<![\d/])(?:0[1-9]|1[0-2])/(?:\d{2}|20\d{2})(?![\d/])"
    r"[^\n\d]{0,30}?(?:\n[^\n\d]{0,20}?)?(?<![\d/.,])(?P<code>\d{3,4})"
    r"(?![\d/.,]|[ \t]*(?:[%€$£]|\w))"
)
_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Za-z]{2}\d{2}(?P<sep>[ ./-]?)[A-Za-z0-9]{4}(?:(?P=sep)[A-Za-z0-9]{4}){1,6}"
    r"(?:(?P=sep)[A-Za-z0-9]{1,3})?"
)
_SPLIT_IBAN = re.compile(
    r"(?<![A-Za-z0-9])([A-Z]{2}\d{2}[A-Z0-9 ]{4,30}?)[ \t]*\n[ \t]*([A-Z0-9 ]{2,30}?)[ \t]*(?=\n|$)"
)
_IBAN_START = re.compile(r"\d\d([ ./-]?)[A-Za-z0-9]{4}\1[A-Za-z0-9]{4}")
_LETTER_ID = re.compile(r"[A-Z][A-Z0-9]{8,17}(?![A-Za-z0-9])")
# Ids of letters and digits in dashed groups (``1EG4-TE5-MK73``, ``F-198181-Z``), or a digit
# before letters (an MBI written whole), where no run of digits shows them.
_GROUPED_ID_NAMES = ("mbi", "medicare", "nrt", "ghana")  # the names of the ids shaped so
_GROUPED_ID = re.compile(
    r"(?<![\w-])[A-Z0-9]{1,4}-[A-Z0-9]{3,9}-[A-Z0-9]{1,4}(?![\w-])|\d[A-Z][A-Z0-9]{9}(?!\w)"
)
_BRACKETED_CHECK = re.compile(r"[A-Z]{1,2}\d{6}\([0-9A]\)")
# A Polish account number (NRB): an IBAN without its PL, 2 + 6 × 4 digits.
_NRB = re.compile(r"\d\d(?: ?\d{4}){6}(?![\w-])")
# The US Medicare Beneficiary Identifier: a digit, a letter, then letters (no S, L, O, I, B, Z)
# and digits in fixed places, in three groups.
_MBI = (
    r"[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-?[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y\d]\d-?"
    r"[AC-HJKMNP-RT-Y]{2}\d{2}"
)
# (pattern, python-stdnum module (or None: our own check), the id's names, needs a name)
_IDS: tuple[tuple[str, str | None, str, bool], ...] = (
    (r"\d{3}-\d{2}-\d{4}", "us.ssn us.itin", "ssn social security itin atin", False),
    # the US ATIN: its group is always 93 (python-stdnum checks no more than the digits)
    (r"9\d{2}-93-\d{4}", None, "", False),
    (r"\d{9}", "us.ssn", "ssn social security", True),
    (r"\d{9}", "pt.nif", "nif contribuinte", True),
    (r"\d{1,2}\.\d{3}\.\d{3}-[\dkK]", "cl.rut", "rut run", False),
    (r"[1-8]\d{12}", "ro.cnp", "cnp cod_numeric_personal", True),
    (r"\d{7}[A-W][A-IW]?", "ie.pps", "pps", True),
    (
        r"\d{4} ?\d{6}",
        "at.vnr",
        "svnr sv-nummer sozialversicherungsnummer versicherungsnummer",
        True,
    ),
    (r"\d{13}", "za.idnr", "id_number identity_number id_no", True),
    (r"\d{10}", "bg.egn", "егн egn лнч lnch", True),
    (r"\d{4} ?\d{4} ?\d{4}", "jp.in_", "マイナンバー 個人番号 my_number", True),
    (r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]", None, "", False),
    (r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]", None, "ni number nino national insurance", True),
    (
        r"\d{3}[ -]?\d{3}[ -]?\d{3}",
        "ca.sin nl.bsn",
        "sin social insurance nas bsn sofi burgerservicenummer",
        True,
    ),
    (r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3}(?: ?\d{2})?", "fr.nir", "", False),
    (r"\d{8}-?[A-Za-z]", "es.dni", "", False),
    (r"[XYZ]-?\d{7}-?[A-Za-z]", "es.nie", "", False),
    (
        r"[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z]",
        "it.codicefiscale",
        "",
        False,
    ),
    (r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", None, "codice fiscale cf", True),
    (r"\d{2} \d{3} \d{3} \d{3}", "de.idnr", "", False),
    (
        r"\d{2} ?\d{3} ?\d{3} ?\d{3}",
        None,
        "steuer steuer-id idnr tax id identifikationsnummer",
        True,
    ),
    (
        r"\d{11}",
        "de.idnr pl.pesel tr.tckimlik br.cpf no.fodselsnummer hr.oib",
        "steuer idnr tax id pesel tc kimlik tckn cpf fødselsnummer fodselsnummer oib",
        True,
    ),
    (r"\d{3}\.\d{3}\.\d{3}-\d{2}", "br.cpf", "", False),
    (r"[2-9]\d{3} \d{4} \d{4}", "in_.aadhaar", "", False),
    (r"\d{12}", "in_.aadhaar", "aadhaar aadhar आधार", True),
    (r"\d{4} ?\d{4} ?\d{4} ?\d{4}", "in_.vid", "vid virtual_id", True),
    (r"\d{12}", None, "cccd căn cước can cuoc cmnd", True),
    (r"784-?\d{4}-?\d{7}-?\d", "local.emirates", "emirates eid", False),
    (r"[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]", "in_.pan", "", False),
    (r"(?:\d{2})?\d{6}[-+]\d{4}", "se.personnummer dk.cpr", "", False),
    (r"\d{6}[-+A-FU-Y]\d{3}[0-9A-FHJ-NPR-Y]", "fi.hetu", "", False),
    (r"756\.\d{4}\.\d{4}\.\d{2}", "ch.ssn", "", False),
    (r"\d{17}[\dXx]", "cn.ric", "身份证 公民身份号码", False),
    (r"\d{6}/\d{3,4}", "cz.rc sk.rc", "rodné_číslo rodného_čísla rodne_cislo rč r.č.", False),
    (r"\d{9,10}", "cz.rc", "rodné_číslo rodného_čísla rodne_cislo rč r.č.", True),
    (r"\d-\d{4}-\d{5}-\d{2}-\d", "th.pin", "บัตรประชาชน ประจำตัวประชาชน", False),
    (r"\d{13}", "th.pin", "บัตรประชาชน ประจำตัวประชาชน", True),
    (r"\d{16}", "id.nik", "nik ktp nomor_induk_kependudukan", True),
    (r"\d{9}", "il.idnr", 'תעודת_זהות ת.ז ת"ז teudat_zehut', True),
    # Tax numbers: Polish NIP, Ukrainian РНОКПП/ІПН, Russian ИНН, Turkish VKN, Indonesian NPWP
    (r"\d{3}-\d{3}-\d{2}-\d{2}|\d{3}-\d{2}-\d{2}-\d{3}|\d{10}", "pl.nip", "nip", True),
    (r"\d{10}", "ua.rntrc", "рнокпп іпн ідентифікаційний_код ідентифікаційний_номер", True),
    (r"\d{10}|\d{12}", "ru.inn", "инн", True),
    (r"\d{10}", "tr.vkn", "vergi_kimlik vergi_no vkn", True),
    (r"\d{2}\.\d{3}\.\d{3}\.\d-\d{3}\.\d{3}", "id.npwp", "npwp", False),
    (r"[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z\d]\d", "mx.curp", "", False),
    (r"\d{6}-\d{7}", "kr.rrn", "", False),
    (r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", "be.nn be.bis", "", False),
    (r"\d{3} ?\d{3} ?\d{4}", "gb.nhs", "nhs", True),
    # JMBG (Serbia, Bosnia, Montenegro), EMŠO (Slovenia), EMBG (North Macedonia); Moldova's IDNP
    (
        r"\d{13}",
        None,
        "jmbg јмбг emšo emso embg ембг матични_број matični_broj maticni_broj idnp",
        True,
    ),
    # Lithuanian, Estonian personal codes; Greek AMKA
    (r"\d{11}", None, "asmens_kodas asmens_kodą asmens_kodo isikukood αμκα amka", True),
    (r"\d{6}-\d{5}", "lv.pvn", "personas_kods personas_kodu", True),
    # Kazakh ИИН, Iranian national code, Ecuadorian cédula, Saudi identity number
    (r"\d{12}", None, "иин жсн iin", True),
    (r"\d{10}", None, "کد_ملی کدملی cédula cedula الهوية رقم_الهوية iqama إقامة", True),
    (r"[STFGM]\d{7}[A-Z]", None, "nric fin", True),
    (r"[A-Z]{1,2}\d{6}\([0-9A]\)", "local.hkid", "", False),
    (r"[A-Z]{1,2}\d{6}[0-9A]", None, "hkid 香港身份證", True),
    (r"[A-Z][12]\d{8}", None, "身分證 身份證 國民身分證 身分證字號 身份證字號", True),
    (r"\d{6}-\d{2}-\d{4}", "my.nric", "mykad kad_pengenalan", False),
    (r"\d{12}", "my.nric", "mykad kad_pengenalan ic_number ic_no nric", True),
    (r"\d{5}-\d{7}-\d", "pk.cnic", "cnic", False),
    (r"\d{3}-\d{3}-\d{3}[ -]\d{2}", "local.snils", "снилс snils", False),
    # Tax numbers: Hungarian adóazonosító jel, Philippine and Kenyan (KRA) PINs, Slovenian
    # davčna številka, Greek ΑΦΜ
    (r"8\d{9}", None, "adóazonosító adoazonosito adóazonosító_jel", True),
    (r"\d{3}-\d{3}-\d{3}(?:-\d{3,5})?", None, "tin", True),
    (r"[AP]\d{9}[A-Z]", "ke.pin", "kra", True),
    (r"\d{3} ?\d{3} ?\d{3}", None, "taj taj_szám tajszám", True),
    # Mexico's RFC; Denmark's CPR and Norway's fødselsnummer written without their dash or
    # with a space; Bangladesh's NID (ten, thirteen or seventeen digits); Argentina's CBU
    (r"[A-Z&Ñ]{3,4}\d{6}[A-Z\d]{3}", "mx.rfc", "rfc", True),
    (r"\d{10}", "dk.cpr", "cpr cpr-nr cpr-nummer", True),
    (r"\d{6} \d{5}", "no.fodselsnummer", "fnr fødselsnummer fodselsnummer personnummer", True),
    (r"\d{17}|\d{13}|\d{10}", None, "nid এনআইডি জাতীয়_পরিচয়পত্র", True),
    (r"\d{22}", "ar.cbu", "cbu cvu", True),
    # Latin America: Argentine CUIL/CUIT and Dominican cédula by their dashed forms and check
    # digits; after their names, the Dominican and Cuban eleven digits, Peru's DNI with its
    # CUI check character, Paraguay's RUC
    (r"(?:20|2[3457]|3[034])-\d{8}-\d", "ar.cuit", "cuil cuit", False),
    (r"\d{3}-\d{7}-\d", "do.cedula", "cédula cedula", False),
    (r"\d{11}", None, "cédula cedula carné carnet", True),
    (r"\d{8}-[\dA-K]", None, "dni cui", True),
    (r"\d{1,2}\.\d{3}\.\d{3}", None, "dni", True),
    (r"\d{6,8}-\d", None, "ruc", True),
    (r"\d{8}", None, "davčna davcna davčna_številka", True),
    (r"\d{9}", None, "αφμ afm", True),
    # Health and social insurance after their names: Germany's Krankenversichertennummer,
    # British Columbia's PHN, Brazil's CNS, Mexico's NSS, the US Medicare MBI, PhilHealth,
    # Japanese, Korean and Taiwanese insurance cards, the European card (EHIC)
    (r"[A-Z]\d{9}", None, "krankenversichertennummer versichertennummer kvnr egk", True),
    (r"9\d{3} ?\d{3} ?\d{3}", None, "phn personal_health_number carecard", True),
    (
        r"[12789]\d{2} ?\d{4} ?\d{4} ?\d{4}",
        None,
        "cns cartão_nacional_de_saúde cartao_nacional_de_saude cartão_sus",
        True,
    ),
    (r"\d{11}", None, "nss imss", True),
    (_MBI, None, "mbi medicare_beneficiary", True),
    (r"\d{2}-\d{9}-\d", None, "philhealth", True),
    (r"\d{2}-\d{7}-\d", None, "sss", True),
    (r"\d{8}", None, "被保険者番号 保険者番号 保険証", True),
    (r"\d-\d{10}", None, "건강보험증 건강보험", True),
    (r"\d{4} \d{4} \d{4}", None, "健保卡號 健保卡 健保", True),
    (r"80\d{18}", None, "ehic european_health_insurance_card health_insurance_card", True),
    # Nigeria's NIN and BVN, Egypt's national number, Guatemala's DPI, Costa Rica's cédula,
    # Andorra's NRT and the Ghana Card after their names; Venezuela's RIF and El Salvador's
    # NIT by their check digits
    (r"\d{11}", None, "nin nimc bvn", True),
    (r"[23]\d{13}", None, "الرقم_القومي national_id", True),
    (r"\d{4} ?\d{5} ?\d{4}", None, "dpi", True),
    (r"[1-9]-\d{4}-\d{4}", None, "cédula cedula", True),
    (r"[A-Z]-?\d{6}-?[A-Z]", None, "nrt", True),
    (r"GHA-\d{9}-\d", None, "ghana_card", True),
    (r"[VEJPG]-?\d{8}-?\d", "ve.rif", "rif", False),
    (r"\d{4}-\d{6}-\d{3}-\d", "sv.nit", "nit", False),
    # Round twelve: the German Rentenversicherungsnummer by its check digit (a spreadsheet's
    # column holds it with no name before it); after their names, El Salvador's DUI, Brazil's
    # RG, Taiwan's resident certificate of the 2021 format and Macau's identity card
    (r"\d{2} ?[0-7]\d[01]\d{3} ?[A-Z] ?\d{3}", "local.rvnr", "", False),
    (r"\d{8}-\d", None, "dui", True),
    (r"\d{1,2}\.\d{3}\.\d{3}-[\dXx]", None, "rg registro_geral", True),
    (r"[A-Z][89]\d{8}", None, "居留證 居留证 統一證號 统一证号 arc", True),
    (r"[1578]\d{6}\(\d\)", None, "澳門居民身份證 澳门居民身份证 身份證 bir", True),
)


def _hkid_ok(value: str) -> bool:
    """Hong Kong's identity card: one or two letters, six digits, a mod-11 check digit."""
    compact = value.replace("(", "").replace(")", "")
    letters, digits, check = compact[:-7], compact[-7:-1], compact[-1]
    values = [36] * (2 - len(letters)) + [ord(c) - 55 for c in letters] + [int(c) for c in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    return "0123456789A"[(11 - total % 11) % 11] == check


def _snils_ok(value: str) -> bool:
    """Russia's СНИЛС: nine digits and a two-digit check (mod 101)."""
    digits = re.sub(r"\D", "", value)
    total = sum(int(c) * (9 - i) for i, c in enumerate(digits[:9]))
    check = total % 101 if total > 101 else total
    return f"{0 if check == 100 else check:02d}" == digits[9:]


def _rvnr_ok(value: str) -> bool:
    """Germany's Rentenversicherungsnummer: an area (two digits), a birth date (``DDMMYY``),
    the surname's initial, a serial (two digits) and a check digit: the initial as its place in
    the alphabet, the twelve digits weighted 2 1 2 5 7 1 2 1 2 1 2 1, their digit sums mod 10."""
    compact = value.replace(" ", "")
    day, month = int(compact[2:4]), int(compact[4:6])
    if not (1 <= day % 50 <= 31 and 1 <= month <= 12):
        return False
    digits = compact[:8] + f"{ord(compact[8]) - 64:02d}" + compact[9:11]
    total = sum(
        sum(divmod(int(d) * w, 10))
        for d, w in zip(digits, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1), strict=True)
    )
    return str(total % 10) == compact[11]


def _emirates_ok(value: str) -> bool:
    """The UAE's Emirates ID: 784, a year, seven digits and a Luhn digit, dashed or not."""
    return bool(_validator("luhn")(value.replace("-", "")))


_LOCAL_CHECKS: dict[str, Callable[[str], bool]] = {
    "local.hkid": _hkid_ok,
    "local.snils": _snils_ok,
    "local.emirates": _emirates_ok,
    "local.rvnr": _rvnr_ok,
}


@cache
def _validator(module: str) -> Callable[[str], bool]:
    if module in _LOCAL_CHECKS:
        return _LOCAL_CHECKS[module]
    checker: Callable[[str], bool] = import_module(f"stdnum.{module}").is_valid
    return checker


@cache
def _id_patterns() -> tuple[tuple[re.Pattern[str], tuple[str, ...], tuple[str, ...], bool], ...]:
    """The ids as patterns; the ids only a name makes one of (``\\d{10}`` after ``ИНН``,
    ``VKN`` or ``NIP``…) that share a shape share one pattern and all their names: with a
    name there, the module would not be asked anyway."""
    named_only: dict[str, list[str]] = {}
    for pattern, _, names, named in _IDS:
        if named:
            named_only.setdefault(pattern, []).extend(names.split())
    entries = [(p, m, n, False) for p, m, n, named in _IDS if not named]
    entries += [(p, "", " ".join(dict.fromkeys(n)), True) for p, n in named_only.items()]
    return tuple(
        (
            re.compile(r"(?<![A-Za-z0-9_.-])(?:" + pattern + r")(?![A-Za-z0-9_-]|\.\d)"),
            tuple(modules.split()) if modules else (),
            tuple(names.split()),
            named,
        )
        for pattern, modules, names, named in entries
    )


@cache
def _spelled(names: tuple[str, ...]) -> frozenset[str]:
    """The names as a text spells them (``id_number`` is two words)."""
    return frozenset(name.replace("_", " ") for name in names)


@cache
def _all_names() -> re.Pattern[str]:
    """Every id's name (as the text spells it: ``id_number`` is two words), as one trie."""
    names = {name.replace("_", " ") for _, _, group, _ in _IDS for name in group.split()}
    return trie(tuple(sorted(names)))


@cache
def _names(names: tuple[str, ...]) -> re.Pattern[str]:
    """The names as whole words; a long one may take an ending (``fødselsnummeret``)."""
    words = [re.escape(name).replace("_", " ") for name in names]  # ``id_number``: two words
    short = [w for w, name in zip(words, names, strict=True) if len(name) < 8]
    long = [w for w, name in zip(words, names, strict=True) if len(name) >= 8]
    parts = [r"(?:" + "|".join(short) + r")(?![a-z])"] if short else []
    if long:
        parts.append(r"(?:" + "|".join(long) + r")[^\W\d_]{0,3}(?![a-z])")
    return re.compile(r"(?<![a-z])(?:" + "|".join(parts) + r")")


def _named_before(text: str, start: int, names: tuple[str, ...]) -> bool:
    window = text[max(0, text.rfind("\n", 0, start) + 1, start - 40) : start].lower()
    return _names(names).search(window) is not None


def _nino_ok(value: str) -> bool:
    compact = value.replace(" ", "")
    return compact[:2] not in ("BG", "GB", "NK", "KN", "TN", "NT", "ZZ")


def _national_ids(text: str, low: str, spans: list[tuple[int, int]]) -> list[Finding]:
    found: list[Finding] = []
    names_at = _all_names()  # the names before the spans' numbers: where a name would stand
    present = {m.group(0) for a, b in spans for m in names_at.finditer(low, max(0, a - 40), b)}
    for pattern, modules, names, named in _id_patterns():
        if named and present.isdisjoint(_spelled(names)):
            continue  # an id only its name makes one of, and the name is nowhere in the text
        for start, end in spans:
            for match in pattern.finditer(text, start, end):
                if named and not _named_before(text, match.start(), names):
                    continue
                if not named and _NOT_ID_CUE.search(
                    text, max(0, match.start() - 40), match.start()
                ):
                    continue  # "注文番号 250117-0042": an order's number in an id's shape
                value = match.group(0)
                if named:
                    ok = True  # the id's name and its shape: a wrong check digit is still it
                elif not modules:
                    ok = _nino_ok(value)
                else:  # a number the id's name announces is that id, issued or not
                    ok = any(_validator(m)(value) for m in modules) or bool(
                        names and _named_before(text, match.start(), names)
                    )
                if ok:
                    found.append(Finding("national-id", match.start(), match.end()))
    return found


# Words that say a card's number is one published for testing (no one's card).
_TEST_CARD_CUE = re.compile(
    r"(?i:test(?:ing)?[ \t-]*(?:card|number|mode|karte|kaart)|sandbox|testkarte|carte\s+de\s+test"
    r"|tarjeta\s+de\s+prueba|cartão\s+de\s+teste|carta\s+di\s+test)[^\n]{0,24}$"
)


@cache
def _card_ranges() -> tuple[tuple[int, int, int, tuple[int, ...]], ...]:
    ranges = []
    for spec, lengths in _CARD_PREFIXES:
        for part in spec.split():
            low, _, high = part.partition("-")
            ranges.append((len(low), int(low), int(high or low), lengths))
    return tuple(ranges)


def _is_card(value: str, digits: str) -> bool:
    separators = {c for c in value if not c.isdigit()}
    if len(separators) > 1 or len(set(digits)) == 1:
        return False
    groups = [len(g) for g in re.split(r"[ ./_-]", value)]
    if separators and any(g > 6 for g in groups) and groups != [8, 8]:
        return False  # "6521 6703 …" or, as some receipts print it, "65216703-72666476"
    issuer = any(
        int(digits[:size]) in range(low, high + 1) and len(digits) in lengths
        for size, low, high, lengths in _card_ranges()
    )
    return issuer and bool(_validator("luhn")(digits))


def _groups(value: str) -> list[int]:
    return [len(g) for g in re.findall(r"\d+", value)]


def _is_phone(text: str, start: int, value: str, digits: str) -> bool:
    """A valid or possible number with a phone word before it, or written as a phone is: in
    the groups of a national format, or after ``+``. Bare digits need a phone word."""
    before = text[max(text.rfind("\n", 0, start) + 1, start - 40) : start]
    if _NOT_PHONE_CUE.search(before) or _CEP.fullmatch(value):
        return False
    if _SERVICE_LINE.search(before) or _toll_free(value):
        return False
    bare = value.isdigit()
    cue = _PHONE_CUE.search(before) is not None or (
        not bare and _WEAK_CUE.search(before) is not None
    )
    if bare and not cue:
        return False
    grouped = len(_groups(value)) > 1 and not value.startswith(("+", "00"))
    if grouped and len(digits) >= 7 and _PHONE_CUE.search(before) is not None:
        return True  # "sími 665 3954": a phone word, then digits in groups, in any country
    return _phone_number(value, digits, cue=cue)


@lru_cache(maxsize=4096)
def _toll_free(value: str) -> bool:
    """A free or shared-cost service number (0800 …, 1-800-…): a business's, never a
    person's."""
    import phonenumbers

    free = (phonenumbers.PhoneNumberType.TOLL_FREE, phonenumbers.PhoneNumberType.SHARED_COST)
    international = value.startswith(("+", "00"))
    candidate = value.replace("00", "+", 1) if value.startswith("00") else value
    for region in (None,) if international else _REGIONS:
        try:
            number = phonenumbers.parse(candidate, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            return phonenumbers.number_type(number) in free
    return False


@lru_cache(maxsize=4096)
def _phone_number(value: str, digits: str, *, cue: bool) -> bool:
    import phonenumbers

    international = value.startswith(("+", "00"))
    candidates = [value.replace("00", "+", 1) if value.startswith("00") else value]
    regions: tuple[str | None, ...] = (None,) if international else _REGIONS
    for region in regions:
        try:
            number = phonenumbers.parse(candidates[0], region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number):
            if international or cue:
                return True
            national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
            if _groups(national) == _groups(value) and len(_groups(value)) > 1:
                return True
        elif cue and phonenumbers.is_possible_number(number) and len(digits) >= 9:
            return True
    return False


def _candidates(
    text: str,
) -> tuple[list[tuple[int, str]], list[tuple[int, int]], list[int]]:
    """(start, text) of each stretch of digits and separators a number could be, the spans
    of every digit stretch (ids may carry letters right after their digits), and where the
    stretches of twenty digits or more start (a Polish NRB is longer than a candidate)."""
    found, spans, long_starts = [], [], []
    for match in _CANDIDATE.finditer(text):
        start, value, end = match.start(), match.group(0), match.end()
        spans.append((max(0, start - 24), end + 16))
        if start and not _BEFORE_NUMBER.search(text, max(0, start - 8), start):
            continue
        if len(value) >= 25 and sum(c.isdigit() for c in value) >= 20:
            long_starts.append(start)
        if end < len(text) and ((text[end].isascii() and text[end].isalnum()) or text[end] in "_-"):
            continue
        found.append((start, value.rstrip(" .-/(")))
    return found, spans, long_starts


def _card_at(start: int, value: str) -> Finding | None:
    """A card in ``value`` or in it cut at a separator (``4916 … 8624 12/29``)."""
    cut = value
    while cut:
        digits = re.sub(r"\D", "", cut)
        if 12 <= len(digits) <= 19 and _is_card(cut, digits):
            return Finding("payment-card", start, start + len(cut))
        if len(digits) < 12:
            return None
        cut = re.sub(r"[ ./_-]*[^ ./_-]*$", "", cut)
    return None


def _split_cards(text: str) -> list[Finding]:
    """A card's number in pieces after the card's word (see :data:`_CARD_WORD`): pieces of
    three to eight digits on up to four lines or rows that make a card with its issuer's prefix
    and Luhn's check digit."""
    found: list[Finding] = []
    for word in _CARD_WORD.finditer(text):
        pieces: list[tuple[int, int]] = []
        pos = word.end()
        while len(pieces) < 6:
            piece = _CARD_PIECE.match(text, pos)
            if piece is None:
                break
            pieces.append(piece.span(1))
            pos = piece.end()
            digits = "".join(text[a:b] for a, b in pieces)
            lines = text.count("\n", word.end(), pos)
            if lines and 13 <= len(digits) <= 19 and _is_card(digits, digits):
                found += [Finding("payment-card", a, b) for a, b in pieces]
                break
    return found


def find_numbers(text: str) -> list[Finding]:
    """Phones, cards, IBANs, national ids and account numbers (see the module rules)."""
    found: list[Finding] = []
    candidates, id_spans, long_starts = _candidates(text)
    for start, value in candidates:
        digits = re.sub(r"\D", "", value)
        card = _card_at(start, value) if len(digits) >= 12 else None
        if card is not None and (
            _NOT_CARD_CUE.search(text[max(0, start - 30) : start])
            or _TEST_CARD_CUE.search(text, max(0, start - 40), start)
        ):
            card = None
        if card is not None:
            found.append(card)
            code = _CODE_AFTER_EXPIRY.match(text, card.end)
            if code is not None:  # "… 10/27 الرمز 016": the card's code, whatever names it
                found.append(Finding("payment-card", *code.span("code")))
            continue
        if not 7 <= len(digits) <= 15 or _DATE_OR_ADDRESS.search(value):
            continue
        if _is_phone(text, start, value, digits):
            found.append(Finding("phone", start, start + len(value)))
    for match in _IBAN_START.finditer(text):
        begin = match.start() - 2
        if begin >= 0 and text[begin : match.start()].isalpha():
            iban = _IBAN.match(text, begin)
            if iban:
                found += _iban_at(iban.group(0), begin)
    low = text.lower()
    if "\n" in text and ("kort" in low or "card" in low or "kart" in low or "tarj" in low):
        found += _split_cards(text)
    if "\n" in text and ("iban" in low or "ибан" in low):
        found += _split_ibans(text)
    for start in long_starts:
        nrb = _NRB.match(text, start)
        if nrb is not None and _iban_ok("PL" + nrb.group(0).replace(" ", "")):
            found.append(Finding("bank-account", *nrb.span()))
    spans = id_spans + [(m.start(), m.end()) for m in _LETTER_ID.finditer(text)]
    if any(name in low for name in _GROUPED_ID_NAMES):
        spans += [(m.start(), m.end()) for m in _GROUPED_ID.finditer(text)]
    if "(" in text:  # a Hong Kong card's short digits, its check digit in brackets
        spans += [(m.start(), m.end()) for m in _BRACKETED_CHECK.finditer(text)]
    if spans:
        found += _national_ids(text, low, _merged(spans))
    return found


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    spans.sort()
    merged = [spans[0]]
    for start, end in spans[1:]:
        if start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


_IBAN_COUNTRIES = frozenset(
    "AD AE AL AT AZ BA BE BG BH BI BR BY CH CR CY CZ DE DJ DK DO EE EG ES FI FK FO FR GB GE GI"
    " GL GR GT HR HU IE IL IQ IS IT JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MN MR MT MU NI NL"
    " NO OM PK PL PS PT QA RO RS RU SA SC SD SE SI SK SM SO ST SV TL TN TR UA VA VG XK YE"
    # where IBANs are used though the registry python-stdnum follows lists them not (Iran's
    # Sheba, and the countries of the West and Central African banking unions)
    " IR DZ AO BJ BF CM CV CF CG CI GA GQ GW MA MG ML MZ NE SN TD TG".split()
)


def _iban_ok(value: str) -> bool:
    """python-stdnum's IBAN check; a country's IBAN whose check digits hold but whose account
    part breaks the country's format (a typo, a made-up bank code) still counts."""
    from stdnum import iban

    compact = re.sub(r"[ ./-]", "", value).upper()
    if iban.is_valid(compact):
        return True
    return (
        compact[:2] in _IBAN_COUNTRIES
        and 15 <= len(compact) <= 34
        and compact.isalnum()
        and compact[2:4] == iban.calc_check_digits(compact)
    )


def _split_ibans(text: str) -> list[Finding]:
    """An IBAN the line broke in two (``IE69 AIBK 9311\n5212 3456 78``): the end of a line
    and the start of the next that together, and only together, are an IBAN."""
    found = []
    for match in _SPLIT_IBAN.finditer(text):
        head, tail = match.group(1), match.group(2)
        if not _iban_ok(head.rstrip()) and _iban_ok(head + tail):
            found.append(Finding("iban", match.start(1), match.end(2)))
    return found


def _iban_at(value: str, start: int) -> list[Finding]:
    """The longest prefix of ``value`` (cut at a group) that is an IBAN."""
    cut = len(value)
    while cut >= 15:
        if _iban_ok(value[:cut]):
            return [Finding("iban", start, start + cut)]
        space = max(value.rfind(sep, 0, cut) for sep in " ./-")
        cut = space if space > 0 else cut - 1
    return []
