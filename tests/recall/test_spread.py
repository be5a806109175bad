"""The ranking's near-duplicate spread, against the plain set-by-set definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.text.tokens import token_set
from dreamd.recall.candidates import Row
from dreamd.recall.ranking import DUPLICATE_SIMILARITY, Ranked, _spread

WORDS = "billing service postgres db02 ana owns release checklist wiki backup nas vpn".split()


def _jaccard(left: frozenset[str], right: frozenset[str]) -> float:
    small, large = sorted((len(left), len(right)))
    if not large or small < DUPLICATE_SIMILARITY * large:
        return 0.0
    return len(left & right) / len(left | right)


def _reference(ranked: list[Ranked], span: int) -> list[Ranked]:
    """Every row compared with every row before it, one set operation per pair."""
    if len(ranked) < 2:
        return ranked
    best, seen, distinct, spread = ranked[0].rank, [], 0, []
    for position, item in enumerate(ranked):
        if distinct >= span:
            spread += ranked[position:]
            break
        words = token_set(item.row.text)
        overlap = max((_jaccard(words, other) for other in seen), default=0.0)
        seen.append(words)
        if overlap >= DUPLICATE_SIMILARITY:
            item = Ranked(item.row, item.score, item.rank - overlap * best / 2, item.signals)
        else:
            distinct += 1
        spread.append(item)
    return sorted(spread, key=lambda r: (-r.rank, r.row.path, r.row.start_line))


def _row(number: int, words: list[str]) -> Row:
    text = " ".join(words)
    return Row(
        number,
        f"memory/2026-11-{number % 28 + 1:02d}.md",
        number + 1,
        number + 1,
        "",
        "",
        text,
        "",
        None,
        "daily",
        None,
        "",
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(WORDS), max_size=9), min_size=0, max_size=40),
    st.integers(1, 12),
)
def test_the_spread_equals_the_pairwise_definition(texts: list[list[str]], span: int) -> None:
    """Bit masks and the repeat shortcut change the cost, never the order or the ranks."""
    ranked = sorted(
        (Ranked(_row(n, words), 1.0 - n / 100, 1.0 - n / 100, {}) for n, words in enumerate(texts)),
        key=lambda r: -r.rank,
    )
    assert _spread(list(ranked), span) == _reference(list(ranked), span)
