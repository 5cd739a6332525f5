"""ONNX-ML TreeEnsembleClassifier and TreeEnsembleRegressor (scikit-learn's DecisionTree / RandomForest / ExtraTrees /
GradientBoosting models as skl2onnx exports them), rewritten into standard operators without branches, as matrix
products over all trees at once:

- cond [N, I]: each internal node's test (BRANCH_LEQ x <= v, BRANCH_LT, BRANCH_GTE, BRANCH_GT, BRANCH_EQ,
  BRANCH_NEQ) on its feature, 1.0 or 0.0 (the features picked with a Gather);
- path [I, L]: +1 where a leaf's path takes a node's true branch, -1 where it takes the false one; cond @ path
  equals the number of true branches on the path exactly when the row reaches that leaf and is smaller otherwise,
  so Relu(cond @ path + 1 - trues) is 1.0 at the leaf each tree reaches and 0.0 elsewhere (small integers: exact);
- scores [N, C] = that one-hot @ the leaves' class (or target) weights (summed over trees, zeros elsewhere) +
  base_values, divided by the number of trees first for the regressor's AVERAGE;
- the classifier's label is the first class with the highest score (onnxruntime's), read through the label table,
  and post_transform LOGISTIC / SOFTMAX applies to the scores output only;
- a two-class ensemble with weights for class 0 only (skl2onnx's binary trees) follows onnxruntime's binary rule:
  s = the class-0 score (+ a single base value); with all weights >= 0 the label is class 1 when s > 0.5 and the
  scores are [1 - s, s] (no post transform); with mixed signs (gradient boosting) the label is class 1 when s > 0
  and the scores are [-s, s], or [logistic(-s), logistic(s)] under LOGISTIC.

A NaN feature takes the false branch of every test, as onnxruntime's without missing-value tracking.
Refused by name: nodes_missing_value_tracks_true set, PROBIT / SOFTMAX_ZERO, the regressor's MIN / MAX aggregation,
a two-class ensemble whose one weighted class is class 1 or with two base values.
"""

import numpy as np

from ..errors import UnsupportedError
from .onnx_ml import _label, _text, class_labels, emit_label

# Each mode as a strict comparison that exists in every opset (LessOrEqual / GreaterOrEqual only from opset 12):
# for float32 x and a finite float32 threshold v, x <= v exactly when x < the next float above v, and x >= v exactly
# when x > the next float below v; NaN fails both, as it fails x <= v.
_COMPARE = {
    "BRANCH_LEQ": ("Less", np.inf),
    "BRANCH_LT": ("Less", None),
    "BRANCH_GTE": ("Greater", -np.inf),
    "BRANCH_GT": ("Greater", None),
    "BRANCH_EQ": ("Equal", None),
    "BRANCH_NEQ": ("Equal", None),  # negated below
}


def _refuse(node, what: str):
    if node.op_type == "TreeEnsembleRegressor":
        raise UnsupportedError(
            f"{_label(node)}: {what}. TreeEnsembleRegressor is supported with aggregate_function SUM or AVERAGE, "
            "post_transform NONE and no missing-value tracking (scikit-learn's tree regressors as skl2onnx exports "
            "them)."
        )
    raise UnsupportedError(
        f"{_label(node)}: {what}. TreeEnsembleClassifier is supported with integer class labels, post_transform "
        "NONE, LOGISTIC or SOFTMAX and no missing-value tracking (scikit-learn's tree classifiers as skl2onnx "
        "exports them, binary ones by onnxruntime's two-class rule)."
    )


