"""Conformance cases: element-wise unary and binary operators in every type TFLite Micro's kernels take."""

import numpy as np

from builders import Q_EXTREME, binary, leaky_relu_options, unary
from case import Case

F32_UNARY = {
    "ABS": (-5, 5),
    "NEG": (-5, 5),
    "SQRT": (0, 100),
    "RSQRT": (0.01, 100),
    "EXP": (-20, 20),
    "LOG": (1e-3, 1e3),
    "SQUARE": (-100, 100),
    "SIN": (-10, 10),
    "COS": (-10, 10),
    "FLOOR": (-10, 10),
    "CEIL": (-10, 10),
    "ROUND": (-10, 10),
    "RELU": (-3, 3),
    "RELU6": (-3, 9),
    "LOGISTIC": (-9, 9),
    "TANH": (-5, 5),
    "HARD_SWISH": (-5, 5),
    "LEAKY_RELU": (-3, 3),
}
SHAPES = [[2, 3, 4, 5], [1, 17], [7]]


def cases():
    out = []
    for op, rng in F32_UNARY.items():
        opts = leaky_relu_options(0.2) if op == "LEAKY_RELU" else None
        for i, s in enumerate(SHAPES):
            out.append(
                Case(
                    op,
                    "float32",
                    f"rank{len(s)}_{i}",
                    unary(op, s, "float32", options=opts),
                    float_range=rng,
                    qemu_sample=i == 0 and op in ("EXP", "ROUND"),
                )
            )
    # Quantized forms TFLite Micro has.
    for qi, qo in [((0.05, 0), (0.05, 0)), ((0.02, 127), (0.1, -128)), ((0.3, -7), (0.01, 5))]:
        out.append(
            Case("ABS", "int8", f"q{qi}_{qo}", unary("ABS", [3, 50], "int8", qi, qo), qemu_sample=qi == (0.02, 127))
        )
    for qi, qo in [((0.001, 0), (0.001, 0)), ((2e-5, 0), (0.7, 0))]:
        out.append(Case("ABS", "int16", f"q{qi}_{qo}", unary("ABS", [3, 50], "int16", qi, qo)))
    for qi in [(2.0**-12, 0), (2.0**-11, 0), (1 / 3000, 0), (1e-6, 0), (2.5, 0)]:
        for op in ("LOGISTIC", "TANH"):
            out.append(
                Case(
                    op,
                    "int16",
                    f"in_scale_{qi[0]:.3g}",
                    unary(op, [4, 64], "int16", qi, (1 / 32768, 0)),
                    qemu_sample=qi[0] == 1 / 3000,
                )
            )
    for op, qo in (("LOGISTIC", (1 / 256, -128)), ("TANH", (1 / 128, 0))):
        for qi in [(0.05, -3)] + Q_EXTREME["int8"]:
            out.append(Case(op, "int8", f"in{qi}", unary(op, [4, 40], "int8", qi, qo)))
    for dt in ("int8", "int16"):
        for qi in Q_EXTREME[dt]:
            out.append(
                Case("RELU", dt, f"in{qi}", unary("RELU", [5, 21], dt, qi, (qi[0] * 1.7, 0 if dt == "int16" else 9)))
            )
            out.append(
                Case(
                    "LEAKY_RELU",
                    dt,
                    f"in{qi}",
                    unary(
                        "LEAKY_RELU",
                        [5, 21],
                        dt,
                        qi,
                        (qi[0] * 0.8, 0 if dt == "int16" else -9),
                        options=leaky_relu_options(0.1),
                    ),
                )
            )
    out += rsqrt_int8_cases()
    # Binary with broadcasting.
    pairs = [([2, 3, 4, 5], [2, 3, 4, 5]), ([2, 3, 4, 5], [5]), ([1, 3, 1, 5], [2, 1, 4, 1])]
    for op in ("MAXIMUM", "MINIMUM"):
        for dt in ("float32", "int8", "int16"):
            for i, (sa, sb) in enumerate(pairs):
                out.append(Case(op, dt, f"bcast{i}", binary(op, sa, sb, dt), qemu_sample=i == 2 and dt == "int8"))
    for op in ("ADD", "SUB", "MUL"):
        for dt in ("float32", "int8", "int16"):
            for i, (sa, sb) in enumerate(pairs):
                qo = {"float32": None, "int8": (0.07, 4), "int16": (0.002, 0)}[dt]
                out.append(Case(op, dt, f"bcast{i}", binary(op, sa, sb, dt, qout=qo)))
    out.append(
        Case("DIV", "float32", "bcast", binary("DIV", [2, 3, 4, 5], [5], "float32", const_b=[1.5, -2, 3, 0.25, 7]))
    )
    return out + more_cases() + squared_difference_cases() + elu_cases() + add_n_cases()


