"""int16x8 layers (int16 activations with zero point 0, int8 weights): the checks and requantization parameters
shared by CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV.

TFLite accumulates such a layer in int32 when its bias is int32 and in int64 when it is int64 (the usual case),
with a different requantization for each.  Our kernels hold no 64-bit value outside one CRT helper
(aot_requant_acc64, crt/include/aot/requant.h); `acc16_params` picks per layer the form that is exact
(crt/include/aot/kernels/acc16_inline.h) and records it as params["acc16"] for reports:
  "int32"    int32 bias: TFLite's int32 accumulator, computed as such;
  "narrowed" int64 bias narrowed to int32 at compile time, proven exact: for every channel
             |bias| + 32768 * sum|w| < 2^31, so no int32 sum of the layer can differ from TFLite's int64 one;
  "wide"     otherwise: the bias stays 64-bit as two int32 words per channel and the kernel keeps two int32
             sums split by the input's low byte, which the helper combines in 64 bits.
"""

import numpy as np

from ...errors import UnsupportedError
from ...quant_math import quantize_value_f32
from .checks import require_quant
from .multipliers import channel_multipliers

MODES = {"int32": 0, "narrowed": 1, "wide": 2}  # AOT_ACC16_* in acc16_inline.h
TFLITE_INT32 = 2  # TensorType.INT32 (the options' QuantizedBiasType)
WIDE_MAX_TAPS = 65535  # each split int32 sum holds at most this many products
ACC64_LIMIT = 1 << 47  # TFLite's int64 requantization assumes |acc| < 2^47


def is_int16_layer(op) -> bool:
    return op.output.dtype == "int16"


# Bias types TFLite Micro's int16 kernels read: int32 selects its int32 accumulator (CONV_2D, FULLY_CONNECTED);
# DEPTHWISE_CONV_2D reads int64 only; TRANSPOSE_CONV int64, or int16 which it widens to int64.
BIAS_DTYPES = {
    "CONV_2D": ("int32", "int64"),
    "FULLY_CONNECTED": ("int32", "int64"),
    "DEPTHWISE_CONV_2D": ("int64",),
    "TRANSPOSE_CONV": ("int16", "int64"),
}


def check_int16_layer(op, inp, filt, bias, out, channel_axis: int) -> None:
    """int16 input and output (zero point 0), symmetric int8 filter per tensor or along channel_axis, a bias of
    a type TFLite Micro reads for the op (or none)."""
    what = f"Operator {op.index} ({op.kind})"
    for t, role in ((inp, "input"), (out, "output")):
        if t.dtype != "int16":
            raise UnsupportedError(
                f"{what}: {role} '{t.name}' is {t.dtype}; the int16x8 form of {op.kind} needs int16 input and "
                "output with int8 weights."
            )
        q = require_quant(op, t, role)
        if int(q.zero_point[0]) != 0:
            raise UnsupportedError(
                f"{what}: int16 {role} '{t.name}' has zero point {int(q.zero_point[0])}; int16 activations "
                "must be symmetric (zero point 0), as TFLite's 16x8 quantization requires."
            )
    fq = require_quant(op, filt, "filter", per_channel_ok=True)
    if filt.dtype != "int8" or np.any(fq.zero_point != 0):
        raise UnsupportedError(
            f"{what}: filter '{filt.name}' is {filt.dtype}; int16 layers need symmetric int8 filters (zero point 0)."
        )
    if fq.per_channel and fq.axis != channel_axis:
        raise UnsupportedError(
            f"{what}: filter '{filt.name}' is quantized along axis {fq.axis}; per-channel quantization must be "
            f"along the output channel axis {channel_axis}."
        )
    allowed = BIAS_DTYPES[op.kind]
    if bias is not None and bias.dtype not in allowed:
        raise UnsupportedError(
            f"{what}: bias '{bias.name}' is {bias.dtype}; the int16x8 form of {op.kind} takes "
            f"{' or '.join(allowed)} biases."
        )


def activation_range_int16(name: str, scale: float) -> tuple[int, int]:
    """TFLite CalculateActivationRangeQuantized for int16 outputs (zero point 0)."""
    lo, hi = -32768, 32767
    q = lambda v: quantize_value_f32(v, scale, 0)  # noqa: E731
    return {
        "NONE": (lo, hi),
        "RELU": (max(lo, q(0.0)), hi),
        "RELU6": (max(lo, q(0.0)), min(hi, q(6.0))),
        "RELU_N1_TO_1": (max(lo, q(-1.0)), min(hi, q(1.0))),
    }[name]


