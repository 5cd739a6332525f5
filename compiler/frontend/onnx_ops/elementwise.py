"""Element-wise ONNX operators: activations (Relu, LeakyRelu, PRelu, Clip, Sigmoid, Tanh, HardSigmoid,
HardSwish, Softplus, Gelu), unary math (Abs, Neg, Sqrt, Reciprocal, Exp, Log, Sin, Cos, Floor, Ceil, Round, Erf),
binary arithmetic (and Pow)
with broadcasting (Add, Sub, Mul, Div), the variadic Min / Max, comparisons and logic (Equal, Less, LessOrEqual,
Greater, GreaterOrEqual, And, Or, Not), Where and the identities (Identity, Dropout).

Element-wise ops run in whatever layout their input already has (NHWC inside a CNN), so no transposes
are added around them; constants are broadcast to 4-D and permuted alongside.  Above 4-D, axes with the same
broadcast pattern are merged so the 4-D kernels apply.  Add / Sub / Mul / Div / Clip on raw int8, uint8 or int32
data compute in int32 with wrap-around and truncating division (see integer.py), as ONNX / numpy do.
"""

import math

import numpy as np

from . import qdq_exact
from .common import data_tensor, float_const, int8_const, out_value, prefer_nhwc
from .context import NotQuantizable
from .integer import is_raw_int, narrow, to_int32
from .layout import TO_NHWC, permute
from .values import Value


def _unary(kind, options=None, int8=None):
    """int8: None (float only) or a predicate on the output QInfo saying whether the int8 kernel applies."""

    def convert(ctx):
        if ctx.quantized and (int8 is None or not int8(ctx)):
            raise NotQuantizable()
        x = ctx.input(0)
        layout = ctx.b.preferred_layout(x)
        t = data_tensor(ctx, x, layout)
        out = out_value(ctx, 0, t.shape, layout)
        opts = options(ctx) if options else {}
        ctx.b.add_op(kind, [t], [out.tensors[layout]], opts)
        ctx.set_output(0, out)

    return convert


def _fixed_out(scale, zp):
    def ok(ctx):
        q = ctx.out_qinfo(0)
        return int(q.zero_point[0]) == zp and abs(float(q.scale[0]) - scale) <= scale * 1e-3

    return ok


def _same_quant(ctx):
    return ctx.out_qinfo(0).same(ctx.input(0).qinfo)


def _clip_options(ctx):
    if ctx.opset < 11:
        lo, hi = ctx.attr("min", -math.inf), ctx.attr("max", math.inf)
    else:
        lo = ctx.const_input(1, "the min operand")
        hi = ctx.const_input(2, "the max operand")
        lo = -math.inf if lo is None else float(ctx.scalar(lo, "the min operand"))
        hi = math.inf if hi is None else float(ctx.scalar(hi, "the max operand"))
    if math.isnan(lo) or math.isnan(hi):
        raise ctx.unsupported(f"a NaN bound (min {lo}, max {hi}) is not supported")
    if float(lo) > float(hi):
        lo = hi  # ONNX (numpy) Clip: min(max(x, lo), hi), so every value becomes hi
    return {"Min": float(lo), "Max": float(hi)}


_INT_OPS = {"ADD": "ADD", "SUB": "SUB", "MUL": "MUL", "DIV": "DIV", "MINIMUM": "MIN", "MAXIMUM": "MAX"}


def merge_broadcast(shapes, out):
    """Adjacent output axes that every operand either spans fully or broadcasts over are merged (size-1 output
    axes dropped): (merged operand shapes, merged output shape), the same element-wise result on the same bytes.
    """
    r = len(out)
    padded = [(1,) * (r - len(s)) + tuple(int(d) for d in s) for s in shapes]
    groups = []
    for i in range(r):
        if int(out[i]) == 1:
            continue
        pattern = tuple(p[i] == int(out[i]) for p in padded)
        if groups and groups[-1][0] == pattern:
            groups[-1][1] *= int(out[i])
        else:
            groups.append([pattern, int(out[i])])
    merged_out = [g[1] for g in groups] or [1]
    merged = [[g[1] if g[0][k] else 1 for g in groups] or [1] for k in range(len(shapes))]
    return merged, merged_out


