"""Spatial geometry shared by Conv and pooling: 1-D ops as 2-D with height 1, ONNX pads/auto_pad to TFLite
SAME/VALID, or to explicit pads when neither matches."""

from dataclasses import dataclass

SAME, VALID = 0, 1


@dataclass
class Axis:
    size: int
    kernel: int
    stride: int
    dilation: int
    before: int
    after: int
    out: int

    @property
    def effective(self) -> int:
        return (self.kernel - 1) * self.dilation + 1

    def tflite_padding(self):
        """SAME / VALID when the ONNX window positions are exactly TFLite's, else None."""
        total = max((self.out - 1) * self.stride + self.effective - self.size, 0)
        if self.out == -(-self.size // self.stride) and self.before == total // 2:
            return SAME
        if self.before == 0 and self.out == (self.size - self.effective) // self.stride + 1:
            return VALID
        return None


def spatial_axes(ctx, in_spatial, kernel, out_spatial, allow_dilation=True) -> list:
    n = len(in_spatial)
    if n not in (1, 2):
        raise ctx.unsupported(f"{n}-D spatial data is not supported (1-D and 2-D are)")
    kernel = ctx.ints(kernel, "attribute 'kernel_shape'", n)
    if len(out_spatial) != n:
        raise ctx.error(
            f"the output has {len(out_spatial)} spatial dimensions after shape inference, but the input has {n}"
        )
    strides = ctx.ints(ctx.attr("strides", [1] * n), "attribute 'strides'", n)
    dilations = ctx.ints(ctx.attr("dilations", [1] * n), "attribute 'dilations'", n)
    if not allow_dilation and any(d != 1 for d in dilations):
        raise ctx.unsupported(f"dilations {dilations} are not supported for pooling")
    auto_pad = ctx.attr_str("auto_pad", "NOTSET")
    pads = ctx.ints(ctx.attr("pads", [0] * (2 * n)), "attribute 'pads'", 2 * n)
    if any(int(k) < 1 for k in kernel) or any(int(v) < 1 for v in strides + dilations) or any(p < 0 for p in pads):
        raise ctx.error(
            f"kernel {kernel}, strides {strides} and dilations {dilations} must be positive and pads "
            f"{pads} non-negative"
        )
    axes = []
    for i in range(n):
        size, k, s, d, out = int(in_spatial[i]), int(kernel[i]), int(strides[i]), int(dilations[i]), int(out_spatial[i])
        eff = (k - 1) * d + 1
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            total = max((out - 1) * s + eff - size, 0)
            before = total // 2 if auto_pad == "SAME_UPPER" else total - total // 2
            after = total - before
        elif auto_pad == "VALID":
            before, after = 0, 0
        elif auto_pad == "NOTSET":
            before, after = int(pads[i]), int(pads[i + n])
        else:
            raise ctx.unsupported(f"auto_pad '{auto_pad}' is not supported")
        if out < 1 or size < 1:
            raise ctx.error(f"spatial axis {i} has input size {size} and output size {out}; both must be positive")
        axes.append(Axis(size, k, s, d, before, after, out))
    if n == 1:  # 1-D as 2-D: a height-1 axis in front
        axes.insert(0, Axis(1, 1, 1, 1, 0, 0, 1))
    return axes


def common_padding(axes):
    """One TFLite padding code valid for both axes, else None."""
    codes = {a.tflite_padding() for a in axes}
    if len(codes) == 1 and None not in codes:
        return codes.pop()
    # A size-1 axis with kernel 1 is both SAME and VALID.
    trivial = [a for a in axes if a.size == 1 and a.kernel == 1 and a.out == 1 and a.before == 0]
    rest = [a for a in axes if a not in trivial]
    if trivial and rest:
        c = rest[0].tflite_padding() if len(rest) == 1 else common_padding(rest)
        return c
    return None