def _leaf_onehot(e, node, attrs, n_feat: int):
    """The [N, leaves] tensor that is 1.0 at the leaf each tree reaches, the node index of each leaf column, the
    (tree, node) -> attribute index map and the number of trees."""
    if any(int(v) for v in attrs.get("nodes_missing_value_tracks_true", [])):
        _refuse(node, "nodes_missing_value_tracks_true is set")
    if attrs.get("nodes_values_as_tensor") is not None:
        _refuse(node, "its thresholds are given as a tensor (double precision)")
    tree_ids = [int(v) for v in attrs.get("nodes_treeids", [])]
    node_ids = [int(v) for v in attrs.get("nodes_nodeids", [])]
    modes = [_text(v) for v in attrs.get("nodes_modes", [])]
    feats = [int(v) for v in attrs.get("nodes_featureids", [])]
    values = [float(v) for v in attrs.get("nodes_values", [])]
    trues = [int(v) for v in attrs.get("nodes_truenodeids", [])]
    falses = [int(v) for v in attrs.get("nodes_falsenodeids", [])]
    n = len(tree_ids)
    if not n or any(len(a) != n for a in (node_ids, modes, feats, values, trues, falses)):
        _refuse(node, "its node attribute lists are empty or of different lengths")
    bad = sorted({m for m in modes if m != "LEAF" and m not in _COMPARE})
    if bad:
        _refuse(node, f"node mode {bad[0]} is not one of LEAF, {', '.join(_COMPARE)}")
    if e.opset < 11 and any(m in ("BRANCH_EQ", "BRANCH_NEQ") for m in modes):
        _refuse(node, f"BRANCH_EQ / BRANCH_NEQ need a float Equal, which the model's opset {e.opset} lacks (from 11)")
    if any(not 0 <= f < n_feat for f, m in zip(feats, modes) if m != "LEAF"):
        _refuse(node, f"a node tests a feature outside the input's {n_feat}")
    where = {(t, i): k for k, (t, i) in enumerate(zip(tree_ids, node_ids))}
    internal = [k for k in range(n) if modes[k] != "LEAF"]
    col = {k: c for c, k in enumerate(internal)}
    roots, seen = [], set()
    for k, t in enumerate(tree_ids):  # a tree's root is its first node in the list (as onnxruntime takes it)
        if t not in seen:
            seen.add(t)
            roots.append(k)
    leaves, paths = [], []
    for root in roots:
        stack = [(root, [])]
        while stack:
            k, path = stack.pop()
            if len(path) > n:
                _refuse(node, f"tree {tree_ids[root]} has a cycle")
            if modes[k] == "LEAF":
                leaves.append(k)
                paths.append(path)
                continue
            for nxt, branch in ((falses[k], -1.0), (trues[k], 1.0)):
                if (tree_ids[k], nxt) not in where:
                    _refuse(node, f"node {node_ids[k]} of tree {tree_ids[k]} points to node {nxt}, which is missing")
                stack.append((where[(tree_ids[k], nxt)], path + [(col[k], branch)]))
    path = np.zeros((len(internal), len(leaves)), np.float32)
    offset = np.ones(len(leaves), np.float32)
    for c, steps in enumerate(paths):
        for i, branch in steps:
            path[i, c] += branch
            offset[c] -= branch > 0
    x = node.input[0]
    if not internal:
        _refuse(node, "every tree is a single leaf")
    picked = e.op("Gather", [x, e.const("features", np.array([feats[k] for k in internal], np.int64))], axis=1)
    thr = np.array([values[k] for k in internal], np.float32)
    if not np.all(np.isfinite(thr)):
        _refuse(node, "a threshold is not finite")
    cond = None
    for mode in sorted({modes[k] for k in internal}):
        compare, toward = _COMPARE[mode]
        v = thr if toward is None else np.nextafter(thr, np.float32(toward)).astype(np.float32)
        b = e.op(compare, [picked, e.const("thresholds", v)], "cmp")
        if mode == "BRANCH_NEQ":
            b = e.op("Not", [b], "ne")
        f = e.op("Cast", [b], "cmpf", to=1)
        if len({modes[k] for k in internal}) > 1:  # mixed modes: each node keeps its own mode's test
            mask = np.array([modes[k] == mode for k in internal], np.float32)
            f = e.op("Mul", [f, e.const("mask", mask)], "masked")
        cond = f if cond is None else e.op("Add", [cond, f], "cond")
    hit = e.op("Add", [e.op("MatMul", [cond, e.const("path", path)], "walk"), e.const("offset", offset)], "hit")
    return e.op("Relu", [hit], "leaf"), {k: c for c, k in enumerate(leaves)}, where, len(roots)


def _leaf_weights(node, attrs, prefix: str, width: int, leaf_col: dict, where: dict):
    """[leaves, width] from the <prefix>_ids / _nodeids / _treeids / _weights lists (summed where repeated)."""
    ids = [int(v) for v in attrs.get(f"{prefix}_ids", [])]
    nodes = [int(v) for v in attrs.get(f"{prefix}_nodeids", [])]
    trees = [int(v) for v in attrs.get(f"{prefix}_treeids", [])]
    ws = [float(v) for v in attrs.get(f"{prefix}_weights", [])]
    if attrs.get(f"{prefix}_weights_as_tensor") is not None:
        _refuse(node, f"its {prefix} weights are given as a tensor (double precision)")
    if any(not 0 <= c < width for c in ids) or not len(ids) == len(nodes) == len(trees) == len(ws):
        _refuse(node, f"its {prefix}_ids / _nodeids / _treeids / _weights do not fit together")
    weights = np.zeros((len(leaf_col), width), np.float32)
    for c, nd, t, w in zip(ids, nodes, trees, ws):
        k = where.get((t, nd))
        if k is not None and k in leaf_col:  # weights on internal nodes are ignored, as onnxruntime does
            weights[leaf_col[k], c] += np.float32(w)
    return weights, ids, ws


