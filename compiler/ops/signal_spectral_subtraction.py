"""CUSTOM:SignalFilterBankSpectralSubtraction lowering (TFLite Micro's signal library): the uint32 filter bank minus
a running noise estimate (output 0) and that estimate (output 1).  The estimate persists from one run to the next
in the model's state buffer (OpLowering.state_bytes; zero after <prefix>_reset, as after TFLite Micro's Prepare or
Reset).  The nine parameters come from the FlexBuffer custom options and are passed as a const int32 array."""

import numpy as np

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.checks import require_same_shape
from .common.signal import require_rank1, require_signal_types

# Order of the kernel's config array (crt/include/aot/kernels/signal.h).
_CONFIG = (
    "smoothing",
    "one_minus_smoothing",
    "alternate_smoothing",
    "alternate_one_minus_smoothing",
    "min_signal_remaining",
    "smoothing_bits",
    "spectral_subtraction_bits",
)


@register
class SignalSpectralSubtraction(OpLowering):
    builtins = ("CUSTOM:SignalFilterBankSpectralSubtraction",)
    dtypes = ("uint32",)
    num_outputs = (2, 2)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("uint32",), ("uint32", "uint32"))
        require_rank1(op, op.input(0), *op.outputs)
        require_same_shape(op, op.input(0), op.outputs[0])
        require_same_shape(op, op.input(0), op.outputs[1], "input", "noise estimate")
        values = [custom_option(op, name) for name in _CONFIG]
        custom_option(op, "clamping", (bool,))
        channels = custom_option(op, "num_channels")
        if (
            channels != op.input(0).shape[0]
            or not all(0 <= v <= 31 for v in values[5:])
            or not all(-(1 << 31) <= v < (1 << 31) for v in values)
        ):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): num_channels {channels} for {op.input(0).shape[0]} channels, "
                f"smoothing_bits {values[5]}, spectral_subtraction_bits {values[6]}; num_channels must be the "
                "input's length, the shifts 0..31 and the coefficients 32-bit."
            )

    def state_bytes(self, op):
        return 4 * op.input(0).shape[0]  # the noise estimate, one uint32 per channel

    def prepare(self, op):
        config = [custom_option(op, name) for name in _CONFIG] + [int(custom_option(op, "clamping", (bool,)))]
        op.params = dict(size=op.input(0).shape[0], config=np.array(config, np.int64).astype(np.int32))
        op.kernel = "aot_signal_spectral_subtraction"

    def emit(self, op, ctx):
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.outputs[0]),
                    ctx.ptr(op.outputs[1]),
                    ctx.op_state(op, "uint32_t"),
                    op.params["size"],
                    ctx.param(f"op{op.index}_spectral_subtraction", op.params["config"], "int32_t"),
                ],
            )
        ]
