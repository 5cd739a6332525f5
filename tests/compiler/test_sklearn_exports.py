"""scikit-learn models exported by skl2onnx with its default options (tests/models/make_sklearn_models.py:
LogisticRegression, LinearSVC, SVC linear / RBF / poly, DecisionTree, RandomForest, StandardScaler + Normalizer
pipelines, classes 3, 5, 7; two-class DecisionTree, RBF SVC and GradientBoosting, three-class GradientBoosting;
LinearRegression, RandomForest / GradientBoosting regressors, SVR) compile with `--input_shape X=N,4` (skl2onnx
leaves the batch unnamed) and match onnxruntime on the host: labels exactly (int32 here, int64 in onnxruntime),
probabilities within rtol 1e-4, atol 1e-5 (float32 sums in another order; onnxruntime sums SVM kernels in double).
The ZipMap output (a sequence of maps {label: probability} in onnxruntime) is the [N, classes] tensor in class-label
order, which the header's comment and the manifest's "meaning" name. The inputs include, per tree model, rows whose
features equal the thresholds (x <= v at equality)."""

import glob
import json
import os

import numpy as np
import onnx
import pytest
from onnx import helper

from compiler import driver
from compiler.commands.run_cmd import run_model
from compiler.errors import UnsupportedError
from compiler.frontend.onnx_reader import load_onnx

MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")
_FILES = sorted(os.path.basename(p) for p in glob.glob(os.path.join(MODELS, "sklearn_*.onnx")))
ROWS = 40


def test_the_exports_are_committed():
    assert len(_FILES) == 18, _FILES


