"""What lasts: a fact worth durable memory, or what only happened.

A statement is **lasting** when it states one of these (cue words in English, with the common
German, French and Spanish forms):

* ``identity``: who someone is or how they relate ("is my partner", "our accountant", "works at",
  "lives in", "birthday", "allergic to", "goes by");
* ``preference``: "prefers", "likes", "dislikes", "favourite", "would rather", "can't stand";
* ``rule``: "always", "never", "must", "don't", "make sure", "only ... after", "policy";
* ``procedure``: a lesson or a way of doing something ("lesson", "learned", "next time", "the
  fix is", "turns out", "remember to", "to <do>, <do>", "use X for Y");
* ``schedule``: a standing arrangement ("every Tuesday", "on Thursdays", "weekly", "nightly",
  "each month", "pickup", "rota");
* ``decision``: "decided", "agreed", "going with", "we'll use", and a change of any earlier fact
  (:mod:`~dreamd.engine.facts.statement`'s change cues: moved, switched, no longer,
  correction, instead of, reversed, cancelled);
* ``fact``: a project or contact fact ("deadline", "budget", "rate", "invoice", "pays", "net
  30", "contract", "client", "runs on", "hosted", "address", "account", "version"), or a
  statement of how a named thing is ("The NAS is in the basement cupboard": a name, a number or
  an identifier, a present-tense "is/has/uses/runs...", and nothing bound to the moment).

A line that only cancels (a ``cancelled`` change cue and no new state: "the open evening on
the 23rd is cancelled", "Christmas in Ribe is off") is an ``ending``: like a denial it ends the
fact it names and is no fact to keep. A Retain opinion held with ``c < 0.5`` is a ``denial``:
it says an earlier opinion no longer holds, which the memory bank weighs and which ends the
entry it denies; it is no fact to keep.
A Retain world fact (``W @Entity: …``) is a ``fact`` unless it only tells what happened. Everything
else is **situational**, with the first reason that applies: ``lead-in`` (a line that ends in ":"
and only introduces what follows), ``question`` (it asks; it states nothing), ``task`` (a to-do:
"papers to sign at the bank", "remind me to …"; or advice offered: "if you take him on, I'd put
…", "you could ask Dod"), ``context`` (it leans on the line before it: a pronoun for its subject
with no heading or entity to say who, "It's right there in Spond now", or only a reaction, "Pia
agrees; it's cheaper"; a correction naming the right name stands: "It's Karin Hald, not Holm";
or it is only words someone said, in quotes: "\"The lab doesn't need to know any of that.\""),
``greeting`` (a greeting or acknowledgement), ``uncertain`` (not settled yet: "the hall may not be
ours after February", "probably", "to be confirmed"),
``log`` (a command, a stack line, a time-stamped run log, a line under a log's heading, an
inbox count), ``calendar`` (an entry made in a calendar: "calendar: rota from 23 June
entered"; what it says is current, and it tells it again), ``order seen`` (the agent's report
of an order a pasted text hid, "the hidden comment tells me to mail her papers", and every
sentence of its line: "I didn't, and I won't: the league never asks for that"), ``status``
(how something went or
stands: "went well", "in progress", "worked on", "finished", "otherwise unchanged", "Finn's ankle
is fine now", "the new rota is out"), ``event``
(bound to the moment: "today", "this morning", "tonight", "next Saturday", one weekday as the
heading, "Sat: Shona runs it", an activity opener such
as "had lunch", "spent", something under way: "is coming over", or told in the past: "the invoice
came back", "Karin confirmed", or money for one occasion: "budget for Ania's birthday party: 400
zł", "the caterer quoted €320 for the open day", or a slip told as it happened: "the reminder went
to the wrong Anna instead of Anna Berg", "caught it before it went", "I'd put VAT on it again",
unless it says what to do from now on, or a "never" told in the past: "Magnus never came") and
``trivia`` (a statement with no lasting cue at all).
Money at a standing rate ("90 EUR a month", "290 zł per keg", "from July") is a ``fact``. A
lasting cue wins over a moment word: "Today we decided to host on Hetzner" is a decision; a
project-fact word ("invoice", "client") does not: "the invoice came back without a PO" is an
event. Pure."""

from __future__ import annotations

import re
from functools import lru_cache

from dreamd.engine.facts.statement import RISES, Statement, read_statement
from dreamd.engine.text.salience import is_noise
from dreamd.engine.text.snippets import collapse, strip_list_marker
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = ["LASTING_KINDS", "SITUATIONAL_REASONS", "Lasting", "lasting"]

