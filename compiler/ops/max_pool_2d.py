"""MAX_POOL_2D lowering (int8, int16 and float32)."""

from ._base import OpLowering, register
from .common.pool import POOL_SUFFIX, check_pool, pool_args, pool_params


@register
class MaxPool2D(OpLowering):
    builtins = ("MAX_POOL_2D",)
    dtypes = tuple(POOL_SUFFIX)
    header = "aot/kernels/pooling.h"

    def check(self, op):
        super().check(op)
        check_pool(op)

    def prepare(self, op):
        op.params = pool_params(op)
        op.kernel = f"aot_max_pool_{POOL_SUFFIX[op.output.dtype]}"

    def emit(self, op, ctx):
        return [ctx.call(op.kernel, pool_args(op, ctx))]
