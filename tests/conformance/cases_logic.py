"""Conformance cases: comparisons, logical operators and SELECT_V2, with broadcasting and (int8) inputs of
different quantization."""

import numpy as np

from builders import ModelBuilder, Q, binary, unary
from case import Case

COMPARISONS = ("EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL")
PAIRS = [([2, 3, 4, 5], [2, 3, 4, 5]), ([2, 3, 4, 5], [5]), ([1, 3, 1, 5], [2, 1, 4, 1])]


def _select(dtype, sc, sx, sy, q=None):
    def build():
        b = ModelBuilder()
        out_shape = list(np.broadcast_shapes(tuple(sc), tuple(sx), tuple(sy)))
        c = b.input("c", sc, "bool")
        x = b.input("x", sx, dtype, *(q or Q[dtype]))
        y = b.input("y", sy, dtype, *(q or Q[dtype]))
        b.output(b.op("SELECT_V2", [c, x, y], out=b.tensor("out", out_shape, dtype, *(q or Q[dtype]))))
        return b

    return build


def cases():
    out = []
    for op in COMPARISONS:
        for dt in ("float32", "int32", "int8") + (("bool",) if op in ("EQUAL", "NOT_EQUAL") else ()):
            for i, (sa, sb) in enumerate(PAIRS):
                out.append(
                    Case(
                        op,
                        dt,
                        f"bcast{i}",
                        binary(op, sa, sb, dt, out_dtype="bool", qout=(None, None)),
                        float_range=(-2, 2),
                        qemu_sample=i == 2 and dt == "int8" and op == "LESS",
                    )
                )
        # Different scales and zero points: the inputs compare by real value.  Equal small scales: neighbouring
        # values rescale to the same integer and compare equal in TFLite Micro.
        for qa, qb in (
            ((0.05, -3), (0.02, 7)),
            ((0.9, 127), (0.003, -128)),
            ((0.1, 0), (0.1, 0)),
            ((0.001, 3), (0.001, 3)),
        ):
            out.append(
                Case(
                    op,
                    "int8",
                    f"q{qa}_{qb}",
                    binary(op, [4, 64], [4, 64], "int8", qa, qb, out_dtype="bool", qout=(None, None)),
                )
            )
        # int16: TFLite Micro's EQUAL..LESS_EQUAL reject it; its GREATER runs with rescaling parameters it never
        # computed (compiler/ops/comparison.py), so aotc refuses all six.
        out.append(
            Case(op, "int16", "refused", binary(op, [4], [4], "int16", out_dtype="bool", qout=(None, None)), refused=op)
        )
    for op in ("LOGICAL_AND", "LOGICAL_OR"):
        for i, (sa, sb) in enumerate(PAIRS):
            out.append(Case(op, "bool", f"bcast{i}", binary(op, sa, sb, "bool")))
    out.append(Case("LOGICAL_NOT", "bool", "rank3", unary("LOGICAL_NOT", [2, 3, 7], "bool")))
    for dt in ("float32", "int8", "int16"):  # TFLite Micro's SELECT_V2 has no int32
        out.append(Case("SELECT_V2", dt, "same", _select(dt, [2, 3, 4], [2, 3, 4], [2, 3, 4])))
        out.append(Case("SELECT_V2", dt, "bcast", _select(dt, [3, 1], [1, 4], [3, 4]), qemu_sample=dt == "int16"))
    return out
