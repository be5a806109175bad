"""MEMORY.md entries: format, annotations, append-only writing and the size budget (SPEC §6.4)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from dreamd.engine.facts.lasting import lasting
from dreamd.engine.facts.render import fact_text
from dreamd.engine.phases.promote import PromotionPlan, _keep_order, _worths, plan_promotions
from dreamd.engine.phases.promotion import (
    PromotionEntry,
    append_promotions,
    compose_memory,
    count_entries,
    generated_entries,
    importance,
    promoted_keys,
    render_entry,
    triggers,
)
from dreamd.engine.phases.scoring import Components, Scored
from dreamd.engine.snapshot import TextFile
from dreamd.engine.state import RecallEntry
from dreamd.engine.text.snippets import promotion_text
from tests import builders


def promo(
    key: str = "memory:memory/2026-11-12.md:8:8",
    text: str = "Postgres 16 runs the queue.",
    score: float = 0.813,
) -> PromotionEntry:
    """A promotion with fixed numbers."""
    return PromotionEntry(
        key=key,
        text=text,
        score=score,
        signals=7,
        recalls=7,
        average=0.6133,
        path="memory/2026-11-12.md",
        start_line=8,
        end_line=8,
        tags=("postgres", "queue", "latency", "index"),
    )


def test_entry_format() -> None:
    """Marker line, then the fact with a short visible source: no ranking metadata."""
    marker, line = render_entry(promo())
    assert marker == "<!-- dreamd-memory-promotion:memory:memory/2026-11-12.md:8:8 -->"
    assert line == "- Postgres 16 runs the queue. (2026-11-12.md#L8)"


def test_a_replacing_entry_names_its_lineage_and_what_it_replaces() -> None:
    """A fact that replaces an earlier promotion carries its lineage marker and says what it
    replaces; a transcript line's source reads as a chat day."""
    entry = dataclasses.replace(
        promo(text="Swimming moved to Thursdays."),
        path="memory/.dreams/session-corpus/2026-11-20.txt",
        start_line=3,
        end_line=3,
        replaces=("memory:memory/2026-11-02.md:5:5",),
        replaced_text="Mia's swimming lesson is on Tuesdays at 17:00.",
    )
    assert render_entry(entry) == (
        "<!-- dreamd-memory-lineage:memory:memory/2026-11-02.md:5:5 -->",
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-12.md:8:8 -->",
        "- Swimming moved to Thursdays. (chat 2026-11-20#L3; replaces: Mia's swimming lesson "
        "is on Tuesdays at 17:00.)",
    )


def test_a_replaced_entry_leaves_only_once_its_replacement_is_written() -> None:
    """The old entry goes (and is returned, to be archived) when the new one is written; when
    the new one is deferred for the budget, the old one stays."""
    existing = _one_entry(promo(key="old", text="Mia's swimming lesson is on Tuesdays."))
    new = dataclasses.replace(
        promo(key="new", text="Swimming moved to Thursdays."), replaces=("old",)
    )
    result = compose_memory(
        existing, [new], day="2026-11-20", max_chars=10_000, max_loss=0.25, retire={"old": "new"}
    )
    assert "Tuesdays" not in result.text and "Thursdays" in result.text
    assert [(item.key, item.reason, item.by) for item in result.leaving] == [
        ("old", "superseded", "new")
    ]
    tight = compose_memory(
        existing,
        [new],
        day="2026-11-20",
        max_chars=len(existing),
        max_loss=0.0,
        retire={"old": "new"},
    )
    assert (tight.text, tight.leaving, tight.deferred) == (existing, (), ("new",))


