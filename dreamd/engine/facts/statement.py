"""Reading one line of memory as a statement: subject, topic, values, polarity, change.

The text a line of memory comes in is one of: a plain sentence; a chunk's ``Heading: body``
form (a short heading before ``": "``); an ancestor chain ``parent > child``; a Retain bullet
``O(c=0.4) @Peter: …``; or a MEMORY.md entry line. :func:`read_statement` reads each the same
way:

* **Context.** A heading that names something (``Mia``, ``Halvorsen project``) is the subject
  when the body names none; a category heading (``Decisions``, ``People``, ``Notes``,
  ``Retain``...) is only context. A Retain bullet's ``@Entity`` is its subject, and an opinion
  whose confidence is below 0.5 denies what it says.
* **Subject.** The Retain entity; else a name opening the sentence (a capitalised word followed
  by ``'s`` or by a verb such as "is", "prefers", "said", unless it is a common opener such as
  "Decided" or "The": "Sent batch 1" is no one);
  else the first name in the sentence's first five words; ``I``/``we``/``our``/``my`` read as
  ``we`` (the person and their agent); else the heading's name.
* **Values** are :func:`dreamd.engine.facts.values.values_of` of the line, and of a heading
  that names something (its first word counts as a name there); **topic** is what is left of the
  content words once values, the subject, stop words and change words are set aside (plural
  ``-s`` dropped), so "Mia's swimming lesson is on Tuesdays" and "swimming moved to Thursdays"
  share the topic ``swimming``.
* **Change.** "moved/switched/changed … (from X) to Y", "is now", "from now on", "no longer",
  "not anymore", "stopped", "X, not Y", "rather than Y", "instead of Y", "correction:",
  "actually", "reversed", "back to", "cancelled", "called off", "dropped", and their German,
  French and Spanish forms announce that the statement replaces an earlier one; the values
  after "from", "not", "rather than", "instead of" (and a "no longer" statement's own values)
  are the ones it says it replaces; "I was wrong about X being Y" replaces what it says of X
  (its words, not X). "From X … to" counts only beside a change cue ("the piano
  from Sala 1 on OLX, to pay for…" replaces nothing), and "the cancelled one" names a thing: it
  cancels nothing; "taken off", "took the ad down" and "no longer for sale" cancel; "dropped
  her at the hall" and "dropped off the kit" are a lift, not a cancellation, and "set-up from
  15:00" starts something: no value after it is replaced. :func:`change_clause` gives the
  clause a cue stands in (what a cancellation ends is named there).
* **Choice.** A statement that takes one thing and turns another down, clause by clause
  ("Wedges, not in-ears"; "won't get on with in-ears; keep her on wedges"; "prefers in-ears
  now; wedges are out of her mix"), carries the topic words it *takes* and those it *refuses*.
* **Polarity** is ``-1`` when the statement says something stopped or is not so ("no longer",
  "doesn't", "never", "dislikes", "stopped"), or when it is a Retain opinion with ``c < 0.5``;
  "X, not Y" is a correction, not a negation.

Pure and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from functools import lru_cache
from itertools import pairwise

from dreamd.engine.facts.values import DAYS, MONTHS, PARTS, kind_of, values_of
from dreamd.engine.facts.values import Value as TypedValue
from dreamd.engine.text.claims import claim_tokens
from dreamd.engine.text.concepts import STOP_WORDS
from dreamd.engine.text.snippets import collapse, strip_list_marker
from dreamd.patterns import LazyPattern
from dreamd.value import Value

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "ASIDE",
    "CATEGORY_HEADINGS",
    "CUE_HEADS",
    "GAVE_UP_ROLE",
    "OPENERS",
    "RETAIN",
    "SUBJECT_VERBS",
    "Statement",
    "change_clause",
    "read_statement",
    "split_heading",
]

_I = re.IGNORECASE
CATEGORY_HEADINGS = frozenset(
    """
    decisions decision notes note people family work home personal misc miscellaneous log
    daily log journal todo todos to-do tasks task meetings meeting calls call schedule
    preferences preference lessons lesson lessons learned learnings learned rules rule
    procedures procedure how-to howto facts fact retain memory memories summary highlights
    updates update status context background reminders reminder ideas links follow-ups
    follow-up followups open questions questions errors mistakes corrections correction
    projects project clients client contacts contact health kids school travel money finance
    admin inbox agenda plan plans week weekend evening morning afternoon today yesterday
    tomorrow chat conversation transcript infra infrastructure ops operations setup config
    configuration decisions made preferences learned people update worklog work log
    business finances household errands shopping house
    """.split()
)
OPENERS = frozenset(
    """
    the a an this that these those there here it its we i our my us you your he she they
    his her their when what who why how if and or but so then also not no yes ok okay
    decided decision agreed chose moved switched changed changing correction note reminder
    todo done finished started booked cancelled canceled reversed dropped scrapped called
    always never every each all some any both either neither only just still now from
    since until after before during today tomorrow yesterday tonight please remember
    lunch dinner breakfast coffee call meeting standup weather busy tired quick new old
    next last first second third per via with without for about into onto over under
    prefer prefers use uses avoid avoids keep keeps call calls send sends check checks ask
    asks book books pay pays buy buys bring brings pick picks drop drops meet meets move moves
    switch try tries make makes get gets take takes put puts set sets run runs start starts
    stop stops go goes come comes need needs want wants like likes love loves hate hates
    write writes read reads tell tells give gives leave leaves let lets add adds remove
    removes share shares plan plans schedule schedules cancel cancels confirm confirms email
    emails text texts ping pings review reviews update updates order orders print prints
    save saves install installs open opens close closes clean cleans fix
    fixes skip skips wait waits ship ships charge charges
    surname name names address phone number email mail rate rates price prices cost costs
    budget deadline deadlines meeting meetings invoice invoices payment payments contract
    contracts project projects client clients customer customers order orders delivery
    deliveries schedule plan plans trip trips flight flights train bus car school class
    classes lesson lessons practice training match game party birthday dinner lunch breakfast
    weather rain kids kid children child baby family work job office home house flat room
    doctor dentist vet appointment appointments note notes list task tasks email emails call
    calls message messages chat reminder reminders question questions answer answers issue
    issues problem problems bug bugs error errors fix update updates version release launch
    batch batches file files folder folders document documents report reports review reviews
    account accounts bank card password login license licence subscription insurance tax
    taxes receipt receipts bill bills ticket tickets booking bookings reservation
    """.split()
)
CUE_HEADS = frozenset(
    """
    correction corrected update updated note noted reminder decision decided lesson reversed
    cancelled canceled changed change fyi important new moved switched confirmed
    """.split()
)
# A capitalised first word is the sentence's subject when one of these follows it ("Sent batch 1"
# is no one; "Karin prefers calls" is Karin).
SUBJECT_VERBS = frozenset(
    """
    is isn't was wasn't are were has hasn't had have will won't would can can't could should
    must might may does doesn't did didn't prefers preferred likes liked loves loved hates hated
    wants wanted needs needed works worked lives lived says said thinks thought knows knew
    asked asks told tells wrote writes called calls sent sends handles handled manages managed
    owns owned runs ran leads led covers covered reviews reviewed pays paid takes took gets got
    goes went comes came moved moves switched switches stopped stops started starts decided
    decides agreed agrees confirmed confirms wants uses used keeps kept stays stayed joined
    resigned retired stood stepped
    joins left leaves plays played trains trained swims swam drives drove now still also
    always never usually often just already no doesnt dont only really
    """.split()
)
_PRONOUN_WE = LazyPattern(r"^(?:i|we|our|ours|my|mine|us|me|i'm|we're|i've|we've)$", _I)
# A Retain line: "W @Entity: fact", "B: fact", or without a colon "B Insurance renewed" (a
# capitalised word or a number after the type letter, as the bank's own reader takes it).
RETAIN = LazyPattern(
    r"^\s*(?:[-*+]\s+)?(?P<type>[WBOS])(?:\s*\(\s*c\s*=\s*(?P<c>[01](?:\.\d+)?)\s*\))?"
    r"(?:(?:\s+@(?P<entity>[^\s:]+(?:\s+[^\s:@]+){0,5}?)\s*|\s*):\s*|"
    r"\s+(?=[A-Z0-9£$€À-ÖØ-ÞĀ-ŽΑ-ΩА-Я]))"  # "W Þverá lot: …", "B Émile rang"
    r"(?P<body>.+)$"
)
# A message's header: "From Nacho, 09:12, to all pairs: …", "Mail from Hanne Leirvåg, 09:02,
# to all Fedje pilots: …": its sender and time are not what the message is about.
_SENT = LazyPattern(
    r"^(?:(?:e-?mail|mail|message|text|sms|whatsapp|letter)\s+)?from\s+[^,:;]{1,40},\s*"
    r"\d{1,2}[:.]\d{2}\s*,\s*to\s+[^:]{1,120}?:\s+(?P<rest>\S.*)$",
    re.IGNORECASE | re.DOTALL,
)
_HEAD = LazyPattern(r"^(?P<head>[^:\n]{1,60}?):\s+(?P<body>\S.*)$", re.DOTALL)
# Going back somewhere literal is no reversal: "going back to bed", "back to the office".
_NOT_A_PLACE_BACK = (
    r"(?!\s+(?:bed|sleep|work|school|normal|the\s+(?:house|office|shop|car|van|hotel)))"
)
GAVE_UP_ROLE = (
    r"\b(?:stood|stepped)\s+down\b|\bresigned\b|"
    r"\bretired\s+(?:as|from|on|today|yesterday|this|last|after|at\s+the\s+end)\b"
)
"""A role given up, one of the cancellation cues: it ends the role the same person held."""
RISES = r"(?:go(?:es)?|went|going|gone)\s+(?:up|down)|rises?|rose"
"""A sum or a rate that goes up or down ("goes up to", "rose to"): with "to", a change."""
_CHANGE_CUES: tuple[tuple[str, LazyPattern], ...] = tuple(
    (name, LazyPattern(pattern, _I))
    for name, pattern in (
        (
            "correction",
            r"^\s*(?:correction|corrected|erratum|typo|fix)\b|\bcorrection\s*:|"
            r"\bactually\b|\bcorrected\b|\bmisspel|\bmishe(?:ard|aring)\b|\bmisread\b|"
            r"\bwrongly\b|\bmistakenly\b|"
            r"\b(?:is|was|that's|it's|are|were)\s+(?:wrong|a\s+typo)\b|\bnot\s+\w+\s+but\b|"
            # "Kalvestad. With a v. It's been wrong in your notes all week"
            r"\b(?:it'?s|has|have|had)\s+been\s+(?:wrong|misspelt)\b|"
            r"\bwith\s+an?\s+(?-i:[a-zæøåäöü])(?:\s+at\s+the\s+(?:end|start|beginning))?"
            r"\s*(?:[.,;!]|$)|"
            # "You have been writing Odera all week"
            r"\b(?:you'?ve|you\s+have|we'?ve|we\s+have|i'?ve)\s+been\s+(?:writing|spelling|"
            r"calling\s+(?:her|him|them))\b|"
            r"\bkorrektur\b|\beigentlich\b|\ben\s+fait\b|\ben\s+realidad\b|"
            r"(?:^|[.;!?]\s+)not\s+[^\W\d_][\w'’-]*\s*[:,—–]",  # "Not Farrant, that was a typo"
        ),
        (
            "reversed",
            # not a vehicle backing up: "the truck reversed over the pegs", "reversing out"
            r"\brevers(?:ed|es|ing)\b(?!\s+(?:over|into|onto|out|up|off|down|through|across|"
            r"past|around|round|in\b|back\b|the\s+(?:van|car|truck|trailer|lorry)))|"
            r"\brevert(?:ed|s|ing)?\b|"
            r"\b(?:go(?:es|ing)?|went|switch(?:ed|ing)?|mov(?:e|ed|ing)|back)\s+back\s+to\b"
            rf"{_NOT_A_PLACE_BACK}|"
            r"\b(?:goes|going|went|switched|moved|is|are)\s+back\s+to\b"
            rf"{_NOT_A_PLACE_BACK}|"
            r"\boverturn(?:ed)?\b|"
            r"\bchanged\s+(?:my|our|his|her|their)\s+mind\b|\bundo(?:ne)?\b|\bu-turn\b|"
            # "taking on the limekiln after all"; not "they seem to like it after all"
            r"\b(?:(?:is|are|it'?s|we'?re|i'?m)\s+(?:back\s+on|on|happening|going\s+ahead)|"
            r"doing|taking|going\s+ahead|keeping|booking|booked|took)\b[^.;]{0,60}?"
            r"\bafter\s+all\b(?!\s*,)|"
            # a plan given up: "Orsi isn't consigning it after all"
            r"\b(?:isn'?t|is\s+not|aren'?t|are\s+not|not|won'?t\s+be)\s+\w+ing\b[^.;]{0,40}?"
            r"\bafter\s+all\b(?!\s*,)|"
            r"\bdoch\s+wieder\b|\brevenu\w*\s+sur\b",
        ),
        (
            "cancelled",
            # "the cancelled one stays on the portal" names a thing, it cancels nothing
            r"(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bthis\s)(?<!\bthat\s)\bcancel(?:l)?ed\b|"
            r"\bcalled\s+off\b|\b(?:taken|took|taking)\s+(?:it\s+|them\s+)?off\b|"
            r"\btook\s+(?:the\s+|its\s+|our\s+|my\s+)?(?:ad|advert|listing)\s+down\b|"
            r"\bno\s+longer\s+for\s+sale\b|\bscrapped\b|\babandoned\b|"
            # "La Gaviota is not for sale after all", "listing taken down"
            r"\bnot\s+for\s+sale\s+(?:any\s?more|after\s+all)\b|"
            r"\b(?:ad|advert|listing)\s+(?:was\s+|is\s+)?(?:taken|pulled)\s+(?:down|off)\b|"
            r"\bscrap\s+(?=(?:the|that|this|our|my)\s|(?-i:[A-Z]))|"  # "Scrap the Dorotheum plan"
            # a plan given up: "withdrew her application", "pulled out of the exchange"
            r"\bwithdr(?:ew|awn)\b(?!\s+(?:[£$€¥]|\d|cash|money|funds|savings))|"
            r"\bpull(?:ed|ing|s)?\s+out\s+of\b|"
            # "dropped the plan", not a lift: "dropped her at 17:50", "dropped off the kit"
            r"(?<!\bthe\s)(?<!\ba\s)\bdropped\b(?!\s+(?:off|by|round|in)\b)"
            r"(?!\s+(?:her|him|them|me|us|you|\w+\s+off|(?-i:[A-Z])\w+)\s+(?:at|off|outside|by|near|with|on)\b)|"
            # "is off": called off, not a day off ("is off Monday 30 June", "off on Tuesdays") nor
            # taken off a list ("Solveig is off the list")
            r"\bshelved\b|\bis\s+off\b(?!\s+(?:on\s+|from\s+|until\s+)?(?:the\s+)?(?:\d|"
            r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|work\b|duty\b|sick\b|today\b|"
            r"tomorrow\b|next\b|every\b|the\s+(?:list|rota|roster|team|hook|case)\b))|"
            r"\bwon'?t\s+happen\b|\bnot\s+happening\b|"
            # a plan that died: "the Atacama week is dead", not a flat battery
            r"\b(?:trip|week|weekend|plan|idea|deal|sale|holiday|move|booking|visit|party|"
            r"project|offer|order|tour)s?\s+(?:is|are|'s)\s+(?:dead|off\s+the\s+table)\b|"
            # a role given up: "Lajos stood down after 22 years", "she resigned as treasurer"
            rf"{GAVE_UP_ROLE}|"
            r"\babgesagt\b|\bannulé\w*\b|\bcancelad\w*\b",
        ),
        (
            "no-longer",
            # "WTG-12 still stopped", "the lift is stopped": how a thing stands, no change
            r"\bno\s+longer\b|\bnot\s+any\s?more\b|\bnot\s+\w+\s+any\s?more\b|"
            r"(?<!\bstill\s)(?<!\bis\s)(?<!\bare\s)(?<!\bremains\s)\bstop(?:ped|s)\b|"
            r"\b(?:can'?t|cannot|won'?t|isn'?t|aren'?t|doesn'?t|don'?t)\b[^.;:]{0,30}\bany\s?more\b|"
            r"\bno\s+more\b(?!\s+than\b)|\bquits?\b|\bg(?:ave|ives)\s+up\b|\bdone\s+with\b|\bnicht\s+mehr\b|\bkein\w*\s+\w+\s+mehr\b|"
            r"\bne\s+\w+\s+plus\b|\bya\s+no\b",
        ),
        (
            "moved",
            r"\b(?:mov(?:e|ed|es|ing)|switch(?:ed|es|ing)|chang(?:ed|es|ing)|shift(?:ed|s)|"
            r"reschedul(?:ed|es|ing)|swapp(?:ed|ing)|migrat(?:ed|es|ing)|upgrad(?:ed|es|ing)|"
            r"transferred|relocated|pushed|bumped|raised|increased|reduced|"
            r"lowered|cut|extended|shortened|renamed|updated)\b[^.;]{0,40}?\bto\b"
            # "the rate goes up from R3,800 to R4,250", "rose to £44"
            rf"|\b(?:{RISES}|rising)\b[^.;]{{0,40}}?\bto\b"
            # "Dad moved into Els Tarongers", "moved in with Mariel", "moved out of the flat"
            r"|\bmov(?:e|ed|es|ing)\s+(?:into|in\s+with|out\s+of|over\s+to)\b"
            r"|\bverschoben\s+auf\b|\bgewechselt\s+zu\b|\bpassé\s+à\b|\bcambi[óo]\s+a\b",
        ),
        (
            "now",
            # not "now and then", "now that …", "… and now this" (one more of the same)
            r"(?<!right\s)(?<!just\s)(?<!for\s)(?<!until\s)\bnow\b(?!\s+and\s+then|\s+that\b|"
            r"\s+this\s*[.!]|\s+this\s*$)|"
            r"\bthese\s+days\b|\bgoing\s+forward\b|\bfrom\s+(?:tonight|tomorrow|today|next\s+\w+)\b|"
            r"\bstarting\s+(?:tonight|tomorrow|today|next\s+\w+)\b|\bwith\s+effect\s+from\b|"
            r"\b(?:as\s+of|from|starting|beginning)\s+(?:the\s+week\s+of\s+)?"
            # "from Monday 9 June", "from Tuesday the 3rd of March"
            r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+(?:the\s+)?(?=\d))?(?:today\b|"
            r"\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|"
            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s+\d{1,2}\b)"
            # not a range ("from 4 June to 10 June"); "(Thursdays go to juries)" is none
            r"(?![^.;(]{0,24}\b(?:to|until|till)\s+(?:the\s+)?(?:\d|(?:jan|feb|mar|apr|may|jun|"
            r"jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b))|\bnew\s+(?:time|day|date|address|number|"
            r"contact|schedule)\b|\bjetzt\b|\bab\s+sofort\b|\bdésormais\b|\bmaintenant\b|"
            r"\bahora\b|\b(?:up|down)\s+from\s+[£$€]?\d",
        ),
        (
            "instead",
            r"\b(?:instead|in\s+place)\s+of\b|\brather\s+than\b|,\s*not\s+(?!even\b|only\b|just\b)\S|"
            r"\b(?:taken|took|takes|taking)\s+over\s+from\b|\breplac(?:ed|es|ing)\s+(?-i:[A-Z])|"
            r"\bnot\s+\S+[^,;.]{0,30},\s*but\b|"
            r"\binstead\b|\bstatt\b|\banstatt\b|\bau\s+lieu\s+d[e']|\ben\s+lugar\s+de\b|"
            r"\ben\s+vez\s+de\b",
        ),
    )
)
# Spans whose words, not only their values, are what is gone ("not by phone": the phone).
_GONE_SPANS = frozenset(
    {
        "longer",
        "not",
        "never",
        "notbut",
        "notlead",
        "instead",
        "rather",
        "statt",
        "lieu",
        "over",
        "swap",
    }
)
# Values in these spans are the ones a statement says it replaces.
_REPLACED_SPANS = LazyPattern(
    # "from 1 March the rate goes up from ¥32,000 to ¥38,000": the span is the last "from"'s
    r"\bfrom\s+(?P<from>(?:(?!\bfrom\s)[^.;]){1,60}?)\s+to\b"
    r"|\b(?:instead|in\s+place)\s+of\s+(?P<instead>[^.;,]{1,60})"
    # "up from £40" (to £46 is the new value); not "set-up from 16:45"
    r"|(?<![\w-])(?:up|down)\s+from\s+(?P<upfrom>[£$€¥₹₩]?\d(?:(?!\s+to\b)[^.;,]){0,30})"
    r"|\brather\s+than\s+(?P<rather>[^.;,]{1,60})"
    # "lives in Trelew now (moved from Gaiman on 30 September)": no "to" after it, Gaiman is gone
    r"|\b(?:moved|moving|relocated|relocating)\s+(?:out\s+|away\s+)?from\s+"
    r"(?P<movedfrom>(?-i:[A-ZÀ-Þ])[^.;,()]{0,40}?)(?=\s+(?:on|in|at|since|after|last|this|back|to|for)"
    r"\b|\s*[.;,)]|\s*$)"
    # "Kopia has taken over from Linnétryck for this concert": Linnétryck is gone
    r"|\b(?:taken|took|takes|taking)\s+over\s+from\s+(?P<over>[^.;,]{1,40}?)"
    r"(?=\s+(?:for|as|at|on|in|from|since|after|and)\b|[.;,]|$)"
    # "Kopia replaced Linnétryck for the programmes" (not "was replaced by")
    r"|\breplac(?:ed|es|ing)\s+(?P<swap>(?-i:[A-Z])[^.;,]{0,40}?)"
    r"(?=\s+(?:for|as|at|on|in|from|since|after|and)\b|[.;,]|$)"
    r"|,\s*not\s+(?!even\b|only\b|just\b)(?P<not>[^.;,]{1,60})"  # not "…, not even to family"
    # "Anna Berg, never (to) Anna Bergström": a name turned down; not "never typed by hand"
    r"|,\s*never\s+(?:(?:to|with|from|for|via|at|on|in)\s+)?(?P<never>(?-i:[A-Z])[^.;,:]{0,40})"
    r"|\bnot\s+(?P<notbut>[^,;.]{1,30}),\s*but\b"
    r"|(?:^|(?<=[.;!?]\s))not\s+(?P<notlead>[^\W\d_][\w'’-]*)(?=\s*[:,—–])"
    r"|\b(?:statt|anstatt)\s+(?P<statt>[^.;,]{1,60})"
    r"|\bau\s+lieu\s+d[e']\s*(?P<lieu>[^.;,]{1,60})"
    r"|\ben\s+(?:lugar|vez)\s+de\s+(?P<lugar>[^.;,]{1,60})"
    # "(were £15)", "(correction: not ¥6,000)"
    r"|\((?:correct(?:ion|ed)\s*[:,]?\s*)?(?:was|were|previously|formerly|before|not)\s+"
    # "(was Wednesday 14 March, a Fedje week)": the old value, not what is said of it after
    r"(?P<was>(?:(?!,\s+(?:a|an|the|because|since|as|which|so)\b)[^)]){1,40})"
    r"(?:,[^)]{0,60})?\)"
    # "(Gilmore was wrong)", "(Kuusk was a mishearing)": the name in brackets is the wrong one
    r"|\((?P<wrongname>[^)\s]{1,30})\s+(?:was|is)\s+(?:wrong|a\s+typo|a\s+mishearing|misheard"
    r"|misspel\w*)\)"
    r"|\bwrongly\s+(?:say|says|said|written|spelled|spelt|as|have|has)\s+(?P<wrong>[^.;,]{1,40})"
    r"|\b(?:was|were|i'm|am|is)\s+wrong\s+about\s+(?P<about>[^.;,:—–]{1,60})"
    r"|\b(?:no\s+longer|no\s+more(?!\s+than\b)|stop(?:ped|s)|quits?|g(?:ave|ives)\s+up|(?:is|are|was)\s+done\s+"
    r"with)\s+(?P<longer>[^.;,]{1,80}?)"
    # a list of days goes on past its "and": "no more Monday and Wednesday sessions"
    r"(?=\s+(?:and|but|then|so|or)\b(?!\s+(?:mon|tue|wed|thu|fri|sat|sun)\w*\b)|[.;,]|$)"
    r"|\b(?:revers|revert|overturn|cancel|drop|scrap|undo|undid)\w*\s+(?:the\s+|our\s+|my\s+|"
    r"that\s+)?(?P<undone>[^.;,—]{1,40}?)\s+(?:decision|plan|idea|choice|move|booking|trip)\b",
    _I,
)
# "the Saturday morning slot is gone": what is gone, not what the clause goes on to. Tried at
# every character it is most of the reading's cost, so it joins the spans only for a line that
# says "gone", "discontinued" or "withdrawn" (without one it cannot match).
_GONE_WORD = LazyPattern(r"\b(?:gone|discontinued|withdrawn)\b", _I)
_REPLACED_OR_GONE = LazyPattern(
    _REPLACED_SPANS.pattern
    + r"|(?P<gone>(?:(?!\b(?:and|but|so|now|then|while|because|since)\b)[^.;,:()—–]){1,40}?)"
    r"\s+(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:gone|discontinued|withdrawn)\b",
    _I,
)
_NEGATION = LazyPattern(
    r"\b(?:no\s+longer|no\s+more(?!\s+than\b)|not\s+any\s?more|"
    # "isn't due till 11 October", "doesn't start until nine": a day or hour put later, no "no"
    r"(?:doesn'?t|don'?t|won'?t|isn'?t|aren'?t)(?!\s+(?:\w+\s+){0,3}?(?:till|until)\b)|"
    r"didn'?t|"
    r"never|dislikes?|hates?|avoids?|(?<!\bstill\s)(?<!\bis\s)(?<!\bare\s)stopped|can'?t|"
    r"cannot|nicht\s+mehr|ya\s+no|"
    # "not going on the exchange", "Nat is not coming": a plan said no to
    r"(?:^|(?<=[:;(]\s)|(?<=\bis\s)|(?<=\bam\s)|(?<=\bare\s)|(?<=\bwas\s)|(?<=\bwere\s)|"
    r"(?<='m\s)|(?<='re\s))not\s+\w+ing|"
    r"declined|said\s+no\s+to|turn(?:ed|s|ing)?\s+down(?!\s+(?:the\s+)?(?:heat|heating|"
    r"volume|music|radio|thermostat|gas|oven|fire|lights?)\b)|"
    r"ne\s+\w+\s+(?:pas|plus))\b",
    _I,
)
# A choice between two things, clause by clause: where a clause ends, and what turns one down
# ("not in-ears", "wedges are out of her mix", "never touched a wedge").
_CLAUSE = LazyPattern(
    r"[;:—–]|,\s*(?=not\b|never\b|but\b)|\bbut\b|\binstead\s+of\b|\brather\s+than\b", _I
)
_TURNED_DOWN = LazyPattern(
    r"^\s*not\b|\bout\s+of\b|\b(?:is|are|was|were)\s+out\b|\bpulled\b[^,;]*\bout\b|"
    r"\boff\s+(?:her|his|their|my|our|the)\b|\bhated\b|\bgave\s+up\b",
    _I,
)
_CHANGE_WORDS = frozenset(
    """
    moved move moves moving switched switch switches switching changed change changes changing
    shifted rescheduled swapped migrated upgraded went going transferred relocated pushed
    bumped raised increased reduced lowered cut extended shortened renamed updated now from to no
    longer not anymore stopped quit correction corrected actually
    instead rather than reversed reverted back cancelled canceled called off dropped scrapped
    abandoned shelved wrong mistakenly typo new these days forward onwards on at is are was
    were be been will would has have had does did prefer prefers preferred likes like wants
    want every each
    """.split()
)


class Statement(Value):
    """One line of memory, read (see the module rules)."""

    __match_args__ = (
        "text",
        "subject",
        "topic",
        "values",
        "polarity",
        "change",
        "replaced",
        "heading",
        "retain",
        "confidence",
        "taken",
        "refused",
    )
    __slots__ = __match_args__
    text: Final[str]  # the line without list marker, Retain prefix or heading context
    subject: Final[str | None]
    topic: Final[frozenset[str]]
    values: Final[frozenset[str]]
    polarity: Final[int]
    change: Final[str | None]
    replaced: Final[frozenset[str]]
    heading: Final[str | None]  # the context heading, when the line had one
    retain: Final[str | None]  # the Retain type letter (W, B, O, S), when it was a Retain bullet
    confidence: Final[float | None]  # a Retain opinion's c=…
    taken: Final[frozenset[str]]  # a choice: what it takes
    refused: Final[frozenset[str]]  # ... and what it turns down

    def __init__(
        self,
        text: str,
        subject: str | None,
        topic: frozenset[str],
        values: frozenset[str],
        polarity: int = 1,
        change: str | None = None,
        replaced: frozenset[str] = frozenset(),
        heading: str | None = None,
        retain: str | None = None,
        confidence: float | None = None,
        taken: frozenset[str] = frozenset(),
        refused: frozenset[str] = frozenset(),
    ) -> None:
        self.text, self.subject, self.topic, self.values = text, subject, topic, values
        self.polarity, self.change, self.replaced = polarity, change, replaced
        self.heading, self.retain, self.confidence = heading, retain, confidence
        self.taken, self.refused = taken, refused

    @property
    def value_kinds(self) -> frozenset[str]:
        """The types of its values (``day``, ``time``, ``name``...)."""
        return frozenset(kind_of(v) for v in self.values)


def split_heading(text: str) -> tuple[str | None, str]:
    """``("Heading", "body")`` for a chunk's ``Heading: body`` (and ``a > b`` chains keep only
    their last part); ``(None, text)`` otherwise."""
    text = collapse(strip_list_marker(collapse(text)))
    found = _HEAD.match(text)
    if found is None:
        return None, text
    head, body = found.group("head").strip(), found.group("body").strip()
    words = head.split()
    if len(words) > 6 or not head[:1].isupper() or head.lower().startswith(("http", "note")):
        return None, text
    if len(body.split()) < 3 and " > " not in body:
        return None, text  # "Prefer UTC: yes" is a key and its value, not a heading
    if head.lower() in CUE_HEADS or head.lower() in _ACKS or words[0].lower() in _NOT_HEADS:
        # a cue, not a heading: "Correction: it's Solberg", "Not Phelan: …"; a clause that goes
        # on from the line before: "So he no longer drives: Annick takes him to cards"
        return None, text
    if " > " in body:
        body = body.rsplit(" > ", 1)[1].strip() or body
    return head, body


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _subject(body: str, heading: str | None, known: Set[str]) -> str | None:
    words: list[str] = re.findall(r"[^\W_][\w'’-]*", body)
    if not words:
        return _heading_subject(heading)
    first = words[0]
    folded = first.casefold().replace("’", "'")
    if _PRONOUN_WE.match(folded):
        return "we"
    bare = folded[:-2] if folded.endswith("'s") else folded
    if bare in known:
        return bare
    opener = bare in OPENERS or bare in STOP_WORDS or bare.endswith(("ed", "ing"))
    opener = opener or bare in DAYS or bare in MONTHS or bare in _MOMENTS  # "March's fee"
    if first[:1].isupper() and not opener:
        following = (words[1] if len(words) > 1 else "").casefold()
        if folded.endswith("'s") or following in SUBJECT_VERBS:
            return bare  # "Peter prefers", "Mia's lesson": a name opens the sentence
    if not first[:1].isupper() and _names_someone(heading):
        return _heading_subject(heading)  # "Niamh Phelan: locum from VetStaff Ireland"
    for value in values_of(" ".join(words[:5]), known=known):
        name = value.token[5:]
        if value.token.startswith("name:") and name not in OPENERS and name not in CUE_HEADS:
            return name
    if _is_label(heading):
        return None  # "Bin day: Tuesdays": a label, not someone
    return _heading_subject(heading)


def _is_label(heading: str | None) -> bool:
    """A heading of two words or more that names no one: "Bin day", "Work party"."""
    return heading is not None and len(heading.split()) > 1 and not _names_someone(heading)


def _names_someone(heading: str | None) -> bool:
    """A heading that is a name of one to three capitalised words ("Niamh Phelan", "Nordlys"),
    not a category, a cue or an opener."""
    if heading is None:
        return False
    words = heading.split()
    if not 1 <= len(words) <= 3 or not all(w[:1].isupper() for w in words):
        return False
    lead = words[0].casefold()
    return lead not in CATEGORY_HEADINGS and lead not in CUE_HEADS and lead not in OPENERS


def _heading_subject(heading: str | None) -> str | None:
    if heading is None:
        return None
    words = [str(w).casefold() for w in re.findall(r"[^\W_][\w'’-]*", heading)]
    if not words or all(w in CATEGORY_HEADINGS or w in STOP_WORDS for w in words):
        return None
    if _PRONOUN_WE.match(words[0]) or words[0] in OPENERS:
        return None  # "My mix-up: ..." names no one
    if not heading[:1].isupper():
        return None
    return words[0].removesuffix("'s")


# A clause that only dates something else by an ending: "71 sold online before we stopped",
# "since they quit the old van". What ended is told elsewhere; this line says no change.
_WHEN_ENDED = LazyPattern(
    r"\b(?:before|after|since|until|till|when|once)\s+(?:we|i|they|he|she|you|it)\s+"
    r"(?:had\s+|have\s+)?(?:stopped|quit|dropped|gave\s+up|cancell?ed|ended)\b",
    _I,
)


def _change(text: str) -> str | None:
    for name, pattern in _CHANGE_CUES:
        # an aside is no change: "Repair 45 000 Ft, the family pays (an accident, not wear)"
        said = ASIDE.sub(" ", text) if name == "instead" else text
        if name == "now":  # "(for the bikes, not for the party now)": a bare "now" aside
            said = _BARE_NOW_ASIDE.sub(" ", said)
        if pattern.search(said):
            return name
    return None


ASIDE = LazyPattern(r"\([^()]*\)")  # a bracketed aside: "(an accident, not wear)"
_WORDS_LEFT = LazyPattern(r"[^\W\d_]{3,}")
_BARE_NOW_ASIDE = LazyPattern(r"\((?![^()]*(?:\d|\bfrom\b))[^()]*\bnow\b[^()]*\)", _I)
# "No patient's name goes into anything I write, not in notes, not in drafts": a list of what
# a "no" covers, said for emphasis after it, turns nothing down ("Thursdays, not Tuesdays" and
# "at Café Central, not at the Landtmann, not at the station" do).
_EMPHASIS = LazyPattern(r"(?:,\s*not\s+[^.;,]{1,40}){2,}", _I)
_NO = LazyPattern(
    r"\b(?:no|never|nothing|nowhere|nobody|none|don't|doesn't|won't|mustn't)\b[^.;]*$", _I
)


def _unstressed(text: str) -> str:
    """``text`` with a list of ", not …" after a "no" blanked by spaces (offsets kept)."""

    def blank(found: re.Match[str]) -> str:
        said = found.group(0)
        return " " * len(said) if _NO.search(text, 0, found.start()) else said

    return _EMPHASIS.sub(blank, text)


# A from-span that is a time or a list, not the thing moved away from: "from today, every
# message to the parents goes through Spond".
_NOT_A_PLACE = LazyPattern(
    r"(?:now|today|tonight|tomorrow|next|this|the\s+(?:week|start|end)|[^,]*,)", _I
)


# a clause ends at a colon, a dash, a sentence's end, or ", and"/", but"/", so" before a
# subject of its own ("the sale is off, and Vicente will learn on it")
_CLAUSE_END = LazyPattern(r"[:;—–]|[.!?](?=\s|$)|,\s+(?:and|but|so)\s+(?=\S+\s+\w)")


def change_clause(statement: Statement) -> str:
    """The clause of ``statement``'s text its change cue stands in ("Rõngu is off" of "Rõngu
    is off: Kaarel told Kadri the 25th is open again"): what a cancellation ends is named
    there. A cue that is a clause of its own ("Cancelled: the Lisbon trip", "Lisbon trip:
    cancelled") takes the clauses beside it. The whole text when it has no change."""
    text = statement.text
    cue = next((p for name, p in _CHANGE_CUES if name == statement.change), None)
    if cue is None:
        return text
    found = cue.search(text)
    if found is None:  # the cue is in the heading: "Rõngu is off: Kaarel told Kadri …"
        heading = statement.heading or ""
        return heading if cue.search(heading) else text
    bounds = [0]
    for stop in _CLAUSE_END.finditer(text):
        bounds += [stop.start(), stop.end()]
    bounds.append(len(text))
    spans = list(zip(bounds[::2], bounds[1::2], strict=True))
    at = next(i for i, (_, b) in enumerate(spans) if found.start() < b or i == len(spans) - 1)
    first, last = spans[at]
    rest = text[first : found.start()] + text[found.end() : last]
    if not re.search(r"[^\W\d_]{3}", rest):  # the cue alone: what it ends is beside it
        first = spans[max(0, at - 1)][0]
        last = spans[min(len(spans) - 1, at + 1)][1]
    return text[first:last]


def read_statement(text: str, *, known: Set[str] = frozenset()) -> Statement:
    """``text`` read as a statement (see the module rules); ``known``: folded names of entities
    the caller knows (bank pages, ``@mentions``), which count as names anywhere."""
    return _read(text, frozenset(known))


def _entity_words(entity: str) -> list[str]:
    """The words of a Retain line's ``@entity`` that name it ("&" joins, it names nothing;
    "Clarke's Providers" is Clarke's)."""
    words = (word.removesuffix("'s").removesuffix("’s") for word in entity.split())
    return [word for word in words if any(c.isalpha() for c in word)]


def _entity_subject(words: list[str]) -> str:
    """The word an entity is known by: its first of three letters or more ("Ó Dálaigh Stone
    & Lime" is Dálaigh's), else its first."""
    return next((word for word in words if len(word) >= 3), words[0])


@lru_cache(maxsize=8192)  # a sweep reads the same store rows for the screen, deep and the truth
def _read(text: str, known: frozenset[str]) -> Statement:
    retain = RETAIN.match(text)
    confidence: float | None = None
    entity: str | None = None
    letter: str | None = None
    if retain is not None:
        letter, body = retain.group("type"), collapse(retain.group("body"))
        entity = retain.group("entity") or None
        confidence = float(retain.group("c")) if retain.group("c") else None
        heading = None
    else:
        heading, body = split_heading(text)
        nested = RETAIN.match(body) if heading is not None else None
        if nested is not None:  # "Retain: W @Jonas: Civil engineer at Aarhus Vand."
            letter, body = nested.group("type"), collapse(nested.group("body"))
            entity = nested.group("entity") or None
            confidence = float(nested.group("c")) if nested.group("c") else None
            heading = None
    if (sent := _SENT.match(body)) is not None:
        body = sent.group("rest")  # what the message says, not who sent it when
    names = set(known)
    # An entity's capitalised words ("Tobar Lime Works") name it where they are capitalised;
    # "all our lime" is still about lime. Its lowercase words name it anywhere.
    said = _entity_words(entity) if entity else []
    entity_words = [word.casefold() for word in said]
    proper = {word.casefold() for word in said if word[:1].isupper()}
    names.update(word for word in entity_words if word not in proper)
    values = values_of(body, known=names, proper=proper)
    value_set = frozenset(v.token for v in values)
    # "W @Hilary Pemberton: treasurer" is about Hilary Pemberton, by name
    value_set |= {f"name:{word}" for word in entity_words}
    slot: str | None = None  # a heading naming a thing: "Work party: Sundays 10:00"
    if heading is not None and heading.casefold() not in CATEGORY_HEADINGS:
        lead = heading.split()[0].casefold()
        plain = lead in OPENERS or lead in STOP_WORDS or _PRONOUN_WE.match(lead)
        known_lead = names if plain or _is_label(heading) else names | {lead}
        context = values_of(heading, known=known_lead)
        value_set |= {v.token for v in context}  # "Index note 102.5: ..." is about 102.5
        slot = None if _names_someone(heading) else heading
    subject = _entity_subject(entity_words) if entity_words else _subject(body, heading, names)
    # A heading of three words or more is a clause the body goes on from ("Can't be relied on
    # any more: three hours late"): its negation and its change cue are the line's.
    clause = heading if heading is not None and len(heading.split()) >= 3 else ""
    # a list of nots after a no blanked once, for the change cue and the spans alike
    stressless = _unstressed(body) if ", not" in body else body
    if _WHEN_ENDED.search(body):
        unended = _WHEN_ENDED.sub(" ", body)
        unended = _unstressed(unended) if ", not" in unended else unended
    else:
        unended = stressless
    change = _change(unended) or (_change(clause) if clause else None)
    named = {t.split(":", 1)[1] for t in value_set if ":" in t}
    # what the body's own words name: a heading's or entity's name said in lowercase in the
    # body ("Tobar Lime Works: … all our lime") is a topic word there
    own = {v.token.split(":", 1)[1] for v in values if ":" in v.token} | (
        set(entity_words) - proper
    )
    replaced: set[str] = set()
    spans = _REPLACED_OR_GONE if _GONE_WORD.search(body) else _REPLACED_SPANS
    inside: list[tuple[int, int]] = []
    for span in spans.finditer(stressless):
        if span.lastgroup == "from" and change is None:
            continue  # "the piano from Sala 1 on OLX for €2,200, to pay for…": no change
        group = next((g for g in span.groups() if g), "")
        if span.lastgroup == "about":  # "wrong about Smaart being overkill": not Smaart itself
            replaced.update(_topic_words(group, subject) - named)
            continue
        if span.lastgroup == "wrongname":  # "(Gilmore was wrong)": a name, though it opens
            replaced.add(f"name:{group.casefold().strip(chr(39))}")
            continue
        start = span.start(span.lastgroup or 0)
        inside.append((start, start + len(group)))
        replaced.update(
            v.token for v in values if start <= v.start < start + len(group) and v.token
        )
        if span.lastgroup in _GONE_SPANS:
            replaced.update(_topic_words(group, subject))  # "not by phone": the phone is gone
        elif (
            span.lastgroup == "from"
            and change == "moved"
            and not _NOT_A_PLACE.match(group)
            and not any(start <= v.start < start + len(group) for v in values)
        ):
            # "move from the green ledger to a shared sheet": the ledger is gone, not what
            # both sides name ("from the small hall to the main hall")
            rest = body[:start] + " " + body[start + len(group) :]
            replaced.update(_topic_words(group, subject) - _topic_words(rest, subject))
    # A first name said again outside what is turned down stays: "Anna Berg, never Anna
    # Bergström" turns down Bergström, not Anna ("stopped buying lime from Clarke's" under
    # "Stone & Lime" still turns down the lime).
    kept = _shared_first_names(body, values, inside)
    replaced -= kept | {t.split(":", 1)[1] for t in kept}
    # a "no" in a bracketed aside turns down what the aside names ("the van leaves at 07:00
    # (no longer the farm-gate containers at 07:30)"), not what the line says
    outside = ASIDE.sub(" ", unended) if "(" in unended else unended
    if not _WORDS_LEFT.search(outside):
        outside = unended
    negative = bool(_NEGATION.search(outside)) and not re.search(r",\s*(?:not|never)\s", body, _I)
    negative = negative or bool(clause and _NEGATION.search(clause))
    if confidence is not None and confidence < 0.5:
        negative = True
    topic = _topic_words(body, subject) - own - {_stem(n) for n in own}
    if slot is not None:  # the work party's slot
        topic |= _topic_words(slot, subject) - named - {_stem(n) for n in named}
    taken, refused = _choice(body, subject)
    return Statement(
        text=body,
        subject=subject,
        topic=frozenset(topic),
        values=value_set,
        polarity=-1 if negative else 1,
        change=change,
        replaced=frozenset(replaced),
        heading=heading,
        retain=letter,
        confidence=confidence,
        taken=taken,
        refused=refused,
    )


def _shared_first_names(
    body: str, values: Sequence[TypedValue], inside: Sequence[tuple[int, int]]
) -> set[str]:
    """Names turned down only as the first word of another full name ("never to Anna
    Bergström") that the line also says outside what it turns down ("Anna Berg")."""
    outside = {v.token for v in values if not any(a <= v.start < b for a, b in inside)}
    found: set[str] = set()
    for first, second in pairwise(values):
        if first.token not in outside or not first.token.startswith("name:"):
            continue
        word = re.match(r"\S+", body[first.start :])
        gap = body[first.start + (len(word.group(0)) if word else 0) : second.start]
        if second.token.startswith("name:") and second.token not in outside and not gap.strip():
            found.add(first.token)
    return found


def _choice(body: str, subject: str | None) -> tuple[frozenset[str], frozenset[str]]:
    """The topic words of the clauses a statement takes and of those it turns down, when it
    has both (see the module rules); else two empty sets."""
    taken: set[str] = set()
    refused: set[str] = set()
    for clause in _CLAUSE.split(body):
        words = _topic_words(clause, subject)
        against = _NEGATION.search(clause) or _TURNED_DOWN.search(clause)
        (refused if against else taken).update(words)
    if not taken or not refused:
        return frozenset(), frozenset()
    return frozenset(taken - refused), frozenset(refused - taken)


# "same time", "same place": what a change leaves as it was is not what it is about.
_UNCHANGED = LazyPattern(r"\bsame\s+\w+", _I)


_MOMENTS = frozenset("today tonight tomorrow yesterday tonite".split())
# Clock words said in letters ("half nine", "quarter past seven"): a time, not a topic.
_CLOCK_WORDS = frozenset(
    "half quarter past one two three four five six seven eight nine ten eleven twelve".split()
)
# An acknowledgement that opens a reply is no heading: "Got it: £220 a day plus materials".
_NOT_HEADS = frozenset("not so and but then he she they it".split())
_ACKS = frozenset(
    "got it|understood|ok|okay|sure|will do|done|right|perfect|great|thanks|thank you|alright"
    "|all right|of course|fine".split("|")
)


# When, not what: "from next week", "this month", "every fortnight", "by the weekend".
_WHEN_PHRASE = LazyPattern(
    r"\b(?:from|by|until|till|next|this|last|every|each|per|a|the)\s+(?:next\s+|coming\s+)?"
    r"(?:week|month|year|weekend|fortnight)s?\b",
    _I,
)
# A pronoun with its verb is no topic ("we're Thursdays now"), nor "till" (until).
_CONTRACTED = frozenset(
    "we're i'm you're they're it's he's she's we've i've they've we'll i'll you'll till".split()
)


# Who someone is, said in passing after the name: "Dávid Sipos (the apprentice, 23) is in on
# Tuesdays" speaks of his days, not of apprentices.
_APPOSITION = LazyPattern(r"(?<=\w)\s*\((?:the|our|my|his|her|their)\s[^()]{1,60}\)", _I)


# Where something was written down is not what it is about: "cancelled in the calendar".
_WRITTEN_IN = LazyPattern(
    r"\b(?:in|into|on|from)\s+(?:the|your|my|our|his|her|their|\w+['’]s)\s+(?:shared\s+)?"
    r"(?:calendar|diary|agenda)\b",
    re.IGNORECASE,
)


def _topic_words(text: str, subject: str | None) -> set[str]:
    words = set()
    said = _APPOSITION.sub(" ", _WHEN_PHRASE.sub(" ", _UNCHANGED.sub(" ", text)))
    said = _WRITTEN_IN.sub(" ", said)
    for token in claim_tokens(said):
        if token in _CONTRACTED:
            continue
        token = token.removesuffix("'s")
        if len(token) < 3 or token.isdigit() or token in STOP_WORDS or token in _CHANGE_WORDS:
            continue
        if token in DAYS or token in MONTHS or token in PARTS or any(c.isdigit() for c in token):
            continue
        if token in _MOMENTS or token in _CLOCK_WORDS:
            continue  # "from tonight the briefing goes out at 21:30": tonight is no topic
        if subject and token == subject:
            continue
        words.add(_stem(token))
    return words
