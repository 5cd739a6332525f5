"""Conformance cases: DYNAMIC_UPDATE_SLICE in every type TFLite Micro takes (float32, int8, int16, int32), with
constant int32 / int64 start indices (in range, negative, past the end: all clamped) and run-time int32 start
indices (boundary values included), ranks 1 to 6, an update as large as the operand, a constant operand, and an
int8 update quantized differently from the operand (TFLite Micro copies stored values)."""

import numpy as np

from builders import ModelBuilder, Q
from case import Case

I32 = np.int32


def _dus(dtype, shape, ushape, starts=None, starts_dtype="int32", q_update=None, const_operand=False):
    """starts: constant start indices, or None for a run-time int32 input 's'."""

    def build():
        b = ModelBuilder()
        q = Q[dtype]
        if const_operand:
            rng = np.random.default_rng(len(shape))
            vals = (
                rng.uniform(-1, 1, shape).astype(np.float32)
                if dtype == "float32"
                else rng.integers(-100, 100, shape).astype(dtype)
            )
            x = b.const("x", vals, dtype, *q)
        else:
            x = b.input("x", shape, dtype, *q)
        u = b.input("u", ushape, dtype, *(q_update or q))
        s = (
            b.input("s", [len(shape)], "int32")
            if starts is None
            else b.const("s", np.asarray(starts, np.dtype(starts_dtype)), starts_dtype)
        )
        b.output(b.op("DYNAMIC_UPDATE_SLICE", [x, u, s], out=b.tensor("y", shape, dtype, *q)))
        return b

    return build


def _data(dtype, shape, rng):
    if dtype == "float32":
        return rng.uniform(-1, 1, shape).astype(np.float32)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)


def _runtime_inputs(dtype, shape, ushape, seed, const_operand=False):
    """Operand/update data with start vectors in range, at both limits, negative, past the end and at the int32
    extremes."""
    rng = np.random.default_rng(seed)
    rank = len(shape)
    lim = [d - u for d, u in zip(shape, ushape)]
    starts = [
        [0] * rank,
        lim,
        [int(rng.integers(0, m + 1)) for m in lim],
        [-1] * rank,
        [m + 1 for m in lim],
        [-(2**31)] * rank,
        [2**31 - 1] * rank,
        [int(v) for v in rng.integers(-3, max(lim) + 4, rank)],
    ]
    out = []
    for st in starts:
        case = [] if const_operand else [_data(dtype, shape, rng)]
        out.append(tuple(case + [_data(dtype, ushape, rng), np.asarray(st, I32)]))
    return tuple(out)


def cases():
    out = []
    shapes = [
        ([7], [3]),
        ([4, 5], [2, 3]),
        ([2, 6, 5, 3], [1, 3, 2, 3]),
        ([2, 3, 2, 4, 3, 2], [1, 2, 1, 3, 2, 2]),
        ([3, 1, 4], [3, 1, 4]),  # update as large as the operand: replaces it
        ([5, 9], [5, 1]),  # one column
    ]
    for dt in ("float32", "int8", "int16", "int32"):
        for k, (shape, ushape) in enumerate(shapes):
            name = f"runtime_starts_{len(shape)}d_{'x'.join(map(str, ushape))}"
            out.append(
                Case(
                    "DYNAMIC_UPDATE_SLICE",
                    dt,
                    name,
                    _dus(dt, shape, ushape),
                    extra_inputs=_runtime_inputs(dt, shape, ushape, k),
                    qemu_sample=dt == "int8" and k == 2,
                )
            )
        lim = [4, 5]
        for starts, sdt, label in (
            ([1, 2], "int32", "in_range"),
            ([-5, 9], "int32", "clamped"),
            ([2**40, -(2**40)], "int64", "int64_clamped"),
            ([2, 0], "int64", "int64_in_range"),
        ):
            out.append(Case("DYNAMIC_UPDATE_SLICE", dt, f"const_starts_{label}", _dus(dt, lim, [2, 3], starts, sdt)))
        out.append(
            Case(
                "DYNAMIC_UPDATE_SLICE",
                dt,
                "const_operand_runtime_starts",
                _dus(dt, [3, 4, 5], [2, 2, 3], const_operand=True),
                extra_inputs=_runtime_inputs(dt, [3, 4, 5], [2, 2, 3], 9, const_operand=True),
            )
        )
    for qu in ((0.5, -128), (0.003, 127)):
        out.append(
            Case(
                "DYNAMIC_UPDATE_SLICE",
                "int8",
                f"update_quant_{qu[0]}_{qu[1]}",
                _dus("int8", [3, 8], [2, 5], [1, 2], q_update=qu),
            )
        )
    return out
