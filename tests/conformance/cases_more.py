"""Conformance cases for operators whose own tests live elsewhere (tests/compiler), so the coverage table sees
every type: int32 arithmetic, bool data movement, DIV / HARD_SWISH / RELU6 / PRELU / PADV2 quantized, BATCH_MATMUL,
SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM (one invocation here; the state carried over invocations is tested in
tests/compiler/test_stateful.py and test_lstm.py)."""

import numpy as np

from builders import ModelBuilder, Q, binary, schema_options, unary, with_consts
from case import Case

I32 = np.int32


def _matmul(dtype, sa, sb, qa=None, qb=None, qo=None):
    def build():
        b = ModelBuilder()
        x = b.input("a", sa, dtype, *(qa or Q[dtype]))
        y = b.input("b", sb, dtype, *(qb or Q[dtype]))
        out_shape = list(np.broadcast_shapes(tuple(sa[:-2]), tuple(sb[:-2]))) + [sa[-2], sb[-1]]
        b.output(
            b.op(
                "BATCH_MATMUL",
                [x, y],
                out=b.tensor("y", out_shape, dtype, *(qo or Q[dtype])),
                options=schema_options("BatchMatMulOptionsT")(),
            )
        )
        return b

    return build


def _prelu(dtype, shape, alpha_shape, qa=None, qo=None):
    def build():
        rng = np.random.default_rng(0)
        b = ModelBuilder()
        x = b.input("x", shape, dtype, *(Q[dtype] if qa is None else qa))
        if dtype == "float32":
            a = b.const("alpha", rng.uniform(-0.5, 0.5, alpha_shape).astype(np.float32), "float32")
        else:
            a = b.const("alpha", rng.integers(-128, 128, alpha_shape).astype(np.int8), "int8", 0.004, 3)
        b.output(b.op("PRELU", [x, a], out=b.tensor("y", shape, dtype, *(Q[dtype] if qo is None else qo))))
        return b

    return build


