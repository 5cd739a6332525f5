"""Conv (float32 and int8 in QDQ form), QLinearConv (exact: see qlinear_conv), and BatchNormalization (folded
into a preceding Conv, else a per-channel multiply-add).

Weights go from ONNX [M, C/g, kh, kw] to TFLite's OHWI (CONV_2D) or [1, kh, kw, M] (DEPTHWISE_CONV_2D,
when every group has one input channel); other grouped convolutions become one CONV_2D per group on a
channel slice, concatenated.  1-D convolutions run as 2-D with height 1.  Pads that are neither TFLite
SAME nor VALID become an explicit PAD in front.
"""

import numpy as np

from ...errors import CompileError
from . import qdq_exact
from .common import data_tensor, float_const, out_value
from .context import NotQuantizable
from .layout import TO_NCHW, TO_NHWC
from .quant import to_qinfo
from .spatial import VALID, common_padding, spatial_axes
from .values import QInfo, Value


def _bn_after(ctx):
    """The BatchNormalization that alone consumes this Conv's output, with constant parameters, if any."""
    reader = ctx.reader
    users = reader.consumers(ctx.out_name())
    if ctx.quantized or len(users) != 1 or reader.is_graph_output(ctx.out_name()):
        return None
    bn = reader.nodes[users[0]]
    if bn.op_type != "BatchNormalization" or bn.input[0] != ctx.out_name() or len([o for o in bn.output if o]) != 1:
        return None
    params = [reader.values.get(n) for n in bn.input[1:5]]
    channels = int(ctx.input(1).shape[0]) if ctx.input(1) is not None and ctx.input(1).rank else -1
    if any(p is None or not p.is_const or np.asarray(p.const).size != channels for p in params):
        return None  # converted on its own, which checks the parameters
    return users[0], bn, [np.asarray(p.const, np.float64) for p in params]


def _bn_scale_shift(label: str, node_attr, params):
    gamma, beta, mean, var = params
    eps = float(node_attr("epsilon", 1e-5))
    if not np.all(var + eps > 0):  # also false for NaN
        raise CompileError(
            f"ONNX node '{label}' (BatchNormalization): variance + epsilon must be positive, but "
            f"is {float(np.min(var + eps))} for some channel (epsilon {eps}). The model file is "
            "malformed."
        )
    scale = gamma / np.sqrt(var + eps)
    return scale, beta - mean * scale


class _Weights:
    """Float weights, or int8 weights with per-channel/tensor scales (symmetric)."""

    def __init__(self, data, qinfo=None):
        self.data = data
        self.q = qinfo


def _int8_weights(ctx, w: Value) -> _Weights:
    if not (w.is_const and w.is_dq_view) or str(w.qsrc.const.dtype) != "int8":
        raise NotQuantizable()
    if np.any(w.qinfo.zero_point != 0) or (not w.qinfo.per_tensor and w.qinfo.axis != 0):
        raise ctx.unsupported(
            "int8 weights must be symmetric (zero point 0) and quantized per tensor or per output channel (axis 0)"
        )
    return _Weights(w.qsrc.const, w.qinfo)


def _int8_bias(ctx, bias: Value, in_scale: float, w_q: QInfo, channels: int):
    if bias is None:
        return np.zeros(channels, np.int32)
    want = in_scale * np.asarray(w_q.scale, np.float64).reshape(-1) * np.ones(channels)
    if (
        bias.is_dq_view
        and bias.is_const
        and str(bias.qsrc.const.dtype) == "int32"
        and np.asarray(bias.qinfo.scale).size in (1, channels)
        and np.allclose(np.asarray(bias.qinfo.scale, np.float64) * np.ones(channels), want, rtol=1e-5)
    ):
        return np.asarray(bias.qsrc.const, np.int64).reshape(-1)
    real = float_const(ctx, bias, "the bias").astype(np.float64).reshape(-1)
    return np.round(real / want).astype(np.int64)


