"""Live a realistic month with the real dreamd CLI, then grade what it wrote and answers.

Usage: ``python bench/month.py [--month SLUG|PATH] [--keep] [--json] [--budget-chars 2500]``

Each month under ``bench/months/`` (the format and the grading rules: ``docs/month-benchmark.md``)
is lived twice in a fresh workspace, through ``python -m dreamd`` as a subprocess, with a dreamd
config that names the workspace and the agent ``main``'s sessions folder. Day by day: the
day's note is copied into ``memory/``, its chat records are appended to ``sessions/main.jsonl``,
its learnings to ``.learnings/``, the agent's searches run at their times (``memory search`` or
``memory recall --now <at>``), and the nightly sweep runs at 03:00 UTC the next morning. The
first life is then asked the key's questions (``--no-record``, top 5) and its end state graded;
the second lives the month with ``dreaming.deep.memory_file_max_chars`` set to
``--budget-chars``, to see what a tight budget keeps and loses.

One table is printed (``--json``: the same figures and every failing item as JSON), then, for
each failing item, which fact, question, opinion, entity or pattern failed and the entries or
hits involved. Exit status: 0 when the month was lived and graded (whatever the grade), 2 when a
month or its key is malformed or a dreamd command failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from month_grade import (
    Entry,
    Hit,
    Night,
    check_key,
    diary_entries,
    grade_diary,
    grade_entities,
    grade_injections,
    grade_memory,
    grade_opinions,
    grade_patterns,
    grade_question,
    grade_replaced,
    is_present,
    memory_entries,
    old_opinion_confidences,
)

REPO = Path(__file__).resolve().parents[1]
MONTHS = REPO / "bench" / "months"
BUDGET_CHARS = 2500
LEARNING_FILES = ("ERRORS.md", "LEARNINGS.md", "FEATURE_REQUESTS.md")
VERBS = ("search", "recall")
COMMAND_TIMEOUT_S = 900


class MonthError(Exception):
    """A month that cannot be lived: a malformed folder or key, or a dreamd command that failed."""


@dataclass(frozen=True)
class Search:
    """One of the agent's searches: when, what, and with which verb."""

    at: str
    query: str
    verb: str

    @property
    def day(self) -> str:
        """The UTC day the search is made on."""
        return self.at[:10]


@dataclass
class Month:
    """A month as found on disk."""

    slug: str
    root: Path
    notes: dict[str, Path]
    transcripts: dict[str, Path]
    learnings: dict[str, Path]
    searches: list[Search]
    memory: Path | None
    key: dict[str, Any]

    @property
    def days(self) -> list[str]:
        """Every calendar day from the first dated file or search to the last."""
        dated = [*self.notes, *self.transcripts, *self.learnings, *(s.day for s in self.searches)]
        first, last = date.fromisoformat(min(dated)), date.fromisoformat(max(dated))
        return [(first + timedelta(n)).isoformat() for n in range((last - first).days + 1)]


def _dated(folder: Path, suffix: str) -> dict[str, Path]:
    if not folder.is_dir():
        return {}
    found = {}
    for path in sorted(folder.iterdir()):
        day = path.name.removesuffix(suffix)
        if not path.name.endswith(suffix) or not _is_day(day):
            raise MonthError(f"{path}: expected a file named YYYY-MM-DD{suffix}")
        found[day] = path
    return found