def cases():
    from test_lstm import lstm_model
    from test_stateful import svdf_model

    out = []
    pairs = [([2, 3, 4], [2, 3, 4]), ([2, 3, 4], [4])]
    for op in ("ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM"):
        for i, (sa, sb) in enumerate(pairs):
            out.append(Case(op, "int32", f"bcast{i}", binary(op, sa, sb, "int32")))
    out += div_int32_cases()
    out.append(Case("CONCATENATION", "int32", "axis1", lambda: _concat("int32")))
    out.append(Case("CONCATENATION", "bool", "axis1", lambda: _concat("bool")))
    out.append(
        Case(
            "RESHAPE",
            "bool",
            "3d_to_2d",
            with_consts("RESHAPE", [2, 3, 4], "bool", [np.array([6, 4], I32)], [6, 4], {"newShape": [6, 4]}),
        )
    )
    out.append(
        Case(
            "SQUEEZE",
            "bool",
            "axis0",
            with_consts("SQUEEZE", [1, 3, 4], "bool", [], [3, 4], schema_options("SqueezeOptionsT", squeezeDims=[0])),
        )
    )
    out.append(
        Case(
            "STRIDED_SLICE",
            "bool",
            "strided",
            with_consts(
                "STRIDED_SLICE",
                [4, 6],
                "bool",
                [np.array([1, 0], I32), np.array([4, 6], I32), np.array([2, 2], I32)],
                [2, 3],
                schema_options("StridedSliceOptionsT"),
            ),
        )
    )
    out.append(
        Case(
            "BROADCAST_TO",
            "bool",
            "rank_up",
            with_consts("BROADCAST_TO", [3, 1], "bool", [np.array([2, 3, 4], I32)], [2, 3, 4]),
        )
    )
    for qa, qb, qo in (((0.05, -3), (0.1, 7), (0.02, 4)), ((0.5, 127), (0.9, -128), (0.3, 0))):
        out.append(
            Case(
                "DIV",
                "int8",
                f"q{qa}_{qb}_{qo}",
                binary("DIV", [3, 8], [8], "int8", qa, qb, qo, const_b=[1, 2, 3, 5, 7, 9, 11, 13]),
            )
        )
    out += div_int8_cases()
    for qi, qo in (((0.05, -3), (0.04, 7)), ((0.1, 127), (0.02, -128))):
        out.append(Case("HARD_SWISH", "int8", f"q{qi}_{qo}", unary("HARD_SWISH", [3, 64], "int8", qi, qo)))
    for dt, q in (("int8", (0.05, -3)), ("int8", (0.04, -128)), ("int16", (0.001, 0))):
        out.append(Case("RELU6", dt, f"q{q}", unary("RELU6", [3, 50], dt, q, q)))
    for dt in ("float32", "int8", "int16"):
        value = {
            "float32": np.array([1.5], np.float32),
            "int8": np.array([-7], np.int8),
            "int16": np.array([300], np.int16),
        }[dt]
        out.append(Case("PADV2", dt, "value", lambda dt=dt, value=value: _padv2(dt, value)))
    out.append(Case("PRELU", "float32", "channel_alpha", _prelu("float32", [1, 4, 5, 6], [1, 1, 6])))
    for qa, qo in (((0.05, -3), (0.03, 5)), ((0.5, 127), (0.02, -128)), ((0.004, -128), (0.9, 100))):
        out.append(
            Case(
                "PRELU",
                "int8",
                f"channel_alpha_{qa}_{qo}",
                _prelu("int8", [1, 4, 5, 6], [1, 1, 6], qa, qo),
                qemu_sample=qa == (0.05, -3),
            )
        )
    out.append(Case("PRELU", "int8", "full_alpha", _prelu("int8", [2, 3, 4], [2, 3, 4], (0.1, 3), (0.05, -2))))
    for dt, qs in (
        ("float32", (None, None, None)),
        ("int8", ((0.05, -3), (0.02, 0), (0.3, 5))),
        ("int16", ((0.001, 0), (0.002, 0), (0.05, 0))),
    ):
        out.append(
            Case("BATCH_MATMUL", dt, "batched", _matmul(dt, [2, 3, 5], [2, 5, 4], *qs), qemu_sample=dt != "float32")
        )
        out.append(Case("BATCH_MATMUL", dt, "broadcast_rhs", _matmul(dt, [3, 4, 16], [1, 16, 3], *qs)))
    out.append(
        Case(
            "BATCH_MATMUL",
            "int8",
            "zp_limits",
            _matmul("int8", [2, 2, 40], [2, 40, 3], (0.02, 127), (0.05, -128), (2.0, -128)),
        )
    )
    out.append(Case("SVDF", "int8", "one_step", lambda: svdf_model()))
    out.append(Case("SVDF", "float32", "one_step", lambda: svdf_model(dtype="float32", state_dtype="float32")))
    out.append(Case("UNIDIRECTIONAL_SEQUENCE_LSTM", "float32", "steps4", lambda: lstm_model("float32")[0]))
    out.append(Case("UNIDIRECTIONAL_SEQUENCE_LSTM", "int8", "steps4", lambda: lstm_model("int8")[0]))
    return out + more_cases() + embedding_cases() + broadcast_args_cases()


def _concat(dtype):
    b = ModelBuilder()
    x = b.input("x0", [2, 3], dtype)
    y = b.input("x1", [2, 2], dtype)
    b.output(b.op("CONCATENATION", [x, y], out=b.tensor("y", [2, 5], dtype), options={"axis": 1}))
    return b


def _padv2(dtype, value):
    b = ModelBuilder()
    q = Q[dtype]
    x = b.input("x", [1, 3, 4, 2], dtype, *q)
    pads = b.const("pads", np.array([[0, 0], [1, 1], [2, 0], [0, 0]], I32), "int32")
    v = b.const("value", value, dtype, *q)
    b.output(b.op("PADV2", [x, pads, v], out=b.tensor("y", [1, 5, 6, 2], dtype, *q)))
    return b


