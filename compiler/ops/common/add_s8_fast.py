"""The short int8 ADD / SUB arithmetic (crt/src/kernels/add_s8_elem.h): its parameters and the proof that it is exact.

TFLite rescales each input with a left shift of 20, a Q0.31 multiplier and a rounding right shift, adds (subtracts)
and requantizes the result.  The short form does each of the three steps with dsp_s8.h's aot_dsp_requant_x2
(SMMLAR and a shift), which needs a right shift >= 1 and no int32 overflow.  `short_params` builds the parameters
and returns None (the generic kernel is kept) unless both hold for every input pair: the bounds are checked
directly, and the short form is evaluated on all 256 x 256 pairs of int8 inputs and compared with TFLite's reference
arithmetic.  That is a complete proof, since an int8 op has no other inputs.
"""

import numpy as np

from ...quant_math import quantize_multiplier_smaller_than_one

LEFT_SHIFT = 20  # TFLite's int8 ADD / SUB left shift
_I32_MIN, _I32_MAX = -(1 << 31), (1 << 31) - 1

# Field order of struct aot_add_s8_params (crt/include/aot/kernels/add.h).
FIELDS = (
    "in1_bias",
    "in1_multiplier",
    "in1_add",
    "in1_shift",
    "in2_bias",
    "in2_multiplier",
    "in2_add",
    "in2_shift",
    "out_multiplier",
    "out_add",
    "out_shift",
    "act_min",
    "act_max",
)


def tflite_params(s1: float, s2: float, so: float, left_shift: int = LEFT_SHIFT) -> dict:
    """Multipliers and shifts as TFLite Micro's Prepare computes them for quantized ADD and SUB (left_shift 20 for
    int8, 15 for int16), in double.  (TFLite Micro's SUB sources divide the scales in float, but the tflite-micro
    interpreter we are bit-exact with matches the double quotients: on the SEANet SUB layers the float ones give
    outputs one step off.)"""
    twice_max = 2.0 * float(max(np.float32(s1), np.float32(s2)))
    r1, r2, ro = s1 / twice_max, s2 / twice_max, twice_max / (float(1 << left_shift) * so)
    m1, sh1 = quantize_multiplier_smaller_than_one(r1)
    m2, sh2 = quantize_multiplier_smaller_than_one(r2)
    mo, sho = quantize_multiplier_smaller_than_one(ro)
    return dict(m1=m1, sh1=sh1, m2=m2, sh2=sh2, mo=mo, sho=sho)


# --- TFLite's reference arithmetic, vectorized (int64 holds every product: |x| < 2^31, |m| < 2^31) -----------


