"""CUSTOM:SignalFilterBank lowering (TFLite Micro's signal library): triangular mel filters over a uint32 energy
spectrum, each channel the 64-bit sum of weight * energy over its band plus the previous channel's band times its
unweight.  The five configuration operands (weights, unweights, per-channel band starts, weight starts and widths,
num_channels + 1 entries each) must be constants: their ranges are checked here, so the kernel never reads outside
the spectrum or the weight arrays.  The output (uint64) stays inside the model: two uint32 words per channel."""

import numpy as np

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.checks import require_const
from .common.signal import require_rank1, require_signal_types

_CONFIG = ("weights", "unweights", "channel frequency starts", "channel weight starts", "channel widths")


@register
class SignalFilterBank(OpLowering):
    builtins = ("CUSTOM:SignalFilterBank",)
    dtypes = ("uint64",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("uint32",) + ("int16",) * 5, ("uint64",))
        require_rank1(op, *op.inputs, op.output)
        for t, what in zip(op.inputs[1:], _CONFIG):
            require_const(op, t, what)
        channels = custom_option(op, "num_channels")
        w, uw, fs, ws, wd = (np.asarray(t.data, np.int64) for t in op.inputs[1:])
        n_in = op.input(0).shape[0]
        bad = None
        if channels != op.output.shape[0] or channels < 1:
            bad = f"num_channels {channels} is not the output's length {op.output.shape[0]}"
        elif len(w) != len(uw) or not len(fs) == len(ws) == len(wd) == channels + 1:
            bad = "the weights and unweights differ in length or the band tables do not hold num_channels + 1 entries"
        elif np.any(wd < 0) or np.any(fs < 0) or np.any(ws < 0) or np.any(fs + wd > n_in) or np.any(ws + wd > len(w)):
            bad = (
                f"a band reaches outside the {n_in}-bin spectrum or the {len(w)} weights (or has a negative "
                "start or width)"
            )
        if bad:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): {bad}; the filter bank's configuration must "
                "describe bands inside its input and weights."
            )

    def prepare(self, op):
        op.params = dict(channels=op.output.shape[0])
        op.kernel = "aot_signal_filter_bank"

    def emit(self, op, ctx):
        return [ctx.call(op.kernel, [ctx.ptr(t) for t in op.inputs] + [ctx.ptr(op.output), op.params["channels"]])]
