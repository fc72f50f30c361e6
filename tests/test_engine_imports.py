"""The engine's modules import each other without a circle (tools/engine_imports.py measures it)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    spec = importlib.util.spec_from_file_location("engine_imports", ROOT / "tools" / "engine_imports.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("engine_imports", mod)
    spec.loader.exec_module(mod)
    return mod


def test_no_import_circle_among_engine_modules():
    """Module-level and function-level imports alike: a mechanic never needs a module that needs it back."""
    tool = _tool()
    g, _ = tool.graph(runtime_only=True)
    assert g.number_of_nodes() >= 20, "the tool finds the engine's modules"
    sccs, cycles = tool.circles(g)
    assert sccs == [] and cycles == 0


MECHANICS = {"cards", "claims", "payments", "stand_ins", "tunnels", "stations", "tickets", "flags", "passengers", "turns", "state"}


def test_no_mechanic_in_a_circle_even_counting_type_annotations():
    """The mechanics name `State` from state.py, which imports none of them: no circle through a mechanic,
    even counting the imports made only for type annotations (`if TYPE_CHECKING:`)."""
    tool = _tool()
    g, _ = tool.graph(runtime_only=False)
    sccs, _ = tool.circles(g)
    assert [sorted(MECHANICS & set(c)) for c in sccs if MECHANICS & set(c)] == []


def test_the_tool_sees_function_level_imports(tmp_path):
    """An import inside a function counts (it is how circles were hidden before)."""
    tool = _tool()
    (tmp_path / "a.py").write_text("from .b import x\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import y\n")
    assert tool.module_edges(tmp_path / "b.py", {"a", "b"}) == [("a", "function", "2")]
    assert tool.module_edges(tmp_path / "a.py", {"a", "b"}) == [("b", "module", "1")]
