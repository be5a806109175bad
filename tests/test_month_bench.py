"""bench/month.py: a tiny month lived through the real CLI grades into the full table, a bad key is
refused, and the grader reads dreamd's files as the month benchmark's rules say."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from month_grade import (  # noqa: E402  (bench/ is not a package)
    Entry,
    Hit,
    Night,
    diary_entries,
    grade_diary,
    grade_entities,
    grade_memory,
    grade_opinions,
    grade_patterns,
    grade_question,
    grade_replaced,
    is_present,
    keyword_list,
    memory_entries,
)

TINY = ROOT / "tests" / "fixtures" / "months" / "tiny"
FIGURES = {
    "kept/durable": ">= 80 %",
    "stale": "0",
    "junk": "<= 2",
    "twice": "0",
    "lost to a replacement": "0",
    "budget: kept/durable": ">= 80 %",
    "budget: promoted kept": "all",
    "search: answered top-5": "all",
    "search: stale above current": "0",
    "search: derived hits": "0",
    "recall: answered top-5": "all",
    "recall: stale above current": "0",
    "recall: derived hits": "0",
    "opinions": "all",
    "entities": "all",
    "not_entities": "0",
    "patterns": "all",
    "injections": "0",
    "diary: keyword lists": "0",
    "diary: repeated": "0",
}


def _month_py(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "month.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=1800,
    )


def test_tiny_month_is_lived_and_graded(tmp_path: Path) -> None:
    """Three days lived through the CLI give every figure of the table, and nothing is left."""
    done = _month_py(tmp_path, "--month", str(TINY), "--json")
    assert done.returncode == 0, done.stderr
    (month,) = json.loads(done.stdout)["months"]
    assert {name: f["want"] for name, f in month["figures"].items()} == FIGURES
    assert all(
        isinstance(f["value"], str) and isinstance(f["ok"], bool) for f in month["figures"].values()
    )
    shape = (month["month"], month["notes"], month["days"], month["searches"], month["sweeps"])
    assert shape == ("tiny", 3, 3, 5, 3)
    totals = {
        "durable": month["memory"]["durable"],
        "budget chars": month["budget"]["chars"],
        "questions": {verb: q["total"] for verb, q in month["questions"].items()},
        "now": {verb: q["now"] for verb, q in month["questions"].items()},
        "opinions": month["opinions"]["total"],
        "entities": month["entities"]["total"],
        "patterns": month["patterns"]["total"],
    }
    assert totals == {
        "durable": 4,
        "budget chars": 2500,
        "questions": {"search": 2, "recall": 2},
        "now": {"search": 1, "recall": 1},
        "opinions": 1,
        "entities": 1,
        "patterns": 1,
    }
    # the person's own line states the shop; dreaming must never take it away
    assert "shop" not in {m["id"] for m in month["memory"]["missing"]}
    assert "shop" not in {m["id"] for m in month["budget"]["missing"]}
    assert list(tmp_path.glob("dreamd-month-*")) == []


def test_a_key_naming_no_durable_fact_is_refused(tmp_path: Path) -> None:
    """A changed fact whose new_id names no durable fact stops the run with exit 2 at once."""
    month = tmp_path / "broken"
    shutil.copytree(TINY, month)
    key = json.loads((month / "key.json").read_text(encoding="utf-8"))
    key["changed"][0]["new_id"] = "nope"
    (month / "key.json").write_text(json.dumps(key), encoding="utf-8")
    done = _month_py(tmp_path, "--month", str(month))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"month.py: error: {month / 'key.json'}: "
        "changed contact-old: new_id 'nope' is no durable fact\n"
    )


MEMORY = """# Long-Term Memory

- I run a bicycle shop.
Plain prose the person wrote.

## Promoted From Short-Term Memory (2026-03-05)

<!-- dreamd-memory-promotion:memory:memory/2026-03-03.md:4:4 -->
- Bent Mark is the contact. [score=0.81 signals=3 recalls=3 avg=0.6 source=memory/x.md:4-4] \
<!-- trigger: bent --> <!-- importance: 8 -->
<!-- openclaw-memory-promotion:memory:claim:0123456789ab -->
- Closed on Tuesdays.
  Since March.

