"""The short int8 MUL arithmetic (crt/src/kernels/mul_s8_elem.h): its parameters and the proof that it is exact.

TFLite computes out = clamp(RoundingDivideByPOT(SRDHM((x1 - z1) * (x2 - z2) << left, m), right) + zo), with
left = max(shift, 0), right = max(-shift, 0).  The short form takes the doubled product X2 = prod << (left + 1) and
computes ((X2 >> 31) & sign_mask) + add + the rounded high word of X2 * m (SMMLAR on the DSP cores, VRMULH on
Helium), shifted right by `right`, plus zo.  The rounded high word of 2X * m is floor((X * m + 2^30) / 2^31), which
is SRDHM's value for every X * m (SRDHM rounds half away from zero: on negative products that is floor(v + 1/2)
too) short of its one saturating corner; adding 2^(right-1) and, for negative X, -1 before the arithmetic shift is
RoundingDivideByPOT (a negative X gives a high word <= 0, and a zero high word gives 0 either way).  With right = 0
the sign term is masked off (sign_mask 0) and add is 0: the high word itself.  So the form is TFLite's arithmetic
whenever X2 and the sums stay within int32, which `short_params` checks; it then evaluates the form on all
256 x 256 int8 input pairs and compares with TFLite's reference arithmetic (a complete proof for an int8 op), and
returns None (the generic kernel runs) on any difference.
"""

import numpy as np

from .add_s8_fast import _mbqm

_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1

# Field order of struct aot_mul_s8_params (crt/include/aot/kernels/mul.h).
FIELDS = (
    "in1_offset",
    "in2_offset",
    "left_shift",
    "multiplier",
    "add",
    "sign_mask",
    "right_shift",
    "out_offset",
    "act_min",
    "act_max",
)


class _Overflow(Exception):
    pass


def _fits(v) -> None:
    if np.any(v < _I32_MIN) or np.any(v > _I32_MAX):
        raise _Overflow


def reference(x1, x2, z1: int, z2: int, zo: int, mo: int, sho: int, act):
    """TFLite's int8 MUL on int64 arrays of int8 values."""
    prod = (x1.astype(np.int64) - z1) * (x2.astype(np.int64) - z2)
    return np.clip(_mbqm(prod, mo, sho) + zo, act[0], act[1])


def step(m: int, shift: int):
    """(left shift with the doubling, add, sign mask, right shift) of the short form of
    MultiplyByQuantizedMultiplier(x, m, shift), or None when the shifts are out of its range."""
    left, right = max(shift, 0), max(-shift, 0)
    if right > 31 or left + 1 > 30 or m < 0:
        return None
    return left + 1, (1 << (right - 1)) if right else 0, -1 if right else 0, right


def apply_step(x, left: int, m: int, add: int, mask: int, right: int):
    """The short form of one requantization on int64 arrays (as the C computes it in int32); raises _Overflow if
    any int32 step would overflow."""
    x2 = x << left
    _fits(x2)
    high = (x2 * np.int64(m) + np.int64(1 << 31)) >> 32
    r = ((x2 >> 31) & mask) + np.int64(add) + high
    _fits(r)
    return r >> right


def evaluate(f: dict, x1, x2):
    """The C element function (mul_s8_rows.c) on int64 arrays of int8 values; raises _Overflow if any int32 step
    would overflow."""
    prod = (x1.astype(np.int64) + f["in1_offset"]) * (x2.astype(np.int64) + f["in2_offset"])
    r = apply_step(prod, f["left_shift"], f["multiplier"], f["add"], f["sign_mask"], f["right_shift"])
    out = r + f["out_offset"]
    _fits(out)
    return np.clip(out, f["act_min"], f["act_max"])


def short_params(z1: int, z2: int, zo: int, mo: int, sho: int, act):
    """{field: value} for struct aot_mul_s8_params, or None when the short form is not exact for these parameters."""
    st = step(mo, sho)
    if st is None:
        return None
    fields = dict(
        in1_offset=-z1,
        in2_offset=-z2,
        left_shift=st[0],
        multiplier=mo,
        add=st[1],
        sign_mask=st[2],
        right_shift=st[3],
        out_offset=zo,
        act_min=int(act[0]),
        act_max=int(act[1]),
    )
    grid = np.arange(-128, 128, dtype=np.int64)
    x1, x2 = np.repeat(grid, 256), np.tile(grid, 256)
    try:
        got = evaluate(fields, x1, x2)
    except _Overflow:
        return None
    want = reference(x1, x2, z1, z2, zo, mo, sho, act)
    return fields if np.array_equal(got, want) else None


def values(fields: dict) -> list:
    return [int(fields[name]) for name in FIELDS]
