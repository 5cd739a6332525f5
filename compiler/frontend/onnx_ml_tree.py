"""ONNX-ML TreeEnsembleClassifier (scikit-learn's DecisionTree / RandomForest / ExtraTrees classifiers as skl2onnx
exports them), rewritten into standard operators without branches, as matrix products over all trees at once:

- cond [N, I]: each internal node's test (BRANCH_LEQ x <= v, BRANCH_LT, BRANCH_GTE, BRANCH_GT, BRANCH_EQ,
  BRANCH_NEQ) on its feature, 1.0 or 0.0 (the features picked with a Gather);
- path [I, L]: +1 where a leaf's path takes a node's true branch, -1 where it takes the false one; cond @ path
  equals the number of true branches on the path exactly when the row reaches that leaf and is smaller otherwise,
  so Relu(cond @ path + 1 - trues) is 1.0 at the leaf each tree reaches and 0.0 elsewhere (small integers: exact);
- scores [N, C] = that one-hot @ the leaves' class weights (summed over trees, zeros elsewhere) + base_values; the
  label is the first class with the highest score (onnxruntime's), read through the label table.

A NaN feature takes the false branch of every test, as onnxruntime's without missing-value tracking.
Supported: post_transform NONE (skl2onnx's), integer class labels, weights for 2 or more classes. Refused by name:
nodes_missing_value_tracks_true set, a two-class ensemble with weights for one class only (onnxruntime's binary
rule), other post transforms.
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
    raise UnsupportedError(
        f"{_label(node)}: {what}. TreeEnsembleClassifier is supported with integer class labels, weights for 2 or "
        "more classes, post_transform NONE and no missing-value tracking (scikit-learn's tree classifiers as "
        "skl2onnx exports them)."
    )


def _tree_classifier(e, node, shapes, consts, attrs):
    xs = shapes[node.input[0]]
    if len(xs) != 2:
        raise UnsupportedError(f"{_label(node)}: a 2-D input [N, features] is supported (got {list(xs)}).")
    labels = class_labels(node, attrs, "TreeEnsembleClassifier")
    n_cls, n_feat = len(labels), int(xs[1])
    post = _text(attrs.get("post_transform", "NONE"))
    if post != "NONE":
        _refuse(node, f"post_transform is '{post}'")
    if any(int(v) for v in attrs.get("nodes_missing_value_tracks_true", [])):
        _refuse(node, "nodes_missing_value_tracks_true is set")
    if attrs.get("nodes_values_as_tensor") is not None or attrs.get("class_weights_as_tensor") is not None:
        _refuse(node, "its thresholds or weights are given as tensors (double precision)")
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
    c_ids = [int(v) for v in attrs.get("class_ids", [])]
    c_nodes = [int(v) for v in attrs.get("class_nodeids", [])]
    c_trees = [int(v) for v in attrs.get("class_treeids", [])]
    c_w = [float(v) for v in attrs.get("class_weights", [])]
    if n_cls == 2 and len(set(c_ids)) == 1:
        _refuse(node, "it has two classes and weights for one of them (onnxruntime's binary rule)")
    if any(not 0 <= c < n_cls for c in c_ids) or not len(c_ids) == len(c_nodes) == len(c_trees) == len(c_w):
        _refuse(node, "its class_ids / class_nodeids / class_treeids / class_weights do not fit together")
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
    leaf_col = {k: c for c, k in enumerate(leaves)}
    path = np.zeros((len(internal), len(leaves)), np.float32)
    offset = np.ones(len(leaves), np.float32)
    for c, steps in enumerate(paths):
        for i, branch in steps:
            path[i, c] += branch
            offset[c] -= branch > 0
    weights = np.zeros((len(leaves), n_cls), np.float32)
    for c, nd, t, w in zip(c_ids, c_nodes, c_trees, c_w):
        k = where.get((t, nd))
        if k is not None and k in leaf_col:  # weights on internal nodes are ignored, as onnxruntime does
            weights[leaf_col[k], c] += np.float32(w)
    base = np.asarray(attrs.get("base_values", []) or np.zeros(n_cls), np.float32)
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
    onehot = e.op("Relu", [hit], "leaf")
    raw = e.op("MatMul", [onehot, e.const("weights", weights)], "votes")
    scores = e.op("Add", [raw, e.const("base", base)], "scores")
    if len(node.output) > 1 and node.output[1]:
        e.op("Identity", [scores], out=node.output[1])
    if node.output[0]:
        emit_label(e, node, labels, e.op("ArgMax", [scores], "argmax", axis=1, keepdims=0))


RULES = {"TreeEnsembleClassifier": _tree_classifier}
