"""Pooling: MaxPool, AveragePool (1-D and 2-D), GlobalAveragePool (MEAN over the spatial axes) and
GlobalMaxPool (a MAX_POOL_2D whose window is the whole image).

Pads, auto_pad and ceil_mode become explicit top/left pads for the pooling kernels, which clip every
window to the input: that is ONNX MaxPool, and AveragePool with count_include_pad = 0.  With
count_include_pad = 1 the pads are real zeros, so a PAD goes in front of a VALID pool.  Dilated pooling whose
stride is a multiple of the dilation is a plain pooling of one phase of the input (see _undilate); other dilated
float32 pooling (stride 1 with dilation 2, counted pads) is spelled out tap by tap (see _dilated_taps).  Raw uint8
data runs through the int8 kernels shifted by -128 (order preserving).
"""

import math

import numpy as np

from .common import data_tensor, out_value
from .context import NotQuantizable
from .layout import TO_NHWC
from .spatial import spatial_axes
from .values import Value


def _nhwc_input(ctx, x):
    """x's data as NHWC; 1-D [N, C, W] as [N, 1, W, C]."""
    b = ctx.b
    if x.rank == 4:
        return data_tensor(ctx, x, "nhwc")
    src = data_tensor(ctx, x, "onnx")
    shape4 = (x.shape[0], x.shape[1], 1, x.shape[2])
    view = Value(f"{x.name}:2d", shape4, src.dtype)
    view.tensors["onnx"] = b.new_tensor(f"{x.name}:2d", shape4, src.dtype, src.quant)
    b.add_op("RESHAPE", [src], [view.tensors["onnx"]])
    return b.get(view, "nhwc")


def _finish(ctx, x, out_nhwc_shape, make_op):
    """Create the output (NHWC twin for 2-D, back to [N, C, W] for 1-D) and emit the op into it."""
    b = ctx.b
    if x.rank == 4:
        out = out_value(ctx, 0, out_nhwc_shape, "nhwc", like=x)
        make_op(out.tensors["nhwc"])
        ctx.set_output(0, out)
        return
    n, _, ow, c = out_nhwc_shape
    tmp = out_value(ctx, 0, out_nhwc_shape, "nhwc", like=x)
    make_op(tmp.tensors["nhwc"])
    four = Value(tmp.name + ":4d", (n, c, 1, ow), tmp.dtype, tensors={"nhwc": tmp.tensors["nhwc"]}, qinfo=tmp.qinfo)
    t4 = b.get(four, "onnx")
    out = out_value(ctx, 0, (n, c, ow), "onnx", like=x)
    b.add_op("RESHAPE", [t4], [out.tensors["onnx"]])
    ctx.set_output(0, out)


def _raw_uint8(convert):
    """uint8 data (raw bytes) through the int8 kernel: shifted by -128 (order preserving) and back."""

    def wrapped(ctx):
        x = ctx.input(0)
        if x is None or x.dtype != "uint8" or x.is_const or x.is_dq_view or ctx.quantized:
            return convert(ctx)
        from .integer import int8_source

        ctx._inputs = [int8_source(ctx, x)] + list(ctx._inputs[1:])
        convert(ctx)
        res = ctx.reader.values[ctx.out_name()]
        layout = ctx.b.preferred_layout(res)
        t = ctx.b.get(res, layout)
        out = ctx.b.runtime_value(ctx.out_name(), t.shape, "uint8", layout)
        ctx.b.add_op("CAST", [t], [out.tensors[layout]], {"Offset": 128})
        ctx.set_output(0, out)

    return wrapped


