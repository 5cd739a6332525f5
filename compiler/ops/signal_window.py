"""CUSTOM:SignalWindow lowering (TFLite Micro's signal library): out = saturate_int16((in * w) >> shift), the int16
window w applied to every frame of len(w) samples of the int16 input; `shift` is read from the FlexBuffer custom
options at compile time."""

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.checks import require_same_shape
from .common.signal import require_signal_types


@register
class SignalWindow(OpLowering):
    builtins = ("CUSTOM:SignalWindow",)
    dtypes = ("int16",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("int16", "int16"), ("int16",))
        inp, w = op.input(0), op.input(1)
        require_same_shape(op, inp, op.output)
        if len(w.shape) != 1 or w.shape[0] <= 0 or inp.num_elements % w.shape[0]:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): window '{w.name}' of shape {list(w.shape)} does not divide the "
                f"{inp.num_elements} input samples into whole frames; the window must be rank 1."
            )
        shift = custom_option(op, "shift")
        if not 0 <= shift <= 31:
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): shift {shift} is outside 0..31.")

    def inplace_input(self, op):
        return 0  # element i of the input is read just before element i of the output is written

    def prepare(self, op):
        op.params = dict(size=op.output.num_elements, frame=op.input(1).shape[0], shift=custom_option(op, "shift"))
        op.kernel = "aot_signal_window_s16"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output), p["size"], p["frame"], p["shift"]],
            )
        ]
