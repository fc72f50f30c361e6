"""The import graph of ttr_maps/engine: which engine modules import which, and the circles among them.

    python tools/engine_imports.py            # the strongly connected components and the number of simple cycles
    python tools/engine_imports.py --edges    # every edge, with where it is (module level, in a function, typing only)
    python tools/engine_imports.py --runtime  # leave out imports under `if TYPE_CHECKING:` (never executed)

Every `from .x import`, `from . import x` and `from ttr_maps.engine.x import` counts,
at module level and inside functions alike (an import in a function is still a
dependency, only a later one); by default so do the imports under
`if TYPE_CHECKING:`, which a type checker follows. Exit status 1 when a circle exists.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "ttr_maps" / "engine"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_edges(path: Path, modules: set[str]) -> list[tuple[str, str, str]]:
    """(imported module, kind, line) for every engine module `path` imports; kind: module, function or typing."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: list[tuple[str, str, str]] = []

    def targets(node: ast.ImportFrom) -> list[str]:
        if node.level == 1:
            base = node.module
        elif node.level == 0 and node.module and node.module.startswith("ttr_maps.engine"):
            base = node.module[len("ttr_maps.engine"):].lstrip(".") or None
        else:
            return []
        if base is None:  # from . import a, b
            return [a.name for a in node.names if a.name in modules]
        name = base.split(".")[0]
        return [name] if name in modules else []

    def visit(node: ast.AST, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.body:
                    visit_one(sub, "typing" if kind == "module" else kind)
                for sub in child.orelse:
                    visit_one(sub, kind)
                continue
            visit_one(child, kind)

    def visit_one(child: ast.AST, kind: str) -> None:
        if isinstance(child, ast.ImportFrom):
            for t in targets(child):
                out.append((t, kind, str(child.lineno)))
            return
        if isinstance(child, ast.Import):
            for a in child.names:
                if a.name.startswith("ttr_maps.engine."):
                    name = a.name.split(".")[2]
                    if name in modules:
                        out.append((name, kind, str(child.lineno)))
            return
        inner = "function" if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and kind == "module" else kind
        visit(child, inner)

    visit(tree, "module")
    return out


def graph(runtime_only: bool = False):
    import networkx as nx

    files = {p.stem: p for p in sorted(ENGINE.glob("*.py")) if p.stem != "__init__"}
    g = nx.DiGraph()
    g.add_nodes_from(files)
    edges = []
    for name, path in files.items():
        for target, kind, line in module_edges(path, set(files)):
            if target == name or (runtime_only and kind == "typing"):
                continue
            edges.append((name, target, kind, line))
            g.add_edge(name, target)
    return g, edges


def circles(g) -> tuple[list[list[str]], int]:
    """The strongly connected components of more than one module, and the number of simple cycles."""
    import networkx as nx

    sccs = sorted((sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1), key=len, reverse=True)
    return sccs, sum(1 for _ in nx.simple_cycles(g))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--edges", action="store_true", help="print every edge")
    ap.add_argument("--runtime", action="store_true", help="leave out imports under `if TYPE_CHECKING:`")
    args = ap.parse_args(argv)
    g, edges = graph(args.runtime)
    if args.edges:
        for a, b, kind, line in sorted(edges):
            print(f"{a} -> {b}  ({kind}, {a}.py:{line})")
    sccs, n = circles(g)
    what = "runtime imports" if args.runtime else "imports (typing-only ones included)"
    print(f"{g.number_of_nodes()} engine modules, {g.number_of_edges()} edges between them ({what})")
    if not sccs:
        print("no import circle")
        return 0
    for c in sccs:
        print(f"circle of {len(c)}: {', '.join(c)}")
    print(f"{n} simple cycles")
    return 1


if __name__ == "__main__":
    sys.exit(main())
