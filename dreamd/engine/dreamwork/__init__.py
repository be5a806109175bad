"""What a night of dreaming makes of the graph: patterns, topic files, health and the report.

Lives here: ``learnings`` (the entries of ``.learnings/``), ``recurrence`` (the tellings of a
mistake, grouped by meaning), ``patterns`` (recurring mistakes as
``memory/patterns/p-<slug>.md``), ``topics`` (``memory/topics/<kind>_<slug>.md``
from recurring entities and corrections), ``health`` (the score and its named components),
``report`` (``memory/dreams/YYYY-MM-DD.md`` and its line in ``memory/dream-log.md``) and
``plan.plan_dreamwork``, which chains them with the graph into the writes of one sweep.

May import: :mod:`dreamd.engine` and the shared top-level modules only. Pure; pages a person
edited are never written again; every text goes through :func:`dreamd.redaction.redact`.
"""
