"""Helpers shared by op lowerings: checks, padding, activation ranges, broadcasting."""

import numpy as np

from ...errors import CompileError, UnsupportedError
from ...quant_math import quantize_value_f32

ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}
SUPPORTED_FUSED = ("NONE", "RELU", "RELU6", "RELU_N1_TO_1")
FLT_MAX = float(np.finfo(np.float32).max)


def fused_activation(op) -> str:
    code = op.options.get("FusedActivationFunction", 0)
    name = ACTIVATIONS.get(code, f"#{code}")
    if name not in SUPPORTED_FUSED:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) uses fused activation {name}; supported fused "
            f"activations are {', '.join(SUPPORTED_FUSED)}."
        )
    return name


def activation_range_f32(name: str) -> tuple[float, float]:
    return {
        "NONE": (-FLT_MAX, FLT_MAX),
        "RELU": (0.0, FLT_MAX),
        "RELU6": (0.0, 6.0),
        "RELU_N1_TO_1": (-1.0, 1.0),
    }[name]


def activation_range_int8(name: str, scale: float, zero_point: int) -> tuple[int, int]:
    """TFLite CalculateActivationRangeQuantized for int8 outputs."""
    return activation_range_quantized(name, scale, zero_point, "int8")


def activation_range_quantized(name: str, scale: float, zero_point: int, dtype: str) -> tuple[int, int]:
    """TFLite CalculateActivationRangeQuantized for int8 / int16 outputs: the fused activation's bounds quantized
    with the output's parameters, within the type's range."""
    info = np.iinfo(dtype)
    qmin, qmax = int(info.min), int(info.max)
    q = lambda v: quantize_value_f32(v, scale, zero_point)  # noqa: E731
    if name == "NONE":
        return qmin, qmax
    if name == "RELU":
        return max(qmin, q(0.0)), qmax
    if name == "RELU6":
        return max(qmin, q(0.0)), min(qmax, q(6.0))
    if name == "RELU_N1_TO_1":
        return max(qmin, q(-1.0)), min(qmax, q(1.0))
    raise AssertionError(name)


def require_inputs(op, count_min: int, count_max: int = None) -> None:
    n = len(op.inputs)
    count_max = count_min if count_max is None else count_max
    if not count_min <= n <= count_max or any(op.inputs[i] is None for i in range(count_min)):
        raise CompileError(
            f"Operator {op.index} ({op.kind}) has {n} inputs; expected {count_min}"
            + (f" to {count_max}" if count_max != count_min else "")
            + "."
        )


def require_same_dtype(op, *tensors) -> str:
    dtypes = {t.dtype for t in tensors if t is not None}
    if len(dtypes) != 1:
        names = ", ".join(f"'{t.name}' ({t.dtype})" for t in tensors if t is not None)
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) mixes element types: {names}. Mixed-type "
            "operators are not supported; int8 and float32 operators must be uniform."
        )
    return dtypes.pop()


def require_quant(op, tensor, what: str, per_channel_ok: bool = False, int16_zero_point_ok: bool = False):
    """Return QuantParams or raise a clear error if missing/unsupported.  int16 tensors must be symmetric (zero
    point 0), as TFLite's 16x8 quantization and its int16 kernels require; only QUANTIZE / DEQUANTIZE, whose
    TFLite kernels honour any zero point, pass int16_zero_point_ok."""
    q = tensor.quant
    if q is None:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): {what} tensor '{tensor.name}' is {tensor.dtype} "
            "but has no quantization parameters (scale/zero_point). Quantized tensors must carry "
            "TFLite affine quantization."
        )
    if q.per_channel and not per_channel_ok:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what} tensor '{tensor.name}' is quantized per "
            f"channel ({len(q.scale)} scales); only per-tensor quantization is supported there."
        )
    if tensor.dtype == "int16" and not int16_zero_point_ok and any(int(z) != 0 for z in q.zero_point):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): int16 {what} tensor '{tensor.name}' has zero point "
            f"{int(q.zero_point[0])}; int16 activations must be symmetrically quantized (zero point 0, TFLite's "
            "16x8 scheme)."
        )
    return q


def require_const(op, tensor, what: str):
    if tensor is None or tensor.data is None:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what} must be a constant tensor"
            + (f" ('{tensor.name}' is computed at run time)" if tensor is not None else "")
            + "."
        )
    return tensor.data


