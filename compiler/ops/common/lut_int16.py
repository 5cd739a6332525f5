"""The 513-entry int16 lookup tables of TFLite's int16 kernels (SOFTMAX's exp and 1 / (1 + x)), computed at compile
time exactly as TFLite Micro's Prepare builds them: 512 samples of the function over the input range, each biased
by half the error of linear interpolation at the midpoint, plus the value at the end of the range, all in float32
(float products and sums rounded at each step, rounding half away from zero).  The functions are evaluated with the
C library's float exp (expf), the one the TFLite Micro interpreter calls, so the tables match it bit for bit.  The
kernels interpolate between entries (crt/src/kernels/lut_s16.h)."""

import ctypes
import ctypes.util
import math

import numpy as np

_F = np.float32
_I16_MIN, _I16_MAX = -32768, 32767
_STEPS = 512


def _libm_expf():
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    fn = libm.expf
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return lambda x: _F(fn(float(x)))


def _round(x) -> _F:
    """roundf: half away from zero (exact for float32 values)."""
    return _F(math.copysign(math.floor(abs(float(x)) + 0.5), float(x)))


def lut_int16(transform, input_scale, input_zero_point: int, output_scale, output_zero_point: int) -> np.ndarray:
    input_min = _F(input_scale) * _F(_I16_MIN - input_zero_point)
    input_max = _F(input_scale) * _F(_I16_MAX - input_zero_point)
    output_min = _F(output_scale) * _F(_I16_MIN - output_zero_point)
    output_max = _F(output_scale) * _F(_I16_MAX - output_zero_point)
    step = (input_max - input_min) / _F(_STEPS)
    half_step = step / _F(2)
    scaling_inv = _F(65536) / (output_max - output_min)
    lut = np.zeros(_STEPS + 1, np.int16)
    for i in range(_STEPS):
        val = transform(input_min + _F(i) * step)
        val_mid = transform(input_min + _F(i) * step + half_step)
        val_next = transform(input_min + _F(i + 1) * step)
        sample = _round(val * scaling_inv)
        interp_mid = _round((val_next * scaling_inv + _round(val * scaling_inv)) / _F(2))
        bias = _round((interp_mid - _round(val_mid * scaling_inv)) / _F(2))
        lut[i] = int(min(max(float(sample - bias), _I16_MIN), _I16_MAX))
    lut[_STEPS] = int(min(max(float(_round(transform(input_max) * scaling_inv)), _I16_MIN), _I16_MAX))
    return lut


def softmax_luts() -> tuple[np.ndarray, np.ndarray]:
    """(exp over [-10, 0], 1 / (1 + x) over [0, 1]) with TFLite's int16 SOFTMAX parameters."""
    span = _F(_I16_MAX - _I16_MIN)
    expf = _libm_expf()
    exp_lut = lut_int16(expf, _F(10) / span, _I16_MAX, _F(2) / span, 0)
    recip_lut = lut_int16(lambda v: _F(1) / (_F(1) + v), _F(1) / span, _I16_MIN, _F(2) / span, 0)
    return exp_lut, recip_lut