def test_the_budget_moves_entries_out_by_value_never_a_persons_line() -> None:
    """Over budget, the entries named first in keep_order leave (not the oldest), one by one;
    a person's line inside a promoted section stays."""
    edited = _section("2026-10-01", 2, 0) + "- my own remark under the section\n"
    existing = "# Long-Term Memory\n\n" + edited + "\n" + _section("2026-10-02", 2, 2)
    new = [promo(key="new", text="Fresh fact. " * 20)]
    result = compose_memory(
        existing,
        new,
        day="2026-11-29",
        max_chars=len(existing) - 300,
        max_loss=0.5,
        keep_order=("k3", "k2", "k0", "k1"),
    )
    assert [(item.key, item.reason) for item in result.leaving] == [
        ("k3", "budget"),
        ("k2", "budget"),
    ]
    assert "- my own remark under the section" in result.text
    assert "Old fact number 0" in result.text and "Old fact number 3" not in result.text
    assert "(2026-10-02)" not in result.text  # a section left empty loses its heading
    assert result.appended == ("new",)


@pytest.mark.parametrize(("new_worth", "kept"), [(1.0, "old"), (5.0, "new")])
def test_a_full_budget_trades_an_entry_only_for_a_better_one(new_worth: float, kept: str) -> None:
    """With worth given, a candidate worth less than the entry it would push out waits; one
    worth more takes its place."""
    existing = "# Long-Term Memory\n\n" + _section("2026-10-01", 2, 0)
    new = [promo(key="new", text="Fresh fact. " * 20)]
    worth = {"k0": 4.0, "k1": 4.0, "new": new_worth}
    result = compose_memory(
        existing,
        new,
        day="2026-11-29",
        max_chars=len(existing) + 100,
        max_loss=0.5,
        keep_order=("k0", "k1"),
        worth=worth,
    )
    if kept == "old":
        assert result.deferred == ("new",) and not result.leaving
        assert result.text == existing
    else:
        assert result.appended == ("new",)
        assert [item.key for item in result.leaving] == ["k0"]


@pytest.mark.parametrize(
    ("score", "expected"),
    [(0.0, 3), (0.15, 3), (0.25, 3), (0.249, 3), (0.35, 4), (0.75, 8), (0.849, 8), (1.2, 10)],
)
def test_importance(score: float, expected: int) -> None:
    """importance = round(10 * score) clamped to 3..10 (OpenClaw's floor)."""
    assert importance(score) == expected


def test_triggers_are_sanitised() -> None:
    """Trigger tags lose comment markers and separators and are cut to 64 characters."""
    assert triggers(("a,b", "c;d-->", "x" * 80, "fourth")) == ("a b", "c d", "x" * 64)


def test_first_promotion_into_an_empty_file() -> None:
    """An empty MEMORY.md gets '# Long-Term Memory' then the dated section."""
    result = append_promotions("", [promo()], day="2026-11-29", max_chars=10_000, max_loss=0.25)
    marker, line = render_entry(promo())
    assert result.text == (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-29)\n\n"
        f"{marker}\n{line}\n"
    )
    assert result.appended == (promo().key,)


def test_human_text_is_kept_byte_for_byte() -> None:
    """Existing content, including CRLF endings and no final newline, is an exact prefix."""
    human = "# My memory\r\n\r\n- I prefer tea.\r\n- Ana is my manager."
    result = append_promotions(human, [promo()], day="2026-11-29", max_chars=10_000, max_loss=0.25)
    assert result.text.startswith(human)
    assert result.text[len(human) :].startswith("\r\n\r\n## Promoted From Short-Term Memory")
    assert "\n" not in result.text.replace("\r\n", "")


def test_markers_of_both_spellings_are_found() -> None:
    """Promotion markers written by dreamd and by OpenClaw (keys with spaces too) are recognised."""
    text = (
        "<!-- openclaw-memory-promotion:memory:memory/my notes/2026-01-02.md:1:2 -->\n"
        "<!--dreamd-memory-promotion:memory:memory/2026-01-03.md:4:4-->\n"
    )
    assert promoted_keys(text) == {
        "memory:memory/my notes/2026-01-02.md:1:2",
        "memory:memory/2026-01-03.md:4:4",
    }


