"""The simple ONNX-ML operators (domain ai.onnx.ml, as skl2onnx exports scikit-learn preprocessing and linear
models) rewritten into standard operators during normalization (onnx_decompose.py calls these):

- Scaler: Y = (X - offset) * scale;
- Normalizer: each row divided by its maximum (MAX), its sum of absolute values (L1) or its Euclidean norm (L2);
- LinearClassifier: scores = X W^T + intercepts, then post_transform NONE, LOGISTIC or SOFTMAX; the label output is
  the ArgMax of the scores (int32, as the frontend narrows every index) read through the label table. With one
  coefficient row and two labels, onnxruntime's binary rule: label 1 when the score s is > 0, scores [1 - p, p]
  with p = s or logistic(s);
- LinearRegressor: Y = X W^T + intercepts, one column per target.

SVMClassifier / SVMRegressor are onnx_ml_svm.py's, the tree ensembles onnx_ml_tree.py's; the others are refused by
name in onnx_validate.
"""

import numpy as np

from ..errors import UnsupportedError


def _label(node) -> str:
    return f"ONNX node '{node.name or node.op_type}' ({node.op_type})"


def _text(v) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


def _reduce(e, kind: str, x: str, axes: list) -> str:
    """ReduceSum (axes an input from opset 13) / ReduceMax (from opset 18) with keepdims."""
    if e.opset >= (13 if kind == "ReduceSum" else 18):
        return e.op(kind, [x, e.const("axes", np.array(axes, np.int64))], kind.lower(), keepdims=1)
    return e.op(kind, [x], kind.lower(), axes=axes, keepdims=1)


def _scaler(e, node, shapes, consts, attrs):
    offset = np.asarray(attrs.get("offset", [0.0]), np.float32)
    scale = np.asarray(attrs.get("scale", [1.0]), np.float32)
    d = e.op("Sub", [node.input[0], e.const("offset", offset)], "centered")
    e.op("Mul", [d, e.const("scale", scale)], out=node.output[0])


def _normalizer(e, node, shapes, consts, attrs):
    norm = _text(attrs.get("norm", "MAX"))
    x = node.input[0]
    if norm == "MAX":
        den = _reduce(e, "ReduceMax", x, [1])
    elif norm == "L1":
        den = _reduce(e, "ReduceSum", e.op("Abs", [x], "abs"), [1])
    elif norm == "L2":
        den = e.op("Sqrt", [_reduce(e, "ReduceSum", e.op("Mul", [x, x], "sq"), [1])], "norm")
    else:
        raise UnsupportedError(f"{_label(node)}: norm '{norm}' is not one of MAX, L1, L2.")
    e.op("Div", [x, den], out=node.output[0])


def class_labels(node, attrs, what: str) -> list:
    """The integer class labels of a classifier node; string labels are refused (the label output would be a
    tensor of strings, which C has no type for)."""
    strings = attrs.get("classlabels_strings") or []
    if strings:
        shown = ", ".join(repr(_text(v)) for v in strings[:8]) + (", ..." if len(strings) > 8 else "")
        raise UnsupportedError(
            f"{_label(node)}: the class labels are strings ({shown}); the label output would be a tensor of "
            f"strings, which generated C cannot return. {what} is supported with integer class labels "
            "(classlabels_ints / classlabels_int64s, any values): train the scikit-learn model on integer classes "
            "(e.g. LabelEncoder) and keep the string names in the application."
        )
    labels = [int(v) for v in (attrs.get("classlabels_ints") or attrs.get("classlabels_int64s") or [])]
    if not labels:
        raise UnsupportedError(f"{_label(node)}: no class labels (classlabels_ints / classlabels_int64s).")
    return labels


def emit_label(e, node, labels: list, index: str) -> None:
    """The label output: `index` (int, [N], the winning column) itself when the labels are 0 .. C-1, else the
    label table read at it, as onnxruntime returns the label values. Gather reads constant indices only here, so
    the table is read arithmetically: [index == k] (one-hot, float) times the labels (exact in float32 up to
    2^24; larger labels are refused), cast back to int32."""
    if labels == list(range(len(labels))):
        e.op("Identity", [index], out=node.output[0])
        return
    if max(abs(v) for v in labels) >= 1 << 24:
        raise UnsupportedError(
            f"{_label(node)}: class labels beyond +-2^24 ({max(labels, key=abs)}) are not supported (the label table "
            "is read in float32); integer class labels of smaller magnitude are."
        )
    hot = e.op("Equal", [e.reshape(index, [-1, 1]), e.const("classes", np.arange(len(labels), dtype=np.int32))])
    table = e.const("labels", np.array(labels, np.float32))
    value = e.op("MatMul", [e.op("Cast", [hot], "hotf", to=1), table], "label_f")
    e.op("Cast", [value], out=node.output[0], to=6)


