"""QUANTIZE_ONNX lowering (not a TFLite builtin; produced by the ONNX frontend): float32 -> int8 with round half
to even, per tensor or per axis.  Options: Mode "divide" (QuantizeLinear: rne(x / scale) + zero point) or
"multiply" (requantization of the exact integer accumulators of QLinearConv / QLinearMatMul: rne(x * m) + zero
point with the product in double precision), Scales and ZeroPoints (one or one per channel of Axis)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from .common.checks import require_inputs, require_same_shape


@register
class QuantizeOnnx(OpLowering):
    builtins = ("QUANTIZE_ONNX",)
    dtypes = ("int8",)
    header = "aot/kernels/quantize_onnx.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        inp, out = op.input(0), op.output
        if inp.dtype != "float32":
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): input '{inp.name}' must be float32.")
        require_same_shape(op, inp, out)
        scales = np.asarray(op.options.get("Scales", []), np.float32).reshape(-1)
        zps = np.asarray(op.options.get("ZeroPoints", []), np.int64).reshape(-1)
        if scales.size == 0 or zps.size != scales.size or op.options.get("Mode") not in ("divide", "multiply"):
            raise CompileError(f"Operator {op.index} ({op.kind}) has inconsistent options.")
        if scales.size > 1:
            axis = int(op.options.get("Axis", 0))
            if not 0 <= axis < len(out.shape) or out.shape[axis] != scales.size:
                raise CompileError(
                    f"Operator {op.index} ({op.kind}): {scales.size} scales for axis {axis} of shape {list(out.shape)}."
                )

    def prepare(self, op):
        out = op.output
        scales = np.asarray(op.options["Scales"], np.float32).reshape(-1)
        zps = np.asarray(op.options["ZeroPoints"], np.int64).reshape(-1)
        inner = 1
        if scales.size > 1:
            inner = int(np.prod(out.shape[int(op.options.get("Axis", 0)) + 1 :], dtype=np.int64))
        op.params = dict(
            size=out.num_elements,
            mode=0 if op.options["Mode"] == "divide" else 1,
            scales=scales,
            zps=zps.astype(np.int32),
            channels=int(scales.size),
            inner=max(inner, 1),
        )
        op.kernel = "aot_quantize_onnx_f32_s8"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    p["size"],
                    p["mode"],
                    ctx.param(f"op{op.index}_scales", p["scales"], "float"),
                    ctx.param(f"op{op.index}_zero_points", p["zps"], "int32_t"),
                    p["channels"],
                    p["inner"],
                ],
            )
        ]
