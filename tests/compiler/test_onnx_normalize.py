"""ONNX graph normalization (compiler/frontend/onnx_normalize.py): shape subgraphs that only constant propagation makes
static (opset-9 Shape -> Gather -> Concat Reshape targets, torch's `expand(1, -1, -1)`, attention-style Mod / Cast /
Div size arithmetic), `--input_shape` for unnamed dimensions, Loops with a constant trip count and Scans (unrolled),
and If nodes with a condition constant after --freeze_input / --dim / folding (inlined). Each model runs on the host
and is compared with onnxruntime: the compiled ops are float32 data movement and element-wise arithmetic, so results
agree to float32 rounding (rtol 1e-6, atol 1e-6)."""

import os
import subprocess
import sys

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from compiler.commands.run_cmd import run_model
from compiler.errors import CompileError, UnsupportedError
from compiler.frontend.onnx_reader import load_onnx

F, I64 = TensorProto.FLOAT, TensorProto.INT64
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def _i64(name, values):
    return numpy_helper.from_array(np.array(values, np.int64), name)


def _save(tmp_path, nodes, inputs, outputs, inits=(), opset=13, name="m.onnx"):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=7 if opset < 15 else 8)
    path = str(tmp_path / name)
    onnx.save(model, path)
    return path


def _check(tmp_path, path, feeds_batch, extra_feeds=None, **load):
    """Runs the model on the host (cases stacked on axis 0) and compares every output with onnxruntime."""
    import onnxruntime as ort

    np.savez(tmp_path / "in.npz", **feeds_batch)
    if load:
        from compiler import driver

        saved = (dict(driver.ONNX_DIMS), dict(driver.ONNX_FROZEN), dict(driver.ONNX_INPUT_SHAPES))
        driver.ONNX_DIMS.update(load.get("dims", {}))
        driver.ONNX_FROZEN.update(load.get("frozen", {}))
        driver.ONNX_INPUT_SHAPES.update(load.get("input_shapes", {}))
    try:
        run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    finally:
        if load:
            for d, old in zip((driver.ONNX_DIMS, driver.ONNX_FROZEN, driver.ONNX_INPUT_SHAPES), saved):
                d.clear()
                d.update(old)
    got = dict(np.load(tmp_path / "out.npz"))
    sess = ort.InferenceSession(path)
    names = [o.name for o in sess.get_outputs()]
    n = len(next(iter(feeds_batch.values())))
    for i in range(n):
        feeds = {k: v[i] for k, v in feeds_batch.items()}
        feeds.update(extra_feeds or {})
        for name, want in zip(names, sess.run(None, feeds)):
            np.testing.assert_allclose(got[name][i], want, rtol=1e-6, atol=1e-6, err_msg=name)


