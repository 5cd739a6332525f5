"""NCHW <-> NHWC permutations.  Only 4-D activations get an NHWC twin; everything else stays in ONNX order."""

TO_NHWC = (0, 2, 3, 1)
TO_NCHW = (0, 3, 1, 2)


def permute(shape, perm) -> tuple:
    return tuple(int(shape[p]) for p in perm)


def only_unit_dims_move(shape, perm) -> bool:
    """True when a permutation moves only size-1 dimensions, so the bytes are unchanged (a reshape)."""
    kept = [p for p in perm if int(shape[p]) != 1]
    return kept == sorted(kept)


def nhwc_axis(axis: int) -> int:
    """Position in NHWC of NCHW axis `axis` (0..3)."""
    return TO_NHWC.index(axis)
