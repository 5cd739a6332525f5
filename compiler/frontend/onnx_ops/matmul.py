"""Gemm, MatMul and QLinearMatMul.

A constant right-hand matrix makes a FULLY_CONNECTED (weights [N, K], alpha folded in, a per-column C as
its bias); a run-time one a BATCH_MATMUL (float32) with explicit alpha / beta * C steps.  int8 in QDQ form
needs constant symmetric int8 weights, per tensor or per output column.  QLinearMatMul is computed exactly as
ONNX defines it (integer product on float kernels with integer values, then round half to even).
"""

import numpy as np

from . import qdq_exact
from .common import data_tensor, float_const, out_value
from .context import NotQuantizable
from .quant import to_qinfo
from .values import QInfo, Value


def _add_const(ctx, t, data, out_t):
    b = ctx.b
    b.add_op(
        "ADD",
        [t, b.const_tensor(f"{ctx.name}:c", np.asarray(data, np.float32), "float32")],
        [out_t],
        {"FusedActivationFunction": 0},
    )


def _fc_int8(ctx, a_tensor, wq_data, wq: QInfo, bias, out_shape, out_q):
    """FULLY_CONNECTED int8: wq_data [N, K] int8, wq per tensor or per row."""
    b = ctx.b
    n = wq_data.shape[0]
    if np.any(wq.zero_point != 0):
        raise ctx.unsupported("int8 weights must be symmetric (zero point 0)")
    scale = np.asarray(wq.scale, np.float32).reshape(-1)
    filt = b.const_tensor(
        f"{ctx.name}:weights",
        wq_data.astype(np.int8),
        "int8",
        b.quant_params(QInfo(scale, np.zeros(scale.size, np.int64), 0)),
    )
    in_scale = float(a_tensor.quant.scale[0])
    want = in_scale * scale.astype(np.float64) * np.ones(n)
    bias_t = None
    if bias is not None:
        if (
            bias.is_dq_view
            and bias.is_const
            and str(bias.qsrc.const.dtype) == "int32"
            and np.allclose(np.asarray(bias.qinfo.scale, np.float64) * np.ones(n), want, rtol=1e-5)
            and bias.qsrc.const.size == n
        ):
            q = np.asarray(bias.qsrc.const, np.int64).reshape(-1)
        else:
            real = np.asarray(float_const(ctx, bias, "the bias"), np.float64)
            if real.size != n:
                raise NotQuantizable()
            q = np.round(real.reshape(-1) / want).astype(np.int64)
        bias_t = b.const_tensor(f"{ctx.name}:bias", q.astype(np.int32), "int32")
    if qdq_exact.enabled():
        # As onnxruntime runs the QDQ graph: the integer product in float32, requantized once.
        qdq_exact.check(ctx, wq_data, None if bias is None else q)
        acc = b.new_tensor(f"{ctx.name}:acc", out_shape, "float32")
        fbias = None if bias is None else b.const_tensor(f"{ctx.name}:fbias", q.astype(np.float32), "float32")
        b.add_op(
            "FULLY_CONNECTED",
            [
                qdq_exact.centered(ctx, a_tensor, ctx.name),
                b.const_tensor(f"{ctx.name}:fweights", wq_data.astype(np.float32), "float32"),
                fbias,
            ],
            [acc],
            {"FusedActivationFunction": 0, "WeightsFormat": 0, "KeepNumDims": True},
        )
        return qdq_exact.requantize(ctx, acc, out_q, "onnx", in_scale, scale, len(out_shape) - 1)
    out = b.runtime_value(ctx.out_name(), out_shape, "int8", "onnx", out_q)
    b.add_op(
        "FULLY_CONNECTED",
        [a_tensor, filt, bias_t],
        [out.tensors["onnx"]],
        {"FusedActivationFunction": 0, "WeightsFormat": 0, "KeepNumDims": True},
    )
    return out


def _q_weights(w: Value, rows_axis: int):
    """int8 weights of a dequantized constant as [N, K] and their QInfo with the axis on N."""
    if not (w.is_const and w.is_dq_view) or str(w.qsrc.const.dtype) != "int8" or w.rank != 2:
        raise NotQuantizable()
    q = w.qinfo
    if not q.per_tensor and q.axis != rows_axis:
        raise NotQuantizable()
    data = w.qsrc.const if rows_axis == 0 else w.qsrc.const.T
    return np.ascontiguousarray(data), q


