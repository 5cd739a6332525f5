"""Multiply-accumulate (MAC) count of each operator, from shapes alone.

Convolutions and fully connected layers count one MAC per weight tap per output element (the figure papers and
the MLPerf Tiny tables quote), recurrent ops every weight of their matrix products once per step (SVDF: feature
and time weights per batch row; LSTM: the four gates' input and recurrent weights per batch row and time step); pooling
counts one operation per window element, element-wise ops one per output
element, and data movement (reshape, pad, concatenation, (de)quantize) zero.
"""


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def _taps_inside(in_size: int, k: int, stride: int, pad: int, out_size: int, dilation: int = 1) -> int:
    """(input index, filter tap) pairs of a transposed convolution that land inside the output along one axis."""
    return sum(1 for i in range(in_size) for f in range(k) if 0 <= i * stride - pad + f * dilation < out_size)


def _transpose_conv_macs(op) -> int:
    """One MAC per input element, filter tap and output channel that lands inside the output."""
    from ..ops.transpose_conv import group_dilation, layer_padding

    n, ih, iw, ic = (int(d) for d in op.input(2).shape)
    _, kh, kw, fic = (int(d) for d in op.input(1).shape)
    _, dh, dw = group_dilation(op)
    _, oh, ow, oc = (int(d) for d in op.outputs[0].shape)
    o = op.options
    sh, sw = o.get("StrideH", 1), o.get("StrideW", 1)
    pad_t, pad_l = layer_padding(op)
    rows = _taps_inside(ih, kh, sh, pad_t, oh, dh)
    cols = _taps_inside(iw, kw, sw, pad_l, ow, dw)
    return n * oc * fic * rows * cols  # a grouped filter's in_c is the group's slice


def op_macs(op) -> int:
    out = op.outputs[0] if op.outputs else None
    if out is None or (op.is_noop and op.fused_into is None):
        return 0  # an op fused into another still counts: its arithmetic runs inside that op
    kind = op.kind
    if kind == "CONV_2D":
        filt = op.input(1)
        return _prod(out.shape) * _prod(filt.shape[1:])
    if kind == "DEPTHWISE_CONV_2D":
        filt = op.input(1)
        return _prod(out.shape) * int(filt.shape[1]) * int(filt.shape[2])
    if kind == "TRANSPOSE_CONV":
        return _transpose_conv_macs(op)
    if kind == "FULLY_CONNECTED":
        return _prod(out.shape) * int(op.input(1).shape[-1])
    if kind == "SVDF":
        return int(op.input(0).shape[0]) * (_prod(op.input(1).shape) + _prod(op.input(2).shape))
    if kind == "UNIDIRECTIONAL_SEQUENCE_LSTM":
        inp = op.input(0)
        state = int(op.input(2).shape[0])
        return int(inp.shape[0]) * int(inp.shape[1]) * 4 * state * (int(inp.shape[2]) + state)
    if kind in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        o = op.options
        return _prod(out.shape) * int(o.get("FilterHeight", 1)) * int(o.get("FilterWidth", 1))
    if kind in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS", "PAD", "PADV2", "CONCATENATION", "QUANTIZE", "DEQUANTIZE"):
        return 0  # data movement or conversion, no arithmetic worth counting
    if kind == "MEAN":
        return _prod(op.input(0).shape)
    return _prod(out.shape)
