"""`--input_shape NAME=D0,D1,...` for TFLite models: a model input whose signature has -1 dimensions (an audio front
end exported with [-1, -1], a dynamic batch) compiled at a size the user chooses instead of the stored one.

TFLite Micro never resizes a tensor; it runs every tensor at the shape stored in the file.  Compiling at another
size therefore means the model as it would be stored at that size: the new input shape is propagated through the
graph in operator order, each operator downstream of a changed tensor getting its output shapes from its inputs
(as TFLite's Prepare computes them when the full interpreter resizes an input), and the constant operands (weights,
RESHAPE targets, axes) staying as stored.  Operators whose inputs keep their shapes are not touched.

Shape rules exist for the operators such front ends and classifiers use: element-wise unary and broadcasting binary
operators, FULLY_CONNECTED, RESHAPE (a -1 in its target takes the new size; a fully specified target must still
match), CONCATENATION, the reductions (MEAN, SUM, REDUCE_MAX/MIN/PROD) with constant axes, SQUEEZE, EXPAND_DIMS,
PAD with constant paddings, TRANSPOSE with a constant permutation, BATCH_MATMUL, and the NHWC windows (CONV_2D,
DEPTHWISE_CONV_2D, AVERAGE/MAX_POOL_2D).  Any other operator a changed shape reaches is refused with one paragraph
naming it.

`rewrite_shapes` writes the propagated shapes back into the flatbuffer: TFLite Micro, the oracle, then runs the model
at the chosen size (its kernels check the shapes they depend on in Prepare).
"""

import numpy as np

from ..errors import CompileError, UnsupportedError

_UNARY = {
    "ABS", "CAST", "CEIL", "COS", "DEQUANTIZE", "ELU", "EXP", "FLOOR", "GELU", "HARD_SWISH", "L2_NORMALIZATION",
    "LEAKY_RELU", "LOG", "LOG_SOFTMAX", "LOGICAL_NOT", "LOGISTIC", "NEG", "QUANTIZE", "RELU", "RELU6", "RELU_0_TO_1",
    "RELU_N1_TO_1", "ROUND", "RSQRT", "SIN", "SOFTMAX", "SQRT", "SQUARE", "TANH", "ZEROS_LIKE", "SIGN",
}  # fmt: skip
_BINARY = {
    "ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "POW", "SQUARED_DIFFERENCE", "FLOOR_DIV", "FLOOR_MOD",
    "EQUAL", "NOT_EQUAL", "LESS", "LESS_EQUAL", "GREATER", "GREATER_EQUAL", "LOGICAL_AND", "LOGICAL_OR", "PRELU",
}  # fmt: skip
_REDUCE = {"MEAN", "SUM", "REDUCE_MAX", "REDUCE_MIN", "REDUCE_PROD"}
_WINDOW = {"CONV_2D", "DEPTHWISE_CONV_2D", "AVERAGE_POOL_2D", "MAX_POOL_2D"}
SUPPORTED = sorted(_UNARY | _BINARY | _REDUCE | _WINDOW | {"FULLY_CONNECTED", "RESHAPE", "CONCATENATION"})


class _Refuse(Exception):
    """An operator the new shape cannot be propagated through: why."""


def _const(op, pos, what):
    t = op.input(pos)
    if t is None or t.data is None:
        raise _Refuse(f"its {what} is not a constant")
    return np.asarray(t.data).reshape(-1).astype(np.int64)