def reduced_multiplier(m: int) -> int:
    """TFLite's int64 MultiplyByQuantizedMultiplier rounds the Q0.31 multiplier to 15 bits."""
    return (m + (1 << 15)) >> 16 if m < 0x7FFF0000 else 0x7FFF


def acc16_params(op, inp, filt, bias, out, rows: np.ndarray, channels: int, act: str) -> dict:
    """Kernel parameters of an int16x8 layer whose weights, one row per output channel, are `rows`:
    mode, mult/shift arrays (for the 64-bit forms the reduced multiplier and total shift), the bias array
    (int32, two words per channel in the wide form, or None) and the activation range."""
    mult, shift = channel_multipliers(op, inp, filt, out, channels)
    b = None if bias is None else bias.data.astype(np.int64).reshape(-1)
    if b is not None and b.size != channels:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): bias '{bias.name}' has {b.size} values for {channels} channels."
        )
    act_range = activation_range_int16(act, float(out.quant.scale[0]))
    int32_acc = "int32" in BIAS_DTYPES[op.kind] and (
        (bias is not None and bias.dtype == "int32")
        or (bias is None and op.options.get("QuantizedBiasType") == TFLITE_INT32)
    )
    if int32_acc:
        return dict(
            acc16="int32",
            mode=MODES["int32"],
            mult=mult,
            shift=shift,
            bias=None if b is None else b.astype(np.int32),
            act=act_range,
        )
    if np.any(shift > 14):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): an output channel's rescaling factor is at least 2^14; TFLite's "
            "64-bit requantization of int16 layers (a right shift by 15 - shift) supports shifts up to 14."
        )
    rm = np.array([reduced_multiplier(int(m)) for m in mult], np.int32)
    ts = (15 - shift).astype(np.int32)
    bias_abs = np.zeros(channels, np.int64) if b is None else np.abs(b)
    bound = bias_abs + 32768 * np.abs(rows.astype(np.int64)).sum(axis=1)
    if int(bound.max(initial=0)) < (1 << 31):
        return dict(
            acc16="narrowed",
            mode=MODES["narrowed"],
            mult=rm,
            shift=ts,
            bias=None if b is None else b.astype(np.int32),
            act=act_range,
        )
    if rows.shape[1] > WIDE_MAX_TAPS or int(bound.max()) >= ACC64_LIMIT:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): the int64 accumulator of this int16 layer may reach "
            f"{int(bound.max())} over {rows.shape[1]} taps; supported are sums below 2^47 over at most "
            f"{WIDE_MAX_TAPS} taps per output."
        )
    words = None
    if b is not None:
        u = b.astype(np.uint64)
        words = np.stack([(u & np.uint64(0xFFFFFFFF)), u >> np.uint64(32)], axis=1).astype(np.uint32)
        words = words.view(np.int32).reshape(-1)
    return dict(acc16="wide", mode=MODES["wide"], mult=rm, shift=ts, bias=words, act=act_range)


def dsp_quad_order(filt: np.ndarray, run: int) -> np.ndarray:
    """The filter as the SMLAD dot product (crt/src/kernels/acc16_dsp.h) reads it: in every run of `run` weights
    (the last axis, multiplied with that many contiguous inputs) each quad w0 w1 w2 w3 stored as w0 w2 w1 w3, the
    run's n % 4 leftovers in place."""
    rows = np.array(filt, np.int8).reshape(-1, run)
    quads = run // 4 * 4
    rows[:, :quads] = rows[:, :quads].reshape(rows.shape[0], -1, 4)[:, :, [0, 2, 1, 3]].reshape(rows.shape[0], -1)
    return rows.reshape(np.shape(filt))


def acc16_filter(op) -> np.ndarray:
    """The filter as the layer's kernel reads it (reordered for the SMLAD entry points)."""
    return op.params.get("dsp_filter", op.input(1).data)


def acc16_args(op, ctx) -> list:
    """The trailing kernel arguments of an int16x8 layer: mode, multipliers, shifts, activation range."""
    p = op.params
    return [
        p["mode"],
        ctx.param(f"op{op.index}_mult", p["mult"], "int32_t"),
        ctx.param(f"op{op.index}_shift", p["shift"], "int32_t"),
        p["act"][0],
        p["act"][1],
    ]
