"""DIV lowering with broadcasting (float32 only; int8 DIV is refused by the dtype check)."""

from ._base import register
from .sub import Sub


@register
class Div(Sub):
    builtins = ("DIV",)
    dtypes = ("float32",)
    header = "aot/kernels/div.h"

    def emit(self, op, ctx):
        lines = super().emit(op, ctx)
        return [line.replace("aot_sub_f32", "aot_div_f32", 1) for line in lines]

    def prepare(self, op):
        super().prepare(op)
        op.kernel = "aot_div_f32"
