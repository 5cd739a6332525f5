"""L2_NORMALIZATION over the last dimension, as TFLite Micro's reference kernels: float32 (x / max(sqrt(sum(x*x)),
1e-6), aot/kernels/normalize.h) and int8 (crt/src/kernels/l2_normalization_s8.c: a fixed-point inverse square root
of the row's sum of squares; the result is in scale 1/128, zero point 0, whatever the output tensor says, as in
TFLite Micro).  TFLite Micro's L2_NORMALIZATION takes no int16, no fused activation and at most 4 dimensions."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_quant, unary_check

# Rows whose int32 sum of squares (each at most 255^2) cannot overflow.
MAX_DEPTH = (2**31 - 1) // (255 * 255)


@register
class L2Normalization(OpLowering):
    builtins = ("L2_NORMALIZATION",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/normalize.h"

    def check(self, op):
        dtype = unary_check(op, self.dtypes)
        if int(op.options.get("FusedActivationFunction", 0)) != 0:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) has a fused activation; TFLite Micro supports none there."
            )
        shape = op.input(0).shape
        if dtype == "int8" and len(shape) > 4:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on int8 tensor '{op.input(0).name}' of rank {len(shape)}; "
                "TFLite Micro's L2_NORMALIZATION takes at most 4 dimensions."
            )
        if dtype == "int8" and shape and int(shape[-1]) > MAX_DEPTH:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on int8 tensor '{op.input(0).name}': rows of {int(shape[-1])} "
                f"values; TFLite Micro's int32 sum of squares may overflow beyond {MAX_DEPTH}, the longest row "
                "supported."
            )

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        depth = shape[-1] if shape else 1
        op.params = dict(rows=op.input(0).num_elements // max(depth, 1), depth=depth)
        if op.input(0).dtype == "int8":
            op.params["in_zp"] = require_quant(op, op.input(0), "input").scalar()[1]
            op.kernel = "aot_l2_normalization_s8"
        else:
            op.kernel = "aot_l2_normalization_f32"

    def emit(self, op, ctx):
        p = op.params
        args = [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["rows"], p["depth"]]
        if op.input(0).dtype == "int8":
            args.append(p["in_zp"])
        return [ctx.call(op.kernel, args)]
