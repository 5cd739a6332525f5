"""Weight layouts and checks for the *_dsp int8 kernels (targets with the DSP extension, see targets.py).

The kernels multiply four int8 weights by four inputs with three instructions using the "raw weight word"
form (crt/src/kernels/dsp_s8.h): in every quad of weights w0..w3 the bytes at even positions are stored as
w + 128 (unsigned), and 128 * (w1 + w3) is added to the row's bias.  Only the byte values and their order
change, never the byte count: weights stay as large as in the model file.

They also use a short requantization (dsp_s8.h: one SMMLAR and one shift per output); its per-channel
constants and the proof that they are exact for the layer come from common/short_requant.short_requant, and
lowerings keep the portable kernels for a layer it refuses.
"""

import numpy as np


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


def interleave_row_groups(rows: np.ndarray) -> np.ndarray:
    """[R, K] int8, any K -> the same bytes in the order of aot_dot4_group_s8 (crt/src/kernels/dot_rows_s8.h): rows
    in groups of four; per group, per quad of K the four rows' words, then the four rows' last K % 4 bytes row by
    row; the last R % 4 rows follow row by row. The size does not change."""
    R, K = rows.shape
    full, quads = R // 4 * 4, K // 4 * 4
    if full == 0:
        return rows.reshape(-1).copy()
    groups = rows[:full].reshape(R // 4, 4, K)
    head = groups[:, :, :quads].reshape(R // 4, 4, K // 4, 4).transpose(0, 2, 1, 3).reshape(R // 4, -1)
    tail = groups[:, :, quads:].reshape(R // 4, -1)
    return np.concatenate([np.concatenate([head, tail], axis=1).reshape(-1), rows[full:].reshape(-1)])