def _one_entry(entry: PromotionEntry) -> str:
    """MEMORY.md holding ``entry`` alone, in a section promoted on 2026-11-02."""
    return (
        "# Long-Term Memory\n\n"
        + _section("2026-11-02", 0, 0)
        + "\n".join(render_entry(entry))
        + "\n"
    )


def _section(day: str, count: int, start: int) -> str:
    lines = [f"## Promoted From Short-Term Memory ({day})", ""]
    for index in range(start, start + count):
        entry = promo(key=f"k{index}", text=f"Old fact number {index} " + "x" * 300)
        lines.extend(render_entry(entry))
    return "\n".join(lines) + "\n"


def test_budget_drops_oldest_generated_sections_first() -> None:
    """Over budget, whole generated sections go, oldest first; human text stays."""
    human = "# Long-Term Memory\n\n- Human fact that must stay.\n" + "- filler human line\n" * 20
    existing = human + "\n" + _section("2026-10-01", 2, 0) + "\n" + _section("2026-10-02", 2, 2)
    new = [promo(key="new", text="Fresh fact. " * 20)]
    budget = len(existing) + 200
    result = append_promotions(existing, new, day="2026-11-29", max_chars=budget, max_loss=0.25)
    assert result.compacted_days == ("2026-10-01",)
    assert result.appended == ("new",)
    assert "Human fact that must stay." in result.text
    assert "k0" not in result.text and "k2" in result.text
    assert len(result.text) <= budget


def test_budget_never_loses_more_than_the_allowed_fraction() -> None:
    """Sections are not dropped past max_loss of prior entries; the candidate is deferred."""
    existing = "# Long-Term Memory\n\n" + _section("2026-10-01", 3, 0)
    new = [promo(key="new", text="Fresh fact. " * 20)]
    result = append_promotions(
        existing, new, day="2026-11-29", max_chars=len(existing) + 50, max_loss=0.25
    )
    assert result.text == existing
    assert result.appended == ()
    assert result.deferred == ("new",)


def test_lowest_ranked_candidates_are_deferred_first() -> None:
    """When only some fit, the best-ranked are written and the rest deferred."""
    new = [promo(key=f"c{i}", text=f"Candidate fact {i}. " + "y" * 300) for i in range(3)]
    result = append_promotions("", new, day="2026-11-29", max_chars=900, max_loss=0.25)
    assert result.appended == ("c0", "c1")
    assert result.deferred == ("c2",)
    assert len(result.text) <= 900


def test_count_entries() -> None:
    """Entry lines exclude headings, comments and fences."""
    text = "# T\n\n- a\n<!-- m -->\n- b\n```\ncode\n```\nplain\n"
    assert count_entries(text) == 4


def test_promotion_text_cut_at_sentence_end() -> None:
    """Long snippets are cut at a sentence end within budget, marked with '...'."""
    snippet = "- " + "First sentence here. " * 5 + "Tail words without end " * 5
    text = promotion_text(snippet, 120)
    assert len(text) <= 120
    assert text.endswith("here....")
    assert promotion_text("- short one", 120) == "short one"


def test_a_full_budget_gives_up_a_new_fact_before_a_change_of_an_old_one() -> None:
    """With no room for two, a candidate that replaces an entry is kept over a fresh fact worth
    more: it frees its own room, and giving it up would leave the old value current."""
    existing = _one_entry(promo(key="old", text="Ana's cello lesson is on Mondays at 16:00."))
    change = dataclasses.replace(
        promo(key="change", text="Ana's cello lesson moved to Wednesdays at 16:00."),
        replaces=("old",),
    )
    other = promo(key="other", text="The piano tuner comes twice a year, in March and October.")
    result = compose_memory(
        existing,
        [other, change],
        day="2026-11-20",
        max_chars=len(existing) + 120,
        max_loss=0.0,
        retire={"old": "change"},
        worth={"old": 1.0, "other": 5.0, "change": 1.0},
    )
    assert result.appended == ("change",)
    assert "Wednesdays" in result.text and "Mondays" not in result.text
    assert [(item.key, item.reason) for item in result.leaving] == [("old", "superseded")]


