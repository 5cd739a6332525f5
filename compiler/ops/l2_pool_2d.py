"""L2_POOL_2D (float32, as in TFLite Micro): the pooling window and padding of AVERAGE_POOL_2D, sqrt of the mean of
the squares."""

from ._base import OpLowering, register
from .common.pool import check_pool, pool_args, pool_params


@register
class L2Pool2D(OpLowering):
    builtins = ("L2_POOL_2D",)
    dtypes = ("float32",)
    header = "aot/kernels/pooling.h"

    def check(self, op):
        super().check(op)
        check_pool(op)

    def prepare(self, op):
        op.params = pool_params(op)
        op.kernel = "aot_l2_pool_f32"

    def emit(self, op, ctx):
        return ctx.checked_call(op.kernel, pool_args(op, ctx))
