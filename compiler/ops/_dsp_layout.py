"""Weight layouts and checks for the *_dsp int8 kernels (targets with the DSP extension, see targets.py).

The kernels multiply four int8 weights by four inputs with three instructions using the "raw weight word"
form (crt/src/kernels/dsp_s8.h): in every quad of weights w0..w3 the bytes at even positions are stored as
w + 128 (unsigned), and 128 * (w1 + w3) is added to the row's bias.  Only the byte values and their order
change, never the byte count: weights stay as large as in the model file.

They also use a short requantization (dsp_s8.h: one SMMLAR and one shift per output) that is exact only when
the right shift is between 1 and MAX_RIGHT_SHIFT and the accumulator stays below 2^30 in magnitude;
`dsp_requant_ok` proves that from the weights, bias and shifts, and lowerings keep the portable kernels for any
layer that fails it.  Per output channel the kernels take the multiplier and `requant_add` (the rounding
constant and the output zero point, from which they also recover the shift).
"""

import numpy as np

ACC_LIMIT = 1 << 30
# |requant_add| = 2^(rs-1) * |2 zp + 1| <= 257 * 2^21 < 2^30 keeps add + h (|h| < 2^30) inside int32.
MAX_RIGHT_SHIFT = 22


def raw_word_rows(rows: np.ndarray) -> tuple:
    """rows: [R, K] int8 weights (one output channel per row).

    Returns (stored rows as int8 [R, K], int64 [R] bias adjustment).  Only the first 4 * (K // 4) columns
    (whole quads) change; kernels handle the remaining K % 4 taps with plain multiplies.
    """
    r = np.asarray(rows, dtype=np.int64)
    quads = r.shape[1] // 4 * 4
    stored = r.copy()
    stored[:, 0:quads:4] += 128
    stored[:, 2:quads:4] += 128
    adj = 128 * (r[:, 1:quads:4].sum(axis=1) + r[:, 3:quads:4].sum(axis=1))
    return stored.astype(np.uint8).view(np.int8), adj


def dsp_requant_ok(bias: np.ndarray, rows: np.ndarray, shift: np.ndarray) -> bool:
    """True if the *_dsp kernels' short requantization is exact for this layer.

    bias: folded int32 bias per row; rows: [R, K] int8 weights; shift: TFLite shifts (per row or one).
    The accumulator is sum(w * x) + bias with int8 x, so |acc| <= |bias| + 128 * sum(|w|).
    """
    shift = np.asarray(shift)
    if np.any(shift > -1) or np.any(shift < -MAX_RIGHT_SHIFT):
        return False
    bound = np.abs(np.asarray(bias, np.int64)) + 128 * np.abs(np.asarray(rows, np.int64)).sum(axis=1)
    return int(bound.max(initial=0)) < ACC_LIMIT


def requant_add(shift, output_zero_point: int) -> np.ndarray:
    """Per channel 2^(rs-1) + zp * 2^rs (rs = -shift): the rounding constant and the output offset of dsp_s8.h's
    aot_dsp_requant.  It is 2^(rs-1) times an odd number, so the kernels recover rs from its trailing zeros."""
    rs = -np.asarray(shift, np.int64)
    add = (1 << (rs - 1)) + int(output_zero_point) * (1 << rs)
    assert fits_int32(add), add
    return add.astype(np.int32)


def fits_int32(values) -> bool:
    v = np.asarray(values, np.int64)
    return bool(v.size == 0 or (v.min() >= -(1 << 31) and v.max() < (1 << 31)))


def as_words(stored: np.ndarray) -> np.ndarray:
    """Little-endian int32 words of an int8 byte stream (length a multiple of 4), as the kernels read it."""
    b = np.ascontiguousarray(np.asarray(stored, np.int8).reshape(-1))
    assert b.size % 4 == 0, b.size
    return b.view("<i4").astype(np.int32)


def interleave_rows(stored: np.ndarray, block: int) -> np.ndarray:
    """[R, K] (K % 4 == 0) -> bytes: rows in blocks of `block`; per block and per quad of K one word per row
    of the block; the last R % block rows follow row by row."""
    R, K = stored.shape
    full = R // block * block
    head = stored[:full].reshape(R // block, block, K // 4, 4).transpose(0, 2, 1, 3).reshape(-1)
    return np.concatenate([head, stored[full:].reshape(-1)])
