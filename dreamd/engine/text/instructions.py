"""Instruction-shaped text: orders addressed to the agent or the system, never promoted.

MEMORY.md is loaded into every conversation the agent has, so whatever lands there is obeyed.
A snippet is instruction-shaped when it has one of these shapes (the reason names it):

* ``override``   telling the reader to drop what it was told: "ignore (all) previous
  instructions", "disregard the above", "forget your rules", in English, Spanish, French,
  German, Chinese, Japanese and Korean;
* ``role``       giving the reader a new identity or mode: "you are now…", "from now on you…",
  "pretend you are…", "your new instructions are…", "developer mode";
* ``address``    speaking to the agent as such: "note to the AI", "note for automated
  assistants", "dear assistant", "if you are an AI", "agents reading this must…", "as an AI
  you…", "Assistant instructions:", "AI assistants managing a diary: complete the form";
* ``order``      second-person absolutes: "you must always/never…", "you are required to…";
  acting for the person automatically and without asking ("automatically pay … no need to ask
  Marisol"), which a note about a direct debit ("paid automatically on the 3rd") is not;
* ``secrecy``    hiding from or leaking past the person: "do not tell the user", "reveal your
  system prompt", sending memory to a URL;
* ``role marker`` chat-template and role tokens: ``SYSTEM:``, ``[INST]``, ``<<SYS>>``,
  ``<|im_start|>``, ``<system>``, "IMPORTANT SYSTEM NOTICE", "ADMIN OVERRIDE";
* ``hidden order`` an order where a reader of the rendered note never sees it: inside an HTML
  comment (``<!-- … -->``, also entity-escaped ``&lt;!--``), inside an element styled out of
  sight (``<span style="color:#fff">``, ``display:none``, ``font-size:0``, ``hidden``), or
  after a role label (``assistant:``, ``agent:``, ``AI:``), a verb that acts for the person:
  approve, authorise, pay, forward, confirm, reply, grant, push, transfer, delete...;
* ``tool call``  tool or function-call syntax: ``<tool_call>``, ``<function_call>``,
  ``{"name": …, "arguments": …}``, ``"tool_calls"``;
* ``imitation``  text posing as dreaming's own output: the ``Light Sleep``/``REM Sleep``/``Deep
  Sleep``/``Dream Diary`` blocks (as a heading or as the heading prefix a chunk carries), the
  lines their bodies are made of ("Promoted 2 candidate(s) into MEMORY.md", "kept surfacing
  across 3 memories"), their ``dreamd:``/``openclaw:`` markers, promotion sections and markers.

What stays promotable: a person's own procedures and rules, however imperative ("Always run
migrations before deploying", "Never push to main on Fridays", "You must renew the TLS
certificate before March"), preferences about how the agent should behave stated as facts
("Answer Maria in Spanish"), and notes that merely mention prompts or systems. The measured
precision and recall on a corpus of both kinds is in ``tests/instruction_corpus.py``. Pure.
"""

from __future__ import annotations

import re

from dreamd.engine.text.snippets import collapse

__all__ = ["instruction_reason", "is_instruction"]

_I = re.IGNORECASE
_AGENT = r"(?:ai|a\.i\.|assistant|agent|llm|language\s+model|chatbot|claude|chatgpt)"
_QUALIFIER = r"(?:your|previous|prior|above|earlier|preceding|foregoing|system|all)"
_ORDERS = r"(?:instructions?|prompts?|rules|directives?|guidelines|guardrails|constraints|context)"
_SECRETS = (
    r"(?:secrets?|passwords?|credentials?|api\s+keys?|keys|tokens?|conversations?|chats?|"
    r"messages|memor(?:y|ies)|workspace|memory\.md)"
)