def test_opset9_shape_gather_concat_reshape(tmp_path):
    """x [2, 3, 4] -> reshape to [shape[0], -1] computed at run time, as opset-9 exports do, then a Concat."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n"], ["n1"], axes=[0]),
        helper.make_node("Concat", ["n1", "minus1"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["flat"]),
        # onnx shape inference alone leaves 'flat' (and so this Concat) without a static shape
        helper.make_node("Concat", ["flat", "flat"], ["cat"], axis=1),
        helper.make_node("Relu", ["cat"], ["y"]),
    ]
    path = _save(
        tmp_path,
        nodes,
        [helper.make_tensor_value_info("x", F, [2, 3, 4])],
        [helper.make_tensor_value_info("y", F, None)],
        [_i64("zero", 0), _i64("minus1", [-1])],
        opset=9,
    )
    g = load_onnx(path)
    assert [list(t.shape) for t in g.outputs] == [[2, 24]]
    x = np.random.default_rng(1).normal(size=(3, 2, 3, 4)).astype(np.float32)
    _check(tmp_path, path, {"x": x})


def test_torch_expand_1_minus1_minus1(tmp_path):
    """torch's `cls.expand(1, -1, -1)` against x's batch: Shape / ConstantOfShape / Mul / Equal / Where / Expand."""
    nodes = [
        helper.make_node("Shape", ["x"], ["xs"]),
        helper.make_node("Slice", ["xs", "s0", "s1"], ["b"]),  # the batch dimension
        helper.make_node("Concat", ["b", "m1m1"], ["want"], axis=0),  # [B, -1, -1]
        helper.make_node(
            "ConstantOfShape", ["three"], ["ones"], value=numpy_helper.from_array(np.array([1], np.int64))
        ),
        helper.make_node("Mul", ["ones", "m1"], ["neg"]),
        helper.make_node("Equal", ["want", "neg"], ["is_neg"]),
        helper.make_node("Where", ["is_neg", "ones", "want"], ["shape"]),
        helper.make_node("Expand", ["cls", "shape"], ["e"]),
        helper.make_node("Concat", ["e", "x"], ["y"], axis=1),
    ]
    cls = np.random.default_rng(2).normal(size=(1, 1, 8)).astype(np.float32)
    path = _save(
        tmp_path,
        nodes,
        [helper.make_tensor_value_info("x", F, [2, 5, 8])],
        [helper.make_tensor_value_info("y", F, None)],
        [
            numpy_helper.from_array(cls, "cls"),
            _i64("s0", [0]),
            _i64("s1", [1]),
            _i64("m1m1", [-1, -1]),
            _i64("three", [3]),
            _i64("m1", -1),
        ],
    )
    assert [list(t.shape) for t in load_onnx(path).outputs] == [[2, 6, 8]]
    _check(tmp_path, path, {"x": np.random.default_rng(3).normal(size=(2, 2, 5, 8)).astype(np.float32)})


def test_attention_mod_cast_div_arithmetic(tmp_path):
    """heads = 2; head_dim = Cast(Div(Cast(D, float), 2.0), int64); Mod checks; reshape [B, T, heads, head_dim]."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "two_i"], ["d"], axis=0),
        helper.make_node("Cast", ["d"], ["df"], to=F),
        helper.make_node("Div", ["df", "heads_f"], ["hdf"]),
        helper.make_node("Cast", ["hdf"], ["hd"], to=I64),
        helper.make_node("Mod", ["d", "heads"], ["rem"]),
        helper.make_node("Add", ["hd", "rem"], ["hd2"]),  # rem is 0: hd unchanged
        helper.make_node("Unsqueeze", ["hd2", "ax0"], ["hd1"]),
        helper.make_node("Slice", ["s", "s0", "s2"], ["bt"]),
        helper.make_node("Concat", ["bt", "heads1", "hd1"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["r"]),
        helper.make_node("Transpose", ["r"], ["rt"], perm=[0, 2, 1, 3]),
        helper.make_node("Concat", ["rt", "rt"], ["y"], axis=3),
    ]
    path = _save(
        tmp_path,
        nodes,
        [helper.make_tensor_value_info("x", F, [1, 3, 8])],
        [helper.make_tensor_value_info("y", F, None)],
        [
            _i64("two_i", 2),
            numpy_helper.from_array(np.array(2.0, np.float32), "heads_f"),
            _i64("heads", 2),
            _i64("heads1", [2]),
            _i64("ax0", [0]),
            _i64("s0", [0]),
            _i64("s2", [2]),
        ],
    )
    assert [list(t.shape) for t in load_onnx(path).outputs] == [[1, 2, 3, 8]]
    _check(tmp_path, path, {"x": np.random.default_rng(4).normal(size=(2, 1, 3, 8)).astype(np.float32)})


def _unnamed_model(tmp_path):
    """An input [1, ?] (no dim_param, as some exporters leave it) doubled."""
    x = helper.make_tensor_value_info("x", F, [1, None])
    x.type.tensor_type.shape.dim[1].Clear()
    return _save(
        tmp_path,
        [helper.make_node("Add", ["x", "x"], ["y"])],
        [x],
        [helper.make_tensor_value_info("y", F, None)],
    )


def test_input_shape_pins_unnamed_dimensions(tmp_path):
    path = _unnamed_model(tmp_path)
    with pytest.raises(CompileError, match=r"--input_shape x=D0,D1"):
        load_onnx(path)
    g = load_onnx(path, input_shapes={"x": [1, 512]})
    assert list(g.inputs[0].shape) == [1, 512]
    with pytest.raises(CompileError, match=r"--input_shape x=2,512: the input's shape is \[1, '\?'\]"):
        load_onnx(path, input_shapes={"x": [2, 512]})
    with pytest.raises(CompileError, match="no graph input of that name; its inputs are: x"):
        load_onnx(path, input_shapes={"nope": [1]})


def test_input_shape_from_the_command_line(tmp_path):
    path = _unnamed_model(tmp_path)
    x = np.random.default_rng(5).normal(size=(2, 1, 7)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    cmd = [sys.executable, "-m", "compiler", "run", path, "--inputs", str(tmp_path / "in.npz")]
    cmd += ["--outputs", str(tmp_path / "out.npz"), "--input_shape", "x=1,7"]
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["y"], x + x)