def _from_zero_point(zp, shape, seed):
    """int8 inputs at or above the zero point (TFLite Micro's RSQRT rejects the rest at run time), boundaries first."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    vals = np.concatenate([[zp, min(zp + 1, 127), 127], rng.integers(zp, 128, size=max(n - 3, 0))])[:n]
    return np.resize(vals, n).astype(np.int8).reshape(shape)


def rsqrt_int8_cases():
    """int8 RSQRT: every valid input (zero point -128), tiny and large scales, other zero points with inputs drawn
    at or above them."""
    out = []
    for qi, qo in [
        ((0.1, -128), (0.1, 0)),
        ((0.02, -128), (0.05, -128)),
        ((1e-5, -128), (8.0, 127)),
        ((6.0, -128), (0.004, -128)),
        ((2.0**-7, -128), (2.0**-4, -3)),
    ]:
        out.append(
            Case("RSQRT", "int8", f"q{qi}_{qo}", unary("RSQRT", [4, 64], "int8", qi, qo), qemu_sample=qi[0] == 0.1)
        )
    for shape, qi, qo in [
        ([2, 3, 4, 5], (0.05, 0), (0.03, -20)),
        ([33], (0.3, 127), (0.5, 0)),
        ([7, 9], (1e-3, -57), (0.4, 100)),
    ]:
        out.append(
            Case(
                "RSQRT",
                "int8",
                f"zp{qi[1]}_rank{len(shape)}",
                unary("RSQRT", shape, "int8", qi, qo),
                extra_inputs=tuple([_from_zero_point(qi[1], shape, seed)] for seed in range(4)),
                only_extra=True,
            )
        )
    return out


def more_cases():
    """FLOOR_DIV / FLOOR_MOD (float32: signs mixed, exact multiples) and ARG_MAX / ARG_MIN over each axis."""
    from builders import schema_options, with_consts
    import numpy as np

    out = []
    for op, opt in (("FLOOR_DIV", "FloorDivOptionsT"), ("FLOOR_MOD", "FloorModOptionsT")):
        for i, (sa, sb) in enumerate([([2, 3, 4, 5], [5]), ([3, 7], [3, 7])]):
            out.append(
                Case(
                    op,
                    "float32",
                    f"bcast{i}",
                    binary(op, sa, sb, "float32", const_b=[2.5, -1.5, 3.0, -0.75, 7.0], options=schema_options(opt)),
                    float_range=(-20, 20),
                )
            )
    for op, opt in (("ARG_MAX", "ArgMaxOptionsT"), ("ARG_MIN", "ArgMinOptionsT")):
        for dt, q in (("float32", None), ("int8", (0.05, -3)), ("int8", (0.5, 127))):
            for axis in (0, 1, -1):
                shape = [3, 5, 4]
                out_shape = [d for i, d in enumerate(shape) if i != axis % 3]
                out.append(
                    Case(
                        op,
                        dt,
                        f"axis{axis}_{q}",
                        with_consts(
                            op,
                            shape,
                            dt,
                            [np.array([axis], np.int32)],
                            out_shape,
                            schema_options(opt, outputType=2),
                            q=q,
                            out_dtype="int32",
                            qout=(None, None),
                        ),
                        qemu_sample=op == "ARG_MAX" and dt == "int8" and axis == -1 and q[1] == -3,
                    )
                )
        out.append(
            Case(
                op,
                "float32",
                "int64_refused",
                with_consts(
                    op,
                    [3, 5],
                    "float32",
                    [np.array([1], np.int32)],
                    [3],
                    schema_options(opt, outputType=4),
                    out_dtype="int64",
                    qout=(None, None),
                ),
                refused="int64",
            )
        )
    return out


def squared_difference_cases():
    out = []
    pairs = [([2, 3, 4, 5], [2, 3, 4, 5]), ([2, 3, 4, 5], [5]), ([1, 3, 1, 5], [2, 1, 4, 1])]
    quants = {
        "float32": [(None, None, None)],
        "int32": [(None, None, None)],
        "int8": [
            ((0.05, -3), (0.02, 7), (0.1, -128)),
            ((0.9, 127), (0.003, -128), (0.5, 3)),
            ((0.01, 0), (0.01, 0), (2e-4, -100)),
        ],
        "int16": [((0.001, 0), (0.003, 0), (0.01, 0)), ((3e-5, 0), (3e-5, 0), (1e-6, 0))],
    }
    for dt, qs in quants.items():
        for qa, qb, qo in qs:
            for i, (sa, sb) in enumerate(pairs):
                out.append(
                    Case(
                        "SQUARED_DIFFERENCE",
                        dt,
                        f"bcast{i}_{qa}_{qb}_{qo}",
                        binary("SQUARED_DIFFERENCE", sa, sb, dt, qa, qb, qo),
                        float_range=(-3, 3),
                        qemu_sample=dt == "int8" and i == 2 and qa == (0.05, -3),
                    )
                )
    return out


def elu_cases():
    out = [
        Case("ELU", "float32", f"rank{len(s)}", unary("ELU", s, "float32"), float_range=(-6, 3))
        for s in ([2, 3, 4, 5], [17])
    ]
    for qi, qo in [
        ((0.05, -3), (0.04, 20)),
        ((0.1, 127), (0.02, -128)),
        ((0.003, -128), (0.5, 100)),
        ((0.2, 0), (0.2, 0)),
    ]:
        out.append(
            Case("ELU", "int8", f"q{qi}_{qo}", unary("ELU", [2, 128], "int8", qi, qo), qemu_sample=qi == (0.05, -3))
        )
    return out


def _add_n(dtype, n, shape, q=None):
    def build():
        from builders import ModelBuilder, Q

        b = ModelBuilder()
        qq = q or Q[dtype]
        ins = [b.input(f"x{i}", shape, dtype, *qq) for i in range(n)]
        b.output(b.op("ADD_N", ins, out=b.tensor("y", shape, dtype, *qq)))
        return b

    return build


def add_n_cases():
    return [Case("ADD_N", "float32", f"n{n}", _add_n("float32", n, [2, 3, 7])) for n in (2, 3, 5)] + [
        Case("ADD_N", "int8", f"n{n}_{q}_{qo}", _add_n_q(n, [4, 5], q, qo), qemu_sample=n == 3 and q[1] == -3)
        for n, q, qo in (
            (2, (0.05, -3), (0.2, 4)),
            (3, (0.05, -3), (0.3, -10)),
            (4, (0.02, 127), (0.5, -128)),
            (2, (0.1, -128), (0.4, 127)),
        )
    ]


def _add_n_q(n, shape, q, qo):
    def build():
        from builders import ModelBuilder

        b = ModelBuilder()
        ins = [b.input(f"x{i}", shape, "int8", *q) for i in range(n)]
        b.output(b.op("ADD_N", ins, out=b.tensor("y", shape, "int8", *qo)))
        return b

    return build
