"""Offset assignment for buffers with known lifetimes.

Greedy placement: buffers are taken in some order and each goes into the
best-fitting gap (smallest gap that is large enough) between buffers whose
lifetimes overlap it, or on top of them.  Several orderings are tried and the
smallest arena wins; ties keep the first ordering, so results are
deterministic.
"""


def _align(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def place(buffers, order, alignment: int) -> tuple[dict, int]:
    offsets = {}
    placed = []
    for b in order:
        busy = sorted((offsets[p.id], offsets[p.id] + p.size) for p in placed if p.overlaps(b))
        best = None  # (gap size, offset)
        cursor = 0
        for lo, hi in busy:
            start = _align(cursor, alignment)
            if lo - start >= b.size:
                gap = lo - start
                if best is None or gap < best[0]:
                    best = (gap, start)
            cursor = max(cursor, hi)
        offset = best[1] if best is not None else _align(cursor, alignment)
        offsets[b.id] = offset
        placed.append(b)
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