def padding_amount(
    padding_code: int, stride: int, dilation: int, in_size: int, filter_size: int, out_size: int
) -> tuple[int, int]:
    """(leading padding, total padding) as TFLite computes them (SAME=0, VALID=1)."""
    eff = (filter_size - 1) * dilation + 1
    if padding_code == 0:
        expected = (in_size + stride - 1) // stride
    elif padding_code == 1:
        expected = (in_size - eff + stride) // stride
    else:
        raise UnsupportedError(f"Unknown padding mode {padding_code}; supported: SAME, VALID.")
    if expected != out_size:
        raise CompileError(
            f"Output size {out_size} does not match the {'SAME' if padding_code == 0 else 'VALID'}"
            f" padding computation ({expected}) for input {in_size}, filter {filter_size}, "
            f"stride {stride}."
        )
    total = max((out_size - 1) * stride + eff - in_size, 0)
    return total // 2, total


def conv_padding(
    op, stride: int, dilation: int, in_size: int, filter_size: int, out_size: int, axis: int
) -> tuple[int, int]:
    """(leading padding, total padding) of a convolution along axis 0 (height) or 1 (width): its SAME/VALID
    padding, plus the explicit padding of a PAD folded into it (passes/fold_pad.py records the PAD's
    ((top, bottom), (left, right)) as option "FoldedPadding"; in_size is then the unpadded size).  The kernels
    take only the leading padding: taps past the end of the input count as padding too, so the total is what
    the windows actually cover beyond the input (the PAD may add rows no window reads)."""
    code = op.options.get("Padding", 0)
    folded = op.options.get("FoldedPadding")
    if folded is None:
        return padding_amount(code, stride, dilation, in_size, filter_size, out_size)
    before, after = (int(v) for v in folded[axis])
    lead, _ = padding_amount(code, stride, dilation, in_size + before + after, filter_size, out_size)
    lead += before
    trail = (out_size - 1) * stride + (filter_size - 1) * dilation + 1 - in_size - lead
    return lead, lead + max(trail, 0)


def nhwc(shape: tuple, op, what: str) -> tuple:
    if len(shape) != 4:
        raise UnsupportedError(f"Operator {op.index} ({op.kind}): {what} must be 4-D NHWC, got shape {list(shape)}.")
    return tuple(int(d) for d in shape)


def broadcast_4d(op, a_shape: tuple, b_shape: tuple, out_shape: tuple):
    """Output dims (4) and per-input element strides (0 where broadcast)."""
    rank = max(len(a_shape), len(b_shape), len(out_shape))
    if rank > 4:
        raise UnsupportedError(f"Operator {op.index} ({op.kind}) has rank {rank}; element-wise ops support up to 4-D.")

    def pad(s):
        return (1,) * (4 - len(s)) + tuple(int(d) for d in s)

    a, b, o = pad(a_shape), pad(b_shape), pad(out_shape)

    def strides(s):
        st, acc = [0] * 4, 1
        for i in range(3, -1, -1):
            if s[i] != o[i] and s[i] != 1:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}): shapes {list(a_shape)} and "
                    f"{list(b_shape)} are not broadcast-compatible with {list(out_shape)}."
                )
            # Size-1 dims get stride 0 so the same element is reused (broadcast).
            st[i] = acc if s[i] != 1 else 0
            acc *= s[i]
        return st

    return list(o), strides(a), strides(b)


# --- helpers shared by the element-wise and data-movement ops -----------------------


def require_same_shape(op, a, b, what_a: str = "input", what_b: str = "output") -> None:
    if tuple(a.shape) != tuple(b.shape):
        raise CompileError(
            f"Operator {op.index} ({op.kind}): {what_a} '{a.name}' has shape {list(a.shape)} but "
            f"{what_b} '{b.name}' has shape {list(b.shape)}; they must be equal."
        )


def require_same_quant(op, a, b, what_a: str, what_b: str, reason: str) -> None:
    """Per-tensor int8 quantization of a and b must be identical (scale as float32)."""
    qa, qb = require_quant(op, a, what_a), require_quant(op, b, what_b)
    (sa, za), (sb, zb) = qa.scalar(), qb.scalar()
    if np.float32(sa) != np.float32(sb) or za != zb:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what_a} '{a.name}' (scale {sa:.9g}, zero point "
            f"{za}) and {what_b} '{b.name}' (scale {sb:.9g}, zero point {zb}) are quantized "
            f"differently; {reason}"
        )


def require_fixed_quant(op, tensor, what: str, scale: float, zero_point: int, label: str) -> None:
    """int8 tensors whose quantization TFLite fixes (e.g. logistic output 1/256, -128)."""
    s, z = require_quant(op, tensor, what).scalar()
    if z != zero_point or abs(s - scale) > scale * 1e-3:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): int8 {what} '{tensor.name}' has scale {s:.9g} "
            f"and zero point {z}; TFLite requires scale {label} and zero point {zero_point}."
        )


