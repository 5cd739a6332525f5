"""The simple ONNX-ML operators skl2onnx exports (Scaler, Normalizer, LinearClassifier; compiler/frontend/onnx_ml.py)
run on the host and match onnxruntime: probabilities within rtol 1e-5, atol 1e-6 (float32 sums in another order),
labels exactly (int32 here, int64 in onnxruntime), integer labels other than 0 .. C-1 through a table; ZipMap's
output is the probability tensor. The sklearn exports (SVMClassifier, TreeEnsembleClassifier, ...) are tested in
test_sklearn_exports.py."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from compiler.commands.run_cmd import run_model
from compiler.frontend.onnx_reader import load_onnx

F = TensorProto.FLOAT


def _model(path, norm, post, standard_opset=True):
    rng = np.random.default_rng(11)
    nodes = [
        helper.make_node(
            "Scaler", ["x"], ["s"], domain="ai.onnx.ml", offset=[0.5, -1.0, 0.0, 2.0], scale=[2.0, 0.5, 1.0, 0.25]
        ),
        helper.make_node("Normalizer", ["s"], ["n"], domain="ai.onnx.ml", norm=norm),
        helper.make_node(
            "LinearClassifier",
            ["n"],
            ["label", "prob"],
            domain="ai.onnx.ml",
            classlabels_ints=[0, 1, 2],
            coefficients=rng.normal(size=12).astype(np.float32).tolist(),
            intercepts=[0.1, -0.2, 0.05],
            post_transform=post,
        ),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", F, [5, 4])],
        [
            helper.make_tensor_value_info("label", TensorProto.INT64, [5]),
            helper.make_tensor_value_info("prob", F, [5, 3]),
        ],
    )
    opsets = [helper.make_opsetid("", 17)] if standard_opset else []
    m = helper.make_model(g, opset_imports=opsets + [helper.make_opsetid("ai.onnx.ml", 1)], ir_version=8)
    onnx.save(m, path)


@pytest.mark.parametrize("norm, post", [("L2", "SOFTMAX"), ("L1", "LOGISTIC"), ("MAX", "NONE")])
def test_scaler_normalizer_linear_classifier(tmp_path, norm, post):
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(path, norm, post)
    x = np.random.default_rng(12).normal(size=(3, 5, 4)).astype(np.float32)
    if norm == "MAX":
        x = np.abs(x) + 0.1  # rows with a positive maximum
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = dict(np.load(tmp_path / "out.npz"))
    sess = ort.InferenceSession(path)
    for i in range(len(x)):
        label, prob = sess.run(["label", "prob"], {"x": x[i]})
        np.testing.assert_array_equal(got["label"][i], label)
        np.testing.assert_allclose(got["prob"][i], prob, rtol=1e-5, atol=1e-6)


def test_other_integer_labels_are_read_through_a_table(tmp_path):
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(path, "L2", "NONE")
    m = onnx.load(path)
    for a in m.graph.node[2].attribute:
        if a.name == "classlabels_ints":
            a.ints[:] = [3, -5, 70000]
    onnx.save(m, path)
    x = np.random.default_rng(14).normal(size=(4, 5, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = dict(np.load(tmp_path / "out.npz"))
    sess = ort.InferenceSession(path)
    seen = set()
    for i in range(len(x)):
        (label,) = sess.run(["label"], {"x": x[i]})
        np.testing.assert_array_equal(got["label"][i], label)
        seen.update(int(v) for v in label)
    assert len(seen) >= 2, seen  # the table is read at more than one place


def test_model_of_onnx_ml_operators_only_needs_no_standard_opset(tmp_path):
    """onnxruntime's own logreg_iris.onnx imports only ai.onnx.ml: none of its nodes reads a standard opset."""
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(path, "L2", "SOFTMAX", standard_opset=False)
    x = np.random.default_rng(13).normal(size=(1, 5, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = dict(np.load(tmp_path / "out.npz"))
    label, prob = ort.InferenceSession(path).run(["label", "prob"], {"x": x[0]})
    np.testing.assert_array_equal(got["label"][0], label)
    np.testing.assert_allclose(got["prob"][0], prob, rtol=1e-5, atol=1e-6)


def test_zipmap_output_becomes_the_probability_tensor(tmp_path):
    """skl2onnx's default ends with ZipMap (a sequence of maps {label: probability} in onnxruntime): the compiled
    output is the probability tensor, its columns in class-label order."""
    import onnxruntime as ort

    path = str(tmp_path / "m.onnx")
    _model(path, "L2", "SOFTMAX", standard_opset=False)
    m = onnx.load(path)
    m.graph.node.append(
        helper.make_node("ZipMap", ["prob"], ["probs"], domain="ai.onnx.ml", classlabels_int64s=[0, 1, 2])
    )
    seq = helper.make_sequence_type_proto(
        helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(F, []))
    )
    del m.graph.output[1]
    m.graph.output.append(helper.make_value_info("probs", seq))
    m.ir_version = 3  # as onnxruntime's logreg_iris.onnx: IR 3, no standard opset, ZipMap last
    onnx.save(m, path)
    g = load_onnx(path)
    assert [(t.name, t.shape, t.dtype) for t in g.outputs] == [("label", (5,), "int32"), ("probs", (5, 3), "float32")]
    assert g.outputs[1].meaning["class_labels"] == [0, 1, 2]
    x = np.random.default_rng(15).normal(size=(1, 5, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=x)
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    (maps,) = ort.InferenceSession(path).run(["probs"], {"x": x[0]})
    want = np.array([[row[k] for k in (0, 1, 2)] for row in maps], np.float32)
    np.testing.assert_allclose(np.load(tmp_path / "out.npz")["probs"][0], want, rtol=1e-5, atol=1e-6)