```
- not an entry
```
"""


def test_memory_entries_tell_generated_from_human() -> None:
    """Lines after a promotion marker are one generated entry, comments and metadata dropped."""
    assert memory_entries(MEMORY) == [
        Entry("I run a bicycle shop.", False),
        Entry("Plain prose the person wrote.", False),
        Entry("Bent Mark is the contact.", True, "memory:memory/2026-03-03.md:4:4"),
        Entry("Closed on Tuesdays. Since March.", True, "memory:claim:0123456789ab"),
    ]


def test_what_an_entry_replaced_is_not_what_it_states() -> None:
    """The words after "replaces:" in an entry's source label name what is gone: the grade
    neither finds the old fact there nor keeps a durable fact by them."""
    memory = (
        "<!-- dreamd-memory-promotion:memory:memory/2026-03-09.md:4:4 -->\n"
        "- Marit is head coach of the U-12 now. (2026-03-09.md#L4; replaces: Ola Berg: head "
        "coach of the U-12 (since 2024).)\n"
    )
    assert memory_entries(memory) == [
        Entry(
            "Marit is head coach of the U-12 now. (2026-03-09.md#L4)",
            True,
            "memory:memory/2026-03-09.md:4:4",
        )
    ]


KEY = {
    "durable": [
        {"id": "contact", "fact": "Bent Mark", "match": ["bent", "mark"]},
        {"id": "closed", "fact": "Tuesdays", "match": ["closed", "tuesday"]},
    ],
    "changed": [
        {"id": "old", "old": "Mondays", "old_match": ["closed", "monday"], "new_id": "closed"},
    ],
    "acceptable": [{"id": "shop", "fact": "shop", "match": ["bicycle"]}],
    "junk_examples": ["lunch"],
}


def test_a_fact_lost_to_a_replacement_is_counted() -> None:
    """The archive says a newer line replaced an entry that states a durable fact of the key
    (and no old value), and MEMORY.md no longer states it: a fact lost to a wrong
    replacement."""
    archive = (
        "## Archived 2030-01-09\n\n"
        "<!-- dreamd-memory-archived:memory:memory/2030-01-02.md:4:4 -->\n"
        "- Bent Mark is our contact at Velo Nord. (2030-01-02.md#L4)\n"
        "  - Replaced on 2030-01-09 by: The bike rack is full.\n\n"
        "<!-- dreamd-memory-archived:memory:memory/2030-01-02.md:5:5 -->\n"
        "- Closed on Mondays. (2030-01-02.md#L5)\n"
        "  - Replaced on 2030-01-09 by: Closed on Tuesdays, not Mondays.\n\n"
        "<!-- dreamd-memory-archived:memory:memory/2030-01-03.md:2:2 -->\n"
        "- Closed every Tuesday. (2030-01-03.md#L2)\n"
        "  - Moved out on 2030-01-10 to keep MEMORY.md within 2,500 characters.\n"
    )
    wrong = grade_replaced(KEY, archive)
    assert [(w["id"], w["by"]) for w in wrong] == [("contact", "The bike rack is full.")]
    said_again = [Entry("Our contact at Velo Nord is Bent Mark.", True, "e")]
    assert grade_replaced(KEY, archive, said_again) == []


def test_memory_grade_counts_stale_junk_and_twice() -> None:
    """Old value without the new is stale, an unknown entry junk, two entries of a fact twice."""
    entries = [
        Entry("I run a bicycle shop.", False),
        Entry("Closed on Mondays.", True, "a"),
        Entry("Closed on Tuesdays, not Mondays.", True, "b"),
        Entry("Closed every Tuesday.", True, "c"),
        Entry("Lunch was soup.", True, "d"),
    ]
    grade = grade_memory(KEY, entries)
    assert grade == {
        "kept": 1,
        "durable": 2,
        "generated": 4,
        "stale": [{"changed": "old", "old": "Mondays", "entry": "Closed on Mondays."}],
        "junk": [{"entry": "Lunch was soup.", "junk_example": "lunch"}],
        "twice": [
            {
                "id": "closed",
                "entries": ["Closed on Tuesdays, not Mondays.", "Closed every Tuesday."],
            }
        ],
        "missing": [{"id": "contact", "fact": "Bent Mark", "match": ["bent", "mark"], "near": []}],
    }


def test_a_promoted_entry_is_present_by_key_or_by_words() -> None:
    """An entry counts as kept when its key is in a marker or its words are in the file."""
    entry = Entry("Closed on Tuesdays.", True, "memory:memory/a.md:1:1")
    assert is_present(entry, ["<!-- dreamd-memory-promotion:memory:memory/a.md:1:1 -->"])
    assert is_present(entry, ["# Archive\n- closed on  Tuesdays. [score=0.8]\n"])
    assert not is_present(entry, ["Closed on Mondays."])


def test_question_grade_ranks_stale_and_derived_hits() -> None:
    """A stale hit above the first correct one is flagged and derived files are counted."""
    question = {"q": "Which day?", "answer": ["tuesday"], "stale": ["monday"]}
    hits = [
        Hit("Closed on Mondays.", "memory/topics/shop.md"),
        Hit("Closed on Tuesdays now.", "memory/2026-03-04.md", "2026-03-04"),
        Hit("Run log.", "memory/dreams/2026-03-05.md"),
    ]
    assert grade_question(question, hits) == {
        "answered": True,
        "rank": 2,
        "stale_above": True,
        "derived": 2,
        "hits": [
            "memory/topics/shop.md: Closed on Mondays.",
            "memory/2026-03-04.md: Closed on Tuesdays now.",
            "memory/dreams/2026-03-05.md: Run log.",
        ],
    }
    dated = {"q": "When?", "answer": ["2026-03-04"], "stale": []}
    assert grade_question(dated, hits)["rank"] == 2


def test_opinion_passes_only_when_every_old_statement_fell() -> None:
    """A paraphrase of the old opinion still at its starting confidence fails the reversal."""
    key = {
        "opinions": [
            {
                "id": "orders",
                "entity": "Bent",
                "old": "phone",
                "old_match": ["phone|call"],
                "new": "e-mail",
                "new_match": ["e-mail"],
            }
        ]
    }
    started = {"orders": {"Prefers orders by phone.": 0.8, "Happy to take a call.": 0.8}}
    bank = (
        "# Opinions\n\n- Prefers orders by phone. (c=0.55, updated 2026-03-04) about [Bent]"
        "(entities/Bent.md)\n- Happy to take a call. (c=0.8, updated 2026-03-02) about [Bent]"
        "(entities/Bent.md)\n- Prefers orders by e-mail. (c=0.8, updated 2026-03-03) about "
        "[Bent](entities/Bent.md)\n"
    )
    grade = grade_opinions(key, bank, started)
    assert (grade["passed"], grade["failures"][0]["why"]) == (
        0,
        "'Happy to take a call.' did not fall: c=0.80 -> c=0.80",
    )
    fell = {"orders": {"Prefers orders by phone.": 0.8, "Happy to take a call.": 0.9}}
    assert grade_opinions(key, bank, fell)["passed"] == 1


def test_the_page_under_the_entitys_own_name_is_graded_before_an_aliases() -> None:
    """An old spelling's page that points to the right one is not read as her page."""
    key = {
        "entities": [
            {
                "name": "Ida Varga",
                "aliases": ["Ida Barga"],
                "current_match": ["varga"],
                "not_current": ["barga"],
            }
        ],
        "not_entities": [],
    }
    pages = {
        "Ida-Barga.md": "# Ida Barga\n\nIda Barga is Ida Varga: see [Ida Varga](Ida-Varga.md).\n",
        "Ida-Varga.md": "# Ida Varga\n\nIda Varga — keeps the club's books.\n",
    }
    assert grade_entities(key, pages, [])["passed"] == 1
    del pages["Ida-Varga.md"]
    assert grade_entities(key, pages, [])["failures"][0]["page"] == "Ida-Barga.md"


