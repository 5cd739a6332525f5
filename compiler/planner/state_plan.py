"""Where the model's state lives: TFLite variable tensors, laid out one after another in a state buffer.

State persists from one `<prefix>_run` to the next, so unlike workspace tensors it has no lifetime to overlap and
cannot share memory with anything (nor be part of a workspace that several models share). `<prefix>_reset` gives
it TFLite Micro's initial values: every byte the int8 zero point for an int8 tensor, zeros for any other type
(TFLite Micro ignores a variable tensor's buffer data and memsets it the same way before the first invocation).
A kernel may also keep a few bytes of its own between runs (OpLowering.state_bytes: SVDF's ring position), placed
after the tensors and reset to zero.
"""

from dataclasses import dataclass

STATE_ALIGN = 4  # every state tensor starts on a word: the kernels load int16/int32/float elements


@dataclass
class StateBuffer:
    tensor: int  # tensor index (-1 for an operator's own state)
    name: str
    dtype: str
    offset: int
    size: int
    fill: int  # byte value <prefix>_reset writes (the int8 zero point, else 0)
    op: int = -1  # the operator whose own state this is (tensor -1)


def _fill_byte(t) -> int:
    if t.dtype == "int8" and t.quant is not None:
        return int(t.quant.zero_point[0]) & 0xFF
    return 0


def plan_state(graph, storage_map, alignment: int = STATE_ALIGN) -> tuple:
    """(list of StateBuffer, total size rounded up to `alignment`)."""
    out, offset = [], 0
    for i in storage_map.state_tensors():
        t = graph.tensors[i]
        out.append(StateBuffer(i, t.name, t.dtype, offset, t.nbytes, _fill_byte(t)))
        offset += (t.nbytes + alignment - 1) // alignment * alignment
    for op in graph.ops:
        n = op.lowering.state_bytes(op) if op.lowering is not None and op.fused_into is None else 0
        if n > 0:
            out.append(StateBuffer(-1, f"op{op.index}_state", "int32", offset, n, 0, op=op.index))
            offset += (n + alignment - 1) // alignment * alignment
    return out, offset
