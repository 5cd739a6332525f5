"""BATCH_TO_SPACE_ND on 4-D NHWC or 3-D NHC data (a 3-D input is NHC with W = 1, as in TFLite Micro), with any
non-negative crops. A 4-D layer without crops is a plain strided view (views.py, the shared strided copy); the
others run the batch-to-space kernel (aot/kernels/batch_to_space_nd.h), which writes each input pixel's depth
vector at its place in the output and skips the cropped ones, as TFLite Micro's reference does. Data only moves:
the output keeps the input's quantization. The output shape is checked against block and crops."""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import register
from ._common import const_int_array, require_same_quant
from .views import StridedView


def _fail(op, what):
    return CompileError(f"Operator {op.index} (BATCH_TO_SPACE_ND): {what}.")


def _geometry(op) -> dict:
    """Input/output extents as 4-D NHWC, block and the top/left crops, all validated."""
    x, y = op.input(0), op.output
    shape = [int(d) for d in x.shape]
    rank = len(shape)
    if rank not in (3, 4):
        raise UnsupportedError(
            f"Operator {op.index} (BATCH_TO_SPACE_ND): input '{x.name}' has shape {shape}; 3-D NHC and 4-D NHWC "
            "inputs are supported (as in TFLite Micro)."
        )
    spatial = rank - 2
    block = [int(v) for v in const_int_array(op, op.input(1), "the block shape operand").reshape(-1)]
    crops = const_int_array(op, op.input(2), "the crops operand").reshape(-1).tolist()
    if len(block) != spatial or any(b < 1 for b in block):
        raise _fail(op, f"block shape {block} must hold {spatial} positive sizes for a {rank}-D input")
    if len(crops) != 2 * spatial or any(c < 0 for c in crops):
        raise _fail(op, f"crops {crops} must hold {spatial} non-negative [begin, end] pairs for a {rank}-D input")
    if rank == 3:
        n, h, c = shape
        w, block, crops = 1, block + [1], crops + [0, 0]
    else:
        n, h, w, c = shape
    bh, bw = block
    if n % (bh * bw):
        raise _fail(op, f"batch {n} is not a multiple of the block size {bh * bw}")
    oh, ow = h * bh - crops[0] - crops[1], w * bw - crops[2] - crops[3]
    want = [n // (bh * bw), oh, ow, c] if rank == 4 else [n // bh, oh, c]
    if oh < 1 or ow < 1 or [int(d) for d in y.shape] != want:
        raise _fail(
            op,
            f"output '{y.name}' has shape {list(y.shape)}; block {block[:spatial]} with crops {crops[: 2 * spatial]} "
            f"give {want} (the crops must leave at least one row and column)",
        )
    return dict(
        in_dims=[n, h, w, c],
        out_dims=[n // (bh * bw), oh, ow],
        block=[bh, bw],
        crop=[crops[0], crops[2]],
        view=rank == 4 and not any(crops),
    )


@register
class BatchToSpaceNd(StridedView):
    builtins = ("BATCH_TO_SPACE_ND",)
    num_outputs = (1, 1)

    def check(self, op):
        if len(op.inputs) < 3 or any(t is None for t in op.inputs[:3]):
            raise _fail(op, "expects 3 inputs (data, block shape, crops)")
        if len(op.outputs) != 1:
            raise _fail(op, "expects one output")
        x, y = op.input(0), op.output
        if y.dtype != x.dtype:
            raise _fail(op, f"output '{y.name}' is {y.dtype} but the input '{x.name}' is {x.dtype}")
        if x.dtype not in self.dtypes:
            raise UnsupportedError(
                f"Operator {op.index} (BATCH_TO_SPACE_ND) on tensor '{x.name}' of type {x.dtype}; "
                f"BATCH_TO_SPACE_ND is supported for: {', '.join(self.dtypes)}."
            )
        if _geometry(op)["view"]:
            super().check(op)
        elif x.dtype in ("int8", "int16"):
            require_same_quant(
                op, x, y, "input", f"output '{y.name}'", "BATCH_TO_SPACE_ND moves values without rescaling."
            )

    def prepare(self, op):
        g = _geometry(op)
        if g["view"]:
            super().prepare(op)
            return
        op.kernel = "aot_batch_to_space_nd"
        op.params = g

    def headers(self, op):
        return [
            "aot/kernels/batch_to_space_nd.h" if getattr(op, "kernel", None) == "aot_batch_to_space_nd" else self.header
        ]

    def emit(self, op, ctx):
        if op.kernel != "aot_batch_to_space_nd":
            return super().emit(op, ctx)
        p = op.params
        return [
            ctx.call(
                op.kernel,
                [
                    ctx.ptr(op.input(0)),
                    ctx.ptr(op.output),
                    DTYPES[op.output.dtype].size,
                    ctx.param(f"op{op.index}_in_dims", p["in_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_out_dims", p["out_dims"], "int32_t"),
                    ctx.param(f"op{op.index}_block_crop", p["block"] + p["crop"], "int32_t"),
                ],
            )
        ]