def gemm(ctx):
    b = ctx.b
    a, w, c = ctx.input(0), ctx.input(1), ctx.input(2)
    alpha, beta = float(ctx.attr("alpha", 1.0)), float(ctx.attr("beta", 1.0))
    trans_a, trans_b = int(ctx.attr("transA", 0)), int(ctx.attr("transB", 0))
    if a.rank != 2 or w.rank != 2 or a.shape[0 if trans_a else 1] != w.shape[1 if trans_b else 0]:
        raise ctx.error(
            f"A of shape {list(a.shape)} (transA {trans_a}) and B of shape {list(w.shape)} (transB "
            f"{trans_b}) are not matrices with a common inner dimension"
        )
    m, n = int(a.shape[1 if trans_a else 0]), int(w.shape[0 if trans_b else 1])
    out_shape = ctx.out_shape(0)
    if tuple(out_shape) != (m, n):
        raise ctx.error(f"the output has shape {list(out_shape)} after shape inference, but A x B is [{m}, {n}]")
    if c is not None:
        try:
            np.broadcast_shapes(tuple(c.shape), (m, n))
        except ValueError:
            raise ctx.error(f"C of shape {list(c.shape)} does not broadcast to [{m}, {n}]") from None
    if ctx.quantized:
        if trans_a or alpha != 1.0 or (c is not None and beta != 1.0) or a.is_const:
            raise NotQuantizable()
        data, q = _q_weights(w, 0 if trans_b else 1)
        out = _fc_int8(ctx, data_tensor(ctx, a, "onnx"), data, q, c, out_shape, ctx.out_qinfo(0))
        ctx.set_output(0, out)
        return
    ta = data_tensor(ctx, a, "onnx")
    if trans_a:
        tt = b.new_tensor(f"{ctx.name}:aT", ta.shape[::-1], ta.dtype)
        b.add_op("TRANSPOSE", [ta, b.int32_const(f"{ctx.name}:permA", [1, 0])], [tt])
        ta = tt
    cdata = None
    if c is not None:
        if c.is_const:
            cdata = np.broadcast_to(float_const(ctx, c, "C") * np.float32(beta), (m, n))
    out = out_value(ctx, 0, out_shape)
    if w.is_const:
        wdata = float_const(ctx, w, "B")
        wdata = (wdata if trans_b else wdata.T) * np.float32(alpha)
        bias_t, rest = None, None
        if cdata is not None:
            if np.all(cdata == cdata[0:1]):
                bias_t = b.const_tensor(f"{ctx.name}:bias", np.ascontiguousarray(cdata[0]), "float32")
            else:
                rest = cdata
        target = (
            out.tensors["onnx"]
            if rest is None and (c is None or c.is_const)
            else b.new_tensor(f"{ctx.name}:ab", out_shape, "float32")
        )
        b.add_op(
            "FULLY_CONNECTED",
            [ta, b.const_tensor(f"{ctx.name}:weights", np.ascontiguousarray(wdata), "float32"), bias_t],
            [target],
            {"FusedActivationFunction": 0, "WeightsFormat": 0, "KeepNumDims": True},
        )
    else:
        tb = data_tensor(ctx, w, "onnx")
        if trans_b:
            tt = b.new_tensor(f"{ctx.name}:bT", tb.shape[::-1], tb.dtype)
            b.add_op("TRANSPOSE", [tb, b.int32_const(f"{ctx.name}:permB", [1, 0])], [tt])
            tb = tt
        prod = b.new_tensor(f"{ctx.name}:ab", out_shape, "float32")
        b.add_op("BATCH_MATMUL", [ta, tb], [prod])
        target = prod
        if alpha != 1.0:
            scaled = b.new_tensor(f"{ctx.name}:alpha_ab", out_shape, "float32")
            b.add_op(
                "MUL",
                [prod, b.const_tensor(f"{ctx.name}:alpha", np.asarray([alpha], np.float32), "float32")],
                [scaled],
                {"FusedActivationFunction": 0},
            )
            target = scaled
        rest = cdata
        if c is None:
            b.add_op("RESHAPE", [target], [out.tensors["onnx"]])
        elif cdata is not None:
            _add_const(ctx, target, cdata, out.tensors["onnx"])
            rest = None
    if w.is_const and rest is not None:
        _add_const(ctx, target, rest, out.tensors["onnx"])
    if c is not None and not c.is_const:
        tc = data_tensor(ctx, c, "onnx")
        if beta != 1.0:
            sc = b.new_tensor(f"{ctx.name}:beta_c", tc.shape, "float32")
            b.add_op(
                "MUL",
                [tc, b.const_tensor(f"{ctx.name}:beta", np.asarray([beta], np.float32), "float32")],
                [sc],
                {"FusedActivationFunction": 0},
            )
            tc = sc
        b.add_op("ADD", [target, tc], [out.tensors["onnx"]], {"FusedActivationFunction": 0})
    ctx.set_output(0, out)