def _input_features(node, shapes) -> int:
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    return int(xs[1])


def _binary_tree_classifier(e, node, labels, onehot, weights, ws, base, post):
    """onnxruntime's two-class rule for an ensemble weighted for class 0 only."""
    if len(base) == 2:
        _refuse(node, "it is a two-class ensemble weighted for one class with two base values")
    s = e.op("MatMul", [onehot, e.const("weights", weights[:, :1].copy())], "votes")  # [N, 1]
    if len(base) == 1:
        s = e.op("Add", [s, e.const("base", base[:1])], "score")
    positive = all(w >= 0 for w in ws)
    if node.output[0]:
        bar = np.float32(0.5 if positive else 0.0)
        win = e.op("Cast", [e.op("Greater", [s, e.const("bar", bar)], "win")], "wini", to=6)
        emit_label(e, node, labels, e.reshape(win, [-1]))
    if len(node.output) > 1 and node.output[1]:
        if positive:
            first = e.op("Sub", [e.const("one", np.ones(1, np.float32)), s], "rest")
        else:
            first = e.op("Neg", [s], "neg")
        if not positive and post == "LOGISTIC":
            first, s = e.op("Sigmoid", [first], "p0"), e.op("Sigmoid", [s], "p1")
        e.op("Concat", [first, s], out=node.output[1], axis=1)


def _tree_classifier(e, node, shapes, consts, attrs):
    n_feat = _input_features(node, shapes)
    labels = class_labels(node, attrs, "TreeEnsembleClassifier")
    n_cls = len(labels)
    post = _text(attrs.get("post_transform", "NONE"))
    if post not in ("NONE", "LOGISTIC", "SOFTMAX"):
        _refuse(node, f"post_transform is '{post}'")
    onehot, leaf_col, where, _ = _leaf_onehot(e, node, attrs, n_feat)
    weights, ids, ws = _leaf_weights(node, attrs, "class", n_cls, leaf_col, where)
    base = np.asarray(attrs.get("base_values", []) or [], np.float32)
    if n_cls == 2 and len(set(ids)) == 1:
        if ids[0] != 0:
            _refuse(node, "it is a two-class ensemble weighted for class 1 only")
        _binary_tree_classifier(e, node, labels, onehot, weights, ws, base, post)
        return
    if len(base) not in (0, n_cls):
        _refuse(node, f"it has {len(base)} base values for {n_cls} classes")
    if n_cls == 2 and post != "NONE":
        _refuse(node, f"it is a two-class ensemble weighted for both classes with post_transform '{post}'")
    raw = e.op("MatMul", [onehot, e.const("weights", weights)], "votes")
    scores = e.op("Add", [raw, e.const("base", base if len(base) else np.zeros(n_cls, np.float32))], "scores")
    if len(node.output) > 1 and node.output[1]:
        kind = {"NONE": "Identity", "LOGISTIC": "Sigmoid", "SOFTMAX": "Softmax"}[post]
        e.op(kind, [scores], out=node.output[1], **({"axis": 1} if kind == "Softmax" else {}))
    if node.output[0]:
        emit_label(e, node, labels, e.op("ArgMax", [scores], "argmax", axis=1, keepdims=0))


def _tree_regressor(e, node, shapes, consts, attrs):
    n_feat = _input_features(node, shapes)
    n_targets = int(attrs.get("n_targets", 1))
    post = _text(attrs.get("post_transform", "NONE"))
    if post != "NONE":
        _refuse(node, f"post_transform is '{post}'")
    agg = _text(attrs.get("aggregate_function", "SUM"))
    if agg not in ("SUM", "AVERAGE"):
        _refuse(node, f"aggregate_function is '{agg}'")
    onehot, leaf_col, where, n_trees = _leaf_onehot(e, node, attrs, n_feat)
    weights, _, _ = _leaf_weights(node, attrs, "target", n_targets, leaf_col, where)
    base = np.asarray(attrs.get("base_values", []) or [], np.float32)
    # onnxruntime adds base_values when there is one per target (or one for a single target), else nothing
    if len(base) != n_targets:
        base = np.zeros(n_targets, np.float32)
    y = e.op("MatMul", [onehot, e.const("weights", weights)], "votes")
    if agg == "AVERAGE":
        y = e.op("Div", [y, e.const("trees", np.float32(n_trees))], "mean")
    e.op("Add", [y, e.const("base", base)], out=node.output[0])


RULES = {"TreeEnsembleClassifier": _tree_classifier, "TreeEnsembleRegressor": _tree_regressor}