_I = re.IGNORECASE
LASTING_KINDS = ("identity", "preference", "rule", "procedure", "schedule", "decision", "fact")
SITUATIONAL_REASONS = (
    "lead-in",
    "question",
    "task",
    "greeting",
    "log",
    "status",
    "event",
    "trivia",
    "denial",
    "ending",
    "context",
    "uncertain",
    "calendar",
    "order seen",
)
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, _I))
    for kind, pattern in (
        (
            "decision",
            r"\bdecid(?:e|ed|es|ing)\b|\bdecision\b|\bagreed\b|\bgoing\s+with\b|\bchose\b|"
            r"\bchosen\b|\bwe'?ll\s+(?:use|go|keep|stay|switch|host|move|book|hire|pay)\b|"
            r"\bwe\s+will\s+(?:use|go|keep|stay|switch|host|move|book|hire|pay)\b|"
            r"\bsettled\s+on\b|(?<!-)\bsigned\b(?!\s+(?:it\s+|them\s+|that\s+)?off\b)|\bcommitted\s+to\b|\bentschieden\b|\bbeschlossen\b|"
            r"\bdécid|\bdecidimos\b|\bdecidido\b",
        ),
        (
            "preference",
            r"\bprefer(?:s|red|ence)?\b|\blikes?\b|\bdislikes?\b|\bloves?\b|\bhates?\b|"
            r"\bfavou?rite\b|\bwould\s+rather\b|\b(?:i|we|he|she|they)['’]d\s+rather\b|\bcan'?t\s+stand\b|\benjoys?\b|"
            r"\bvegetarian\b|\bvegan\b|\bbevorzugt\b|\bmag\b|\bpréfère\b|\baime\b|"
            r"\bprefiere\b|\ble\s+gusta\b",
        ),
        (
            "rule",
            r"\balways\b|(?<!'d\s)(?<!’d\s)(?<!\bhad\s)\bnever\b(?!\s+(?:came|went|showed|turned|"
            r"arrived|called|rang|replied|answered|got|sent|paid|happened|did|heard|said|wrote|"
            r"texted|emailed|phoned|returned|bothered|told|asked|turned\s+up|showed\s+up)\b)|\bmust\b|\bdon'?t\b|\bdo\s+not\b|\bmake\s+sure\b|\bpolicy\b|"
            r"\brule\b|\bneeds?\s+(?:the|a|an|to)\b|\brequires?\b|\bhas\s+to\b|"
            r"\bno\s+more\s+than\b|\bat\s+most\b|"  # a limit: "no more than six per instructor"
            r"\bhave\s+to\b|\bshould\b|\bonly\s+(?:after|before|on|in|via|by|with|if|when)\b|"
            r"\bno\s+\w+\s+"
            r"(?:before|after|on)\b|\bimmer\b|\bnie(?:mals)?\b|\btoujours\b|\bjamais\b|"
            r"\bsiempre\b|\bnunca\b",
        ),
        (
            "procedure",
            r"\blesson\b|\blearn(?:ed|t)\b|\bnext\s+time\b|\bthe\s+fix\s+(?:is|was)\b|"
            r"\bturns\s+out\b|\bremember\s+to\b|\bhow\s+to\b|\bsteps?\b|\bworks\s+(?:if|when|"
            r"only)\b|\buse\s+\S+\s+(?:for|to|when)\b|\bthe\s+fix\b|"
            r"\bchecks?\s+(?:\S+\s+){1,4}(?:before|first)\b|"
            r"\bgelernt\b|\bleçon\b|\baprend",
        ),
        (
            "schedule",
            rf"\bevery\s+(?:other\s+)?(?:{_DAY}|day|week|weekday|morning|evening|night|month|"
            rf"quarter|year|\d+\s+\w+|(?:two|three|four|five|six|eight|ten|twelve)\s+"
            rf"(?:days|weeks|months))\b|\beach\s+(?:{_DAY}|week|month|morning|evening)\b|"
            rf"\bon\s+{_DAY}s\b|\b{_DAY}s\b|\b{_DAY}\s+(?:mornings|afternoons|evenings|nights)\b|"
            rf"\bweekly\b|\bdaily\b|\bnightly\b|\bmonthly\b|"
            rf"\bfortnightly\b|\bbiweekly\b|\byearly\b|\bannual(?:ly)?\b|\bpick-?ups?\b|"
            rf"\brota\b|\brotation\b|\b(?:\d+|one|two|three|four|five|six|seven|eight|ten|"
            rf"fourteen)\s+(?:days?\s+|weeks?\s+)?on,?\s+(?:\d+|one|two|three|four|five|six|seven|"
            rf"eight|ten|fourteen)\s+(?:days?\s+|weeks?\s+)?off\b|\bworks?\s+(?:nights|days|"
            rf"weekends|shifts|lates|earlies|nine\s+to\s+five)\b|\bschedule[ds]?\b|\bappointments?\b|\blessons?\b|\bclass(?:es)?\s+"
            rf"(?:on|at|is|are)\b|\b(?:is|are)\s+(?:on|at)\s+{_DAY}\b|\bjeden\b|\bchaque\b|"
            rf"\bcada\b",
        ),
        (
            "identity",
            r"\bis\s+(?:my|our|his|her|their|the)\s+(?:\w+\s+){0,2}(?:partner|wife|husband|"
            r"son|daughter|kid|child|mother|mom|mum|father|dad|brother|sister|friend|boss|"
            r"manager|client|customer|contact|accountant|doctor|dentist|vet|neighbou?r|"
            r"colleague|lawyer|landlord|teacher|coach|assistant|owner|lead|founder|ceo|cto|"
            r"designer|developer|supplier|vendor|agent|broker|gp|therapist|nanny|babysitter)\b|"
            r"\bis\s+(?:(?:a|an|the|my|our)\s+)?(?:[\w-]+\s+){0,3}(?:engineer|translator|interpreter|reviewer|"
            r"bookkeeper|accountant|manager|architect|consultant|editor|nurse|vet|physio|"
            r"plumber|electrician|mechanic|tutor|trainer|pm|lead|director|head|secretary|"
            r"receptionist|partner|member|volunteer|student|pupil|roofer|builder|joiner|"
            r"carpenter|tiler|painter|decorator|gardener|cleaner|childminder|optician|"
            r"pharmacist|hairdresser|caretaker|treasurer|solicitor|surveyor|installer|fitter|"
            r"mason|welder|coordinator|officer|pilot|skipper|driver|courier)\b|"
            # names before the colon ("Trude Kalvestad:", "Dr de Vries:"), not "Solveig told her:"
            r"^[^\W\d_][\w'’-]+(?:\s+(?:(?-i:[A-ZÀ-ÖØ-Þ])[\w'’-]*|(?-i:[a-zó]{1,3})(?=\s)))"
            r"{0,3}:\s+(?:[\w-]+\s+){0,2}(?:reviewer|translator|interpreter|"
            r"bookkeeper|accountant|manager|engineer|lawyer|doctor|dentist|contact|client|"
            r"teacher|coach|designer|developer|consultant|editor|vet|nurse|owner|founder|"
            r"roofer|builder|joiner|plumber|electrician|mechanic|tiler|gardener|cleaner|"
            r"treasurer|solicitor|surveyor|officer|secretary|landlord|landlady|pilot|skipper|"
            r"driver|courier)\b|"
            r"\b(?:is|are)\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}[\w-]+(?:er|or|ist|ian|ant|ent)\b|"
            r"\bworks\s+(?:at|for|as|in)\b|\blives\s+(?:in|at|on|near)\b|\bborn\b|"
            r"\b(?:covers|handles|manages|leads|owns|looks\s+after|takes\s+care\s+of|"
            # "runs the shop", not "the certificate runs out on 31 October"
            r"runs(?!\s+(?:out|late|over|low|short|until|till|dry)\b)|"
            r"is\s+responsible\s+for|is\s+in\s+charge\s+of|is\s+on-call)\b|\bon-call\b|"
            r"\bbirthday\s+(?:is|falls|on)\b|\bborn\s+on\b|\ballergic\b|\bgoes\s+by\b|\bnamed\b|"
            r"\b(?:is|are|'s)\s+called\b|\bmarried\b|"
            r"\bmy\s+(?:partner|wife|husband|son|daughter|mother|father|brother|sister)\b|"
            r"\baged?\s+\d+\b|\b\d+\s+years?\s+old\b",
        ),
        (
            "fact",
            r"\bdeadline\b|\bdue\s+(?:on|by|date)\b|\bbudget\b|\brate\b|\bprice[ds]?\b|"
            r"\binvoices?\b|\bpays?\b|\bnet\s+\d+\b|\bcontract\b|\bclient\b|\bretainer\b|"
            r"\bruns\s+on\b|\bhosted\b|\baddress\b|\baccount\b|\bversion\b|\bpassword\s+"
            r"manager\b|\bsubscription\b|\bplan\s+is\b|\bfee\b|\bsalary\b|\bhourly\b|\bper\s+"
            r"(?:hour|day|month)\b|\bcode\s+is\b|\blocated\b|\bbased\s+in\b|\bcapacity\b|"
            r"\blicen[cs]e\b|\bwarranty\b|\binsurance\b|\bpolicy\s+number\b|\bstands?\s+for\b",
        ),
    )
)
_LOG = re.compile(
    r"^\s*(?:\$\s|>\s|#!|\[(?:info|warn|warning|error|debug)\]|(?:\d{1,2}:\d{2}(?::\d{2})?\s+"
    r"(?:started|finished|ran|run|deployed|ok|done|fail))|(?:traceback|at\s+\w+\.\w+\())|"
    r"\b(?:exit\s+code|exit\s+status|stdout|stderr|pid\s+\d+|\d+\s+passed|\d+\s+failed)\b",
    _I,
)
# A line under a log's heading ("Run log: custody calendar updated"), and an inbox count.
_LOG_HEADING = re.compile(
    r"^(?:(?:run|work|activity|daily|agent|sync|change)\s*-?\s*log|log|logbook|changelog)$", _I
)
# What the agent entered in a calendar ("calendar: rota from 23 June entered", "custody
# calendar: handovers on Mondays from 2 October"): the record of an edit, whose fact is told
# where it was decided.
_CALENDAR = re.compile(r"^(?:[\w'’-]+\s+)?calendar\s*:\s", _I)
_INBOX = re.compile(r"^\s*(?:inbox|mail|e-?mail)\s+\d{1,2}[:.]\d{2}\b", _I)
# "Nelly's rota is out": published, the news of a day, whatever the word for what came out
_PUBLISHED = re.compile(
    r"\b(?:rota|roster|schedule|timetable|results?|fixtures?|minutes|newsletter|draft|list)\s+"
    r"(?:is|are)\s+(?:now\s+)?out\s*(?:[.!;,]|$)",
    _I,
)
# What a pasted text asked of the agent, reported: "The hidden comment in the middle tells me
# to mail her identity papers …", "the white text at the bottom asks the assistant to …": the
# news of an attempt, not a rule (and never the order itself).
_ORDER_SEEN = re.compile(
    r"\b(?:hidden|white|invisible|tiny|small[- ]print)\s+(?:\w+\s+)?(?:text|comment|line|note|"
    r"message|instruction)s?\b[^.;]{0,60}\b(?:tells?|asks?|wants?|instructs?|orders?|says?)\b",
    _I,
)
_STATUS = re.compile(
    r"\bwent\s+(?:well|fine|ok|okay|great|badly|smoothly)\b|\bin\s+progress\b|\bon\s+track\b|"
    r"\bworked\s+on\b|\bworking\s+on\b|\bfinished\b|\bwrapped\s+up\b|\bstill\s+(?:waiting|"
    r"pending|open)\b|\bwaiting\s+(?:for|on)\b|\bblocked\s+on\b|\bdone\b|\bcompleted\b|"
    r"\bsent\b|\bsubmitted\b|\bcaught\s+up\b|\bno\s+news\b|\bnothing\s+new\b|\bstatus\b|"
    r"\bprogress\b|\bgood\s+(?:day|call|meeting|session)\b|"
    r"\bstands\s+at\b|\bbalance\s+(?:is|was|of|stands|now|:)|\bcurrently\s+at\b|"  # a running sum
    r"\bso\s+far\b|\bto\s+date\b",
    _I,
)
# A slip counted: "third time this month I've done that", "I've done it again".
_SLIP_COUNTED = re.compile(
    r"\b(?:(?:second|third|fourth|fifth|another)\s+time|again)\b[^.;]{0,40}?"
    r"\b(?:I'?ve|I\s+have|we'?ve|we\s+have|I|we)\s+(?:done|made|did)\s+(?:that|this|it)\b"
    r"|\b(?:I'?ve|I\s+have|we'?ve)\s+(?:done|made)\s+(?:that|this|it)\s+again\b",
    _I,
)
# A slip told as it happened: caught, sent to the wrong one, done again. The pattern library
# keeps it (dreamd.engine.dreamwork.recurrence); MEMORY.md keeps the rule it taught, if any.
_SLIP = re.compile(
    r"\bcaught\s+it\b|\bby\s+mistake\b|\bmistakenly\b|\bmix(?:ed)?[- ]?up\b|\bno\s+harm\b|"
    r"\bshould(?:n't|n’t|\s+not)\s+(?:have\s+)?happen|\bmy\s+(?:fault|doing|slip|bad)\b|"
    r"\b(?:went(?:\s+out)?|(?:was|were|got)\s+sent|sent|delivered|forwarded|addressed)\s+to\b"
    r"[^.;]{0,80}\b(?:instead\s+of|rather\s+than)\b|"
    r"\b(?:had|'d|’d)\s+[^.;]{0,40}\bagain\b",
    _I,
)
# What a slip taught, said forward: such a line is a rule or lesson, not the slip.
_FORWARD = re.compile(
    r"\bfrom\s+now\s+on\b|\bnext\s+time\b|\bgoing\s+forward\b|\bin\s+future\b|"
    r"\bthe\s+rule\b|\balways\b|\bmust\b|\bmake\s+sure\b|\bremember\s+to\b",
    _I,
)
# A line that says nothing changed states no fact of its own.
_UNCHANGED = re.compile(
    r"\b(?:is|are|stays?|remains?)\s+(?:otherwise\s+|still\s+)?unchanged\b|"
    r"\b(?:does(?:n't|n’t|\s+not)|do(?:n't|n’t|\s+not)|won't|will\s+not)\s+change\b|"
    r"\bnothing\s+else\s+(?:in\s+\S+\s+)?changes\b|"
    # "the inspection stays on Thursday": what was already so, said again
    rf"\b(?:stays?|remains?)\s+(?:on|at)\s+(?:the\s+same\b|{_DAY}\b(?!s))",
    _I,
)
_MOMENT = re.compile(
    r"\b(?:today|tonight|yesterday|tomorrow|this\s+(?:morning|afternoon|evening|week)|last\s+night|"
    r"(?:next|this|last)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"just\s+now|earlier|right\s+now|at\s+the\s+moment|heute|gestern|aujourd'hui|hier|hoy|"
    r"ayer)\b",
    _I,
)
_NEW_STATE = re.compile(
    r"\binstead\b|\bnow\b|\bstay(?:s|ing)?\b|\bkeep(?:s|ing)?\b|\bremain(?:s|ing)?\b|"
    r"\bgoing\s+with\b|\bfrom\s+now\b|\brather\b|;\s*\w+\s+(?:is|are|will)\b",
    _I,
)
_ONE_OFF_KINDS = frozenset({"schedule"})
_RECURS = re.compile(
    rf"\bevery\b|\beach\b|\b{_DAY}s\b|\bweekly\b|\bdaily\b|\bnightly\b|\bmonthly\b|"
    rf"\b{_DAY}\s+(?:nights|evenings|mornings|afternoons)\b|"
    r"\bfrom\s+now\s+on\b|\bfrom\s+(?:next|this)\b|\bnow\s+on\b|\buntil\s+further\b",
    _I,
)
_ACTIVITY = re.compile(
    r"^(?:worked|spent|had|did|went|answered|attended|reviewed|looked|talked|met|chatted|"
    r"walked|cleaned|tried|took|got|grabbed|picked\s+up|dropped\s+off|called|emailed|texted|"
    r"replied|wrote|read|watched|bought|ordered|made|cooked|visited|saw|heard|drove|ran|"
    r"lost|found|forgot|broke|fixed|started|opened|closed|sent|paid|booked)\b",
    _I,
)


