"""The int8 TRANSPOSE_CONV kernels: gathered per output pixel (no accumulator scratch), four output channels per
pass over a tap's inputs, on SMLAD or VMLADAVA; the portable kernel elsewhere.  All take the lowering's arguments,
the fast ones with one more: the per (output channel, tap) input-offset terms."""

import numpy as np

from ..common.kernel import Kernel


def _fast_setup(op, p, a):
    """The products are of the stored int8 values; the input offset enters per (output channel, tap) as
    in_off * (the tap's weight sum), wrapped to int32 like the accumulator."""
    sums = op.input(1).data.astype(np.int64).reshape(p["oc"], p["kh"] * p["kw"], p["ic"]).sum(axis=2)
    wrapped = (p["in_off"] * sums + (1 << 31)) % (1 << 32) - (1 << 31)
    p["tap_bias"] = wrapped.astype(np.int32).reshape(-1)
    p["table_bytes"] = p["tap_bias"].nbytes
    return None


TABLE = {
    ("TRANSPOSE_CONV", "int8"): (
        Kernel("aot_transpose_conv_s8_mve", "mve", _fast_setup),
        Kernel("aot_transpose_conv_s8_dsp", "dsp", _fast_setup),
        Kernel("aot_transpose_conv_s8", "portable"),
    ),
}
