"""Shared checks/parameters for AVERAGE_POOL_2D and MAX_POOL_2D (int8, int16, float32)."""

from ...errors import UnsupportedError
from .checks import (
    activation_range_f32,
    activation_range_quantized,
    fused_activation,
    nhwc,
    padding_amount,
    require_inputs,
    require_quant,
    require_same_dtype,
)


def check_pool(op):
    require_inputs(op, 1)
    inp, out = op.input(0), op.output
    dtype = require_same_dtype(op, inp, out)
    nhwc(inp.shape, op, "input")
    nhwc(out.shape, op, "output")
    fused_activation(op)
    if dtype != "float32":
        qi = require_quant(op, inp, "input")
        qo = require_quant(op, out, "output")
        if qi.scalar() != qo.scalar():
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input and output quantization differ "
                f"({qi.scalar()} vs {qo.scalar()}); pooling requires identical scale and "
                "zero point, as in TFLite."
            )


def pool_params(op) -> dict:
    inp, out = op.input(0), op.output
    n, ih, iw, c = inp.shape
    _, oh, ow, _ = out.shape
    o = op.options
    fh, fw = o.get("FilterHeight", 1), o.get("FilterWidth", 1)
    sh, sw = o.get("StrideH", 1), o.get("StrideW", 1)
    if "ExplicitPadding" in o:
        # Set by the ONNX frontend (explicit or ceil-mode pads): the kernels clip every window to the input, which
        # is exactly ONNX pooling with pads excluded from the average.
        pad_t, pad_l = (int(v) for v in o["ExplicitPadding"])
    else:
        pad_t, _ = padding_amount(o.get("Padding", 0), sh, 1, ih, fh, oh)
        pad_l, _ = padding_amount(o.get("Padding", 0), sw, 1, iw, fw, ow)
    act = fused_activation(op)
    if inp.dtype != "float32":
        rng = activation_range_quantized(act, *out.quant.scalar(), inp.dtype)
    else:
        rng = activation_range_f32(act)
    return dict(n=n, ih=ih, iw=iw, c=c, oh=oh, ow=ow, fh=fh, fw=fw, sh=sh, sw=sw, pad_t=pad_t, pad_l=pad_l, act=rng)


def pool_args(op, ctx) -> list:
    p = op.params
    lim = list(p["act"]) if op.input(0).dtype != "float32" else [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
    return [
        ctx.ptr(op.input(0)),
        p["n"],
        p["ih"],
        p["iw"],
        p["c"],
        ctx.ptr(op.output),
        p["oh"],
        p["ow"],
        p["fh"],
        p["fw"],
        p["sh"],
        p["sw"],
        p["pad_t"],
        p["pad_l"],
    ] + lim


POOL_SUFFIX = {"int8": "s8", "int16": "s16", "float32": "f32"}
