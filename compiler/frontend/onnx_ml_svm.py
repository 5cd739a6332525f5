"""ONNX-ML SVMClassifier (scikit-learn's SVC as skl2onnx exports it, libsvm's one-vs-one form), SVMRegressor (SVR,
NuSVR, OneClassSVM, and LinearSVR's linear mode) and ArrayFeatureExtractor (the column picks skl2onnx adds after
it), rewritten into standard operators:

- kernels K [N, S] of the input rows with the S support vectors: LINEAR x.sv, POLY (gamma x.sv + coef0)^degree,
  SIGMOID tanh(gamma x.sv + coef0), RBF exp(-gamma |x - sv|^2) (kernel_params = [gamma, coef0, degree]);
- one decision value per class pair (i, j), i < j in the order (0,1), (0,2), ..., (1,2), ...: the pair's
  coefficients over both classes' support vectors (coefficients is [C-1, S] as libsvm lays it out) plus rho;
  that [N, C(C-1)/2] tensor is the second output, as onnxruntime writes it without probability estimates;
- the label: each pair votes for i when its value is > 0, else for j; the class with the most votes wins, the
  first on a tie (onnxruntime's max_element), read through the label table.

SVMRegressor: Y [N, 1] = K @ coefficients + rho[0] (linear mode without support vectors: X @ coefficients +
rho[0]); one_class maps Y to 1.0 where it is > 0, else -1.0. onnxruntime ignores its post_transform; so does this.

onnxruntime accumulates each kernel in double; here float32 — the decision values agree within float tolerance, and
a label can differ only for a row whose decision value is within rounding of 0.
Two classes follow onnxruntime's form: one decision value v, label class 0 when v > 0 (else class 1), scores
output [-v, v].
Supported: 2 or more classes, post_transform NONE, no prob_a / prob_b (SVC(probability=False), the default).
Refused by name: probability estimates, linear mode (no support vectors: skl2onnx exports LinearSVC as
LinearClassifier, which is supported).
"""

import numpy as np

from ..errors import UnsupportedError
from .onnx_ml import _label, _text, class_labels, emit_label


def _refuse(node, what: str):
    raise UnsupportedError(
        f"{_label(node)}: {what}. SVMClassifier is supported with support vectors (scikit-learn SVC), 2 or more "
        "integer classes, kernel LINEAR, POLY, RBF or SIGMOID, post_transform NONE and no probability estimates "
        "(SVC(probability=False), the default)."
    )


def _kernels(e, node, x, sv, kernel, gamma, coef0, degree) -> str:
    if kernel == "RBF":
        x3 = e.op("Unsqueeze", [x, e.const("axis1", np.array([1], np.int64))], "x3") if e.opset >= 13 else None
        if x3 is None:
            x3 = e.op("Unsqueeze", [x], "x3", axes=[1])
        d = e.op("Sub", [x3, e.const("sv", sv)], "diff")  # [N, S, F]
        sq = e.op("Mul", [d, d], "sq")
        if e.opset >= 13:
            dist = e.op("ReduceSum", [sq, e.const("axes", np.array([2], np.int64))], "dist", keepdims=0)
        else:
            dist = e.op("ReduceSum", [sq], "dist", axes=[2], keepdims=0)
        return e.op("Exp", [e.op("Mul", [dist, e.const("neg_gamma", np.float32(-gamma))], "scaled")], "k")
    dot = e.op("MatMul", [x, e.const("sv_t", sv.T.copy())], "dot")
    if kernel == "LINEAR":
        return dot
    z = e.op(
        "Add", [e.op("Mul", [dot, e.const("gamma", np.float32(gamma))], "gdot"), e.const("coef0", np.float32(coef0))]
    )
    if kernel == "POLY":
        return e.op("Pow", [z, e.const("degree", np.float32(degree))], "k")
    return e.op("Tanh", [z], "k")