def _if_model(tmp_path, cond_nodes, cond_inputs, inits=()):
    """y = If(cond) then Conv-free branch (x * 2 + c1, reading an outer value and a branch initializer) else
    (x - outer_bias); the branches also compute a second output."""
    then_g = helper.make_graph(
        [
            helper.make_node("Mul", ["x", "two"], ["t"]),
            helper.make_node("Add", ["t", "bias"], ["out"]),
            helper.make_node("Relu", ["out"], ["out2"]),
        ],
        "then",
        [],
        [helper.make_tensor_value_info("out", F, None), helper.make_tensor_value_info("out2", F, None)],
        [numpy_helper.from_array(np.array(2.0, np.float32), "two")],
    )
    else_g = helper.make_graph(
        [helper.make_node("Sub", ["x", "bias"], ["out"]), helper.make_node("Neg", ["out"], ["neg"])],
        "else",
        [],
        [helper.make_tensor_value_info("out", F, None), helper.make_tensor_value_info("neg", F, None)],
    )
    nodes = list(cond_nodes) + [
        helper.make_node("If", ["cond"], ["y", "z"], then_branch=then_g, else_branch=else_g),
    ]
    bias = numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "bias")
    return _save(
        tmp_path,
        nodes,
        [helper.make_tensor_value_info("x", F, [1, 4])] + list(cond_inputs),
        [helper.make_tensor_value_info("y", F, None), helper.make_tensor_value_info("z", F, None)],
        [bias] + list(inits),
    )


@pytest.mark.parametrize("sr", [16000, 8000])
def test_if_on_a_frozen_sample_rate_is_inlined(tmp_path, sr):
    """Silero VAD's pattern: cond = Equal(sr, 16000) on an int64 input, frozen with --freeze_input sr=..."""
    path = _if_model(
        tmp_path,
        [helper.make_node("Equal", ["sr", "sr16k"], ["cond"])],
        [helper.make_tensor_value_info("sr", I64, [])],
        [_i64("sr16k", 16000)],
    )
    frozen = {"sr": np.array(sr, np.int64)}
    g = load_onnx(path, frozen=frozen)
    assert [t.name for t in g.inputs] == ["x"]
    assert not any(op.kind == "IF" for op in g.ops)
    x = np.random.default_rng(6).normal(size=(3, 1, 4)).astype(np.float32)
    _check(tmp_path, path, {"x": x}, extra_feeds={"sr": frozen["sr"]}, frozen=frozen)


def test_if_on_a_static_shape_is_inlined(tmp_path):
    """cond = Greater(Shape(x)[1], 2): constant once x's shape is known."""
    path = _if_model(
        tmp_path,
        [
            helper.make_node("Shape", ["x"], ["s"]),
            helper.make_node("Gather", ["s", "one"], ["w"], axis=0),
            helper.make_node("Greater", ["w", "two_i"], ["cond"]),
        ],
        [],
        [_i64("one", 1), _i64("two_i", 2)],
    )
    x = np.random.default_rng(7).normal(size=(3, 1, 4)).astype(np.float32)
    _check(tmp_path, path, {"x": x})


def test_data_dependent_if_becomes_c_if_else(tmp_path):
    """cond = ReduceSum(x) > 0 at run time: both branches compiled, the taken one runs (IF / IF_ELSE / IF_END)."""
    path = _if_model(
        tmp_path,
        [helper.make_node("ReduceSum", ["x"], ["sx"], keepdims=0), helper.make_node("Greater", ["sx", "zf"], ["cond"])],
        [],
        [numpy_helper.from_array(np.array(0.0, np.float32), "zf")],
    )
    g = load_onnx(path)
    assert [op.kind for op in g.ops].count("IF_END") == 1
    x = np.random.default_rng(10).normal(size=(6, 1, 4)).astype(np.float32)
    x[:3] = np.abs(x[:3])  # three cases take the then branch, three (most likely) the else branch
    x[3:] = -np.abs(x[3:])
    _check(tmp_path, path, {"x": x})


