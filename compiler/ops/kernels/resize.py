"""The RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR kernels (same arguments on every core)."""

from ..common.kernel import Kernel

TABLE = {
    # 32-bit sums; Helium blends four channels per vector.  The DSP extension has no kernel of its own: the products
    # of two weights need 21 bits, beyond SMLAD's 16-bit lanes (aot/kernels/resize_bilinear.h).
    ("RESIZE_BILINEAR", "int8"): (
        Kernel("aot_resize_bilinear_s8_mve", "mve"),
        Kernel("aot_resize_bilinear_s8", "portable"),
    ),
    # Copies only (word moves, repeated rows copied whole): the same kernel on every core and type.
    **{
        ("RESIZE_NEAREST_NEIGHBOR", dt): (Kernel("aot_resize_nearest", "portable"),)
        for dt in ("int8", "int16", "float32")
    },
}