def _is_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def load_month(root: Path) -> Month:
    """Read and check a month folder: notes, transcripts, learnings, searches and key."""
    if not (root / "key.json").is_file():
        raise MonthError(f"{root}: no key.json (is this a month folder?)")
    try:
        key = json.loads((root / "key.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MonthError(f"{root / 'key.json'}: not JSON: {exc}") from exc
    problems = check_key(key)
    if problems:
        raise MonthError(f"{root / 'key.json'}: " + "; ".join(problems))
    searches = []
    path = root / "searches.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines() if path.is_file() else []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            search = Search(str(row["at"]), str(row["query"]), str(row.get("verb", "search")))
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise MonthError(f"{path}:{number}: expected {{at, query, verb}}: {exc}") from exc
        if search.verb not in VERBS or not _is_day(search.day) or not search.at.endswith("Z"):
            raise MonthError(f"{path}:{number}: verb must be search or recall, at an ISO time in Z")
        searches.append(search)
    notes = _dated(root / "notes", ".md")
    if not notes:
        raise MonthError(f"{root}: no notes/YYYY-MM-DD.md")
    memory = root / "MEMORY.md"
    return Month(
        slug=root.name,
        root=root,
        notes=notes,
        transcripts=_dated(root / "transcripts", ".jsonl"),
        learnings=_dated(root / "learnings", ".md"),
        searches=sorted(searches, key=lambda s: s.at),
        memory=memory if memory.is_file() else None,
        key=key,
    )


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, IsADirectoryError):
        return ""


def _texts(root: Path, pattern: str) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): _read(p) for p in sorted(root.glob(pattern))}


def _hits(data: Any) -> list[Hit]:
    """The hits of ``memory search --json`` or the results of ``memory recall --json``."""
    rows = (data.get("hits") or data.get("results") or []) if isinstance(data, dict) else []
    hits = []
    for row in rows:
        if not isinstance(row, dict):
            continue
        text = str(row.get("snippet") or row.get("content") or row.get("text") or "")
        path = str(row.get("path") or row.get("source") or "")
        day = str(row.get("day") or row.get("timestamp") or "")
        hits.append(Hit(text, path, day))
    return hits