def _legacy_slope(ctx, x, slope):
    """PRelu before opset 7: a 1-D slope of C values is per channel (axis 1), not numpy-broadcast."""
    if ctx.opset >= 7 or not slope.is_const or x.rank < 3:
        return slope
    arr = np.asarray(slope.const)
    if arr.ndim == 1 and arr.size == x.shape[1] and arr.size > 1:
        arr = arr.reshape((-1,) + (1,) * (x.rank - 2))
        return Value(slope.name + ":per_channel", arr.shape, slope.dtype, const=arr)
    return slope


def _reshaped(ctx, t, shape, name):
    if tuple(t.shape) == tuple(shape):
        return t
    b = ctx.b
    if t.is_const:
        return b.const_tensor(name, np.asarray(t.data).reshape(shape), t.dtype, t.quant)
    out = b.new_tensor(name, shape, t.dtype, t.quant)
    b.add_op("RESHAPE", [t], [out])
    return out


def _emit_binary(ctx, kind, tensors, out_t, options):
    """One element-wise op; above 4-D the axes are merged (reshapes around it) so the 4-D kernels apply."""
    b = ctx.b
    if len(out_t.shape) <= 4:
        b.add_op(kind, tensors, [out_t], options)
        return
    merged, merged_out = merge_broadcast([t.shape for t in tensors], out_t.shape)
    if len(merged_out) > 4:
        raise ctx.unsupported(
            f"output shape {list(out_t.shape)} has rank {len(out_t.shape)} and its broadcast "
            "pattern does not reduce to 4-D; element-wise operators are supported up to 4-D"
        )
    ins = [_reshaped(ctx, t, s, f"{ctx.name}:in{i}:4d") for i, (t, s) in enumerate(zip(tensors, merged))]
    res = b.new_tensor(f"{ctx.name}:4d", merged_out, out_t.dtype, out_t.quant)
    b.add_op(kind, ins, [res], options)
    b.add_op("RESHAPE", [res], [out_t])


def _int_binary(ctx, kind, a, c, shape):
    if kind not in _INT_OPS:
        raise ctx.unsupported(
            f"integer inputs ('{a.name}' is {a.dtype}) are not supported; {ctx.op_type} is "
            "supported on float32 and on int8 in QDQ form"
        )
    dtypes = {v.dtype for v in (a, c) if not v.is_const}
    if len(dtypes) != 1:
        raise ctx.unsupported(f"operands of types {sorted(dtypes)}")
    dtype = dtypes.pop()
    res = ctx.b.new_tensor(f"{ctx.name}:i32", shape, "int32")
    _emit_binary(ctx, "BINARY_INT32", [to_int32(ctx, a), to_int32(ctx, c)], res, {"Operation": _INT_OPS[kind]})
    if dtype == "int32":
        out = ctx.b.runtime_value(ctx.out_name(), shape, "int32")
        ctx.b.add_op("RESHAPE", [res], [out.tensors["onnx"]])
    else:
        out = narrow(ctx, res, dtype, shape)
    ctx.set_output(0, out)


def _pow_exponent_int32(ctx, v):
    """An integer exponent as int32: a constant outside the int32 range is clamped to the nearest value of the
    same parity (every base other than 0 and +-1 overflows or vanishes alike, and those depend only on the sign
    and parity)."""
    if not v.is_const:
        return to_int32(ctx, v)
    arr = np.asarray(v.const).astype(np.int64)
    lo, hi = -(1 << 31), (1 << 31) - 1
    arr = np.where(arr > hi, hi - 1 + (arr & 1), np.where(arr < lo, lo + (arr & 1), arr))
    return ctx.b.const_tensor(f"{ctx.name}:{v.name}:i32", arr.astype(np.int32), "int32")