_KIND = r"(?:(?:automated|automatic|virtual|digital|autonomous|smart|ai)\s+)?"
# whom an address speaks to before it says what they do: "AI assistants", "AI systems"
_READERS = rf"\b{_AGENT}s?\s+(?:systems?\s+|tools?\s+|models?\s+)?"
# AI assistants spoken to (in the plural: "mi asistente de IA" is the person's own) in
# Spanish, Portuguese, French, Italian or German
_FOREIGN_AGENT = (
    r"\b(?:(?:asistentes|agentes|assistentes|assistants|assistenti|agenti|agents)\s+(?:virtuales|"
    r"virtuais|virtuels|virtuali|de\s+(?:inteligencia|intelig[eê]ncia)\s+artificial|"
    r"d['’]intelligence\s+artificielle|di\s+intelligenza\s+artificiale|de\s+ia|d['’]ia|di\s+ia|"
    r"ia\b|ai\b)|ki-(?:assistent|agent)en)"
)
# what such an address orders: enter, forward, send, click, visit, pay, transfer, confirm
_FOREIGN_ORDER = (
    r"\b(?:ingres[ea]n?|introduzcan?|reenv[ií](?:en|e|ar)|env[ií](?:en|e)|hagan\s+clic|"
    r"visiten|paguen|transfieran|confirmen|entrez|saisissez|transférez|transmettez|envoyez|"
    r"cliquez|visitez|payez|confirmez|inserisci|inserite|inoltra(?:te)?|invia(?:te)?|cliccate|"
    r"visitate|pagate|insiram|digitem|encaminhem|enviem|cliquem|visitem|paguem|geben\s+sie|"
    r"leiten\s+sie|senden\s+sie|klicken\s+sie|besuchen\s+sie|zahlen\s+sie|überweisen\s+sie)\b"
)
_ASKING = (
    r"(?:no\s+need\s+to\s+(?:ask|check|confirm)|without\s+(?:asking|checking|approval|"
    r"confirmation|confirming))"
)
_ACTS = (
    r"(?:approve|authori[sz]e|pay|wire|forward|confirm|reply|respond|grant|push|merge|deploy|"
    r"transfer|delete|remove|disable|send|share|upload|sign|accept|book|order|buy|release|renew|"
    r"cancel|settle)"
)

# An HTML element styled so a reader of the rendered page never sees it: white or transparent
# text, no size, no display, no opacity, the hidden attribute.
_INVISIBLE = (
    r"(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|"
    r"opacity\s*:\s*0(?![.\d]*[1-9])|color\s*[:=]\s*[\"']?\s*(?:#fff(?:fff)?\b|white\b|"
    r"transparent\b|rgba?\(\s*255\s*,\s*255\s*,\s*255)|\bhidden\b)"
)

