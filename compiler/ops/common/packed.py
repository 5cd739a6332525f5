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
