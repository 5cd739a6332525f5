"""Conformance cases: SLICE, REVERSE_V2, BROADCAST_TO, SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPLIT, SPLIT_V, UNPACK and
PACK in the types TFLite Micro takes, with negative / multiple axes and -1 sizes."""

import numpy as np

from builders import ModelBuilder, Q, schema_options, with_consts
from case import Case

I32 = np.int32


def _multi_out(kind, in_shape, dtype, consts, out_shapes, options, const_first=False):
    def build():
        b = ModelBuilder()
        q = Q[dtype]
        x = b.input("x", in_shape, dtype, *q)
        cs = [b.const(f"c{i}", np.asarray(v), "int32") for i, v in enumerate(consts)]
        outs = [b.tensor(f"y{i}", s, dtype, *q) for i, s in enumerate(out_shapes)]
        b.op(kind, cs + [x] if const_first else [x] + cs, outs, options=options())
        b.output(*outs)
        return b

    return build


def _pack(dtype, n, shape, axis):
    def build():
        b = ModelBuilder()
        q = Q[dtype]
        ins = [b.input(f"x{i}", shape, dtype, *q) for i in range(n)]
        out_shape = list(shape[: axis % (len(shape) + 1)]) + [n] + list(shape[axis % (len(shape) + 1) :])
        b.output(
            b.op(
                "PACK",
                ins,
                out=b.tensor("y", out_shape, dtype, *q),
                options=schema_options("PackOptionsT", valuesCount=n, axis=axis)(),
            )
        )
        return b

    return build


def cases():
    out = []
    for dt in ("float32", "int8", "int16", "int32"):
        out.append(
            Case(
                "SLICE",
                dt,
                "size_minus1",
                with_consts("SLICE", [3, 6, 5], dt, [np.array([1, 2, 0], I32), np.array([2, -1, 3], I32)], [2, 4, 3]),
                qemu_sample=dt == "int8",
            )
        )
        out.append(
            Case("REVERSE_V2", dt, "axis1", with_consts("REVERSE_V2", [2, 5, 3], dt, [np.array([1], I32)], [2, 5, 3]))
        )
        out.append(
            Case("REVERSE_V2", dt, "axis_last", with_consts("REVERSE_V2", [4, 7], dt, [np.array([-1], I32)], [4, 7]))
        )
        out.append(
            Case(
                "BROADCAST_TO",
                dt,
                "rank_up",
                with_consts("BROADCAST_TO", [3, 1], dt, [np.array([2, 3, 4], I32)], [2, 3, 4]),
            )
        )
        out.append(
            Case(
                "SPLIT",
                dt,
                "three",
                _multi_out(
                    "SPLIT",
                    [2, 6, 4],
                    dt,
                    [np.array([1], I32)],
                    [[2, 2, 4]] * 3,
                    schema_options("SplitOptionsT", numSplits=3),
                    const_first=True,
                ),
                qemu_sample=dt == "int16",
            )
        )
        out.append(
            Case(
                "SPLIT_V",
                dt,
                "minus1",
                _multi_out(
                    "SPLIT_V",
                    [2, 7, 3],
                    dt,
                    [np.array([2, -1, 1], I32), np.array([-2], I32)],
                    [[2, 2, 3], [2, 4, 3], [2, 1, 3]],
                    schema_options("SplitVOptionsT", numSplits=3),
                ),
            )
        )
        out.append(
            Case(
                "UNPACK",
                dt,
                "axis1",
                _multi_out("UNPACK", [2, 3, 4], dt, [], [[2, 4]] * 3, schema_options("UnpackOptionsT", num=3, axis=1)),
            )
        )
        out.append(Case("PACK", dt, "axis0", _pack(dt, 3, [2, 4], 0)))
        out.append(Case("PACK", dt, "axis_last", _pack(dt, 2, [3, 5], -1)))
    out.append(
        Case(
            "SLICE",
            "bool",
            "bool",
            with_consts("SLICE", [3, 4], "bool", [np.array([1, 1], I32), np.array([2, 2], I32)], [2, 2]),
        )
    )
    for dt in ("float32", "int8"):
        out.append(
            Case(
                "SPACE_TO_DEPTH",
                dt,
                "bs2",
                with_consts(
                    "SPACE_TO_DEPTH",
                    [1, 4, 6, 3],
                    dt,
                    [],
                    [1, 2, 3, 12],
                    schema_options("SpaceToDepthOptionsT", blockSize=2),
                ),
            )
        )
        out.append(
            Case(
                "DEPTH_TO_SPACE",
                dt,
                "bs2",
                with_consts(
                    "DEPTH_TO_SPACE",
                    [2, 2, 3, 8],
                    dt,
                    [],
                    [2, 4, 6, 2],
                    schema_options("DepthToSpaceOptionsT", blockSize=2),
                ),
                qemu_sample=dt == "int8",
            )
        )
    return out + more_cases() + mirror_pad_cases()


