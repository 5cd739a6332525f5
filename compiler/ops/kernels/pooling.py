"""The int8 AVERAGE_POOL_2D kernels: Helium on the Cortex-M55, the portable one elsewhere (same arguments)."""

from ..common.kernel import Kernel

TABLE = {
    ("AVERAGE_POOL_2D", "int8"): (
        Kernel("aot_avg_pool_s8_mve", "mve"),
        Kernel("aot_avg_pool_s8", "portable"),
    ),
}
