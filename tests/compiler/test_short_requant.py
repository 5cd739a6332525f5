"""The short requantization's per-channel constants (compiler/ops/common/short_requant.py) against TFLite's arithmetic,
on parameters drawn to be extreme: near-dead channels (right shifts past 22 and 31, multiplier 0), effective
scales near 1, zero points at the int8 limits, biases near the int32 limits, large weight sums.

The kernels' arithmetic is emulated here exactly as dsp_s8.h / requant_s8_inline.h do it in 32 bits (wrapping
sum, arithmetic shift by trailing zeros of add + 1, clamp), and compared with the exact integer TFLite function at
the ends of each channel's accumulator range, around every output step inside it, and at random points.
"""

import numpy as np
import pytest

from compiler.ops.common.short_requant import acc_range, short_requant, tflite_requant
from compiler.quant_math import quantize_multiplier


def _wrap32(v: int) -> int:
    return ((v + (1 << 31)) % (1 << 32)) - (1 << 31)


def _kernel(acc: int, m: int, add: int, act) -> int:
    """dsp_s8.h aot_dsp_requant + clamp, in 32-bit two's complement."""
    acc2 = _wrap32(2 * acc)
    h = (acc2 * m + (1 << 31)) >> 32
    hi = _wrap32(add + (-1 if acc < 0 else 0) + h)
    rs = ((add & -add).bit_length() - 1) + 1
    return min(max(hi >> rs, act[0]), act[1])


def _steps(lo, hi, f):
    """Accumulators where the monotone f changes value inside [lo, hi] (binary search per step)."""
    points, a = [], lo
    while a < hi and len(points) < 300:
        v, l, h = f(a), a, hi
        if f(h) == v:
            break
        while h - l > 1:
            mid = (l + h) // 2
            if f(mid) == v:
                l = mid
            else:
                h = mid
        points += [l, h]
        a = h
    return points


def _layer(rng, n, k):
    kinds = rng.integers(0, 6, n)
    scales = np.where(
        kinds == 0,
        2.0 ** rng.uniform(-45, -30, n),  # multiplier 0 after quantization
        np.where(
            kinds == 1,
            2.0 ** rng.uniform(-31, -22, n),  # near-dead: shifts 23..31
            np.where(
                kinds == 2,
                2.0 ** rng.uniform(-1.5, 0.5, n),  # effective scale near 1, left shifts
                2.0 ** rng.uniform(-22, -8, n),
            ),
        ),
    )
    mult, shift = zip(*(quantize_multiplier(float(s)) for s in scales))
    wmax = rng.choice([1, 3, 127], n)
    rows = np.stack([rng.integers(-w, w + 1, k) for w in wmax]).astype(np.int8)
    big = rng.random(n) < 0.3
    bias = np.where(
        big,
        rng.integers(-(1 << 31) + 128 * 127 * k, (1 << 31) - 128 * 127 * k, n),
        rng.integers(-(1 << 20), 1 << 20, n),
    )
    return bias, rows, np.array(mult), np.array(shift)


@pytest.mark.parametrize("seed", range(40))
def test_short_form_equals_tflite_on_extreme_channels(seed):
    rng = np.random.default_rng(seed)
    zp = int(rng.choice([-128, 127, 0, int(rng.integers(-128, 128))]))
    act = [(-128, 127), (zp if zp < 127 else -128, 127), (-128, -100), (max(zp, -128), min(zp + 30, 127))][seed % 4]
    k = int(rng.choice([1, 9, 64, 640]))
    bias, rows, mult, shift = _layer(rng, 24, k)
    # One channel at a time, so that a channel the short form cannot take does not hide the others.
    accepted = 0
    for c in range(24):
        got = short_requant(bias[c : c + 1], rows[c : c + 1], mult[c : c + 1], shift[c : c + 1], zp, act)
        if got is None:
            continue
        accepted += 1
        b2, m2, a2 = (int(v[0]) for v in got)
        lo, hi = (int(v[0]) for v in acc_range(bias[c : c + 1], rows[c : c + 1]))
        lo2, hi2 = (int(v[0]) for v in acc_range([b2], rows[c : c + 1]))
        m, s = int(mult[c]), int(shift[c])
        ref = lambda a, m=m, s=s: tflite_requant(a, m, s, zp, *act)
        # The kernel sees bias b2 instead of bias: the accumulator moves by b2 - bias.
        d = b2 - int(bias[c])
        pts = [lo, hi] + _steps(lo, hi, ref) + [int(x) for x in rng.integers(lo, hi + 1, 200)]
        assert -(1 << 30) <= lo2 and hi2 < (1 << 30)
        for a in pts:
            assert _kernel(a + d, m2, a2, act) == ref(a), (c, a, m, s, zp, act, b2, m2, a2)
    assert accepted > 0


def test_constant_and_near_dead_channels_are_accepted():
    rows = np.array([[127, -127, 5, 0] * 16, [1, -1, 0, 0] * 16, [127, 0, 0, 0] * 16], np.int8)
    bias = np.array([(1 << 31) - 1 - 600_000, -3, 1 << 22], np.int64)  # int32 limit / -/ at an output step
    mult = np.array([0, 1 << 30, (1 << 31) - 1])
    shift = np.array([0, -31, -23])  # multiplier 0 / near-dead / near-dead with a varying output
    got = short_requant(bias, rows, mult, shift, -128, (-128, 127))
    assert got is not None
    b, m, a = got
    assert list(m[:2]) == [0, 0] and list(a[:2]) == [2 * -128 + 1] * 2 and list(b[:2]) == [0, 0]
    assert m[2] == mult[2] and a[2] == (1 << 22) - 128 * (1 << 23)


def test_left_shift_with_varying_output_is_refused():
    rows = np.full((1, 8), 3, np.int8)
    assert short_requant([0], rows, [1 << 30], [1], 0, (-128, 127)) is None


def test_two_valued_near_dead_channel():
    # rs 27 and zp -128: 2^27 * -128 does not fit in int32, but the output only steps once over the range.
    rows = np.array([[127, -127, 5, 0] * 16], np.int8)
    m, s = quantize_multiplier(2.0**-26.5)
    lo, hi = (int(v[0]) for v in acc_range([0], rows))
    step = 2**26.5 / 2 + 1000  # the unclamped output crosses -128 + 0.5 inside the range for this bias
    bias = [int(step)]
    got = short_requant(bias, rows, [m], [s], -128, (-128, 127))
    assert got is not None
    b2, m2, a2 = (int(v[0]) for v in got)
    assert m2 & (m2 - 1) == 0 and a2 == 2 * -128 + 1
    ref = lambda a: tflite_requant(a, m, s, -128, -128, 127)
    lo, hi = lo + bias[0], hi + bias[0]
    assert ref(lo) != ref(hi)
    for a in [lo, hi] + _steps(lo, hi, ref) + list(range(lo, lo + 50)) + list(range(hi - 50, hi + 1)):
        assert _kernel(a + b2 - bias[0], m2, a2, (-128, 127)) == ref(a)