def _pow_int(ctx, a, c, shape):
    """Pow with run-time integer data: POW_INT32 (int32 ** int32 or float32 -> int32, float32 ** int32 ->
    float32), onnxruntime's results (aot/kernels/pow_int.h).  Other integer types are refused."""
    b = ctx.b
    exp_ok = c.dtype in ("int32", "float32") or (c.is_const and np.asarray(c.const).dtype.kind in "iuf")
    if a.dtype not in ("int32", "float32") or not exp_ok or (not is_raw_int(a) and a.dtype != "float32"):
        raise ctx.unsupported(
            f"base '{a.name}' of type {a.dtype} and exponent '{c.name}' of type {c.dtype}; Pow is supported on "
            "float32 data, and on int32 data (base int32 with an int32 or float32 exponent, or base float32 with "
            "an int32 exponent; a constant exponent may be of any numeric type)"
        )
    if a.dtype == "int32":
        base = to_int32(ctx, a)
        exp_float = c.dtype == "float32" or (c.is_const and np.asarray(c.const).dtype.kind == "f")
        if exp_float:
            exp = (
                b.const_tensor(f"{ctx.name}:{c.name}", float_const(ctx, c, "exponent"), "float32")
                if c.is_const
                else data_tensor(ctx, c, "onnx")
            )
        else:
            exp = _pow_exponent_int32(ctx, c)
        out_dtype = "int32"
    else:
        base = (
            b.const_tensor(f"{ctx.name}:{a.name}", float_const(ctx, a, "base"), "float32")
            if a.is_const
            else (data_tensor(ctx, a, "onnx"))
        )
        exp = _pow_exponent_int32(ctx, c)
        out_dtype = "float32"
    out = b.runtime_value(ctx.out_name(), shape, out_dtype)
    _emit_binary(ctx, "POW_INT32", [base, exp], out.tensors["onnx"], {})
    ctx.set_output(0, out)


def _binary(kind, int8: bool):
    def convert(ctx):
        b = ctx.b
        a, c = ctx.input(0), ctx.input(1)
        if kind == "PRELU":
            c = _legacy_slope(ctx, a, c)
        shape = ctx.out_shape(0)
        try:
            want = np.broadcast_shapes(tuple(a.shape), tuple(c.shape))
        except ValueError:
            raise ctx.error(f"inputs of shapes {list(a.shape)} and {list(c.shape)} do not broadcast") from None
        if tuple(want) != tuple(shape):
            raise ctx.error(
                f"the output has shape {list(shape)} after shape inference, but its inputs broadcast to {list(want)}"
            )
        if ctx.quantized and (not int8 or qdq_exact.enabled()):
            # --qdq_exact: the float operator between its DequantizeLinear and QuantizeLinear, as onnxruntime
            # computes the graph as written (one rounding, half to even), instead of TFLite's int8 arithmetic
            raise NotQuantizable()
        if ctx.quantized and len(shape) > 4:
            raise NotQuantizable()
        if kind == "POW" and any(v.dtype != "float32" and not v.is_const for v in (a, c)):
            _pow_int(ctx, a, c, shape)
            return
        if not ctx.quantized and any(is_raw_int(v) and not v.is_const for v in (a, c)):
            _int_binary(ctx, kind, a, c, shape)
            return
        runtime = [v for v in (a, c) if not v.is_const]
        layout = "nhwc" if len(shape) == 4 and prefer_nhwc(ctx, a, c) and all(v.rank == 4 for v in runtime) else "onnx"
        if ctx.quantized:
            for v in (a, c):
                if v.is_const and (not v.is_dq_view or not v.qinfo.per_tensor):
                    raise NotQuantizable()
        tensors = []
        for v in (a, c):
            if v.is_const and not ctx.quantized:
                data = float_const(ctx, v, "operand")
                if layout == "nhwc":
                    data = np.transpose(data.reshape((1,) * (4 - data.ndim) + data.shape), TO_NHWC)
                tensors.append(b.const_tensor(f"{ctx.name}:{v.name}", data, "float32"))
            elif v.is_const:
                tensors.append(int8_const(ctx, v, layout))
            else:
                tensors.append(data_tensor(ctx, v, layout))
        out = out_value(ctx, 0, shape if layout == "onnx" else permute(shape, TO_NHWC), layout)
        _emit_binary(ctx, kind, tensors, out.tensors[layout], {"FusedActivationFunction": 0})
        ctx.set_output(0, out)

    return convert


def _clip(ctx):
    x = ctx.input(0)
    if ctx.quantized or not is_raw_int(x):
        return _unary("CLAMP", _clip_options, int8=_same_quant)(ctx)
    # Integer data: max with the lower bound, then min with the upper one, in int32.
    b = ctx.b
    opts = _clip_options(ctx)
    info = np.iinfo(np.dtype(x.dtype))
    lo = info.min if math.isinf(opts["Min"]) else int(opts["Min"])
    hi = info.max if math.isinf(opts["Max"]) else int(opts["Max"])
    t = to_int32(ctx, x)
    low = b.new_tensor(f"{ctx.name}:max", t.shape, "int32")
    b.add_op("MAXIMUM", [t, b.int32_const(f"{ctx.name}:lo", [lo])], [low])
    res = b.new_tensor(f"{ctx.name}:min", t.shape, "int32")
    b.add_op("MINIMUM", [low, b.int32_const(f"{ctx.name}:hi", [hi])], [res])
    ctx.set_output(0, narrow(ctx, res, x.dtype, x.shape) if x.dtype != "int32" else _rename(ctx, res, x.shape))