def test_a_line_that_states_no_lasting_fact_leaves_before_any_fact_however_recalled() -> None:
    """The budget lets situational entries go first: a status line recalled on five days
    leaves before a contact fact nobody asked about; and it is worth less than the fact."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-10-01)\n\n"
        "<!-- dreamd-memory-promotion:kfact -->\n"
        "- Ines Okafor is our accountant at Brightline. (2026-09-30.md#L3)\n"
        "<!-- dreamd-memory-promotion:kstatus -->\n"
        "- The boiler is fine again. (2026-09-30.md#L4)\n"
    )
    days = tuple(f"2026-10-0{day}" for day in range(2, 7))
    rows = {
        "kfact": builders.entry(
            key="kfact", snippet="- Ines Okafor is our accountant at Brightline."
        ),
        "kstatus": builders.entry(
            key="kstatus", snippet="- The boiler is fine again.", recall_days=days
        ),
    }
    generated = generated_entries(memory.splitlines(keepends=True))
    worths = _worths(generated, [], rows)
    assert worths["kfact"] > worths["kstatus"]
    assert _keep_order(generated, rows, worths) == ["kstatus", "kfact"]


def test_a_rule_promoted_yesterday_outlasts_a_detail_recalled_once_since() -> None:
    """An entry just promoted has had no time to be recalled: what its kind is worth counts
    beside its recalls since, so the detail recalled once leaves before the new rule."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-10-01)\n\n"
        "<!-- dreamd-memory-promotion:kdetail -->\n"
        "- The Brightline office has a blue front door on Quay Street. (2026-09-30.md#L3)\n\n"
        "## Promoted From Short-Term Memory (2026-10-09)\n\n"
        "<!-- dreamd-memory-promotion:krule -->\n"
        "- Rule: never send a client's figures by text message. (2026-10-08.md#L5)\n"
    )
    rows = {
        "kdetail": builders.entry(
            key="kdetail",
            snippet="- The Brightline office has a blue front door on Quay Street.",
            promoted_at="2026-10-01T03:00:00Z",
            recall_days=("2026-09-29", "2026-09-30", "2026-10-04"),
        ),
        "krule": builders.entry(
            key="krule",
            snippet="- Rule: never send a client's figures by text message.",
            promoted_at="2026-10-09T03:00:00Z",
            recall_days=("2026-10-06", "2026-10-07", "2026-10-08"),
        ),
    }
    generated = generated_entries(memory.splitlines(keepends=True))
    assert _keep_order(generated, rows, _worths(generated, [], rows)) == ["kdetail", "krule"]


def test_the_same_words_under_another_key_are_reconciled_not_written_twice() -> None:
    """A candidate whose entry would read word for word like one MEMORY.md holds under another
    key (a line key and a claim key of one note line) is that entry: marked promoted, not
    written again."""
    line = "- Correction: the roofer's surname is Flaws, not Flett."
    note = f"# 2026-11-20\n\n{line}\n"
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-21)\n\n"
        "<!-- dreamd-memory-promotion:memory:claim:0123456789ab -->\n"
        "- Correction: the roofer's surname is Flaws, not Flett. (2026-11-20.md#L3)\n"
    )
    row = builders.entry(snippet=line, recall_count=3)
    scored = Scored(row, Components(1, 1, 1, 1, 1, 1), 0.0, 0.9, 3, 3, 2.0)
    plan = plan_promotions(
        [scored],
        memory=TextFile("MEMORY.md", memory, "m"),
        texts={"memory/2026-11-20.md": TextFile("memory/2026-11-20.md", note, "n")},
        day="2026-11-26",
        now=datetime(2026, 11, 26, 3, tzinfo=UTC),
        max_snippet_chars=400,
        max_chars=10_000,
        max_loss=0.25,
    )
    assert plan.applied == ()
    assert plan.reconciled == (row.key,)
    assert plan.memory_text is None


