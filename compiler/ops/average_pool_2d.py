"""AVERAGE_POOL_2D lowering (int8, int16 and float32)."""

from ._base import OpLowering, register
from .common.pool import POOL_SUFFIX, check_pool, pool_args, pool_params
from .kernel_table import Layer, select


@register
class AveragePool2D(OpLowering):
    builtins = ("AVERAGE_POOL_2D",)
    dtypes = tuple(POOL_SUFFIX)
    header = "aot/kernels/pooling.h"

    def check(self, op):
        super().check(op)
        check_pool(op)

    def prepare(self, op):
        op.params = pool_params(op)
        if op.output.dtype == "int8":
            # The kernel table: the Helium kernel on the Cortex-M55, the portable one elsewhere.
            select(op, op.params, Layer())
        else:
            op.kernel = f"aot_avg_pool_{POOL_SUFFIX[op.output.dtype]}"

    def emit(self, op, ctx):
        # Returns a status: an empty window (impossible for valid shapes) is an error.
        return ctx.checked_call(op.kernel, pool_args(op, ctx))
