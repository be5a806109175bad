"""The phases of a sweep: light, REM, deep, the diary, and the cycle that chains them.

``cycle.plan_sweep(snapshot, dreaming, now=..., zone=...)`` is the one entry point a sweep calls;
each phase is a ``plan_*`` function over the snapshot and the previous phase's result, chained in
memory. Deep is the only phase that plans a change to ``MEMORY.md``; the model's part
(``modelwork``, ``consolidate``, ``narrative``) is data in and data out, asked for by
:mod:`dreamd.model`.

May import: :mod:`dreamd.engine` and the shared top-level modules only. Pure.
"""
