"""EMBEDDING_LOOKUP: int32 ids (run time or constant) select rows of a value table: float32 -> float32 and
int8 -> int8 copy rows, int8 -> float32 dequantizes them (TFLite Micro's hybrid form: value * scale). An id out of
range makes <prefix>_run return AOT_ERR_KERNEL, as TFLite Micro's invocation fails."""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import OpLowering, register
from .common.checks import require_inputs, require_quant


@register
class EmbeddingLookup(OpLowering):
    builtins = ("EMBEDDING_LOOKUP",)
    dtypes = ("float32", "int8")
    header = "aot/kernels/embedding_lookup.h"

    def check(self, op):
        super().check(op)
        require_inputs(op, 2)
        ids, value, out = op.input(0), op.input(1), op.output
        if ids.dtype != "int32" or len(ids.shape) != 1:
            raise UnsupportedError(
                f"Operator {op.index} (EMBEDDING_LOOKUP): ids '{ids.name}' must be a 1-D int32 "
                f"tensor (got {ids.dtype} {list(ids.shape)})."
            )
        if (value.dtype, out.dtype) not in (("float32", "float32"), ("int8", "int8"), ("int8", "float32")):
            raise UnsupportedError(
                f"Operator {op.index} (EMBEDDING_LOOKUP): value {value.dtype} to output "
                f"{out.dtype}; supported are float32 -> float32, int8 -> int8 and int8 -> float32."
            )
        if value.dtype == "int8":
            q = require_quant(op, value, "value")
            if out.dtype == "float32" and (q.per_channel or int(q.zero_point[0]) != 0):
                raise UnsupportedError(
                    f"Operator {op.index} (EMBEDDING_LOOKUP): the int8 value table '{value.name}' "
                    "must have one scale and zero point 0 to dequantize rows."
                )
        want = [int(ids.shape[0])] + [int(d) for d in value.shape[1:]]
        if [int(d) for d in out.shape] != want or len(value.shape) < 2:
            raise CompileError(
                f"Operator {op.index} (EMBEDDING_LOOKUP): output '{out.name}' has shape "
                f"{list(out.shape)}; expected {want}."
            )

    def prepare(self, op):
        value, out = op.input(1), op.output
        rows = int(value.shape[0])
        cols = value.num_elements // max(rows, 1)
        if value.dtype == "int8" and out.dtype == "float32":
            op.kernel = "aot_embedding_lookup_s8_f32"
            op.params = dict(n=int(op.input(0).shape[0]), rows=rows, cols=cols, scale=float(value.quant.scalar()[0]))
        else:
            op.kernel = "aot_embedding_lookup"
            op.params = dict(n=int(op.input(0).shape[0]), rows=rows, row_bytes=cols * DTYPES[value.dtype].size)

    def emit(self, op, ctx):
        p = op.params
        ids, value, out = ctx.ptr(op.input(0)), ctx.ptr(op.input(1)), ctx.ptr(op.output)
        if "row_bytes" in p:  # a plain row copy (not the hybrid int8 -> float32 lookup)
            return ctx.checked_call(op.kernel, [ids, p["n"], value, p["rows"], p["row_bytes"], out])
        return ctx.checked_call(op.kernel, [ids, p["n"], value, p["rows"], p["cols"], ctx.f32(p["scale"]), out])