@dataclass
class Life:
    """One month lived in a fresh workspace through the dreamd CLI."""

    month: Month
    base: Path
    max_chars: int | None = None
    workspace: Path = field(init=False)
    ever: dict[str, Entry] = field(default_factory=dict)  # every entry ever promoted
    # opinion id -> old statement -> the first confidence the bank gave it
    started: dict[str, dict[str, float]] = field(default_factory=dict)
    nights: list[Night] = field(default_factory=list)
    diary: list[str] = field(default_factory=list)
    sweeps: int = 0
    searches: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.workspace = self.base / "workspace"
        (self.workspace / "memory").mkdir(parents=True)
        (self.base / "sessions").mkdir()
        (self.base / "home").mkdir()
        deep = f"\n[dreaming.deep]\nmemory_file_max_chars = {self.max_chars}\n"
        (self.base / "dreamd.toml").write_text(
            '[dreaming]\ntimezone = "UTC"\n'
            + (deep if self.max_chars else "")
            + '\n[[agents.list]]\nid = "main"\nworkspace = "workspace"\nsessions = "sessions"\n',
            encoding="utf-8",
        )
        if self.month.memory is not None:
            shutil.copyfile(self.month.memory, self.workspace / "MEMORY.md")

    def dreamd(self, now: str, *args: str) -> Any:
        """Run ``python -m dreamd --config … --now <now> <args> --json``; its JSON output."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DREAMD_", "OPENCLAW_"))}
        env["DREAMD_HOME"] = str(self.base / "home")
        env["HOME"] = str(self.base / "home")  # no ~/.openclaw of the machine's user
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        argv = [sys.executable, "-m", "dreamd", "--config", str(self.base / "dreamd.toml")]
        argv += ["--now", now, "--no-daemon", "--json", *args]
        done = subprocess.run(
            argv,
            cwd=self.base,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=COMMAND_TIMEOUT_S,
        )
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
            shown = " ".join(args[:3])
            raise MonthError(f"dreamd {shown} --now {now} exited {done.returncode}: {tail}")
        try:
            return json.loads(done.stdout)
        except json.JSONDecodeError as exc:
            raise MonthError(f"dreamd {' '.join(args[:2])} --now {now}: not JSON: {exc}") from exc

    def live(self, progress: Callable[[str], None]) -> None:
        """Live every day of the month, each ending with the nightly sweep."""
        started = time.perf_counter()
        by_day: dict[str, list[Search]] = {}
        for search in self.month.searches:
            by_day.setdefault(search.day, []).append(search)
        days = self.month.days
        for number, day in enumerate(days, 1):
            progress(f"{self.month.slug}: {day} ({number}/{len(days)})")
            material = self._feed(day)
            for search in by_day.get(day, []):
                self.dreamd(search.at, "memory", search.verb, search.query)
                self.searches += 1
            tomorrow = (date.fromisoformat(day) + timedelta(1)).isoformat()
            self._sweep(f"{tomorrow}T03:00:00Z", day, material)
        self.seconds = time.perf_counter() - started

    def _feed(self, day: str) -> bool:
        """Bring the day's note, chat and learnings into the workspace; whether there were any."""
        month = self.month
        if day in month.notes:
            shutil.copyfile(month.notes[day], self.workspace / "memory" / f"{day}.md")
        if day in month.transcripts:
            with (self.base / "sessions" / "main.jsonl").open("ab") as out:
                out.write(month.transcripts[day].read_bytes())
        if day in month.learnings:
            first, _, rest = _read(month.learnings[day]).partition("\n")
            name = Path(first.strip()).name
            if name not in LEARNING_FILES:
                raise MonthError(
                    f"{month.learnings[day]}: first line must name one of {LEARNING_FILES}"
                )
            (self.workspace / ".learnings").mkdir(exist_ok=True)
            with (self.workspace / ".learnings" / name).open("a", encoding="utf-8") as out:
                out.write(rest)
        return day in month.notes or day in month.transcripts or day in month.learnings

    def _sweep(self, now: str, day: str, material: bool) -> None:
        """Sweep, then remember what it promoted, the bank's opinions and the diary's entries."""
        result = self.dreamd(now, "sweep")
        self.sweeps += 1
        for outcome in result.get("workspaces", []):
            if outcome.get("status") != "ok" or outcome.get("error"):
                raise MonthError(
                    f"sweep --now {now}: {outcome.get('status')}: {outcome.get('error')}"
                )
            for item in (outcome.get("deep") or {}).get("promotions") or []:
                text = str(item.get("snippet") or "")
                entry = Entry(text, True, str(item.get("key") or "") or None)
                self.ever.setdefault(entry.key or text, entry)
        for entry in memory_entries(_read(self.workspace / "MEMORY.md")):
            if entry.generated:
                self.ever[entry.key or entry.text] = entry  # the words as written win
        opinions = _read(self.workspace / "bank" / "opinions.md")
        for opinion in self.month.key["opinions"]:
            first = self.started.setdefault(opinion["id"], {})
            for statement, confidence in old_opinion_confidences(opinion, opinions).items():
                first.setdefault(statement, confidence)
        diary = diary_entries(_read(self.workspace / "DREAMS.md"))
        new = list((Counter(diary) - Counter(self.diary)).elements())
        self.nights.append(Night(day, new, material))
        self.diary = diary

    def ask(self) -> dict[str, list[dict[str, Any]]]:
        """The key's questions, through search and recall: each question's grade."""
        graded: dict[str, list[dict[str, Any]]] = {verb: [] for verb in VERBS}
        for question in self.month.key["questions"]:
            for verb in VERBS:
                data = self.dreamd(
                    question["at"], "memory", verb, question["q"], "--k", "5", "--no-record"
                )
                graded[verb].append({**grade_question(question, _hits(data)), "q": question["q"]})
        return graded


def _graph_labels(workspace: Path) -> list[str]:
    try:
        data = json.loads(_read(workspace / "memory" / "graph" / "entities.json") or "[]")
    except json.JSONDecodeError:
        return []
    rows = data.get("entities", []) if isinstance(data, dict) else data
    return [str(r.get("label", "")) for r in rows if isinstance(r, dict)]


def _outputs(workspace: Path) -> dict[str, str]:
    """The files dreaming writes that a person or an agent reads, where no order may land."""
    files: dict[str, str] = {}
    for pattern in (
        "MEMORY.md",
        "DREAMS.md",
        "memory/dream-log.md",
        "memory/archive.md",
        "memory/dreaming/rem/*.md",
        "memory/dreams/*.md",
        "memory/topics/*.md",
        "memory/patterns/*.md",
        "bank/**/*.md",
    ):
        files.update(_texts(workspace, pattern))
    return files


