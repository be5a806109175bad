"""Reflect: facts from notes, pages planned from them, and a model's facts checked."""

from __future__ import annotations

import json

from hypothesis import given, settings

from dreamd.engine.bank.facts import extract_facts
from dreamd.engine.bank.proposals import RefusedFacts, parse_proposals
from dreamd.engine.bank.reflect import BankPlan, plan_reflect
from dreamd.engine.plan import BankRequest
from dreamd.engine.snapshot import BankFiles, NoteStat, TextFile
from dreamd.engine.text.snippets import content_hash
from tests.strategies import note

NOTES = {
    "memory/2025-11-27.md": (
        "# 2025-11-27\n\n## Retain\n"
        "- W @Peter: Currently in Marrakech for Andy's birthday.\n"
        "- O(c=0.95) @Peter: Prefers concise replies on WhatsApp.\n"
    ),
    "memory/2025-11-28.md": "# 2025-11-28\n\n- We decided to always deploy warelay on Tuesdays.\n",
}


def _file(path: str, text: str) -> TextFile:
    return TextFile(path, text, content_hash(text.encode()))


def _stats(notes: dict[str, str]) -> dict[str, NoteStat]:
    return {path: NoteStat(path, path[7:17], 0.0, len(text)) for path, text in notes.items()}


def _bank(notes: dict[str, str], plan: BankPlan | None = None, **pages: str) -> BankFiles:
    written = {w.path: w.text for w in plan.writes} if plan else {}
    ledger = written.pop("memory/.dreams/bank.json", None)
    files = {p: _file(p, t) for p, t in {**written, **pages}.items()}
    found = _file("memory/.dreams/bank.json", ledger) if ledger else TextFile("x", "", None)
    return BankFiles(files, found, {p: _file(p, t) for p, t in notes.items()})


def test_retain_bullets_and_durable_claims_are_typed_facts_with_sources() -> None:
    """Retain facts keep their kind and confidence; a note without one yields its claims."""
    facts = [f for path, text in NOTES.items() for f in extract_facts(path, text)]
    assert [(f.kind, f.text, f.entities, f.confidence, f.source, f.origin) for f in facts] == [
        ("world", "Currently in Marrakech for Andy's birthday.", ("Peter",), None,
         "memory/2025-11-27.md#L4", "retain"),
        ("opinion", "Prefers concise replies on WhatsApp.", ("Peter",), 0.95,
         "memory/2025-11-27.md#L5", "retain"),
        ("experience", "We decided to always deploy warelay on Tuesdays.", (), None,
         "memory/2025-11-28.md#L3", "claim"),
    ]  # fmt: skip


def test_a_facts_id_survives_lines_moving_above_it() -> None:
    """Inserting lines before a fact keeps its id; the source follows the line."""
    path, text = next(iter(NOTES.items()))
    moved = text.replace("## Retain\n", "Some words first.\n\n## Retain\n")
    before, after = extract_facts(path, text)[0], extract_facts(path, moved)[0]
    assert (before.id == after.id, before.line, after.line) == (True, 4, 6)


def test_sessions_and_credentials_never_become_facts() -> None:
    """A transcript is not a fact source; a line that looks like a key is dropped."""
    corpus = "memory/.dreams/session-corpus/2025-11-27.txt"
    assert extract_facts(corpus, "## Retain\n- W @x: The db runs on Postgres 16.\n") == ()
    key = "## Retain\n- W @ci: The deploy token is ghp_" + "Q7x" * 12 + " for now.\n"
    assert extract_facts("memory/2025-11-27.md", key) == ()


def test_reflect_plans_the_pages_then_nothing_the_second_time() -> None:
    """World, experience, opinions and entity pages, plus the ledger; then no write at all."""
    first = plan_reflect(_bank(NOTES), _stats(NOTES))
    assert [w.path for w in first.writes] == [
        "bank/world.md",
        "bank/experience.md",
        "bank/opinions.md",
        "bank/entities/Peter.md",
        "memory/.dreams/bank.json",
    ]
    assert {w.kind for w in first.writes} == {"bank"}
    assert "(c=0.95, updated 2025-11-27)" in first.writes[2].text
    second = plan_reflect(_bank(NOTES, first), _stats(NOTES))
    assert (second.writes, second.read) == ((), ())


