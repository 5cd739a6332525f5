"""TRANSPOSE_CONV lowering (int8 per-channel, int16x8 and float32).

Inputs as TFLite orders them: 0 the output shape (an int32 vector; a constant must equal the output tensor's
shape; one computed at run time, as SEANet's models pass it, is ignored like TFLite Micro does, which has no
dynamic shapes and uses the output tensor's static shape), 1 the filter [out_c, kh, kw, in_c], 2 the input, 3 the
optional bias.  The padding is TFLite Micro's:
computed from the OUTPUT's height and width as if the layer were a convolution of the output (SAME: half the
total of ((ceil(out / stride) - 1) * stride + k - out), rounded down; VALID: 0).  The kernels gather per output
pixel (aot/kernels/transpose_conv.h), so unlike TFLite's scatter form they need no accumulator scratch.  int8 runs
SMLAD (DSP extension) or VMLADAVA (Helium) kernels where the core has them (the kernel table chooses), with the
input offset folded into a per-(channel, tap) table.
The ONNX frontend's ConvTranspose gives its leading pads explicitly instead (IR options PadTop / PadLeft, which no
TFLite model carries): ONNX pads, output_padding and output_shape allow any non-negative leading pad.  It also
gives Group and DilationH / DilationW (float32 only, no TFLite model carries them either): the filter is then
[out_c, kh, kw, in_c / group] and runs on the grouped kernel, which reads each group's channel slice and spaces
the taps by the dilation, so neither zero blocks nor zeros between taps are stored or multiplied.
"""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import (
    activation_range_f32,
    activation_range_int8,
    const_int_array,
    fused_activation,
    nhwc,
    require_const,
    require_inputs,
    require_same_dtype,
)
from .common.conv import channel_multipliers, check_int8_weights, int8_bias
from .common.int16 import acc16_args, acc16_filter, acc16_params, check_int16_layer
from .kernel_table import Layer, select


def transpose_padding(code: int, stride: int, out_size: int, k: int) -> int:
    """TFLite Micro's leading padding of a transposed convolution along one axis (SAME=0, VALID=1)."""
    if code == 0:
        windows = (out_size + stride - 1) // stride
    elif code == 1:
        windows = (out_size - k + stride) // stride
    else:
        raise UnsupportedError(f"Unknown padding mode {code}; TRANSPOSE_CONV supports SAME and VALID.")
    return max((windows - 1) * stride + k - out_size, 0) // 2


def layer_padding(op) -> tuple:
    """(top, left) leading padding of a TRANSPOSE_CONV op: the explicit PadTop / PadLeft of an ONNX
    ConvTranspose, else TFLite Micro's from the padding code and the output size."""
    o = op.options
    if "PadTop" in o:
        return int(o["PadTop"]), int(o["PadLeft"])
    code, sh, sw = o.get("Padding", 0), o.get("StrideH", 1), o.get("StrideW", 1)
    _, oh, ow, _ = op.outputs[0].shape
    _, kh, kw, _ = op.input(1).shape
    return transpose_padding(code, sh, int(oh), int(kh)), transpose_padding(code, sw, int(ow), int(kw))


def group_dilation(op) -> tuple:
    """(group, dilation_h, dilation_w) of a TRANSPOSE_CONV op: 1s unless the ONNX frontend set them."""
    o = op.options
    return int(o.get("Group", 1)), int(o.get("DilationH", 1)), int(o.get("DilationW", 1))


