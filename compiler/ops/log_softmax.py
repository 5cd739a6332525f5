"""LOG_SOFTMAX over the last dimension, as TFLite Micro's reference kernels: float32 (x - max - log(sum(exp(x -
max))), aot/kernels/normalize.h) and int8 (crt/src/kernels/log_softmax_s8.c: gemmlowp fixed point, output scale
16/256 and zero point 127 as TFLite requires).  TFLite Micro's LOG_SOFTMAX takes no int16.

int8 parameters are TFLite's PreprocessLogSoftmaxScalingExp with beta 1 and 5 integer bits for the differences.
Input scales whose parameters TFLite Micro's Prepare rejects (its checks abort) are refused, as are rows longer
than 4096, where the Q12.19 sum of exponentials can overflow."""

import numpy as np

from ..errors import UnsupportedError
from ..quant_math import calculate_input_radius, quantize_multiplier
from ._base import OpLowering, register
from .common.checks import require_quant, unary_check

FIELDS = ("input_multiplier", "input_left_shift", "reverse_scaling_divisor", "reverse_scaling_shift", "diff_min")
# Integer bits of the rescaled input differences (Q5.26) and the output's fixed quantization.
SCALED_DIFF_INTEGER_BITS = 5
OUTPUT_SCALE, OUTPUT_ZERO_POINT = 16.0 / 256, 127
MAX_DEPTH = 4096


def log_softmax_s8_params(op) -> dict:
    inp, out = op.input(0), op.output
    si, _ = require_quant(op, inp, "input").scalar()
    so, zo = require_quant(op, out, "output").scalar()
    if np.float32(so) != np.float32(OUTPUT_SCALE) or zo != OUTPUT_ZERO_POINT:
        raise UnsupportedError(
            f"Operator {op.index} (LOG_SOFTMAX): int8 output '{out.name}' has scale {so:.9g} and zero point {zo}; "
            "TFLite Micro requires scale 16/256 (0.0625) and zero point 127."
        )
    depth = int(inp.shape[-1]) if len(inp.shape) else 1
    if depth > MAX_DEPTH:
        raise UnsupportedError(
            f"Operator {op.index} (LOG_SOFTMAX) on int8 tensor '{inp.name}': rows of {depth} values; TFLite "
            f"Micro's fixed-point sum of exponentials holds at most {MAX_DEPTH} (Q12.19), so int8 LOG_SOFTMAX is "
            f"supported for a last dimension up to {MAX_DEPTH}."
        )
    real = min(float(np.float32(si)) * float(1 << (31 - SCALED_DIFF_INTEGER_BITS)), float((1 << 31) - 1))
    mult, left = quantize_multiplier(real) if real > 1.0 else (0, 0)
    reverse = (float(1 << (31 - left)) / float(mult)) if 1 <= left <= 31 else 2.0
    if real <= 1.0 or not 0.0 < reverse < 1.0:
        raise UnsupportedError(
            f"Operator {op.index} (LOG_SOFTMAX) on int8 tensor '{inp.name}' with scale {si:.6g}: TFLite Micro's "
            "int8 LOG_SOFTMAX rescales input differences by input_scale * 2^26 into a multiplier greater than one "
            "and its inverse into one smaller than one; this scale gives neither (its Prepare aborts), so int8 "
            "LOG_SOFTMAX is supported for input scales from about 1.5e-8 to 16."
        )
    rev_mult, rev_shift = quantize_multiplier(reverse)
    return dict(
        input_multiplier=mult,
        input_left_shift=left,
        reverse_scaling_divisor=rev_mult,
        reverse_scaling_shift=rev_shift,
        diff_min=-calculate_input_radius(SCALED_DIFF_INTEGER_BITS, left),
    )


@register
class LogSoftmax(OpLowering):
    builtins = ("LOG_SOFTMAX",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/normalize.h"

    def check(self, op):
        if unary_check(op, self.dtypes) == "int8":
            log_softmax_s8_params(op)

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        depth = shape[-1] if shape else 1
        op.params = dict(rows=op.input(0).num_elements // max(depth, 1), depth=depth)
        if op.input(0).dtype == "int8":
            op.params["s8"] = log_softmax_s8_params(op)
            op.kernel = "aot_log_softmax_s8"
        else:
            op.kernel = "aot_log_softmax_f32"

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["rows"], p["depth"]]
        if op.input(0).dtype == "int8":
            args.append(
                ctx.param_struct(
                    f"op{op.index}_log_softmax", "aot_log_softmax_s8_params", FIELDS, [p["s8"][k] for k in FIELDS]
                )
            )
        return [ctx.call(op.kernel, args)]
