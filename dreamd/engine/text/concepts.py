"""Concept tags: up to eight topic words per snippet, used by REM themes and deep scoring.

Source text is the note's name (extension and date prefix removed) and the snippet. Candidates
come in this order: protected glossary terms (short technical words that would otherwise be
filtered), compound tokens (``a.b``, ``a/b``, ``a-b``), then words. Each is NFKC-normalised,
trimmed of punctuation, lowercased, with ``_`` turned into ``-``. Dropped: longer than 32
characters, all digits, dates, shorter than 3 characters (2 for CJK; kana-only needs 3), and
stop words in English, Spanish, French, German, CJK particles, file extensions and words that
describe the machinery rather than the memory (agent, memory, user...).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import PurePosixPath

from dreamd.engine.text.tokens import is_cjk

__all__ = ["FILE_EXTENSIONS", "MAX_CONCEPT_TAGS", "STOP_WORDS", "concept_tags"]

MAX_CONCEPT_TAGS = 8
_MAX_TAG_CHARS = 32

_SHARED = """
about after again agent agents also always another any anything around assistant assistants
because been before being below between both bot but came can cannot could did does doing done
down during each either else even ever every few from further get gets getting going gone got
had has have having here how however into its itself just know last later like made make many
may maybe memory memories might more most much must need needs never new next now off often
once only other others our out over own per please quite rather really right said same see
session sessions should since some something still such sure system take than that their them
then there these they thing things this those though through thus today tomorrow too under
until upon use used user users using very via want was way well went were what when where
whether which while who whom whose why will with within without workspace would yes yesterday
yet year years your yours
"""
_ENGLISH = """
and are for the you not all any can her his him she its our out one two three has had was
were been this that these those with from into onto than then them they what when who why
how yes nor but off own too very will just don didn doesn isn wasn aren won wouldn shouldn
couldn hasn haven hadn ain let lets i'm i've i'll it's that's there's
"""
_SPANISH = """
que los las una uno unos unas del por para con sin sobre entre pero como más mas muy ese esa
eso esos esas este esta esto estos estas aquel aquella sus tus mis nos vos ellos ellas usted
ustedes donde cuando porque también tambien fue fueron ser son está estan están hay han había
habia hacer hace hizo todo toda todos todas otro otra otros otras cada aquí aqui allí alli así
asi ya
"""
_FRENCH = """
les des une est sont pas pour par avec sans dans sur sous mais comme plus très tres ces cet
cette ses leur leurs nous vous ils elles qui que quoi dont où ou aussi été etre être avoir
fait faire tout tous toute toutes autre autres chez entre donc alors ainsi encore déjà deja
ici là
"""
_GERMAN = """
der die das den dem des ein eine einer eines einem einen und oder aber nicht mit von für fur
auf aus bei nach über uber unter vor zum zur ist sind war waren wird werden wurde wurden hat
haben hatte sich auch noch schon sehr wie was wer wo wann warum dass daß kein keine mehr nur
alle alles dies diese dieser dieses jetzt hier dort heute
"""
_CJK_PARTICLES = """
の は が を に へ と で や も か な ね よ から まで より です ます した する して いる ある
的 了 是 在 和 与 或 也 都 就 而 及 这 那 个 们 我 你 他 她 它 吗 呢 吧
은 는 이 가 을 를 에 의 와 과 도 로 으로 에서 하다 있다
"""
_EXTENSIONS = """
md txt json jsonl yaml yml toml ts tsx js jsx py rs go java rb sh csv tsv log html css xml
ini cfg conf lock sql png jpg jpeg gif pdf
"""

FILE_EXTENSIONS: frozenset[str] = frozenset(_EXTENSIONS.split())
STOP_WORDS: frozenset[str] = frozenset(
    word
    for block in (_SHARED, _ENGLISH, _SPANISH, _FRENCH, _GERMAN, _CJK_PARTICLES, _EXTENSIONS)
    for word in block.split()
)

# Short or common technical words that carry a memory's topic; they bypass the length filter.
_GLOSSARY = re.compile(
    r"(?<![\w])(backups?|embeddings?|failover|gateway|glacier|gpt|kv|network|openai|qmd|router"
    r"|s3|vlan|sauvegardes?|passerelle|routeur|réseau|sicherungs?|netzwerk|respaldos?"
    r"|enrutador|バックアップ|ゲートウェイ|ネットワーク|备份|网关|网络|路由器|백업|게이트웨이|네트워크)"
    r"(?![\w])",
    re.IGNORECASE,
)
_COMPOUND = re.compile(r"[^\W_]+(?:[._/-][^\W_]+)+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(?:\.[a-z0-9]+)?$")
_DATE_PREFIX = re.compile(r"^\d{4}-\d{2}-\d{2}-?")
_EDGE = re.compile(r"^[^\w]+|[^\w]+$")


def _is_kana(char: str) -> bool:
    return 0x3040 <= ord(char) <= 0x30FF


def _normalize(token: str) -> str:
    text = unicodedata.normalize("NFKC", token)
    text = _EDGE.sub("", text)
    return text.replace("_", "-").lower()


def _keep(tag: str) -> bool:
    if not tag or len(tag) > _MAX_TAG_CHARS or tag.isdigit() or _DATE.match(tag):
        return False
    if tag in STOP_WORDS:
        return False
    if any(is_cjk(char) for char in tag):
        if all(_is_kana(char) for char in tag):
            return len(tag) >= 3
        return len(tag) >= 2
    return len(tag) >= 3


def _name_words(path: str) -> str:
    """A note's name without extension and date (``2026-11-12-launch.md`` -> ``launch``)."""
    return _DATE_PREFIX.sub("", PurePosixPath(path).stem)


@lru_cache(maxsize=4096)
def concept_tags(path: str, snippet: str) -> tuple[str, ...]:
    """The first eight distinct concept tags of ``basename(path) + " " + snippet`` (pure, so
    remembered: replaying the searches recorded ahead tags the same snippets again and again)."""
    text = f"{_name_words(path)} {snippet}"
    seen: dict[str, None] = {}
    glossary = [(m.start(), _normalize(m.group(0))) for m in _GLOSSARY.finditer(text)]
    candidates = [tag for _, tag in sorted(glossary)]
    candidates += [_normalize(m.group(0)) for m in _COMPOUND.finditer(text)]
    candidates += [_normalize(m.group(0)) for m in _WORD.finditer(text)]
    for position, tag in enumerate(candidates):
        is_glossary = position < len(glossary)
        if tag in seen or not (is_glossary or _keep(tag)):
            continue
        seen[tag] = None
        if len(seen) == MAX_CONCEPT_TAGS:
            break
    return tuple(seen)
