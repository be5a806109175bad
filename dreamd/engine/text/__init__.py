"""Text rules the phases share: snippets, token sets, concept tags, contamination, salience,
managed blocks, note decoding, MEMORY.md entries, near-duplicate claims, instruction-shaped text,
durable claims, REM themes and the Porter stemmer FTS5 applies (recall's queries and the fact
model's topic words share it).

May import: :mod:`dreamd.engine.text` and the shared top-level modules only. Pure: strings in,
strings (or verdicts) out, identical for notes, transcripts and queries.
"""