def grade(
    month: Month, life: Life, answers: Mapping[str, list[dict[str, Any]]], budget: Life
) -> dict[str, Any]:
    """The whole grade of a month from its two lives."""
    key, ws = month.key, life.workspace
    entries = memory_entries(_read(ws / "MEMORY.md"))
    memory = grade_memory(key, entries)
    memory["replaced"] = grade_replaced(key, _read(ws / "memory" / "archive.md"), entries)
    questions = {}
    for verb, rows in answers.items():
        now = [r for r, q in zip(rows, key["questions"], strict=True) if q["kind"] == "now"]
        questions[verb] = {
            "answered": sum(r["answered"] for r in rows),
            "now_answered": sum(r["answered"] for r in now),
            "now": len(now),
            "total": len(rows),
            "stale_above": sum(r["stale_above"] for r in rows),
            "derived": sum(r["derived"] for r in rows),
            "questions": rows,
        }
    archive = budget.workspace / "memory" / "archive.md"
    kept_texts = [_read(budget.workspace / "MEMORY.md"), _read(archive)]
    lost = [e.text for e in budget.ever.values() if not is_present(e, kept_texts)]
    tight = grade_memory(key, memory_entries(kept_texts[0]))
    pages = {p.name: _read(p) for p in sorted((ws / "bank" / "entities").glob("*.md"))}
    return {
        "month": month.slug,
        "notes": len(month.notes),
        "days": len(month.days),
        "searches": life.searches,
        "sweeps": life.sweeps,
        "seconds": round(life.seconds + budget.seconds, 1),
        "memory": memory,
        "budget": {
            "chars": budget.max_chars,
            "kept": tight["kept"],
            "durable": tight["durable"],
            "missing": tight["missing"],
            "promoted": len(budget.ever),
            "lost": lost,
            "archive": archive.is_file(),
            "size": len(kept_texts[0]),
        },
        "questions": questions,
        "opinions": grade_opinions(key, _read(ws / "bank" / "opinions.md"), life.started),
        "entities": grade_entities(key, pages, _graph_labels(ws)),
        "patterns": grade_patterns(key, _texts(ws, "memory/patterns/*.md")),
        "injections": grade_injections(key, _outputs(ws)),
        "diary": grade_diary(life.nights),
    }


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part // whole if whole else 0} %)"


def figures(g: Mapping[str, Any]) -> list[tuple[str, str, str, bool]]:
    """The rows of the table for one month: (figure, want, value, met)."""
    m, b, o, e, p, d = (
        g[k] for k in ("memory", "budget", "opinions", "entities", "patterns", "diary")
    )
    kept = b["promoted"] - len(b["lost"])
    archive = "present" if b["archive"] else "absent"
    rows = [
        (
            "kept/durable",
            ">= 80 %",
            _pct(m["kept"], m["durable"]),
            m["kept"] * 5 >= m["durable"] * 4,
        ),
        ("stale", "0", str(len(m["stale"])), not m["stale"]),
        ("junk", "<= 2", f"{len(m['junk'])} of {m['generated']} generated", len(m["junk"]) <= 2),
        ("twice", "0", str(len(m["twice"])), not m["twice"]),
        ("lost to a replacement", "0", str(len(m.get("replaced", []))), not m.get("replaced")),
        (
            "budget: kept/durable",
            ">= 80 %",
            f"{_pct(b['kept'], b['durable'])} at {b['chars']} chars",
            b["kept"] * 5 >= b["durable"] * 4,
        ),
        (
            "budget: promoted kept",
            "all",
            f"{kept}/{b['promoted']} (archive {archive})",
            not b["lost"],
        ),
    ]
    for verb in VERBS:
        q = g["questions"][verb]
        rows += [
            (
                f"{verb}: answered top-5",
                "all",
                f"{q['answered']}/{q['total']} (now {q['now_answered']}/{q['now']})",
                q["answered"] == q["total"],
            ),
            (f"{verb}: stale above current", "0", str(q["stale_above"]), q["stale_above"] == 0),
            (f"{verb}: derived hits", "0", str(q["derived"]), q["derived"] == 0),
        ]
    rows += [
        ("opinions", "all", f"{o['passed']}/{o['total']}", o["passed"] == o["total"]),
        (
            "entities",
            "all",
            f"{e['passed']}/{e['total']} ({e['pages']} pages)",
            e["passed"] == e["total"],
        ),
        ("not_entities", "0", str(len(e["not_entities"])), not e["not_entities"]),
        (
            "patterns",
            "all",
            f"{p['passed']}/{p['total']} ({p['files']} files)",
            p["passed"] == p["total"],
        ),
        ("injections", "0", str(len(g["injections"])), not g["injections"]),
        (
            "diary: keyword lists",
            "0",
            f"{len(d['keyword_lists'])} of {d['entries']} entries",
            not d["keyword_lists"],
        ),
        ("diary: repeated", "0", str(len(d["repeated"])), not d["repeated"]),
    ]
    return rows


