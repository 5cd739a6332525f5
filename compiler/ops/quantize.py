"""QUANTIZE lowering: float32 -> int8 / int16 and integer -> integer requantization.

float32 -> intN divides by the output scale and rounds in float, as TFLite's AffineQuantize does; integer ->
integer (int8, int16, quantized int32 and uint8, in the pairs TFLite Micro's QUANTIZE accepts) rescales by s_in /
s_out with a compile-time multiplier and shift (TFLite's Requantize).  Zero points are honoured on both sides, int16
included, as TFLite's kernel does.  uint8 appears only as uint8 -> int8 (a camera's uint8 image entering an int8
model) and int8 -> uint8 (streaming wake-word / VAD models publishing a uint8 output): TFLite Micro runs no other
uint8 pair (float32 -> uint8, uint8 -> uint8/int16/int32 are rejected by its kernel, and so by us).
"""

from ..errors import UnsupportedError
from ..quant_math import quantize_multiplier
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import require_inputs, require_quant, require_same_shape

_SHORT = {"int8": "s8", "int16": "s16", "int32": "s32", "uint8": "u8"}
# (input type, output type) -> kernel; int8 -> int8 keeps its historical name.
_REQUANTIZE = {("int8", "int8"): "aot_requantize_s8"}
_REQUANTIZE.update(
    {
        (i, o): f"aot_requantize_{_SHORT[i]}_{_SHORT[o]}"
        for i, o in (
            ("int16", "int8"),
            ("int8", "int16"),
            ("int16", "int16"),
            ("int16", "int32"),
            ("int32", "int16"),
            ("int8", "int32"),
            ("int32", "int8"),
            ("uint8", "int8"),
            ("int8", "uint8"),
        )
    }
)
_FROM_FLOAT = {"int8": "aot_quantize_f32_s8", "int16": "aot_quantize_f32_s16"}


def _supported() -> str:
    pairs = [f"float32 -> {o}" for o in _FROM_FLOAT] + [f"{i} -> {o}" for i, o in _REQUANTIZE]
    return ", ".join(pairs)


@register
class Quantize(OpLowering):
    builtins = ("QUANTIZE",)
    elementwise = True
    dtypes = ("int8", "int16", "int32", "uint8")
    header = "aot/kernels/quantize.h"

    def check(self, op):
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        pair = (inp.dtype, out.dtype)
        if not (pair in _REQUANTIZE or (inp.dtype == "float32" and out.dtype in _FROM_FLOAT)):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' ({inp.dtype}) to output '{out.name}' "
                f"({out.dtype}) is not supported; QUANTIZE is supported for {_supported()}."
            )
        require_same_shape(op, inp, out)
        require_quant(op, out, "output", int16_zero_point_ok=True)
        if inp.dtype != "float32":
            require_quant(op, inp, "input", int16_zero_point_ok=True)

    def prepare(self, op):
        inp, out = op.input(0), op.output
        so, zo = out.quant.scalar()
        p = dict(size=out.num_elements, out_zp=zo)
        if inp.dtype == "float32":
            p.update(scale=so)
            op.kernel = _FROM_FLOAT[out.dtype]
        else:
            si, zi = inp.quant.scalar()
            m, sh = quantize_multiplier(si / so)
            p.update(in_zp=zi, mult=m, shift=sh)
            op.kernel = _REQUANTIZE[(inp.dtype, out.dtype)]
        op.params = p
        offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, self.header)

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        if op.input(0).dtype == "float32":
            args += [ctx.f32(p["scale"]), p["out_zp"]]
        else:
            args += [p["in_zp"], p["mult"], p["shift"], p["out_zp"]]
        return [ctx.call(op.kernel, args)]
