"""Per-channel constants of the short requantization (one SMMLAR and one shift per output) and the proof that
they reproduce TFLite's requantization exactly for every accumulator a layer can reach.

The *_dsp kernels (crt/src/kernels/dsp_s8.h) and the specialized Cortex-M0/M3 bodies (AOT_REQUANT_SHORT in
crt/include/aot/kernels/requant_s8_inline.h) compute, per output channel with multiplier m and add constant
`add` (rs = trailing zeros of add + 1):
    hi  = add + (acc < 0 ? -1 : 0) + floor((2 acc m + 2^31) / 2^32)        (32-bit, wrapping)
    out = clamp(hi >> rs, act_min, act_max)
TFLite computes clamp(RoundingDivideByPOT(SaturatingRoundingDoublingHighMul(acc << ls, m), rs) + zp).

Both are non-decreasing in acc (m >= 0), and the accumulator of channel c is bias_c + sum_k w_ck x_k with int8
x, so it lies in [lo_c, hi_c] = bias_c + sum_k min/max(-128 w_ck, 127 w_ck).  Per channel:

- Constant channel: TFLite's clamped output at lo_c equals the one at hi_c, so (monotone) it is that value v
  for every reachable accumulator.  Encoded as m = 0, add = 2 v + 1 (rs = 1): hi = add or add - 1, and both
  shift to v, whatever the accumulator (so its bias is set to 0).  This covers near-dead channels (effective
  scale far below 2^-22, right shifts past 31, multiplier 0) and saturated ones, with any bias.
- Otherwise add = 2^(rs-1) + zp 2^rs, stored modulo 2^32 (its trailing zeros still give rs for rs <= 31).
  The derivation in dsp_s8.h makes the true `hi` >> rs equal TFLite's result whenever |acc| < 2^30 (no
  doubling overflow, no saturating multiply) and 1 <= rs; the wrapping 32-bit `hi` equals the true one when
  the true one fits in int32, which (monotone in acc) is checked at lo_c and hi_c.  So right shifts up to 31
  are exact whenever the channel's unclamped output range times 2^rs fits in int32.
- Two-valued channel (neither of the above, any multiplier and shift, left shifts included): the output is v
  below some accumulator T and v + 1 from T on (found by bisection, f being monotone).  Encoded as m = 2^p,
  add = 2 v + 1 and the bias moved so that T lands exactly on the one step of the high multiply
  (_two_valued): a near-dead channel whose bias sits at a rounding edge, e.g. rs 24..31 with zp -128, where
  2^rs zp does not fit in int32.
Layers with a channel that is none of these (three or more outputs with a left shift, an accumulator that can
reach 2^30, or a large right shift with a large zero point and a wide output range) take the DSP kernels' *_exact
entry points (exact_requant: TFLite's function per output) or, on the M0/M3, the specialized bodies' exact form.
"""

import numpy as np

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
ACC_LIMIT = 1 << 30  # |acc| < 2^30: 2 acc fits in int32 and acc * m never reaches the saturating case


def tflite_requant(acc: int, m: int, shift: int, zp: int, act_min: int, act_max: int) -> int:
    """TFLite's MultiplyByQuantizedMultiplier(acc, m, shift) + zp clamped, in exact integers (acc, acc << ls
    within int32)."""
    ls, rs = max(shift, 0), max(-shift, 0)
    a = acc * (1 << ls)
    assert INT32_MIN <= a <= INT32_MAX
    if a == INT32_MIN and m == INT32_MIN:
        h = INT32_MAX
    else:
        ab = a * m
        num = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
        h = num // (1 << 31) if num >= 0 else -((-num) // (1 << 31))  # C division truncates toward zero
    mask = (1 << rs) - 1
    v = (h >> rs) + int((h & mask) > (mask >> 1) + int(h < 0))
    return min(max(v + zp, act_min), act_max)


def short_hi(acc: int, m: int, add: int) -> int:
    """The true (unwrapped) value of `hi` above."""
    return add - int(acc < 0) + ((2 * acc * m + (1 << 31)) >> 32)


def acc_range(bias: np.ndarray, rows: np.ndarray) -> tuple:
    """Per row the least and greatest bias + sum(w * x) over int8 x."""
    r = np.asarray(rows, np.int64)
    b = np.asarray(bias, np.int64).reshape(-1)
    return b + np.minimum(-128 * r, 127 * r).sum(axis=1), b + np.maximum(-128 * r, 127 * r).sum(axis=1)


