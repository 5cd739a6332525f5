"""Fold a residual int8 ADD into the convolution that produces one of its inputs.

ADD(X, R) with X = CONV(...) is computed by the convolution kernel itself: per output element it applies the ADD
to its own (clamped) value and R's element of the same index, so X is never stored (crt/include/aot/kernels/
conv2d.h).  The arithmetic is that of TFLite running the convolution and then the ADD.  Conditions:

- the ADD is int8, its two inputs and its output have the same shape (no broadcast), and the short ADD arithmetic
  is exact for its scales (ops/common/add_s8_fast.py: the fused kernels only have that form);
- X is produced by an int8 CONV_2D or by the GEMM kernel of the DSP cores (aot_conv2d_s8 / aot_conv2d_s8_dsp,
  the latter also running DEPTHWISE_CONV_2D with one input channel), the Helium one, or the packed shape-specialized
  body of the Cortex-M0/M3 (aot_conv2d_s8_packed_body, crt/include/aot/kernels/conv2d_s8_packed_inline.h), nothing
  else reads X and it is not a model output;
- that convolution runs after R is produced (it is the last producer of the ADD's inputs), so R is ready when the
  fused op runs; the ADD's output only moves earlier, before any of its readers.

The convolution gains R as input 3 and the ADD's output as its output; the ADD stays in the op list, marked
`fused_into` (no code, its tensors only documented), so op numbers still match the model file.  The fused op may
write its output over R's buffer (OpLowering.inplace_input; passes/alias.py decides) unless the convolution's own
input shares R's memory: it reads a window around each element, not just the element.
"""

from ..ops.common import add_s8_fast as _add_s8_fast
from ..ops.common.kernel import fuses_residual


def _alias_root(graph, t):
    """The tensor whose buffer t shares through aliasing (reshape-like) ops."""
    while t.producer is not None:
        op = graph.ops[t.producer]
        if not op.lowering.aliases_input(op) or op.input(0) is None:
            break
        t = op.input(0)
    return t


def _fusable_conv(graph, add, x, r):
    """The convolution producing x if ADD(x, r) can be folded into it, else None."""
    if x.producer is None or x is r or x.is_output or x.consumers != [add.index]:
        return None
    conv = graph.ops[x.producer]
    if (
        not fuses_residual(conv)
        or conv.fused_into is not None
        or "residual" in conv.params
        or conv.params.get("dsp_exact")
    ):  # the fused form has only the short requantization
        return None
    if len(conv.outputs) != 1 or conv.output is not x:
        return None
    if r.producer is not None and r.producer >= conv.index:
        return None
    return conv


def fuse_residual_adds(graph) -> None:
    fused = False
    for add in graph.ops:
        if add.kind != "ADD" or add.fused_into is not None or add.output.dtype != "int8":
            continue
        short = add.params.get("short")
        a, b, y = add.input(0), add.input(1), add.output
        if short is None or not tuple(a.shape) == tuple(b.shape) == tuple(y.shape):
            continue
        # Prefer the input computed last: the other one is then ready when the fused op runs.
        order = sorted((0, 1), key=lambda i: -1 if add.inputs[i].producer is None else -add.inputs[i].producer)
        for pos in order:
            x, r = add.inputs[pos], add.inputs[1 - pos]
            conv = _fusable_conv(graph, add, x, r)
            if conv is not None:
                _fuse(graph, conv, add, pos)
                fused = True
                break
    if fused:
        graph.link()


def _fuse(graph, conv, add, pos: int) -> None:
    x, r, y = add.inputs[pos], add.inputs[1 - pos], add.output
    short = add.params["short"]
    while len(conv.inputs) < 3:
        conv.inputs.append(None)  # an omitted bias keeps its position
    conv.inputs.append(r)
    conv.outputs = [y]
    conv.params["residual"] = dict(
        add_op=add.index,
        index=len(conv.inputs) - 1,
        # The kernels pass the convolution's value as the ADD's first input (a + b == b + a in int32).
        fields=short if pos == 0 else _add_s8_fast.swapped(short),
        inplace_ok=_alias_root(graph, conv.input(0)) is not _alias_root(graph, r),
    )
    add.fuse_into(conv)
    # Keep producer/consumer links current for the next candidates (graph.link() redoes them all at the end).
    x.producer, x.consumers = None, []
    r.consumers = sorted({i for i in r.consumers if i != add.index} | {conv.index})
    y.producer = conv.index
