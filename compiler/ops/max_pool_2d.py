"""MAX_POOL_2D lowering (int8 and float32)."""

from ._base import OpLowering, register
from ._pool_common import check_pool, pool_args, pool_params


@register
class MaxPool2D(OpLowering):
    builtins = ("MAX_POOL_2D",)
    header = "aot/kernels/pooling.h"

    def check(self, op):
        super().check(op)
        check_pool(op)

    def prepare(self, op):
        op.params = pool_params(op)
        op.kernel = "aot_max_pool_s8" if op.output.dtype == "int8" else "aot_max_pool_f32"

    def emit(self, op, ctx):
        return [ctx.call(op.kernel, pool_args(op, ctx))]