class Lasting(Value):
    """The verdict on one statement: lasting (with its kind) or situational (with why)."""

    __match_args__ = ("durable", "kind")
    __slots__ = __match_args__
    durable: Final[bool]
    kind: Final[str]  # one of LASTING_KINDS when durable, else one of SITUATIONAL_REASONS

    def __init__(self, durable: bool, kind: str) -> None:
        self.durable, self.kind = durable, kind

    @property
    def reason(self) -> str:
        """The words a report or ``promote-explain`` uses."""
        if self.durable:
            return self.kind
        return {
            "lead-in": "a lead-in that only introduces what follows",
            "question": "a question, which states nothing",
            "task": "a task to do (pending.md keeps those)",
            "greeting": "a greeting or acknowledgement",
            "log": "a log line",
            "status": "a status line",
            "event": "what happened that day",
            "trivia": "no lasting fact",
            "denial": "an opinion held with confidence below 0.5: it denies, the bank weighs it",
            "ending": "it only cancels what it names: the entry it ends leaves MEMORY.md",
            "context": "it leans on the line before it (a pronoun says who or what)",
            "uncertain": "not settled yet: it may, might or probably will be so",
            "calendar": "an entry made in a calendar: what it says is told where it was decided",
            "order seen": "the report of an order a pasted text hid, and what was done about it",
        }[self.kind]


