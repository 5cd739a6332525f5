"""CUSTOM:SignalFilterBankLog lowering (TFLite Micro's signal library): out = min(32767, round(output_scale * ln(x <<
input_correction_bits))) per uint32 channel, in TFLite Micro's fixed point (a 16-bit log2 whose fractional part is
the linear fraction corrected by a 129-point table of log2(1 + f) - f, interpolated), 0 where the shifted value is
0 or 1.  The correction table is computed here at compile time and passed to the kernel as a const array."""

import numpy as np

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.checks import require_same_shape
from .common.signal import require_rank1, require_signal_types

LOG_SEGMENTS = 128


def log2_correction_table() -> np.ndarray:
    """round(65536 * (log2(1 + i/128) - i/128)) for i = 0..128, plus one padding entry (0): the correction the
    kernel interpolates between the linear fraction and log2 of the mantissa."""
    i = np.arange(LOG_SEGMENTS + 1, dtype=np.float64)
    table = np.floor(65536.0 * (np.log2(1.0 + i / LOG_SEGMENTS) - i / LOG_SEGMENTS) + 0.5).astype(np.int64)
    return np.append(table, 0).astype(np.uint16)


@register
class SignalFilterBankLog(OpLowering):
    builtins = ("CUSTOM:SignalFilterBankLog",)
    dtypes = ("int16",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        require_signal_types(op, ("uint32",), ("int16",))
        require_rank1(op, op.input(0), op.output)
        require_same_shape(op, op.input(0), op.output)
        bits, scale = custom_option(op, "input_correction_bits"), custom_option(op, "output_scale")
        if not 0 <= bits <= 31 or not 0 <= scale < (1 << 31):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input_correction_bits {bits} / output_scale {scale}; supported "
                "are 0..31 bits and a non-negative 31-bit scale."
            )

    def prepare(self, op):
        op.params = dict(
            size=op.output.shape[0],
            bits=custom_option(op, "input_correction_bits"),
            scale=custom_option(op, "output_scale"),
            table=log2_correction_table(),
        )
        op.kernel = "aot_signal_filter_bank_log"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    p["size"],
                    p["bits"],
                    p["scale"],
                    ctx.param("signal_log2_table", p["table"], "uint16_t"),
                ],
            )
        ]