def test_one_catch_all_pattern_file_answers_for_one_pattern() -> None:
    """A pattern page that mentions every mistake is matched to one key pattern only."""
    key = {
        "patterns": [
            {"id": "po", "what": "po", "days": [], "match": ["purchase order"]},
            {"id": "tb", "what": "tb", "days": [], "match": ["termbase"]},
        ]
    }
    files = {"memory/patterns/p-correction.md": "purchase order; termbase"}
    grade = grade_patterns(key, files)
    assert (grade["passed"], grade["failures"][0]["why"]) == (1, "its files answer others")


def test_diary_keyword_lists_and_repeats() -> None:
    """Bare keywords make a keyword list; a repeat counts only on a night with new material."""
    dreams = (
        "# Dream Diary\n<!-- dreamd:dreaming:diary:start -->\n---\n\n*March 3, 2026*\n\n"
        "Something about db-02, work and decision.\n\n---\n\n*March 4, 2026*\n\n"
        "The invoices came back again, and I kept the rule about the order number.\n"
        "<!-- dreamd:dreaming:diary:end -->\n"
    )
    first, second = diary_entries(dreams)
    assert (keyword_list(first), keyword_list(second)) == ("db-02, work and decision", None)
    nights = [
        Night("2026-03-02", [second]),
        Night("2026-03-03", [second], material=False),
        Night("2026-03-04", [second]),
    ]
    assert grade_diary(nights)["repeated"] == [
        {"night": "2026-03-04", "first": "2026-03-02", "entry": second}
    ]


def test_a_hit_is_not_stale_by_what_it_says_it_replaced() -> None:
    """A MEMORY.md hit saying "(…; replaces: Ola Berg: head coach)" is the new fact, not a
    stale one ranked above the answer."""
    question = {"answer": ["marit"], "stale": ["ola berg"]}
    memory = "- The U-12 has a new head coach from May. (2026-05-02.md#L4; replaces: Ola Berg: head coach.)"
    hits = [
        Hit(memory, "MEMORY.md"),
        Hit("- W Marit Dahl is head coach of the U-12 from May.", "memory/2026-05-02.md"),
    ]
    assert grade_question(question, hits)["stale_above"] is False