def _lead_in(text: str) -> bool:
    return collapse(strip_list_marker(collapse(text))).rstrip().endswith(":")


_PAST = re.compile(
    r"\b(?:was|were|had|came|went|sent|got|did|took|bounced|arrived|returned|answered|phoned|"
    r"called|emailed|texted|confirmed|told|asked|wrote|said|replied|forgot|missed|lost|found|"
    r"broke|fixed|tried|spent|started|finished|delivered|received|paid|booked|drove|ate|"
    r"rang(?!\s*\d)|"  # not "Rang 9", a cheese's name
    r"left|began|bought|brought|thought|caught|fell|felt|met|saw|spoke|stood|woke|"
    r"(?<![\d,.]\s)won|"  # not "800,000 won a month", the currency
    r"(?-i:sat)(?!\s*\d)|"  # not "Sat 6 Dec", the day
    r"sang|gave|ran|swam|wore|drew|threw|grew|knew|rode|shook|"
    r"hadn't|didn't|wasn't|weren't)\b|"
    # a participle is no past after "is": "tickets are sold by Swish", "held on Mondays"
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bget\s)(?<!\bgets\s)"
    r"\b(?:held|kept|made|sold)\b(?!\s+(?:in|at|on|by|with|under|behind|inside)\b)|"
    r"\b\w+ed\s+(?:back|up|out|off|over)\b|"
    r"^(?:I|We|He|She|They|It|[A-Z][\w'-]+)\s+(?!need|us|bas|nam|call)\w+[^e\W]ed\b|"
    r"^(?:I|we)\s+(?:just\s+|also\s+)?(?:set|put|let|cut|read|quit|shut|hit)\b|"
    # a note's shorthand past at a clause's end: "Pauli violin photographed; form filled in."
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bget\s)(?<!\bgets\s)"
    r"(?<=[a-z]\s)[a-z]{3,}[^e\W]ed(?:\s+(?:in|up|out|off|back|over))?\s*(?:;|\.?\s*$)",
    _I,
)
# A story told in the past perfect: "I had set it for 18:00 on the server's clock, which runs on
# UTC" says how a slip came about; "I'd like" and "she had to" are no such story.
_STORY = re.compile(
    r"^(?:I|we|he|she|they|[A-Z][\w'’-]+)(?:\s+had|'d|’d)\s+(?:already\s+|just\s+|only\s+)?"
    r"(?!got\b|been\s+\w+ing\b)\w+(?:ed|en|wn|t|un|ung|de|id|et|ut|ught)\b",
    _I,
)
# Praise of how something was done: "Slow and thorough, the way it should be done."
_PRAISE = re.compile(
    r"\b(?:the\s+way|how|as)\s+(?:it|that|this|things)\s+(?:should|ought\s+to|must)\b|"
    # "eight visits, never a bad word": a record, not a rule
    r"\bnever\s+(?:a|one|any)\s+(?:bad\s+|single\s+)?(?:word|complaint|problem|issue|fault|"
    r"hitch|remark|note)s?\b",
    _I,
)
# A question typed without its mark: "ok. how much is Ren's club money again"
_ASKED = re.compile(
    r"(?:^|[.!]\s+)(?:(?:so|and|ok|okay|oh|but)[,\s]+)?(?:how\s+(?:much|many|long|often|far)|what|when|where|who|which(?!\s+is\s+why))"
    r"\s+(?:is|are|was|were|do|does|did|can|could|should|will|would)\b",
    _I,
)
_TASK = re.compile(
    r"^\s*(?:\[\s\]|todo\b|to-do\b|remind\s+me\b|(?:please\s+)?(?:tell|let)\s+me\b)|"
    r"\blet\s+me\s+know\b|^(?:\S+\s+){0,3}to\s+(?:sign|send|buy|book|"
    r"call|ring|email|e-mail|ask|check|pick\s+up|bring|print|order|post|collect|chase)\b",
    _I,
)
# one thing that must be done once: "The Þverá plat has to be redone in ISN2016 before it goes
# in", "the boiler needs to be serviced by Friday" (not "invoices have to be checked")
_ONE_JOB = re.compile(
    r"^\s*the\s+(?:[\w'’-]+\s+){1,4}?(?:has|needs)\s+to\s+be\s+[\w-]+\b"
    r"(?![^.;]*\b(?:always|every|each|whenever|when|if|never|you|we|anyone|everyone|whoever)\b)",
    _I,
)
_MONEY = re.compile(
    r"[$€£¥]\s?\d|\d(?:[\d.,\s]*\d)?\s?(?:[$€£¥]|(?:eur|usd|gbp|pln|chf|sek|nok|dkk|czk|"
    r"zł|zl|kr|kč|euros?|dollars?|pounds?|francs?|crowns?|złoty|zloty)\b)|"
    r"\b(?:eur|usd|gbp|pln|chf)\s?\d|\bbudget\b|\bprices?\b|\bcosts?\b|\bquoted?\b|"
    r"\bfees?\b|\bfares?\b|\bdeposit\b",
    _I,
)
_OCCASIONS = (
    r"party|trip|conference|offsite|wedding|present|gift|repair|festival|holiday|birthday|"
    r"anniversary|launch|concert|outing|excursion|funeral|christening|celebration|reunion|"
    r"retreat|graduation|gala|prom"
)  # what a budget or a price is named for: "the party budget"; "for the party" takes more
_OCCASION = re.compile(
    r"\bfor\s+(?:the|a|an|our|my|his|her|their|this|that|[\w'-]+'s)\s+(?:[\w'-]+\s+){0,3}?"
    rf"(?:{_OCCASIONS}|parties|away\s+day|open\s+day|move|do|tasting|visit|dinner|lunch|"
    r"vacation|event|show|stag|hen|day\s+out|weekend|match|tournament|fair|exhibition|"
    r"ceremony|opening|leaving\s+do|send-off|bbq|barbecue|picnic|dance)\b|"
    rf"\b(?:{_OCCASIONS})\s+(?:budget|price|cost|fee|fund|quote)\b|"
    r"\bone-(?:off|time)\b|\bthis\s+time\b|\bfor\s+the\s+(?:day|weekend|evening|night)\b|"
    r"\bon\s+the\s+\d{1,2}(?:st|nd|rd|th)\b|\b(?:quoted?|quotes)\s+(?:for|us)\b|"
    rf"\b{_DAY}'s\b",
    _I,
)
_STANDING = re.compile(
    r"\bper\s+(?:hour|day|week|month|year|night|word|page|lesson|session|visit|shift|term|"
    r"class|unit|item|kg|kilo|litre|liter|keg|can|bottle|pint|box|case|pallet|seat|person|"
    r"user|licen[cs]e|line|minute)\b|\ban?\s+(?:hour|day|week|month|year|night|term|lesson|"
    r"session|visit|shift)\b|\bstandard\b|\busual(?:ly)?\b|\bregular(?:ly)?\b|"
    r"\blist\s+price\b|\bfrom\s+(?:now|next|then|january|february|march|april|may|june|"
    r"july|august|september|october|november|december|\d)",
    _I,
)
# A line that leans on the one before it: its subject is a pronoun ("It's right there in Spond
# now", "She agreed", "They're coming Thursday"), and no heading or Retain entity says who.
# Times the line before gave: "… those weeks", "on these dates" (of the trial just named).
_THOSE_TIMES = re.compile(
    r"\b(?:those|these)\s+(?:two\s+|three\s+|four\s+|few\s+)?(?:weeks?|days|dates|nights|"
    r"months|evenings|mornings|weekends)\b",
    _I,
)
_LEANS = re.compile(
    # or it goes on from it: "Not to the family, not to anyone.", "Nor on the radio."
    r"^(?:(?:so|and|but|then)\s+(?=(?:it|he|she|they)\b))?"
    r"(?:(?:not|nor|or|and|but)\s+(?:to|for|with|in|on|at|even|from|by|about)\b|"
    r"it|it's|it’s|that's|that’s|they|they're|they’re|he|he's|he’s|she|"
    r"she's|she’s|them|(?:that|this)\s+(?:is|was|isn't|isn’t|wasn't|wasn’t)\b|"
    r"(?:these|those)\s+(?:are|were)\b)\b",
    _I,
)
_IT = re.compile(r"\b(?:it|that|this|them)\b", _I)
# A habit's one occasion, told in the past: "Solveig rang Mamma at 19:00, as every Sunday".
_AS_USUAL = re.compile(r"\bas\s+(?:every|each|always|usual|ever)\b|\blike\s+every\b", _I)
# Words quoted: a rule cue said inside them is what someone said, not a rule of ours.
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”|„[^“”\n]*[“”]|«[^»\n]*»")
# Nothing settled yet: "Nothing decided.", "Not decided yet", "no decision on the van".
_UNDECIDED = re.compile(
    r"\b(?:nothing|not|never|hasn't|haven't|hasn’t|haven’t|isn't|isn’t)\s+(?:yet\s+|been\s+)?"
    r"decided\b|\bundecided\b|\bno\s+decision\b|\bnothing\s+(?:settled|agreed|fixed)\b|"
    r"\bnot\s+(?:yet\s+)?(?:settled|agreed)\b",
    _I,
)
# Not settled yet: "The hall may not be ours on Mondays after February; the board decides on
# Sunday", "probably", "to be confirmed".
# A conversion between units: "45 km/h is 12.5 m/s", "30 lb = 13.6 kg" (a sum, not a fact).
_UNIT = (
    r"(?:km/h|kph|mph|m/s|knots?|kts|kg|kilos?|lbs?|pounds|g|oz|ounces|°\s?[cf]|degrees|km|"
    r"miles?|mi|m|metres?|meters?|cm|mm|ft|feet|foot|inch(?:es)?|in|l|litres?|liters?|ml|"
    r"gallons?|gal|pints?|hpa|mbar|psi|bar|kpa|kw|hp)"
)
_CONVERSION = re.compile(
    rf"(?:^|[\s(])\d[\d.,]*\s?{_UNIT}\s+(?:is|are|=|equals|makes)\s+(?:about\s+|roughly\s+|"
    rf"around\s+|~\s?)?\d[\d.,]*\s?{_UNIT}(?![\w/])",
    _I,
)
_GOES_UP = re.compile(rf"\b(?:{RISES})\b", _I)
# One booking moved by whoever writes: "we moved her to Thursday", "I moved it to 15:00"
_MOVED_ONCE = re.compile(
    r"\b(?:I|we)\s+(?:\w+\s+)?(?:moved|shifted|rebooked|put)\s+(?:her|him|them|it|the\s+"
    r"(?:patient|client|appointment|booking|call|visit|session|pickup))\s+(?:to|on|for)\b",
    _I,
)
# one routine occasion put on another day: "the follow-up is moved to Wednesday 6 May at
# 14:30" (not a wedding or a trial: its new day replaces the old one in MEMORY.md)
_PUT_ON_A_DAY = re.compile(
    r"\b(?:follow-?up|appointment|check-?up|call|visit|session|meeting|review|pick-?up|"
    r"delivery|lesson|class|consultation|catch-?up|fitting|viewing|inspection|handover)\s+"
    r"(?:\w+\s+){0,3}?(?:is|are|was|were|has\s+been|have\s+been|gets?|got)\s+(?:now\s+)?"
    r"(?:moved|pushed|"
    r"rescheduled|rebooked|brought\s+forward|put\s+back|postponed|shifted)\s+"
    r"(?:back\s+|forward\s+)?(?:to|till|until|for|on)\b",
    _I,
)
_INSTEAD_FIRST = re.compile(r"\s*instead\b", _I)
_NTH = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)\b", _I)  # "on Tuesday 10th", "the 12th"
# An offer that waits on a yes: "the place is his from 20 May if they want it"
_IF_TAKEN = re.compile(
    r"\bif\s+(?:they|he|she|you|we|i)\s+(?:still\s+)?(?:want|wants|like|likes|agree|agrees|"
    r"accept|accepts|take|takes|say\s+yes|says\s+yes)\b",
    _I,
)
_UNSURE = re.compile(
    r"\b(?:may\s+not\s+be|might|probably|perhaps|maybe|possibly|not\s+sure|unsure|unclear|"
    r"tbc|to\s+be\s+confirmed|tentative(?:ly)?|provisional(?:ly)?|will\s+decide|"
    r"(?:decides|votes)\s+on|to\s+be\s+decided|tbd|"
    # hearsay: "Word is she's been at the Haugesund office for years", "apparently"
    r"word\s+is|rumou?r\s+(?:is|has\s+it)|apparently|supposedly|allegedly|i\s+heard)\b",
    _I,
)
# A change that waits on something: "they'll move him to a ground-floor room as soon as one is
# free" has not happened, whatever it will replace.
_WAITS = re.compile(
    r"\bas\s+soon\s+as\b|\bonce\s+(?:\w+\s+){0,3}(?:is|are|gets?)\s+(?:free|available|"
    r"ready|done|sorted|signed|approved)\b|\bwhen(?:ever)?\s+(?:\w+\s+){0,3}(?:is|are|becomes?)"
    r"\s+(?:free|available)\b",
    _I,
)
# What closes a quotation or an aside after its last word: '… about the wood?"'.
_CLOSERS = "\"'”’»)] \t"
# A reaction with nothing of its own: "Jamie agrees; it's the quick option", "Ola is fine with
# that, ..." (what was agreed is in the line before).
_REACTION = re.compile(
    r"^(?:[\w'’-]+\s+){1,2}(?:agrees|agreed|approves|approved|is\s+(?:fine|happy|ok|okay)\s+"
    r"with\s+(?:it|that|this)|likes\s+(?:it|that|the\s+idea))\s*(?:[;:,.—–]|$)",
    _I,
)
# One weekday as a line's heading: that day's arrangement ("Sat: Shona runs it"), not a standing
# one ("Saturdays: ...", "Every Sat: ...").
# "on the Saturday": one day of a plan, not "on Saturdays"
_THE_DAY = re.compile(rf"\bon\s+the\s+{_DAY}\b", _I)
_ONE_DAY = re.compile(r"^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?\.?$", _I)
# How something stands now after it was not so: "Finn's ankle is fine now", "the pump's working
# again": a status, not a change of any fact.
_BETTER = re.compile(
    r"\b(?:is|are|'s|’s|seems?|looks?|feels?)\s+(?:all\s+)?(?:fine|better|ok|okay|good|"
    r"great|sorted|fixed|healed|recovered|back\s+to\s+normal|working|settled|clear)"
    r"\s+(?:now|again)\b",
    _I,
)
# Advice the agent offers, not a fact: "If you take him on, I'd put the date in the calendar",
# "you could ask Dod", "I'd suggest the Sunday" ("I'd rather" is a preference).
_ADVICE = re.compile(
    r"^(?:if\s+[^,.;]{1,80},\s*)?(?:i'?d(?!\s+rather)|i’d(?!\s+rather)|i\s+would(?!\s+rather)|"
    r"you\s+could|you\s+might|we\s+could|maybe\s+(?:we|you)|perhaps\s+(?:we|you)|"
    r"i\s+(?:suggest|recommend)|my\s+suggestion)\b",
    _I,
)
# Once only: "one-time swap", "a one-off workshop", "just that one week".
_ONCE = re.compile(
    r"\bone[- ](?:off|time)\b|\bjust\s+(?:this|that)\s+once\b|\bjust\s+(?:this|that)\s+one\s+"
    r"(?:week|day|night|time|weekend)\b|\bfor\s+one\s+(?:week|night|day)\s+only\b",
    _I,
)
_UNDER_WAY = re.compile(r"\b(?:is|are|am|was|were)\s+(?:\w+ly\s+)?\w+ing\b", _I)
_STATE = re.compile(
    r"\b(?:is|are|has|have|uses|runs|lives|costs|takes|holds|keeps|belongs|sits|stays|means)\b",
    _I,
)