def emit_conv(ctx, x: Value, w: _Weights, bias, out_name: str, out_q=None):
    """Emit the convolution of x (float or int8 data) by weights w; returns the output value (NHWC twin)."""
    b = ctx.b
    if w.data.ndim not in (3, 4):
        raise ctx.unsupported(
            f"weights of rank {w.data.ndim} ({w.data.ndim - 2}-D convolution) are not "
            "supported; 1-D and 2-D convolutions are"
        )
    m = int(w.data.shape[0])
    group = int(ctx.attr("group", 1))
    if w.data.ndim != x.rank or int(w.data.shape[1]) * group != int(x.shape[1]) or m % group or m == 0:
        raise ctx.error(
            f"weights of shape {list(w.data.shape)} (group {group}) do not fit the input of shape "
            f"{list(x.shape)}: they need the input's rank, input channels / group in dimension 1 and "
            "a multiple of the group in dimension 0"
        )
    if bias is not None and (bias.rank != 1 or int(bias.shape[0]) != m):
        raise ctx.error(f"the bias has shape {list(bias.shape)}; it must be [{m}] (one value per output channel)")
    one_d = w.data.ndim == 3
    kernel = w.data.shape[2:]
    declared = ctx.attr("kernel_shape")
    if declared is not None and [int(k) for k in declared] != [int(k) for k in kernel]:
        raise ctx.error(f"attribute 'kernel_shape' is {list(declared)}, but the weights' kernel is {list(kernel)}")
    out_shape = ctx.out_shape(0, x.rank)
    axes = spatial_axes(ctx, x.shape[2:], kernel, out_shape[2:])
    quantized = out_q is not None
    wdata = w.data[:, :, None, :] if one_d else w.data
    # The input in NHWC: 1-D data [N, C, W] goes through a 4-D [N, C, 1, W] view first.
    if one_d:
        src = data_tensor(ctx, x, "onnx")
        shape4 = (x.shape[0], x.shape[1], 1, x.shape[2])
        view = Value(f"{x.name}:2d", shape4, src.dtype)
        view.tensors["onnx"] = b.new_tensor(f"{x.name}:2d", shape4, src.dtype, src.quant)
        b.add_op("RESHAPE", [src], [view.tensors["onnx"]])
        t_in = b.get(view, "nhwc")
    else:
        t_in = data_tensor(ctx, x, "nhwc")
    padding = common_padding(axes)
    if padding is None:
        pairs = [[0, 0], [axes[0].before, axes[0].after], [axes[1].before, axes[1].after], [0, 0]]
        shape = [t_in.shape[0], t_in.shape[1] + sum(pairs[1]), t_in.shape[2] + sum(pairs[2]), t_in.shape[3]]
        padded = b.new_tensor(f"{ctx.name}:padded", shape, t_in.dtype, t_in.quant)
        b.add_op("PAD", [t_in, b.const_tensor(f"{ctx.name}:pads", np.asarray(pairs, np.int32), "int32")], [padded])
        t_in, padding = padded, VALID
    n, _, _, c = t_in.shape
    oh, ow = axes[0].out, axes[1].out
    out_nhwc = (n, oh, ow, m)
    opts = {
        "Padding": padding,
        "StrideH": axes[0].stride,
        "StrideW": axes[1].stride,
        "DilationHFactor": axes[0].dilation,
        "DilationWFactor": axes[1].dilation,
        "FusedActivationFunction": 0,
    }
    if quantized:
        res = b.runtime_value(out_name, out_nhwc, "int8", "nhwc", out_q)
        in_scale = float(t_in.quant.scale[0])
        bias_q = _int8_bias(ctx, bias, in_scale, w.q, m)
        if bias_q.min(initial=0) < -(1 << 31) or bias_q.max(initial=0) >= 1 << 31:
            raise ctx.unsupported("the int32 bias overflows")
        bias_arr = bias_q.astype(np.int32)
    else:
        res = b.runtime_value(out_name, out_nhwc, "float32", "nhwc")
        bias_arr = None if bias is None else float_const(ctx, bias, "the bias").reshape(-1)
    out_t = res.tensors["nhwc"]
    cin_g = wdata.shape[1]

    def weight_tensor(name, data, axis):
        if not quantized:
            return b.const_tensor(name, data.astype(np.float32), "float32")
        q = w.q
        scale = np.asarray(q.scale, np.float32).reshape(-1)
        qp = b.quant_params(QInfo(scale, np.zeros(scale.size, np.int64), axis))
        return b.const_tensor(name, data.astype(np.int8), "int8", qp)

    def bias_tensor(name, data):
        if data is None:
            return None
        return b.const_tensor(name, data, "int32" if quantized else "float32")

    if group == 1:
        filt = weight_tensor(f"{ctx.name}:filter", np.transpose(wdata, (0, 2, 3, 1)), 0)
        b.add_op("CONV_2D", [t_in, filt, bias_tensor(f"{ctx.name}:bias", bias_arr)], [out_t], opts)
    elif cin_g == 1 and m % c == 0 and group == c:
        filt = weight_tensor(f"{ctx.name}:filter", np.transpose(wdata, (1, 2, 3, 0)), 3)
        b.add_op(
            "DEPTHWISE_CONV_2D",
            [t_in, filt, bias_tensor(f"{ctx.name}:bias", bias_arr)],
            [out_t],
            dict(opts, DepthMultiplier=m // c),
        )
    else:
        if quantized and not w.q.per_tensor:
            raise NotQuantizable()
        mg = m // group
        parts = []
        for g in range(group):
            sl = b.new_tensor(f"{ctx.name}:in{g}", (n, t_in.shape[1], t_in.shape[2], cin_g), t_in.dtype, t_in.quant)
            b.add_op(
                "STRIDED_SLICE",
                [
                    t_in,
                    b.int32_const(f"{ctx.name}:b{g}", [0, 0, 0, g * cin_g]),
                    b.int32_const(f"{ctx.name}:e{g}", list(t_in.shape[:3]) + [(g + 1) * cin_g]),
                    b.int32_const(f"{ctx.name}:s{g}", [1, 1, 1, 1]),
                ],
                [sl],
            )
            part = b.new_tensor(f"{ctx.name}:out{g}", (n, oh, ow, mg), out_t.dtype, out_t.quant)
            filt = weight_tensor(f"{ctx.name}:filter{g}", np.transpose(wdata[g * mg : (g + 1) * mg], (0, 2, 3, 1)), 0)
            bias_g = None if bias_arr is None else bias_arr[g * mg : (g + 1) * mg]
            b.add_op("CONV_2D", [sl, filt, bias_tensor(f"{ctx.name}:bias{g}", bias_g)], [part], opts)
            parts.append(part)
        b.add_op("CONCATENATION", parts, [out_t], {"Axis": 3, "FusedActivationFunction": 0})
    if one_d:
        # Back to the ONNX [N, M, W] order through the 4-D [N, M, 1, W] view.
        four = Value(f"{out_name}:4d", (n, m, 1, ow), res.dtype, tensors={"nhwc": out_t}, qinfo=res.qinfo)
        t4 = b.get(four, "onnx")
        final = b.runtime_value(out_name + ":1d", (n, m, ow), res.dtype, "onnx", res.qinfo)
        b.add_op("RESHAPE", [t4], [final.tensors["onnx"]])
        return final
    return res


def conv(ctx):
    x, w, bias = ctx.input(0), ctx.input(1), ctx.input(2)
    if x.rank not in (3, 4):
        raise ctx.unsupported(
            f"input '{x.name}' has rank {x.rank}; 1-D and 2-D convolutions (rank 3 or 4) are "
            "supported, 3-D ones are not"
        )
    if ctx.quantized:
        weights = _int8_weights(ctx, w)
        if qdq_exact.enabled():
            out = _exact_conv(ctx, x, weights, bias)
        else:
            out = emit_conv(ctx, x, weights, bias, ctx.out_name(), ctx.out_qinfo(0))
        ctx.set_output(0, out)
        return
    wdata = float_const(ctx, w, "the weights").astype(np.float64)
    bdata = None if bias is None else float_const(ctx, bias, "the bias").astype(np.float64)
    if bdata is not None and (wdata.ndim == 0 or bdata.shape != wdata.shape[:1]):
        raise ctx.error(
            f"the bias has shape {list(bdata.shape)}; it must be [{wdata.shape[0] if wdata.ndim else '?'}]"
            " (one value per output channel)"
        )
    fold = _bn_after(ctx)
    name = ctx.out_name()
    if fold is not None:
        bn_idx, bn, params = fold
        scale, shift = _bn_scale_shift(bn.name or f"BatchNormalization_{bn_idx}", lambda k, d: _attr(bn, k, d), params)
        wdata = wdata * scale.reshape((-1,) + (1,) * (wdata.ndim - 1))
        bdata = (np.zeros(wdata.shape[0]) if bdata is None else bdata) * scale + shift
        ctx.reader.skip.add(bn_idx)
        name = bn.output[0]
    bias_v = None if bdata is None else Value(f"{ctx.name}:b", bdata.shape, "float32", const=bdata.astype(np.float32))
    out = emit_conv(ctx, x, _Weights(wdata.astype(np.float32)), bias_v, name)
    ctx.reader.set_value(name, out)
    if name != ctx.out_name():
        ctx.set_output(0, out)


def _exact_conv(ctx, x, w: _Weights, bias):
    """A QDQ Conv as onnxruntime runs it (qdq_exact): the integer convolution in float32, requantized once."""
    layout = "nhwc" if x.rank == 4 else "onnx"
    t = data_tensor(ctx, x, layout)
    in_scale = float(np.asarray(t.quant.scale).reshape(-1)[0])
    m = int(w.data.shape[0])
    bias_q = _int8_bias(ctx, bias, in_scale, w.q, m)
    qdq_exact.check(ctx, w.data, bias_q)
    xf = Value(x.name + ":centered", x.shape, "float32")
    xf.tensors[layout] = qdq_exact.centered(ctx, t, x.name)
    bias_v = Value(f"{ctx.name}:bias", (m,), "float32", const=bias_q.astype(np.float32))
    acc = emit_conv(ctx, xf, _Weights(np.asarray(w.data, np.float32)), bias_v, ctx.out_name() + ":acc")
    return qdq_exact.requantize(
        ctx, acc.tensors[layout], ctx.out_qinfo(0), layout, in_scale, w.q.scale, 3 if layout == "nhwc" else 1
    )


def _attr(node, key, default):
    from onnx import helper

    for a in node.attribute:
        if a.name == key:
            return helper.get_attribute_value(a)
    return default


def qlinear_conv(ctx):
    """QLinearConv exactly as ONNX defines it: the integer convolution of (x - x_zero_point) by (w - w_zero_point)
    plus the int32 bias, run on float32 kernels with integer values (exact: checked below), then
    rne(acc * x_scale * w_scale / y_scale) + y_zero_point with QUANTIZE_ONNX."""
    from .integer import int8_source
    from .quant import _shift_data, centered_float, check_exact, quantize_onnx, requant_multiplier

    x = ctx.input(0)
    if x.is_const or x.dtype not in ("int8", "uint8") or x.is_dq_view:
        raise ctx.unsupported(f"input '{x.name}' must be run-time int8/uint8 data")
    if x.rank not in (3, 4):
        raise ctx.unsupported(f"input '{x.name}' has rank {x.rank}; 1-D and 2-D convolutions are supported")
    xs, ws, ys = (ctx.const_input(i, what) for i, what in ((1, "x_scale"), (4, "w_scale"), (6, "y_scale")))
    xq, _ = to_qinfo(ctx, xs, ctx.const_input(2, "x_zero_point"), 0, x.rank, x.dtype)
    wraw = np.asarray(ctx.const_input(3, "the weights"))
    if str(wraw.dtype) not in ("int8", "uint8"):
        raise ctx.unsupported(f"weights of type {wraw.dtype} are not supported (int8, uint8)")
    if wraw.ndim != x.rank:
        raise ctx.error(f"the weights have shape {list(wraw.shape)}; they need the input's rank {x.rank}")
    wq, _ = to_qinfo(ctx, ws, ctx.const_input(5, "w_zero_point"), 0, wraw.ndim, str(wraw.dtype))
    yq, ydt = to_qinfo(ctx, ys, ctx.const_input(7, "y_zero_point"), 0, 0, x.dtype)
    if not xq.per_tensor or not yq.per_tensor:
        raise ctx.unsupported("x and y must be quantized per tensor")
    m = int(wraw.shape[0])
    if wq.scale.size not in (1, m):
        raise ctx.error(f"w_scale has {wq.scale.size} values for {m} output channels")
    wzp = wq.zero_point.reshape((-1,) + (1,) * (wraw.ndim - 1))
    wint = _shift_data(wraw).astype(np.int64) - wzp
    bias = ctx.const_input(8, "the bias")
    bias = None if bias is None else np.asarray(ctx.ints(bias, "the bias", m), np.int64)
    check_exact(ctx, np.abs(wint).reshape(m, -1).sum(axis=1), 0 if bias is None else np.abs(bias))
    layout = "nhwc" if x.rank == 4 else "onnx"
    xf = Value(x.name + ":centered", x.shape, "float32")
    xf.tensors[layout] = centered_float(ctx, int8_source(ctx, x), int(xq.zero_point[0]), layout)
    bias_v = None if bias is None else Value(f"{ctx.name}:bias", bias.shape, "float32", const=bias.astype(np.float32))
    acc = emit_conv(ctx, xf, _Weights(wint.astype(np.float32)), bias_v, ctx.out_name() + ":acc")
    mult = requant_multiplier(xs, ws, ys)
    axis = 3 if layout == "nhwc" else 1
    out = quantize_onnx(
        ctx,
        acc.tensors[layout],
        ctx.out_name(),
        yq,
        layout,
        "multiply",
        mult,
        np.full(mult.size, int(yq.zero_point[0])),
        axis,
    )
    out.onnx_dtype = ydt
    ctx.set_output(0, out)


def batch_norm(ctx):
    """A BatchNormalization not folded into a Conv: y = x * scale + shift per channel (axis 1)."""
    b = ctx.b
    x = ctx.input(0)
    params = [
        float_const(ctx, ctx.required(i, what), what).astype(np.float64)
        for i, what in ((1, "scale"), (2, "bias"), (3, "mean"), (4, "variance"))
    ]
    if ctx.num_outputs() > 1 and any(ctx.out_name(i) for i in range(1, ctx.num_outputs())):
        raise ctx.unsupported("training-mode outputs (running mean/variance) are not supported")
    if x.rank > 4 or x.rank < 2:
        raise ctx.unsupported(f"input rank {x.rank} is not supported (2-D to 4-D)")
    for p, what in zip(params, ("scale", "bias", "mean", "variance")):
        if p.size != int(x.shape[1]):
            raise ctx.error(f"the {what} has {p.size} values for the input's {x.shape[1]} channels")
    params = [p.reshape(-1) for p in params]
    scale, shift = _bn_scale_shift(ctx.name, ctx.attr, params)
    layout = "nhwc" if x.rank == 4 and b.preferred_layout(x) == "nhwc" else "onnx"
    bshape = [1] * x.rank
    bshape[1] = -1
    sc, sh = scale.reshape(bshape).astype(np.float32), shift.reshape(bshape).astype(np.float32)
    if layout == "nhwc":
        sc, sh = np.transpose(sc, TO_NHWC), np.transpose(sh, TO_NHWC)
    t = data_tensor(ctx, x, layout)
    mid = b.new_tensor(f"{ctx.name}:scaled", t.shape, "float32")
    b.add_op("MUL", [t, b.const_tensor(f"{ctx.name}:scale", sc, "float32")], [mid], {"FusedActivationFunction": 0})
    out = out_value(ctx, 0, t.shape, layout)
    b.add_op(
        "ADD",
        [mid, b.const_tensor(f"{ctx.name}:shift", sh, "float32")],
        [out.tensors[layout]],
        {"FusedActivationFunction": 0},
    )
    ctx.set_output(0, out)


CONVERTERS = {
    "Conv": (conv, "compute"),
    "QLinearConv": (qlinear_conv, "quant"),
    "BatchNormalization": (batch_norm, "float"),
}

__all__ = ["CONVERTERS", "TO_NCHW"]