def _inputs(model) -> np.ndarray:
    """Iris-like rows (the models were trained on iris), then rows on the trees' thresholds."""
    rng = np.random.default_rng(5)
    x = rng.uniform([4.0, 2.0, 1.0, 0.1], [8.0, 4.5, 7.0, 2.5], size=(ROWS, 4)).astype(np.float32)
    for n in model.graph.node:
        if n.op_type in ("TreeEnsembleClassifier", "TreeEnsembleRegressor"):
            a = {t.name: helper.get_attribute_value(t) for t in n.attribute}
            k = 0
            for f, v, m in zip(a["nodes_featureids"], a["nodes_values"], a["nodes_modes"]):
                if m != b"LEAF" and k < ROWS // 2:
                    x[ROWS // 2 + k, f] = np.float32(v)
                    k += 1
    return x


def _zipmap_labels(model) -> list:
    for n in model.graph.node:
        if n.op_type == "ZipMap":
            return [int(v) for v in n.attribute[0].ints]
    return []


@pytest.mark.parametrize("name", _FILES)
def test_export_matches_onnxruntime(tmp_path, monkeypatch, name):
    import onnxruntime as ort

    path = os.path.join(MODELS, name)
    model = onnx.load(path)
    x = _inputs(model)
    monkeypatch.setitem(driver.ONNX_INPUT_SHAPES, "X", [ROWS, 4])  # --input_shape X=40,4
    np.savez(tmp_path / "in.npz", X=x[None])
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = {k: v[0] for k, v in np.load(tmp_path / "out.npz").items()}
    sess = ort.InferenceSession(path)
    labels = _zipmap_labels(model)
    for o, want in zip(sess.get_outputs(), sess.run(None, {"X": x})):
        if isinstance(want, list):  # ZipMap: one {label: probability} per row, as columns in label order
            assert labels, name
            want = np.array([[row[k] for k in labels] for row in want], np.float32)
        if want.dtype == np.float32:  # probabilities / decision values
            np.testing.assert_allclose(got[o.name], want, rtol=1e-4, atol=1e-5, err_msg=f"{name} {o.name}")
        else:
            assert got[o.name].dtype == np.int32 and want.dtype == np.int64, (name, o.name)
            np.testing.assert_array_equal(got[o.name], want, err_msg=f"{name} {o.name}")


def test_zipmap_output_is_documented_in_header_and_manifest(monkeypatch):
    monkeypatch.setitem(driver.ONNX_INPUT_SHAPES, "X", [1, 4])
    c = driver.compile_model(os.path.join(MODELS, "sklearn_forest_labels_357.onnx"), "skf")
    out = {o["name"]: o for o in json.loads(c.files["skf.json"])["outputs"]}
    assert out["output_label"]["dtype"] == "int32" and "meaning" not in out["output_label"]
    m = out["output_probability"]
    assert m["shape"] == [1, 3] and m["dtype"] == "float32"
    assert m["meaning"]["from"] == "ZipMap" and m["meaning"]["class_labels"] == [3, 5, 7]
    assert "column k is the probability of class label k of [3, 5, 7]" in c.files["skf.h"]


def _edit(path, out, fn):
    m = onnx.load(path)
    fn(m)
    onnx.save(m, out)
    return str(out)


def _node(m, op):
    return next(n for n in m.graph.node if n.op_type == op)


def _attr(m, name):
    return next(a for a in _node(m, "TreeEnsembleClassifier").attribute if a.name == name)


def _set(node, name, value):
    for i, a in enumerate(node.attribute):
        if a.name == name:
            del node.attribute[i]
            break
    node.attribute.append(helper.make_attribute(name, value))


@pytest.mark.parametrize(
    "model, edit, message",
    [
        (
            "sklearn_svc_rbf.onnx",
            lambda m: _set(_node(m, "SVMClassifier"), "prob_a", [1.0, 1.0, 1.0]),
            r"\(SVMClassifier\): it has probability estimates \(prob_a / prob_b: SVC\(probability=True\)\)\. "
            r"SVMClassifier is supported with support vectors",
        ),
        (
            "sklearn_tree.onnx",
            lambda m: _set(_node(m, "TreeEnsembleClassifier"), "post_transform", "PROBIT"),
            r"\(TreeEnsembleClassifier\): post_transform is 'PROBIT'\. TreeEnsembleClassifier is supported with",
        ),
        (
            "sklearn_binary_tree.onnx",
            lambda m: _set(_node(m, "TreeEnsembleClassifier"), "class_ids", [1] * len(_attr(m, "class_ids").ints)),
            r"it is a two-class ensemble weighted for class 1 only\. TreeEnsembleClassifier is supported",
        ),
        (
            "sklearn_forest_regressor.onnx",
            lambda m: _set(_node(m, "TreeEnsembleRegressor"), "aggregate_function", "MAX"),
            r"\(TreeEnsembleRegressor\): aggregate_function is 'MAX'\. TreeEnsembleRegressor is supported with "
            r"aggregate_function SUM or AVERAGE",
        ),
        (
            "sklearn_tree.onnx",
            lambda m: (
                _node(m, "TreeEnsembleClassifier").attribute.remove(
                    next(a for a in _node(m, "TreeEnsembleClassifier").attribute if a.name == "classlabels_int64s")
                ),
                _set(_node(m, "TreeEnsembleClassifier"), "classlabels_strings", [b"setosa", b"versicolor", b"x"]),
                _set(_node(m, "ZipMap"), "classlabels_strings", [b"setosa", b"versicolor", b"x"]),
            ),
            r"the class labels are strings \('setosa', 'versicolor', 'x'\); the label output would be a tensor of "
            r"strings",
        ),
        (
            "sklearn_logreg.onnx",
            lambda m: m.graph.node.append(
                helper.make_node("Identity", ["output_probability"], ["again"], name="reader")
            ),
            r"\(ZipMap\) writes a sequence of maps \{class: probability\} that node 'reader' reads; "
            r"ZipMap is supported as the last node",
        ),
        (
            "sklearn_logreg.onnx",
            lambda m: _node(m, "LinearClassifier").CopyFrom(
                helper.make_node("LabelEncoder", ["X"], ["label"], domain="ai.onnx.ml", name="enc", keys_floats=[1.0])
            ),
            r"ONNX node 'enc' \(LabelEncoder\) is an ONNX-ML operator .*LabelEncoder is not supported\. Of ONNX-ML, "
            r"Scaler, Normalizer, LinearClassifier, LinearRegressor, SVMClassifier, SVMRegressor, "
            r"ArrayFeatureExtractor, TreeEnsembleClassifier, TreeEnsembleRegressor, ZipMap are",
        ),
    ],
)
def test_unsupported_forms_are_refused_by_name(tmp_path, monkeypatch, model, edit, message):
    monkeypatch.setitem(driver.ONNX_INPUT_SHAPES, "X", [1, 4])
    path = _edit(os.path.join(MODELS, model), tmp_path / model, edit)
    with pytest.raises(UnsupportedError, match=message):
        load_onnx(path, input_shapes={"X": [1, 4]})


@pytest.mark.parametrize("post", ["NONE", "LOGISTIC"])
def test_binary_linear_classifier_one_row_matches_onnxruntime(tmp_path, monkeypatch, post):
    """One coefficient row and two labels (onnxruntime's binary rule: label from the score's sign, scores [1 - s, s]
    whatever the post transform); skl2onnx writes two rows, so this one is built by hand."""
    import onnxruntime as ort

    node = helper.make_node(
        "LinearClassifier",
        ["X"],
        ["label", "scores"],
        domain="ai.onnx.ml",
        coefficients=[0.5, -1.25, 0.75, 2.0],
        intercepts=[-0.4],
        classlabels_ints=[4, 9],
        post_transform=post,
    )
    graph = helper.make_graph(
        [node],
        "binary",
        [helper.make_tensor_value_info("X", onnx.TensorProto.FLOAT, [ROWS, 4])],
        [
            helper.make_tensor_value_info("label", onnx.TensorProto.INT64, [ROWS]),
            helper.make_tensor_value_info("scores", onnx.TensorProto.FLOAT, [ROWS, 2]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("ai.onnx.ml", 1)])
    model.ir_version = 8
    path = str(tmp_path / "binary.onnx")
    onnx.save(model, path)
    x = np.random.default_rng(2).uniform(-1, 1, size=(ROWS, 4)).astype(np.float32)
    np.savez(tmp_path / "in.npz", X=x[None])
    run_model(path, str(tmp_path / "in.npz"), str(tmp_path / "out.npz"))
    got = {k: v[0] for k, v in np.load(tmp_path / "out.npz").items()}
    label, scores = ort.InferenceSession(path).run(None, {"X": x})
    assert set(label.tolist()) == {4, 9}
    np.testing.assert_array_equal(got["label"], label)
    np.testing.assert_allclose(got["scores"], scores, rtol=1e-5, atol=1e-6)
