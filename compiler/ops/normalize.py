"""LOG_SOFTMAX and L2_NORMALIZATION in float32, over the last dimension as TFLite Micro's reference kernels do
(aot/kernels/normalize.h). Their int8 forms (TFLite Micro's fixed-point arithmetic) are refused by name."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from ._common import unary_check


@register
class Normalize(OpLowering):
    builtins = ("LOG_SOFTMAX", "L2_NORMALIZATION")
    dtypes = ("float32", "int8")
    header = "aot/kernels/normalize.h"

    def check(self, op):
        if unary_check(op, self.dtypes) == "int8":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) on int8 tensor '{op.input(0).name}': the "
                f"quantized {op.kind} is not supported yet; {op.kind} is supported for float32."
            )
        if op.kind == "L2_NORMALIZATION" and int(op.options.get("FusedActivationFunction", 0)) != 0:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) has a fused activation; TFLite Micro supports none there."
            )

    def prepare(self, op):
        shape = [int(d) for d in op.input(0).shape]
        depth = shape[-1] if shape else 1
        op.kernel = f"aot_{op.kind.lower()}_f32"
        op.params = dict(rows=op.input(0).num_elements // max(depth, 1), depth=depth)

    def emit(self, op, ctx):
        p = op.params
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["rows"], p["depth"]])]