def _undilate(ctx, t_in, axes, include_pad):
    """Dilated pooling whose stride is a multiple of the dilation d: every window reads one phase of the input
    (rows r, r + d, ...; r = -pad mod d), so it is a plain pooling of that STRIDED_SLICE with stride / d and the
    pads divided alike.  Updates `axes` in place; returns the sliced input."""
    for a in axes:
        if a.dilation != 1 and (a.stride % a.dilation or include_pad and (a.before or a.after)):
            raise ctx.unsupported(
                f"dilation {a.dilation} with stride {a.stride} is not supported (dilated pooling "
                "needs a stride that is a multiple of the dilation, and no counted pads)"
            )
    begin, steps = [0, 0, 0, 0], [1, 1, 1, 1]
    for i, a in enumerate(axes):
        if a.dilation == 1:
            continue
        d = a.dilation
        r = (-a.before) % d
        if r >= a.size:
            raise ctx.unsupported("a dilated pooling window reads no input element")
        begin[1 + i], steps[1 + i] = r, d
        a.size = -(-(a.size - r) // d)
        a.before = (a.before + r) // d
        a.after = max(0, (a.out - 1) * (a.stride // d) + a.kernel - a.before - a.size)
        a.stride //= d
        a.dilation = 1
    b = ctx.b
    shape = [t_in.shape[0], axes[0].size, axes[1].size, t_in.shape[3]]
    out = b.new_tensor(f"{ctx.name}:phase", shape, t_in.dtype, t_in.quant)
    b.add_op(
        "STRIDED_SLICE",
        [
            t_in,
            b.int32_const(f"{ctx.name}:phase_begin", begin),
            b.int32_const(f"{ctx.name}:phase_end", list(t_in.shape)),
            b.int32_const(f"{ctx.name}:phase_steps", steps),
        ],
        [out],
        {"BeginMask": 0, "EndMask": 0, "ShrinkAxisMask": 0, "EllipsisMask": 0, "NewAxisMask": 0},
    )
    return out


def _valid_taps(a):
    """Per output index along axis a: how many of its window's taps fall inside the input."""
    return np.array(
        [sum(0 <= o * a.stride - a.before + k * a.dilation < a.size for k in range(a.kernel)) for o in range(a.out)],
        np.int64,
    )


def _dilated_taps(ctx, kind, t_in, axes, include_pad, out_t):
    """Dilated float32 pooling the phase split cannot express (a stride that is not a multiple of the dilation,
    or counted pads): the input is padded (MaxPool: with the lowest finite float, the value the max-pool kernel
    starts from; AveragePool: with zeros), each window tap is a STRIDED_SLICE of it, and the taps are combined
    with MAXIMUM, or summed with ADD and divided by the number of taps counted (all of them with
    count_include_pad = 1, else those inside the input).  kernel_h * kernel_w slices: fine for the small windows
    dilated pooling uses."""
    b = ctx.b
    if t_in.dtype != "float32":
        d = [a.dilation for a in axes]
        s = [a.stride for a in axes]
        raise ctx.unsupported(
            f"dilations {d} with strides {s} on {t_in.dtype} data are not supported (dilated pooling whose stride "
            "is not a multiple of the dilation, or with counted pads, is supported on float32 data)"
        )
    valid = [_valid_taps(a) for a in axes]
    if min(int(v.min()) for v in valid) == 0:
        raise ctx.unsupported("a dilated pooling window reads no input element")
    if include_pad:
        for a in axes:
            if (a.out - 1) * a.stride + a.effective > a.size + a.before + a.after:
                raise ctx.unsupported("ceil_mode windows past the pads with count_include_pad = 1 are not supported")
    after = [max(0, (a.out - 1) * a.stride + a.effective - a.before - a.size) for a in axes]
    n, _, _, c = t_in.shape
    pairs = [[0, 0], [axes[0].before, after[0]], [axes[1].before, after[1]], [0, 0]]
    shape = [n, t_in.shape[1] + sum(pairs[1]), t_in.shape[2] + sum(pairs[2]), c]
    fill = float(-np.finfo(np.float32).max) if kind == "MAX_POOL_2D" else 0.0
    padded = b.new_tensor(f"{ctx.name}:padded", shape, "float32")
    b.add_op(
        "PADV2",
        [
            t_in,
            b.const_tensor(f"{ctx.name}:pads", np.asarray(pairs, np.int32), "int32"),
            b.const_tensor(f"{ctx.name}:fill", np.full([1], fill, np.float32), "float32"),
        ],
        [padded],
    )
    oh, ow = axes[0].out, axes[1].out
    taps = [(ky, kx) for ky in range(axes[0].kernel) for kx in range(axes[1].kernel)]
    last = len(taps) - 1 if kind == "MAX_POOL_2D" else -1
    acc = None
    for i, (ky, kx) in enumerate(taps):
        y0, x0 = ky * axes[0].dilation, kx * axes[1].dilation
        tap = out_t if i == last and i == 0 else b.new_tensor(f"{ctx.name}:tap{i}", [n, oh, ow, c], "float32")
        b.add_op(
            "STRIDED_SLICE",
            [
                padded,
                b.int32_const(f"{ctx.name}:tap{i}_begin", [0, y0, x0, 0]),
                b.int32_const(
                    f"{ctx.name}:tap{i}_end",
                    [n, y0 + (oh - 1) * axes[0].stride + 1, x0 + (ow - 1) * axes[1].stride + 1, c],
                ),
                b.int32_const(f"{ctx.name}:tap{i}_steps", [1, axes[0].stride, axes[1].stride, 1]),
            ],
            [tap],
            {"BeginMask": 0, "EndMask": 0, "ShrinkAxisMask": 0, "EllipsisMask": 0, "NewAxisMask": 0},
        )
        if acc is None:
            acc = tap
            continue
        res = out_t if i == last else b.new_tensor(f"{ctx.name}:acc{i}", [n, oh, ow, c], "float32")
        if kind == "MAX_POOL_2D":
            b.add_op("MAXIMUM", [acc, tap], [res], {})
        else:
            b.add_op("ADD", [acc, tap], [res], {"FusedActivationFunction": 0})
        acc = res
    if kind == "MAX_POOL_2D":
        return
    if include_pad:
        count = np.full([1, 1, 1, 1], float(len(taps)), np.float32)
    else:
        count = (valid[0][:, None] * valid[1][None, :]).astype(np.float32).reshape(1, oh, ow, 1)
    b.add_op(
        "DIV", [acc, b.const_tensor(f"{ctx.name}:count", count, "float32")], [out_t], {"FusedActivationFunction": 0}
    )


def _pool(kind):
    @_raw_uint8
    def convert(ctx):
        b = ctx.b
        x = ctx.input(0)
        if x.rank not in (3, 4):
            raise ctx.unsupported(f"input '{x.name}' has rank {x.rank}; 1-D and 2-D pooling are supported, 3-D is not")
        if ctx.num_outputs() > 1 and ctx.out_name(1):
            raise ctx.unsupported("the Indices output is not supported")
        if ctx.quantized and not ctx.out_qinfo(0).same(x.qinfo):
            raise NotQuantizable()  # the int8 pooling kernels keep the input's quantization
        kernel = list(ctx.attr("kernel_shape"))
        out_shape = ctx.out_shape(0)
        axes = spatial_axes(ctx, x.shape[2:], kernel, out_shape[2:])
        include_pad = kind == "AVERAGE_POOL_2D" and int(ctx.attr("count_include_pad", 0))
        t_in = _nhwc_input(ctx, x)
        if any(a.dilation != 1 and (a.stride % a.dilation or include_pad and (a.before or a.after)) for a in axes):
            shape = (t_in.shape[0], axes[0].out, axes[1].out, t_in.shape[3])
            _finish(ctx, x, shape, lambda t: _dilated_taps(ctx, kind, t_in, axes, include_pad, t))
            return
        if any(a.dilation != 1 for a in axes):
            t_in = _undilate(ctx, t_in, axes, include_pad)
        pad_t, pad_l = axes[0].before, axes[1].before
        if include_pad and any(a.before or a.after for a in axes):
            pairs = [[0, 0], [axes[0].before, axes[0].after], [axes[1].before, axes[1].after], [0, 0]]
            # ceil_mode windows running past the padded input would shrink; refuse rather than guess.
            for a in axes:
                if (a.out - 1) * a.stride + a.kernel > a.size + a.before + a.after:
                    raise ctx.unsupported(
                        "ceil_mode windows past the pads with count_include_pad = 1 are not supported"
                    )
            shape = [t_in.shape[0], t_in.shape[1] + sum(pairs[1]), t_in.shape[2] + sum(pairs[2]), t_in.shape[3]]
            padded = b.new_tensor(f"{ctx.name}:padded", shape, t_in.dtype, t_in.quant)
            b.add_op("PAD", [t_in, b.const_tensor(f"{ctx.name}:pads", np.asarray(pairs, np.int32), "int32")], [padded])
            t_in, pad_t, pad_l = padded, 0, 0
        for a in axes:
            last = (a.out - 1) * a.stride - a.before
            if last >= a.size:
                raise ctx.unsupported("a pooling window lies entirely in the padding")
        opts = {
            "ExplicitPadding": (pad_t, pad_l),
            "StrideH": axes[0].stride,
            "StrideW": axes[1].stride,
            "FilterHeight": axes[0].kernel,
            "FilterWidth": axes[1].kernel,
            "FusedActivationFunction": 0,
            "Padding": 1,
        }
        shape = (t_in.shape[0], axes[0].out, axes[1].out, t_in.shape[3])
        _finish(ctx, x, shape, lambda t: b.add_op(kind, [t_in], [t], opts))

    return convert


def global_average_pool(ctx):
    b = ctx.b
    x = ctx.input(0)
    if x.rank not in (3, 4):
        raise ctx.unsupported(f"input rank {x.rank} is not supported (1-D and 2-D spatial data are)")
    if x.rank == 4:
        t = data_tensor(ctx, x, "nhwc")
        out = out_value(ctx, 0, (t.shape[0], 1, 1, t.shape[3]), "nhwc")
        b.add_op("MEAN", [t, b.int32_const(f"{ctx.name}:axes", [1, 2])], [out.tensors["nhwc"]], {"KeepDims": True})
    else:
        t = data_tensor(ctx, x, "onnx")
        out = out_value(ctx, 0, (t.shape[0], t.shape[1], 1), "onnx")
        b.add_op("MEAN", [t, b.int32_const(f"{ctx.name}:axes", [2])], [out.tensors["onnx"]], {"KeepDims": True})
    ctx.set_output(0, out)


def global_max_pool(ctx):
    b = ctx.b
    x = ctx.input(0)
    if x.rank not in (3, 4):
        raise ctx.unsupported(f"input rank {x.rank} is not supported (1-D and 2-D spatial data are)")
    t_in = _nhwc_input(ctx, x)
    _, h, w, c = t_in.shape
    opts = {"Padding": 1, "StrideH": 1, "StrideW": 1, "FilterHeight": h, "FilterWidth": w, "FusedActivationFunction": 0}
    _finish(ctx, x, (t_in.shape[0], 1, 1, c), lambda t: b.add_op("MAX_POOL_2D", [t_in], [t], opts))


CONVERTERS = {
    "MaxPool": (_pool("MAX_POOL_2D"), "move"),
    "AveragePool": (_pool("AVERAGE_POOL_2D"), "compute"),
    "GlobalAveragePool": (global_average_pool, "compute"),
    "GlobalMaxPool": (global_max_pool, "move"),
}

__all__ = ["CONVERTERS", "math", "TO_NHWC"]