_NEW_PRICE = (
    "## Promoted From Short-Term Memory (2026-11-21)\n\n"
    "<!-- dreamd-memory-promotion:memory:memory/2026-11-20.md:6:6 -->\n"
    "- The new price is 95 GBP per swim session, up from 80. (2026-11-20.md#L6)\n"
)


def _night_without_candidates(
    memory: str, rows: dict[str, RecallEntry] | None = None
) -> PromotionPlan:
    """The plan of a night that promotes nothing new into ``memory`` (the store: ``rows``)."""
    return plan_promotions(
        [],
        memory=TextFile("MEMORY.md", memory, "m"),
        texts={},
        day="2026-11-26",
        now=datetime(2026, 11, 26, 3, tzinfo=UTC),
        max_snippet_chars=400,
        max_chars=10_000,
        max_loss=0.25,
        rows=rows,
    )


def test_an_entry_a_newer_entry_replaces_leaves_without_a_new_promotion() -> None:
    """Two entries of MEMORY.md, the newer one replacing the older (written on another
    night, or before the rule relating them was known): the older leaves for the archive,
    named as replaced by the newer, though no candidate is promoted tonight."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Pool hire is 80 GBP per swim session, invoiced each term. (2026-11-02.md#L4)\n\n"
    ) + _NEW_PRICE
    plan = _night_without_candidates(memory)
    assert plan.memory_text is not None
    assert "80 GBP per swim session" not in plan.memory_text
    assert "95 GBP per swim session" in plan.memory_text
    leaving = {item.key: item for item in plan.leaving}
    assert leaving["memory:memory/2026-11-02.md:4:4"].by == "memory:memory/2026-11-20.md:6:6"


def test_a_line_that_would_end_more_than_three_entries_ends_none() -> None:
    """One line that would replace four entries in one night has misread what it changes (a
    signature naming the business every entry names): every entry stays."""
    older = [
        "Pool hire is 80 GBP per swim session, invoiced each term.",
        "The swim club pays 80 GBP per swim session for the pool.",
        "Pool: 80 GBP per swim session, paid by the treasurer.",
        "Lane hire at the pool is 80 GBP per swim session.",
    ]
    memory = "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
    for line, text in enumerate(older, start=4):
        memory += f"<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:{line}:{line} -->\n"
        memory += f"- {text} (2026-11-02.md#L{line})\n"
    plan = _night_without_candidates(memory + "\n" + _NEW_PRICE)
    assert plan.leaving == ()


def test_an_entry_ended_by_a_line_a_newer_entry_replaced_leaves_for_that_entry() -> None:
    """The 40.5 cm viola was ended by "changed to 41 cm", a note line never written because
    the fuller "deposit paid; 41 cm viola …" replaced it first: the old entry leaves, named as
    replaced by the entry that is current."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-07)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-06.md:4:4 -->\n"
        "- Jana Novak: commissioning a cello, 75 cm body, 9 000 EUR, delivery 30 April 2027. "
        "(2026-11-06.md#L4)\n\n"
        "## Promoted From Short-Term Memory (2026-11-25)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-24.md:9:9 -->\n"
        "- Jana Novak: deposit of 3 000 EUR paid 24 Nov; 76 cm cello, 9 000 EUR, delivery "
        "30 April 2027. (2026-11-24.md#L9)\n"
    )
    middle = builders.entry(
        "memory/2026-11-15.md",
        7,
        7,
        "- W @Jana Novak: cello body length changed to 76 cm (was 75); price unchanged.",
    )
    plan = _night_without_candidates(memory, {middle.key: middle})
    leaving = {item.key: item.by for item in plan.leaving}
    assert leaving == {"memory:memory/2026-11-06.md:4:4": "memory:memory/2026-11-24.md:9:9"}


