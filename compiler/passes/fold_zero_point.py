"""Fold the input zero point into int32 biases.

sum_k w[c,k] * (x[k] + off) + b[c] == sum_k w[c,k] * x[k] + (b[c] + off * sum_k w[c,k])
holds exactly in integer arithmetic, so kernels can skip the per-tap add.
It is only valid when every tap reads a real input element (no padding);
callers decide that.
"""

import numpy as np


def fold_input_offset(weights_by_channel: np.ndarray, bias: np.ndarray, input_offset: int) -> np.ndarray:
    """weights_by_channel: [channels, K] int8; returns the folded int32 bias."""
    sums = weights_by_channel.astype(np.int64).sum(axis=1)
    folded = bias.astype(np.int64) + int(input_offset) * sums
    if folded.min(initial=0) < -(1 << 31) or folded.max(initial=0) >= (1 << 31):
        raise OverflowError("folded bias does not fit in int32")
    return folded.astype(np.int32)
