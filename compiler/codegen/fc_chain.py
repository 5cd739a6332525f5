"""Runs of per-tensor DSP fully connected layers as one call of aot_fully_connected_s8_dsp_chain over a table in
flash (aot/kernels/fully_connected.h struct aot_fc_dsp_step): each call of aot_fully_connected_s8_dsp passes 13
arguments, nine of them on the stack, about 60 bytes of the runner's code per layer (ad01_int8's ten layers: 596 B);
a table entry is 36 bytes of constants and the chain's unit links without the general entry point's C."""

# A chain's loop and unit pay for themselves from three layers.
FC_CHAIN_MIN = 3
STEP_BYTES = 36
EXT = "AOT_FC_DSP_EXT"


def _buffer(ctx, tensor):
    """("ws", offset) for a workspace tensor, ("ext", C expression) for a model input or output, else None."""
    st = ctx.storage_map.storage(tensor)
    if st.kind in ("input", "output"):
        return ("ext", ctx.ptr(tensor))
    if st.kind in ("const", "state"):
        return None
    return ("ws", ctx.plan.tensor_offset[tensor.index])


def record_step(op, ctx, filt: str, bias: str, mult: str, radd: str) -> None:
    """Remember a DSP fully connected layer that can be chained (per-tensor, short requantization, whole blocks of
    8 rows, workspace or model I/O buffers): op.index -> its table entry's fields."""
    p = op.params
    if ctx.blob is not None or p.get("dsp_exact") or p["stride"] != 0 or p["units"] % 8:
        return
    if max(p["depth"], p["units"], p["batches"]) > 0xFFFF or not (-128 <= p["act"][0] <= p["act"][1] <= 127):
        return
    src, dst = _buffer(ctx, op.input(0)), _buffer(ctx, op.output)
    if src is None or dst is None:
        return
    steps = ctx.__dict__.setdefault("fc_dsp_steps", {})
    steps[op.index] = dict(
        filter=filt,
        bias=bias,
        mult=mult,
        radd=radd,
        input=src,
        output=dst,
        scratch=ctx.plan.scratch_offset[op.index],
        depth=p["depth"],
        units=p["units"],
        batches=p["batches"],
        act=p["act"],
    )


def _runs(graph, op_lines, steps):
    """Runs of chainable layers in operator order (ops without code between them do not break one), each with one
    model input expression and one model output expression at most (the chain's two pointer arguments)."""
    runs, cur, ext = [], [], {}

    def flush():
        if len(cur) >= FC_CHAIN_MIN:
            runs.append(list(cur))
        cur.clear()
        ext.clear()

    for op, lines in zip(graph.ops, op_lines):
        if not lines:
            continue
        s = steps.get(op.index)
        if s is None:
            flush()
            continue
        mine = {side: s[side][1] for side in ("input", "output") if s[side][0] == "ext"}
        if any(ext.get(side, w) != w for side, w in mine.items()):
            flush()
        cur.append(op.index)
        ext.update(mine)
    flush()
    return runs


def _field(buf) -> str:
    return EXT if buf[0] == "ext" else f"{buf[1]}u"


def chain_fc_dsp(graph, ctx, op_lines) -> list:
    """op_lines with each run of at least FC_CHAIN_MIN chainable layers (record_step) replaced by one call."""
    steps = getattr(ctx, "fc_dsp_steps", None)
    if not steps:
        return op_lines
    out = list(op_lines)
    where = {op.index: i for i, op in enumerate(graph.ops)}
    for run in _runs(graph, op_lines, steps):
        symbol = f"{ctx.prefix}_fc_chain{run[0]}"
        rows = []
        for k in run:
            s = steps[k]
            fields = [s["filter"], s["bias"], s["mult"], s["radd"], _field(s["input"]), _field(s["output"])]
            fields += [f"{s['scratch']}u", f"{s['depth']}u", f"{s['units']}u", f"{s['batches']}u"]
            fields += [str(s["act"][0]), str(s["act"][1])]
            # Two lines per entry: the pointers, then the buffers and the numbers.
            rows += ["    {" + ", ".join(fields[:4]) + ",", "     " + ", ".join(fields[4:]) + "},"]
        lines = [f"static const struct aot_fc_dsp_step {symbol}[{len(run)}] = {{"] + rows + ["};"]
        ctx.raw_const(symbol, lines, STEP_BYTES * len(run))
        ins = [steps[k]["input"][1] for k in run if steps[k]["input"][0] == "ext"]
        outs = [steps[k]["output"][1] for k in run if steps[k]["output"][0] == "ext"]
        args = [symbol, len(run), "ws", ins[0] if ins else "NULL", outs[0] if outs else "NULL"]
        out[where[run[0]]] = [ctx.call("aot_fully_connected_s8_dsp_chain", args)]
        for k in run[1:]:
            out[where[k]] = [f"/* in the chain of op {run[0]} ({symbol}) */"]
    return out
