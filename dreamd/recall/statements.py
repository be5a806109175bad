"""Lines read as statements, kept so a turn does not read them again.

A search whose first hits could be one fact, or one a change of another
(:mod:`dreamd.recall.current`), reads each of them with the fact model
(:func:`dreamd.engine.facts.statement.read_statement`): about half a millisecond a line, and
with the patterns it compiles on first use, a third of such a turn. Agents ask about the same
few things turn after turn, so the same lines come back.

Rules:

- ``statement_cache`` (in the index database, :mod:`dreamd.recall.schema`) holds a line's
  statement as JSON under the line. ``meta`` names the fact model's rules they were read under:
  the size and time of every source file of :mod:`dreamd.engine.facts`,
  :mod:`dreamd.engine.text` and this module, and the version. Under other rules (an upgrade, a
  changed rule) no row is used, and the first write makes the table again: nothing reads a
  statement the rules in force would not have read.
- Lines not found are read and added in one short write. When another process holds the
  database (a sweep indexing), the write is skipped: the turn never waits on a cache.
- At most :data:`MAX_ROWS` rows: the oldest leave first. A row that does not decode is read
  again. The table is derived data like the rest of the index: a rebuild and a new schema
  drop it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from dreamd.recall.codestamp import code_stamp
from dreamd.recall.schema import STATEMENT_CACHE

_RULES_KEY = "statement-rules"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at run time
if TYPE_CHECKING:
    from typing import Any

    from dreamd.engine.facts.statement import Statement
    from dreamd.recall.index import RecallIndex

__all__ = ["MAX_ROWS", "cached_statements", "decode", "encode", "rules_stamp"]


MAX_ROWS = 20_000
_SETS = frozenset({"topic", "values", "replaced", "taken", "refused"})
_RULE_SOURCES = ("engine/facts/*.py", "engine/text/*.py", "recall/statements.py")


def rules_stamp() -> str:
    """What the fact model's reading depends on: its source files' sizes and times, and the
    version (worked out once a process)."""
    return code_stamp(_RULE_SOURCES)


def encode(statement: Statement) -> str:
    """``statement`` as JSON (its fields in order, sets sorted)."""
    fields = []
    for name in statement.__match_args__:
        value = getattr(statement, name)
        fields.append(sorted(value) if name in _SETS else value)
    return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def decode(body: str) -> Statement | None:
    """The statement :func:`encode` wrote, or ``None`` when ``body`` does not decode."""
    from dreamd.engine.facts.statement import Statement

    try:
        fields = json.loads(body)
        names = Statement.__match_args__
        if not isinstance(fields, list) or len(fields) != len(names):
            return None
        values: dict[str, Any] = {
            name: frozenset(value) if name in _SETS else value
            for name, value in zip(names, fields, strict=True)
        }
        return Statement(**values)
    except (ValueError, TypeError):
        return None


def cached_statements(index: RecallIndex, texts: Sequence[str]) -> list[Statement]:
    """``texts`` read as statements: from the cache where it has them, else read now and kept
    (see the module rules)."""
    rules = rules_stamp()
    wanted = sorted(set(texts))
    found: dict[str, Statement] = {}
    for text, body in index.read(lambda conn: _load(conn, wanted, rules)):
        statement = decode(body)
        if statement is not None:
            found[text] = statement
    missing = [text for text in wanted if text not in found]
    if missing:
        from dreamd.engine.facts.statement import read_statement

        fresh = {text: read_statement(text) for text in missing}
        found.update(fresh)
        rows = [(text, encode(statement)) for text, statement in fresh.items()]
        index.write_derived(lambda conn: _save(conn, rows, rules))
    return [found[text] for text in texts]


def _load(conn: sqlite3.Connection, texts: Sequence[str], rules: str) -> list[tuple[str, str]]:
    if not texts:
        return []
    try:
        stored = conn.execute("SELECT value FROM meta WHERE key = ?", (_RULES_KEY,)).fetchone()
        if stored is None or stored[0] != rules:
            return []
        marks = ",".join("?" * len(texts))
        return conn.execute(
            f"SELECT text, body FROM {STATEMENT_CACHE} WHERE text IN ({marks})",  # noqa: S608 - fixed name, placeholders
            texts,
        ).fetchall()
    except sqlite3.OperationalError:  # no table yet: an index older than the cache
        return []


def _save(conn: sqlite3.Connection, rows: Sequence[tuple[str, str]], rules: str) -> None:
    stored = conn.execute("SELECT value FROM meta WHERE key = ?", (_RULES_KEY,)).fetchone()
    if stored is None or stored[0] != rules:  # made again: other rules, maybe another shape
        conn.execute(f"DROP TABLE IF EXISTS {STATEMENT_CACHE}")
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (_RULES_KEY, rules))
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {STATEMENT_CACHE}(text TEXT PRIMARY KEY, body TEXT NOT NULL)"
    )
    conn.executemany(
        f"INSERT OR REPLACE INTO {STATEMENT_CACHE}(text, body) VALUES (?, ?)",  # noqa: S608 - a fixed name
        rows,
    )
    top = conn.execute(f"SELECT max(rowid) FROM {STATEMENT_CACHE}").fetchone()[0]  # noqa: S608
    if top is not None and top > MAX_ROWS:
        conn.execute(
            f"DELETE FROM {STATEMENT_CACHE} WHERE rowid <= ?",  # noqa: S608 - a fixed name
            (top - MAX_ROWS,),
        )
