"""Conformance cases: the network layers (convolutions, fully connected, pooling, softmax, mean) in float32, int8
and int16x8, with strides, paddings, depth multipliers and quantization drawn to be extreme."""

from builders import float_layer, pool, reduce_op, unary
from case import Case
from test_dsp_kernels import _conv_model, _fc_model
from test_int16_conv import conv as conv16, depthwise as dw16, fc as fc16, tconv as tconv16
from test_transpose_conv import natural, tconv_model


def cases():
    out = []
    for kind in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED"):
        for i, (shape, oc, k, s, pad) in enumerate(
            [([1, 7, 6, 3], 6, 3, 1, "SAME"), ([2, 9, 8, 4], 8, 3, 2, "VALID"), ([1, 5, 5, 2], 2, 1, 1, "SAME")]
        ):
            shp = [shape[0], shape[3] * shape[1]] if kind == "FULLY_CONNECTED" else shape
            out.append(Case(kind, "float32", f"f{i}", float_layer(kind, shp, oc, k, s, pad, seed=i)))
    for i, (shape, k, oc, s, pad, dil) in enumerate(
        [
            ((1, 6, 5, 8), 1, 6, (1, 1), 1, (1, 1)),
            ((1, 9, 7, 3), 3, 5, (2, 2), 0, (1, 1)),
            ((2, 8, 8, 4), 3, 4, (1, 1), 1, (2, 2)),
            ((1, 5, 9, 2), 5, 7, (1, 2), 0, (1, 1)),
        ]
    ):
        out.append(
            Case(
                "CONV_2D",
                "int8",
                f"c{i}",
                lambda a=(shape, k, oc, s, pad, dil), i=i: _conv_model(
                    "CONV_2D", a[0], a[1], a[1], a[2], a[3], a[4], a[5], in_zp=[-128, 127, 0, -7][i], seed=i
                ),
                qemu_sample=i == 1,
            )
        )
        dshape = (shape[0], shape[1], shape[2], 4)
        out.append(
            Case(
                "DEPTHWISE_CONV_2D",
                "int8",
                f"d{i}",
                lambda a=(dshape, k, s, pad, dil), i=i: _conv_model(
                    "DEPTHWISE_CONV_2D",
                    a[0],
                    a[1],
                    a[1],
                    8 if i % 2 else 4,
                    a[2],
                    a[3],
                    a[4],
                    in_zp=[127, -128, 3, 0][i],
                    seed=i,
                ),
                qemu_sample=i == 1,
            )
        )
    for i, (depth, units, batches) in enumerate([(8, 4, 1), (65, 7, 2), (640, 9, 1)]):
        out.append(
            Case(
                "FULLY_CONNECTED",
                "int8",
                f"fc{i}",
                lambda a=(depth, units, batches), i=i: _fc_model(
                    a[0], a[1], a[2], per_channel=i == 1, in_zp=[-128, 127, 0][i], seed=i
                ),
            )
        )
    out += [
        Case("CONV_2D", "int16", "c0", lambda: conv16([1, 6, 5, 3], 4)),
        Case(
            "CONV_2D", "int16", "c1_s2_valid", lambda: conv16([1, 9, 7, 4], 6, stride=2, padding="VALID", bias="int32")
        ),
        Case("DEPTHWISE_CONV_2D", "int16", "d0", lambda: dw16([1, 6, 5, 3], 2)),
        Case("FULLY_CONNECTED", "int16", "fc0", lambda: fc16(2, 33, 5)),
        Case("TRANSPOSE_CONV", "int16", "t0", lambda: tconv16([1, 3, 4, 3], 4)),
    ]
    for dt in ("int8", "float32"):
        out.append(
            Case(
                "TRANSPOSE_CONV",
                dt,
                "s2_same",
                lambda dt=dt: tconv_model([1, 4, 5, 3], 4, 3, 2, "SAME", natural((4, 5), 3, 2, "SAME"), dtype=dt),
            )
        )
    for k, st, pad in ((2, 2, "VALID"), (3, 2, "SAME"), (3, 1, "SAME")):
        out.append(
            Case(
                "L2_POOL_2D",
                "float32",
                f"k{k}s{st}{pad}",
                pool("L2_POOL_2D", [2, 9, 8, 5], "float32", k, st, pad),
                float_range=(-3, 3),
            )
        )
    for kind in ("MAX_POOL_2D", "AVERAGE_POOL_2D"):
        for dt, q in (("float32", None), ("int8", (0.05, -128)), ("int8", (0.7, 127)), ("int16", (0.001, 0))):
            for k, s, pad in ((2, 2, "VALID"), (3, 2, "SAME")):
                out.append(Case(kind, dt, f"k{k}s{s}{pad}_{q}", pool(kind, [1, 9, 8, 5], dt, k, s, pad, q)))
    for dt, qi, qo in (
        ("float32", None, None),
        ("int8", (0.1, -3), (1 / 256, -128)),
        ("int16", (0.001, 0), (1 / 32768, 0)),
    ):
        out.append(Case("SOFTMAX", dt, "beta1", unary("SOFTMAX", [3, 17], dt, qi, qo, options={"beta": 1.0})))
    for dt, qi, qo in (("float32", None, None), ("int8", (0.05, -3), (0.04, 7)), ("int16", (0.001, 0), (0.0007, 0))):
        for axes, keep in (([1, 2], True), ([-1], False)):
            out.append(
                Case("MEAN", dt, f"axes{axes}_keep{keep}", reduce_op("MEAN", [2, 5, 4, 6], axes, dt, keep, qi, qo))
            )
    return out + reduction_cases() + normalize_cases() + sum_requant_cases()


