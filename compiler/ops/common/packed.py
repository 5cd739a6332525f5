"""Packed weights for the Cortex-M0/M3 specialized convolution and fully connected bodies: two output channels per
32-bit word (crt/include/aot/kernels/dot_packed_s8_inline.h), so one SMLAL does two multiply-accumulates.

A word is w_a + w_b * 2^23 for channels a = 4g + 2j and b = a + 1 (groups g of four channels, the last zero-padded),
laid out per group as [tap][j].  The kernel's 64-bit sum splits back into both channels' sums exactly when channel
a's sum over one accumulation stays in [-2^22, 2^22); with the input zero point folded into the bias every input
value (and the pad fill) is an int8 value, so lane_bound() checks that from the weights.  A fully connected layer
that does not meet it over its whole depth splits its accumulation into runs of at most PACK_SAFE_RUN inputs,
which meet it for any weights.
"""

import numpy as np

PACK_SHIFT = 23
LANE_LIMIT = 1 << (PACK_SHIFT - 1)
# 255 * 128 * 128 < 2^22: any run this long fits the low lane whatever the weights (AOT_PACK_SAFE_RUN).
PACK_SAFE_RUN = 255


def pack(rows: np.ndarray) -> np.ndarray:
    """[C, K] int8 weights -> int32 words [ceil(C / 4), K, 2] (see module docstring)."""
    c, k = rows.shape
    groups = -(-c // 4)
    padded = np.zeros((groups * 4, k), np.int64)
    padded[:c] = rows
    padded = padded.reshape(groups, 2, 2, k)
    words = padded[:, :, 0, :] + padded[:, :, 1, :] * (1 << PACK_SHIFT)
    return np.ascontiguousarray(words.transpose(0, 2, 1)).astype(np.int32)


def lane_bound(rows: np.ndarray) -> bool:
    """True if every low-lane channel's sum of int8 inputs times its weights over all K stays in
    [-2^22, 2^22) (inputs in [-128, 127])."""
    low = np.asarray(rows, np.int64)[0::2]
    hi = np.maximum(127 * low, -128 * low).sum(axis=1)
    lo = np.minimum(127 * low, -128 * low).sum(axis=1)
    return bool(np.all(hi < LANE_LIMIT) and np.all(lo >= -LANE_LIMIT))


# --- packed inputs (crt/include/aot/kernels/conv2d_s8_xpair_inline.h) ------------------------------------------
# Two output pixels per 32-bit input word X = x0 + x1 * 2^23, built at run time in scratch; the weights stay int8.
# The low lane now holds pixel 0's sum of every channel, so the bound is checked on every row.


def xpair_weights(rows: np.ndarray) -> np.ndarray:
    """[C, K] int8 weights -> int8 [ceil(C / 4), K, 4]: per group of four output channels (the last zero-padded)
    the four channels' weights of each tap side by side."""
    c, k = rows.shape
    groups = -(-c // 4)
    padded = np.zeros((groups * 4, k), np.int8)
    padded[:c] = rows
    return np.ascontiguousarray(padded.reshape(groups, 4, k).transpose(0, 2, 1))


def xpair_lane_bound(rows: np.ndarray) -> bool:
    """True if every channel's sum of int8 inputs times its weights over all K stays in [-2^22, 2^22)."""
    r = np.asarray(rows, np.int64)
    hi = np.maximum(127 * r, -128 * r).sum(axis=1)
    lo = np.minimum(127 * r, -128 * r).sum(axis=1)
    return bool(np.all(hi < LANE_LIMIT) and np.all(lo >= -LANE_LIMIT))


def xpair_chunk(rows: np.ndarray) -> int:
    """The longest run of taps one accumulation of the input-pair body may take: all K where the bound holds,
    else PACK_SAFE_RUN."""
    k = np.asarray(rows).shape[1]
    return k if xpair_lane_bound(rows) else min(k, PACK_SAFE_RUN)