def _rename(ctx, t, shape):
    out = ctx.b.runtime_value(ctx.out_name(), shape, t.dtype)
    ctx.b.add_op("RESHAPE", [t], [out.tensors["onnx"]])
    return out


def _identity(ctx):
    x = ctx.input(0)
    if ctx.op_type == "Dropout":
        training = ctx.const_input(2, "training_mode") if ctx.num_inputs() > 2 else None
        if training is not None and bool(ctx.scalar(training, "training_mode")):
            ratio = ctx.const_input(1, "the ratio") if ctx.num_inputs() > 1 else None
            ratio = 0.5 if ratio is None else float(ctx.scalar(ratio, "the ratio"))
            if ratio != 0.0:
                raise ctx.unsupported(
                    f"training_mode = true with ratio {ratio} (random dropout) is not supported; "
                    "inference models run Dropout as the identity"
                )
        if ctx.num_outputs() > 1 and ctx.out_name(1):
            # Inference (or ratio 0): nothing is dropped, the mask is all true.
            name = ctx.out_name(1)
            ctx.set_output(1, Value(name, tuple(x.shape), "bool", const=np.ones(x.shape, np.bool_)))
    ctx.set_output(0, x)


def _variadic(kind):
    """Min / Max of one or more broadcasting operands: a chain of two-operand MINIMUM / MAXIMUM; raw integer data
    (int8, uint8, int32) compares in int32 and is narrowed back, as for Add."""

    def convert(ctx):
        if ctx.quantized:
            raise NotQuantizable()
        b = ctx.b
        vals = [ctx.input(i) for i in range(ctx.num_inputs())]
        shape = ctx.out_shape(0)
        raw = any(is_raw_int(v) and not v.is_const for v in vals)
        dtypes = {v.dtype for v in vals}
        if raw and len(dtypes) != 1:
            raise ctx.unsupported(f"operands of types {sorted(dtypes)}")
        work = "int32" if raw else "float32"
        tensors = [
            to_int32(ctx, v)
            if raw
            else b.const_tensor(f"{ctx.name}:{v.name}", float_const(ctx, v, "operand"), "float32")
            if v.is_const
            else data_tensor(ctx, v, "onnx")
            for v in vals
        ]
        out = None if raw else b.runtime_value(ctx.out_name(), shape, "float32")
        final = b.new_tensor(f"{ctx.name}:i32", shape, "int32") if raw else out.tensors["onnx"]
        if len(tensors) == 1:
            b.add_op("RESHAPE", [tensors[0]], [final])
        acc = tensors[0]
        for i, t in enumerate(tensors[1:]):
            last = i == len(tensors) - 2
            dst = (
                final
                if last
                else b.new_tensor(f"{ctx.name}:{i}", np.broadcast_shapes(tuple(acc.shape), tuple(t.shape)), work)
            )
            if raw:
                _emit_binary(ctx, "BINARY_INT32", [acc, t], dst, {"Operation": _INT_OPS[kind]})
            else:
                _emit_binary(ctx, kind, [acc, t], dst, {})
            acc = dst
        if raw:
            dtype = dtypes.pop()
            if dtype == "int32":
                out = b.runtime_value(ctx.out_name(), shape, "int32")
                b.add_op("RESHAPE", [final], [out.tensors["onnx"]])
            else:
                out = narrow(ctx, final, dtype, shape)
        ctx.set_output(0, out)

    return convert


def _compare(kind):
    """Equal / Less / LessOrEqual / Greater / GreaterOrEqual (float32, raw integers compared in int32, bool for
    Equal) and And / Or (bool): a bool output, operands broadcast."""

    def convert(ctx):
        if ctx.quantized:
            raise NotQuantizable()
        b = ctx.b
        a, c = ctx.input(0), ctx.input(1)
        shape = ctx.out_shape(0)
        dtypes = {v.dtype for v in (a, c)}
        if len(dtypes) != 1:
            raise ctx.unsupported(f"operands of types {sorted(dtypes)}")
        dtype = dtypes.pop()
        tensors = []
        for v in (a, c):
            if dtype in ("int8", "uint8", "int32"):
                tensors.append(to_int32(ctx, v))
            elif v.is_const:
                arr = np.asarray(v.const, np.bool_ if dtype == "bool" else np.float32)
                tensors.append(b.const_tensor(f"{ctx.name}:{v.name}", arr, "bool" if dtype == "bool" else "float32"))
            else:
                tensors.append(b.get(v, "onnx") if dtype == "bool" else data_tensor(ctx, v, "onnx"))
        out = b.runtime_value(ctx.out_name(), shape, "bool")
        _emit_binary(ctx, kind, tensors, out.tensors["onnx"], {})
        ctx.set_output(0, out)

    return convert


