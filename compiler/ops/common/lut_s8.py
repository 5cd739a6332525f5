"""int8 -> int8 unary ops as 256-entry lookup tables.

An int8 unary op is a function of 256 input values, so its whole result is a table the compiler computes once and
the kernel only looks up (aot/kernels/lut.h: bytes on every core, word loads on cores with unaligned word access,
gather loads on Helium).  Each op's prepare() first computes its arithmetic kernel's parameters as before; then
`offer_table` evaluates that kernel's integer arithmetic (TFLite Micro's reference semantics, the same steps as the
C kernel named by op.kernel: gemmlowp fixed point, MultiplyByQuantizedMultiplier with its double rounding, the
int16 arithmetic of HARD_SWISH) on every int8 value and lets the kernel table (kernel_table.py) choose between the
table kernels and the op's own.  The element functions are exact integer models, so the table is the kernel's
result by construction; tests/compiler/test_lut_s8.py compares every table with the tflite-micro interpreter on all
256 inputs under drawn extreme quantizations.

All arithmetic below is on Python ints standing for int32 values: wrap32 applies C's two's-complement wrap where
the C code computes through uint32_t; >> on a negative int is arithmetic as in the C kernels.
"""

import numpy as np

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1

# The kernels that look up a table (aot/kernels/lut.h), best family first.
LUT_KERNELS = ("aot_lut_s8_mve", "aot_lut_s8_word", "aot_lut_s8")
LUT_HEADER = "aot/kernels/lut.h"


