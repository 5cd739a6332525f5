"""Fold an explicit PAD into the convolution that reads it.

MobileNet-style models (Keras ZeroPadding2D before each stride-2 depthwise block, ONNX convolutions with
asymmetric pads) run PAD -> CONV_2D / DEPTHWISE_CONV_2D with VALID padding.  The convolution kernels already
treat taps outside the input as padding (the input zero point for int8, 0.0 for float32), so the convolution can
read the PAD's input directly with the padding made explicit: the padded tensor is never written or stored.
Conditions (otherwise the graph is left as it is):

- constant paddings, >= 0, on height and width of a 4-D NHWC tensor only (none on batch or channels);
- the PAD's output is not a model output and has exactly one reader: a CONV_2D or DEPTHWISE_CONV_2D that takes
  it as its input 0 (and as nothing else);
- the pad value is what the convolution counts for an outside tap: for int8 the PAD's value (its output zero
  point, or the PADV2 constant) equals the convolution's input zero point; for int16 (symmetric) and float32 it is 0;
- the PAD's input is not a constant (the kernels read activations through workspace or I/O pointers).

The convolution reads the PAD's input and records the padding as option "FoldedPadding" ((top, bottom),
(left, right)); ops/common/checks.conv_padding adds it to the convolution's own SAME/VALID padding.  The PAD stays in
the op list marked `fused_into` (no code), so op numbers still match the model file.  Runs before prepare_ops:
the convolution's parameters are computed with the folded padding.
"""

import numpy as np

from ..errors import CompileError

CONV_KINDS = ("CONV_2D", "DEPTHWISE_CONV_2D")


def _paddings(pad):
    """The PAD's [[before, after]] * 4 as ints, or None if they are not constant 4-D pairs."""
    inp, p = pad.input(0), pad.input(1)
    if p is None or not p.is_const or len(inp.shape) != 4 or len(pad.output.shape) != 4:
        return None
    pairs = np.asarray(p.data).reshape(-1)
    if pairs.size != 8:
        return None
    return [[int(pairs[2 * d]), int(pairs[2 * d + 1])] for d in range(4)]


def _pad_value(pad):
    """The value the PAD writes (float for float32, else the integer)."""
    out, cv = pad.output, pad.input(2)
    if cv is not None:
        v = np.asarray(cv.data).reshape(-1)[0]
        return float(v) if out.dtype == "float32" else int(v)
    return 0.0 if out.dtype == "float32" else int(out.quant.zero_point[0])


def _value_is_conv_padding(pad, conv) -> bool:
    dtype = pad.output.dtype
    if dtype != conv.output.dtype:
        return False
    if dtype == "float32":
        return _pad_value(pad) == 0.0
    if dtype == "int8":
        q = pad.output.quant
        return q is not None and not q.per_channel and _pad_value(pad) == int(q.zero_point[0])
    if dtype == "int16":
        # int16 activations are symmetric: the int16 kernels count an outside tap as 0.
        return _pad_value(pad) == 0
    return False


def _foldable_conv(graph, pad):
    """The convolution the PAD can be folded into, else None."""
    if pad.kind not in ("PAD", "PADV2") or pad.fused_into is not None:
        return None
    src, y = pad.input(0), pad.output
    pairs = _paddings(pad)
    if pairs is None or src is None or src.is_const or y.is_output or len(y.consumers) != 1:
        return None
    if pairs[0] != [0, 0] or pairs[3] != [0, 0] or min(min(pr) for pr in pairs) < 0:
        return None
    if [int(d) + b + a for d, (b, a) in zip(src.shape, pairs)] != [int(d) for d in y.shape]:
        return None
    conv = graph.ops[y.consumers[0]]
    if conv.kind not in CONV_KINDS or conv.fused_into is not None or conv.input(0) is not y:
        return None
    if any(t is y for t in conv.inputs[1:]) or "FoldedPadding" in conv.options:
        return None
    if not _value_is_conv_padding(pad, conv):
        return None
    return conv, pairs


def _output_size_ok(conv, pairs) -> bool:
    """The convolution's output size matches its padding on the padded input (otherwise leave the graph as it is:
    prepare reports the mismatch on the model's own shapes)."""
    from ..ops.common.checks import padding_amount

    o = conv.options
    _, h, w, _ = conv.input(0).shape
    _, kh, kw, _ = conv.input(1).shape
    _, oh, ow, _ = conv.output.shape
    try:
        padding_amount(o.get("Padding", 0), o.get("StrideH", 1), o.get("DilationHFactor", 1), h, kh, oh)
        padding_amount(o.get("Padding", 0), o.get("StrideW", 1), o.get("DilationWFactor", 1), w, kw, ow)
    except CompileError:
        return False
    return True


def fold_pads(graph) -> None:
    folded = False
    for pad in graph.ops:
        found = _foldable_conv(graph, pad)
        if found is None or not _output_size_ok(found[0], found[1]):
            continue
        conv, pairs = found
        src, y = pad.input(0), pad.output
        conv.inputs[0] = src
        conv.options = dict(conv.options, FoldedPadding=(tuple(pairs[1]), tuple(pairs[2])))
        pad.fuse_into(conv)
        # Keep the links current for the next candidates (graph.link() redoes them all at the end).
        y.producer, y.consumers = None, []
        src.consumers = sorted({i for i in src.consumers if i != pad.index} | {conv.index})
        folded = True
    if folded:
        graph.link()
