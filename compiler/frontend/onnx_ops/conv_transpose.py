"""ConvTranspose (float32, 1-D and 2-D) as one TRANSPOSE_CONV.

Pads, output_padding, output_shape and auto_pad are resolved here to a leading pad and an output size per axis,
exactly as the ONNX reference evaluator does (explicit pads win; SAME_UPPER / SAME_LOWER split the total padding
that output_shape, by default input * stride, implies); the TRANSPOSE_CONV kernels take the leading pad directly
(IR options PadTop / PadLeft) and gather, for each output pixel, the taps that reach it, so any output size works.
Groups and dilations go to the kernel (IR options Group, DilationH, DilationW): the filter is stored group-wise
as [M, kh, kw, C / group], each output channel reading only its group's input slice (depthwise: one channel),
and the taps are spaced by the dilation in the kernel, so no zero is stored or multiplied.
A 1-D layer runs as 2-D with height 1. The weights must be constants; int8 (QDQ) layers run in float32.
"""

import numpy as np

from ...errors import CompileError
from .common import data_tensor, float_const
from .context import NotQuantizable
from .values import Value


def _ints(ctx, name, default, n):
    v = ctx.attr(name)
    if v is None:
        return list(default)
    v = ctx.ints(v, f"attribute '{name}'")
    if len(v) != n:
        raise ctx.error(f"attribute '{name}' has {len(v)} values; {n} are expected")
    return v


