"""Code generation targets accepted by --target.

The target is validated, recorded in the JSON manifest and selects kernels: which core has which extension is
said here (MVE_TARGETS, DSP_TARGETS, SPECIALIZE_TARGETS); which kernels a layer takes on them is the kernel
table's business (ops/kernel_table.py, its FAMILIES per target come from these lists).
"""

from .errors import CompileError

TARGETS = (
    "host",
    "cortex-m0",
    "cortex-m3",
    "cortex-m4",
    "cortex-m7",
    "cortex-m33",
    "cortex-m55",
)


def validate_target(name: str) -> str:
    if name not in TARGETS:
        raise CompileError(f"Unknown --target '{name}'. Supported targets: {', '.join(TARGETS)}.")
    return name


# Cores with the Armv7E-M/Armv8-M DSP extension (SMLAD, SXTB16): the int8 convolution, depthwise and
# fully connected layers use the *_dsp kernels and the weight layouts made for them (ops/common/dsp_layout.py).
# The Cortex-M55 (Armv8.1-M) has the extension too (GCC defines __ARM_FEATURE_DSP for -mcpu=cortex-m55);
# its int8 convolutions and fully connected layers use the MVE kernels instead (MVE_TARGETS), the rest of its
# layers the *_dsp ones.  Every other target keeps the portable kernels and the model's own weight layout.
DSP_TARGETS = ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55")


def has_dsp(target: str) -> bool:
    return target in DSP_TARGETS


# Cores with Helium (the M-profile Vector Extension, Armv8.1-M): int8 convolutions and fully connected layers
# use the *_mve kernels (VMLADAVA: 16 int8 MACs per instruction) and their weight layout (ops/common/mve_layout.py).
MVE_TARGETS = ("cortex-m55",)


def has_mve(target: str) -> bool:
    return target in MVE_TARGETS


# Cores with a single-precision FPU with fused multiply-add (FPv4-SP, FPv5; the Cortex-M55's MVE-F as well): the
# float32 convolutions and fully connected layers use the GEMM kernels of ops/kernels/float_gemm.py.  The toolchain
# builds these cores hard-float (toolchains/cores.bzl).
FPU_TARGETS = ("cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55")


def has_fpu(target: str) -> bool:
    return target in FPU_TARGETS


# Cores without the DSP extension: their int8 convolution, depthwise and fully connected layers become
# shape-specialized functions in the generated code (ops/common/specialize.py) instead of calls of the generic CRT
# kernels with run-time shapes.
SPECIALIZE_TARGETS = ("cortex-m0", "cortex-m3")


def specializes(target: str) -> bool:
    return target in SPECIALIZE_TARGETS


# Specializing cores with a single-instruction 32 x 32 -> 64 multiply-accumulate (SMLAL, ARMv7-M): their
# specialized convolutions and fully connected layers may take packed weights (ops/common/packed.py).  The Cortex-M0
# (ARMv6-M) has only MULS, so a 64-bit product there is a library call and packing would be slower.
PACK_TARGETS = ("cortex-m3",)


def packs_weights(target: str) -> bool:
    return target in PACK_TARGETS
