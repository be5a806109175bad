"""Lazily compiled patterns answer exactly as compiled ones, and every one in the tree compiles."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dreamd
from dreamd.patterns import LazyPattern

SOURCES = (
    (r"(\d{4})-(\d{2})-(\d{2})", 0),
    (r"^\s*about (.+?)(?:; supporting|$)", 0),
    (r"what (?:does|do) (?P<who>.+?) prefer\b", re.IGNORECASE),
    (r"[^\W_]+", 0),
    (r"^[-*] (.+)$", re.MULTILINE),
)
texts = st.text(alphabet="ab1 2-:;?\n*ÄéWhat does prefer about supporting 2024-05-06", max_size=60)


@given(text=texts, which=st.integers(0, len(SOURCES) - 1), pos=st.integers(0, 5))
def test_every_call_answers_as_the_compiled_pattern(text: str, which: int, pos: int) -> None:
    """Search, match, fullmatch, findall, finditer, sub, subn and split answer as re.compile's."""
    source, flags = SOURCES[which]
    lazy, plain = LazyPattern(source, flags), re.compile(source, flags)

    def same(a: re.Match[str] | None, b: re.Match[str] | None) -> bool:
        return (a is None and b is None) or (
            a is not None and b is not None and a.span() == b.span() and a.groups() == b.groups()
        )

    assert same(lazy.search(text, pos), plain.search(text, pos))
    assert same(lazy.match(text, pos), plain.match(text, pos))
    assert same(lazy.fullmatch(text), plain.fullmatch(text))
    assert lazy.findall(text) == plain.findall(text)
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in plain.finditer(text)]
    assert lazy.sub("<\\g<0>>", text) == plain.sub("<\\g<0>>", text)
    assert lazy.subn(lambda m: m.group(0).upper(), text, 2) == plain.subn(
        lambda m: m.group(0).upper(), text, 2
    )
    assert lazy.split(text, 1) == plain.split(text, 1)


def test_nothing_is_compiled_before_the_first_call() -> None:
    """Defining a pattern compiles nothing: even a broken one fails only when used."""
    lazy = LazyPattern(r"(unclosed")  # a broken pattern: only using it can fail
    assert lazy.pattern == "(unclosed"
    with pytest.raises(re.error):
        lazy.search("text")


def test_after_the_first_call_the_compiled_pattern_answers_directly() -> None:
    """After the first call the compiled pattern's bound methods answer, without a detour."""
    lazy = LazyPattern(r"b+")
    assert lazy.search("abbc") is not None
    assert lazy.search == lazy.compiled.search  # the bound method of the compiled pattern
    assert lazy.compiled is lazy.compiled


def _module_patterns() -> list[tuple[str, str, LazyPattern]]:
    found: list[tuple[str, str, LazyPattern]] = []
    for info in pkgutil.walk_packages(dreamd.__path__, "dreamd."):
        if info.name.endswith("__main__"):
            continue  # running it is running the CLI
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            values = value if isinstance(value, tuple) else (value,)
            found.extend((info.name, name, v) for v in values if isinstance(v, LazyPattern))
    return found


def test_every_lazy_pattern_in_the_package_compiles() -> None:
    """A typo in a lazy pattern fails here, not on the first question that needs it."""
    found = _module_patterns()
    assert len(found) >= 50
    for module, name, pattern in found:
        try:
            re.compile(pattern.source, pattern.flags)
        except re.error as exc:  # pragma: no cover - reports the culprit
            pytest.fail(f"{module}.{name}: {exc}")
