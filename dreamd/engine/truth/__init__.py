"""The truth files: ``memory/user_state.md`` and ``memory/pending.md`` (seed 004).

Lives here: what the person's current values are (``state``: the facts that changed, each
with the day it became true and what it replaced, from the supersession model of
:mod:`dreamd.engine.phases.supersession`), the action items of the notes and the lines that
say they are done (``tasks``), which items are open and which were closed (``pending``), the
machine state ``memory/.dreams/truth.json`` (``ledger``), and ``plan.plan_truth``, which
writes both files around a person's edits, as bank pages are (:mod:`dreamd.engine.bank.block`).

May import: :mod:`dreamd.engine` and the shared top-level modules only.

The rule: both files are derived. They restate the notes and MEMORY.md, so recall never answers
from them (:data:`dreamd.recall.sources.DERIVED`) and no sweep reads them as notes. Pure: no
I/O, no clock; a second sweep over unchanged input plans no write.
"""
