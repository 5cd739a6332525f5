"""Grouped and depthwise ONNX ConvTranspose (float32) on the grouped kernel: randomized layers (group 1 with
dilations, 2..C groups, depthwise with channel multipliers, strides, asymmetric pads, output_padding, dilations,
1-D and 2-D) compiled in one graph, run on the host and compared with onnxruntime; the filter is stored group-wise
(no zero blocks, no zeros between taps) and the MAC report counts only the group's slice."""

import os
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.driver import analyze
from compiler.report.macs import op_macs

F = TensorProto.FLOAT


def _layer(rng, i):
    """One random layer: (node, input shape, initializers, expected filter shape, group, dilations)."""
    nd = 1 if i % 5 == 4 else 2
    kind = i % 4  # 0 depthwise, 1 depthwise with multiplier, 2 general groups, 3 group 1 with dilation
    g = int(rng.integers(1, 5))
    cg = 1 if kind < 2 else int(rng.integers(1, 4))
    group = 1 if kind == 3 else g
    c = group * cg
    mg = 1 if kind == 0 else int(rng.integers(1, 4))
    kernel = [int(k) for k in rng.integers(1, 5, nd)]
    strides = [int(s) for s in rng.integers(1, 4, nd)]
    dil = [int(d) for d in rng.integers(1, 4, nd)]
    if kind == 3:
        dil[0] = max(dil[0], 2)
    spatial = [int(s) for s in rng.integers(1, 7, nd)]
    # output_padding must stay below the stride (onnxruntime), pads must leave an output of at least 1
    out_pad = [int(rng.integers(0, s)) for s in strides]
    full = [s * (n - 1) + op + (k - 1) * d + 1 for s, n, op, k, d in zip(strides, spatial, out_pad, kernel, dil)]
    pads_b = [int(rng.integers(0, f)) for f in full]
    pads_e = [int(rng.integers(0, f - b)) for f, b in zip(full, pads_b)]
    w = rng.normal(0, 0.5, [c, mg] + kernel).astype(np.float32)
    b = rng.normal(0, 0.5, [group * mg]).astype(np.float32)
    inits = {f"w{i}": w, f"b{i}": b}
    node = helper.make_node(
        "ConvTranspose",
        [f"x{i}", f"w{i}"] + ([f"b{i}"] if i % 2 else []),
        [f"y{i}"],
        group=group,
        strides=strides,
        dilations=dil,
        output_padding=out_pad,
        pads=pads_b + pads_e,
    )
    if i % 2 == 0:
        del inits[f"b{i}"]
    kh, kw = ([1] + kernel) if nd == 1 else kernel
    return node, [2, c] + spatial, inits, [group * mg, kh, kw, cg], (group, dil)


def _model(seed, count):
    rng = np.random.default_rng(seed)
    layers = [_layer(rng, i) for i in range(count)]
    g = helper.make_graph(
        [lay[0] for lay in layers],
        "g",
        [helper.make_tensor_value_info(f"x{i}", F, lay[1]) for i, lay in enumerate(layers)],
        [helper.make_tensor_value_info(f"y{i}", F, None) for i in range(count)],
        [onnx.numpy_helper.from_array(v, k) for lay in layers for k, v in lay[2].items()],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), layers


def _dense_macs(op, group, dil):
    """The MACs of the former lowering (block-diagonal filter, zeros between the taps): every tap of the dilated
    span, every input channel."""
    n, ih, iw, ic = (int(d) for d in op.input(2).shape)
    _, kh, kw, _ = (int(d) for d in op.input(1).shape)
    _, oh, ow, oc = (int(d) for d in op.outputs[0].shape)
    dh, dw = dil if len(dil) == 2 else [1] + dil
    sh, sw, pt, pl = op.options["StrideH"], op.options["StrideW"], op.options["PadTop"], op.options["PadLeft"]

    def taps(i_n, k, s, p, o_n):
        return sum(1 for i in range(i_n) for f in range(k) if 0 <= i * s - p + f < o_n)

    return n * oc * ic * taps(ih, (kh - 1) * dh + 1, sh, pt, oh) * taps(iw, (kw - 1) * dw + 1, sw, pl, ow)


def test_grouped_conv_transpose_matches_onnxruntime():
    import onnxruntime as ort

    model, layers = _model(seed=19, count=20)
    rng = np.random.default_rng(5)
    feeds = {f"x{i}": rng.uniform(-2, 2, [2] + lay[1]).astype(np.float32) for i, lay in enumerate(layers)}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        onnx.save(model, path)
        graph = analyze(path, "host")[0]
        convs = [op for op in graph.ops if op.kind == "TRANSPOSE_CONV"]
        assert len(convs) == len(layers)
        grouped = 0
        for op, lay in zip(convs, layers):
            group, dil = lay[4]
            assert list(op.input(1).shape) == lay[3]  # stored group-wise: no zero blocks, no zero taps
            if group > 1 or max(dil) > 1:
                grouped += 1
                assert op.kernel == "aot_transpose_conv_grouped_f32"
                assert op_macs(op) * group <= _dense_macs(op, group, dil)
            else:
                assert op.kernel == "aot_transpose_conv_f32"
        assert grouped >= len(layers) - 2  # a draw of group 1 on one channel without dilation stays ungrouped
        np.savez(os.path.join(tmp, "in.npz"), **feeds)
        run_model(path, os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz"))
        got = dict(np.load(os.path.join(tmp, "out.npz")))
        sess = ort.InferenceSession(path)
        names = [o.name for o in sess.get_outputs()]
        for i in range(2):
            want = dict(zip(names, sess.run(None, {k: v[i] for k, v in feeds.items()})))
            for name, w in want.items():
                assert got[name][i].shape == w.shape, name
                np.testing.assert_allclose(got[name][i], w, rtol=2e-5, atol=2e-5, err_msg=name)