def test_an_entry_whose_one_off_day_has_passed_leaves_as_past() -> None:
    """A boiler visit on 13 November, promoted from that week's note, leaves MEMORY.md on the
    night of the 26th, saying which day it was; the standing arrangement beside it stays."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-11)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-10.md:4:4 -->\n"
        "- Boiler service visit on Fri 13 Nov at 09:00, Hargreaves Heating. (2026-11-10.md#L4)\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-10.md:6:6 -->\n"
        "- Bins go out every Tuesday night. (2026-11-10.md#L6)\n"
    )
    plan = _night_without_candidates(memory)
    leaving = {item.key: (item.reason, item.by_text) for item in plan.leaving}
    assert leaving == {
        "memory:memory/2026-11-10.md:4:4": ("past", "its day, 2026-11-13, has passed")
    }
    assert plan.memory_text is not None and "Bins go out" in plan.memory_text


def test_a_line_that_only_ends_days_retires_the_entry_and_is_not_written() -> None:
    """ "No more Tuesday and Thursday practices at St Jude's" ends the practice days and says
    none in their place: the entry leaves for the archive, and the ending is no entry (a
    lasting fact it is not: the days it names are the ones that are gone)."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Ilka's choir practice is Tuesdays and Thursdays at 19:00 at St Jude's hall. "
        "(2026-11-02.md#L4)\n"
    )
    ending = builders.entry(
        "memory/2026-11-20.md",
        6,
        6,
        "- No more Tuesday and Thursday practices at St Jude's hall for Ilka's choir.",
    )
    assert not lasting(fact_text(ending.snippet)).durable
    plan = _night_without_candidates(memory, {ending.key: ending})
    assert [(item.key, item.by) for item in plan.leaving] == [
        ("memory:memory/2026-11-02.md:4:4", ending.key)
    ]
    assert plan.memory_text is not None and "Tuesdays and Thursdays" not in plan.memory_text


def test_a_fuller_account_of_an_entry_takes_its_place() -> None:
    """ "Ilka's days off are Monday and Tuesday; the other five she is at the bakery" says all
    that "Ilka Varga: new rota, off Monday and Tuesday" says, and more: it is written and the
    older entry leaves for it, so MEMORY.md holds the fact once."""
    line = "- Ilka's days off are Monday and Tuesday; the other five she is at the bakery."
    note = f"# 2026-11-20\n\n{line}\n"
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-10)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-09.md:4:4 -->\n"
        "- Ilka Varga: new rota, off Monday and Tuesday. (2026-11-09.md#L4)\n"
    )
    row = builders.entry(snippet=line, recall_count=3)
    scored = Scored(row, Components(1, 1, 1, 1, 1, 1), 0.0, 0.9, 3, 3, 2.0)
    plan = plan_promotions(
        [scored],
        memory=TextFile("MEMORY.md", memory, "m"),
        texts={"memory/2026-11-20.md": TextFile("memory/2026-11-20.md", note, "n")},
        day="2026-11-26",
        now=datetime(2026, 11, 26, 3, tzinfo=UTC),
        max_snippet_chars=400,
        max_chars=10_000,
        max_loss=0.25,
    )
    assert [s.entry.key for s in plan.applied] == [row.key]
    assert [(item.key, item.by) for item in plan.leaving] == [
        ("memory:memory/2026-11-09.md:4:4", row.key)
    ]
    assert plan.memory_text is not None and "new rota" not in plan.memory_text


def _night(memory: str, line: str, day: str = "2026-11-20") -> PromotionPlan:
    """The plan of a night that promotes ``line``, from the note of ``day``, into ``memory``."""
    row = builders.entry(f"memory/{day}.md", 3, 3, line, recall_count=3)
    scored = Scored(row, Components(1, 1, 1, 1, 1, 1), 0.0, 0.9, 3, 3, 2.0)
    return plan_promotions(
        [scored],
        memory=TextFile("MEMORY.md", memory, "m"),
        texts={f"memory/{day}.md": TextFile(f"memory/{day}.md", f"# {day}\n\n{line}\n", "n")},
        day="2026-11-26",
        now=datetime(2026, 11, 26, 3, tzinfo=UTC),
        max_snippet_chars=400,
        max_chars=10_000,
        max_loss=0.25,
        rows={row.key: row},
    )