def _svm_classifier(e, node, shapes, consts, attrs):
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    labels = class_labels(node, attrs, "SVMClassifier")
    n_cls, n_feat = len(labels), int(xs[1])
    per_class = [int(v) for v in attrs.get("vectors_per_class", [])]
    n_sv = sum(per_class)
    if n_sv == 0:
        _refuse(node, "it has no support vectors (liblinear mode)")
    if attrs.get("prob_a"):
        _refuse(node, "it has probability estimates (prob_a / prob_b: SVC(probability=True))")
    if n_cls < 2:
        _refuse(node, f"it has {n_cls} class")
    post = _text(attrs.get("post_transform", "NONE"))
    if post != "NONE":
        _refuse(node, f"post_transform is '{post}'")
    kernel = _text(attrs.get("kernel_type", "LINEAR"))
    if kernel not in ("LINEAR", "POLY", "RBF", "SIGMOID"):
        _refuse(node, f"kernel_type is '{kernel}'")
    sv = np.asarray(attrs.get("support_vectors", []), np.float32)
    coef = np.asarray(attrs.get("coefficients", []), np.float32)
    rho = np.asarray(attrs.get("rho", []), np.float32)
    n_pairs = n_cls * (n_cls - 1) // 2
    if len(per_class) != n_cls or sv.size != n_sv * n_feat or coef.size < (n_cls - 1) * n_sv or rho.size < n_pairs:
        _refuse(
            node,
            f"its sizes do not fit together ({n_cls} classes, vectors_per_class {per_class[:8]}, {sv.size} support "
            f"vector values for {n_feat} features, {coef.size} coefficients, {rho.size} rho)",
        )
    params = [float(v) for v in attrs.get("kernel_params", [])] + [0.0, 0.0, 0.0]
    k = _kernels(e, node, node.input[0], sv.reshape(n_sv, n_feat), kernel, *params[:3])
    coef = coef[: (n_cls - 1) * n_sv].reshape(n_cls - 1, n_sv)
    start = np.concatenate([[0], np.cumsum(per_class)])
    w = np.zeros((n_sv, n_pairs), np.float32)
    toward = np.zeros((n_pairs, n_cls), np.float32)  # +1 for i, -1 for j: votes = [value > 0] @ toward + base
    base = np.zeros(n_cls, np.float32)
    p = 0
    for i in range(n_cls - 1):
        for j in range(i + 1, n_cls):
            w[start[i] : start[i + 1], p] = coef[j - 1, start[i] : start[i + 1]]
            w[start[j] : start[j + 1], p] = coef[i, start[j] : start[j + 1]]
            toward[p, i], toward[p, j] = 1.0, -1.0
            base[j] += 1.0
            p += 1
    scores = e.op("Add", [e.op("MatMul", [k, e.const("w", w)], "kw"), e.const("rho", rho[:n_pairs])], "scores")
    if n_cls == 2:
        # onnxruntime's two-class form: the one pair's vote decides (class 0 when its value is > 0, as for more
        # classes), and the scores output is [-value, value]
        if len(node.output) > 1 and node.output[1]:
            e.op("Concat", [e.op("Neg", [scores], "neg"), scores], out=node.output[1], axis=1)
        if node.output[0]:
            loses = e.op("Not", [e.op("Greater", [scores, e.const("zero", np.float32(0))], "pos")], "neg_side")
            emit_label(e, node, labels, e.reshape(e.op("Cast", [loses], "second", to=6), [-1]))
        return
    if len(node.output) > 1 and node.output[1]:
        e.op("Identity", [scores], out=node.output[1])
    if node.output[0]:
        wins = e.op("Cast", [e.op("Greater", [scores, e.const("zero", np.float32(0))], "pos")], "posf", to=1)
        votes = e.op("Add", [e.op("MatMul", [wins, e.const("toward", toward)], "vi"), e.const("base", base)], "votes")
        emit_label(e, node, labels, e.op("ArgMax", [votes], "argmax", axis=1, keepdims=0))


def _svm_regressor(e, node, shapes, consts, attrs):
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    n_feat, n_sv = int(xs[1]), int(attrs.get("n_supports", 0))
    coef = np.asarray(attrs.get("coefficients", []), np.float32)
    rho = np.asarray(attrs.get("rho", []), np.float32)
    sv = np.asarray(attrs.get("support_vectors", []), np.float32)
    kernel = _text(attrs.get("kernel_type", "LINEAR"))
    if kernel not in ("LINEAR", "POLY", "RBF", "SIGMOID"):
        raise UnsupportedError(
            f"{_label(node)}: kernel_type is '{kernel}'; SVMRegressor is supported with LINEAR, POLY, RBF, SIGMOID."
        )
    width = n_sv if n_sv > 0 else n_feat
    if rho.size < 1 or coef.size != width or (n_sv > 0 and sv.size != n_sv * n_feat):
        raise UnsupportedError(
            f"{_label(node)}: its sizes do not fit together ({n_sv} support vectors, {sv.size} support vector "
            f"values for {n_feat} features, {coef.size} coefficients, {rho.size} rho)."
        )
    if n_sv > 0:
        params = [float(v) for v in attrs.get("kernel_params", [])] + [0.0, 0.0, 0.0]
        k = _kernels(e, node, node.input[0], sv.reshape(n_sv, n_feat), kernel, *params[:3])
    else:  # linear mode: the coefficients are one weight per feature, the kernel a plain dot product
        k = node.input[0]
    y = e.op("Add", [e.op("MatMul", [k, e.const("coef", coef.reshape(width, 1))], "kw"), e.const("rho", rho[:1])])
    if int(attrs.get("one_class", 0)):
        pos = e.op("Greater", [y, e.const("zero", np.float32(0))], "pos")
        y = e.op("Where", [pos, e.const("plus", np.float32(1)), e.const("minus", np.float32(-1))], "side")
    e.op("Identity", [y], out=node.output[0])


def _array_feature_extractor(e, node, shapes, consts, attrs):
    """Y = X[..., indices]: a Gather on the last axis."""
    rank = len(shapes[node.input[0]])
    if rank < 2:
        raise UnsupportedError(
            f"{_label(node)}: ArrayFeatureExtractor is supported on inputs of rank 2 or more (got rank {rank})."
        )
    # onnxruntime reads the indices as a flat list whatever their shape (skl2onnx passes scalars): the output is
    # X's shape with the last axis replaced by the number of indices.
    idx = e.reshape(node.input[1], [-1])
    e.op("Gather", [node.input[0], idx], out=node.output[0], axis=rank - 1)


RULES = {
    "SVMClassifier": _svm_classifier,
    "SVMRegressor": _svm_regressor,
    "ArrayFeatureExtractor": _array_feature_extractor,
}