def _leans(read: Statement, body: str) -> bool:
    """Whether the line needs the one before it to say anything (see :data:`_LEANS`). A
    correction that names the right name stands ("It's Karin Hald, not Holm")."""
    if read.retain is not None:
        return False
    nameless = not any(v.startswith(("name:", "id:")) for v in read.values)
    if read.heading is None and read.subject in (None, "we") and not read.topic and nameless:
        return True  # "We're Thursdays now, from next week": when, but not what
    if _REACTION.match(body) or (read.heading is not None and _REACTION.match(read.heading)):
        return True
    if read.heading is not None and not read.topic and _IT.search(body):
        # "Beatrice: take it out, and never again.": who said it, and nothing of what
        heading = {w.casefold() for w in re.findall(r"[\w'’-]+", read.heading)}
        if all(v.split(":", 1)[1] in heading for v in read.values):
            return True
    if read.heading is not None or not _LEANS.match(body):
        return False
    named = any(v.startswith("name:") for v in read.values)
    return not (read.change in ("correction", "instead") and named)


_NEVER_AGAIN = re.compile(r"\bnever\s+again\b", _I)


def _told_never(rule: re.Pattern[str], body: str) -> bool:
    """A rule cue that is only "never", in a line told in the past: what did not happen
    again, not a rule ("the tenors got through it once, then never again")."""
    cues = {found.group(0).casefold() for found in rule.finditer(body)}
    if cues != {"never"} or _FORWARD.search(body):
        return False
    return _NEVER_AGAIN.search(body) is not None and _PAST.search(body) is not None