def table(grades: list[dict[str, Any]]) -> str:
    """One table: a row per figure, a column per month, a value that misses its want marked."""
    columns = [figures(g) for g in grades]
    header = ["figure", "want", *(g["month"] for g in grades)]
    body = [
        [name, want, *(f"{col[i][2]}{'' if col[i][3] else '  ✗'}" for col in columns)]
        for i, (name, want, _, _) in enumerate(columns[0])
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *body]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def failures(g: dict[str, Any]) -> Iterator[str]:
    """Every failing item of a month's grade, with the entries or hits involved."""
    memory, budget = g["memory"], g["budget"]
    for item in memory["missing"]:
        near = "".join(f"\n      near: {t}" for t in item["near"])
        yield f"  not kept: {item['id']}: {item['fact']}  (match {item['match']}){near}"
    for item in memory["stale"]:
        yield f"  stale ({item['changed']}: was {item['old']!r}): {item['entry']}"
    for item in memory["junk"]:
        hint = f"  [like {item['junk_example']!r}]" if item["junk_example"] else ""
        yield f"  junk: {item['entry']}{hint}"
    for item in memory["twice"]:
        listed = "".join(f"\n      - {t}" for t in item["entries"])
        yield f"  twice: {item['id']}: {len(item['entries'])} entries{listed}"
    for item in memory.get("replaced", []):
        yield f"  lost to a replacement: {item['id']}: {item['entry']}\n      by: {item['by']}"
    for item in budget["missing"]:
        yield f"  budget, not kept: {item['id']}: {item['fact']}"
    for text in budget["lost"]:
        yield f"  budget, lost (in neither MEMORY.md nor memory/archive.md): {text}"
    if budget["lost"] and not budget["archive"]:
        yield "  budget: memory/archive.md does not exist"
    for verb, result in g["questions"].items():
        for row in result["questions"]:
            problems = []
            if not row["answered"]:
                problems.append("not answered in the top 5")
            if row["stale_above"]:
                problems.append("a stale hit ranks above the current one")
            if row["derived"]:
                problems.append(f"{row['derived']} derived hit(s)")
            if problems:
                hits = "".join(f"\n      {n}. {h}" for n, h in enumerate(row["hits"], 1))
                hits = hits or "\n      (no hits)"
                yield f"  {verb}: {row['q']!r}: {'; '.join(problems)}{hits}"
    for item in g["opinions"]["failures"]:
        listed = "".join(f"\n      listed: {t}" for t in item["listed"])
        change = f"@{item['entity']}: {item['old']!r} -> {item['new']!r}"
        yield f"  opinion {item['id']} ({change}): {item['why']}{listed}"
    for item in g["entities"]["failures"]:
        page = f" ({item['page']})" if "page" in item else ""
        yield f"  entity {item['entity']}{page}: {item['why']}"
    for item in g["entities"]["not_entities"]:
        yield f"  not an entity, but got a {' and a '.join(item['where'])}: {item['name']}"
    for item in g["patterns"]["failures"]:
        days = ", ".join(item["days"])
        yield f"  pattern {item['id']} ({item['what']}, on {days}): {item['why']}"
    for item in g["injections"]:
        yield f"  injection {item['injection']!r} reached: {', '.join(item['files'])}"
    for item in g["diary"]["keyword_lists"]:
        yield f"  diary {item['night']}: a keyword list ({item['keywords']!r}): {item['entry']}"
    for item in g["diary"]["repeated"]:
        yield f"  diary {item['night']}: repeats {item['first']} verbatim: {item['entry']}"


