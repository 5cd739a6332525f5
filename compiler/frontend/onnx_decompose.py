"""Rewrites ONNX operators PyTorch exports for small models into standard operators the converters already
translate, during graph normalization (onnx_normalize.py), once their input shapes are static:

- DepthToSpace (DCR and CRD) / SpaceToDepth: Reshape -> 6-D Transpose -> Reshape;
- LayerNormalization, InstanceNormalization, GroupNormalization (float32): ReduceMean over the normalized axes,
  (x - mean) / sqrt(var + epsilon), times scale plus bias (the per-channel ones reshaped to broadcast);
- LSTM, GRU (both linear_before_reset forms) and RNN, forward / reverse / bidirectional (layout 0), initial
  states as (run-time or constant) inputs, all three outputs: unrolled over the static sequence length. The input
  projection of all steps is one MatMul per gate (X [T*B, I] x W_g^T); each step Gathers its rows, adds the
  recurrent MatMul and applies the gate functions. Only the default activations are supported (Sigmoid / Tanh),
  no clip, no input_forget, a sequence_lens (if given) equal to the sequence length for every batch entry;
- Sum (variadic, broadcasting; skl2onnx's SVC export uses it): a chain of Adds, left to right as onnxruntime sums.

The rewritten nodes use only operators whose form does not change across opsets (Gather, MatMul, Add, Sub, Mul,
Div, Sqrt, Sigmoid, Tanh, Reshape, Concat, Transpose), except ReduceMean, written for the model's opset.
The results equal onnxruntime's to float32 rounding (the order of the sums differs).
"""

import numpy as np
from onnx import helper

from ..errors import UnsupportedError
from . import onnx_ml_rules


class _Emit:
    """Collects the nodes replacing one node; names are unique (prefixed by the node's name) and constants are
    registered with the normalizer's constant table."""

    def __init__(self, node, consts, taken: set, opset: int):
        self.node, self.consts, self.taken, self.opset = node, consts, taken, opset
        self.prefix = (node.name or node.output[0] or node.op_type) + "/"
        self.nodes = []

    def name(self, hint: str) -> str:
        n = self.prefix + hint
        while n in self.taken:
            n += "_"
        self.taken.add(n)
        return n

    def const(self, hint: str, arr) -> str:
        n = self.name(hint)
        self.consts.add(n, np.asarray(arr))
        return n

    def op(self, op_type: str, inputs: list, hint: str = None, out: str = None, **attrs) -> str:
        out = out or self.name(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=self.name(op_type + "_node"), **attrs))
        return out

    def reshape(self, x: str, shape, out: str = None) -> str:
        return self.op("Reshape", [x, self.const("shape", np.array(shape, np.int64))], "reshaped", out)

    def reduce_mean(self, x: str, axes: list) -> str:
        if self.opset >= 18:
            return self.op("ReduceMean", [x, self.const("axes", np.array(axes, np.int64))], "mean", keepdims=1)
        return self.op("ReduceMean", [x], "mean", axes=axes, keepdims=1)


def _label(node) -> str:
    return f"ONNX node '{node.name or node.op_type}' ({node.op_type})"


def _attrs(node) -> dict:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _const(node, consts, i: int, what: str):
    name = node.input[i] if i < len(node.input) else ""
    if not name:
        return None
    arr = consts.constant(name)
    if arr is None:
        raise UnsupportedError(f"{_label(node)}: {what} ('{name}') is computed at run time; it must be a constant.")
    return arr


