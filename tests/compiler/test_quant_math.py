"""Compile-time quantization arithmetic against values derived by hand from TFLite's definitions."""

import math

import pytest

from compiler.quant_math import (
    QuantRangeError,
    calculate_input_radius,
    quantize_multiplier,
    quantize_multiplier_greater_than_one,
    quantize_multiplier_smaller_than_one,
    round_half_away,
)


@pytest.mark.parametrize(
    "x,expected", [(0.5, 1), (-0.5, -1), (1.5, 2), (-2.5, -3), (2.4999999, 2), (0.0, 0), (2.0**52 + 1, 2**52 + 1)]
)
def test_round_half_away_from_zero(x, expected):
    assert round_half_away(x) == expected


@pytest.mark.parametrize(
    "real,expected",
    [
        (0.5, (1 << 30, 0)),  # 0.5 = 2^30 * 2^(0-31)
        (1.0, (1 << 30, 1)),
        (0.25, (1 << 30, -1)),
        (0.75, (3 << 29, 0)),
        (0.0, (0, 0)),
        (2.0**-40, (0, 0)),  # below 2^-32: flushed to zero as TFLite does
    ],
)
def test_quantize_multiplier_known_values(real, expected):
    assert quantize_multiplier(real) == expected


@pytest.mark.parametrize("real", [1e-6, 0.0013, 0.123456789, 0.99999999, 1.0000001, 3.7, 1234.5])
def test_quantize_multiplier_is_close_and_normalized(real):
    m, shift = quantize_multiplier(real)
    assert (1 << 30) <= m < (1 << 31)
    assert math.isclose(m * 2.0 ** (shift - 31), real, rel_tol=2**-30)


def test_rounding_up_to_two_pow_31_renormalizes():
    # 1 - 2^-33 rounds to 2^31 in Q31: must become 2^30 with shift + 1.
    assert quantize_multiplier(1.0 - 2.0**-33) == (1 << 30, 1)


def test_smaller_and_greater_than_one_check_their_range():
    assert quantize_multiplier_smaller_than_one(0.5)[1] <= 0
    assert quantize_multiplier_greater_than_one(2.0)[1] >= 1
    # Degenerate scales from a model are its fault: a CompileError (named by prepare_ops), never an assert.
    with pytest.raises(QuantRangeError):
        quantize_multiplier_greater_than_one(0.5)
    with pytest.raises(QuantRangeError):
        quantize_multiplier_smaller_than_one(1.5)
    with pytest.raises(QuantRangeError, match="too large"):
        quantize_multiplier(2.0**40)


def test_input_radius_matches_definition():
    # ((1 << 4) - 1) * 2^(31 - 4) / 2^left_shift, floored: TFLite's CalculateInputRadius for 4 integer bits.
    for shift in (0, 5, 20):
        expected = math.floor(((1 << 4) - 1) * (1 << (31 - 4)) / (1 << shift))
        assert calculate_input_radius(4, shift) == expected
