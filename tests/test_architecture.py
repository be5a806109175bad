"""The tree keeps its architecture: few top-level modules, no import cycles, arrows point down."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dreamd"
MAX_TOP_LEVEL = 12
LAYERS = {
    "engine": 1,
    "store": 2,
    "workspace": 3,
    "recall": 4,
    "model": 5,
    "host": 6,
    "runs": 7,
    "chat": 8,
    "service": 8,
    "fleet": 8,
    "mcp": 8,
    "daemon": 9,
    "cli": 10,
}
"""Each package's layer: a module may import its own package, lower layers and the shared
top-level modules (layer 0), never a higher layer or a sibling of its own layer."""
ADAPTERS = ("dreamd_discord", "dreamd_telegram")


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_name(p): p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}


def _imported(tree: ast.AST) -> Iterator[str]:
    """Every name an import statement anywhere in ``tree`` reaches (functions, TYPE_CHECKING)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Module -> the dreamd modules (and adapter packages) it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for target in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            top = target.split(".")[0]
            if top in ADAPTERS:
                found.add(top)
            elif top == "dreamd":
                while target not in modules:  # ``from x import name``: the module is x
                    target = target.rpartition(".")[0]
                found.add(target)
        graph[name] = found - {name}
    return graph


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else ""


def forbidden_arrows(graph: Mapping[str, set[str]]) -> list[str]:
    """Imports that point up, sideways within a layer, or at an adapter."""
    bad = []
    for module, targets in sorted(graph.items()):
        if module == "dreamd.__main__":
            continue  # ``python -m dreamd`` is the CLI's other door
        here = _package(module)
        for target in sorted(targets):
            if target in ADAPTERS:
                bad.append(f"{module} -> {target} (adapters are entry points, never imported)")
                continue
            there = _package(target)
            if target == "dreamd" or there == here:
                continue
            if LAYERS.get(there, 0) >= LAYERS.get(here, 0):
                bad.append(f"{module} -> {target}")
    return bad


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in graph), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def top_level(modules: Mapping[str, Path]) -> list[str]:
    """Modules directly in ``dreamd/`` besides ``__init__`` and ``__main__``."""
    return sorted(
        name
        for name, path in modules.items()
        if path.parent == PACKAGE and path.stem not in ("__init__", "__main__")
    )


def test_the_layout_keeps_its_rules() -> None:
    """At most 12 top-level modules, no import cycle, no forbidden arrow."""
    graph = import_graph()
    tops, loops, bad = top_level(_modules()), cycles(graph), forbidden_arrows(graph)
    report = (
        f"top-level modules: {len(tops)} (at most {MAX_TOP_LEVEL}): {', '.join(tops)}\n"
        f"import cycles: {len(loops)}: {loops}\n"
        f"forbidden arrows: {len(bad)}:\n  " + "\n  ".join(bad)
    )
    assert (len(tops) <= MAX_TOP_LEVEL, loops, bad) == (True, [], []), report


def test_every_package_opens_with_its_rules() -> None:
    """Each package's __init__ has a docstring saying what lives there and what it may import."""
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        is_root = init.parent == PACKAGE
        assert is_root or "May import" in doc, init.relative_to(ROOT)


def test_architecture_md_names_every_package() -> None:
    """ARCHITECTURE.md's code map has a heading for every package under dreamd/."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for init in PACKAGE.rglob("__init__.py"):
        package = init.parent.relative_to(ROOT).as_posix()
        if init.parent != PACKAGE:
            assert f"### `{package}/`" in text, package


def test_the_checks_catch_what_they_look_for() -> None:
    """A cycle, an upward arrow and an adapter import are found in a made-up graph."""
    graph = {
        "dreamd.engine.a": {"dreamd.daemon.x"},
        "dreamd.daemon.x": {"dreamd.engine.a", "dreamd.store.y"},
        "dreamd.store.y": {"dreamd_discord"},
        "dreamd.chat.z": {"dreamd.service.w"},
        "dreamd.service.w": set(),
    }
    assert cycles(graph) == [["dreamd.daemon.x", "dreamd.engine.a"]]
    assert forbidden_arrows(graph) == [
        "dreamd.chat.z -> dreamd.service.w",
        "dreamd.engine.a -> dreamd.daemon.x",
        "dreamd.store.y -> dreamd_discord (adapters are entry points, never imported)",
    ]
