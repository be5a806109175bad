"""Hypothesis strategies shared by the property tests: notes, recall histories, workspaces."""

from __future__ import annotations

from hypothesis import strategies as st

WORDS = (
    "billing postgres host backup nas release checklist staging vpn profile deploy queue "
    "service alice bob tea coffee lunch standup rollout friday cache s3 gateway router 数据库 备份"
).split()

sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join)

line = st.one_of(
    sentence.map(lambda s: f"- {s.capitalize()}."),
    sentence.map(lambda s: s.capitalize() + "."),
    st.sampled_from(["## Decisions", "## Monday", "", "", "<!-- note -->", "- ok"]),
    st.text(max_size=40),
)

note = st.lists(line, min_size=0, max_size=25).map("\n".join)

# (note index, line number, query index, origin, days after the note) of one recall.
recall = st.tuples(
    st.integers(0, 5),
    st.integers(1, 8),
    st.integers(0, 5),
    st.sampled_from(["agent", "agent", "owner", "untrusted"]),
    st.integers(0, 8),
)

# A fact asked about five times, by five distinct questions, two days apart.
strong_recalls = st.tuples(st.integers(0, 5), st.integers(1, 8)).map(
    lambda target: [(target[0], target[1], i, "agent", 2 * i) for i in range(5)]
)


def _redaction_lines() -> list[str]:
    from tests import redaction_corpus_fresh

    samples = [s.text for s in redaction_corpus_fresh.secret_samples()]
    return samples + [x.text for x in redaction_corpus_fresh.lookalikes()]


# Notes mixing secrets, personal data, their look-alikes and plain prose, as a person writes them.
secret_notes = st.lists(
    st.one_of(st.sampled_from(_redaction_lines()), line), min_size=1, max_size=12
).map("\n".join)
