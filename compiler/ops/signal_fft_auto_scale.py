"""CUSTOM:SignalFftAutoScale lowering (TFLite Micro's signal library): the int16 frame shifted left by the largest
amount that keeps its peak inside int16 (output 0), and that amount as an int32 scalar (output 1), which the
model later uses to undo the scaling."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_same_shape
from .common.signal import require_rank1, require_signal_types


@register
class SignalFftAutoScale(OpLowering):
    builtins = ("CUSTOM:SignalFftAutoScale",)
    dtypes = ("int16",)
    num_outputs = (2, 2)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("int16",), ("int16", "int32"))
        require_rank1(op, op.input(0), op.outputs[0])
        require_same_shape(op, op.input(0), op.outputs[0])
        if op.outputs[1].num_elements != 1:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): scale output '{op.outputs[1].name}' has "
                f"shape {list(op.outputs[1].shape)}; it must be one int32 value."
            )

    def prepare(self, op):
        op.params = dict(size=op.outputs[0].shape[0])
        op.kernel = "aot_signal_fft_auto_scale_s16"

    def emit(self, op, ctx):
        return [
            ctx.call(
                op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.outputs[0]), ctx.ptr(op.outputs[1]), op.params["size"]]
            )
        ]
