"""The grounded REM preview: statements, cue words, the four sections, and their invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.grounded.cues import heading_cues, is_sensitive, read_cues
from dreamd.engine.grounded.preview import note_json, plan_grounded, section_lines
from dreamd.engine.grounded.statements import statements_of, topics_of
from dreamd.engine.phases.rehydrate import rehydrate
from tests import strategies

NOTE = """---
title: ignored front matter line
---
# 2026-01-05

## Decisions
- We decided to deploy billing only on Tuesdays from now on.
- Alice owns the billing service and is on-call this week.
- The staging database runs on Postgres 16 at db-02.internal:5432.

## Log
- Had lunch with Bob, the weather was awful today.
- [ ] Need to follow up with Carol about the invoice export.
- [x] Fixed the flaky checkout test in CI.
- Maybe we should move the cron to 4am?
- Bob prefers short answers without emojis.
- ok

Some prose line that continues
over two lines about the billing service migration.

```
- We decided this inside a code fence, so it is not a statement.
```
| a table row | that is skipped |
> a quoted line that is skipped too
<!-- a comment line that is skipped -->
"""


def test_statements_are_list_items_and_prose_runs() -> None:
    """List items are one statement each; prose lines join; everything else is skipped."""
    found = [(s.start_line, s.end_line, s.text) for s in statements_of(NOTE)]
    assert found == [
        (7, 7, "We decided to deploy billing only on Tuesdays from now on."),
        (8, 8, "Alice owns the billing service and is on-call this week."),
        (9, 9, "The staging database runs on Postgres 16 at db-02.internal:5432."),
        (12, 12, "Had lunch with Bob, the weather was awful today."),
        (13, 13, "Need to follow up with Carol about the invoice export."),
        (14, 14, "Fixed the flaky checkout test in CI."),
        (15, 15, "Maybe we should move the cron to 4am?"),
        (16, 16, "Bob prefers short answers without emojis."),
        (
            19,
            20,
            "Some prose line that continues over two lines about the billing service migration.",
        ),
    ]


def test_task_boxes_are_read() -> None:
    """An open task box marks a task; a ticked one a done task."""
    tasks = {s.start_line: (s.open_task, s.done_task) for s in statements_of(NOTE)}
    assert (tasks[13], tasks[14], tasks[16]) == ((True, False), (False, True), (False, False))


def test_managed_blocks_and_dreaming_output_are_not_statements() -> None:
    """Text inside managed blocks, staging echoes and credentials never become statements."""
    note = "\n".join(
        [
            "## Light Sleep",
            "<!-- dreamd:dreaming:light:start -->",
            "- We decided to keep this inside a managed block forever.",
            "<!-- dreamd:dreaming:light:end -->",
            "- Candidate: the thing confidence: 0.9 evidence: memory/x.md:1-1 recalls: 2 status: staged",
            "- The deploy token: ghp_abcdefghijklmnopqrstuvwx is stored here.",
            "- The billing service always runs on Postgres 16.",
        ]
    )
    assert [(s.start_line, s.text) for s in statements_of(note)] == [
        (7, "The billing service always runs on Postgres 16.")
    ]


@pytest.mark.parametrize(
    ("text", "lean", "categories"),
    [
        ("We decided to deploy only on Tuesdays.", "likely_durable", ("decision",)),
        ("Bob prefers short answers.", "likely_durable", ("preference",)),
        ("Alice is on-call for billing.", "likely_durable", ("ownership",)),
        ("The cache runs on Redis 7.2.", "likely_durable", ("configuration", "specifics")),
        ("Had lunch with Bob today.", "likely_situational", ("time", "chatter")),
        ("Need to follow up with Carol.", "likely_situational", ("task",)),
        ("Maybe we should switch to Caddy?", "unclear", ("task",)),
        ("Shipped the onboarding flow.", "unclear", ()),
        ("Decidimos publicar siempre en español.", "likely_durable", ("decision",)),
        ("Hoy almorzamos con Ana.", "likely_situational", ("time", "chatter")),
        ("Désormais on déploie le mardi.", "likely_durable", ("decision",)),
        ("Il pleut, réunion ce soir.", "likely_situational", ("time", "chatter")),
        ("Alice ist zuständig für das Backup.", "likely_durable", ("ownership", "configuration")),
        ("Vielleicht nutzen wir künftig Caddy.", "unclear", ("decision",)),
        ("我们决定以后每周二部署。", "likely_durable", ("decision",)),
        ("今天开会，天气不好。", "likely_situational", ("time", "chatter")),
    ],
)
def test_cue_words_in_several_languages(text: str, lean: str, categories: tuple[str, ...]) -> None:
    """Each statement leans as its cue words say, in English, Spanish, French, German, CJK."""
    cues = read_cues(text)
    assert (cues.lean, cues.categories) == (lean, categories)


def test_headings_lend_their_cues() -> None:
    """A durable heading adds 2 to the durable side, a situational heading 1 to the other."""
    assert [heading_cues(h) for h in ("Decisions", "Preferencias", "Standup", "Tuesday", None)] == [
        (2, 0),
        (2, 0),
        (0, 1),
        (0, 0),
        (0, 0),
    ]
    plain = "Use Postgres for billing."
    leans = [read_cues(plain, heading).lean for heading in ("Decisions", "Log", "Misc")]
    assert leans == ["likely_durable", "likely_situational", "unclear"]


def test_credentials_are_sensitive() -> None:
    """Vendor tokens, private keys and secret assignments are recognised; prose is not."""
    texts = [
        "api_key = abc123",
        "use sk-abcdefghijklmnopqrstuv for it",
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "The password manager is 1Password.",
    ]
    assert [is_sensitive(text) for text in texts] == [True, True, True, False]


def test_topics_skip_stop_words_and_short_words() -> None:
    """Topics are distinct 4+ letter words that are not stop words, at most 8."""
    assert topics_of("The billing service and the Billing queue were slow today") == (
        "billing",
        "service",
        "queue",
        "slow",
    )


def test_the_four_sections_of_a_note() -> None:
    """Facts, reflections, candidates and lasting updates, each with its references."""
    note = plan_grounded("memory/2026-01-05.md", "2026-01-05", NOTE)
    ref = "memory/2026-01-05.md"
    assert section_lines(note) == [
        "## What Happened",
        f"1. We decided to deploy billing only on Tuesdays from now on. [{ref}:7]",
        f"2. Alice owns the billing service and is on-call this week. [{ref}:8]",
        f"3. The staging database runs on Postgres 16 at db-02.internal:5432. [{ref}:9]",
        f"4. Had lunch with Bob, the weather was awful today. [{ref}:12]",
        "",
        "## Reflections",
        f"1. A decision was recorded; later work may follow it. [{ref}:7]",
        f"2. A preference was stated explicitly. [{ref}:16]",
        f"3. Who owns what was made explicit. [{ref}:8]",
        f"4. A configuration detail was noted; such details stay true until changed. [{ref}:9]",
        "",
        "## Candidates",
        f"- [likely_durable] We decided to deploy billing only on Tuesdays from now on. [{ref}:7]",
        "- [likely_durable] The staging database runs on Postgres 16 at "
        f"db-02.internal:5432. [{ref}:9]",
        f"- [likely_durable] Alice owns the billing service and is on-call this week. [{ref}:8]",
        f"- [likely_durable] Bob prefers short answers without emojis. [{ref}:16]",
        f"- [unclear] Maybe we should move the cron to 4am? [{ref}:15]",
        f"- [likely_situational] Fixed the flaky checkout test in CI. [{ref}:14]",
        "- [likely_situational] Some prose line that continues over two lines about the "
        f"billing service migration. [{ref}:19-20]",
        f"- [likely_situational] Need to follow up with Carol about the invoice export. [{ref}:13]",
        "",
        "## Possible Lasting Updates",
        f"- We decided to deploy billing only on Tuesdays from now on. [{ref}:7]",
        f"- The staging database runs on Postgres 16 at db-02.internal:5432. [{ref}:9]",
        f"- Bob prefers short answers without emojis. [{ref}:16]",
    ]


def test_an_empty_note_says_so() -> None:
    """A note with nothing to read still renders four sections, each saying it is empty."""
    note = plan_grounded("memory/2026-01-06.md", "2026-01-06", "# 2026-01-06\n\n- ok\n")
    assert section_lines(note, headings=False) == [
        "What Happened",
        "- Nothing notable was written down.",
        "",
        "Reflections",
        "- Nothing in this note stood out.",
        "",
        "Candidates",
        "- No candidates.",
        "",
        "Possible Lasting Updates",
        "- No lasting updates surfaced.",
    ]


def test_situational_notes_and_open_work_are_reflected() -> None:
    """A mostly situational note, open questions and open tasks get their own reflections."""
    text = "\n".join(
        [
            "- Had lunch with Bob today, it rained.",
            "- Coffee machine broken again this morning.",
            "- Could we move standup later?",
            "- [ ] Review the quarterly invoice export.",
        ]
    )
    note = plan_grounded("memory/2026-02-01.md", "2026-02-01", text)
    assert [(r.text, r.refs) for r in note.reflections] == [
        ("A question or tentative idea stayed open.", ("memory/2026-02-01.md:3",)),
        (
            "Most of the note (3 of 4 statements) is situational; little of it should outlast "
            "the day.",
            ("memory/2026-02-01.md:1", "memory/2026-02-01.md:2", "memory/2026-02-01.md:4"),
        ),
        (
            "An open task was listed; it matters for the day, not for long-term memory.",
            ("memory/2026-02-01.md:4",),
        ),
    ]


def test_note_json_shape() -> None:
    """--json gives each section as objects with text and refs, plus the rendered lines."""
    note = plan_grounded("memory/2026-02-02.md", "2026-02-02", "- Carol prefers tea.\n")
    assert note_json(note) == {
        "path": "memory/2026-02-02.md",
        "day": "2026-02-02",
        "statements": 1,
        "whatHappened": [{"text": "Carol prefers tea.", "refs": ["memory/2026-02-02.md:1"]}],
        "reflections": [
            {"text": "A preference was stated explicitly.", "refs": ["memory/2026-02-02.md:1"]}
        ],
        "candidates": [
            {
                "lean": "likely_durable",
                "text": "Carol prefers tea.",
                "refs": ["memory/2026-02-02.md:1"],
                "strength": 3,
                "cues": ["preference"],
                "lasting": True,
            }
        ],
        "lastingUpdates": [
            {
                "lean": "likely_durable",
                "text": "Carol prefers tea.",
                "refs": ["memory/2026-02-02.md:1"],
                "strength": 3,
                "cues": ["preference"],
                "lasting": True,
            }
        ],
        "bodyLines": section_lines(note),
    }


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(strategies.note, st.text(max_size=400)))
def test_any_text_gives_a_bounded_deterministic_preview(text: str) -> None:
    """Arbitrary text never crashes the preview; caps hold; refs stay inside the note."""
    note = plan_grounded("memory/2026-03-01.md", "2026-03-01", text)
    assert note == plan_grounded("memory/2026-03-01.md", "2026-03-01", text)
    sizes = (len(note.facts), len(note.reflections), len(note.candidates), len(note.lasting))
    assert sizes[0] <= 4 and sizes[1] <= 4 and sizes[2] <= 8 and sizes[3] <= 3
    assert {c.text for c in note.lasting} <= {c.text for c in note.candidates}
    assert all(c.lean == "likely_durable" for c in note.lasting)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(1 <= c.start_line <= c.end_line <= lines for c in note.candidates)


@settings(max_examples=200, deadline=None)
@given(text=strategies.note)
def test_every_statement_rehydrates_at_its_own_range(text: str) -> None:
    """A statement's text is the form the deep phase finds again at exactly its lines."""
    for statement in statements_of(text):
        found = rehydrate(text, statement.start_line, statement.end_line, statement.text)
        assert found is not None
        assert (found.start_line, found.end_line, found.exact) == (
            statement.start_line,
            statement.end_line,
            True,
        )
