"""The memory bank: typed, curated pages reflected from the daily notes (SPEC §15, seed 003).

Lives here: the Retain parser (``retain``), facts with stable ids and sources (``facts``),
opinions whose confidence follows evidence (``opinions``), the managed block of a bank page and
how a person's edits inside it are kept (``block``), the page texts (``pages``), the bank's
machine state (``ledger``), the model's proposed facts and their checks (``proposals``), and
``reflect.plan_reflect``, which chains them into the writes of one reflection.

May import: :mod:`dreamd.engine` and the shared top-level modules only.

The rule: Markdown stays the source of truth. The bank is derived from the notes plus the
person's edits to it: deleting ``bank/`` and reflecting again writes the same pages (text a
person added aside). Pure: no I/O, no clock; the same snapshot plans the same writes, and a
second reflection over its own output plans none.
"""