def test_no_facts_and_no_bank_plan_nothing() -> None:
    """A workspace that never had a bank and states no fact gets none."""
    notes = {"memory/2025-11-27.md": "# 2025-11-27\n\n- lunch was nice today\n"}
    assert plan_reflect(_bank(notes), _stats(notes)).writes == ()


def test_notes_outside_the_window_keep_the_facts_read_before() -> None:
    """A note not read this time keeps its ledger facts; a note that is gone loses them."""
    first = plan_reflect(_bank(NOTES), _stats(NOTES))
    later = plan_reflect(_bank({}, first), _stats(NOTES))
    assert (later.writes, len(later.facts)) == ((), 3)
    gone = plan_reflect(_bank({}, first), _stats({"memory/2025-11-28.md": ""}))
    assert [f.text for f in gone.facts] == ["We decided to always deploy warelay on Tuesdays."]


def test_a_page_the_person_made_names_an_entity() -> None:
    """An existing ``bank/entities/Alice.md`` links facts that say "Alice" (its text kept)."""
    notes = {"memory/2025-11-28.md": "# x\n\n- Alice owns the release checklist.\n"}
    page = "# Alice\n\nMy colleague.\n"
    plan = plan_reflect(_bank(notes, None, **{"bank/entities/Alice.md": page}), _stats(notes))
    alice = next(w.text for w in plan.writes if w.path == "bank/entities/Alice.md")
    assert alice.startswith(page + "\n<!-- dreamd:bank:begin -->\nAlice: 1 fact(s)")


@settings(deadline=None, max_examples=50)
@given(note)
def test_reflect_never_crashes_and_is_idempotent(text: str) -> None:
    """Any note reflects without raising; reflecting its own output plans nothing."""
    notes = {"memory/2025-11-27.md": f"## Retain\n{text}\n{text}"}
    first = plan_reflect(_bank(notes), _stats(notes))
    assert plan_reflect(_bank(notes, first), _stats(notes)).writes == ()


def _request() -> BankRequest:
    notes = {"memory/2025-11-28.md": NOTES["memory/2025-11-28.md"]}
    return BankRequest(_bank(notes), _stats(notes), notes)


def test_a_models_grounded_facts_are_kept_and_the_rest_dropped() -> None:
    """Only facts standing on the line they cite survive; confidence only for opinions."""
    answer = json.dumps(
        {
            "facts": [
                {"source": "memory/2025-11-28.md#L3", "kind": "experience",
                 "text": "We always deploy warelay on Tuesdays.", "entities": ["warelay"],
                 "confidence": 0.9},
                {"source": "memory/2025-11-28.md#L3", "kind": "world",
                 "text": "Peter lives on the moon."},
                {"source": "memory/2025-11-29.md#L1", "kind": "world", "text": "Elsewhere."},
                {"source": "memory/2025-11-28.md#L3", "kind": "rumour", "text": "deploy warelay"},
            ]
        }
    )  # fmt: skip
    proposed = parse_proposals(answer, _request())
    assert not isinstance(proposed, RefusedFacts)
    ((_, facts),) = proposed.items()
    assert [(f.kind, f.text, f.entities, f.confidence, f.origin) for f in facts] == [
        ("experience", "We always deploy warelay on Tuesdays.", ("warelay",), None, "model")
    ]


def test_an_answer_that_is_not_a_list_of_facts_is_refused_whole() -> None:
    """Not JSON, or no list of objects: the deterministic facts stay."""
    assert parse_proposals("sure!", _request()) == RefusedFacts("the model's answer was not JSON")
    assert parse_proposals('{"facts": [1]}', _request()) == RefusedFacts(
        "the model's answer had no list of fact objects"
    )