# --- DepthToSpace / SpaceToDepth --------------------------------------------------------------------------------
def _depth_space(e: _Emit, node, shapes, consts):
    shape = shapes[node.input[0]]
    bs = int(_attrs(node).get("blocksize", 0))
    if len(shape) != 4 or bs < 1:
        raise UnsupportedError(f"{_label(node)}: a 4-D input and blocksize >= 1 are supported (got {list(shape)}).")
    n, c, h, w = shape
    if node.op_type == "DepthToSpace":
        if c % (bs * bs):
            raise UnsupportedError(f"{_label(node)}: {c} channels are not a multiple of blocksize^2 = {bs * bs}.")
        mode = _attrs(node).get("mode", b"DCR")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if mode == "DCR":
            r = e.reshape(node.input[0], [n, bs, bs, c // (bs * bs), h, w])
            t = e.op("Transpose", [r], "t", perm=[0, 3, 4, 1, 5, 2])
        else:
            r = e.reshape(node.input[0], [n, c // (bs * bs), bs, bs, h, w])
            t = e.op("Transpose", [r], "t", perm=[0, 1, 4, 2, 5, 3])
        e.reshape(t, [n, c // (bs * bs), h * bs, w * bs], out=node.output[0])
    else:
        if h % bs or w % bs:
            raise UnsupportedError(f"{_label(node)}: height {h} and width {w} must be multiples of blocksize {bs}.")
        r = e.reshape(node.input[0], [n, c, h // bs, bs, w // bs, bs])
        t = e.op("Transpose", [r], "t", perm=[0, 3, 5, 1, 2, 4])
        e.reshape(t, [n, c * bs * bs, h // bs, w // bs], out=node.output[0])


# --- normalizations ---------------------------------------------------------------------------------------------
def _normalize(e: _Emit, x: str, axes: list, eps: float) -> str:
    mean = e.reduce_mean(x, axes)
    d = e.op("Sub", [x, mean], "centered")
    var = e.reduce_mean(e.op("Mul", [d, d], "sq"), axes)
    std = e.op("Sqrt", [e.op("Add", [var, e.const("eps", np.array(eps, np.float32))], "var_eps")], "std")
    return e.op("Div", [d, std], "normed")


def _layer_norm(e: _Emit, node, shapes, consts):
    shape = shapes[node.input[0]]
    a = _attrs(node)
    if len([o for o in node.output[1:] if o]):
        raise UnsupportedError(f"{_label(node)}: the Mean / InvStdDev outputs (training) are not supported.")
    if int(a.get("stash_type", 1)) != 1:
        raise UnsupportedError(f"{_label(node)}: stash_type {a['stash_type']} is not supported (1: float32).")
    axis = int(a.get("axis", -1))
    axis = axis + len(shape) if axis < 0 else axis
    y = _normalize(e, node.input[0], list(range(axis, len(shape))), float(a.get("epsilon", 1e-5)))
    y = e.op("Mul", [y, node.input[1]], "scaled")
    if len(node.input) > 2 and node.input[2]:
        e.op("Add", [y, node.input[2]], out=node.output[0])
    else:
        e.op("Identity", [y], out=node.output[0])


def _channel_param(e, node, consts, i, c, rank, what):
    arr = _const(node, consts, i, what)
    return e.const(what, arr.astype(np.float32).reshape([c] + [1] * (rank - 2)))


def _instance_norm(e: _Emit, node, shapes, consts):
    shape = shapes[node.input[0]]
    if len(shape) < 3:
        raise UnsupportedError(f"{_label(node)}: the input needs a spatial dimension (shape {list(shape)}).")
    eps = float(_attrs(node).get("epsilon", 1e-5))
    y = _normalize(e, node.input[0], list(range(2, len(shape))), eps)
    y = e.op("Mul", [y, _channel_param(e, node, consts, 1, shape[1], len(shape), "scale")], "scaled")
    e.op("Add", [y, _channel_param(e, node, consts, 2, shape[1], len(shape), "bias")], out=node.output[0])


def _group_norm(e: _Emit, node, shapes, consts):
    shape = shapes[node.input[0]]
    a = _attrs(node)
    g = int(a.get("num_groups", 0))
    n, c = shape[0], shape[1]
    if len(shape) < 3 or g < 1 or c % g:
        raise UnsupportedError(
            f"{_label(node)}: {c} channels in {g} groups of an input {list(shape)} are not supported."
        )
    if int(a.get("stash_type", 1)) != 1:
        raise UnsupportedError(f"{_label(node)}: stash_type {a['stash_type']} is not supported (1: float32).")
    grouped = e.reshape(node.input[0], [n, g, -1])
    y = e.reshape(_normalize(e, grouped, [2], float(a.get("epsilon", 1e-5))), list(shape))
    params = []
    for i, what in ((1, "scale"), (2, "bias")):
        arr = _const(node, consts, i, what).astype(np.float32).reshape(-1)
        if arr.size == g:  # opset 18: one value per group
            arr = np.repeat(arr, c // g)
        params.append(e.const(what, arr.reshape([c] + [1] * (len(shape) - 2))))
    y = e.op("Mul", [y, params[0]], "scaled")
    e.op("Add", [y, params[1]], out=node.output[0])


# --- recurrent layers -------------------------------------------------------------------------------------------
_GATES = {"LSTM": 4, "GRU": 3, "RNN": 1}
_DEFAULT_ACTS = {"LSTM": ["Sigmoid", "Tanh", "Tanh"], "GRU": ["Sigmoid", "Tanh"], "RNN": ["Tanh"]}


def _recurrent(e: _Emit, node, shapes, consts):
    kind = node.op_type
    a = _attrs(node)
    ng = _GATES[kind]
    direction = a.get("direction", b"forward")
    direction = direction.decode() if isinstance(direction, bytes) else direction
    dirs = {"forward": ["forward"], "reverse": ["reverse"], "bidirectional": ["forward", "reverse"]}.get(direction)
    acts = [x.decode() if isinstance(x, bytes) else x for x in a.get("activations", [])]
    problems = []
    if dirs is None:
        problems.append(f"direction '{direction}'")
    if acts and acts != _DEFAULT_ACTS[kind] * len(dirs or [1]):
        problems.append(f"activations {acts}")
    if "clip" in a:
        problems.append(f"clip {a['clip']}")
    if int(a.get("input_forget", 0)):
        problems.append("input_forget = 1")
    if int(a.get("layout", 0)):
        problems.append("layout = 1 (batch-first; onnxruntime refuses it too, exporters write layout 0)")
    if problems:
        raise UnsupportedError(
            f"{_label(node)}: {', '.join(problems)} not supported; {kind} is compiled with its default "
            f"activations ({', '.join(_DEFAULT_ACTS[kind])}), no clip, forward / reverse / bidirectional, layout 0."
        )
    xs = shapes[node.input[0]]
    if len(xs) != 3:
        raise UnsupportedError(f"{_label(node)}: the input X must be 3-D (shape {list(xs)}).")
    t_len, batch, isz = xs
    w = _const(node, consts, 1, "the input weights W").astype(np.float32)
    r = _const(node, consts, 2, "the recurrence weights R").astype(np.float32)
    hs = int(a.get("hidden_size", r.shape[-1]))
    bias = _const(node, consts, 3, "the bias B")
    bias = np.zeros((len(dirs), 2 * ng * hs), np.float32) if bias is None else bias.astype(np.float32)
    seq = _const(node, consts, 4, "sequence_lens")
    if seq is not None and not np.all(seq.reshape(-1) == t_len):
        raise UnsupportedError(
            f"{_label(node)}: sequence_lens {seq.reshape(-1).tolist()[:8]} differ from the sequence length "
            f"{t_len}; only full-length sequences are supported."
        )
    peep = _const(node, consts, 7, "the peepholes P") if kind == "LSTM" else None
    if w.shape != (len(dirs), ng * hs, isz) or r.shape != (len(dirs), ng * hs, hs):
        raise UnsupportedError(
            f"{_label(node)}: W {list(w.shape)} / R {list(r.shape)} do not match {len(dirs)} direction(s), "
            f"hidden_size {hs} and input size {isz}. The model is malformed."
        )
    x2 = e.reshape(node.input[0], [t_len * batch, isz])
    ys, yhs, ycs = [], [], []
    for d, dname in enumerate(dirs):
        wb, rb = bias[d, : ng * hs], bias[d, ng * hs :]
        # Input projections of every step, one [T, B, H] tensor per gate (input bias, and for the gates whose
        # recurrent bias is not applied inside a product, the recurrent bias too, folded in).
        xw = []
        for gi in range(ng):
            sl = slice(gi * hs, (gi + 1) * hs)
            b_g = wb[sl] + (rb[sl] if not (kind == "GRU" and gi == 2) else 0)
            m = e.op("MatMul", [x2, e.const(f"w{d}_{gi}", w[d, sl].T.copy())], f"xw{d}_{gi}")
            m = e.op("Add", [m, e.const(f"b{d}_{gi}", b_g)], f"xwb{d}_{gi}")
            xw.append(e.reshape(m, [t_len, batch, hs]))
        rt = [e.const(f"r{d}_{gi}", r[d, gi * hs : (gi + 1) * hs].T.copy()) for gi in range(ng)]

        def initial(i, hint, d=d):
            if len(node.input) > i and node.input[i]:
                return e.op("Gather", [node.input[i], e.const("dir", np.array(d, np.int64))], hint, axis=0)
            return e.const(hint, np.zeros((batch, hs), np.float32))

        h = initial(5, f"h0_{d}")
        c = initial(6, f"c0_{d}") if kind == "LSTM" else None
        steps = range(t_len) if dname == "forward" else range(t_len - 1, -1, -1)
        outs = {}
        for t in steps:
            idx = e.const("t", np.array(t, np.int64))
            g = [e.op("Gather", [xw[gi], idx], f"x{d}_{t}_{gi}", axis=0) for gi in range(ng)]
            if kind == "RNN":
                h = e.op("Tanh", [e.op("Add", [g[0], e.op("MatMul", [h, rt[0]], "hr")], "pre")], f"h{d}_{t}")
            elif kind == "LSTM":  # gate order i, o, f, c
                pre = [e.op("Add", [g[gi], e.op("MatMul", [h, rt[gi]], "hr")], "pre") for gi in range(4)]
                if peep is not None:
                    pi, po, pf = (e.const(f"p{d}_{k}", peep[d, k * hs : (k + 1) * hs]) for k in range(3))
                    pre[0] = e.op("Add", [pre[0], e.op("Mul", [c, pi], "pc")], "pre")
                    pre[2] = e.op("Add", [pre[2], e.op("Mul", [c, pf], "pc")], "pre")
                i_g = e.op("Sigmoid", [pre[0]], "i")
                f_g = e.op("Sigmoid", [pre[2]], "f")
                c_g = e.op("Tanh", [pre[3]], "cand")
                c = e.op("Add", [e.op("Mul", [f_g, c], "fc"), e.op("Mul", [i_g, c_g], "ic")], f"c{d}_{t}")
                if peep is not None:
                    pre[1] = e.op("Add", [pre[1], e.op("Mul", [c, po], "pc")], "pre")
                o_g = e.op("Sigmoid", [pre[1]], "o")
                h = e.op("Mul", [o_g, e.op("Tanh", [c], "tc")], f"h{d}_{t}")
            else:  # GRU, gate order z, r, h
                z = e.op("Sigmoid", [e.op("Add", [g[0], e.op("MatMul", [h, rt[0]], "hr")], "pre")], "z")
                rg = e.op("Sigmoid", [e.op("Add", [g[1], e.op("MatMul", [h, rt[1]], "hr")], "pre")], "r")
                rbh = e.const(f"rbh{d}", rb[2 * hs :])
                if int(a.get("linear_before_reset", 0)):
                    hh = e.op("Add", [e.op("MatMul", [h, rt[2]], "hr"), rbh], "hrb")
                    n_pre = e.op("Add", [g[2], e.op("Mul", [rg, hh], "rh")], "pre")
                else:
                    rh = e.op("MatMul", [e.op("Mul", [rg, h], "rh"), rt[2]], "rhr")
                    n_pre = e.op("Add", [g[2], e.op("Add", [rh, rbh], "rhrb")], "pre")
                n_g = e.op("Tanh", [n_pre], "n")
                # H = (1 - z) * n + z * H = n + z * (H - n)
                h = e.op("Add", [n_g, e.op("Mul", [z, e.op("Sub", [h, n_g], "hn")], "zhn")], f"h{d}_{t}")
            outs[t] = h
        ys.append(e.reshape(e.op("Concat", [outs[t] for t in range(t_len)], "ycat", axis=0), [t_len, 1, batch, hs]))
        yhs.append(e.reshape(h, [1, batch, hs]))
        if c is not None:
            ycs.append(e.reshape(c, [1, batch, hs]))
    outputs = list(node.output) + [""] * (3 - len(node.output))
    if outputs[0]:
        if len(ys) == 1:
            e.op("Identity", ys, out=outputs[0])
        else:
            e.op("Concat", ys, out=outputs[0], axis=1)
    for name, parts in ((outputs[1], yhs), (outputs[2], ycs)):
        if name and parts:
            if len(parts) == 1:
                e.op("Identity", parts, out=name)
            else:
                e.op("Concat", parts, out=name, axis=0)


def _sum(e: _Emit, node, shapes, consts):
    acc = node.input[0]
    for i, x in enumerate(node.input[1:]):
        acc = e.op("Add", [acc, x], out=node.output[0] if i == len(node.input) - 2 else None)
    if len(node.input) == 1:
        e.op("Identity", [acc], out=node.output[0])


_RULES = {
    "Sum": _sum,
    "DepthToSpace": _depth_space,
    "SpaceToDepth": _depth_space,
    "LayerNormalization": _layer_norm,
    "InstanceNormalization": _instance_norm,
    "GroupNormalization": _group_norm,
    "LSTM": _recurrent,
    "GRU": _recurrent,
    "RNN": _recurrent,
}


def decomposable(node, shapes: dict) -> bool:
    """Whether `node` is rewritten here (or by onnx_ml) and its data input's shape is static (otherwise it waits
    for a later round of normalization)."""
    if node.domain == "ai.onnx.ml":
        return node.op_type in onnx_ml_rules.RULES and node.input[0] in shapes
    return node.domain in ("", "ai.onnx") and node.op_type in _RULES and node.input[0] in shapes


def decompose(node, shapes: dict, consts, taken: set, opset: int) -> list:
    """The standard nodes computing `node`'s outputs (see the module docstring)."""
    e = _Emit(node, consts, taken, opset)
    if node.domain == "ai.onnx.ml":
        onnx_ml_rules.RULES[node.op_type](e, node, shapes, consts, _attrs(node))
    else:
        _RULES[node.op_type](e, node, shapes, consts)
    return e.nodes


__all__ = ["decomposable", "decompose"]