def wrap32(x: int) -> int:
    return ((x + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def _clamp(v: int, lo: int, hi: int) -> int:
    return lo if v < lo else (hi if v > hi else v)


# --- TFLite / gemmlowp fixed point (crt/src/aot_requant.c, crt/src/aot_fixedpoint.c) ---------------------------


def doubling_high_mul(a: int, b: int) -> int:
    if a == INT32_MIN and b == INT32_MIN:
        return INT32_MAX
    return wrap32((a * b + (1 << 30)) >> 31)


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    if exponent <= 0:
        return x
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if (x & mask) > threshold else 0)


def multiply_by_quantized_multiplier(x: int, multiplier: int, shift: int) -> int:
    if shift > 0:
        return doubling_high_mul(wrap32(x << shift), multiplier)
    return rounding_divide_by_pot(doubling_high_mul(x, multiplier), -shift)


def saturating_rounding_mul_by_pot(x: int, exponent: int) -> int:
    if exponent > 0:
        threshold = (1 << (31 - exponent)) - 1
        if x > threshold:
            return INT32_MAX
        if x < -threshold:
            return INT32_MIN
        return wrap32(x << exponent)
    return rounding_divide_by_pot(x, -exponent)


def rounding_half_sum(a: int, b: int) -> int:
    h = (a >> 1) + (b >> 1)
    low = (a & 1) + (b & 1)
    return h + (1 if low >= 1 else 0) if h >= 0 else h + (1 if low == 2 else 0)


def count_leading_zeros(x: int) -> int:
    x &= 0xFFFFFFFF
    return 32 - x.bit_length()


def _exp_quarter_interval(a: int) -> int:
    constant_term, one_third = 1895147668, 715827883
    x = wrap32(a + (1 << 28))
    x2 = doubling_high_mul(x, x)
    x3 = doubling_high_mul(x2, x)
    x4 = doubling_high_mul(x2, x2)
    x4_over_4 = rounding_divide_by_pot(x4, 2)
    poly = rounding_divide_by_pot(wrap32(doubling_high_mul(wrap32(x4_over_4 + x3), one_third) + x2), 1)
    return wrap32(constant_term + doubling_high_mul(constant_term, wrap32(x + poly)))


_EXP_MULTIPLIERS = (1672461947, 1302514674, 790015084, 290630308, 39332535, 720401, 242)


def exp_on_negative_values(a: int, integer_bits: int) -> int:
    fractional_bits = 31 - integer_bits
    one_quarter = 1 << (fractional_bits - 2)
    a_mod = (a & (one_quarter - 1)) - one_quarter
    remainder = wrap32(a_mod - a)
    result = _exp_quarter_interval(saturating_rounding_mul_by_pot(a_mod, integer_bits))
    for exponent in range(-2, 5):
        if integer_bits > exponent and remainder & (1 << (fractional_bits + exponent)):
            result = doubling_high_mul(result, _EXP_MULTIPLIERS[exponent + 2])
    if integer_bits > 5 and a < -(1 << (36 - integer_bits)):
        result = 0
    return INT32_MAX if a == 0 else result


def _newton_reciprocal_q2_29(a: int) -> int:
    """x ~ 1 / ((1 + a) / 2) in Q2.29 for a in [0, 1) given in Q0.31: three Newton-Raphson steps."""
    half_denominator = rounding_half_sum(a, INT32_MAX)
    x = wrap32(1515870810 + doubling_high_mul(half_denominator, -1010580540))
    for _ in range(3):
        one_minus = wrap32((1 << 29) - doubling_high_mul(half_denominator, x))
        x = wrap32(x + saturating_rounding_mul_by_pot(doubling_high_mul(x, one_minus), 2))
    return x


def one_over_one_plus_x(a: int) -> int:
    return saturating_rounding_mul_by_pot(_newton_reciprocal_q2_29(a), 1)


def one_minus_x_over_one_plus_x(a: int) -> int:
    return saturating_rounding_mul_by_pot(wrap32(_newton_reciprocal_q2_29(a) - (1 << 29)), 2)


def fp_logistic(a: int, integer_bits: int) -> int:
    if a == 0:
        return 1 << 30
    positive = one_over_one_plus_x(exp_on_negative_values(-a if a > 0 else a, integer_bits))
    return positive if a > 0 else INT32_MAX - positive


def fp_tanh(a: int, integer_bits: int) -> int:
    if a == 0:
        return 0
    t = one_minus_x_over_one_plus_x(exp_on_negative_values(a if a < 0 else -a, integer_bits + 1))
    return -t if a < 0 else t


def inv_sqrt_multiplier(value: int) -> tuple:
    """1 / sqrt(value) as a Q0.31 multiplier and a shift (aot_fp_inv_sqrt_multiplier)."""
    if value <= 1:
        return INT32_MAX, 0
    s = 11
    while value >= (1 << 29):
        value //= 4
        s += 1
    pairs = (count_leading_zeros(value) - 1) // 2 - 1
    s -= pairs
    value <<= 2 * pairs
    half_input = rounding_divide_by_pot(value >> 1, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28
    for _ in range(5):
        x3 = saturating_rounding_mul_by_pot(doubling_high_mul(doubling_high_mul(x, x), x), 6)
        x = saturating_rounding_mul_by_pot(
            wrap32(doubling_high_mul(half_three, x) - doubling_high_mul(half_input, x3)), 3
        )
    x = doubling_high_mul(x, 1518500250)
    if s < 0:
        x, s = wrap32(x << -s), 0
    return x, -s


# --- int16 arithmetic of HARD_SWISH (crt/src/kernels/hard_swish_s8.c) --------------------------------------------


def _tdiv(a: int, b: int) -> int:
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _srdhm16(a: int, b: int) -> int:
    if a == -32768 and b == -32768:
        return 32767
    ab = a * b
    return _tdiv(ab + ((1 << 14) if ab >= 0 else 1 - (1 << 14)), 1 << 15)


def _sdhm16(a: int, b: int) -> int:
    if a == -32768 and b == -32768:
        return 32767
    return _tdiv(a * b, 1 << 15)


def _sat_left_shift16(value: int, amount: int) -> int:
    if value == 0:
        return 0
    if amount >= 16:
        return 32767 if value > 0 else -32768
    return _clamp(value * (1 << amount), -32768, 32767)


def _hard_swish(v: int, p: dict) -> int:
    x_hires = (v - p["in_zp"]) * 128
    x_preshift_out = _srdhm16(x_hires, p["out_m"])
    reluish, e = x_hires, p["rel_e"]
    if e > 0:
        reluish = _sat_left_shift16(reluish, e - 1)
    reluish = _srdhm16(reluish, p["rel_m"])
    if e > 0:
        reluish = _sat_left_shift16(reluish, 1)
    if e < 0:
        reluish = rounding_divide_by_pot(reluish, -e)
    reluish = (reluish + (1 << 15)) >> 1
    out = rounding_divide_by_pot(_sdhm16(reluish, x_preshift_out), -p["out_e"])
    out = ((out + p["out_zp"] + 32768) & 0xFFFF) - 32768
    return _clamp(out, -128, 127)


# --- one int8 element of each arithmetic kernel, from its compile-time parameters --------------------------------


def _abs(v: int, p: dict) -> int:
    x = abs(v - p["in_zp"])
    if p["rescale"]:
        x = multiply_by_quantized_multiplier(x, p["mult"], p["shift"])
    return _clamp(x + p["out_zp"], -128, 127)


def _rsqrt(v: int, p: dict) -> int:
    value = v - p["in_zp"]
    if value == 0:
        return 127
    inv, inv_shift = inv_sqrt_multiplier(value)
    data = multiply_by_quantized_multiplier(1, inv, inv_shift + 20)
    out = multiply_by_quantized_multiplier(data, p["mult"], p["shift"] - 20) + p["out_zp"]
    return _clamp(out, -128, 127)


def _gemmlowp_unary(v: int, p: dict, fn, exponent: int, offset: int) -> int:
    x = v - p["zp"]
    if x <= -p["radius"]:
        return -128
    if x >= p["radius"]:
        return 127
    y = fn(multiply_by_quantized_multiplier(x, p["mult"], p["shift"]), 4)
    return _clamp(rounding_divide_by_pot(y, exponent) + offset, -128, 127)


def _logistic(v: int, p: dict) -> int:
    return _gemmlowp_unary(v, p, fp_logistic, 23, -128)


def _tanh(v: int, p: dict) -> int:
    return _gemmlowp_unary(v, p, fp_tanh, 24, 0)


def _leaky_relu(v: int, p: dict) -> int:
    zi, m_id, sh_id, m_alpha, sh_alpha, zo = (int(x) for x in p["q"])
    x = v - zi
    m, sh = (m_id, sh_id) if x >= 0 else (m_alpha, sh_alpha)
    return _clamp(zo + multiply_by_quantized_multiplier(x, m, sh), -128, 127)


def _relu(v: int, p: dict) -> int:
    return _clamp(
        multiply_by_quantized_multiplier(v - p["in_zp"], p["mult"], p["shift"]) + p["out_zp"], p["lo"], p["hi"]
    )


def _relu6(v: int, p: dict) -> int:
    return p["hi"] if v > p["hi"] else (p["lo"] if v < p["lo"] else v)


def _requantize(v: int, p: dict) -> int:
    q = multiply_by_quantized_multiplier(v - p["in_zp"], p["mult"], p["shift"])
    return _clamp(wrap32(q + p["out_zp"]), -128, 127)


# Arithmetic kernel -> its element function (v, op.params) -> int8 value.
ELEMENT = {
    "aot_abs_s8": _abs,
    "aot_rsqrt_s8": _rsqrt,
    "aot_logistic_s8": _logistic,
    "aot_tanh_s8": _tanh,
    "aot_leaky_relu_s8": _leaky_relu,
    "aot_relu_s8": _relu,
    "aot_relu6_s8": _relu6,
    "aot_requantize_s8": _requantize,
    "aot_hard_swish_s8": _hard_swish,
}

# The op kinds whose int8 kernels may be table lookups (kernel_table.py lists their candidates).
LUT_KINDS = ("ABS", "RSQRT", "LOGISTIC", "TANH", "LEAKY_RELU", "RELU", "RELU6", "QUANTIZE", "HARD_SWISH", "ELU")


def table_of(kernel: str, params: dict) -> np.ndarray:
    """The int8 results of `kernel` with `params` for every int8 input, indexed by the input's byte (uint8)."""
    fn = ELEMENT[kernel]
    table = np.zeros(256, np.int8)
    for v in range(-128, 128):
        table[v & 0xFF] = fn(v, params)
    return table


def offers_table(op) -> bool:
    """After prepare() set op.kernel to an int8 arithmetic kernel (or, for ELU, its table) and op.params: whether the
    kernel table may choose a table lookup for it (kernel_table.offer_table)."""
    return op.kernel in ELEMENT or "table" in op.params


def is_table(op) -> bool:
    k = getattr(op, "kernel_impl", None)
    return k is not None and k.emit is emit_table


def headers(op, own: str) -> list:
    return [LUT_HEADER] if is_table(op) else [own]


def emit_table(op, ctx) -> list:
    p = op.params
    table = ctx.param(f"op{op.index}_table", p["table"], "int8_t")
    return [ctx.call(op.kernel, [ctx.ptr(op.input(0)), ctx.ptr(op.output), p["size"], table])]