def _linear_classifier(e, node, shapes, consts, attrs):
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    labels = class_labels(node, attrs, "LinearClassifier")
    coef = np.asarray(attrs.get("coefficients", []), np.float32)
    n_feat = xs[1]
    rows = len(labels) if len(labels) > 2 or coef.size >= 2 * n_feat else 1
    if coef.size < rows * n_feat:
        raise UnsupportedError(
            f"{_label(node)}: LinearClassifier needs one coefficient row of {n_feat} features per class "
            f"({len(labels)} integer labels {labels[:6]}); it has {coef.size} coefficients."
        )
    if rows == 1 and len(labels) != 2:
        raise UnsupportedError(
            f"{_label(node)}: one coefficient row with {len(labels)} class labels; LinearClassifier is supported "
            "with one coefficient row per class, or one row and two labels (onnxruntime's binary rule)."
        )
    post = _text(attrs.get("post_transform", "NONE"))
    if post not in ("NONE", "LOGISTIC", "SOFTMAX"):
        raise UnsupportedError(f"{_label(node)}: post_transform '{post}' is not supported (NONE, LOGISTIC, SOFTMAX).")
    # onnxruntime reads the first C x features coefficients as the [C, features] matrix and ignores any more
    # (onnxruntime's logreg_iris.onnx has 4 features' worth for an input of 2): the same here.
    w = coef[: rows * n_feat].reshape(rows, n_feat).T.copy()
    inter = np.asarray(attrs.get("intercepts", np.zeros(len(labels))), np.float32)
    raw = e.op("Add", [e.op("MatMul", [node.input[0], e.const("w", w)], "xw"), e.const("b", inter[:rows])], "raw")
    if rows == 1:
        # onnxruntime's binary rule: the label from the raw score's sign, the scores [1 - p, p] with p the score
        # after the post transform (NONE or LOGISTIC)
        if node.output[0]:
            win = e.op("Cast", [e.op("Greater", [raw, e.const("zero", np.float32(0))], "win")], "wini", to=6)
            emit_label(e, node, labels, e.reshape(win, [-1]))
        if len(node.output) > 1 and node.output[1]:
            if post == "SOFTMAX":
                raise UnsupportedError(
                    f"{_label(node)}: post_transform SOFTMAX on one coefficient row (a binary classifier) is not "
                    "supported; NONE and LOGISTIC are."
                )
            p = e.op("Sigmoid", [raw], "p") if post == "LOGISTIC" else raw
            rest = e.op("Sub", [e.const("one", np.ones(1, np.float32)), p], "rest")
            e.op("Concat", [rest, p], out=node.output[1], axis=1)
        return
    if len(node.output) > 0 and node.output[0]:
        emit_label(e, node, labels, e.op("ArgMax", [raw], "argmax", axis=1, keepdims=0))
    if len(node.output) > 1 and node.output[1]:
        kind = {"NONE": "Identity", "LOGISTIC": "Sigmoid", "SOFTMAX": "Softmax"}[post]
        extra = {"axis": 1} if kind == "Softmax" else {}
        e.op(kind, [raw], out=node.output[1], **extra)


def _linear_regressor(e, node, shapes, consts, attrs):
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    post = _text(attrs.get("post_transform", "NONE"))
    if post != "NONE":
        raise UnsupportedError(
            f"{_label(node)}: post_transform '{post}' is not supported; LinearRegressor is supported with NONE."
        )
    targets, n_feat = int(attrs.get("targets", 1)), int(xs[1])
    coef = np.asarray(attrs.get("coefficients", []), np.float32)
    if targets < 1 or coef.size != targets * n_feat:
        raise UnsupportedError(
            f"{_label(node)}: LinearRegressor needs {targets} x {n_feat} coefficients (targets x features); it has "
            f"{coef.size}."
        )
    inter = np.asarray(attrs.get("intercepts", []) or np.zeros(targets), np.float32)
    if inter.size != targets:
        raise UnsupportedError(f"{_label(node)}: {inter.size} intercepts for {targets} targets.")
    xw = e.op("MatMul", [node.input[0], e.const("w", coef.reshape(targets, n_feat).T.copy())], "xw")
    e.op("Add", [xw, e.const("b", inter)], out=node.output[0])


RULES = {
    "Scaler": _scaler,
    "Normalizer": _normalizer,
    "LinearClassifier": _linear_classifier,
    "LinearRegressor": _linear_regressor,
}
