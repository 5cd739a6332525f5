"""Conformance cases: data movement and type conversion (RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE, CONCATENATION,
STRIDED_SLICE, PAD, PADV2, GATHER, QUANTIZE, DEQUANTIZE, CAST) in the types TFLite Micro takes."""

import numpy as np

from builders import ModelBuilder, Q, schema_options, with_consts
from case import Case

I32 = np.int32


def _concat(dtype, shapes, axis, qs):
    def build():
        b = ModelBuilder()
        ins = [b.input(f"x{i}", s, dtype, *q) for i, (s, q) in enumerate(zip(shapes, qs))]
        out_shape = list(shapes[0])
        out_shape[axis] = sum(s[axis] for s in shapes)
        b.output(b.op("CONCATENATION", ins, out=b.tensor("y", out_shape, dtype, *qs[0]), options={"axis": axis}))
        return b

    return build


def cases():
    out = []
    for dt in ("float32", "int8", "int16", "int32"):
        out.append(
            Case(
                "RESHAPE",
                dt,
                "3d_to_2d",
                with_consts("RESHAPE", [2, 3, 4], dt, [np.array([6, 4], I32)], [6, 4], {"newShape": [6, 4]}),
            )
        )
        out.append(
            Case(
                "SQUEEZE",
                dt,
                "axis0",
                with_consts(
                    "SQUEEZE", [1, 3, 1, 4], dt, [], [3, 4], schema_options("SqueezeOptionsT", squeezeDims=[0, 2])
                ),
            )
        )
        if dt != "int32":  # TFLite Micro's EXPAND_DIMS takes float32, int8 and int16
            out.append(
                Case(
                    "EXPAND_DIMS", dt, "axis1", with_consts("EXPAND_DIMS", [3, 4], dt, [np.array([1], I32)], [3, 1, 4])
                )
            )
        if dt != "int32":  # TFLite Micro's TRANSPOSE: float32, int8, int16
            out.append(
                Case(
                    "TRANSPOSE",
                    dt,
                    "perm0312",
                    with_consts("TRANSPOSE", [2, 3, 4, 5], dt, [np.array([0, 3, 1, 2], I32)], [2, 5, 3, 4]),
                )
            )
        out.append(
            Case(
                "STRIDED_SLICE",
                dt,
                "strided",
                with_consts(
                    "STRIDED_SLICE",
                    [1, 6, 10, 4],
                    dt,
                    [np.array([0, 1, -8, 0], I32), np.array([1, 6, 10, 3], I32), np.array([1, 2, 3, 1], I32)],
                    [1, 3, 3, 3],
                    schema_options("StridedSliceOptionsT"),
                ),
            )
        )
    for dt in ("float32", "int8", "int16"):
        q = Q[dt]
        out.append(Case("CONCATENATION", dt, "axis_last", _concat(dt, [[2, 3, 4], [2, 3, 2]], 2, [q, q])))
        out.append(Case("CONCATENATION", dt, "axis0", _concat(dt, [[2, 3], [1, 3], [4, 3]], 0, [q, q, q])))
        pads = np.array([[0, 0], [1, 2], [0, 3], [0, 0]], I32)
        out.append(Case("PAD", dt, "hw", with_consts("PAD", [1, 4, 5, 3], dt, [pads], [1, 7, 8, 3])))
        if dt == "int8":
            out.append(
                Case("PAD", dt, "zp_limit", with_consts("PAD", [1, 4, 5, 3], dt, [pads], [1, 7, 8, 3], q=(0.1, 127)))
            )
    # int32 PAD pads with 0 (TFLite Micro runs it; no quantization).
    pads = np.array([[1, 0], [0, 2], [3, 1]], I32)
    out.append(Case("PAD", "int32", "rank3", with_consts("PAD", [2, 4, 3], "int32", [pads], [3, 6, 7])))
    out.append(
        Case(
            "CONCATENATION",
            "int8",
            "requantized",
            _concat("int8", [[2, 3], [2, 5]], 1, [(0.1, 4), (0.03, -128)]),
            refused="requantize",
        )
    )
    for dt in ("float32", "int8"):  # TFLite Micro's GATHER
        out.append(
            Case(
                "GATHER",
                dt,
                "axis1",
                with_consts(
                    "GATHER",
                    [3, 5, 4],
                    dt,
                    [np.array([4, 0, 2, 2], I32)],
                    [3, 4, 4],
                    schema_options("GatherOptionsT", axis=1),
                ),
            )
        )
    for dt, qin in (("float32", None), ("int8", (0.02, 5))):
        out.append(
            Case(
                "QUANTIZE",
                dt,
                "to_int8",
                with_consts("QUANTIZE", [3, 33], dt, [], [3, 33], q=qin, out_dtype="int8", qout=(0.03, -9)),
                float_range=(-4, 4),
            )
        )
    out.append(
        Case(
            "QUANTIZE",
            "int16",
            "to_int8",
            with_consts("QUANTIZE", [3, 33], "int16", [], [3, 33], out_dtype="int8", qout=(0.03, -9)),
        )
    )
    out.append(
        Case(
            "QUANTIZE",
            "float32",
            "to_int16",
            with_consts("QUANTIZE", [3, 33], "float32", [], [3, 33], out_dtype="int16", qout=(1e-4, 0)),
        )
    )
    for dt, q in (("int8", (0.02, -128)), ("int16", (3e-4, 0))):
        out.append(
            Case(
                "DEQUANTIZE",
                dt,
                "to_f32",
                with_consts("DEQUANTIZE", [2, 40], dt, [], [2, 40], q=q, out_dtype="float32"),
            )
        )
    for src, dst in (
        ("int8", "float32"),
        ("float32", "int32"),
        ("int32", "float32"),
        ("int8", "int32"),
        ("float32", "int8"),
        ("float32", "int16"),
        ("float32", "float32"),
    ):
        out.append(
            Case(
                "CAST",
                src,
                f"to_{dst}",
                with_consts(
                    "CAST",
                    [4, 9],
                    src,
                    [],
                    [4, 9],
                    out_dtype=dst,
                    q=(0.1, 0) if src == "int8" else (None, None),
                    qout=(None, None),
                ),
                float_range=(-100, 100),
            )
        )
    return out
