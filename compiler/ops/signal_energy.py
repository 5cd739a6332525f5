"""CUSTOM:SignalEnergy lowering (TFLite Micro's signal library): the power re^2 + im^2 (uint32) of the int16
complex spectrum's bins start_index .. end_index-1; the bounds come from the FlexBuffer custom options.  Bins
outside that range are written as 0 (TFLite Micro leaves them unwritten: the models slice them away)."""

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.signal import require_rank1, require_signal_types


@register
class SignalEnergy(OpLowering):
    builtins = ("CUSTOM:SignalEnergy",)
    dtypes = ("uint32",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("int16",), ("uint32",))
        inp, out = op.input(0), op.output
        require_rank1(op, inp, out)
        start, end = custom_option(op, "start_index"), custom_option(op, "end_index")
        if inp.shape[0] < 2 * out.shape[0] or not 0 <= start <= end <= out.shape[0]:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input '{inp.name}' {list(inp.shape)}, output '{out.name}' "
                f"{list(out.shape)}, bins {start}..{end}: the input must hold two int16 values (re, im) per output "
                "bin and 0 <= start_index <= end_index <= output length."
            )

    def prepare(self, op):
        op.params = dict(
            size=op.output.shape[0], start=custom_option(op, "start_index"), end=custom_option(op, "end_index")
        )
        op.kernel = "aot_signal_energy_s16"

    def emit(self, op, ctx):
        p = op.params
        return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], p["start"], p["end"]])]