def more_cases():
    out = []
    for dt in ("float32", "int8", "int32"):  # the types TFLite Micro's FILL / ZEROS_LIKE take
        out.append(Case("FILL", dt, "rank3", lambda dt=dt: _fill(dt)))
        out.append(Case("ZEROS_LIKE", dt, "rank3", with_consts("ZEROS_LIKE", [2, 3, 4], dt, [], [2, 3, 4])))
    for dt in ("float32", "int8"):  # TFLite Micro's BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND
        out.append(
            Case(
                "BATCH_TO_SPACE_ND",
                dt,
                "block2x2",
                with_consts(
                    "BATCH_TO_SPACE_ND", [8, 2, 3, 2], dt, [np.array([2, 2], I32), np.zeros((2, 2), I32)], [2, 4, 6, 2]
                ),
            )
        )
        out.append(
            Case(
                "SPACE_TO_BATCH_ND",
                dt,
                "block2x3",
                with_consts(
                    "SPACE_TO_BATCH_ND", [2, 4, 6, 2], dt, [np.array([2, 3], I32), np.zeros((2, 2), I32)], [12, 2, 2, 2]
                ),
                qemu_sample=dt == "int8",
            )
        )
    # Crops: (input shape, block, crops, output shape); uneven crops, crops larger than a block, all but one row
    # cropped, a 3-D NHC input (W = 1, one block dimension), one-sided blocks.
    crop_cases = [
        ("4d_crop_h1", [4, 2, 3, 1], [2, 2], [[0, 1], [0, 0]], [1, 3, 6, 1]),
        ("4d_crop_all_sides", [8, 3, 4, 3], [2, 2], [[1, 2], [3, 1]], [2, 3, 4, 3]),
        ("4d_crop_past_block", [9, 3, 3, 2], [3, 3], [[4, 0], [2, 5]], [1, 5, 2, 2]),
        ("4d_one_row_left", [6, 2, 2, 5], [3, 2], [[2, 3], [0, 3]], [1, 1, 1, 5]),
        ("4d_block_1x4", [8, 3, 2, 2], [1, 4], [[1, 0], [0, 3]], [2, 2, 5, 2]),
        ("3d_crop", [6, 4, 3], [3], [[2, 5]], [2, 5, 3]),
        ("3d_no_crop", [4, 3, 7], [2], [[0, 0]], [2, 6, 7]),
    ]
    for dt in ("float32", "int8"):
        for name, shape, block, crops, oshape in crop_cases:
            out.append(
                Case(
                    "BATCH_TO_SPACE_ND",
                    dt,
                    name,
                    with_consts("BATCH_TO_SPACE_ND", shape, dt, [np.array(block, I32), np.array(crops, I32)], oshape),
                    qemu_sample=dt == "int8" and name == "4d_crop_all_sides",
                )
            )
    return out + space_to_batch_pad_cases()


def _s2b_padding_mask(shape, block, pads):
    """True at the output elements of SPACE_TO_BATCH_ND that come from its padding (numpy, TFLite's order)."""
    if len(shape) == 3:
        shape, block, pads = [shape[0], shape[1], 1, shape[2]], list(block) + [1], list(pads) + [[0, 0]]
    n, h, w, c = shape
    (bh, bw), ((pt, pb), (pl, pr)) = block, pads
    valid = np.pad(np.ones((n, h, w, c), bool), [(0, 0), (pt, pb), (pl, pr), (0, 0)])
    oh, ow = (h + pt + pb) // bh, (w + pl + pr) // bw
    # padded [n, oh*bh + i, ow*bw + j, c] -> output [(i*bw + j)*n + n', oh, ow, c]
    out = valid.reshape(n, oh, bh, ow, bw, c).transpose(2, 4, 0, 1, 3, 5).reshape(bh * bw * n, oh, ow, c)
    return ~out


