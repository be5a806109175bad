"""Facts that change over time: one model for MEMORY.md, the bank, recall and the night's work.

A line of memory is read as a :class:`~dreamd.engine.facts.statement.Statement`: its subject
(who or what it is about), its topic (the content words that name the slot: "swimming lesson",
"contact at Halvorsen"), its values (what it says of the slot: a weekday, a time, a number, a
name), its polarity (says so, or says no longer), whether it announces a change ("moved to",
"switched to", "is now", "no longer", "X, not Y", "correction:", "instead of", "reversed",
"cancelled") and what it says it replaces. From two statements the relations follow
(:mod:`~dreamd.engine.facts.relations`): the same fact said twice (a paraphrase), or a newer
statement that replaces an older one (same slot, another value). A timeline of dated statements
(:mod:`~dreamd.engine.facts.timeline`) tells what is current and what was true until when.
:mod:`~dreamd.engine.facts.lasting` tells a lasting fact (identity, relations, preferences,
rules, procedures, lessons, standing arrangements, decisions, project and contact facts) from
what only happened (a log line, a status, a greeting, trivia, a lead-in).

May import: :mod:`dreamd.engine.text` and the shared top-level modules. Pure and deterministic:
no model, no I/O; the same text always reads the same way.
"""
