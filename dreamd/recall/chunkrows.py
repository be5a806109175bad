"""A file's chunk rows as the index stores them, and their form in the note cache.

Chunking and labelling every line of every note was, after redaction and the graph fragment
(which :mod:`dreamd.recall.notecache` already keeps), most of what a rebuild of the index cost.
A file's rows depend only on its path, its redacted text and the code that chunks and labels
it, so the note cache keeps them too.

Rules:

- A row is ``(path, start_line, end_line, heading, speaker, text, grams, day, kind, confidence,
  entities)``, the columns of ``chunks`` (:mod:`dreamd.recall.schema`).
- The cached form leaves the path out, and the text too where it is the row's lines of the
  redacted text joined with ``"\\n"`` (every chunk but ``MEMORY.md``'s cleaned entries): the
  cache holds no second copy of the notes.
- The cached form names the code it was made by (:func:`dreamd.recall.codestamp.code_stamp` of
  the chunking and labelling modules). Rows made by other code, rows that do not decode, and
  line ranges the text does not have are not used: the file is chunked again.

Pure: no I/O.
"""

from __future__ import annotations

import json

from dreamd.recall.codestamp import code_stamp

__all__ = ["Row", "chunk_rows", "decode_rows", "encode_rows", "rows_stamp"]

Row = tuple[str, int, int, str, str, str, str, str | None, str, float | None, str]

# What a file's rows depend on besides its path and redacted text.
_SOURCES = (
    "layout.py",
    "engine/text/blocks.py",
    "engine/text/snippets.py",
    "recall/analysis.py",
    "recall/chunking.py",
    "recall/chunkrows.py",
    "recall/labels.py",
    "recall/retain.py",
    "recall/sources.py",
)


def rows_stamp() -> str:
    """The stamp of the code that chunks and labels a file (worked out once a process)."""
    return code_stamp(_SOURCES)


def chunk_rows(path: str, redacted: str, kind: str) -> list[Row]:
    """The rows of the file at ``path`` whose redacted text is ``redacted``; ``kind`` is the
    path's kind, which a Retain fact's own kind overrides."""
    from dreamd.recall.chunking import chunk_for_index
    from dreamd.recall.labels import label_chunk

    rows: list[Row] = []
    for c in chunk_for_index(path, redacted):
        labels = label_chunk(c.text, c.heading)
        rows.append(
            (
                path,
                c.start_line,
                c.end_line,
                c.heading,
                labels.speaker,
                c.text,
                labels.grams,
                c.day,
                labels.kind or kind,
                labels.confidence,
                " ".join(labels.entities),
            )
        )
    return rows


def encode_rows(rows: list[Row], redacted: str) -> str:
    """``rows`` in their cached form (see the module rules)."""
    lines = redacted.split("\n")
    kept = []
    for _path, start, end, *labels in rows:
        text = labels[2]
        labels[2] = None if text == "\n".join(lines[start - 1 : end]) else text
        kept.append([start, end, *labels])
    return json.dumps([rows_stamp(), kept], ensure_ascii=False, separators=(",", ":"))


def decode_rows(cached: str | None, path: str, redacted: str) -> list[Row] | None:
    """The rows :func:`encode_rows` kept for ``path`` with this ``redacted`` text, or ``None``
    when there are none the code in force would have made."""
    if cached is None:
        return None
    try:
        stamp, kept = json.loads(cached)
        if stamp != rows_stamp():
            return None
        lines = redacted.split("\n")
        rows: list[Row] = []
        for start, end, heading, speaker, text, grams, day, kind, confidence, entities in kept:
            if not 1 <= start <= end <= len(lines):
                return None
            if text is None:
                text = "\n".join(lines[start - 1 : end])
            rows.append(
                (path, start, end, heading, speaker, text, grams, day, kind, confidence, entities)
            )
    except (ValueError, TypeError):
        return None
    return rows