def _matmul_shape(ctx, a_shape, b_shape) -> tuple:
    """numpy matmul's result shape, or an error naming the shapes."""
    a2 = (1,) + tuple(a_shape) if len(a_shape) == 1 else tuple(a_shape)
    b2 = tuple(b_shape) + (1,) if len(b_shape) == 1 else tuple(b_shape)
    try:
        if not a_shape or not b_shape or a2[-1] != b2[-2]:
            raise ValueError
        batch = np.broadcast_shapes(a2[:-2], b2[:-2])
    except ValueError:
        raise ctx.error(f"the operands of shapes {list(a_shape)} and {list(b_shape)} cannot be multiplied") from None
    shape = tuple(batch) + (a2[-2], b2[-1])
    if len(a_shape) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(b_shape) == 1:
        shape = shape[:-1]
    return tuple(int(d) for d in shape)


def _matmul_out_shape(ctx, a_shape, b_shape) -> tuple:
    """The inferred output shape, checked against the product's."""
    want = _matmul_shape(ctx, a_shape, b_shape)
    out_shape = ctx.out_shape(0)
    if tuple(out_shape) != want:
        raise ctx.error(
            f"the output has shape {list(out_shape)} after shape inference, but the product of "
            f"{list(a_shape)} and {list(b_shape)} is {list(want)}"
        )
    return out_shape


def matmul(ctx):
    a, w = ctx.input(0), ctx.input(1)
    out_shape = _matmul_out_shape(ctx, a.shape, w.shape)
    if ctx.quantized:
        if a.is_const:
            raise NotQuantizable()
        data, q = _q_weights(w, 1)
        ctx.set_output(0, _fc_int8(ctx, data_tensor(ctx, a, "onnx"), data, q, None, out_shape, ctx.out_qinfo(0)))
        return
    if a.is_const:
        raise ctx.unsupported("a constant left operand is not supported")
    ta = data_tensor(ctx, a, "onnx")
    out = out_value(ctx, 0, out_shape)
    _float_matmul(ctx, ta, w, out.tensors["onnx"])
    ctx.set_output(0, out)


def _float_matmul(ctx, ta, w: Value, out_t):
    """out_t = ta @ w (numpy matmul semantics) on float32: FULLY_CONNECTED for a constant 2-D w, else
    BATCH_MATMUL."""
    b = ctx.b
    out_shape = tuple(out_t.shape)
    if w.is_const and w.rank == 2:
        wdata = np.ascontiguousarray(float_const(ctx, w, "B").T)
        b.add_op(
            "FULLY_CONNECTED",
            [ta, b.const_tensor(f"{ctx.name}:weights", wdata, "float32"), None],
            [out_t],
            {"FusedActivationFunction": 0, "WeightsFormat": 0, "KeepNumDims": True},
        )
        return
    tb = (
        data_tensor(ctx, w, "onnx")
        if not w.is_const
        else b.const_tensor(f"{ctx.name}:B", float_const(ctx, w, "B"), "float32")
    )
    if len(ta.shape) == 1:
        t2 = b.new_tensor(f"{ctx.name}:a2", (1,) + tuple(ta.shape), ta.dtype)
        b.add_op("RESHAPE", [ta], [t2])
        ta = t2
    if len(tb.shape) == 1:
        t2 = b.new_tensor(f"{ctx.name}:b2", tuple(tb.shape) + (1,), tb.dtype)
        b.add_op("RESHAPE", [tb], [t2])
        tb = t2
    batch = np.broadcast_shapes(tuple(ta.shape[:-2]), tuple(tb.shape[:-2]))
    prod_shape = tuple(batch) + (ta.shape[-2], tb.shape[-1])
    # BATCH_MATMUL takes an operand with the full batch or a single one; one that broadcasts over part of the batch
    # (a [3, 1, M, K] times [3, 2, K, N]) is first spread to the full batch.
    ta, tb = _full_batch(ctx, ta, batch, "a"), _full_batch(ctx, tb, batch, "b")
    if tuple(prod_shape) == tuple(out_shape):
        b.add_op("BATCH_MATMUL", [ta, tb], [out_t])
    else:
        prod = b.new_tensor(f"{ctx.name}:prod", prod_shape, "float32")
        b.add_op("BATCH_MATMUL", [ta, tb], [prod])
        b.add_op("RESHAPE", [prod], [out_t])


