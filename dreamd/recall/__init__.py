"""Recall: the derived FTS5 index over a workspace's Markdown, search, and recording traces.

Lives here: the index (``index``, ``schema``, ``sources``, ``chunking``, ``labels``), the query
side (``analysis``, ``query``, ``dates``, ``candidates``, ``ranking``, ``rerank``:
the second stage, ``current``: one result per fact, what is true now first, ``search``,
``retain``), the long-term layer's queries (``longterm``), ``record`` (a search's hits into the
recall store, under the lock) and ``audit`` (the health of all of it, read-only). What recall
covers and why, and how it ranks: ``docs/recall.md``.

May import: :mod:`dreamd.workspace`, :mod:`dreamd.store`, :mod:`dreamd.engine` and the shared
top-level modules.

The rule: the index is derived, always rebuildable from the Markdown; losing it loses nothing.
"""