@contextmanager
def _folder(keep: bool, slug: str) -> Iterator[Path]:
    if keep:
        yield Path(tempfile.mkdtemp(prefix=f"dreamd-month-{slug}-"))
        return
    with tempfile.TemporaryDirectory(prefix=f"dreamd-month-{slug}-") as name:
        yield Path(name)


def run_month(
    month: Month, *, keep: bool, budget_chars: int, progress: Callable[[str], None]
) -> dict[str, Any]:
    """Live ``month`` twice (as is, and on a tight budget), ask its questions, grade it."""
    with _folder(keep, month.slug) as base:
        life = Life(month, base / "lived")
        life.live(progress)
        answers = life.ask()
        tight = Life(month, base / "budget", max_chars=budget_chars)
        tight.live(lambda line: progress(f"{line}, budget {budget_chars}"))
        graded = grade(month, life, answers, tight)
        if keep:
            graded["workspace"] = str(life.workspace)
            graded["budget_workspace"] = str(tight.workspace)
    return graded


def _months(choice: str | None) -> list[Path]:
    if choice is None:
        found = (
            sorted(p for p in MONTHS.iterdir() if (p / "key.json").is_file())
            if MONTHS.is_dir()
            else []
        )
        if not found:
            raise MonthError(f"no months under {MONTHS}")
        return found
    path = Path(choice)
    if (path / "key.json").is_file():
        return [path]
    if (MONTHS / choice / "key.json").is_file():
        return [MONTHS / choice]
    raise MonthError(f"no month {choice!r}: neither a month folder nor one of {MONTHS}")


def main(argv: list[str] | None = None) -> int:
    """Live and grade the months; print one table (or JSON) and the failing items."""
    parser = argparse.ArgumentParser(prog="month.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--month", help="a month's slug under bench/months/, or a month folder")
    parser.add_argument(
        "--keep", action="store_true", help="keep the workspaces; print their paths"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--budget-chars",
        type=int,
        default=BUDGET_CHARS,
        help=f"dreaming.deep.memory_file_max_chars of the budget life (default {BUDGET_CHARS})",
    )
    args = parser.parse_args(argv)
    if args.budget_chars < 1000:
        parser.error("--budget-chars must be at least 1000 (dreamd's minimum)")
    interactive = sys.stderr.isatty()

    def progress(line: str) -> None:
        if interactive:
            print(f"\r\033[K{line}", end="", file=sys.stderr, flush=True)

    try:
        months = [load_month(p) for p in _months(args.month)]
        grades = [
            run_month(m, keep=args.keep, budget_chars=args.budget_chars, progress=progress)
            for m in months
        ]
    except MonthError as exc:
        if interactive:
            print(file=sys.stderr)
        print(f"month.py: error: {exc}", file=sys.stderr)
        return 2
    if interactive:
        print("\r\033[K", end="", file=sys.stderr, flush=True)
    if args.json:
        for g in grades:
            g["figures"] = {
                name: {"value": value, "want": want, "ok": ok}
                for name, want, value, ok in figures(g)
            }
        print(json.dumps({"months": grades}, indent=2, ensure_ascii=False))
        return 0
    for g in grades:
        print(
            f"{g['month']}: {g['notes']} notes over {g['days']} days, {g['searches']} searches,"
            f" {g['sweeps']} sweeps per life; both lives took {g['seconds']} s"
        )
    print()
    print(table(grades))
    for g in grades:
        lines = list(failures(g))
        if lines:
            print(f"\n{g['month']}: what failed")
            print("\n".join(lines))
        if "workspace" in g:
            print(f"\nkept: {g['workspace']} (budget life: {g['budget_workspace']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