def _two_valued(lo: int, hi: int, f, v_lo: int):
    """(bias shift, m, add) for a channel whose output f (non-decreasing) takes only v_lo and v_lo + 1 over
    [lo, hi], stepping at T; None for any other channel.

    With m = 2^p, floor((2 x m + 2^31) / 2^32) = floor((x + 2^(30-p)) / 2^(31-p)) is 0 for 0 <= x < 2^(30-p) and 1
    for 2^(30-p) <= x < 3 * 2^(30-p); with add = 2 v_lo + 1 (rs = 1) the output is v_lo plus that.  The bias
    shift d = 2^(30-p) - T moves the accumulator so that T lands on the step, and p is the largest with
    [lo + d, hi + d] inside [0, 3 * 2^(30-p)) (which also keeps |acc| < 2^30 for p >= 2)."""
    if f(hi) != v_lo + 1:
        return None
    l, h = lo, hi  # f(l) == v_lo, f(h) == v_lo + 1
    while h - l > 1:
        mid = (l + h) // 2
        l, h = (mid, h) if f(mid) == v_lo else (l, mid)
    t = h
    for p in range(30, 1, -1):
        half = 1 << (30 - p)
        if t - lo <= half and hi - t < 2 * half:
            return half - t, 1 << p, 2 * v_lo + 1
    return None


def constant_output(lo: int, hi: int, m: int, shift: int, zp: int, act: tuple):
    """For a channel whose accumulator spans [lo, hi]: (v,) if TFLite's output is v over all of it, else its output
    at lo; None when the reference's own int32 arithmetic could overflow there (accumulator or left shift)."""
    if lo < INT32_MIN or hi > INT32_MAX or max(abs(lo), abs(hi)) << max(shift, 0) > INT32_MAX:
        return None
    v_lo = tflite_requant(lo, m, shift, zp, act[0], act[1])
    return (v_lo,) if v_lo == tflite_requant(hi, m, shift, zp, act[0], act[1]) else v_lo


def short_requant(bias, rows, mult, shift, out_zp: int, act: tuple):
    """(bias, multiplier, add) per row, int32, for the short requantization of a layer with folded int32 `bias`
    per row, int8 weights `rows` [R, K], TFLite multipliers and shifts (per row or one), output zero point and
    activation range; None when some channel cannot be proven exact (see the module docstring)."""
    rows = np.asarray(rows)
    n = rows.shape[0]
    mult = np.broadcast_to(np.asarray(mult, np.int64).reshape(-1), (n,))
    shift = np.broadcast_to(np.asarray(shift, np.int64).reshape(-1), (n,))
    bias = np.array(np.asarray(bias, np.int64).reshape(-1), np.int64)
    lo, hi = acc_range(bias, rows)
    out_m, out_add = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for c in range(n):
        m, s, a, b = int(mult[c]), int(shift[c]), int(lo[c]), int(hi[c])
        v_lo = constant_output(a, b, m, s, out_zp, act)
        if v_lo is None:
            return None
        if isinstance(v_lo, tuple):  # a constant channel
            bias[c], out_add[c] = 0, 2 * v_lo[0] + 1
            continue
        rs = -s
        add = (1 << (rs - 1)) + out_zp * (1 << rs) if rs >= 1 else 0
        if (
            1 <= rs <= 31
            and -ACC_LIMIT <= a
            and b < ACC_LIMIT
            and INT32_MIN <= short_hi(a, m, add)
            and short_hi(b, m, add) <= INT32_MAX
        ):
            out_m[c], out_add[c] = m, add
            continue
        step = _two_valued(a, b, lambda x, m=m, s=s: tflite_requant(x, m, s, out_zp, act[0], act[1]), v_lo)
        if step is None:
            return None
        d, out_m[c], out_add[c] = step
        bias[c] += d
    lo, hi = acc_range(bias, rows)
    if lo.min(initial=0) < -ACC_LIMIT or hi.max(initial=0) >= ACC_LIMIT:
        return None  # a constant channel's kernel accumulator must still not overflow when doubled
    wrap = ((out_add + (1 << 31)) % (1 << 32)) - (1 << 31)
    return bias.astype(np.int32), out_m.astype(np.int32), wrap.astype(np.int32)


def exact_requant(bias, rows, mult, shift, out_zp: int, act: tuple) -> tuple:
    """(bias, multiplier, zp * 256 + shift) per row, int32, for the *_exact DSP entry points (dsp_s8.h
    aot_dsp_requant_exact: TFLite's full requantization), for layers short_requant refuses.  A provably constant
    channel (constant_output) becomes bias 0, multiplier 0 and v * 256, so that its accumulator stays small."""
    rows = np.asarray(rows)
    n = rows.shape[0]
    mult = np.array(np.broadcast_to(np.asarray(mult, np.int64).reshape(-1), (n,)))
    shift = np.broadcast_to(np.asarray(shift, np.int64).reshape(-1), (n,))
    assert np.all(np.abs(shift) <= 31)
    bias = np.array(np.asarray(bias, np.int64).reshape(-1), np.int64)
    second = out_zp * 256 + shift
    lo, hi = acc_range(bias, rows)
    for c in range(n):
        v = constant_output(int(lo[c]), int(hi[c]), int(mult[c]), int(shift[c]), out_zp, act)
        if isinstance(v, tuple):
            bias[c], mult[c], second[c] = 0, 0, v[0] * 256
    return bias, mult.astype(np.int32), second.astype(np.int32)
