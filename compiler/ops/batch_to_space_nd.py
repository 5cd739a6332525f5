"""BATCH_TO_SPACE_ND on 4-D NHWC or 3-D NHC data with any non-negative crops (operands and lowering shared with
SPACE_TO_BATCH_ND: _block_space.py). The kernel (aot/kernels/batch_to_space_nd.h) writes each input pixel's depth
vector at its place in the output and skips the cropped ones, as TFLite Micro's reference does. The output shape is
checked against block and crops."""

from ._base import register
from ._block_space import BlockSpaceLowering


@register
class BatchToSpaceNd(BlockSpaceLowering):
    builtins = ("BATCH_TO_SPACE_ND",)
    edges = "crops"
    kernel = "aot_batch_to_space_nd"
    kernel_header = "aot/kernels/batch_to_space_nd.h"
    param = "block_crop"

    def geometry(self, op) -> dict:
        rank, (n, h, w, c), (bh, bw), crops = self.operands(op)
        y, spatial = op.output, rank - 2
        if n % (bh * bw):
            raise self.fail(op, f"batch {n} is not a multiple of the block size {bh * bw}")
        oh, ow = h * bh - crops[0] - crops[1], w * bw - crops[2] - crops[3]
        want = [n // (bh * bw), oh, ow, c] if rank == 4 else [n // bh, oh, c]
        if oh < 1 or ow < 1 or [int(d) for d in y.shape] != want:
            raise self.fail(
                op,
                f"output '{y.name}' has shape {list(y.shape)}; block {[bh, bw][:spatial]} with crops "
                f"{crops[: 2 * spatial]} give {want} (the crops must leave at least one row and column)",
            )
        return dict(
            in_dims=[n, h, w, c],
            out_dims=[n // (bh * bw), oh, ow],
            block=[bh, bw],
            edge=[crops[0], crops[2]],
            view=rank == 4 and not any(crops),
        )