def _s2b_fix(dtype, shape, block, pads):
    """TFLite Micro pads with uninitialized memory; our pad value is the output zero point (0.0 for float32)."""
    pad = Q[dtype][1] if dtype == "int8" else 0

    def fix(outs):
        y = outs[0].copy()
        y.reshape(-1)[_s2b_padding_mask(shape, block, pads).reshape(-1)] = pad
        return [y]

    return fix


def space_to_batch_pad_cases():
    # (name, input shape, block, paddings, output shape): paddings on every side, paddings larger than a block,
    # a padding-only output batch, one-sided blocks, 3-D NHC (W = 1, one block dimension).
    pad_cases = [
        ("4d_pad_top_left", [1, 3, 3, 2], [2, 2], [[1, 0], [0, 1]], [4, 2, 2, 2]),
        ("4d_pad_all_sides", [2, 3, 4, 3], [2, 3], [[2, 1], [1, 1]], [12, 3, 2, 3]),
        ("4d_pad_past_block", [1, 2, 2, 1], [2, 2], [[3, 3], [2, 4]], [4, 4, 4, 1]),
        ("4d_block_1x4", [2, 3, 5, 2], [1, 4], [[1, 0], [0, 3]], [8, 4, 2, 2]),
        ("3d_pad", [2, 5, 3], [3], [[2, 2]], [6, 3, 3]),
    ]
    out = []
    for dt in ("float32", "int8"):
        for name, shape, block, pads, oshape in pad_cases:
            out.append(
                Case(
                    "SPACE_TO_BATCH_ND",
                    dt,
                    name,
                    with_consts("SPACE_TO_BATCH_ND", shape, dt, [np.array(block, I32), np.array(pads, I32)], oshape),
                    fix_reference=_s2b_fix(dt, shape, block, pads),
                )
            )
    return out


def _fill(dtype):
    b = ModelBuilder()
    q = Q[dtype]
    v = b.input("v", [], dtype, *q)
    dims = b.const("dims", np.array([2, 3, 4], I32), "int32")
    b.output(b.op("FILL", [dims, v], out=b.tensor("y", [2, 3, 4], dtype, *q)))
    return b


def mirror_pad_cases():
    out = []
    pads = np.array([[0, 0], [1, 2], [3, 0], [0, 0]], I32)
    for dt in ("float32", "int8"):  # TFLite Micro's MIRROR_PAD types
        for mode, name in ((0, "reflect"), (1, "symmetric")):
            out.append(
                Case(
                    "MIRROR_PAD",
                    dt,
                    name,
                    with_consts(
                        "MIRROR_PAD",
                        [1, 4, 5, 2],
                        dt,
                        [pads],
                        [1, 7, 8, 2],
                        schema_options("MirrorPadOptionsT", mode=mode),
                    ),
                    qemu_sample=dt == "int8" and mode == 1,
                )
            )
    out.append(
        Case(
            "MIRROR_PAD",
            "float32",
            "too_wide",
            with_consts(
                "MIRROR_PAD",
                [1, 3, 3, 1],
                "float32",
                [np.array([[0, 0], [3, 0], [0, 0], [0, 0]], I32)],
                [1, 6, 3, 1],
                schema_options("MirrorPadOptionsT", mode=0),
            ),
            refused="at most",
        )
    )
    # uint8 (TFLite Micro's REVERSE_V2 and BROADCAST_TO take it; its other view kernels do not).
    qu8 = (0.05, 128)
    out.append(
        Case(
            "REVERSE_V2",
            "uint8",
            "axis1",
            with_consts("REVERSE_V2", [2, 5, 3], "uint8", [np.array([1], I32)], [2, 5, 3], q=qu8),
        )
    )
    out.append(
        Case(
            "BROADCAST_TO",
            "uint8",
            "rank_up",
            with_consts("BROADCAST_TO", [3, 1], "uint8", [np.array([2, 3, 4], I32)], [2, 3, 4], q=qu8),
        )
    )
    return out
