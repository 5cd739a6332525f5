"""`info MODEL`: ops, tensors and the memory plan as plain-text tables."""

from ..codegen.cnames import sanitize_comment
from ..driver import analyze


def _table(headers, rows) -> str:
    rows = [[str(c) for c in r] for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    out = [fmt.format(*headers), fmt.format(*["-" * w for w in widths])]
    out += [fmt.format(*r) for r in rows]
    return "\n".join(out)


def render_info(model: str) -> str:
    graph, storage_map, plan = analyze(model)
    ops = []
    for op in graph.ops:
        ins = ",".join(str(t.index) for t in op.inputs if t is not None)
        outs = ",".join(str(t.index) for t in op.outputs)
        ops.append(
            [
                op.index,
                op.kind,
                op.kernel_label(graph),
                ins,
                outs,
                "x".join(map(str, op.output.shape)) if op.outputs else "-",
            ]
        )
    tensors = []
    for t in graph.tensors:
        if not (t.is_input or t.is_output or t.producer is not None or t.consumers):
            continue
        st = storage_map.storage(t)
        off = (
            plan.tensor_offset.get(t.index, "")
            if st.kind == "workspace"
            else plan.state_offset.get(t.index, "")
            if st.kind == "state"
            else ""
        )
        life = (
            ""
            if t.is_const
            else f"{t.producer if t.producer is not None else '-'}..{max([t.producer or 0] + t.consumers)}"
        )
        q = ""
        if t.quant is not None:
            q = (
                f"{float(t.quant.scale[0]):.6g}/{int(t.quant.zero_point[0])}"
                if not t.quant.per_channel
                else f"per-channel({len(t.quant.scale)})"
            )
        tensors.append(
            [
                t.index,
                sanitize_comment(t.name, 40),
                "x".join(map(str, t.shape)),
                t.dtype,
                q,
                t.nbytes,
                st.kind,
                off,
                life,
            ]
        )
    bufs = [
        [b.name[:40], b.kind, b.offset, b.size, f"{b.start}..{b.end}", ",".join(map(str, b.tensors))]
        for b in plan.buffers
    ]
    parts = [
        f"Model: {sanitize_comment(model, 200)} ({len(graph.ops)} ops, {len(graph.tensors)} tensors)",
        "",
        "Operators",
        _table(["#", "op", "kernel", "inputs", "outputs", "output shape"], ops),
        "",
        "Tensors",
        _table(["#", "name", "shape", "dtype", "scale/zp", "bytes", "storage", "offset", "live"], tensors),
        "",
        "Memory plan",
        _table(["buffer", "kind", "offset", "size", "live", "tensors"], bufs),
        "",
        f"Workspace: {plan.workspace_size} B (alignment {plan.alignment}), lower bound {plan.lower_bound} B",
    ]
    if plan.stateful:
        parts += [
            "",
            "State (variable tensors, kept between runs in their own buffer)",
            _table(
                ["tensor", "name", "dtype", "offset", "size", "reset byte"],
                [
                    [
                        s.tensor if s.tensor >= 0 else f"(op {s.op})",
                        sanitize_comment(s.name, 40),
                        s.dtype,
                        s.offset,
                        s.size,
                        s.fill,
                    ]
                    for s in plan.state
                ],
            ),
            "",
            f"State: {plan.state_size} B (alignment {plan.state_alignment})",
        ]
    return "\n".join(parts)


def run_info(model: str, flags=None) -> int:
    print(render_info(model))
    return 0
