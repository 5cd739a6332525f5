"""Unrolls an ONNX Scan (opset 9 and later) over its static sequence length into copies of its body, during graph
normalization (onnx_normalize.py), as onnx_loop.py does for a Loop.

Scan's inputs are N initial state values and then M scan inputs (`num_scan_inputs`); each scan input is sliced along
its `scan_input_axes` entry (default 0), forward or, where `scan_input_directions` is 1, from the end. Iteration t
is the body with its local names renamed (`<scan>/iter<t>/<name>`), its state inputs bound to the previous
iteration's state outputs (the initial values for t = 0) and its scan inputs to element t of each sequence (a Gather
with a scalar index, which drops the axis). The Scan's state outputs are the last iteration's; each of its K scan
outputs stacks the per-iteration values along `scan_output_axes` (Unsqueeze + Concat; in reverse order where
`scan_output_directions` is 1). The sequence length must be static (every scan input's axis the same size); opset 8's
Scan (a batch axis and `sequence_lens`) is refused by name.
"""

import numpy as np
import onnx
from onnx import helper, numpy_helper

from ..errors import UnsupportedError
from .onnx_loop import MAX_TRIPS, namer, stack


def _label(node) -> str:
    return f"ONNX node '{node.name or node.op_type}' ({node.op_type})"


def _ints(node, name: str, count: int, default: int) -> list:
    for a in node.attribute:
        if a.name == name:
            return [int(v) for v in a.ints]
    return [default] * count


def _num_scan_inputs(node) -> int:
    return next((int(a.i) for a in node.attribute if a.name == "num_scan_inputs"), 0)


def _shape(x: str, shapes: dict, consts):
    """The static shape of value `x` (a constant's own, else shape inference's), or None."""
    if consts.has(x):
        return list(np.asarray(consts.values[x].const).shape)
    shape = shapes.get(x)
    return list(shape) if shape is not None and all(d > 0 for d in shape) else None


def unrollable(node, shapes: dict, consts) -> bool:
    """A Scan whose scan inputs all have static shapes (the sequence length is then known)."""
    if node.op_type != "Scan" or node.domain not in ("", "ai.onnx"):
        return False
    m = _num_scan_inputs(node)
    scans = list(node.input[len(node.input) - m :]) if m else []
    return bool(scans) and all(_shape(x, shapes, consts) is not None for x in scans)


def unroll(node, shapes: dict, consts, taken: set, opset: int, rename_graph) -> list:
    """The nodes replacing `node` (see the module docstring); `rename_graph(graph, mapping)` renames value names."""
    if opset < 9:
        raise UnsupportedError(
            f"{_label(node)}: opset {opset}'s Scan (a batch axis and sequence_lens) is not supported; Scan from opset "
            "9 is (unrolled over its static sequence length)."
        )
    body = next(a.g for a in node.attribute if a.name == "body")
    m = _num_scan_inputs(node)
    n_state = len(node.input) - m
    k_out = len(body.output) - n_state
    if m < 1 or n_state < 0 or k_out < 0 or len(body.input) != n_state + m:
        raise UnsupportedError(
            f"{_label(node)}: num_scan_inputs {m} with {len(node.input)} inputs, and a body of {len(body.input)} "
            f"inputs and {len(body.output)} outputs, do not fit together. The model is malformed."
        )
    scans = list(node.input[n_state:])
    in_axes = _ints(node, "scan_input_axes", m, 0)
    in_dirs = _ints(node, "scan_input_directions", m, 0)
    out_axes = _ints(node, "scan_output_axes", k_out, 0)
    out_dirs = _ints(node, "scan_output_directions", k_out, 0)
    lengths = set()
    for x, axis in zip(scans, in_axes):
        shape = _shape(x, shapes, consts)
        if not -len(shape) <= axis < len(shape):
            raise UnsupportedError(f"{_label(node)}: scan input '{x}' of rank {len(shape)} has no axis {axis}.")
        lengths.add(int(shape[axis]))
    if len(lengths) != 1:
        raise UnsupportedError(
            f"{_label(node)}: its scan inputs have sequence lengths {sorted(lengths)}; they must be equal."
        )
    steps = lengths.pop()
    if not 1 <= steps <= MAX_TRIPS:
        raise UnsupportedError(f"{_label(node)}: its sequence length is {steps}; 1 to {MAX_TRIPS} steps are unrolled.")
    base = (node.name or node.output[0] or "scan") + "/"
    fresh = namer(taken)

    nodes, parts = [], [[] for _ in range(k_out)]
    state = list(node.input[:n_state])
    local = [t.name for t in body.initializer] + [o for nd in body.node for o in nd.output if o]
    for t in range(steps):
        prefix = f"{base}iter{t}/"
        mapping = {name: fresh(prefix + name) for name in local}
        for k, vi in enumerate(body.input[:n_state]):
            mapping[vi.name] = state[k]
        for j, (x, axis, rev) in enumerate(zip(scans, in_axes, in_dirs)):
            index = fresh(f"{prefix}index{j}")
            consts.add(index, np.array(steps - 1 - t if rev else t, np.int64))
            element = fresh(f"{prefix}{body.input[n_state + j].name}")
            nodes.append(helper.make_node("Gather", [x, index], [element], name=fresh(element + ":node"), axis=axis))
            mapping[body.input[n_state + j].name] = element
        g = onnx.GraphProto()
        g.CopyFrom(body)
        rename_graph(g, mapping)
        for init in body.initializer:
            consts.add(mapping[init.name], numpy_helper.to_array(init))
        nodes += list(g.node)
        outs = [o.name for o in g.output]
        state = outs[:n_state]
        for j in range(k_out):
            parts[j].append(outs[n_state + j])
    for out, value in zip(node.output, state):
        if out:
            nodes.append(helper.make_node("Identity", [value], [out], name=fresh(base + "out:" + out)))
    for j, out in enumerate(node.output[n_state:]):
        if out:
            order = parts[j][::-1] if out_dirs[j] else parts[j]
            nodes += stack(order, out, out_axes[j], f"{base}scan{j}", consts, fresh, opset)
    return nodes
