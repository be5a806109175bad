"""The long-term layer (§15): rows leaving the recall store move to longterm.jsonl and are queried."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from dreamd.cli.main import main
from dreamd.engine.hits import Hit
from dreamd.engine.retirement import Retired, decode_lines, encode_lines, plan_retirement
from dreamd.engine.state import RECALL_STORE
from dreamd.recall.longterm import consolidation_query, query_longterm, recall_for_consolidation
from dreamd.recall.record import fold_pending, record_search
from dreamd.store.lock import workspace_lock
from dreamd.store.longterm import LONGTERM_FILE, append_longterm, read_longterm
from dreamd.store.pending import PENDING_FILE
from dreamd.store.statefiles import load_table
from dreamd.store.writer import save_table
from tests.builders import NOW, entry, table, write

OLD = "2026-10-01T12:00:00.000Z"  # 59 days before NOW
RECENT = "2026-11-20T12:00:00.000Z"
STAMP = "2026-11-29T12:00:00.000Z"


def test_stale_rows_retire_and_the_rest_stay() -> None:
    """Rows last recalled over 30 days ago with fewer than 3 recalls retire; others stay."""
    stale = entry(start=1, end=1, recall_count=2, last_recalled_at=OLD)
    strong = entry(start=2, end=2, recall_count=3, last_recalled_at=OLD)
    fresh = entry(start=3, end=3, recall_count=1, last_recalled_at=RECENT)
    unknown = entry(start=4, end=4, recall_count=0)
    rows = table([stale, strong, fresh, unknown]).rows
    kept, retired = plan_retirement(rows, now=NOW, extras={stale.key: {"x": 1}})
    assert sorted(kept) == sorted([strong.key, fresh.key, unknown.key])
    assert retired == (Retired(stale, STAMP, "stale", {"x": 1}),)


def test_rows_over_the_cap_retire_as_evicted() -> None:
    """Past the limit, the least recently recalled rows leave as evicted, not dropped."""
    older = entry(start=1, end=1, recall_count=5, last_recalled_at=OLD)
    newer = entry(start=2, end=2, recall_count=5, last_recalled_at=RECENT)
    already = entry(start=9, end=9)
    kept, retired = plan_retirement(table([older, newer]).rows, now=NOW, evicted=[already], limit=1)
    assert (list(kept), retired) == (
        [newer.key],
        (Retired(already, STAMP, "evicted"), Retired(older, STAMP, "evicted")),
    )


def test_lines_round_trip_and_the_last_line_of_a_key_wins() -> None:
    """Encoded rows decode to the same rows; a torn line is skipped and reported."""
    first = Retired(
        entry(recall_count=1, last_recalled_at=OLD), STAMP, "stale", {"futureField": [1]}
    )
    later = Retired(
        entry(recall_count=2, last_recalled_at=OLD), "2026-12-01T00:00:00.000Z", "evicted"
    )
    data = encode_lines([first]) + b'{"key": "torn' + b"\n" + encode_lines([later]) + b"[1]\n"
    rows, issues = decode_lines(data)
    assert rows == {later.entry.key: later}
    assert [issue.split(":")[0] for issue in issues] == ["line 2", "line 4"]
    assert decode_lines(encode_lines([first])) == ({first.entry.key: first}, [])


def test_append_is_safe_after_a_torn_tail(tmp_path: Path) -> None:
    """Appending after a crash-torn last line starts a new line; the file is private (0600)."""
    row = Retired(entry(recall_count=1, last_recalled_at=OLD), STAMP, "stale")
    assert append_longterm(tmp_path, [row]) == 1
    path = tmp_path / LONGTERM_FILE
    with path.open("ab") as handle:
        handle.write(b'{"key": "half a ro')
    assert append_longterm(tmp_path, [row]) == 1
    assert append_longterm(tmp_path, []) == 0
    rows, issues = read_longterm(tmp_path)
    assert (rows, len(issues)) == ({row.entry.key: row}, 1)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_longterm(tmp_path / "nowhere") == ({}, [])


def test_folding_recorded_searches_moves_stale_rows_to_the_long_term_file(tmp_path: Path) -> None:
    """Saving the recorded searches into the store retires stale rows: they leave the store
    and land in longterm.jsonl; the pending file is gone once the store holds its searches."""
    stale = entry(path="memory/2026-09-30.md", recall_count=1, last_recalled_at=OLD)
    save_table(tmp_path, RECALL_STORE, table([stale]))
    hit = Hit("memory/2026-11-28.md", 3, 3, "- The billing service runs on Postgres 16.", 0.9)
    record_search(tmp_path, "billing", [hit], now=NOW, zone=NOW.tzinfo)  # type: ignore[arg-type]
    assert (tmp_path / PENDING_FILE).exists()
    assert read_longterm(tmp_path) == ({}, [])  # the store is not rewritten on every search
    with workspace_lock(tmp_path):
        fold_pending(tmp_path, now=NOW)
    store, _ = load_table(tmp_path, RECALL_STORE)
    assert list(store.rows) == ["memory:memory/2026-11-28.md:3:3"]
    assert store.rows["memory:memory/2026-11-28.md:3:3"].recall_count == 1
    rows, _ = read_longterm(tmp_path)
    assert rows == {stale.key: Retired(stale, STAMP, "stale")}
    assert not (tmp_path / PENDING_FILE).exists()


def test_context_hits_are_not_recorded(tmp_path: Path) -> None:
    """A hit shown only as context for its neighbour is not a recall."""
    context = Hit("memory/2026-11-28.md", 4, 4, "- Postgres 16, on db-02.", 0.2, context=True)
    outcome = record_search(tmp_path, "billing", [context], now=NOW, zone=NOW.tzinfo)  # type: ignore[arg-type]
    assert (outcome.recorded, load_table(tmp_path, RECALL_STORE)[0].rows) == ((), {})


def retired(path: str, snippet: str) -> Retired:
    """A retired row of ``path`` holding ``snippet``."""
    return Retired(entry(path=path, snippet=snippet), STAMP, "stale")


ROWS = [
    retired("memory/2026-09-01.md", "- The VPN profile corp-eu is needed for staging deploys."),
    retired("memory/2026-09-02.md", "- @Ana owns the release checklist."),
    retired("notes/topic.md", "- Lunch was noodles."),
]


def test_query_longterm_ranks_retired_rows() -> None:
    """Retired rows are found by (stemmed) words, best first, with scores in [0, 1]."""
    hits = query_longterm(ROWS, "staging deploy vpn", k=5, now=NOW)
    assert [(hit.path, hit.score >= 0.6) for hit in hits] == [("memory/2026-09-01.md", True)]
    assert query_longterm(ROWS, "the of", k=5, now=NOW) == []


def test_query_longterm_filters() -> None:
    """Entity, kind and day filters apply to the long-term layer as to search."""
    assert [
        h.path for h in query_longterm(ROWS, "release checklist", k=5, now=NOW, entity="ana")
    ] == ["memory/2026-09-02.md"]
    assert query_longterm(ROWS, "release checklist", k=5, now=NOW, entity="bob") == []
    assert query_longterm(ROWS, "noodles", k=5, now=NOW, kinds=["daily"]) == []
    assert query_longterm(ROWS, "vpn", k=5, now=NOW, first_day="2026-09-02") == []


def test_consolidation_query_uses_the_strongest_entries() -> None:
    """The deep phase asks with the concept tags of the strongest entries, strongest first."""
    strong = entry(start=1, end=1, max_score=0.9, concept_tags=("billing", "postgres"))
    weak = entry(start=2, end=2, max_score=0.2, concept_tags=("lunch",))
    plain = entry(start=3, end=3, max_score=0.5, snippet="- Tea, please!")
    assert consolidation_query([weak, plain, strong], strongest=2) == "billing postgres tea please"


def test_cli_searches_the_long_term_layer_and_status_counts_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """memory search --long-term queries longterm.jsonl; memory status shows both layers."""
    root = tmp_path / "ws"
    write(root, "memory/2026-11-28.md", "- The billing service runs on Postgres 16.\n")
    append_longterm(root, ROWS)
    save_table(root, RECALL_STORE, table([entry(last_recalled_at=RECENT, recall_count=1)]))
    base = ["--json", "--workspace", str(root), "--now", "2026-11-29T12:00:00Z", "memory"]
    assert main([*base, "search", "--long-term", "vpn staging"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["layer"], [hit["path"] for hit in found["hits"]]) == (
        "long-term",
        ["memory/2026-09-01.md"],
    )
    assert main([*base, "status"]) == 0
    [report] = json.loads(capsys.readouterr().out)["workspaces"]
    assert (report["entryCount"], report["longTerm"]) == (
        1,
        {"path": str(root / LONGTERM_FILE), "entryCount": 3, "reasons": {"stale": 3}},
    )


def test_recall_for_consolidation_finds_related_retired_rows() -> None:
    """The deep phase's context: retired rows that share the strongest entries' keywords."""
    today = entry(max_score=0.9, concept_tags=("staging", "vpn"))
    hits = recall_for_consolidation(ROWS, [today], now=NOW)
    assert [hit.path for hit in hits] == ["memory/2026-09-01.md"]
