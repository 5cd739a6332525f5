"""Unrolls an ONNX Loop whose trip count is a constant (after --freeze_input / --dim / constant folding) into
copies of its body, during graph normalization (onnx_normalize.py).

Iteration i is the body with its local names renamed (`<loop>/iter<i>/<name>`), its iteration-number input bound
to the constant i, its condition input to true and its loop-carried inputs to the previous iteration's carried
outputs (the Loop's initial values for i = 0). The Loop's carried outputs are the last iteration's; each scan
output is the per-iteration values stacked on a new first axis (Unsqueeze + Concat). The loop must run exactly its
trip count: the condition input is absent or a constant true, and the body's condition output is its condition
input passed through (or a constant true), which is how exporters write `for` loops. A body condition computed from
data, or a trip count computed at run time, stays a Loop and is refused by name.
"""

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..errors import UnsupportedError

MAX_TRIPS = 4096  # copies of the body; the operator limit (compiler/limits.py) bounds the total anyway


def namer(taken: set):
    """A function giving each requested name, suffixed with '_' until it is not in `taken`, and taking it."""

    def fresh(name: str) -> str:
        while name in taken:
            name += "_"
        taken.add(name)
        return name

    return fresh


def stack(parts: list, out: str, axis: int, label: str, consts, fresh, opset: int) -> list:
    """Nodes stacking the values `parts` on a new `axis` into `out` (Unsqueeze each, then Concat): a Loop's or a
    Scan's per-iteration outputs."""
    nodes, rows = [], []
    for i, part in enumerate(parts):
        row = fresh(f"{label}/{i}")
        if opset >= 13:
            axes = fresh(f"{label}/axes")
            consts.add(axes, np.array([axis], np.int64))
            nodes.append(helper.make_node("Unsqueeze", [part, axes], [row], name=fresh(row + ":node")))
        else:
            nodes.append(helper.make_node("Unsqueeze", [part], [row], name=fresh(row + ":node"), axes=[axis]))
        rows.append(row)
    nodes.append(helper.make_node("Concat", rows, [out], name=fresh(f"{label}:concat"), axis=axis))
    return nodes


def _label(node) -> str:
    return f"ONNX node '{node.name or node.op_type}' ({node.op_type})"


def _runs_full_count(node, body, consts) -> bool:
    """Whether the loop cannot stop early: no / constant-true condition, and a pass-through or true body
    condition."""
    if len(node.input) > 1 and node.input[1]:
        if not consts.has(node.input[1]) or not bool(np.asarray(consts.values[node.input[1]].const).reshape(-1)[0]):
            return False
    cond_in, cond_out = body.input[1].name, body.output[0].name
    if cond_out == cond_in:
        return True
    for t in body.initializer:
        if t.name == cond_out:
            return bool(numpy_helper.to_array(t).reshape(-1)[0])
    for n in body.node:
        if cond_out in n.output:
            if n.op_type == "Identity" and n.input[0] == cond_in:
                return True
            if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value":
                return bool(numpy_helper.to_array(n.attribute[0].t).reshape(-1)[0])
    return False


def unrollable(node, consts) -> bool:
    return (
        node.op_type == "Loop" and node.domain in ("", "ai.onnx") and bool(node.input[0]) and consts.has(node.input[0])
    )


def unroll(node, consts, taken: set, opset: int, rename_graph) -> list:
    """The nodes replacing `node` (see the module docstring); `rename_graph(graph, mapping)` renames value names."""
    body = next(a.g for a in node.attribute if a.name == "body")
    trips = int(np.asarray(consts.values[node.input[0]].const).reshape(-1)[0])
    if not 1 <= trips <= MAX_TRIPS or not _runs_full_count(node, body, consts):
        why = (
            f"its trip count is {trips} (1 to {MAX_TRIPS} are unrolled)"
            if not 1 <= trips <= MAX_TRIPS
            else "its condition is computed at run time (it may stop before its trip count)"
        )
        raise UnsupportedError(
            f"{_label(node)}: {why}. A Loop is compiled by unrolling it, which needs a constant trip count and a "
            "loop that runs all of it."
        )
    carried = list(node.input[2:])
    n_scan = len(body.output) - 1 - len(carried)
    if n_scan < 0 or len(body.input) != 2 + len(carried):
        raise UnsupportedError(
            f"{_label(node)}: its body has {len(body.input)} inputs and {len(body.output)} outputs for "
            f"{len(carried)} loop-carried values. The model is malformed."
        )
    base = (node.name or node.output[0] or "loop") + "/"
    fresh = namer(taken)

    nodes, parts = [], [[] for _ in range(n_scan)]
    local = [t.name for t in body.initializer] + [o for n in body.node for o in n.output if o]
    for i in range(trips):
        prefix = f"{base}iter{i}/"
        mapping = {name: fresh(prefix + name) for name in local}
        it = fresh(prefix + "i")
        consts.add(it, np.array(i, np.int64))
        cond = fresh(prefix + "cond")
        consts.add(cond, np.array(True))
        mapping[body.input[0].name] = it
        mapping[body.input[1].name] = cond
        for k, vi in enumerate(body.input[2:]):
            mapping[vi.name] = carried[k]
        g = onnx.GraphProto()
        g.CopyFrom(body)
        rename_graph(g, mapping)
        for t in body.initializer:
            consts.add(mapping[t.name], numpy_helper.to_array(t))
        nodes += list(g.node)
        outs = [o.name for o in g.output]
        carried = outs[1 : 1 + len(carried)]
        for j in range(n_scan):
            parts[j].append(outs[1 + len(carried) + j])
    for out, value in zip(node.output, carried):
        if out:
            nodes.append(helper.make_node("Identity", [value], [out], name=fresh(base + "out:" + out)))
    for j, out in enumerate(node.output[len(carried) :]):
        if out:
            nodes += stack(parts[j], out, 0, f"{base}scan{j}", consts, fresh, opset)
    return nodes