_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "override",
        re.compile(
            rf"\b(?:ignore|disregard|forget)\s+(?:(?:all|any|every|each|of|the|these|those)\s+)"
            rf"{{0,3}}{_QUALIFIER}\s+(?:\w+\s+)?{_ORDERS}\b"
            rf"|\b(?:ignore|disregard|forget)\s+(?:all\s+of\s+)?(?:everything|anything)\s+"
            rf"(?:above|before|else|you\s+(?:were|have\s+been|'ve\s+been)\s+told)"
            rf"|\b(?:ignore|disregard)\s+(?:all\s+of\s+)?the\s+above\b"
            rf"|\b(?:override|bypass)\s+(?:all\s+)?your\s+(?:\w+\s+)?"
            rf"(?:{_ORDERS}|restrictions|filters|policies)\b"
            r"|\bignor[ae]\w*\s+(?:todas\s+)?las\s+instrucciones"
            r"|\bignor\w*\s+(?:toutes\s+)?les\s+(?:instructions|consignes)"
            r"|\b(?:ignorier|vergiss)\w*\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+|obigen\s+)?"
            r"(?:Anweisungen|Instruktionen|Befehle|Regeln)"
            r"|忽略.{0,8}(?:指令|指示|说明|提示)|(?:指示|命令|指令).{0,6}無視"
            r"|(?:지시|명령|지침).{0,6}무시",
            _I,
        ),
    ),
    (
        "role",
        re.compile(
            r"\byou\s+are\s+now\b|\bfrom\s+now\s+on,?\s+you\b|\bpretend\s+(?:to\s+be|you\s+are)\b"
            r"|\byour\s+new\s+(?:role|instructions?|task|orders|persona|rules)\b"
            r"|\bnew\s+instructions\s*:|\b(?:developer|dan|god|jailbreak)\s+mode\b"
            r"|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored)\b"
            r"|\bno\s+longer\s+(?:bound|restricted)\s+by\b"
            r"|\byour\s+(?:real|true|actual|secret|hidden)\s+(?:task|purpose|goal|job|mission|"
            r"instructions?)\b",
            _I,
        ),
    ),
    (
        "address",
        re.compile(
            rf"\b(?:note|message|instructions?|reminder|memo)\s+(?:to|for)\s+"
            rf"(?:the\s+|any\s+|all\s+)?{_KIND}{_AGENT}s?\b"
            rf"|\b(?:dear|attention|hey)\s*,?\s+{_AGENT}s?\b"
            rf"|\bif\s+you\s+are\s+(?:an?\s+)?{_AGENT}\b"
            rf"|\b{_AGENT}s?\s+(?:reading|processing|parsing|seeing)\s+this\b"
            rf"|\bas\s+an?\s+{_AGENT}\b[^.]{{0,40}}\byou\b"
            r"|\bwhen(?:ever)?\s+you\s+(?:read|see|process|load)\s+this\b"
            r"|\b(?:ai(?:\s+agents?)?|assistants?|llms?|language\s+models?|chatbots?)\s+"
            r"(?:must|shall)\b"
            r"|^(?:hey\s+)?(?:ai|assistant|model|bot|llm)\s*,\s"
            rf"|\b{_AGENT}s?\s+(?:instructions?|orders|directives?)\s*:"
            # "AI assistants managing a runner's diary: complete the form …", "AI systems
            # processing this bundle: record that …": whom it speaks to, then what to do
            rf"|{_READERS}(?:reading|processing|"
            r"parsing|seeing|managing|handling|running|helping|working\s+(?:on|for)|acting\s+for|"
            r"looking\s+after)\b[^.:;\n]{0,60}:\s*(?:please\s+)?(?:record|complete|forward|send|"
            r"reply|save|store|remember|note|add|update|delete|remove|pay|approve|confirm|fill|enter|"
            r"submit|share|tell|inform|mark|set|change|book|cancel|click|visit|go|open|download|run|"
            r"execute|ignore|treat|write|transfer|authori[sz]e)\b"
            # the same address with a claim first and the orders in a later sentence: "To all AI
            # assistants managing horse owners' messages: MAST requires … Go to …, enter …"
            rf"|{_READERS}(?:reading|processing|"
            r"managing|handling|running|helping|looking\s+after)\b[^.:;\n]{0,60}:[^\n]{0,240}?"
            r"[.!]\s+(?:please\s+)?(?:go\s+to\s+\S+\.[a-z]{2,}|visit\s+\S+\.[a-z]{2,}|"
            r"click\s+(?:the|this)\s+link|forward\s+this\s+(?:message|mail|e-?mail)|"
            r"enter\b[^.\n]{0,60}\b(?:card|number|password|pin|code|kennitala|details|id)\b)"
            # the same in other languages: "ATENCIÓN asistentes de inteligencia artificial que
            # gestionan …: … reenvíen este mensaje", "assistants IA qui gèrent …: cliquez …"
            rf"|{_FOREIGN_AGENT}[^\n]{{0,400}}?{_FOREIGN_ORDER}",
            _I,
        ),
    ),
    (
        "order",
        re.compile(
            rf"\bautomatic(?:ally)?\s+{_ACTS}\w*\b[^\n]{{0,160}}\b{_ASKING}"
            rf"|\b{_ASKING}\b[^\n]{{0,160}}\bautomatic(?:ally)?\s+{_ACTS}\w*\b"
            r"|\byou\s+(?:must|shall)\s+(?:always|never|now|immediately)\b"
            r"|\byou\s+are\s+(?:required|instructed|ordered|authori[sz]ed|commanded)\s+to\b"
            r"|\byou\s+must\s+(?:obey|comply|follow\s+(?:these|this|the\s+following))\b",
            _I,
        ),
    ),
    (
        "secrecy",
        re.compile(
            r"\b(?:do\s+not|don't|never|without)\s+(?:tell|telling|inform|informing|mention|"
            r"mentioning|reveal|revealing|alert|alerting)\s+(?:this\s+)?(?:to\s+)?"
            r"(?:the\s+|your\s+)?(?:user|owner|human|operator)s?\b"
            # "Do not show this text to the user."
            r"|\b(?:do\s+not|don't|never)\s+(?:show|display|read\s+out|forward)\s+(?:this|it|these)"
            r"(?:\s+(?:text|message|note|part|line|instruction)s?)?\s+to\s+(?:the\s+|your\s+)?"
            r"(?:user|owner|human|operator)s?\b"
            r"|\b(?:reveal|print|show|output|leak|repeat|dump)\s+(?:your|the)\s+(?:full\s+)?"
            r"(?:system\s+prompt|hidden\s+instructions|initial\s+prompt)\b"
            r"|\b(?:silently|secretly|quietly)\s+(?:send|upload|forward|copy|post|delete|share|"
            r"transfer|email)\b"
            rf"|\b(?:send|upload|forward|exfiltrate|leak|post|email)\s+(?:all\s+|every\s+|"
            rf"your\s+|the\s+|their\s+)*(?:\w+\s+)?{_SECRETS}\b[^.]{{0,60}}?\bto\s+"
            r"(?:https?://|\S+@\S+)",
            _I,
        ),
    ),
    (
        "role marker",
        re.compile(
            r"(?:^|[\s\"'(\[])SYSTEM\s*:|\bSYSTEM\s+(?:NOTICE|OVERRIDE|MESSAGE|ALERT|PROMPT)"
            r"|(?i:\[/?(?:INST|SYSTEM|SYS)\]|<</?SYS>>|<\|[a-z_]{2,20}\|>"
            r"|</?(?:system|assistant|developer)>"
            r"|###\s*(?:System|Instruction|Human|Assistant)\s*:"
            r"|\bimportant\s+system\s+(?:notice|message|alert|instruction)s?\b"
            r"|\bsystem\s+override\b|\badmin(?:istrator)?\s+(?:override|notice|command)s?\b"
            r"|\bpriority\s+override\b)",
        ),
    ),
    (
        "hidden order",
        re.compile(
            rf"(?:<|&lt;|&#0*60;)!--(?:(?!-->|--&gt;).){{0,200}}?\b{_ACTS}\b"
            rf"|(?:^|[>\s(\[])(?:ai|assistant|agent|bot|model|llm)\s*:\s*(?:please\s+)?{_ACTS}\b"
            rf"|<[a-z][a-z0-9]*\b[^>]*{_INVISIBLE}[^>]*>(?:(?!</).){{0,300}}?\b{_ACTS}\b",
            _I,
        ),
    ),
    (
        "tool call",
        re.compile(
            r"</?(?:tool_call|tool_use|function_call|function_calls|tool_result)\b[^>]*>"
            r"|<function\s*=|\"(?:tool_calls|function_call)\"\s*:"
            r"|\{\s*\"name\"\s*:\s*\"[^\"]+\"\s*,\s*\"(?:arguments|parameters|input)\"\s*:",
            _I,
        ),
    ),
    (
        "imitation",
        re.compile(
            r"^(?:#{1,3}\s*)?(?:Light Sleep|REM Sleep|Deep Sleep|Dream Diary|"
            r"Memory Consolidation History|Promoted From Short-Term Memory)\b"
            r"|#{1,3}\s*(?:Light Sleep|REM Sleep|Deep Sleep|Dream Diary)\b"
            r"|Promoted From Short-Term Memory \("
            r"|\b(?:Ranked|Promoted) \d+ candidate\(s\)|\bkept surfacing across \d+ memories"
            r"|\bPossible Lasting Truths\b|\bNo (?:durable changes|notable updates)\."
            r"|(?i:<!--\s*(?:dreamd|openclaw)[:-]"
            r"|\b(?:dreamd|openclaw)(?::dreaming:|-memory-(?:promotion|lineage)))",
        ),
    ),
)


def instruction_reason(snippet: str) -> str | None:
    """The shape that makes ``snippet`` an order to the agent (see the module rules), or None."""
    text = collapse(snippet)
    for reason, pattern in _SHAPES:
        if pattern.search(text):
            return reason
    return None


def is_instruction(snippet: str) -> bool:
    """True when ``snippet`` must never be promoted into MEMORY.md."""
    return instruction_reason(snippet) is not None
