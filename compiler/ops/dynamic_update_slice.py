"""DYNAMIC_UPDATE_SLICE: the operand with the update written over it at start indices that are clamped into range
(TFLite Micro's rule: start[d] = min(max(0, start[d]), dims[d] - update_dims[d])). float32, int8, int16 and int32
data, as TFLite Micro takes; values are copied as stored (TFLite Micro does not rescale a quantized update). The
start indices are a constant int32/int64 vector, clamped here, or a run-time int32 tensor, clamped by the kernel
(an int64 run-time tensor never reaches a lowering: no 64-bit integer enters the generated C). The output may
reuse the operand's buffer: the kernel then only writes the update."""

import numpy as np

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import require_inputs, require_same_dtype, require_same_shape

MAX_RANK = 6  # TFLite Micro's RuntimeShape limit, and the kernel's (AOT_DUS_MAX_RANK)


@register
class DynamicUpdateSlice(OpLowering):
    builtins = ("DYNAMIC_UPDATE_SLICE",)
    dtypes = ("float32", "int8", "int16", "int32")
    header = "aot/kernels/dynamic_update_slice.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 3)
        operand, update, starts = op.input(0), op.input(1), op.input(2)
        require_same_dtype(op, operand, update, op.output)
        require_same_shape(op, operand, op.output, "operand", "output")
        dims, udims = list(operand.shape), list(update.shape)
        if len(dims) > MAX_RANK:
            raise UnsupportedError(
                f"Operator {op.index} (DYNAMIC_UPDATE_SLICE): operand '{operand.name}' has {len(dims)} dimensions; "
                f"up to {MAX_RANK} are supported (as in TFLite Micro)."
            )
        if len(udims) != len(dims) or any(u > d for u, d in zip(udims, dims)):
            raise CompileError(
                f"Operator {op.index} (DYNAMIC_UPDATE_SLICE): update '{update.name}' has shape {udims}; it must have "
                f"the operand's rank and no dimension larger than the operand's {dims}."
            )
        if starts.dtype not in ("int32", "int64") or list(starts.shape) != [len(dims)]:
            raise CompileError(
                f"Operator {op.index} (DYNAMIC_UPDATE_SLICE): start indices '{starts.name}' are {starts.dtype} of "
                f"shape {list(starts.shape)}; they must be an int32 or int64 vector of {len(dims)} entries (one per "
                "operand dimension)."
            )
        if starts.data is None and starts.dtype != "int32":
            raise UnsupportedError(
                f"Operator {op.index} (DYNAMIC_UPDATE_SLICE): run-time start indices '{starts.name}' are "
                f"{starts.dtype}; run-time start indices are supported as int32 (int64 ones only as constants)."
            )

    def inplace_input(self, op):
        return 0

    def prepare(self, op):
        operand, update, starts = op.input(0), op.input(1), op.input(2)
        dims = [int(d) for d in operand.shape]
        udims = [int(d) for d in update.shape]
        clamped = None
        if starts.data is not None:
            raw = np.asarray(starts.data, np.int64).reshape(-1)
            clamped = [int(min(max(0, int(s)), d - u)) for s, d, u in zip(raw, dims, udims)]
        op.kernel = "aot_dynamic_update_slice"
        # A rank-0 operand is replaced by its update whatever the (empty) starts: one entry keeps the C arrays
        # non-empty.
        op.params = dict(dims=dims or [1], update_dims=udims or [1], starts=clamped, rank=len(dims))

    def emit(self, op, ctx):
        p = op.params
        starts = (
            ctx.ptr(op.input(2))
            if p["starts"] is None
            else ctx.param(f"op{op.index}_starts", p["starts"] or [0], "int32_t")
        )
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.input(1)),
                    ctx.ptr(op.output),
                    DTYPES[op.output.dtype].size,
                    p["rank"],
                    ctx.param(f"op{op.index}_dims", p["dims"], "int32_t"),
                    ctx.param(f"op{op.index}_update_dims", p["update_dims"], "int32_t"),
                    starts,
                ],
            )
        ]