def _broadcast(a, b):
    try:
        return tuple(int(d) for d in np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        raise _Refuse(f"its operands {list(a)} and {list(b)} no longer broadcast") from None


def _reshape(op, shape):
    n = int(np.prod(shape))
    if op.input(1) is not None and op.input(1).data is not None:
        target = [int(d) for d in _const(op, 1, "shape operand")]
    elif op.options.get("NewShape"):
        target = [int(d) for d in op.options["NewShape"]]
    else:
        raise _Refuse("its target shape is computed at run time")
    if target.count(-1) > 1:
        raise _Refuse(f"its target {target} has more than one -1")
    if -1 in target:
        rest = int(np.prod([d for d in target if d != -1]))
        if rest <= 0 or n % rest:
            raise _Refuse(f"{n} elements do not fill its target {target}")
        target = [n // rest if d == -1 else d for d in target]
    if int(np.prod(target)) != n:
        raise _Refuse(f"its constant target {target} holds {int(np.prod(target))} elements, the input now has {n}")
    return [tuple(target)]


def _fully_connected(op, shape):
    w = op.input(1)
    if w is None or len(w.shape) != 2:
        raise _Refuse("its weights are not a [units, depth] matrix")
    units, depth = int(w.shape[0]), int(w.shape[1])
    n = int(np.prod(shape))
    if n % depth:
        raise _Refuse(f"the input's {n} elements are not a multiple of the weights' depth {depth}")
    if op.options.get("KeepNumDims"):
        if shape[-1] != depth:
            raise _Refuse(f"the input's last dimension {shape[-1]} is not the weights' depth {depth}")
        return [tuple(shape[:-1]) + (units,)]
    return [(n // depth, units)]


def _reduce(op, shape):
    axes = {int(a) % len(shape) for a in _const(op, 1, "axes operand")}
    if op.options.get("KeepDims"):
        return [tuple(1 if i in axes else d for i, d in enumerate(shape))]
    return [tuple(d for i, d in enumerate(shape) if i not in axes)]


def _window(op, shape):
    if len(shape) != 4:
        raise _Refuse(f"its input {list(shape)} is not NHWC")
    o = op.options
    if op.kind in ("CONV_2D", "DEPTHWISE_CONV_2D"):
        w = op.input(1).shape
        kh, kw = int(w[1]), int(w[2])
        dh, dw = int(o.get("DilationHFactor", 1) or 1), int(o.get("DilationWFactor", 1) or 1)
        channels = int(w[0]) if op.kind == "CONV_2D" else int(w[3])
    else:
        kh, kw, dh, dw = int(o.get("FilterHeight", 1)), int(o.get("FilterWidth", 1)), 1, 1
        channels = shape[3]
    sh, sw = int(o.get("StrideH", 1) or 1), int(o.get("StrideW", 1) or 1)
    same = int(o.get("Padding", 0)) == 0

    def out(size, k, s, d):
        eff = (k - 1) * d + 1
        return (size + s - 1) // s if same else (size - eff + s) // s

    return [(shape[0], out(shape[1], kh, sh, dh), out(shape[2], kw, sw, dw), channels)]


def _batch_matmul(op, a, b):
    if len(a) < 2 or len(b) < 2:
        raise _Refuse(f"its operands {list(a)} and {list(b)} are not matrices")
    m, k = (a[-1], a[-2]) if op.options.get("AdjX") else (a[-2], a[-1])
    k2, n = (b[-1], b[-2]) if op.options.get("AdjY") else (b[-2], b[-1])
    if k != k2:
        raise _Refuse(f"its operands {list(a)} and {list(b)} no longer agree on the inner dimension")
    return [_broadcast(a[:-2], b[:-2]) + (m, n)]


def _out_shapes(op, shapes):
    """New output shapes of `op` given its inputs' shapes (None for an omitted input)."""
    k, x = op.kind, shapes[0]
    if k in _UNARY:
        return [x]
    if k in _BINARY:
        return [_broadcast(x, shapes[1])]
    if k == "RESHAPE":
        return _reshape(op, x)
    if k == "FULLY_CONNECTED":
        return _fully_connected(op, x)
    if k in _REDUCE:
        return _reduce(op, x)
    if k in _WINDOW:
        return _window(op, x)
    if k == "CONCATENATION":
        axis = int(op.options.get("Axis", 0)) % len(x)
        if any(len(s) != len(x) or any(a != b for i, (a, b) in enumerate(zip(s, x)) if i != axis) for s in shapes):
            raise _Refuse(f"its inputs {[list(s) for s in shapes]} no longer agree outside axis {axis}")
        return [tuple(sum(s[axis] for s in shapes) if i == axis else d for i, d in enumerate(x))]
    if k == "SQUEEZE":
        dims = {int(d) % len(x) for d in op.options.get("SqueezeDims", [])}
        return [tuple(d for i, d in enumerate(x) if not (d == 1 and (not dims or i in dims)))]
    if k == "EXPAND_DIMS":
        axis = int(_const(op, 1, "axis operand")[0])
        axis = axis % (len(x) + 1)
        return [tuple(x[:axis]) + (1,) + tuple(x[axis:])]
    if k == "TRANSPOSE":
        perm = [int(p) % len(x) for p in _const(op, 1, "permutation operand")]
        if sorted(perm) != list(range(len(x))):
            raise _Refuse(f"its permutation {perm} does not fit the input's rank {len(x)}")
        return [tuple(x[p] for p in perm)]
    if k == "BATCH_MATMUL":
        return _batch_matmul(op, x, shapes[1])
    if k in ("PAD", "PADV2"):
        pads = _const(op, 1, "paddings operand").reshape(-1, 2)
        return [tuple(int(d + a + b) for d, (a, b) in zip(x, pads))]
    raise _Refuse("no shape rule")


def apply_input_shapes(graph, shapes: dict, signatures: dict) -> None:
    """Give the named model inputs the shapes of `shapes` ({name: [dims]}) and propagate them (see the module
    docstring); `signatures` maps each input's name to its shape signature (-1 where the size is free)."""
    by_name = {t.name: t for t in graph.inputs}
    for name, dims in shapes.items():
        t = by_name.get(name)
        if t is None:
            raise CompileError(
                f"--input_shape {name}=...: the model has no input '{name}'; its inputs are "
                f"{', '.join(repr(n) for n in by_name)}."
            )
        sig = list(signatures.get(name) or t.shape)
        flag = f"--input_shape {name}={','.join(str(d) for d in dims)}"
        if len(dims) != len(sig):
            raise CompileError(f"{flag}: the input '{name}' has rank {len(sig)} (signature {sig}), not {len(dims)}.")
        fixed = [i for i, (d, s) in enumerate(zip(dims, sig)) if s >= 0 and d != s]
        if fixed:
            raise CompileError(
                f"{flag}: dimension {fixed[0]} of input '{name}' is fixed at {sig[fixed[0]]} by the model's "
                f"signature {sig}; only its -1 dimensions can be set."
            )
        if any(d <= 0 for d in dims):
            raise CompileError(f"{flag}: every dimension must be positive.")
        t.shape = tuple(int(d) for d in dims)
    changed = {by_name[n].index for n in shapes}
    for op in graph.ops:
        if not any(t is not None and t.index in changed for t in op.inputs):
            continue
        in_shapes = [tuple(t.shape) if t is not None else None for t in op.inputs]
        try:
            new = _out_shapes(op, in_shapes)
            for t, s in zip(op.outputs, new):
                if any(int(d) <= 0 for d in s):
                    raise _Refuse(f"its output '{t.name}' would have shape {list(s)}")
        except _Refuse as e:
            raise UnsupportedError(
                f"--input_shape: operator {op.index} ({op.kind}) cannot take the new shapes of its inputs "
                f"({', '.join(str(list(s)) for s in in_shapes if s is not None)}): {e}. The new input shape is "
                f"propagated through {', '.join(SUPPORTED)}; compile at the stored shape (without --input_shape) "
                "or re-export the model at the size you need."
            ) from None
        for t, s in zip(op.outputs, new):
            if tuple(t.shape) != tuple(s):
                if t.is_variable or t.data is not None:
                    raise UnsupportedError(
                        f"--input_shape: operator {op.index} ({op.kind}) would change the shape of its state or "
                        f"constant '{t.name}' {list(t.shape)} to {list(s)}; state keeps its stored shape."
                    )
                t.shape = tuple(int(d) for d in s)
                changed.add(t.index)


def rewrite_shapes(data: bytes, graph) -> bytes:
    """The flatbuffer `data` with every main-subgraph tensor at its shape in `graph` (after apply_input_shapes):
    the model as stored at the chosen size, for TFLite Micro to run."""
    import flatbuffers
    from tflite_micro.tensorflow.lite.micro.python import schema_py_generated as fb

    m = fb.ModelT.InitFromPackedBuf(bytearray(data), 0)
    by_index = {t.index: t for t in graph.tensors}
    for i, t in enumerate(m.subgraphs[0].tensors):
        g = by_index.get(i)
        if g is not None and g.data is None and t.shape is not None and list(t.shape) != list(g.shape):
            t.shape = [int(d) for d in g.shape]
    b = flatbuffers.Builder(len(data) + 1024)
    b.Finish(m.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())
