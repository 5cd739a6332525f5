"""RESIZE_SEPARABLE (not a TFLite builtin; the ONNX frontend's Resize / Upsample on float32): a separable linear
resampling whose per-axis taps (source index and weight per output row / column) the frontend computed from the
node; the op only checks and passes them to the kernel (aot/kernels/resize_separable.h)."""

import numpy as np

from ..errors import CompileError
from ._base import OpLowering, register
from .common.checks import require_inputs


@register
class ResizeSeparable(OpLowering):
    builtins = ("RESIZE_SEPARABLE",)
    dtypes = ("float32",)
    header = "aot/kernels/resize_separable.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 1)
        o = op.options
        outer, in_h, in_w, inner, out_h, out_w = (int(v) for v in o["Dims"])
        if (
            op.input(0).num_elements != outer * in_h * in_w * inner
            or op.output.num_elements != outer * out_h * out_w * inner
        ):
            raise CompileError(f"Operator {op.index} ({op.kind}): dims {o['Dims']} do not match the tensors.")
        for at, n in ((o["RowAt"], in_h), (o["ColAt"], in_w)):
            if np.min(at) < 0 or np.max(at) >= n:
                raise CompileError(f"Operator {op.index} ({op.kind}): a tap index is outside the input.")

    def prepare(self, op):
        o = op.options
        kh, kw = o["RowAt"].shape[1], o["ColAt"].shape[1]
        op.kernel = "aot_resize_separable_f32"
        op.params = dict(dims=np.array(list(o["Dims"]) + [kh, kw], np.int32))

    def emit(self, op, ctx):
        o = op.options
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    ctx.param(f"op{op.index}_dims", op.params["dims"], "int32_t"),
                    ctx.param(f"op{op.index}_row_at", o["RowAt"].reshape(-1), "int32_t"),
                    ctx.param(f"op{op.index}_row_w", o["RowW"].reshape(-1), "float"),
                    ctx.param(f"op{op.index}_col_at", o["ColAt"].reshape(-1), "int32_t"),
                    ctx.param(f"op{op.index}_col_w", o["ColW"].reshape(-1), "float"),
                ],
            )
        ]
