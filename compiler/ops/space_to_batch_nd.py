"""SPACE_TO_BATCH_ND on 4-D NHWC or 3-D NHC data (a 3-D input is NHC with W = 1, as in TFLite Micro), with any
non-negative paddings. A 4-D layer without paddings is a plain strided view (views.py, the shared strided copy); the
others run the space-to-batch kernel (aot/kernels/space_to_batch_nd.h), which writes each output pixel's depth
vector from its input pixel or the pad value, in TFLite Micro's reference order. Data only moves: the output keeps
the input's quantization.

The pad value is the output zero point for int8 (what TFLite's own kernel writes; it is the quantized 0.0) and 0
otherwise. TFLite Micro's kernel takes its pad value from a parameter block it allocates but never sets, so the
`tflite_micro` interpreter pads with whatever its arena held (seen: 0, 104, and for float32 -6.02 in consecutive
runs of one model): its padded elements are undefined, and the conformance cases compare them with the zero point."""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from ._base import register
from ._common import const_int_array, require_same_quant
from .views import StridedView


def _fail(op, what):
    return CompileError(f"Operator {op.index} (SPACE_TO_BATCH_ND): {what}.")


def _geometry(op) -> dict:
    """Input/output extents as 4-D NHWC, block and the top/left paddings, all validated."""
    x, y = op.input(0), op.output
    shape = [int(d) for d in x.shape]
    rank = len(shape)
    if rank not in (3, 4):
        raise UnsupportedError(
            f"Operator {op.index} (SPACE_TO_BATCH_ND): input '{x.name}' has shape {shape}; 3-D NHC and 4-D NHWC "
            "inputs are supported (as in TFLite Micro)."
        )
    spatial = rank - 2
    block = [int(v) for v in const_int_array(op, op.input(1), "the block shape operand").reshape(-1)]
    pads = [int(v) for v in const_int_array(op, op.input(2), "the paddings operand").reshape(-1)]
    if len(block) != spatial or any(b < 1 for b in block):
        raise _fail(op, f"block shape {block} must hold {spatial} positive sizes for a {rank}-D input")
    if len(pads) != 2 * spatial or any(p < 0 for p in pads):
        raise _fail(op, f"paddings {pads} must hold {spatial} non-negative [begin, end] pairs for a {rank}-D input")
    if rank == 3:
        n, h, c = shape
        w, block, pads = 1, block + [1], pads + [0, 0]
    else:
        n, h, w, c = shape
    bh, bw = block
    ph, pw = h + pads[0] + pads[1], w + pads[2] + pads[3]
    if ph % bh or pw % bw:
        raise _fail(
            op,
            f"the padded height {ph} and width {pw} must be multiples of the block {block[:spatial]} "
            f"(input {shape}, paddings {pads[: 2 * spatial]})",
        )
    want = [n * bh * bw, ph // bh, pw // bw, c] if rank == 4 else [n * bh, ph // bh, c]
    if [int(d) for d in y.shape] != want:
        raise _fail(
            op,
            f"output '{y.name}' has shape {list(y.shape)}; block {block[:spatial]} with paddings "
            f"{pads[: 2 * spatial]} give {want}",
        )
    return dict(
        in_dims=[n, h, w, c],
        out_dims=[n * bh * bw, ph // bh, pw // bw],
        block=[bh, bw],
        pad=[pads[0], pads[2]],
        view=rank == 4 and not any(pads),
    )


@register
class SpaceToBatchNd(StridedView):
    builtins = ("SPACE_TO_BATCH_ND",)
    num_outputs = (1, 1)

    def check(self, op):
        if len(op.inputs) < 3 or any(t is None for t in op.inputs[:3]):
            raise _fail(op, "expects 3 inputs (data, block shape, paddings)")
        if len(op.outputs) != 1:
            raise _fail(op, "expects one output")
        x, y = op.input(0), op.output
        if y.dtype != x.dtype:
            raise _fail(op, f"output '{y.name}' is {y.dtype} but the input '{x.name}' is {x.dtype}")
        if x.dtype not in self.dtypes:
            raise UnsupportedError(
                f"Operator {op.index} (SPACE_TO_BATCH_ND) on tensor '{x.name}' of type {x.dtype}; "
                f"SPACE_TO_BATCH_ND is supported for: {', '.join(self.dtypes)}."
            )
        if _geometry(op)["view"]:
            super().check(op)
            return
        if x.dtype in ("int8", "int16"):
            require_same_quant(
                op, x, y, "input", f"output '{y.name}'", "SPACE_TO_BATCH_ND moves values without rescaling."
            )
        if x.dtype == "int16" and y.quant.scalar()[1] != 0:
            raise UnsupportedError(
                f"Operator {op.index} (SPACE_TO_BATCH_ND): int16 output '{y.name}' with paddings needs zero point "
                "0 (TFLite's symmetric int16); its padding would be the zero point."
            )

    def prepare(self, op):
        g = _geometry(op)
        if g["view"]:
            super().prepare(op)
            return
        op.kernel = "aot_space_to_batch_nd"
        y = op.output
        op.params = dict(g, pad_byte=y.quant.scalar()[1] if y.dtype == "int8" else 0)

    def headers(self, op):
        return [
            "aot/kernels/space_to_batch_nd.h" if getattr(op, "kernel", None) == "aot_space_to_batch_nd" else self.header
        ]

    def emit(self, op, ctx):
        if op.kernel != "aot_space_to_batch_nd":
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
                    ctx.param(f"op{op.index}_block_pad", p["block"] + p["pad"], "int32_t"),
                    p["pad_byte"],
                ],
            )
        ]