_FUTSAL = (
    "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
    "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
    "- Tomás Ruiz: futsal on Wednesdays 20:00 at Parque Sur; captain Iker Sanz; "
    "subs 30 EUR a season. (2026-11-02.md#L4)\n"
)


def test_an_entry_changed_in_one_clause_keeps_the_others() -> None:
    """A newer line moves the futsal night; the captain and the subs of the same entry did not
    change: the entry stays under its marker saying only those, its whole old line goes to the
    archive as replaced, and the new line is written beside it."""
    plan = _night(_FUTSAL, "- Tomás Ruiz: futsal moved to Thursdays 21:00 at Parque Sur.")
    assert plan.memory_text is not None
    assert (
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Tomás Ruiz: captain Iker Sanz; subs 30 EUR a season. (2026-11-02.md#L4)\n"
    ) in plan.memory_text
    assert "Wednesdays" not in plan.memory_text.split("replaces:")[0]
    assert "futsal moved to Thursdays 21:00" in plan.memory_text
    leaving = {item.key: (item.reason, item.line) for item in plan.leaving}
    assert leaving == {"memory:memory/2026-11-02.md:4:4": ("superseded", _FUTSAL.splitlines()[-1])}


def test_a_trimmed_entry_keeps_its_source_when_what_it_replaced_has_brackets() -> None:
    """The entry's label names what it once replaced, brackets and all: what still holds of it
    is written under its own source all the same."""
    memory = _FUTSAL.replace(
        "(2026-11-02.md#L4)",
        "(2026-11-02.md#L4; replaces: Tomás Ruiz: futsal on Tuesdays (summer hours) at Sur.)",
    )
    plan = _night(memory, "- Tomás Ruiz: futsal moved to Thursdays 21:00 at Parque Sur.")
    assert plan.memory_text is not None
    assert (
        "- Tomás Ruiz: captain Iker Sanz; subs 30 EUR a season. (2026-11-02.md#L4)\n"
    ) in plan.memory_text


def test_an_entry_whose_every_clause_changed_leaves_whole() -> None:
    """A newer line that gives the night, the captain and the subs anew ends every clause of
    the entry: it leaves whole, with nothing of it kept."""
    newer = (
        "- Tomás Ruiz: futsal moved to Thursdays 21:00 at Parque Sur; captain now Raúl Gil; "
        "subs raised to 35 EUR a season."
    )
    plan = _night(_FUTSAL, newer)
    assert plan.memory_text is not None
    assert "promotion:memory:memory/2026-11-02.md:4:4 -->" not in plan.memory_text
    assert plan.memory_text.count("Iker Sanz") == 1  # in the words of what it replaces
    assert [item.key for item in plan.leaving] == ["memory:memory/2026-11-02.md:4:4"]


def test_what_stands_of_an_entry_is_not_kept_when_the_persons_own_line_says_it() -> None:
    """The group's size changed; that Kojo is its secretary is all that is left of the entry,
    and Kojo's own first-person line says so already: the entry leaves whole."""
    memory = (
        "# About me\n\n- I'm Kojo Mensah. I'm the secretary of the Adum Traders' Susu.\n\n"
        "## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Adum Traders' Susu: 22 members; Kojo is the secretary. (2026-11-02.md#L4)\n"
    )
    plan = _night(memory, "- Correction: Adum Traders' Susu has 24 members, not 22.")
    assert plan.memory_text is not None
    assert "promotion:memory:memory/2026-11-02.md:4:4 -->" not in plan.memory_text
    assert [item.key for item in plan.leaving] == ["memory:memory/2026-11-02.md:4:4"]


def _ampofo_said_in_chat() -> RecallEntry:
    """The owner's chat line that spells Kwesi's surname right ("Ampofo", not "Ampofa")."""
    return builders.entry(
        "memory/.dreams/session-corpus/2026-11-20.txt",
        3,
        3,
        "[main/main#L20] User: Also it's Ampofo. Kwesi Ampofo, with an o at the end. You have "
        "been writing Ampofa all week.",
    )


def test_a_name_spelled_right_in_chat_is_written_right_in_the_entry() -> None:
    """A chat correction of a surname ends the entry that spelled it wrong, and nothing new is
    promoted for it: the entry stays under its marker with the name spelled right, its old
    line goes to the archive, and an entry of someone else is untouched."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Kwesi Ampofa: treasurer of the Adum Susu. (2026-11-02.md#L4)\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:5:5 -->\n"
        "- Abena Ampofa: chair of the Adum Susu. (2026-11-02.md#L5)\n"
    )
    chat = _ampofo_said_in_chat()
    plan = _night_without_candidates(memory, {chat.key: chat})
    assert plan.memory_text is not None
    assert (
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Kwesi Ampofo: treasurer of the Adum Susu. (2026-11-02.md#L4)\n"
    ) in plan.memory_text
    assert "- Abena Ampofa: chair of the Adum Susu." in plan.memory_text
    assert [(item.key, item.by) for item in plan.leaving] == [
        ("memory:memory/2026-11-02.md:4:4", chat.key)
    ]


def test_an_entry_spelled_right_that_reads_as_another_leaves_whole() -> None:
    """Once the surname is put right, the old entry would say word for word what a newer entry
    already says: it leaves whole instead of standing twice."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Kwesi Ampofa: treasurer of the Adum Susu. (2026-11-02.md#L4)\n\n"
        "## Promoted From Short-Term Memory (2026-11-13)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-12.md:7:7 -->\n"
        "- Kwesi Ampofo: treasurer of the Adum Susu. (2026-11-12.md#L7)\n"
    )
    chat = _ampofo_said_in_chat()
    plan = _night_without_candidates(memory, {chat.key: chat})
    assert plan.memory_text is not None
    assert plan.memory_text.count("Kwesi Ampofo: treasurer of the Adum Susu.") == 1
    assert "Ampofa" not in plan.memory_text