def more_cases():
    from builders import reduce_op

    out = []
    for dt in ("float32", "int8"):  # TFLite Micro's GATHER_ND
        out.append(
            Case(
                "GATHER_ND",
                dt,
                "k2",
                with_consts("GATHER_ND", [3, 4, 5], dt, [np.array([[2, 1], [0, 3], [2, 1]], I32)], [3, 5]),
            )
        )
        out.append(
            Case(
                "GATHER_ND",
                dt,
                "k3_batched",
                with_consts("GATHER_ND", [3, 4, 5], dt, [np.array([[[0, 0, 4]], [[2, 3, 1]]], I32)], [2, 1]),
            )
        )
    out.append(
        Case(
            "SHAPE",
            "int32",
            "rank4",
            with_consts(
                "SHAPE",
                [2, 3, 4, 5],
                "float32",
                [],
                [4],
                out_dtype="int32",
                qout=(None, None),
                options=schema_options("ShapeOptionsT", outType=2),
            ),
        )
    )
    for axes, keep in (([1], False), ([0, 2], True)):
        out.append(Case("REDUCE_ALL", "bool", f"axes{axes}", reduce_op("REDUCE_ALL", [3, 4, 2], axes, "bool", keep)))
    for excl in (False, True):
        for rev in (False, True):
            out.append(
                Case(
                    "CUMSUM",
                    "float32",
                    f"excl{int(excl)}_rev{int(rev)}",
                    with_consts(
                        "CUMSUM",
                        [2, 5, 3],
                        "float32",
                        [np.array([1], I32)],
                        [2, 5, 3],
                        schema_options("CumsumOptionsT", exclusive=excl, reverse=rev),
                    ),
                )
            )
    # int8 (TFLite Micro's other CUMSUM type): every option pair, first / last / middle axis, an axis long enough
    # for the 32-bit running sum to wrap (64 x 255 x 2^19), zero points and scales at the limits.
    for i, (shape, axis, qin, qout) in enumerate(
        (
            ([2, 5, 3], 1, (0.05, -3), (0.1, 2)),
            ([7, 4], 0, (0.003, 127), (0.5, -128)),
            ([3, 2, 9], -1, (0.5, -128), (0.01, 127)),
            ([1, 64], 1, (0.02, -128), (0.03, 0)),
            ([4, 1, 6], 1, (1e-4, 0), (1e-4, 0)),
        )
    ):
        for excl in (False, True):
            for rev in (False, True):
                out.append(
                    Case(
                        "CUMSUM",
                        "int8",
                        f"s{i}_axis{axis}_excl{int(excl)}_rev{int(rev)}",
                        with_consts(
                            "CUMSUM",
                            shape,
                            "int8",
                            [np.array([axis], I32)],
                            shape,
                            schema_options("CumsumOptionsT", exclusive=excl, reverse=rev),
                            q=qin,
                            qout=qout,
                        ),
                        qemu_sample=i == 0 and excl and rev,
                    )
                )
    out.append(
        Case(
            "CAST",
            "int16",
            "to_int32",
            with_consts("CAST", [4, 9], "int16", [], [4, 9], out_dtype="int32", q=(None, None), qout=(None, None)),
        )
    )
    out.append(
        Case(
            "CAST",
            "bool",
            "to_float32",
            with_consts("CAST", [4, 9], "bool", [], [4, 9], out_dtype="float32", qout=(None, None)),
        )
    )
    out.append(
        Case(
            "QUANTIZE",
            "int32",
            "to_int16",
            with_consts(
                "QUANTIZE",
                [2, 30],
                "int32",
                [],
                [2, 30],
                q=(1.4901161e-07, 0),
                out_dtype="int16",
                qout=(0.00092197146, 0),
            ),
        )
    )
    return out


def _embedding(value_dtype, out_dtype, q=None):
    def build():
        b = ModelBuilder()
        ids = b.const("ids", np.array([3, 0, 4, 4, 1], I32), "int32")
        v = b.input("value", [5, 2, 3], value_dtype, *(q or (None, None)))
        b.output(
            b.op(
                "EMBEDDING_LOOKUP",
                [ids, v],
                out=b.tensor("y", [5, 2, 3], out_dtype, *(q if out_dtype == value_dtype and q else (None, None))),
            )
        )
        return b

    return build


def embedding_cases():
    return [
        Case("EMBEDDING_LOOKUP", "float32", "rows", _embedding("float32", "float32")),
        Case("EMBEDDING_LOOKUP", "int8", "rows", _embedding("int8", "int8", (0.05, 3))),
        Case("EMBEDDING_LOOKUP", "int8", "hybrid_to_float", _embedding("int8", "float32", (0.05, 0)), qemu_sample=True),
    ]


def _bargs(sa, sb):
    def build():
        b = ModelBuilder()
        x = b.input("a", [len(sa)], "int32")
        y = b.const("b", np.array(sb, I32), "int32")
        b.output(b.op("BROADCAST_ARGS", [x, y], out=b.tensor("y", [max(len(sa), len(sb))], "int32")))
        return b

    return build


