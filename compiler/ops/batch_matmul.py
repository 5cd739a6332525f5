"""BATCH_MATMUL lowering (float32, int8, int16; no adjoint flags): [..., m, k] x [..., k, n] where each operand's batch
is
either the output's batch or a single matrix broadcast to every batch. int8 and int16 follow TFLite Micro: operands
less their zero points, one requantization by s_a s_b / s_out (int16 in 64 bits with TFLite's 64-bit rounding)."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering, register
from ..quant_math import quantize_multiplier
from .common.checks import require_inputs, require_quant, require_same_dtype


def _geometry(op):
    a, b, out = op.input(0), op.input(1), op.output
    if len(a.shape) < 2 or len(b.shape) < 2:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}): both operands must have rank >= 2 (got "
            f"{list(a.shape)} and {list(b.shape)})."
        )
    m, k = int(a.shape[-2]), int(a.shape[-1])
    k2, n = int(b.shape[-2]), int(b.shape[-1])
    batch = int(np.prod(out.shape[:-2], dtype=np.int64)) if len(out.shape) > 2 else 1
    if k != k2 or list(out.shape[-2:]) != [m, n]:
        raise CompileError(
            f"Operator {op.index} ({op.kind}): shapes {list(a.shape)} x {list(b.shape)} -> "
            f"{list(out.shape)} do not multiply."
        )
    steps = []
    for t, size in ((a, m * k), (b, k * n)):
        tb = int(np.prod(t.shape[:-2], dtype=np.int64)) if len(t.shape) > 2 else 1
        if tb == batch:
            steps.append(size if batch > 1 else 0)
        elif tb == 1:
            steps.append(0)
        else:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}): operand '{t.name}' {list(t.shape)} broadcasts "
                f"partially over the batch of {list(out.shape)}; only full or single batches "
                "are supported."
            )
    return batch, m, k, n, steps


@register
class BatchMatMul(OpLowering):
    builtins = ("BATCH_MATMUL",)
    dtypes = ("float32", "int8", "int16")
    header = "aot/kernels/batch_matmul.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        if require_same_dtype(op, op.input(0), op.input(1), op.output) != "float32":
            for t, what in ((op.input(0), "first operand"), (op.input(1), "second operand"), (op.output, "output")):
                require_quant(op, t, what)
        if op.options.get("AdjX") or op.options.get("AdjY"):
            raise UnsupportedError(f"Operator {op.index} ({op.kind}): adjoint operands are not supported.")
        _geometry(op)

    def prepare(self, op):
        batch, m, k, n, steps = _geometry(op)
        op.params = dict(batch=batch, m=m, k=k, n=n, sa=steps[0], sb=steps[1])
        op.kernel = "aot_batch_matmul_f32"
        if op.output.dtype != "float32":
            (sa, za), (sb, zb), (so, zo) = (t.quant.scalar() for t in (op.input(0), op.input(1), op.output))
            mult, shift = quantize_multiplier(float(np.float32(sa)) * float(np.float32(sb)) / float(np.float32(so)))
            if op.output.dtype == "int8":
                op.params["q"] = [-za, -zb, mult, shift, zo]
                op.kernel = "aot_batch_matmul_s8"
            else:
                reduced = (mult + (1 << 15)) >> 16 if mult < 0x7FFF0000 else 0x7FFF
                op.params["q"] = [reduced, 15 - shift]
                op.kernel = "aot_batch_matmul_s16"

    def emit(self, op, ctx):
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.input(1)),
                    ctx.ptr(op.output),
                    p["batch"],
                    p["m"],
                    p["k"],
                    p["n"],
                    p["sa"],
                    p["sb"],
                ]
                + p.get("q", []),
            )
        ]
