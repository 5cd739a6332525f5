"""The short int8 SQUARED_DIFFERENCE arithmetic (crt/src/kernels/squared_difference_s8_rows*.c): its parameters and
the proof that it is exact.

TFLite Micro rescales each input ((x - z) << 7, MultiplyByQuantizedMultiplier with its share of twice the larger
scale), squares the difference in 32 bits and requantizes the square to the output.  Each of the three
requantizations is common/mul_s8_fast.py's short form (SMMLAR on the doubled value with a rounding add and a masked sign
term, then a right shift; VRMULH on Helium), which is TFLite's arithmetic wherever no int32 step overflows.
`short_params` builds the fields and evaluates the form on all 256 x 256 int8 input pairs against TFLite's reference
arithmetic, returning None (the generic kernel runs) on any overflow or difference.
"""

import numpy as np

from .add_s8_fast import _mbqm
from .mul_s8_fast import _fits, _Overflow, apply_step, step

# Field order of struct aot_squared_difference_s8_params (crt/include/aot/kernels/squared_difference.h).
FIELDS = tuple(f"{k}_{n}" for k in ("in1", "in2") for n in ("offset", "left", "multiplier", "add", "mask", "shift")) + (
    "out_left",
    "out_multiplier",
    "out_add",
    "out_mask",
    "out_shift",
    "out_offset",
)


def reference(x1, x2, q):
    """TFLite Micro's int8 SQUARED_DIFFERENCE (q: the ten generic parameters of squared_difference.py)."""
    off1, m1, sh1, off2, m2, sh2, left, mo, sho, zo = q
    a = _mbqm((x1.astype(np.int64) + off1) << left, m1, sh1)
    b = _mbqm((x2.astype(np.int64) + off2) << left, m2, sh2)
    d = a - b
    return np.clip(_mbqm(d * d, mo, sho) + zo, -128, 127)


def evaluate(f: dict, x1, x2):
    """The C element function on int64 arrays of int8 values; raises _Overflow if any int32 step would overflow."""
    s = []
    for k, x in (("in1", x1), ("in2", x2)):
        s.append(
            apply_step(
                x.astype(np.int64) + f[f"{k}_offset"],
                f[f"{k}_left"],
                f[f"{k}_multiplier"],
                f[f"{k}_add"],
                f[f"{k}_mask"],
                f[f"{k}_shift"],
            )
        )
    d = s[0] - s[1]
    _fits(d)
    sq = d * d
    _fits(sq)
    out = apply_step(sq, f["out_left"], f["out_multiplier"], f["out_add"], f["out_mask"], f["out_shift"])
    out = out + f["out_offset"]
    _fits(out)
    return np.clip(out, -128, 127)


def short_params(q):
    """{field: value} for struct aot_squared_difference_s8_params, or None when the short form is not exact."""
    off1, m1, sh1, off2, m2, sh2, left, mo, sho, zo = q
    steps = [step(m1, sh1), step(m2, sh2), step(mo, sho)]
    if None in steps:
        return None
    f = {"out_offset": zo}
    for k, m, st, pre in (("in1", m1, steps[0], left), ("in2", m2, steps[1], left), ("out", mo, steps[2], 0)):
        # The inputs' own left shift (7) comes before the requantization's, in the same shift.
        f.update({f"{k}_left": st[0] + pre, f"{k}_multiplier": m, f"{k}_add": st[1], f"{k}_mask": st[2]})
        f[f"{k}_shift"] = st[3]
    f["in1_offset"], f["in2_offset"] = off1, off2
    grid = np.arange(-128, 128, dtype=np.int64)
    x1, x2 = np.repeat(grid, 256), np.tile(grid, 256)
    try:
        got = evaluate(f, x1, x2)
    except _Overflow:
        return None
    return f if np.array_equal(got, reference(x1, x2, q)) else None


def values(fields: dict) -> list:
    return [int(fields[name]) for name in FIELDS]
