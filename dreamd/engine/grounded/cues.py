"""Cue words: how the grounded preview tells a lasting statement from the chatter of a day.

A statement is matched against a handful of lexicons (English, Spanish, French, German, plus
common Chinese, Japanese and Korean cues). Each lexicon is a *category* with a polarity and a
weight; a category counts once per statement however many of its cues match:

| category      | polarity    | weight | examples                                                  |
|---------------|-------------|--------|-----------------------------------------------------------|
| decision      | durable     | 3      | decided, from now on, always, a partir de ahora           |
| preference    | durable     | 3      | prefers, dislikes, le gusta, préfère, bevorzugt, 喜欢     |
| ownership     | durable     | 3      | owns, responsible for, a cargo de, zuständig für, 负责    |
| relationship  | durable     | 3      | partner, wife, sister, pareja, épouse, Schwester, 妻子    |
| configuration | durable     | 2      | runs on, version, port, läuft auf, 配置                   |
| specifics     | durable     | 1      | a version number, host:port, an IP, a path, `code`        |
| time          | situational | 2      | today, right now, for now, ayer, ce soir, gestern, 今天   |
| chatter       | situational | 2      | lunch, coffee, weather, meeting, café, Wetter, 天气       |
| task          | situational | 1      | need to, todo, follow up, hay que, il faut, 待办          |
| hedge         | uncertain   | -      | maybe, not sure, quizás, peut-être, vielleicht, 也许, "?" |

A heading above the statement adds its own evidence: a durable heading ("Decisions",
"Preferences", "Setup", "Lecciones", "Regeln"...) adds 2 to the durable side, a situational one
("Log", "Standup", "Todo", "Reunión", "Aufgaben"...) adds 1 to the situational side.

The lean of a statement: **unclear** when it hedges (or asks); **likely_durable** when the
durable weight is at least 2 and larger than the situational weight; **likely_situational** when
there is situational weight at least as large as the durable one; **unclear** otherwise (no cue
at all). Text is NFKC-normalised and lowercased first; Latin cues match whole words or runs of
words (looked up as word n-grams, so a year of notes is read quickly; a cue ending in ``*``
matches a word's start), CJK cues match anywhere. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from dreamd.redaction import holds_secret

__all__ = ["CATEGORIES", "Cues", "Lean", "Lexicon", "heading_cues", "is_sensitive", "read_cues"]

Lean = Literal["likely_durable", "unclear", "likely_situational"]

_DECISION = """
decided, decide to, decision, decisions, we will, we'll, going forward, from now on, settled on,
agreed, agreement, chose, chosen, opted for, switched to, moved to, migrated to, standardized on,
standardised on, policy, the rule is, always, never, no longer, must always, must never,
decidimos, decidí, decidió, decidieron, decisión, acordamos, acordado, a partir de ahora,
de ahora en adelante, en adelante, elegimos, optamos por, cambiamos a, migramos a, siempre, nunca,
ya no, regla, política, a partir de agora, combinamos, sempre,
décidé, décidons, décision, convenu, nous allons, désormais, dorénavant,
à partir de maintenant, à l'avenir, choisi, opté pour, migré vers, toujours, jamais, ne plus,
règle, politique,
entschieden, entscheidung, beschlossen, vereinbart, ab jetzt, ab sofort, künftig, zukünftig,
in zukunft, umgestellt auf, migriert, immer, niemals, nie wieder, nicht mehr, regel, richtlinie,
决定, 以后, 今后, 从现在起, 总是, 永远, 一律, 決定, 決めた, 今後, これから, 常に, 결정, 앞으로, 항상
"""
_PREFERENCE = """
prefer, prefers, preferred, preference, preferences, likes, loves, dislikes, hates, favorite,
favourite, would rather, doesn't like, does not like, don't like, do not like, can't stand,
allergic, enjoys, vegetarian, vegan,
prefiere, prefiero, preferimos, preferencia, le gusta, me gusta, les gusta, le encanta, odia,
favorito, favorita, alérgico, alérgica, vegetariano, vegetariana,
préfère, préférons, préférence, aime, aimons, adore, déteste, favori, préféré, préférée,
allergique, végétarien, végétarienne,
bevorzugt, bevorzuge, vorliebe, lieber, mag, mögen, liebt, hasst, lieblings*, allergisch,
vegetarier, vegetarisch,
喜欢, 偏好, 讨厌, 最爱, 好き, 嫌い, 好み, 좋아, 싫어, 선호
"""
_OWNERSHIP = """
owns, owner, owned by, ownership, responsible for, in charge of, maintains, maintainer,
maintained by, point of contact, on-call, on call, reports to, manages, managed by, leads,
handles, assigned to, belongs to,
responsable de, encargado de, encargada de, a cargo de, dueño, dueña, propietario, propietaria,
mantiene, gestiona, lidera, pertenece a, asignado a, asignada a,
en charge de, chargé de, chargée de, propriétaire, s'occupe de, maintient, gère, dirige,
appartient à, assigné à, assignée à,
verantwortlich für, zuständig für, besitzer, besitzerin, eigentümer, eigentümerin,
kümmert sich um, betreut, leitet, gehört, zugewiesen an, ansprechpartner, ansprechpartnerin,
负责, 负责人, 属于, 担当, 責任者, 담당
"""
_RELATIONSHIP = """
partner, partners, wife, husband, spouse, girlfriend, boyfriend, fiance, fiancee, fiancé,
fiancée, married to, engaged to, sister, brother, mother, father, mom, mum, dad, daughter, son,
grandmother, grandfather, grandma, grandpa, aunt, uncle, cousin, niece, nephew, best friend,
pareja, esposa, esposo, marido, novia, novio, prometida, prometido, casado con, casada con,
hermana, hermano, madre, padre, mamá, papá, hija, hijo, abuela, abuelo, tía, tío, prima, primo,
partenaire, épouse, époux, mari, copine, copain, fiancée à, marié à, mariée à, sœur, soeur,
frère, mère, père, fille de, fils de, grand-mère, grand-père, tante, oncle,
partnerin, ehefrau, ehemann, freundin, verlobte, verlobter, verheiratet mit, schwester, bruder,
mutter, vater, tochter, sohn, großmutter, großvater, oma, opa, tante, onkel, cousine, cousin,
伴侣, 妻子, 丈夫, 老婆, 老公, 女朋友, 男朋友, 未婚妻, 未婚夫, 姐姐, 妹妹, 哥哥, 弟弟, 妈妈, 爸爸,
母亲, 父亲, 女儿, 儿子, 妻, 夫, 彼女, 彼氏, 婚約者, 姉, 妹, 兄, 弟, 母, 父, 娘, 息子, 아내, 남편,
여자친구, 남자친구, 약혼자, 언니, 누나, 오빠, 형, 엄마, 아빠, 딸, 아들
"""
_CONFIGURATION = """
runs on, running on, hosted on, hosted at, deployed to, deployed on, lives in, lives at,
located in, located at, based in, configured, configuration, config, set to, defaults to,
default is, uses, installed, version, port, endpoint, domain, hostname, server, database,
timezone, time zone, birthday, born on, account, repository, stored in, backed up to, backup,
backups,
se ejecuta en, corre en, alojado en, alojada en, desplegado en, vive en, ubicado en, configurado,
configurada, configuración, usa, utiliza, versión, puerto, servidor, base de datos,
zona horaria, cumpleaños, cuenta, repositorio, copia de seguridad,
tourne sur, hébergé sur, hébergée sur, déployé sur, habite à, habite en, situé à, configuré,
configurée, utilise, serveur, base de données, fuseau horaire, anniversaire, compte, dépôt,
sauvegarde,
läuft auf, gehostet auf, gehostet bei, wohnt in, befindet sich in, konfiguriert, konfiguration,
eingestellt auf, nutzt, verwendet, benutzt, datenbank, zeitzone, geburtstag, konto, sicherung,
配置, 版本, 端口, 服务器, 数据库, 设置为, 部署在, 运行在, 住在, 生日, 設定, バージョン, ポート,
サーバー, 誕生日, 설정, 버전, 서버
"""
_TIME = """
today, tonight, this morning, this afternoon, this evening, right now, just now, at the moment,
currently, for now, temporarily, for the time being, later, tomorrow, yesterday, this week,
next week, earlier, soon,
hoy, esta mañana, esta tarde, esta noche, ahora mismo, en este momento, por ahora,
por el momento, temporalmente, más tarde, mañana, ayer, esta semana, la próxima semana, pronto,
aujourd'hui, ce matin, cet après-midi, ce soir, en ce moment, pour l'instant, pour le moment,
temporairement, plus tard, demain, hier, cette semaine, la semaine prochaine, bientôt,
tout à l'heure,
heute, heute morgen, heute abend, gerade, im moment, momentan, vorerst, vorübergehend, später,
morgen, gestern, diese woche, nächste woche, bald,
今天, 今晚, 今早, 现在, 暂时, 明天, 昨天, 本周, 今日, 今夜, 今朝, 明日, 昨日, 今週, 一時的, 오늘,
내일, 어제, 지금
"""
_CHATTER = """
lunch, coffee, breakfast, dinner, snack, weather, rain, raining, sunny, tired, sleepy, hungry,
traffic, commute, chatted, small talk, said hi, hello, thanks, thank you, lol, haha, bored, nap,
gym, meeting, standup, stand-up, call with, sync with, caught up with,
almuerzo, almorzamos, café, desayuno, cena, clima, lluvia, llueve, cansado, cansada, tráfico,
reunión, charlamos, gracias, hola, jaja, aburrido, siesta, gimnasio,
déjeuner, petit-déjeuner, dîner, météo, pluie, il pleut, fatigué, fatiguée, embouteillage,
réunion, discuté, bavardé, merci, bonjour, salut, sieste, salle de sport,
mittagessen, kaffee, frühstück, abendessen, wetter, regen, müde, stau, besprechung, geplaudert,
danke, hallo, langweilig, nickerchen, fitnessstudio,
午饭, 午餐, 咖啡, 早饭, 晚饭, 天气, 下雨, 累了, 开会, 谢谢, 哈哈, ランチ, コーヒー, 天気, 疲れ,
会議, ありがとう, 점심, 커피, 날씨, 회의
"""
_TASK = """
todo, to-do, need to, needs to, have to, has to, should, must, remember to, don't forget,
follow up, follow-up, check on, look into, waiting on, waiting for, blocked on, next step,
pendiente, hay que, tengo que, tenemos que, debo, recordar, no olvidar, seguimiento, revisar,
à faire, il faut, je dois, nous devons, penser à, ne pas oublier, relancer, vérifier, en attente,
zu erledigen, muss, müssen, sollte, nicht vergessen, nachfassen, prüfen, warten auf,
待办, 需要, 记得, やること, 해야
"""
_HEDGE = """
maybe, might, perhaps, possibly, probably, not sure, unsure, unclear, consider, considering,
thinking about, wondering, wonder if, could we, should we, tbd, to be decided, open question,
tal vez, quizás, quizá, a lo mejor, posiblemente, probablemente, no estoy seguro,
no estoy segura, no sé, pensando en,
peut-être, possiblement, probablement, pas sûr, pas sûre, je ne sais pas, envisager,
réfléchir à,
vielleicht, eventuell, möglicherweise, wahrscheinlich, nicht sicher, unsicher, überlegen,
也许, 可能, 或许, 不确定, 考虑, たぶん, かもしれない, 多分, 아마
"""
_DURABLE_HEADINGS = """
decision*, preference*, facts, fact, retain, setup, set-up, configuration, config, settings,
owner*, contacts, rules, rule, polic*, lesson*, learned, learnings, convention*, glossary,
infrastructure, stack, profile, people, identity,
decisiones, preferencias, hechos, configuración, ajustes, responsables, contactos, reglas,
políticas, lecciones, aprendizajes, perfil,
décisions, préférences, faits, paramètres, règles, leçons, apprentissages, profil,
entscheidungen, präferenzen, vorlieben, fakten, einstellungen, verantwortliche, kontakte,
regeln, lektionen, erkenntnisse,
决定, 偏好, 配置, 规则, 教训, 決定事項, 設定
"""
_SITUATIONAL_HEADINGS = """
log, journal, diary, timeline, standup, stand-up, meeting*, todo, to-do, tasks, agenda,
schedule, today, scratch, random,
registro, diario, reunión, reuniones, tareas, pendientes, hoy,
réunion, réunions, tâches, à faire, aujourd'hui,
protokoll, tagebuch, besprechung, besprechungen, aufgaben, termine, heute,
日志, 会议, 待办, 今日, 会議
"""
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SPECIFICS = re.compile(
    r"\bv?\d+\.\d+(?:\.\d+)*\b"  # a version number
    r"|\b\d{1,3}(?:\.\d{1,3}){3}\b"  # an IPv4 address
    r"|\b[a-z][\w.-]*:\d{2,5}\b"  # host:port
    r"|(?:^|\s)(?:~|/)[\w.-]+/[\w./-]+"  # a path
    r"|`[^`]+`"  # inline code
    r"|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\.(?:com|net|org|io|dev|local|internal|lan)\b"  # a host
)
_QUESTION = re.compile(r"[?？]\s*$")
_TOKEN = re.compile(r"\w+(?:['\-]\w+)*")


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace("’", "'").lower()


@dataclass(frozen=True)
class Lexicon:
    """Cue lists of several categories, matched by word n-grams (see the module rules)."""

    phrases: dict[str, frozenset[str]]  # "from now on" -> {"decision"}
    stems: tuple[tuple[str, str], ...]  # ("lieblings", "preference")
    cjk: tuple[tuple[str, str], ...]  # ("决定", "decision")
    longest: int  # words in the longest phrase
    openers: frozenset[str]  # first words of the phrases of two or more words

    @classmethod
    def of(cls, lists: dict[str, str]) -> Lexicon:
        """Build from ``{category: "cue, cue, ..."}``."""
        phrases: dict[str, set[str]] = {}
        stems: list[tuple[str, str]] = []
        cjk: list[tuple[str, str]] = []
        for category, words in lists.items():
            for raw in words.replace("\n", " ").split(","):
                cue = _normalise(" ".join(raw.split()))
                if not cue:
                    continue
                if _CJK.search(cue):
                    cjk.append((cue, category))
                elif cue.endswith("*"):
                    stems.append((cue.rstrip("*"), category))
                else:
                    phrases.setdefault(" ".join(_TOKEN.findall(cue)), set()).add(category)
        longest = max((phrase.count(" ") + 1 for phrase in phrases), default=1)
        frozen = {phrase: frozenset(names) for phrase, names in phrases.items()}
        openers = frozenset(phrase.split(" ")[0] for phrase in phrases if " " in phrase)
        return cls(frozen, tuple(stems), tuple(cjk), longest, openers)

    def categories(self, normal: str) -> set[str]:
        """The categories whose cues occur in the already normalised ``normal``."""
        words = _TOKEN.findall(normal)
        found: set[str] = set()
        for start, word in enumerate(words):
            hit = self.phrases.get(word)
            if hit:
                found |= hit
            if word not in self.openers:
                continue
            for stop in range(start + 2, min(len(words), start + self.longest) + 1):
                hit = self.phrases.get(" ".join(words[start:stop]))
                if hit:
                    found |= hit
        for prefix, category in self.stems:
            if category not in found and any(word.startswith(prefix) for word in words):
                found.add(category)
        if self.cjk and _CJK.search(normal):
            found |= {category for cue, category in self.cjk if cue in normal}
        return found


# category -> (polarity, weight)
CATEGORIES: dict[str, tuple[str, int]] = {
    "decision": ("durable", 3),
    "preference": ("durable", 3),
    "ownership": ("durable", 3),
    "relationship": ("durable", 3),
    "configuration": ("durable", 2),
    "specifics": ("durable", 1),
    "time": ("situational", 2),
    "chatter": ("situational", 2),
    "task": ("situational", 1),
}
_STATEMENT_CUES = Lexicon.of(
    {
        "decision": _DECISION,
        "preference": _PREFERENCE,
        "ownership": _OWNERSHIP,
        "relationship": _RELATIONSHIP,
        "configuration": _CONFIGURATION,
        "time": _TIME,
        "chatter": _CHATTER,
        "task": _TASK,
        "hedge": _HEDGE,
    }
)
_HEADING_CUES = Lexicon.of({"durable": _DURABLE_HEADINGS, "situational": _SITUATIONAL_HEADINGS})
DURABLE_HEADING_WEIGHT = 2
SITUATIONAL_HEADING_WEIGHT = 1


@dataclass(frozen=True, slots=True)
class Cues:
    """The categories a statement matched, the evidence on each side, and its lean."""

    categories: tuple[str, ...]
    durable: int
    situational: int
    hedged: bool

    @property
    def lean(self) -> Lean:
        """``likely_durable``, ``unclear`` or ``likely_situational`` (see the module rules)."""
        if self.hedged:
            return "unclear"
        if self.durable >= 2 and self.durable > self.situational:
            return "likely_durable"
        if self.situational and self.situational >= self.durable:
            return "likely_situational"
        return "unclear"

    @property
    def strength(self) -> int:
        """How much more durable than situational the statement reads."""
        return self.durable - self.situational


@lru_cache(maxsize=1024)
def heading_cues(heading: str | None) -> tuple[int, int]:
    """(durable, situational) weight a heading adds to the statements under it."""
    if not heading:
        return 0, 0
    found = _HEADING_CUES.categories(_normalise(heading))
    durable = DURABLE_HEADING_WEIGHT if "durable" in found else 0
    situational = SITUATIONAL_HEADING_WEIGHT if "situational" in found else 0
    return durable, situational


def read_cues(text: str, heading: str | None = None, *, open_task: bool = False) -> Cues:
    """Match ``text`` (under ``heading``) against every lexicon."""
    normal = _normalise(text)
    found = _STATEMENT_CUES.categories(normal)
    if _SPECIFICS.search(normal):
        found.add("specifics")
    if open_task:
        found.add("task")
    matched = tuple(name for name in CATEGORIES if name in found)
    durable, situational = heading_cues(heading)
    for name in matched:
        polarity, weight = CATEGORIES[name]
        if polarity == "durable":
            durable += weight
        else:
            situational += weight
    hedged = "hedge" in found or _QUESTION.search(normal) is not None
    return Cues(matched, durable, situational, hedged)


def is_sensitive(text: str) -> bool:
    """True for text that holds a secret or personal data (:func:`dreamd.redaction.holds_secret`,
    the one redaction): it is never copied anywhere."""
    return holds_secret(text)
