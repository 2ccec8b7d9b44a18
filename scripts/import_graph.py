#!/usr/bin/env python
"""Print the import graph of companion/ (one line per module: what it imports) and any circle.

    .venv/bin/python scripts/import_graph.py

Modules are shown as companion.<module>, the packages rules/, management/ and templatetags/ as
one each, actions/, infra/, live/, read/, web/ and words/ per module. Exit 1 when some modules
import each other in a circle.
`lint-imports` (the contracts in pyproject.toml) checks the layers; this shows the whole picture.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
WHOLE = ("rules", "management", "templatetags")
PER_MODULE = ("actions", "infra", "live", "read", "web", "words")


def unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in PER_MODULE:
        return module
    return ".".join(parts[:2])


def edges() -> dict[str, set[str]]:
    graph = grimp.build_graph("companion", cache_dir=None)
    found: dict[str, set[str]] = {}
    for module in graph.modules:
        if module.startswith("companion.migrations"):
            continue
        source = unit(module)
        found.setdefault(source, set())
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith("companion.migrations"):
                continue
            target = unit(imported)
            if target != source:
                found[source].add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main() -> int:
    sys.path.insert(0, str(ROOT))
    graph = edges()
    for source in sorted(graph):
        print(f"{source} -> {', '.join(sorted(graph[source])) or '(nothing of companion)'}")
    found = circles(graph)
    for component in found:
        print(f"CIRCLE: {' <-> '.join(component)}")
    print(f"{len(graph)} modules, {sum(map(len, graph.values()))} imports, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