def test_an_entry_spelled_right_the_night_the_right_line_is_promoted_leaves_whole() -> None:
    """The correction and the line that spells the name right reach the same night: the new
    line is written, and the old entry leaves instead of being spelled right beside it."""
    memory = (
        "# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-03)\n\n"
        "<!-- dreamd-memory-promotion:memory:memory/2026-11-02.md:4:4 -->\n"
        "- Kwesi Ampofa: treasurer of the Adum Susu. (2026-11-02.md#L4)\n"
    )
    chat = _ampofo_said_in_chat()
    line = "- W @Kwesi Ampofo: treasurer of the Adum Susu."
    row = builders.entry("memory/2026-11-21.md", 3, 3, line, recall_count=3)
    scored = Scored(row, Components(1, 1, 1, 1, 1, 1), 0.0, 0.9, 3, 3, 2.0)
    plan = plan_promotions(
        [scored],
        memory=TextFile("MEMORY.md", memory, "m"),
        texts={"memory/2026-11-21.md": TextFile("memory/2026-11-21.md", f"# x\n\n{line}\n", "n")},
        day="2026-11-26",
        now=datetime(2026, 11, 26, 3, tzinfo=UTC),
        max_snippet_chars=400,
        max_chars=10_000,
        max_loss=0.25,
        rows={row.key: row, chat.key: chat},
    )
    assert plan.memory_text is not None
    entries = [ln for ln in plan.memory_text.splitlines() if ln.startswith("- ")]
    assert [ln.split(" (")[0] for ln in entries] == ["- Kwesi Ampofo: treasurer of the Adum Susu."]
