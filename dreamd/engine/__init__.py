"""The functional core: every decision dreaming makes, as pure functions over data.

Lives here: the data a sweep plans over and hands on (``state``: the machine state's types and
codecs; ``snapshot``: what a sweep read; ``plan``: what it will write; ``hits``, ``traces``,
``retirement``, ``transcripts``, ``explain``), the phases (:mod:`dreamd.engine.phases`), the
grounded replay (:mod:`dreamd.engine.grounded`) and the text rules they share
(:mod:`dreamd.engine.text`).

May import: only ``dreamd.engine`` itself and the shared top-level modules (``errors``,
``clock``, ``config``, ``layout``, ``redaction``...). Never the store, recall, workspace, model,
host, runs, daemon, chat, service or cli packages.

The rule: no I/O, no clock, no asyncio. Time comes in as an argument; files come in as text in a
:class:`~dreamd.engine.snapshot.Snapshot` and go out as a :class:`~dreamd.engine.plan.SweepPlan`.
The same inputs give the same plan, so a second sweep over its own output changes nothing.
"""
