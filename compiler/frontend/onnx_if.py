"""A data-dependent ONNX If (its condition computed from the input data) as C `if / else`: the IR operators of both
branches are placed inline between the marker operators IF, IF_ELSE and IF_END that the TFLite IF already uses
(compiler/ops/if_then_else.py): `if (cond) { then ops } else { else ops }` and at IF_END the taken branch's
outputs are copied into the If's outputs. ONNX branches take no operands (they read outer names directly), so the
IF and IF_ELSE markers copy nothing.

Before the reader translates it, graph normalization renames every branch-local name to a unique one
(`rename_branch_locals`), so the shapes shape inference finds inside the branches can be looked up by name. While a
branch is translated, layout twins (an NHWC copy of an outer value) that its operators create are forgotten
afterwards: they are computed only when that branch runs, so nothing after it may read them. Both branches must
give each output the same static shape and element type.
"""

import numpy as np
import onnx

from ..errors import UnsupportedError


def branch_prefix(node, branch_name: str) -> str:
    """`<If>/<branch>/`: what the names of a branch's values start with once they are in the model."""
    return (node.name or node.output[0]) + "/" + branch_name + "/"


def unique_local_names(node, branch_name: str, branch, taken: set) -> dict:
    """branch-local name -> a name unique in the model (`<If>/<branch>/<name>`, `_` appended until unused) for every
    name a branch defines (its initializers and node outputs); the new names are added to `taken`."""
    prefix = branch_prefix(node, branch_name)
    local = [t.name for t in branch.initializer] + [o for n in branch.node for o in n.output if o]
    mapping = {}
    for name in local:
        new = prefix + name
        while new in taken:
            new += "_"
        taken.add(new)
        mapping[name] = new
    return mapping


def rename_branch_locals(node, taken: set, rename_graph) -> None:
    """Renames the names defined inside the If's branches (initializers, node outputs) to names unique in the model."""
    for a in node.attribute:
        if a.name not in ("then_branch", "else_branch"):
            continue
        mapping = unique_local_names(node, a.name, a.g, taken)
        for t in a.g.initializer:
            t.name = mapping[t.name]
        rename_graph(a.g, mapping)


def branch_shapes(graph, into: dict) -> None:
    """Static shapes of the values inside If branches (shape inference stores them in the branches' value_info)."""
    for n in graph.node:
        for a in n.attribute:
            if a.type != onnx.AttributeProto.GRAPH:
                continue
            for vi in list(a.g.value_info) + list(a.g.output):
                tt = vi.type.tensor_type
                if tt.HasField("shape"):
                    dims = [d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim]
                    if all(d >= 0 for d in dims):
                        into.setdefault(vi.name, tuple(int(d) for d in dims))
            branch_shapes(a.g, into)


def convert_if(reader, node, translate) -> None:
    """Translates a data-dependent If; `translate(node)` translates one branch node as the reader's main loop does."""
    label = f"ONNX node '{node.name or node.op_type}' (If)"
    b = reader.builder
    cond_v = reader.values[node.input[0]]
    if cond_v.dtype != "bool" or int(np.prod(cond_v.shape)) != 1 or cond_v.is_dq_view:
        raise UnsupportedError(
            f"{label}: its condition '{node.input[0]}' is {cond_v.dtype} {list(cond_v.shape)}; a one-element "
            "bool is supported."
        )
    cond = b.get(cond_v, "onnx")
    branches = {a.name: a.g for a in node.attribute}
    outs = {}
    for which, marker in (("then_branch", "IF"), ("else_branch", "IF_ELSE")):
        g = branches[which]
        b.add_op(marker, [cond], [])
        before = {id(v): set(v.tensors) for v in reader.values.values()}
        for t in g.initializer:
            arr = onnx.numpy_helper.to_array(t)
            reader.values[t.name] = type(cond_v)(t.name, tuple(arr.shape), str(arr.dtype), const=arr)
        for n in g.node:
            if n.op_type in ("If", "Loop", "Scan"):
                raise UnsupportedError(
                    f"{label}: its {which} holds a {n.op_type} ('{n.name or n.op_type}'); control flow nested in "
                    "a data-dependent If is not supported."
                )
            translate(n)
        tensors = []
        for o in g.output:
            v = reader.values.get(o.name)
            if v is None:
                raise UnsupportedError(f"{label}: its {which} output '{o.name}' is not computed by the branch.")
            tensors.append(b.get(v, "onnx"))
        outs[which] = tensors
        # Twins made inside the branch exist only when it runs: forget them.
        for v in reader.values.values():
            kept = before.get(id(v))
            if kept is not None:
                for layout in set(v.tensors) - kept:
                    del v.tensors[layout]
    results = []
    for name, t, e in zip(node.output, outs["then_branch"], outs["else_branch"]):
        if tuple(t.shape) != tuple(e.shape) or t.dtype != e.dtype:
            raise UnsupportedError(
                f"{label}: output '{name}' is {t.dtype} {list(t.shape)} in the then branch and {e.dtype} "
                f"{list(e.shape)} in the else branch; both branches must give the same static shape and type."
            )
        if t.quant is not None or e.quant is not None:
            raise UnsupportedError(
                f"{label}: output '{name}' is quantized; a data-dependent If on float32, "
                "integer or bool data is supported."
            )
        v = b.runtime_value(name, t.shape, t.dtype)
        results.append(v.tensors["onnx"])
        reader.set_value(name, v)
    b.add_op("IF_END", [cond] + outs["then_branch"] + outs["else_branch"], results)