def _told_once(cue: re.Pattern[str], body: str) -> bool:
    """A line told in the past whose cue is only in words it quotes ("I answered with Reply
    All, and it carried her note: \"don't put me on Saturdays\"") or that marks one occasion
    of a habit ("rang Mamma at 19:00, as every Sunday"): what happened, not the rule or the
    arrangement itself."""
    unquoted = _QUOTED.sub(" ", body)
    habit = _AS_USUAL.search(unquoted) is not None
    if _PAST.search(unquoted) is None or _FORWARD.search(_AS_USUAL.sub(" ", unquoted)):
        return False
    return habit or cue.search(unquoted) is None


def _one_off_spend(body: str) -> bool:
    """A price, budget or quote for one occasion ("the caterer quoted €320 for the open day"),
    not a standing rate ("€65 an hour", "290 zł per keg", "from January")."""
    return bool(
        _MONEY.search(body)
        and _OCCASION.search(body)
        and not _STANDING.search(body)
        and not _RECURS.search(body)
    )


_WHEN_FAMILIES = ("day:", "time:", "date:", "when:")


def _schedule_ended(read: Statement) -> bool:
    """A line that only ends days or times ("no more Monday and Wednesday sessions", "stopped
    the Tuesday 07:00 calls"): it retires what it ends and says nothing in its place. "No
    longer eats meat" names no day; "no more Friday deliveries; Thursdays from now" names one
    it keeps."""
    if read.change != "no-longer":
        return False
    when = {v for v in read.values if v.startswith(_WHEN_FAMILIES)}
    return bool(when) and when <= read.replaced