def test_data_dependent_if_with_different_branch_shapes_is_refused(tmp_path):
    then_g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["out"])], "then", [], [helper.make_tensor_value_info("out", F, None)]
    )
    else_g = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["out"], axis=1)],
        "else",
        [],
        [helper.make_tensor_value_info("out", F, None)],
    )
    path = _save(
        tmp_path,
        [
            helper.make_node("ReduceSum", ["x"], ["sx"], keepdims=0),
            helper.make_node("Greater", ["sx", "zf"], ["cond"]),
            helper.make_node("If", ["cond"], ["y"], then_branch=then_g, else_branch=else_g),
        ],
        [helper.make_tensor_value_info("x", F, [1, 4])],
        [helper.make_tensor_value_info("y", F, None)],
        [numpy_helper.from_array(np.array(0.0, np.float32), "zf")],
    )
    with pytest.raises(CompileError, match=r"\(If\): output 'y' is float32 \[1, 4\] in the then branch and float32"):
        load_onnx(path)


def _loop_model(tmp_path, trips_input=False, opset=13):
    """v <- v * 2 + x three times (x read from the outer scope), with the per-iteration v + i as a scan output."""
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["c"], ["c_out"]),
            helper.make_node("Mul", ["v", "two"], ["v2"]),
            helper.make_node("Add", ["v2", "x"], ["v_out"]),
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Add", ["v_out", "fi"], ["scan"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", I64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v", F, [1, 4]),
        ],
        [
            helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v_out", F, [1, 4]),
            helper.make_tensor_value_info("scan", F, [1, 4]),
        ],
        [numpy_helper.from_array(np.array(2.0, np.float32), "two")],
    )
    inputs = [helper.make_tensor_value_info("x", F, [1, 4])]
    if trips_input:
        inputs.append(helper.make_tensor_value_info("n", I64, []))
    return _save(
        tmp_path,
        [helper.make_node("Loop", ["n", "", "x"], ["y", "ys"], body=body)],
        inputs,
        [helper.make_tensor_value_info("y", F, None), helper.make_tensor_value_info("ys", F, None)],
        [] if trips_input else [_i64("n", 3)],
        opset=opset,
    )


@pytest.mark.parametrize("opset", [11, 13])
def test_loop_with_a_constant_trip_count_is_unrolled(tmp_path, opset):
    path = _loop_model(tmp_path, opset=opset)
    g = load_onnx(path)
    assert [list(t.shape) for t in g.outputs] == [[1, 4], [3, 1, 4]]
    _check(tmp_path, path, {"x": np.random.default_rng(8).normal(size=(3, 1, 4)).astype(np.float32)})


def test_loop_with_a_frozen_trip_count_is_unrolled(tmp_path):
    path = _loop_model(tmp_path, trips_input=True)
    frozen = {"n": np.array(2, np.int64)}
    x = np.random.default_rng(9).normal(size=(2, 1, 4)).astype(np.float32)
    _check(tmp_path, path, {"x": x}, extra_feeds=frozen, frozen=frozen)
    with pytest.raises(CompileError, match=r"\(Loop\): its trip count 'n' is computed at run time"):
        load_onnx(path)


def test_onnx_ml_operator_is_named(tmp_path):
    node = helper.make_node(
        "SVMClassifier",
        ["x"],
        ["label", "prob"],
        domain="ai.onnx.ml",
        classlabels_ints=[0, 1],
        coefficients=list(np.arange(4000, dtype=np.float32)),
        kernel_type="RBF",
    )
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", F, [1, 4])],
        [helper.make_tensor_value_info("label", I64, None), helper.make_tensor_value_info("prob", F, None)],
    )
    model = helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("ai.onnx.ml", 3)], ir_version=8
    )
    path = str(tmp_path / "svm.onnx")
    onnx.save(model, path)
    # SVMClassifier is supported in scikit-learn SVC's form (onnx_ml_svm.py); this one (no support vectors) is
    # refused naming what it lacks, not an attribute size limit.
    with pytest.raises(CompileError, match=r"\(SVMClassifier\): it has no support vectors \(liblinear mode\)\. "):
        load_onnx(path)


