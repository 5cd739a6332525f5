"""CUSTOM:SignalFilterBankSquareRoot lowering (TFLite Micro's signal library): out = isqrt(x) >> scale_bits per
uint64 channel, with TFLite Micro's rounding (the bit-by-bit root, rounded up when the remainder exceeds it; a value
below 2^32 takes the 32-bit root, whose result is at most 65535).  scale_bits is the int32 scalar second input."""

from ..errors import UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_same_shape
from .common.signal import require_rank1, require_signal_types


@register
class SignalFilterBankSquareRoot(OpLowering):
    builtins = ("CUSTOM:SignalFilterBankSquareRoot",)
    dtypes = ("uint32",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("uint64", "int32"), ("uint32",))
        require_rank1(op, op.input(0), op.output)
        require_same_shape(op, op.input(0), op.output)
        bits = op.input(1)
        if bits.num_elements != 1:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): scale bits '{bits.name}' has shape "
                f"{list(bits.shape)}; it must be one int32 value."
            )
        if bits.is_const and not 0 <= int(bits.data.reshape(-1)[0]) <= 31:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): scale bits {int(bits.data.reshape(-1)[0])} is outside 0..31."
            )

    def prepare(self, op):
        op.params = dict(size=op.output.shape[0])
        op.kernel = "aot_signal_filter_bank_sqrt"

    def emit(self, op, ctx):
        return [
            ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output), op.params["size"]])
        ]