def _logical_not(ctx):
    if ctx.quantized:
        raise NotQuantizable()
    x = ctx.input(0)
    if x.dtype != "bool":
        raise ctx.unsupported(f"input '{x.name}' of type {x.dtype}; Not takes bool")
    out = ctx.b.runtime_value(ctx.out_name(), tuple(x.shape), "bool")
    ctx.b.add_op("LOGICAL_NOT", [ctx.b.get(x, "onnx")], [out.tensors["onnx"]], {})
    ctx.set_output(0, out)


def _where(ctx):
    """Where(condition, x, y): SELECT_V2 on float32 data (up to 4-D, broadcast); raw int8 / uint8 / int32 data
    (not quantized) selects in int32, widened and narrowed back (a copy of values, so exact)."""
    if ctx.quantized:
        raise NotQuantizable()
    b = ctx.b
    cond, x, y = ctx.input(0), ctx.input(1), ctx.input(2)
    shape = ctx.out_shape(0)
    if len(shape) > 4:
        raise ctx.unsupported(f"output rank {len(shape)}; Where is supported up to 4-D")
    if x.dtype == y.dtype and x.dtype != "float32" and is_raw_int(x) and is_raw_int(y):
        c = (
            b.const_tensor(f"{ctx.name}:{cond.name}", np.asarray(cond.const).astype(np.bool_), "bool")
            if cond.is_const
            else b.get(cond, "onnx")
        )
        if x.dtype == "int32":
            out = b.runtime_value(ctx.out_name(), shape, "int32")
            b.add_op("SELECT_V2", [c, to_int32(ctx, x), to_int32(ctx, y)], [out.tensors["onnx"]], {})
        else:
            res = b.new_tensor(f"{ctx.name}:i32", shape, "int32")
            b.add_op("SELECT_V2", [c, to_int32(ctx, x), to_int32(ctx, y)], [res], {})
            out = narrow(ctx, res, x.dtype, shape)
        ctx.set_output(0, out)
        return
    if {x.dtype, y.dtype} != {"float32"}:
        raise ctx.unsupported(
            f"x and y of types {x.dtype}, {y.dtype}; Where is supported on float32 data and on raw (not "
            "quantized) int8, uint8 or int32 data of one type"
        )
    tensors = []
    for v, dt in ((cond, "bool"), (x, "float32"), (y, "float32")):
        if v.is_const:
            tensors.append(
                b.const_tensor(
                    f"{ctx.name}:{v.name}", np.asarray(v.const).astype(np.bool_ if dt == "bool" else np.float32), dt
                )
            )
        else:
            tensors.append(b.get(v, "onnx") if dt == "bool" else data_tensor(ctx, v, "onnx"))
    out = b.runtime_value(ctx.out_name(), shape, "float32")
    b.add_op("SELECT_V2", tensors, [out.tensors["onnx"]], {})
    ctx.set_output(0, out)


def _reciprocal(ctx):
    """1 / x as DIV by the broadcast constant 1."""
    if ctx.quantized:
        raise NotQuantizable()
    x = ctx.input(0)
    one = ctx.b.const_tensor(f"{ctx.name}:one", np.ones([1] * max(1, x.rank), np.float32), "float32")
    out = out_value(ctx, 0, tuple(x.shape), "onnx")
    _emit_binary(ctx, "DIV", [one, data_tensor(ctx, x, "onnx")], out.tensors["onnx"], {"FusedActivationFunction": 0})
    ctx.set_output(0, out)


