"""Which action items are open and which a later line closed: the body of ``memory/pending.md``.

Items (:mod:`dreamd.engine.truth.tasks`) are taken in note order: by day, then note, then line.

* An item that opens what an open item already says (each covers at least
  :data:`REPEAT_COVERAGE` of the other: a to-do list carried from note to note) is that item,
  listed once, from its first note.
* A line that says done closes the open item, opened before it, that it covers best, when it
  covers at least :data:`CLOSE_COVERAGE` of it ("Sent the invoice to Halvorsen" closes "send
  the Halvorsen invoice"); when two items are covered equally well it closes neither (which
  one was meant is not said). A checked box that closes nothing was an item done at once.
* An item the person ticked in ``pending.md`` itself (``- [x]`` on its line) is closed there.

The body lists the open items oldest first, each with its note and day as a link, then the
:data:`MAX_DONE` most recently closed ones under ``## Done``, with the day they were closed
(the person's ticks first: they carry no day).
Every line ends with the item's key (``^t-`` and ten hex digits, from its first note and its
words), so :func:`dreamd.engine.bank.block.merge` keeps a person's edits. Pure.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, replace

from dreamd.engine.bank.block import Line
from dreamd.engine.text.digests import sha1_hex
from dreamd.engine.truth.tasks import Item, coverage, task_words
from dreamd.layout import NOTES_DIR
from dreamd.redaction import redact

__all__ = [
    "CLOSE_COVERAGE",
    "MAX_DONE",
    "REPEAT_COVERAGE",
    "Task",
    "pending_lines",
    "plan_tasks",
    "task_key",
]

CLOSE_COVERAGE = 0.6
REPEAT_COVERAGE = 0.8
MAX_DONE = 30


@dataclass(frozen=True, slots=True)
class Task:
    """An item, where it was opened, and what closed it (``None``: still open)."""

    key: str
    opened: Item
    closed: Item | None = None
    ticked: bool = False  # closed by the person's tick in pending.md

    @property
    def is_open(self) -> bool:
        """True while nothing closed it."""
        return self.closed is None and not self.ticked


def task_key(item: Item) -> str:
    """``t-`` and ten hex digits: the item's first note and its words."""
    words = " ".join(sorted(task_words(item.text)))
    return "t-" + sha1_hex(f"{item.path}\x1f{words}".encode())[:10]


def _repeats(one: str, other: str) -> bool:
    return coverage(one, other) >= REPEAT_COVERAGE and coverage(other, one) >= REPEAT_COVERAGE


def plan_tasks(items: Iterable[Item], *, ticked: frozenset[str] = frozenset()) -> tuple[Task, ...]:
    """Every item, open or closed (see the module rules), in the order they were opened."""
    tasks: list[Task] = []
    for item in sorted(items, key=lambda i: (i.day, i.path, i.line, i.kind)):
        open_now = [i for i, task in enumerate(tasks) if task.is_open]
        if item.kind == "open":
            if not any(_repeats(tasks[i].opened.text, item.text) for i in open_now):
                tasks.append(Task(task_key(item), item))
            continue
        scored = sorted(
            ((coverage(tasks[i].opened.text, item.text), i) for i in open_now), reverse=True
        )
        best = scored[0][0] if scored else 0.0
        if best >= CLOSE_COVERAGE:
            if len(scored) == 1 or scored[1][0] < best:
                index = scored[0][1]
                tasks[index] = replace(tasks[index], closed=item)
        elif item.boxed:
            tasks.append(Task(task_key(item), item, item))
    return tuple(replace(t, ticked=True) if t.is_open and t.key in ticked else t for t in tasks)


def _link(item: Item) -> str:
    target = posixpath.relpath(item.path, NOTES_DIR)
    return f"[{item.day or item.path}]({target}#L{item.line})"


def pending_lines(tasks: Iterable[Task]) -> list[Line]:
    """The block's lines: open items, then ``## Done`` (see the module rules)."""
    every = list(tasks)
    lines = [
        Line(task.key, f"- [ ] {redact(task.opened.text)} ({_link(task.opened)}) ^{task.key}")
        for task in every
        if task.is_open
    ]
    done = [task for task in every if not task.is_open]
    # newest close first; a tick in pending.md has no day, and is the newest news there is
    done.sort(
        key=lambda t: (t.ticked, t.closed.day if t.closed else "", t.opened.day), reverse=True
    )
    if done:
        if lines:
            lines.append(Line(None, ""))
        lines += [Line(None, "## Done"), Line(None, "")]
    for task in done[:MAX_DONE]:
        closed = task.closed
        if closed is None:
            when = "ticked here"
        elif closed == task.opened:
            when = f"done {_link(closed)}"
        else:
            when = f"done {_link(closed)}, from {_link(task.opened)}"
        lines.append(Line(task.key, f"- [x] {redact(task.opened.text)} ({when}) ^{task.key}"))
    return lines