def reduction_cases():
    """SUM, REDUCE_MAX, REDUCE_MIN over varied axes, keep_dims both ways."""
    out = []
    axes_list = (([1, 2], True), ([-1], False), ([0, 3], False), ([0, 1, 2, 3], True))
    for op in ("SUM", "REDUCE_MAX", "REDUCE_MIN"):
        # TFLite Micro's REDUCE_MAX / REDUCE_MIN take float32 and int8 only.
        types = (("float32", None), ("int8", (0.05, -128))) + ((("int16", (0.001, 0)),) if op == "SUM" else ())
        for dt, q in types:
            for axes, keep in axes_list:
                out.append(
                    Case(
                        op,
                        dt,
                        f"axes{axes}_keep{keep}",
                        reduce_op(op, [2, 5, 4, 6], axes, dt, keep, q, q),
                        float_range=(-5, 5),
                    )
                )
    return out


def normalize_cases():
    out = []
    for op in ("LOG_SOFTMAX", "L2_NORMALIZATION"):
        for s in ([2, 3, 4, 10], [5, 33], [7]):
            out.append(Case(op, "float32", f"rank{len(s)}", unary(op, s, "float32"), float_range=(-8, 8)))
        # int8: the output quantization is fixed (TFLite Micro's L2_NORMALIZATION ignores the tensor's own).
        qo = (16 / 256, 127) if op == "LOG_SOFTMAX" else (1 / 128, 0)
        for i, (shape, qi) in enumerate(
            [
                ([2, 8], (0.1, 0)),
                ([2, 3, 4, 10], (0.05, -128)),
                ([5, 33], (0.5, 127)),
                ([7], (1e-6, 0)),
                ([3, 1], (3.0, -7)),
                ([1, 1000], (0.02, 5)),
                ([4, 64], (15.0, 100)),
            ]
        ):
            out.append(
                Case(op, "int8", f"q{qi}_rank{len(shape)}_{i}", unary(op, shape, "int8", qi, qo), qemu_sample=i == 1)
            )
    out.append(
        Case(
            "L2_NORMALIZATION",
            "int8",
            "other_output_quant",
            unary("L2_NORMALIZATION", [3, 20], "int8", (0.02, -3), (0.05, 9)),
        )
    )
    return out


def sum_requant_cases():
    """Quantized SUM into a differently quantized output (the sum usually needs a wider range)."""
    return [
        Case("SUM", dt, f"requant_{qi}_{qo}", reduce_op("SUM", [2, 5, 4, 6], [1, 2], dt, False, qi, qo))
        for dt, qi, qo in (
            ("int8", (0.05, -3), (0.6, 10)),
            ("int8", (0.02, 127), (0.5, -128)),
            ("int16", (0.001, 0), (0.02, 0)),
        )
    ]
