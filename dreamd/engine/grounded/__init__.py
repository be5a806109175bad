"""Grounded replay: reading whole historical notes into explainable, reversible memory.

``preview`` reads a note into statements (``statements``, ``cues``); ``staging`` turns them into
grounded rows of the recall store; ``entries`` and ``backfill`` plan the reversible diary entries
of ``rem-backfill`` and their rollback.

May import: :mod:`dreamd.engine` and the shared top-level modules only. Pure.
"""