def resolve_geometry(ctx, in_sizes, kernel, strides, dilations):
    """(leading pads, output sizes) per spatial axis, as the ONNX reference evaluator computes them."""
    nd = len(in_sizes)
    out_pad = _ints(ctx, "output_padding", [0] * nd, nd)
    auto_pad = ctx.attr_str("auto_pad", "NOTSET")
    if auto_pad not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise ctx.error(f"attribute 'auto_pad' is '{auto_pad}'; NOTSET, VALID, SAME_UPPER or SAME_LOWER expected")
    span = [(k - 1) * d + 1 for k, d in zip(kernel, dilations)]
    full = [s * (i - 1) + p + e for s, i, p, e in zip(strides, in_sizes, out_pad, span)]
    out_shape = ctx.attr("output_shape")
    if out_shape is not None:
        out_shape = ctx.ints(out_shape, "attribute 'output_shape'")
        out_shape = out_shape[-nd:] if len(out_shape) >= nd else None
        if out_shape is None:
            raise ctx.error(f"attribute 'output_shape' must give the {nd} spatial sizes")
    pads = ctx.attr("pads")
    if pads is None and auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        sizes = out_shape or [i * s for i, s in zip(in_sizes, strides)]
        total = [f - o for f, o in zip(full, sizes)]
        begin = [t // 2 if auto_pad == "SAME_UPPER" else t - t // 2 for t in total]
        return begin, sizes
    pads = [0] * (2 * nd) if pads is None else _ints(ctx, "pads", [0] * (2 * nd), 2 * nd)
    begin = pads[:nd]
    sizes = out_shape or [f - pads[i] - pads[i + nd] for i, f in enumerate(full)]
    return begin, sizes


def conv_transpose(ctx):
    if ctx.quantized:
        raise NotQuantizable()
    b = ctx.b
    x, w, bias = ctx.input(0), ctx.required(1, "the weights"), ctx.input(2)
    if x.rank not in (3, 4):
        raise ctx.unsupported(
            f"input '{x.name}' has rank {x.rank}; 1-D and 2-D transposed convolutions (rank 3 or 4) are "
            "supported, 3-D ones are not"
        )
    wdata = float_const(ctx, w, "the weights")
    nd = x.rank - 2
    group = int(ctx.attr("group", 1))
    c = int(x.shape[1])
    if wdata.ndim != x.rank or group < 1 or c % group or int(wdata.shape[0]) != c:
        raise ctx.error(
            f"weights of shape {list(wdata.shape)} (group {group}) do not fit the input of shape {list(x.shape)}: "
            "they need the input's rank and its channel count in dimension 0, a multiple of the group"
        )
    mg = int(wdata.shape[1])
    m = mg * group
    kernel = [int(k) for k in wdata.shape[2:]]
    declared = ctx.attr("kernel_shape")
    if declared is not None and [int(k) for k in ctx.ints(declared, "attribute 'kernel_shape'")] != kernel:
        raise ctx.error(f"attribute 'kernel_shape' is {list(declared)}, but the weights' kernel is {kernel}")
    strides = _ints(ctx, "strides", [1] * nd, nd)
    dilations = _ints(ctx, "dilations", [1] * nd, nd)
    if min(strides) < 1 or min(dilations) < 1:
        raise ctx.error(f"strides {strides} and dilations {dilations} must be at least 1")
    bdata = None
    if bias is not None:
        bdata = float_const(ctx, bias, "the bias").reshape(-1)
        if bdata.size != m:
            raise ctx.error(f"the bias has {bdata.size} values; it must have {m} (one per output channel)")
    in_sizes = [int(d) for d in x.shape[2:]]
    begin, sizes = resolve_geometry(ctx, in_sizes, kernel, strides, dilations)
    if min(begin) < 0 or min(sizes) < 1:
        raise ctx.unsupported(
            f"the pads / output_shape give leading pads {begin} and output sizes {sizes}; leading pads must not "
            "be negative and every output size must be at least 1"
        )
    if nd == 1:  # as 2-D with height 1
        kernel, strides, dilations, begin, sizes, in_sizes = (
            [1] + kernel,
            [1] + strides,
            [1] + dilations,
            [0] + begin,
            [1] + sizes,
            [1] + in_sizes,
        )
        wdata = wdata[:, :, None, :]
    # The filter [M, kh, kw, C / group]: ONNX's [C, M / group, kh, kw] has group g's inputs in rows
    # g * cg .. (g + 1) * cg and its outputs in columns 0 .. mg; output channel g * mg + j is that column.
    cg = c // group
    filt = np.ascontiguousarray(
        np.transpose(wdata.reshape(group, cg, mg, kernel[0], kernel[1]), (0, 2, 3, 4, 1)).reshape(
            m, kernel[0], kernel[1], cg
        ),
        np.float32,
    )
    n = int(x.shape[0])
    if nd == 1:
        src = data_tensor(ctx, x, "onnx")
        shape4 = (n, c, 1, in_sizes[1])
        view = Value(f"{x.name}:2d", shape4, src.dtype)
        view.tensors["onnx"] = b.new_tensor(f"{x.name}:2d", shape4, src.dtype)
        b.add_op("RESHAPE", [src], [view.tensors["onnx"]])
        t_in = b.get(view, "nhwc")
    else:
        t_in = data_tensor(ctx, x, "nhwc")
    out_nhwc = (n, sizes[0], sizes[1], m)
    if any(int(d) > (1 << 20) for d in out_nhwc) or int(np.prod(out_nhwc)) >= 1 << 31:
        raise CompileError(f"ONNX node '{ctx.name}' (ConvTranspose): output {list(out_nhwc)} is too large.")
    res = b.runtime_value(ctx.out_name() + (":4d" if nd == 1 else ""), out_nhwc, "float32", "nhwc")
    b.add_op(
        "TRANSPOSE_CONV",
        [
            b.int32_const(f"{ctx.name}:out_shape", list(out_nhwc)),
            b.const_tensor(f"{ctx.name}:filter", filt, "float32"),
            t_in,
            None if bdata is None else b.const_tensor(f"{ctx.name}:bias", bdata.astype(np.float32), "float32"),
        ],
        [res.tensors["nhwc"]],
        {
            "Padding": 1,
            "StrideH": strides[0],
            "StrideW": strides[1],
            "FusedActivationFunction": 0,
            "PadTop": begin[0],
            "PadLeft": begin[1],
            **(
                {}
                if (group, dilations[0], dilations[1]) == (1, 1, 1)
                else {"Group": group, "DilationH": dilations[0], "DilationW": dilations[1]}
            ),
        },
    )
    if nd == 1:
        t4 = b.get(res, "onnx")
        final = b.runtime_value(ctx.out_name(), (n, m, sizes[1]), "float32", "onnx")
        b.add_op("RESHAPE", [t4], [final.tensors["onnx"]])
        res = final
    ctx.set_output(0, res)


CONVERTERS = {"ConvTranspose": (conv_transpose, "compute")}
