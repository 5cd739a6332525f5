"""CUSTOM:SignalPCAN lowering (TFLite Micro's signal library): per-channel amplitude normalization of the uint32
filter bank by its uint32 noise estimate, through the int16 gain table (constant; 3 + 4 per octave entries) and
`snr_shift` from the FlexBuffer custom options."""

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.checks import require_const, require_same_shape
from .common.signal import require_rank1, require_signal_types

# The gain of a value with top bit e (2..32) reads table entries 4e - 6 .. 4e - 4.
_TABLE_ENTRIES = 4 * 32 - 3


@register
class SignalPcan(OpLowering):
    builtins = ("CUSTOM:SignalPCAN",)
    dtypes = ("uint32",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("uint32", "uint32", "int16"), ("uint32",))
        inp, noise, table = op.inputs
        require_rank1(op, inp, noise, table, op.output)
        require_same_shape(op, inp, op.output)
        require_same_shape(op, inp, noise, "input", "noise estimate")
        require_const(op, table, "gain table")
        shift = custom_option(op, "snr_shift")
        if table.shape[0] < _TABLE_ENTRIES or not 0 <= shift <= 63:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): gain table '{table.name}' has {table.shape[0]} entries and "
                f"snr_shift is {shift}; the table needs {_TABLE_ENTRIES} entries (every octave of a uint32 noise "
                "estimate) and the shift must be 0..63."
            )

    def prepare(self, op):
        op.params = dict(size=op.output.shape[0], shift=custom_option(op, "snr_shift"))
        op.kernel = "aot_signal_pcan"

    def emit(self, op, ctx):
        return [
            ctx.call(
                op.kernel, [ctx.ptr(t) for t in op.inputs] + [ctx.ptr(op.output), op.params["size"], op.params["shift"]]
            )
        ]