def _full_batch(ctx, t, batch, tag):
    """t, or t broadcast to the batch dimensions `batch` when it covers part of them only."""
    size = int(np.prod(t.shape[:-2])) if len(t.shape) > 2 else 1
    if size in (1, int(np.prod(batch))):
        return t
    shape = tuple(int(d) for d in batch) + tuple(int(d) for d in t.shape[-2:])
    b = ctx.b
    if t.data is not None:
        return b.const_tensor(f"{ctx.name}:{tag}_full", np.ascontiguousarray(np.broadcast_to(t.data, shape)), t.dtype)
    full = b.new_tensor(f"{ctx.name}:{tag}_full", shape, t.dtype)
    b.add_op("BROADCAST_TO", [t, b.int32_const(f"{ctx.name}:{tag}_shape", list(shape))], [full])
    return full


def qlinear_matmul(ctx):
    """QLinearMatMul exactly as ONNX defines it: the integer product (a - a_zero_point) @ (b - b_zero_point) on
    float32 kernels with integer values (exact: checked), then rne(acc * a_scale * b_scale / y_scale) + y_zero_point
    with QUANTIZE_ONNX."""
    from .integer import int8_source
    from .quant import _shift_data, centered_float, check_exact, quantize_onnx, requant_multiplier

    a = ctx.input(0)
    if a.is_const or a.dtype not in ("int8", "uint8") or a.is_dq_view:
        raise ctx.unsupported(f"input '{a.name}' must be run-time int8/uint8 data")
    w = ctx.input(3)
    if not w.is_const:
        raise ctx.unsupported(
            "the second operand must be a constant (weights); run-time x run-time int8 products are not supported"
        )
    raw = np.asarray(w.const)
    if str(raw.dtype) not in ("int8", "uint8") or raw.ndim < 2:
        raise ctx.unsupported(f"the weights must be int8/uint8 of rank 2 or more (got {raw.dtype}, rank {raw.ndim})")
    as_, bs, ys = (ctx.const_input(i, what) for i, what in ((1, "a_scale"), (4, "b_scale"), (6, "y_scale")))
    aq, _ = to_qinfo(ctx, as_, ctx.const_input(2, "a_zero_point"), 0, a.rank, a.dtype)
    bq, _ = to_qinfo(ctx, bs, ctx.const_input(5, "b_zero_point"), raw.ndim - 1, raw.ndim, str(raw.dtype))
    yq, ydt = to_qinfo(ctx, ys, ctx.const_input(7, "y_zero_point"), 0, 0, a.dtype)
    n = int(raw.shape[-1])
    if not aq.per_tensor or not yq.per_tensor or bq.scale.size not in (1, n):
        raise ctx.unsupported("a and y must be quantized per tensor, b per tensor or per column")
    bint = _shift_data(raw).astype(np.int64) - (bq.zero_point if bq.scale.size > 1 else int(bq.zero_point[0]))
    check_exact(ctx, np.abs(bint).sum(axis=-2))
    out_shape = _matmul_out_shape(ctx, a.shape, raw.shape)
    ta = centered_float(ctx, int8_source(ctx, a), int(aq.zero_point[0]), "onnx")
    acc = ctx.b.new_tensor(f"{ctx.name}:acc", out_shape, "float32")
    _float_matmul(ctx, ta, Value(w.name + ":centered", bint.shape, "float32", const=bint.astype(np.float32)), acc)
    mult = requant_multiplier(as_, bs, ys)
    out = quantize_onnx(
        ctx,
        acc,
        ctx.out_name(),
        yq,
        "onnx",
        "multiply",
        mult,
        np.full(mult.size, int(yq.zero_point[0])),
        len(out_shape) - 1,
    )
    out.onnx_dtype = ydt
    ctx.set_output(0, out)


CONVERTERS = {
    "Gemm": (gemm, "compute"),
    "MatMul": (matmul, "compute"),
    "QLinearMatMul": (qlinear_matmul, "quant"),
}

__all__ = ["CONVERTERS", "NotQuantizable"]