def _gelu(ctx):
    """Gelu (opset 20): x/2 * (1 + erf(x/sqrt(2))), or with approximate = "tanh"
    x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), as element-wise float ops in the input's layout."""
    if ctx.quantized:
        raise NotQuantizable()
    b = ctx.b
    x = ctx.input(0)
    approx = ctx.attr_str("approximate", "none")
    if approx not in ("none", "tanh"):
        raise ctx.unsupported(f"approximate = '{approx}' (ONNX defines 'none' and 'tanh')")
    layout = b.preferred_layout(x)
    t = data_tensor(ctx, x, layout)
    ones = [1] * max(1, len(t.shape))
    step = [0]

    def new(kind, ins, opts=None):
        step[0] += 1
        res = b.new_tensor(f"{ctx.name}:gelu{step[0]}", t.shape, "float32")
        _emit_binary(ctx, kind, ins, res, opts if opts is not None else {"FusedActivationFunction": 0})
        return res

    def const(v):
        step[0] += 1
        return b.const_tensor(f"{ctx.name}:c{step[0]}", np.full(ones, v, np.float32), "float32")

    def unary(kind, a):
        step[0] += 1
        res = b.new_tensor(f"{ctx.name}:gelu{step[0]}", t.shape, "float32")
        b.add_op(kind, [a], [res], {})
        return res

    if approx == "none":
        inner = unary("ERF", new("MUL", [t, const(1.0 / math.sqrt(2.0))]))
    else:
        cube = new("MUL", [new("MUL", [t, t]), t])
        arg = new("ADD", [t, new("MUL", [cube, const(0.044715)])])
        inner = unary("TANH", new("MUL", [arg, const(math.sqrt(2.0 / math.pi))]))
    out = out_value(ctx, 0, t.shape, layout)
    _emit_binary(
        ctx,
        "MUL",
        [new("MUL", [t, const(0.5)]), new("ADD", [inner, const(1.0)])],
        out.tensors[layout],
        {"FusedActivationFunction": 0},
    )
    ctx.set_output(0, out)


CONVERTERS = {
    "Relu": (_unary("RELU", int8=lambda ctx: True), "compute"),
    "LeakyRelu": (_unary("LEAKY_RELU", lambda ctx: {"Alpha": float(ctx.attr("alpha", 0.01))}), "compute"),
    "Clip": (_clip, "compute"),
    "Sigmoid": (_unary("LOGISTIC", int8=_fixed_out(1.0 / 256, -128)), "compute"),
    "Tanh": (_unary("TANH", int8=_fixed_out(1.0 / 128, 0)), "compute"),
    "HardSigmoid": (
        _unary(
            "HARD_SIGMOID", lambda ctx: {"Alpha": float(ctx.attr("alpha", 0.2)), "Beta": float(ctx.attr("beta", 0.5))}
        ),
        "compute",
    ),
    "HardSwish": (_unary("HARD_SWISH", int8=lambda ctx: True), "compute"),
    "Add": (_binary("ADD", True), "compute"),
    "Sub": (_binary("SUB", True), "compute"),
    "Mul": (_binary("MUL", True), "compute"),
    "Div": (_binary("DIV", False), "compute"),
    "Pow": (_binary("POW", False), "compute"),
    "PRelu": (_binary("PRELU", False), "compute"),
    "Abs": (_unary("ABS", int8=lambda ctx: True), "compute"),
    "Neg": (_unary("NEG"), "compute"),
    "Sqrt": (_unary("SQRT"), "compute"),
    "Reciprocal": (_reciprocal, "compute"),
    "Exp": (_unary("EXP"), "compute"),
    "Log": (_unary("LOG"), "compute"),
    "Sin": (_unary("SIN"), "compute"),
    "Cos": (_unary("COS"), "compute"),
    "Floor": (_unary("FLOOR"), "compute"),
    "Ceil": (_unary("CEIL"), "compute"),
    "Round": (_unary("ROUND"), "compute"),
    "Erf": (_unary("ERF"), "compute"),
    "Softplus": (_unary("SOFTPLUS"), "compute"),
    "Gelu": (_gelu, "compute"),
    "Min": (_variadic("MINIMUM"), "compute"),
    "Max": (_variadic("MAXIMUM"), "compute"),
    "Equal": (_compare("EQUAL"), "compute"),
    "Less": (_compare("LESS"), "compute"),
    "LessOrEqual": (_compare("LESS_EQUAL"), "compute"),
    "Greater": (_compare("GREATER"), "compute"),
    "GreaterOrEqual": (_compare("GREATER_EQUAL"), "compute"),
    "And": (_compare("LOGICAL_AND"), "compute"),
    "Or": (_compare("LOGICAL_OR"), "compute"),
    "Not": (_logical_not, "compute"),
    "Where": (_where, "compute"),
    "Identity": (_identity, "move"),
    "Dropout": (_identity, "move"),
}
