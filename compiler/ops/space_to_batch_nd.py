"""SPACE_TO_BATCH_ND on 4-D NHWC or 3-D NHC data with any non-negative paddings (operands and lowering shared with
BATCH_TO_SPACE_ND: _block_space.py). The kernel (aot/kernels/space_to_batch_nd.h) writes each output pixel's depth
vector from its input pixel or the pad value, in TFLite Micro's reference order.

The pad value is the output zero point for int8 (what TFLite's own kernel writes; it is the quantized 0.0) and 0
otherwise. TFLite Micro's kernel takes its pad value from a parameter block it allocates but never sets, so the
`tflite_micro` interpreter pads with whatever its arena held (seen: 0, 104, and for float32 -6.02 in consecutive
runs of one model): its padded elements are undefined, and the conformance cases compare them with the zero point."""

from ..errors import UnsupportedError
from ._base import register
from ._block_space import BlockSpaceLowering


@register
class SpaceToBatchNd(BlockSpaceLowering):
    builtins = ("SPACE_TO_BATCH_ND",)
    edges = "paddings"
    kernel = "aot_space_to_batch_nd"
    kernel_header = "aot/kernels/space_to_batch_nd.h"
    param = "block_pad"

    def geometry(self, op) -> dict:
        rank, (n, h, w, c), (bh, bw), pads = self.operands(op)
        y, spatial = op.output, rank - 2
        ph, pw = h + pads[0] + pads[1], w + pads[2] + pads[3]
        if ph % bh or pw % bw:
            raise self.fail(
                op,
                f"the padded height {ph} and width {pw} must be multiples of the block {[bh, bw][:spatial]} "
                f"(input {[int(d) for d in op.input(0).shape]}, paddings {pads[: 2 * spatial]})",
            )
        want = [n * bh * bw, ph // bh, pw // bw, c] if rank == 4 else [n * bh, ph // bh, c]
        if [int(d) for d in y.shape] != want:
            raise self.fail(
                op,
                f"output '{y.name}' has shape {list(y.shape)}; block {[bh, bw][:spatial]} with paddings "
                f"{pads[: 2 * spatial]} give {want}",
            )
        return dict(
            in_dims=[n, h, w, c],
            out_dims=[n * bh * bw, ph // bh, pw // bw],
            block=[bh, bw],
            edge=[pads[0], pads[2]],
            view=rank == 4 and not any(pads),
        )

    def check(self, op):
        super().check(op)
        y = op.output
        if not self.geometry(op)["view"] and y.dtype == "int16" and y.quant.scalar()[1] != 0:
            raise UnsupportedError(
                f"Operator {op.index} (SPACE_TO_BATCH_ND): int16 output '{y.name}' with paddings needs zero point "
                "0 (TFLite's symmetric int16); its padding would be the zero point."
            )

    def extra_args(self, op) -> list:
        y = op.output
        return [y.quant.scalar()[1] if y.dtype == "int8" else 0]