def _dates(read: Statement, body: str) -> int:
    """How many days of the calendar a line names ("10 May", "the 12th")."""
    return sum(v.startswith("date:") for v in read.values) + len(_NTH.findall(body))


@lru_cache(maxsize=4096)  # one sweep's lines: the cache is per process and stays bounded
def lasting(text: str, statement: Statement | None = None) -> Lasting:
    """Whether ``text`` (read as ``statement`` when the caller has it) lasts (see the rules)."""
    read = statement or read_statement(text)
    full = collapse(strip_list_marker(collapse(text)))  # with its heading: "Ana: our accountant"
    body = read.text
    if len(body.split()) < 3:  # "Prefer UTC: yes": a key and its value are read together
        body = full
    if read.retain == "O" and read.confidence is not None and read.confidence < 0.5:
        return Lasting(False, "denial")
    if read.change == "cancelled" and not _NEW_STATE.search(body):
        return Lasting(False, "ending")  # "the open evening on the 23rd is cancelled"
    if _schedule_ended(read):
        return Lasting(False, "ending")  # "No more Monday and Wednesday sessions at the gym"
    if _lead_in(body) or _lead_in(text):
        return Lasting(False, "lead-in")
    if (read.heading is not None and _LOG_HEADING.match(read.heading)) or _INBOX.match(full):
        return Lasting(False, "log")  # "Run log: custody calendar: handovers on Mondays"
    if _CALENDAR.match(full):
        return Lasting(False, "calendar")  # "calendar: rota from 23 June entered"
    if body.rstrip(_CLOSERS).endswith(("?", "？")) or _ASKED.search(body):
        return Lasting(False, "question")  # also a question quoted: 'Orsi: "… the wood?"'
    if _UNDECIDED.search(body):
        return Lasting(False, "status")  # "Asked about next term. Nothing decided."
    if (
        (_UNSURE.search(body) and read.change is None)
        or _WAITS.search(body)
        or _IF_TAKEN.search(body)
    ):
        return Lasting(False, "uncertain")  # "The hall may not be ours on Mondays after Feb"
    once = not (_FORWARD.search(body) or _RECURS.search(body))
    if read.change == "instead" and (_PAST.search(body) or _MOMENT.search(body)) and once:
        return Lasting(False, "event")  # "Rang Isa at 17:00 instead": once, that day
    if once and _PUT_ON_A_DAY.search(body) and _dates(read, body) == 1:
        return Lasting(False, "event")  # "The follow-up is moved to Wednesday 6 May"
    if _SLIP_COUNTED.search(body) and not _FORWARD.search(body):
        return Lasting(False, "event")  # "Third time this month I've done that (…)"
    if _TASK.search(body) or _ADVICE.search(body) or _ONE_JOB.search(body):
        return Lasting(False, "task")
    if _THOSE_TIMES.search(body):
        return Lasting(False, "context")  # "Nomvula must keep me off the roll those weeks"
    if _leans(read, body):  # "She spotted it because ...": what happened, told as such
        told = _PAST.search(body) or _MOMENT.search(body) or _ACTIVITY.match(body)
        return Lasting(False, "event" if told else "context")
    if _BETTER.search(body) or _PUBLISHED.search(body):
        return Lasting(False, "status")
    if _ORDER_SEEN.search(full):
        return Lasting(False, "order seen")  # "The hidden comment tells me to mail her papers"
    if read.retain is None and _QUOTED.fullmatch(body.strip().rstrip(".")):
        return Lasting(False, "context")  # '"The lab doesn't need to know any of that."'
    if read.heading is not None and _ONE_DAY.match(read.heading) and not _RECURS.search(body):
        return Lasting(False, "event")  # "Sat: Shona runs it, Morag's aboard."
    if is_noise(body):
        return Lasting(False, "greeting")
    if _LOG.search(body):
        return Lasting(False, "log")
    if _SLIP.search(body) and _PAST.search(body) and not _FORWARD.search(body):
        return Lasting(False, "event")  # "the draft went to the wrong Anna; caught it"
    if _UNCHANGED.search(body):
        return Lasting(False, "status")  # "the rota is otherwise unchanged"
    if _ONCE.search(full) and not (_FORWARD.search(body) or read.change is not None):
        return Lasting(False, "event")  # "One-time swap: Bart works Friday night 3 March"
    if _STORY.match(body) and not (_FORWARD.search(body) or _RECURS.search(body)):
        return Lasting(False, "event")  # "I had set it for 18:00 on the server's clock, …"
    moment = _MOMENT.search(body)
    for kind, pattern in _KINDS:
        if kind == "fact":
            continue
        if kind == "rule" and _PRAISE.search(body) and not pattern.search(_PRAISE.sub(" ", body)):
            continue  # "Slow and thorough, the way it should be done": praise, not a rule
        if pattern.search(body):
            if kind == "rule" and _told_never(pattern, body):
                return Lasting(False, "event")  # "got through bar 34 once, then never again"
            if _told_once(pattern, full):
                return Lasting(False, "event")  # "I answered with Reply All: \"don't …\""
            # "Fixed in ezyVet and on the rota"; "Mum came up on Thursday and Friday to do the
            # pickups": a schedule word told in the past, once
            one_off = bool(moment or _ACTIVITY.match(body)) or (
                read.change is None and _PAST.search(body) is not None
            )
            if one_off and kind in _ONE_OFF_KINDS and not _RECURS.search(body):
                return Lasting(False, "event")  # "an appointment next Tuesday at 10"
            return Lasting(True, kind)
        if pattern.search(full) and not (moment or _PAST.search(body)):
            return Lasting(True, kind)  # a heading's cue, unless the line tells a moment
    if _one_off_spend(body):
        return Lasting(False, "event")  # "Budget for Ania's birthday party: 400 zł."
    if _CONVERSION.search(body):
        return Lasting(False, "trivia")  # "45 km/h is 12.5 m/s: a climbing day"
    # one day swapped for another ("cake with her on Tuesday 10th instead"), not a plan that
    # takes a cancelled one's place ("Instead Deirdre comes here: 26 June to 29 June")
    swap = read.change == "instead" and _dates(read, body) == 1 and not _INSTEAD_FIRST.match(body)
    if once and (swap or _MOVED_ONCE.search(body)):
        return Lasting(False, "event")  # "Paula spotted it and we moved her to Thursday"
    if _GOES_UP.search(body) and (_KINDS[-1][1].search(body) or _MONEY.search(body)):
        return Lasting(True, "fact")  # "Rent goes up to 1,350 EUR from July": a sum, still
    if read.change is not None and not (
        read.change == "correction" and not read.values and _PAST.search(body)
    ):  # "he noticed because the breeds were wrong" tells what happened, not a fix
        return Lasting(True, "decision")
    if _STATUS.search(body):
        return Lasting(False, "status")
    if moment or _ACTIVITY.match(body) or _UNDER_WAY.search(body) or _PAST.search(body):
        return Lasting(False, "event")
    if read.retain == "W":
        return Lasting(True, "fact")  # the agent's own "retain this" for a world fact
    if _KINDS[-1][1].search(body) or (_MONEY.search(body) and _STANDING.search(body)):
        return Lasting(True, "fact")  # "the accountant charges 90 EUR a month"
    named = any(not v.startswith(("part:", "month:")) for v in read.values)
    if _THE_DAY.search(body) and not _RECURS.search(body):
        return Lasting(False, "event")  # "Ale takes them out to the whales on the Saturday"
    if named and _STATE.search(body):
        return Lasting(True, "fact")  # "The NAS is in the basement cupboard"
    return Lasting(False, "trivia")
