"""CUSTOM:SignalRfft lowering (TFLite Micro's signal library), int16 form: the real FFT of each frame (zero padded
to `fft_length`), fft_length / 2 + 1 complex int16 bins per frame, in the fixed-point kissfft arithmetic TFLite
Micro runs.  The stage factors and both twiddle tables are computed here at compile time (the values the reference
computes when the interpreter starts) and passed as const arrays.  Supported: int16 (option T = INT16) and
fft_length a power of two from 4 (radix-4 and radix-2 stages); the int32 and float32 forms and other lengths are
refused."""

import math

import numpy as np

from ..errors import UnsupportedError
from ..frontend.tflite_custom_options import custom_option
from ._base import OpLowering, register
from .common.signal import require_signal_types

_TFLITE_INT16 = 7  # TensorType enum value of INT16


def stage_factors(n: int) -> list:
    """(radix, span) per stage, outermost first: radix 4 while it divides, then 2, then odd radices (which the
    kernel does not have; refused by the caller), the last one n itself once past sqrt(n)."""
    factors, p, limit = [], 4, math.floor(math.sqrt(n))
    while n > 1:
        while n % p:
            p = 2 if p == 4 else 3 if p == 2 else p + 2
            if p > limit:
                p = n
        n //= p
        factors += [p, n]
    return factors


def _q15(phases) -> np.ndarray:
    """exp(i * phase) as interleaved int16 (re, im), each part floor(0.5 + 32767 * value)."""
    out = []
    for ph in phases:
        out += [math.floor(0.5 + 32767 * math.cos(ph)), math.floor(0.5 + 32767 * math.sin(ph))]
    return np.array(out, np.int16)


def twiddles(half: int) -> np.ndarray:
    return _q15([-2 * math.pi * k / half for k in range(half)])


def split_twiddles(half: int) -> np.ndarray:
    return _q15([-math.pi * ((k + 1) / half + 0.5) for k in range(half // 2)])


@register
class SignalRfft(OpLowering):
    builtins = ("CUSTOM:SignalRfft",)
    dtypes = ("int16",)
    header = "aot/kernels/signal.h"

    def check(self, op):
        kind = custom_option(op, "T")
        if kind != _TFLITE_INT16 or op.input(0).dtype != "int16":
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) computes in TFLite type {kind} on {op.input(0).dtype} data; only "
                "the int16 real FFT (T = INT16, int16 in and out) is supported, not its int32 or float32 forms."
            )
        require_signal_types(op, ("int16",), ("int16",))
        n = custom_option(op, "fft_length")
        inp, out = op.input(0), op.output
        if n < 4 or n & (n - 1) or any(f not in (2, 4) for f in stage_factors(n // 2)[0::2]):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): fft_length {n}; supported are powers of two "
                "from 4 (radix-4 and radix-2 stages)."
            )
        frame = inp.shape[-1] if inp.shape else 0
        frames = inp.num_elements // frame if frame else 0
        if (
            len(inp.shape) != len(out.shape)
            or not 0 < frame <= n
            or out.shape[-1] != n + 2
            or out.num_elements != frames * (n + 2)
        ):
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): input {list(inp.shape)} and output {list(out.shape)} for "
                f"fft_length {n}; each input frame (last dimension, at most fft_length samples) must give "
                f"fft_length + 2 = {n + 2} int16 values (fft_length / 2 + 1 complex bins), same rank."
            )

    def prepare(self, op):
        n = custom_option(op, "fft_length")
        frame = op.input(0).shape[-1]
        op.params = dict(
            frames=op.input(0).num_elements // frame,
            frame=frame,
            half=n // 2,
            factors=np.array(stage_factors(n // 2), np.int32),
            tw=twiddles(n // 2),
            split=split_twiddles(n // 2),
        )
        op.kernel = "aot_signal_rfft_s16"

    def scratch_bytes(self, op):
        return 4 * custom_option(op, "fft_length")  # the zero-padded frame and the half-length complex spectrum

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    p["frames"],
                    p["frame"],
                    p["half"],
                    ctx.param(f"op{op.index}_fft_factors", p["factors"], "int32_t"),
                    ctx.param(f"op{op.index}_fft_twiddles", p["tw"], "int16_t"),
                    ctx.param(f"op{op.index}_fft_split_twiddles", p["split"], "int16_t"),
                    ctx.scratch(op, "int16_t"),
                ],
            )
        ]