def broadcast_args_cases():
    # Random int32 shapes would not broadcast: only the given shapes run.
    return [
        Case(
            "BROADCAST_ARGS",
            "int32",
            f"{len(sa)}d_{len(sb)}d",
            _bargs(sa, sb),
            extra_inputs=((np.array(sa, I32),), (np.ones(len(sa), I32),)),
            only_extra=True,
        )
        for sa, sb in (([2, 1, 4], [3, 1]), ([5], [2, 3, 5]))
    ]


def _every_pair(qa, qb, qo, options=None):
    """DIV over every (dividend, divisor) int8 pair: a [256, 1] by [1, 256] broadcast, divisors at the zero point
    (x / 0) included."""
    every = np.arange(-128, 128, dtype=np.int8)
    return Case(
        "DIV",
        "int8",
        f"every_pair_{qa}_{qb}_{qo}" + ("_relu" if options else ""),
        binary("DIV", [256, 1], [1, 256], "int8", qa, qb, qo, options=options),
        extra_inputs=(([every.reshape(256, 1), every.reshape(1, 256)]),),
        only_extra=True,
    )


def div_int8_cases():
    """int8 DIV: broadcasting in either direction, both inputs at run time, a fused activation, zero points at the
    limits, tiny and large scales (ratios near the 2^-26 and 2^22 ends TFLite Micro's shifts allow), ties (scale
    ratios that are exact in decimal, e.g. 0.05 / (0.1 * 0.02)) and every input pair for some of them."""
    out = []
    shapes = [([2, 3, 4, 5], [5]), ([5], [2, 3, 4, 5]), ([1, 3, 1, 5], [2, 1, 4, 1]), ([2, 3, 4, 5], [2, 3, 4, 5])]
    quants = [
        ((0.05, -3), (0.1, 7), (0.02, 4)),
        ((0.02, -128), (0.05, 127), (0.3, -128)),
        ((1e-4, 127), (0.5, -128), (1e-3, 0)),
        ((3.0, 0), (1e-3, -128), (2000.0, 127)),
    ]
    for i, (sa, sb) in enumerate(shapes):
        qa, qb, qo = quants[i]
        out.append(
            Case(
                "DIV", "int8", f"bcast{i}_{qa}_{qb}_{qo}", binary("DIV", sa, sb, "int8", qa, qb, qo), qemu_sample=i == 2
            )
        )
    relu = schema_options("DivOptionsT", fusedActivationFunction=1)
    out.append(
        Case("DIV", "int8", "relu", binary("DIV", [3, 17], [3, 17], "int8", (0.04, 10), (0.02, -5), (0.05, -100), relu))
    )
    out += [
        _every_pair((0.05, -3), (0.1, 7), (0.02, 4)),
        _every_pair((1.0, 0), (1.0, 0), (1.0, 0)),
        _every_pair((0.3, 127), (0.1, -128), (0.1, -128)),
        # The small end: quotients far below one output step (final shifts of 32..63 bits, 63 reached).
        _every_pair((1e-6, 5), (2.0, -100), (3.0, 3)),
        _every_pair((1e-6, 5), (20.0, -100), (3.0, 3)),
        # The large end: final shifts down to 0.
        _every_pair((0.5, -128), (1e-3, 127), (2e-4, -128)),
        _every_pair((0.04, 10), (0.02, -5), (0.05, -100), relu),
    ]
    return out


def div_int32_cases():
    """Raw int32 DIV (TFLite Micro's truncating int32 kernel): signs mixed, same shape and broadcast, divisors drawn
    non-zero and never INT32_MIN / -1 (both trap on the host's interpreter)."""
    rng = np.random.default_rng(32)
    out = []
    for i, (sa, sb) in enumerate([([2, 3, 4], [2, 3, 4]), ([2, 3, 4], [4])]):
        runs = []
        for k in range(4):
            big = 2**31 - 1 if k % 2 else 1000
            a = rng.integers(-big, big, size=sa, endpoint=True).astype(I32)
            b = rng.integers(1, 50 if k < 2 else big, size=sb, endpoint=True) * rng.choice([-1, 1], size=sb)
            runs.append([a, b.astype(I32)])
        out.append(
            Case("DIV", "int32", f"bcast{i}", binary("DIV", sa, sb, "int32"), extra_inputs=tuple(runs), only_extra=True)
        )
    return out
