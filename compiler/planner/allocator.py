"""Offset assignment for buffers with known lifetimes.

Greedy placement: buffers are taken in some order and each goes into the
best-fitting gap (smallest gap that is large enough) between buffers whose
lifetimes overlap it, or on top of them.  Several orderings are tried and the
smallest arena wins; ties keep the first ordering, so results are
deterministic.
"""

import numpy as np


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def place(buffers, order, alignment: int) -> tuple[dict, int]:
    # numpy keeps this linear per buffer in C: a model may have 10,000 operators (compiler/limits.py), and a
    # Python scan over every placed buffer for every buffer took minutes there.
    n = len(order)
    starts, ends = np.empty(n, np.int64), np.empty(n, np.int64)
    offs, sizes = np.empty(n, np.int64), np.empty(n, np.int64)
    offsets = {}
    for k, b in enumerate(order):
        live = (starts[:k] <= b.end) & (ends[:k] >= b.start)
        lo = offs[:k][live]
        hi = lo + sizes[:k][live]
        offset = 0
        if lo.size:
            by_offset = np.lexsort((hi, lo))
            lo, hi = lo[by_offset], hi[by_offset]
            # The lowest free byte before each busy range, aligned: gaps between busy ranges, best fit wins
            # (the first of equal gaps), else on top of everything.
            cursor = np.concatenate(([0], np.maximum.accumulate(hi)[:-1]))
            start = (cursor + alignment - 1) // alignment * alignment
            gap = lo - start
            fits = np.flatnonzero(gap >= b.size)
            if fits.size:
                offset = int(start[fits[np.argmin(gap[fits])]])
            else:
                offset = _align(int(hi.max()), alignment)
        offsets[b.id] = offset
        starts[k], ends[k], offs[k], sizes[k] = b.start, b.end, offset, b.size
    total = max((offsets[b.id] + b.size for b in buffers), default=0)
    return offsets, _align(total, alignment)


def allocate(buffers, alignment: int) -> tuple[dict, int]:
    orderings = [
        sorted(buffers, key=lambda b: (-b.size, b.start, b.id)),
        sorted(buffers, key=lambda b: (-(b.end - b.start + 1) * b.size, b.start, b.id)),
        sorted(buffers, key=lambda b: (b.start, -b.size, b.id)),
        sorted(buffers, key=lambda b: (-(b.end - b.start), -b.size, b.id)),
    ]
    best = None
    for order in orderings:
        offsets, total = place(buffers, order, alignment)
        if best is None or total < best[1]:
            best = (offsets, total)
    return best
