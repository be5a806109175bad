"""Text rules the phases share: snippets, token sets, concept tags, contamination, salience,
managed blocks.

May import: :mod:`dreamd.engine.text` and the shared top-level modules only. Pure: strings in,
strings (or verdicts) out, identical for notes, transcripts and queries.
"""