def _srdhm(x, m: int):
    """gemmlowp SaturatingRoundingDoublingHighMul (nudge, then division truncating toward zero)."""
    ab = x.astype(np.int64) * np.int64(m)
    nudge = np.where(ab >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    num = ab + nudge
    q = np.abs(num) // np.int64(1 << 31)
    high = np.where(num < 0, -q, q)
    if m == _I32_MIN:
        high = np.where(x == _I32_MIN, np.int64(_I32_MAX), high)
    return high


def _rdbpot(x, exponent: int):
    """gemmlowp RoundingDivideByPOT (round half away from zero)."""
    mask = np.int64((1 << exponent) - 1)
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def _mbqm(x, m: int, shift: int):
    return _rdbpot(_srdhm(x * np.int64(1 << max(shift, 0)), m), max(-shift, 0))


def reference(x1, x2, z1: int, z2: int, zo: int, p: dict, act, subtract: bool):
    a = _mbqm((x1.astype(np.int64) - z1) << LEFT_SHIFT, p["m1"], p["sh1"])
    b = _mbqm((x2.astype(np.int64) - z2) << LEFT_SHIFT, p["m2"], p["sh2"])
    out = _mbqm(a - b if subtract else a + b, p["mo"], p["sho"]) + zo
    return np.clip(out, act[0], act[1])


# --- the short form --------------------------------------------------------------------------------------------


class _Overflow(Exception):
    pass


def _fits(v) -> None:
    if np.any(v < _I32_MIN) or np.any(v > _I32_MAX):
        raise _Overflow


def _requant_x2(acc2, m: int, add: int, rs: int):
    """aot_dsp_requant_x2: (add + (acc2 >> 31) + round(acc2 * m / 2^32)) >> rs, every step checked for int32."""
    _fits(acc2)
    high = (acc2 * np.int64(m) + np.int64(1 << 31)) >> 32
    r = np.int64(add) + (acc2 >> 31) + high
    _fits(r)
    return r >> rs


def _input_step(m: int, shift: int):
    """(multiplier, rounding add, right shift) of one input, or None.  Right shift 0 occurs only for the multiplier
    1/2 (m = 2^30): (a << 20) * 2^30 / 2^31 = a << 19 exactly, which m = 2^31 - 1 with right shift 1 also gives for
    |a| < 2^10 (the exhaustive check below confirms it)."""
    rs = -shift
    if rs == 0 and m == 1 << 30:
        return _I32_MAX, 1, 1
    if 1 <= rs <= 30 and (1 << 30) <= m <= _I32_MAX:
        return m, 1 << (rs - 1), rs
    return None


def short_params(s1: float, z1: int, s2: float, z2: int, so: float, zo: int, act, subtract: bool = False):
    """{field: value} for struct aot_add_s8_params, or None when the short form is not exact for these scales."""
    p = tflite_params(s1, s2, so)
    steps = [_input_step(p["m1"], p["sh1"]), _input_step(p["m2"], p["sh2"])]
    rso = -p["sho"]
    if None in steps or not 1 <= rso <= 30 or p["mo"] < (1 << 30):
        return None
    out_add = (1 << (rso - 1)) + zo * (1 << rso)
    if not _I32_MIN <= out_add <= _I32_MAX:
        return None
    fields = dict(
        in1_bias=-z1 << (LEFT_SHIFT + 1),
        in2_bias=-z2 << (LEFT_SHIFT + 1),
        out_multiplier=p["mo"],
        out_add=out_add,
        out_shift=rso,
        act_min=int(act[0]),
        act_max=int(act[1]),
    )
    for k, (m, add, rs) in zip((1, 2), steps):
        fields.update({f"in{k}_multiplier": m, f"in{k}_add": add, f"in{k}_shift": rs})
    if not all(_I32_MIN <= v <= _I32_MAX for v in fields.values()):
        return None
    grid = np.arange(-128, 128, dtype=np.int64)
    x1, x2 = np.repeat(grid, 256), np.tile(grid, 256)
    try:
        got = evaluate(fields, x1, x2, subtract)
    except _Overflow:
        return None
    want = reference(x1, x2, z1, z2, zo, p, act, subtract)
    return fields if np.array_equal(got, want) else None


def evaluate(fields: dict, x1, x2, subtract: bool = False):
    """The C element function (aot_add_s8_elem) on int64 arrays of int8 values; raises _Overflow if any int32
    step would overflow."""
    f = fields
    a = _requant_x2((x1 << (LEFT_SHIFT + 1)) + f["in1_bias"], f["in1_multiplier"], f["in1_add"], f["in1_shift"])
    b = _requant_x2((x2 << (LEFT_SHIFT + 1)) + f["in2_bias"], f["in2_multiplier"], f["in2_add"], f["in2_shift"])
    s = a - b if subtract else a + b
    _fits(s)
    out = _requant_x2(s * 2, f["out_multiplier"], f["out_add"], f["out_shift"])
    return np.clip(out, f["act_min"], f["act_max"])


def swapped(fields: dict) -> dict:
    """The same ADD with its inputs exchanged (a + b == b + a in int32: identical results)."""
    out = dict(fields)
    for name in ("bias", "multiplier", "add", "shift"):
        out[f"in1_{name}"], out[f"in2_{name}"] = fields[f"in2_{name}"], fields[f"in1_{name}"]
    return out


def values(fields: dict) -> list:
    return [int(fields[name]) for name in FIELDS]


# The C struct of the short arithmetic's fields (crt/include/aot/kernels/add.h).
SHORT_STRUCT = "aot_add_s8_params"


def short_add_struct(ctx, hint: str, fields: dict) -> str:
    """`&symbol` of a struct aot_add_s8_params: the ADD's own parameters, or a convolution's fused residual ADD."""
    return ctx.param_struct(hint, SHORT_STRUCT, FIELDS, values(fields))