def test_data_dependent_if_branch_layout_twins_stay_in_their_branch(tmp_path):
    """Both branches and the code after the If convolve x: an NHWC copy of x made inside the then branch exists
    only when it runs, so the else branch and the Conv after the If must make their own."""
    import onnxruntime as ort

    rng = np.random.default_rng(13)
    w = {k: numpy_helper.from_array(rng.normal(size=(3, 2, 3, 3)).astype(np.float32), k) for k in ("w1", "w2", "w3")}

    def branch(name, weight):
        node = helper.make_node("Conv", ["x", weight], ["o"], pads=[1, 1, 1, 1])
        return helper.make_graph([node], name, [], [helper.make_tensor_value_info("o", F, None)])

    path = _save(
        tmp_path,
        [
            helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
            helper.make_node("Greater", ["s", "zf"], ["c"]),
            helper.make_node("If", ["c"], ["y"], then_branch=branch("t", "w1"), else_branch=branch("e", "w2")),
            helper.make_node("Conv", ["x", "w3"], ["y3"], pads=[1, 1, 1, 1]),
            helper.make_node("Add", ["y", "y3"], ["out"]),
        ],
        [helper.make_tensor_value_info("x", F, [1, 2, 5, 5])],
        [helper.make_tensor_value_info("out", F, None)],
        list(w.values()) + [numpy_helper.from_array(np.array(0.0, np.float32), "zf")],
        opset=17,
    )
    x = rng.normal(size=(6, 1, 2, 5, 5)).astype(np.float32)
    x[:3], x[3:] = np.abs(x[:3]), -np.abs(x[3:])
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = np.load(tmp_path / "out.npz")["out"]
    sess = ort.InferenceSession(path)
    for i in range(len(x)):
        # two 18-term float32 convolutions summed: a few ulps of values around 10
        np.testing.assert_allclose(got[i], sess.run(None, {"x": x[i]})[0], rtol=1e-5, atol=1e-5)


def _scan_model(tmp_path, opset=13, reverse=False, steps=5):
    """A small RNN as tf2onnx / keras2onnx write one: h <- tanh(x_t W + h U) over x [1, steps, 2] scanned along
    axis 1, every h stacked along axis 1 of a scan output, and a second scan input (a [steps, 3] bias sequence along
    axis 0) read in the same or, with `reverse`, the opposite direction; the state out is the last h."""
    rng = np.random.default_rng(11)
    body = helper.make_graph(
        [
            helper.make_node("MatMul", ["x_t", "W"], ["xw"]),
            helper.make_node("MatMul", ["h", "U"], ["hu"]),
            helper.make_node("Add", ["xw", "hu"], ["pre"]),
            helper.make_node("Add", ["pre", "b_t"], ["pre_b"]),
            helper.make_node("Tanh", ["pre_b"], ["h_out"]),
            helper.make_node("Identity", ["h_out"], ["y_t"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("h", F, [1, 3]),
            helper.make_tensor_value_info("x_t", F, [1, 2]),
            helper.make_tensor_value_info("b_t", F, [3]),
        ],
        [helper.make_tensor_value_info("h_out", F, [1, 3]), helper.make_tensor_value_info("y_t", F, [1, 3])],
        [
            numpy_helper.from_array(rng.normal(size=(2, 3)).astype(np.float32), "W"),
            numpy_helper.from_array(rng.normal(size=(3, 3)).astype(np.float32) * 0.5, "U"),
        ],
    )
    scan = helper.make_node(
        "Scan",
        ["h0", "x", "bias"],
        ["h_last", "ys"],
        body=body,
        num_scan_inputs=2,
        scan_input_axes=[1, 0],
        scan_input_directions=[0, 1 if reverse else 0],
        scan_output_axes=[1],
        scan_output_directions=[1 if reverse else 0],
    )
    return _save(
        tmp_path,
        [scan],
        [helper.make_tensor_value_info("h0", F, [1, 3]), helper.make_tensor_value_info("x", F, [1, steps, 2])],
        [helper.make_tensor_value_info("h_last", F, None), helper.make_tensor_value_info("ys", F, None)],
        [numpy_helper.from_array(rng.normal(size=(steps, 3)).astype(np.float32), "bias")],
        opset=opset,
    )


@pytest.mark.parametrize("opset, reverse", [(11, False), (13, True)])
def test_scan_is_unrolled_over_its_sequence(tmp_path, opset, reverse):
    path = _scan_model(tmp_path, opset=opset, reverse=reverse)
    g = load_onnx(path)
    assert [list(t.shape) for t in g.outputs] == [[1, 3], [1, 5, 3]]
    rng = np.random.default_rng(12)
    _check(
        tmp_path,
        path,
        {
            "h0": rng.normal(size=(3, 1, 3)).astype(np.float32),
            "x": rng.normal(size=(3, 1, 5, 2)).astype(np.float32),
        },
    )


def test_scan_with_an_unknown_sequence_length_is_refused(tmp_path):
    path = _scan_model(tmp_path)
    m = onnx.load(path)
    m.graph.input[1].type.tensor_type.shape.dim[1].dim_param = "T"
    onnx.save(m, path)
    with pytest.raises(UnsupportedError, match=r"\(Scan\): the sequence length of its scan inputs is not static"):
        load_onnx(path)