@register
class TransposeConv(OpLowering):
    builtins = ("TRANSPOSE_CONV",)
    dtypes = ("int8", "int16", "float32")
    header = "aot/kernels/transpose_conv.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 3, 4)
        shape_t, filt, inp, bias, out = op.input(0), op.input(1), op.input(2), op.input(3), op.output
        what = f"Operator {op.index} ({op.kind})"
        if shape_t.dtype != "int32" or len(shape_t.shape) != 1 or shape_t.num_elements != 4:
            raise CompileError(
                f"{what}: its output shape input '{shape_t.name}' must be an int32 vector of 4 values (got "
                f"{shape_t.dtype} {list(shape_t.shape)})."
            )
        dims = (
            list(out.shape) if shape_t.data is None else [int(v) for v in const_int_array(op, shape_t, "output shape")]
        )
        if dims != list(out.shape):
            raise CompileError(
                f"{what}: its output shape input '{shape_t.name}' says {dims} but output '{out.name}' has shape "
                f"{list(out.shape)}; they must agree."
            )
        require_const(op, filt, "filter")
        if bias is not None:
            require_const(op, bias, "bias")
        n, _, _, ic = nhwc(inp.shape, op, "input")
        on, _, _, oc = nhwc(out.shape, op, "output")
        foc, _, _, fic = nhwc(filt.shape, op, "filter")
        group, dh, dw = group_dilation(op)
        if group < 1 or dh < 1 or dw < 1 or ic % group or oc % group:
            raise CompileError(
                f"{what}: group {group} must divide the input channels {ic} and output channels {oc}, and the "
                f"dilations ({dh}, {dw}) must be at least 1."
            )
        if (group, dh, dw) != (1, 1, 1) and out.dtype != "float32":
            raise UnsupportedError(
                f"{what}: groups and dilations are supported in float32 only (got {out.dtype} with group {group}, "
                f"dilations ({dh}, {dw}))."
            )
        if on != n or fic * group != ic or foc != oc:
            raise CompileError(
                f"{what}: filter {list(filt.shape)} does not map input {list(inp.shape)} to output "
                f"{list(out.shape)} (the filter must be [out_c, kh, kw, in_c / group], batches equal)."
            )
        o = op.options
        if o.get("StrideH", 1) < 1 or o.get("StrideW", 1) < 1:
            raise CompileError(f"{what}: strides must be at least 1 (got {o.get('StrideH')}, {o.get('StrideW')}).")
        transpose_padding(o.get("Padding", 0), 1, 1, 1)  # unknown padding codes are refused here
        if min(layer_padding(op)) < 0:
            raise CompileError(f"{what}: leading pads {list(layer_padding(op))} must not be negative.")
        fused_activation(op)
        if out.dtype == "int16":
            check_int16_layer(op, inp, filt, bias, out, channel_axis=0)
        elif out.dtype == "int8":
            require_same_dtype(op, inp, out)
            check_int8_weights(op, inp, filt, bias, out, channel_axis=0)
        else:
            require_same_dtype(op, inp, filt, bias, out)

    def prepare(self, op):
        filt, inp, bias, out = op.input(1), op.input(2), op.input(3), op.output
        n, ih, iw, ic = inp.shape
        _, oh, ow, oc = out.shape
        _, kh, kw, _ = filt.shape
        o = op.options
        sh, sw = o.get("StrideH", 1), o.get("StrideW", 1)
        act = fused_activation(op)
        p = dict(
            n=n,
            ih=ih,
            iw=iw,
            ic=ic,
            oh=oh,
            ow=ow,
            oc=oc,
            kh=kh,
            kw=kw,
            sh=sh,
            sw=sw,
            pad_t=layer_padding(op)[0],
            pad_l=layer_padding(op)[1],
        )
        if out.dtype == "int16":
            p.update(acc16_params(op, inp, filt, bias, out, filt.data.reshape(oc, -1), oc, act))
            select(op, p, Layer(in_c=ic))
        elif out.dtype == "int8":
            mult, shift = channel_multipliers(op, inp, filt, out, oc)
            p.update(
                mult=mult,
                shift=shift,
                bias=None if bias is None else int8_bias(bias, oc),
                in_off=-int(inp.quant.zero_point[0]),
                out_off=int(out.quant.zero_point[0]),
                act=activation_range_int8(act, *out.quant.scalar()),
            )
            select(op, p, Layer())
        else:
            p.update(act=activation_range_f32(act), bias=None if bias is None else bias.data.astype(np.float32))
            group, dh, dw = group_dilation(op)
            p.update(group=group, dh=dh, dw=dw)
            grouped = (group, dh, dw) != (1, 1, 1)
            op.kernel = "aot_transpose_conv_grouped_f32" if grouped else "aot_transpose_conv_f32"
        op.params = p

    def emit(self, op, ctx):
        p = op.params
        inp, out = op.input(2), op.output
        ftype = "float" if out.dtype == "float32" else "int8_t"
        btype = "float" if out.dtype == "float32" else "int32_t"
        args = [
            ctx.ptr(inp),
            p["n"],
            p["ih"],
            p["iw"],
            p["ic"],
            ctx.weight(f"op{op.index}_filter", acc16_filter(op), ftype),
            p["kh"],
            p["kw"],
            ctx.weight_or_null(f"op{op.index}_bias", p["bias"], btype),
            ctx.ptr(out),
            p["oh"],
            p["ow"],
            p["oc"],
            p["sh"],
            p["sw"],
            p["pad_t"],
            p["pad_l"],
        ]
        if out.dtype == "float32":
            if (p["group"], p["dh"], p["dw"]) != (1, 1, 1):
                args += [p["dh"], p["dw"], p["group"]]
            args += [ctx.f32(p["act"][0]), ctx.f32(p["act"][1])]
            return [ctx.call(op.kernel, args)]
        if out.dtype == "int16":
            return [ctx.call(op.kernel, args + acc16_args(op, ctx))]
        args += [
            p["in_off"],
            p["out_off"],
            ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
            ctx.param(f"op{op.index}_shift", p["shift"], "int32_t"),
            p["act"][0],
            p["act"][1],
        ]
        if "tap_bias" in p:
            args.append(ctx.param(f"op{op.index}_tap_bias", p["tap_bias"], "int32_t"))
        return [ctx.call(op.kernel, args)]