def shape_4d(op, shape, what: str) -> list:
    """Shape left-padded with 1s to 4-D; UnsupportedError above rank 4."""
    if len(shape) > 4:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what} has rank {len(shape)} (shape "
            f"{list(shape)}); {op.kind} is supported up to 4-D."
        )
    return [1] * (4 - len(shape)) + [int(d) for d in shape]


def const_int_array(op, tensor, what: str) -> np.ndarray:
    """Values of a constant integer operand (axes, paddings) as int64."""
    data = require_const(op, tensor, what)
    if tensor.dtype not in ("int32", "int64"):
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): {what} '{tensor.name}' has type {tensor.dtype}; "
            "it must be int32 or int64."
        )
    return np.asarray(data, dtype=np.int64)


def unary_check(op, dtypes=("int8", "float32")) -> str:
    """One data input, one output of the same dtype and shape; returns the dtype."""
    require_inputs(op, 1)
    inp, out = op.input(0), op.output
    dtype = require_same_dtype(op, inp, out)
    if dtype not in dtypes:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) on tensor '{inp.name}' of type {dtype}; "
            f"{op.kind} is supported for: {', '.join(dtypes)}."
        )
    require_same_shape(op, inp, out)
    if dtype in ("int8", "int16"):
        require_quant(op, inp, "input")
        require_quant(op, out, "output")
    return dtype


def broadcast_params(op) -> dict:
    """{dims, sa, sb}: the int32 output dims and per-input element strides of a two-input broadcasting op (inputs 0
    and 1, its output), as the 4-D broadcast walkers take them."""
    dims, sa, sb = broadcast_4d(op, op.input(0).shape, op.input(1).shape, op.output.shape)
    return dict(dims=np.array(dims, np.int32), sa=np.array(sa, np.int32), sb=np.array(sb, np.int32))


def broadcast_args(op, ctx, p: dict) -> list:
    """The argument list every 4-D broadcast walker starts with: input 0, input 1, output, then the const arrays
    dims, strides1, strides2 of `p` (broadcast_params)."""
    return [
        ctx.ptr(op.input(0)),
        ctx.ptr(op.input(1)),
        ctx.ptr(op.output),
        ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
        ctx.param(f"op{op.index}_strides1", p["sa"], "int32_t"),
        ctx.param(f"op{op.index}_strides2", p["sb"], "int32_t"),
    ]


def _run_form(dims, strides, k: int, cols: int):
    """(row step, column step) of one operand when the output is split into rows of dims[:k] and columns of
    dims[k:], or None when the operand does not run that way."""
    inner = [i for i in range(k, 4) if dims[i] > 1]
    contiguous = lambda i, stop, unit: unit * int(np.prod(dims[i + 1 : stop]))  # noqa: E731
    if all(strides[i] == contiguous(i, 4, 1) for i in inner):
        col = 1
    elif all(strides[i] == 0 for i in inner):
        col = 0
    else:
        return None
    unit = cols if col else 1
    outer = [i for i in range(k) if dims[i] > 1]
    if all(strides[i] == 0 for i in outer):
        return 0, col
    if all(strides[i] == contiguous(i, k, unit) for i in outer):
        return unit, col
    return None


def rows_form(p: dict):
    """The broadcast of broadcast_params `p` as one row loop, or None: {rows, cols, step1, step2, mode} with the
    output as rows x cols elements, input k's row start advancing by step_k elements per row and, along a row,
    mode 0: both inputs run, 1: the second holds one value per row, 2: the first does.  Same shapes are one row;
    [1,H,W,C] with [1,1,1,C] rows of C with step 0; [1,H,W,C] with a scalar or with [1,H,W,1] one value per row.
    The longest rows that fit are chosen."""
    dims, sa, sb = ([int(v) for v in p[key]] for key in ("dims", "sa", "sb"))
    for k in range(4):
        cols, rows = int(np.prod(dims[k:])), int(np.prod(dims[:k]))
        f1, f2 = _run_form(dims, sa, k, cols), _run_form(dims, sb, k, cols)
        if f1 is None or f2 is None or (f1[1] == 0 and f2[1] == 0 and cols > 1):
            continue
        mode = 0 if f1[1] == f2[1] else (1 if f1[1] else 2)
        return dict(rows=rows, cols=cols, step1=f1[0], step2=f2[0], mode=mode)
    return None
