"""SUB lowering with broadcasting (int8, int16, float32): ADD's parameters with the second input subtracted, as in
TFLite's reference SUB (int8 SUB uses the short arithmetic and the row kernels too: aot_sub_s8_elementwise,
aot_sub_s8_rows, aot_sub_s8_rows_mve, chosen by the kernel table)."""

from ._base import register
from .add import Add


@register
class Sub(Add):
    builtins = ("SUB",)
    header = "aot/kernels/sub.h"
    subtract = True
    kernels = ("aot_sub_s8", "aot_sub_s8_elementwise", "aot_sub_f32", "aot_sub_s16")
