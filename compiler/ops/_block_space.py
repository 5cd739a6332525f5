"""What BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND share: their operands (4-D NHWC or 3-D NHC data, a constant block
shape and constant crops / paddings, validated the same way; a 3-D input is NHC with W = 1 as in TFLite Micro) and
their lowering: a 4-D layer without crops / paddings is a plain strided view (views.py, the shared strided copy),
every other one calls the operator's own kernel with the 4-D extents, the block and the top/left crop or pad. Data
only moves: quantized outputs keep the input's quantization."""

from ..errors import CompileError, UnsupportedError
from ..ir.dtypes import DTYPES
from .common.checks import const_int_array, require_same_quant
from .views import StridedView


class BlockSpaceLowering(StridedView):
    num_outputs = (1, 1)
    edges = ""  # "crops" or "paddings"
    kernel = ""  # the CRT kernel for the cases that are not a view
    kernel_header = ""
    param = ""  # the name of the block + edges parameter array in the generated code

    def fail(self, op, what):
        return CompileError(f"Operator {op.index} ({self.builtins[0]}): {what}.")

    def operands(self, op):
        """(rank, [n, h, w, c], [bh, bw], [top, bottom, left, right]) of a validated layer, 3-D as W = 1."""
        x = op.input(0)
        shape = [int(d) for d in x.shape]
        rank = len(shape)
        if rank not in (3, 4):
            raise UnsupportedError(
                f"Operator {op.index} ({self.builtins[0]}): input '{x.name}' has shape {shape}; 3-D NHC and 4-D NHWC "
                "inputs are supported (as in TFLite Micro)."
            )
        spatial = rank - 2
        block = [int(v) for v in const_int_array(op, op.input(1), "the block shape operand").reshape(-1)]
        edges = [int(v) for v in const_int_array(op, op.input(2), f"the {self.edges} operand").reshape(-1)]
        if len(block) != spatial or any(b < 1 for b in block):
            raise self.fail(op, f"block shape {block} must hold {spatial} positive sizes for a {rank}-D input")
        if len(edges) != 2 * spatial or any(e < 0 for e in edges):
            raise self.fail(
                op, f"{self.edges} {edges} must hold {spatial} non-negative [begin, end] pairs for a {rank}-D input"
            )
        if rank == 3:
            return rank, [shape[0], shape[1], 1, shape[2]], block + [1], edges + [0, 0]
        return rank, shape, block, edges

    def geometry(self, op) -> dict:
        """in_dims [N, H, W, C], out_dims [N', OH, OW], block, edge (top, left), view; checks the output shape."""
        raise NotImplementedError

    def check(self, op):
        if len(op.inputs) < 3 or any(t is None for t in op.inputs[:3]):
            raise self.fail(op, f"expects 3 inputs (data, block shape, {self.edges})")
        if len(op.outputs) != 1:
            raise self.fail(op, "expects one output")
        x, y = op.input(0), op.output
        if y.dtype != x.dtype:
            raise self.fail(op, f"output '{y.name}' is {y.dtype} but the input '{x.name}' is {x.dtype}")
        if x.dtype not in self.dtypes:
            raise UnsupportedError(
                f"Operator {op.index} ({self.builtins[0]}) on tensor '{x.name}' of type {x.dtype}; "
                f"{self.builtins[0]} is supported for: {', '.join(self.dtypes)}."
            )
        if self.geometry(op)["view"]:
            super().check(op)
        elif x.dtype in ("int8", "int16"):
            require_same_quant(
                op, x, y, "input", f"output '{y.name}'", f"{self.builtins[0]} moves values without rescaling."
            )

    def extra_args(self, op) -> list:
        return []

    def prepare(self, op):
        g = self.geometry(op)
        if g["view"]:
            super().prepare(op)
            return
        op.kernel = self.kernel
        op.params = g

    def headers(self, op):
        return [self.header if self.geometry(op)["view"] else self.kernel_header]

    def emit(self, op, ctx):
        if self.geometry(op)["view"]:
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
                    ctx.param(f"op{op.index}_{self.param}", p["block"] + p["edge"], "int32_t"),
                ]
                + self.extra_args(op),
            )
        ]
