"""Seed models for fuzzing the ONNX frontend, built here with `onnx.helper` (so every corpus entry derived from them
is the project's own file, never a copy of a third-party model).

Each seed is small (a few hundred bytes to a few KB) and exercises different operators, attributes and graph
patterns: float convolutions (padded, strided, dilated, grouped, depthwise, 1-D) with BatchNormalization, pooling,
Gemm / MatMul heads, QDQ int8 groups (per tensor and per channel, uint8 activations), QLinearConv /
QLinearMatMul, data movement (Reshape, Concat, Slice, Gather, Pad, Transpose, Squeeze, Unsqueeze, Split),
element-wise and activation ops, reductions, and constant shape arithmetic (Shape -> Gather -> Concat ->
Reshape, Constant nodes) that the frontend folds. Every seed compiles; tests/fuzz/fuzz_frontend.py checks that
on start-up (a seed that fails is reported like any other input).

    .venv/bin/python tests/fuzz/onnx_seeds.py OUT_DIR      # write them as OUT_DIR/<name>.onnx
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def _vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def _c(name, arr, dtype=np.float32):
    return numpy_helper.from_array(np.asarray(arr, dtype), name)


def _model(nodes, inputs, outputs, inits, opset=13, name="fuzz_seed") -> bytes:
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], producer_name="aot_rules fuzz seed")
    m.ir_version = 8
    return m.SerializeToString()


def _conv_float():
    r = np.random.default_rng(1)
    inits = [
        _c("w1", r.normal(0, 0.3, (4, 2, 3, 3))),
        _c("b1", r.normal(0, 0.1, 4)),
        _c("g", r.uniform(0.5, 1.5, 4)),
        _c("beta", r.normal(0, 0.1, 4)),
        _c("mean", r.normal(0, 0.1, 4)),
        _c("var", r.uniform(0.5, 1.5, 4)),
        _c("dw", r.normal(0, 0.3, (4, 1, 3, 3))),
        _c("fc_w", r.normal(0, 0.3, (3, 4))),
        _c("fc_b", r.normal(0, 0.1, 3)),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[1, 1], name="conv"),
        helper.make_node("BatchNormalization", ["c1", "g", "beta", "mean", "var"], ["bn"], epsilon=1e-5, name="bn"),
        helper.make_node("Relu", ["bn"], ["r1"], name="relu"),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], name="maxpool"),
        helper.make_node("Conv", ["p1", "dw"], ["d1"], group=4, pads=[1, 1, 1, 1], dilations=[1, 1], name="depthwise"),
        helper.make_node(
            "AveragePool",
            ["d1"],
            ["p2"],
            kernel_shape=[2, 2],
            strides=[1, 1],
            pads=[0, 0, 1, 1],
            count_include_pad=0,
            name="avgpool",
        ),
        helper.make_node("GlobalAveragePool", ["p2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], axis=1, name="flatten"),
        helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["fc"], transB=1, alpha=1.0, beta=1.0, name="fc"),
        helper.make_node("Softmax", ["fc"], ["y"], axis=-1, name="softmax"),
    ]
    return _model(nodes, [_vi("x", [1, 2, 8, 8])], [_vi("y", [1, 3])], inits)


def _conv_variants():
    """Strided, dilated, grouped (not depthwise), 1-D, auto_pad SAME_UPPER, with PRelu / Clip / GlobalMaxPool."""
    r = np.random.default_rng(2)
    inits = [
        _c("w_s", r.normal(0, 0.3, (4, 4, 3, 3))),
        _c("w_g", r.normal(0, 0.3, (4, 2, 1, 1))),
        _c("w_d", r.normal(0, 0.3, (4, 4, 2, 2))),
        _c("slope", r.uniform(0, 0.3, (4, 1, 1))),
        _c("lo", 0.0),
        _c("hi", 6.0),
    ]
    nodes = [
        helper.make_node("Conv", ["x", "w_s"], ["a"], strides=[2, 2], auto_pad="SAME_UPPER", name="strided"),
        helper.make_node("Conv", ["a", "w_g"], ["b"], group=2, name="grouped"),
        helper.make_node("PRelu", ["b", "slope"], ["c"], name="prelu"),
        helper.make_node("Conv", ["c", "w_d"], ["d"], dilations=[2, 2], pads=[1, 1, 1, 1], name="dilated"),
        helper.make_node("Clip", ["d", "lo", "hi"], ["e"], name="clip"),
        helper.make_node("GlobalMaxPool", ["e"], ["y"], name="gmp"),
    ]
    return _model(nodes, [_vi("x", [1, 4, 9, 9])], [_vi("y", None)], inits)


def _conv1d():
    r = np.random.default_rng(3)
    inits = [_c("w", r.normal(0, 0.3, (3, 2, 3))), _c("b", r.normal(0, 0.1, 3))]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1], strides=[2], name="conv1d"),
        helper.make_node("LeakyRelu", ["c"], ["l"], alpha=0.1, name="leaky"),
        helper.make_node("MaxPool", ["l"], ["y"], kernel_shape=[2], strides=[1], name="pool1d"),
    ]
    return _model(nodes, [_vi("x", [1, 2, 10])], [_vi("y", None)], inits)


def _mlp_matmul():
    r = np.random.default_rng(4)
    inits = [
        _c("w1", r.normal(0, 0.3, (6, 5))),
        _c("b1", r.normal(0, 0.1, 5)),
        _c("w2", r.normal(0, 0.3, (4, 5))),
        _c("b2", r.normal(0, 0.1, 4)),
        _c("two", 2.0),
    ]
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["m"], name="matmul"),
        helper.make_node("Add", ["m", "b1"], ["a"], name="bias"),
        helper.make_node("HardSigmoid", ["a"], ["hs"], alpha=0.2, beta=0.5, name="hsig"),
        helper.make_node("HardSwish", ["hs"], ["hw"], name="hswish"),
        helper.make_node("Gemm", ["hw", "w2", "b2"], ["g"], transB=1, alpha=0.5, beta=2.0, name="gemm"),
        helper.make_node("Div", ["g", "two"], ["dv"], name="div"),
        helper.make_node("Sigmoid", ["dv"], ["s"], name="sigmoid"),
        helper.make_node("Tanh", ["dv"], ["t"], name="tanh"),
        helper.make_node("Sub", ["s", "t"], ["y"], name="sub"),
    ]
    return _model(nodes, [_vi("x", [2, 6])], [_vi("y", [2, 4])], inits, opset=14)


def _matmul_batched():
    """Two run-time operands, Gemm with transA, and a 3-D MatMul against a constant."""
    r = np.random.default_rng(5)
    inits = [_c("w", r.normal(0, 0.3, (4, 3))), _c("c", r.normal(0, 0.1, (3, 3)))]
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm3d"),
        helper.make_node("Transpose", ["m"], ["mt"], perm=[0, 2, 1], name="tr"),
        helper.make_node("MatMul", ["mt", "m"], ["mm"], name="mm_rt"),
        helper.make_node("Reshape", ["mm", "shape"], ["flat"], name="reshape"),
        helper.make_node("Gemm", ["flat", "c"], ["y"], transA=0, name="gemm"),
    ]
    inits.append(_c("shape", [3, 3], np.int64))
    return _model(nodes, [_vi("x", [1, 5, 4])], [_vi("y", None)], inits)


def _shapes():
    """Data movement: Reshape, Transpose, Concat, Slice, Gather, Pad, Squeeze, Unsqueeze, Split, Identity."""
    inits = [
        _c("shape", [1, 4, 6], np.int64),
        _c("starts", [0, 1], np.int64),
        _c("ends", [1, 5], np.int64),
        _c("axes", [0, 2], np.int64),
        _c("steps", [1, 2], np.int64),
        _c("idx", [2, 0], np.int64),
        _c("pads", [0, 1, 0, 0, 1, 0], np.int64),
        _c("padv", 0.5),
        _c("uaxes", [0], np.int64),
        _c("saxes", [0], np.int64),
        _c("split", [2, 2], np.int64),
    ]
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
        helper.make_node("Transpose", ["r"], ["t"], perm=[0, 2, 1], name="transpose"),
        helper.make_node("Concat", ["t", "t"], ["cat"], axis=2, name="concat"),
        helper.make_node("Slice", ["cat", "starts", "ends", "axes", "steps"], ["sl"], name="slice"),
        helper.make_node("Gather", ["sl", "idx"], ["ga"], axis=1, name="gather"),
        helper.make_node("Pad", ["ga", "pads", "padv"], ["pd"], mode="constant", name="pad"),
        helper.make_node("Squeeze", ["pd", "saxes"], ["sq"], name="squeeze"),
        helper.make_node("Unsqueeze", ["sq", "uaxes"], ["us"], name="unsqueeze"),
        helper.make_node("Split", ["us", "split"], ["s0", "s1"], axis=1, name="split"),
        helper.make_node("Identity", ["s0"], ["i0"], name="identity"),
        helper.make_node("Mul", ["i0", "s1"], ["y"], name="mul"),
    ]
    return _model(nodes, [_vi("x", [2, 3, 4])], [_vi("y", None)], inits)


def _shape_arith():
    """Shape -> Gather -> Concat -> Reshape (folded), Constant and ConstantOfShape nodes, ReduceMean, Dropout."""
    nodes = [
        helper.make_node("Shape", ["x"], ["n"], end=1, name="shape"),
        helper.make_node("Constant", [], ["m1"], value_ints=[-1], name="const1"),
        helper.make_node("Concat", ["n", "m1"], ["newshape"], axis=0, name="cat_shape"),
        helper.make_node("Reshape", ["x", "newshape"], ["flat"], name="reshape"),
        helper.make_node("Dropout", ["flat"], ["dr"], name="dropout"),
        helper.make_node("ReduceMean", ["x"], ["mean"], axes=[2, 3], keepdims=0, name="mean"),
        helper.make_node("Concat", ["dr", "mean"], ["y"], axis=1, name="cat"),
    ]
    return _model(nodes, [_vi("x", [1, 3, 4, 4])], [_vi("y", None)], [], opset=15)


def _pad_modes():
    inits = [_c("pads", [0, 0, 1, 2, 0, 0, 2, 1], np.int64)]
    nodes = [
        helper.make_node("Pad", ["x", "pads"], ["a"], mode="reflect", name="reflect"),
        helper.make_node("Pad", ["a", "pads"], ["b"], mode="edge", name="edge"),
        helper.make_node("Pad", ["b", "pads"], ["y"], mode="wrap", name="wrap"),
    ]
    return _model(nodes, [_vi("x", [1, 2, 4, 4])], [_vi("y", None)], inits, opset=19)


def _qdq_conv():
    """QDQ int8: uint8 activations, per-channel int8 weights, int32 bias, Conv -> Relu -> MaxPool -> Gemm."""
    r = np.random.default_rng(6)
    w = r.integers(-127, 128, (4, 2, 3, 3)).astype(np.int8)
    fw = r.integers(-127, 128, (3, 16)).astype(np.int8)
    inits = [
        _c("xs", 0.02),
        _c("xz", 128, np.uint8),
        numpy_helper.from_array(w, "wq"),
        _c("ws", [0.01, 0.02, 0.015, 0.01]),
        _c("wz", [0] * 4, np.int8),
        numpy_helper.from_array(np.arange(4, dtype=np.int32), "bq"),
        _c("bs", [2e-4, 4e-4, 3e-4, 2e-4]),
        _c("bz", [0] * 4, np.int32),
        _c("cs", 0.05),
        _c("cz", 0, np.uint8),
        numpy_helper.from_array(fw, "fwq"),
        _c("fs", 0.01),
        _c("fz", 0, np.int8),
        _c("os", 0.1),
        _c("oz", 128, np.uint8),
        _c("shape", [1, 16], np.int64),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="q_in"),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"], name="dq_in"),
        helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0, name="dq_w"),
        helper.make_node("DequantizeLinear", ["bq", "bs", "bz"], ["bd"], axis=0, name="dq_b"),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Relu", ["c"], ["cr"], name="relu"),
        helper.make_node("QuantizeLinear", ["cr", "cs", "cz"], ["cq"], name="q_c"),
        helper.make_node("DequantizeLinear", ["cq", "cs", "cz"], ["cd"], name="dq_c"),
        helper.make_node("MaxPool", ["cd"], ["p"], kernel_shape=[2, 2], strides=[2, 2], name="pool"),
        helper.make_node("Reshape", ["p", "shape"], ["flat"], name="flatten"),
        helper.make_node("DequantizeLinear", ["fwq", "fs", "fz"], ["fwd"], name="dq_fw"),
        helper.make_node("Gemm", ["flat", "fwd"], ["g"], transB=1, name="fc"),
        helper.make_node("QuantizeLinear", ["g", "os", "oz"], ["gq"], name="q_out"),
        helper.make_node("DequantizeLinear", ["gq", "os", "oz"], ["y"], name="dq_out"),
    ]
    return _model(nodes, [_vi("x", [1, 2, 4, 4])], [_vi("y", [1, 3])], inits)


def _qdq_elementwise():
    """QDQ int8 element-wise ops, Concat of views, Softmax, Sigmoid, with int8 (signed) activations."""
    inits = [
        _c("s1", 0.05),
        _c("z1", 3, np.int8),
        _c("s2", 0.04),
        _c("z2", -2, np.int8),
        _c("s3", 0.1),
        _c("z3", 0, np.int8),
        _c("s4", 1 / 256),
        _c("z4", -128, np.int8),
        _c("ax", [1], np.int64),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["a", "s1", "z1"], ["aq"], name="qa"),
        helper.make_node("DequantizeLinear", ["aq", "s1", "z1"], ["ad"], name="dqa"),
        helper.make_node("QuantizeLinear", ["b", "s2", "z2"], ["bq"], name="qb"),
        helper.make_node("DequantizeLinear", ["bq", "s2", "z2"], ["bd"], name="dqb"),
        helper.make_node("Add", ["ad", "bd"], ["sum"], name="add"),
        helper.make_node("QuantizeLinear", ["sum", "s3", "z3"], ["sq"], name="qs"),
        helper.make_node("DequantizeLinear", ["sq", "s3", "z3"], ["sd"], name="dqs"),
        helper.make_node("Mul", ["sd", "ad"], ["prod"], name="mul"),
        helper.make_node("QuantizeLinear", ["prod", "s3", "z3"], ["pq"], name="qp"),
        helper.make_node("DequantizeLinear", ["pq", "s3", "z3"], ["pd"], name="dqp"),
        helper.make_node("Concat", ["pd", "sd"], ["cat"], axis=1, name="concat"),
        helper.make_node("Softmax", ["cat"], ["sm"], axis=1, name="softmax"),
        helper.make_node("QuantizeLinear", ["sm", "s4", "z4"], ["smq"], name="qsm"),
        helper.make_node("DequantizeLinear", ["smq", "s4", "z4"], ["smd"], name="dqsm"),
        helper.make_node("Sigmoid", ["smd"], ["sg"], name="sigmoid"),
        helper.make_node("QuantizeLinear", ["sg", "s4", "z4"], ["y"], name="qy"),
    ]
    return _model(nodes, [_vi("a", [1, 4]), _vi("b", [1, 4])], [_vi("y", [1, 8], TensorProto.INT8)], inits)


def _qlinear():
    """QLinearConv and QLinearMatMul on uint8 model I/O."""
    r = np.random.default_rng(7)
    w = r.integers(-100, 100, (2, 1, 3, 3)).astype(np.int8)
    m = r.integers(0, 255, (8, 3)).astype(np.uint8)
    inits = [
        _c("xs", 0.02),
        _c("xz", 128, np.uint8),
        numpy_helper.from_array(w, "w"),
        _c("ws", 0.01),
        _c("wz", 0, np.int8),
        _c("ys", 0.05),
        _c("yz", 100, np.uint8),
        numpy_helper.from_array(np.array([1, -1], np.int32), "b"),
        _c("shape", [1, 8], np.int64),
        numpy_helper.from_array(m, "m"),
        _c("ms", 0.03),
        _c("mz", 120, np.uint8),
        _c("os", 0.2),
        _c("oz", 128, np.uint8),
    ]
    nodes = [
        helper.make_node(
            "QLinearConv",
            ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
            ["c"],
            pads=[1, 1, 1, 1],
            strides=[2, 2],
            name="qconv",
        ),
        helper.make_node("Reshape", ["c", "shape"], ["flat"], name="flatten"),
        helper.make_node("QLinearMatMul", ["flat", "ys", "yz", "m", "ms", "mz", "os", "oz"], ["y"], name="qmm"),
    ]
    return _model(nodes, [_vi("x", [1, 1, 4, 4], TensorProto.UINT8)], [_vi("y", [1, 3], TensorProto.UINT8)], inits)


def _int_io():
    """Raw integer data: int32 / int8 arithmetic, Clip with attributes at opset 6, bool output of a comparison-free
    graph is not supported, so int outputs only."""
    inits = [_c("k", [[3, -4, 5, 7]], np.int32)]
    nodes = [
        helper.make_node("Add", ["a", "k"], ["s"], name="add_i32"),
        helper.make_node("Mul", ["s", "a"], ["m"], name="mul_i32"),
        helper.make_node("Div", ["m", "k"], ["y"], name="div_i32"),
        helper.make_node("Sub", ["b", "b2"], ["y2"], name="sub_i8"),
        helper.make_node("Transpose", ["y2"], ["y3"], perm=[1, 0], name="tr_i8"),
    ]
    return _model(
        nodes,
        [_vi("a", [1, 4], TensorProto.INT32), _vi("b", [2, 3], TensorProto.INT8), _vi("b2", [2, 3], TensorProto.INT8)],
        [_vi("y", [1, 4], TensorProto.INT32), _vi("y3", [3, 2], TensorProto.INT8)],
        inits,
    )


def _old_opset():
    """Opset 9 forms: attribute-style Slice/Pad/Squeeze/Unsqueeze/Clip/Split, Upsample-free."""
    nodes = [
        helper.make_node("Slice", ["x"], ["s"], starts=[0, 1], ends=[1, 4], axes=[0, 1], name="slice9"),
        helper.make_node("Pad", ["s"], ["p"], pads=[0, 1, 0, 1], value=0.0, mode="constant", name="pad9"),
        helper.make_node("Unsqueeze", ["p"], ["u"], axes=[0], name="unsq9"),
        helper.make_node("Squeeze", ["u"], ["q"], axes=[0], name="sq9"),
        helper.make_node("Clip", ["q"], ["c"], min=-1.0, max=1.0, name="clip9"),
        helper.make_node("Split", ["c"], ["y0", "y1"], axis=1, split=[2, 3], name="split9"),
    ]
    return _model(nodes, [_vi("x", [1, 5])], [_vi("y0", None), _vi("y1", None)], [], opset=9)


def _nested_if():
    """An If node whose condition is a constant (folded) and whose branches are subgraphs."""
    then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [], [_vi("t", [1, 4])])
    else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [], [_vi("e", [1, 4])])
    inits = [numpy_helper.from_array(np.array(True), "cond")]
    nodes = [helper.make_node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g, name="if")]
    return _model(nodes, [_vi("x", [1, 4])], [_vi("y", [1, 4])], inits)


def _conv_transpose():
    """ConvTranspose (grouped with dilation and output_padding; depthwise with auto_pad and output_shape), ReduceProd
    and a Tile deeper than 6-D: the attributes the transposed-convolution geometry reads."""
    r = np.random.default_rng(4)
    inits = [
        _c("w", r.normal(0, 0.3, (4, 3, 2, 3))),
        _c("b", r.normal(0, 0.1, 6)),
        _c("wd", r.normal(0, 0.3, (6, 1, 3, 3))),
        _c("reps", [2, 2, 2, 2], np.int64),
    ]
    nodes = [
        helper.make_node(
            "ConvTranspose",
            ["x", "w", "b"],
            ["ct"],
            group=2,
            strides=[2, 1],
            pads=[1, 0, 0, 1],
            output_padding=[1, 0],
            dilations=[1, 2],
            name="ct_grouped",
        ),
        helper.make_node(
            "ConvTranspose",
            ["ct", "wd"],
            ["dw"],
            group=6,
            strides=[2, 2],
            auto_pad="SAME_LOWER",
            output_shape=[16, 16],
            name="ct_depthwise",
        ),
        helper.make_node("ReduceProd", ["dw"], ["p"], axes=[1], keepdims=1, name="prod"),
        helper.make_node("Tile", ["p", "reps"], ["y"], name="tile"),
    ]
    return _model(nodes, [_vi("x", [1, 4, 4, 5])], [_vi("y", None)], inits)


def builder_seeds() -> dict:
    """{name: bytes} of the generated ONNX seeds."""
    return {
        "conv_float": _conv_float(),
        "conv_variants": _conv_variants(),
        "conv1d": _conv1d(),
        "mlp_matmul": _mlp_matmul(),
        "matmul_batched": _matmul_batched(),
        "shapes": _shapes(),
        "shape_arith": _shape_arith(),
        "pad_modes": _pad_modes(),
        "qdq_conv": _qdq_conv(),
        "qdq_elementwise": _qdq_elementwise(),
        "qlinear": _qlinear(),
        "int_io": _int_io(),
        "old_opset": _old_opset(),
        "nested_if": _nested_if(),
        "conv_transpose": _conv_transpose(),
    }


def main(argv) -> int:
    out = argv[1] if len(argv) > 1 else "/tmp/onnx_seeds"
    os.makedirs(out, exist_ok=True)
    for name, data in builder_seeds().items():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(data)
    print(f"{len(builder_seeds())} seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
