"""CUMSUM along one constant axis, with TFLite's exclusive and reverse options, in the types TFLite Micro's kernel
takes: float32, and int8 with TFLite Micro's rescaling (the input shifted left 20 bits and halved into a 32-bit
running sum, rescaled to the output: the multipliers are computed here as its Prepare does). int16 is refused
(TFLite Micro's CUMSUM does not take it either)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..quant_math import QuantRangeError, quantize_multiplier_smaller_than_one
from ._base import OpLowering, register
from .common.checks import const_int_array, require_inputs, require_quant, require_same_dtype, require_same_shape

# TFLite Micro's kCumSumIntegerShift (also AOT_CUMSUM_LEFT_SHIFT in crt/src/kernels/cumsum_s8.c).
LEFT_SHIFT = 20


def _s8_params(op) -> list:
    """[input_offset, in_multiplier, in_shift, out_multiplier, out_shift, output_offset] as TFLite Micro's Prepare
    computes them (in double precision from the float32 scales)."""
    (s_in, z_in), (s_out, z_out) = (
        require_quant(op, op.input(0), "input").scalar(),
        require_quant(op, op.output, "output").scalar(),
    )
    s_in, s_out = float(np.float32(s_in)), float(np.float32(s_out))
    twice = 2.0 * s_in
    try:
        m_in, sh_in = quantize_multiplier_smaller_than_one(s_in / twice)
        m_out, sh_out = quantize_multiplier_smaller_than_one(twice / ((1 << LEFT_SHIFT) * s_out))
    except QuantRangeError as e:
        raise UnsupportedError(
            f"Operator {op.index} (CUMSUM): input '{op.input(0).name}' (scale {s_in:.6g}) and output "
            f"'{op.output.name}' (scale {s_out:.6g}): {e}; TFLite Micro's int8 CUMSUM needs input scale / output "
            f"scale below 2^{LEFT_SHIFT - 1}."
        ) from None
    return [-int(z_in), m_in, sh_in, m_out, sh_out, int(z_out)]


@register
class Cumsum(OpLowering):
    builtins = ("CUMSUM",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/cumsum.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        dtype = require_same_dtype(op, op.input(0), op.output)
        require_same_shape(op, op.input(0), op.output)
        self._axis(op)
        if dtype == "int8":
            _s8_params(op)

    @staticmethod
    def _axis(op) -> int:
        rank = len(op.input(0).shape)
        a = const_int_array(op, op.input(1), "the axis operand").reshape(-1)
        if a.size != 1 or not -rank <= int(a[0]) < rank:
            raise CompileError(f"Operator {op.index} (CUMSUM): axis {a.tolist()} for a rank-{rank} input.")
        return int(a[0]) % rank

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        axis = self._axis(op)
        int8 = op.output.dtype == "int8"
        op.kernel = "aot_cumsum_s8" if int8 else "aot_cumsum_f32"
        op.params = dict(
            outer=int(np.prod(shape[:axis])),
            n=shape[axis],
            inner=int(np.prod(shape[axis + 1 :])),
            exclusive=int(bool(op.options.get("Exclusive", False))),
            reverse=int(bool(op.options.get("Reverse", False))),
            q=_s8_params(op) if int8 else None,
        )

    def emit(self, op, ctx):
        p = op.params
        args = [
            ctx.ptr(op.input(0)),
            ctx.ptr(op.output),
            p["outer"],
            p["n"],
            p["inner"],
            p["exclusive"],
            p["reverse"],
        ]
        if p["q"] is not None:
            args.append(ctx.param(f"op{op.index}_q", p["q"], "int32_t"))
        return [ctx.call(op.kernel, args)]
