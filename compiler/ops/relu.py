"""RELU and RELU6 lowerings (int8, int16, float32).

int8 RELU requantizes to the output scale and clamps at the output's
quantized zero, exactly like TFLite Micro.  int8 RELU6 in TFLite Micro is a
clamp in the input's quantization that ignores the output's parameters, so
it is only accepted when input and output are quantized identically (as
converters emit it); then the clamp is both bit-exact and correct.  int16
(zero points 0) is the same with the int16 range.
"""

from ..quant_math import quantize_multiplier, quantize_value_f32
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import require_same_quant, unary_check


@register
class Relu(OpLowering):
    builtins = ("RELU", "RELU6")
    dtypes = ("int8", "int16", "float32")
    elementwise = True
    header = "aot/kernels/relu.h"

    def check(self, op):
        super().check(op)
        if unary_check(op, self.dtypes) != "float32" and op.kind == "RELU6":
            require_same_quant(
                op,
                op.input(0),
                op.output,
                "input",
                "output",
                "Quantized RELU6 is supported only with identical input and output quantization "
                "(TFLite Micro clamps in the input's quantization and ignores the output's).",
            )

    def prepare(self, op):
        inp, out = op.input(0), op.output
        p = dict(size=inp.num_elements)
        if inp.dtype != "float32":
            si, zi = inp.quant.scalar()
            lowest, highest, suffix = (-128, 127, "s8") if inp.dtype == "int8" else (-32768, 32767, "s16")
            if op.kind == "RELU":
                so, zo = out.quant.scalar()
                m, sh = quantize_multiplier(si / so)
                p.update(in_zp=zi, mult=m, shift=sh, out_zp=zo, lo=max(lowest, zo), hi=highest)
                op.kernel = f"aot_relu_{suffix}"
            else:
                six = min(highest, max(lowest, quantize_value_f32(6.0, si, zi)))
                p.update(lo=zi, hi=six)
                op.kernel = f"aot_relu6_{suffix}"
        else:
            op.kernel = "aot_relu_f32" if op.kind == "RELU" else "aot_relu6_f32"
        op.params = p
        offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, self.header)

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        quantized = op.input(0).dtype != "float32"
        if quantized and op.kind == "RELU":
            args += [p["in_zp"], p["mult"], p["shift"], p["out_zp"], p["lo"], p["hi"]]
        elif quantized:
            args += [p["lo"], p["hi"]]
        return [ctx.call(op.kernel, args)]
