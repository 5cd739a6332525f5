"""HARD_SWISH lowering (int8, float32).

int8 reproduces TFLite's 16-bit fixed-point reference kernel.  Its two
multipliers are derived here exactly as TFLite Micro's Prepare does: the
scale ratios in float32, QuantizeMultiplier, then rounding to Q0.15.
"""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import downscale_multiplier_to_int16, quantize_multiplier
from .common import lut_s8 as _lut_s8
from ._base import OpLowering, register
from .kernel_table import offer_table
from .common.checks import unary_check


def _multipliers(op):
    si, _ = op.input(0).quant.scalar()
    so, _ = op.output.quant.scalar()
    # float32 arithmetic on purpose: the reference computes these ratios in float.
    hires = np.float32(1.0 / 128.0) * np.float32(si)
    reluish_scale = np.float32(3.0) / np.float32(32768.0)
    out_m, out_e = quantize_multiplier(float(np.float32(hires / np.float32(so))))
    rel_m, rel_e = quantize_multiplier(float(np.float32(hires / reluish_scale)))
    return (downscale_multiplier_to_int16(rel_m), rel_e, downscale_multiplier_to_int16(out_m), out_e)


@register
class HardSwish(OpLowering):
    builtins = ("HARD_SWISH",)
    elementwise = True
    header = "aot/kernels/hard_swish.h"

    def check(self, op):
        super().check(op)
        if unary_check(op) != "int8":
            return
        _, rel_e, _, out_e = _multipliers(op)
        inp, out = op.input(0), op.output
        si, so = inp.quant.scalar()[0], out.quant.scalar()[0]
        # TFLite Micro itself rejects out_e > 0; shifts past 15 bits would need
        # int16 corner cases of the reference that no real quantization reaches.
        if out_e > 0 or out_e < -15 or rel_e < -15:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' (scale {si:.9g}) and "
                f"output '{out.name}' (scale {so:.9g}) are outside what int8 HARD_SWISH "
                "supports: input_scale / (128 * output_scale) must lie in [2^-16, 1) and "
                "input_scale must be at least about 1.8e-7."
            )

    def prepare(self, op):
        inp = op.input(0)
        p = dict(size=inp.num_elements)
        if inp.dtype == "int8":
            rel_m, rel_e, out_m, out_e = _multipliers(op)
            p.update(
                in_zp=inp.quant.scalar()[1],
                out_zp=op.output.quant.scalar()[1],
                rel_m=rel_m,
                rel_e=rel_e,
                out_m=out_m,
                out_e=out_e,
            )
            op.kernel = "aot_hard_swish_s8"
        else:
            op.kernel = "aot_hard_swish_f32"
        op.params = p
        offer_table(op)

    def headers(self, op):
        return _lut_s8.headers(op, self.header)

    def emit(self, op, ctx):
        if _lut_s8.is_table(op):
            return _lut_s8.emit_table(op, ctx)
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"]]
        if op.output.dtype == "int8":
            args += [p["in_zp"], p["out_zp"], p["rel_m"], p["rel_e"], p["out_m"], p["out_e"]]
        return [ctx.call(op.kernel, args)]
