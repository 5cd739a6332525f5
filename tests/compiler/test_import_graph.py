"""The compiler's module structure: no import cycle inside compiler/, and no lowering that decides by kernel name.

The import graph is read from the source (AST): module-level and function-level imports both count, since a
function-level import that dodges a cycle at load time is still a cycle in the design.  A package's modules may
import the package itself (its __init__) only if that __init__ imports none of them back, which the cycle search
sees like any other edge.

Kernel behaviour comes from the kernel object the table chose (op.kernel_impl, compiler/ops/kernels/); a lowering
that compares `.kernel` with a string would re-dispatch on the name behind the table's back.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPILER = os.path.join(ROOT, "compiler")


def _modules() -> dict:
    """{dotted module name: path} of every .py file under compiler/."""
    out = {}
    for dirpath, _, files in os.walk(COMPILER):
        for fn in files:
            if fn.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, fn), ROOT)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = os.path.join(dirpath, fn)
    return out


def _resolve(mod: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = mod.split(".") if is_pkg else mod.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph() -> dict:
    """{module: set of compiler modules it imports} (an `from pkg import name` edge goes to pkg.name when that is a
    module, else to pkg)."""
    mods = _modules()
    graph = {}
    for mod, path in mods.items():
        is_pkg = path.endswith("__init__.py")
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(mod, is_pkg, node)
                for a in node.names:
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target)
        graph[mod] = {d for d in deps if d in mods and d != mod}
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    import sys

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycle_search_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_in_compiler():
    found = cycles(import_graph())
    assert not found, "import cycles in compiler/: " + "; ".join(" <-> ".join(c) for c in found)


def test_layers_of_compiler_ops():
    """common <- kernels <- kernel_table <- lowerings: the kernel table imports no lowering, the kernels neither
    (nor the table), the shared helpers none of the three."""
    graph = import_graph()
    lowerings = {m for m in graph if m.startswith("compiler.ops.") and m.count(".") == 2}
    lowerings -= {"compiler.ops.kernel_table", "compiler.ops.kernels", "compiler.ops.common"}
    kernels = {m for m in graph if m.startswith("compiler.ops.kernels")}
    table = {"compiler.ops.kernel_table"}
    above = {"compiler.ops.kernel_table": lowerings}
    above.update({m: lowerings | table for m in kernels})
    above.update({m: lowerings | table | kernels for m in graph if m.startswith("compiler.ops.common")})
    assert len(above) > 10, "the layers were not found"
    for mod, banned in above.items():
        assert not graph[mod] & banned, f"{mod} imports {sorted(graph[mod] & banned)}, which sit above it"


def _kernel_name_comparisons(tree) -> list:
    """Line numbers where `<x>.kernel` (or getattr(x, "kernel", ...)) is compared with anything but None or a number
    (==, !=, in, not in a literal, a dict, another name) or asked .startswith / .endswith: a lowering that knows
    which kernel it is looking at must learn it from the kernel object or from the operator itself (its types,
    its parameters), not from the name."""

    def is_kernel(n):
        if isinstance(n, ast.Attribute) and n.attr == "kernel":
            return True
        return (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id == "getattr"
            and len(n.args) >= 2
            and isinstance(n.args[1], ast.Constant)
            and n.args[1].value == "kernel"
        )

    def harmless(n):  # `is None`, and numbers (an ONNX attribute named kernel, e.g. `a.kernel == 1`)
        return isinstance(n, ast.Constant) and (n.value is None or isinstance(n.value, (int, float)))

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left] + list(node.comparators)
            if any(is_kernel(s) for s in sides) and not any(harmless(s) for s in sides):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("startswith", "endswith") and is_kernel(node.func.value):
                lines.append(node.lineno)
    return lines


# The kernel layer's own registries, keyed by kernel name on purpose (they are the table's data, not lowerings).
_KERNEL_REGISTRIES = {os.path.join("compiler", "ops", "common", "lut_s8.py")}


def test_kernel_name_lint_catches_a_comparison():
    src = (
        'if op.kernel == "aot_x": pass\nif op.kernel in ("a", "b"): pass\nop.kernel.endswith("_dsp")\nk = op.kernel\n'
        'if op.kernel == K["float32"]: pass\nif op.kernel in NAMES.values(): pass\n'
        'if getattr(op, "kernel", None) == self.kernel: pass\nif op.kernel is None: pass\nif a.kernel == 1: pass'
    )
    assert _kernel_name_comparisons(ast.parse(src)) == [1, 2, 3, 5, 6, 7]


@pytest.mark.parametrize("sub", ["ops", "passes", "codegen", "planner", "report", "frontend"])
def test_no_lowering_compares_kernel_names(sub):
    bad = []
    for dirpath, _, files in os.walk(os.path.join(COMPILER, sub)):
        for fn in sorted(files):
            if fn.endswith(".py") and os.path.relpath(os.path.join(dirpath, fn), ROOT) not in _KERNEL_REGISTRIES:
                path = os.path.join(dirpath, fn)
                with open(path) as f:
                    for line in _kernel_name_comparisons(ast.parse(f.read(), path)):
                        bad.append(f"{os.path.relpath(path, ROOT)}:{line}")
    assert not bad, "kernel behaviour must come from op.kernel_impl, not from comparing names: " + ", ".join(bad)
