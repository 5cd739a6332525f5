"""The kernel table: which kernel runs each int8/int16/float32 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and
int8/int16 TRANSPOSE_CONV layer (and AVERAGE_POOL_2D, RESIZE, ARG_MAX / ARG_MIN, the int8 element-wise binary ops,
the table lookups of int8 unary ops), decided in one place (the TVM "strategy" idea: implementations chosen by
priority).

A kernel is a Kernel value (ops/common/kernel.py), one per CRT kernel as TFLite Micro has one registration struct
per kernel; the kernels live in ops/kernels/, one module per op family, each with the TABLE of its ops.  For each
(op kind, dtype) the table lists candidate kernels, best first, each tagged with the core family that has it (mve:
Helium, Cortex-M55; dsp: the DSP extension; fpu: a single-precision FPU with fused multiply-add, for the float32
layers; specialized: shape-specialized bodies, Cortex-M0/M3; portable: every core).  A target has an ordered
tuple of families (FAMILIES).  `select` walks the candidates of the target's families in order; each candidate has
  - `serves`: whether the layer is of the form the kernel is written for at all (e.g. one input channel for the
    GEMM form of a depthwise layer); a kernel that does not serve a layer is skipped silently;
  - `when`: a structural condition, None when it holds, else a short reason ("K < 4", "grouped convolution");
  - `setup`: computes the kernel's weight layout and constants into op.params and returns None, or the reason it
    cannot (a quantization reason, e.g. the zero point does not fold into an int32 bias).  A set-up may hand the
    layer to a variant of its kernel (common/kernel.use: the _c4 form of the DSP depthwise kernel, the packed
    specialized bodies, the op's own kernel instead of a table).
The first candidate whose three steps pass becomes op.kernel_impl, its name op.kernel.  From then on the layer's
lowering asks that object for what running it takes (`scratch`, `headers`, `emit`; `entry` for reports, `residual`
for the residual-ADD fusion) and never dispatches on the name; a kernel without an `emit` of its own (the portable
ones) is called by the lowering with the op's own arguments.  A layer whose kernel is not of the best family its
core has for that op (the first family with a candidate serving the layer) is a fallback: op.kernel_reason says
why the better family's kernels refused it, and op.kernel_reason_numeric whether that was because of the layer's
quantization parameters (which `strict_kernels` refuses) rather than its structure.

Options that change the choice (which layer kinds are specialized, strictness, --optimize=size) are a KernelOptions
value passed down from the compile command (graph.kernel_options -> op.kernel_options), never module state.

This module imports the kernels and ops/common only, no lowering: the lowerings import it.
"""

from typing import Optional

from ..errors import UnsupportedError
from ..targets import TARGETS, has_dsp, has_fpu, has_mve, specializes
from .common.kernel import (  # noqa: F401 - the compile commands and tests take the options from here
    DEFAULT_OPTIONS,
    PACKED,
    SPECIALIZE_KINDS,
    Kernel,
    KernelOptions,
    Layer,
    options_from_flags,
    options_of,
    parse_optimize,
    parse_specialize,
)
from .common.lut_s8 import offers_table
from .kernels import (
    arg_minmax,
    conv,
    elementwise,
    float_gemm,
    fully_connected,
    int16,
    lut,
    pooling,
    resize,
    transpose_conv,
)


def _families(target: str) -> tuple:
    """The core families a target has, best first (compiler/targets.py says which core has which extension)."""
    have = (
        ("mve", has_mve(target)),
        ("dsp", has_dsp(target)),
        ("fpu", has_fpu(target)),
        ("specialized", specializes(target)),
    )
    return tuple(f for f, ok in have if ok) + ("portable",)


# Core families per target, best first.
FAMILIES = {t: _families(t) for t in TARGETS}

# (op kind, dtype) -> candidates, best first.  A family with no candidate for the op has no kernel of its own
# for it (e.g. int8 RESIZE_BILINEAR on the DSP extension: the portable kernel).
TABLE = {}
for _family in (
    conv,
    fully_connected,
    pooling,
    transpose_conv,
    int16,
    resize,
    arg_minmax,
    lut,
    elementwise,
    float_gemm,
):
    assert not set(TABLE) & set(_family.TABLE), f"{_family.__name__} lists an op another module lists"
    TABLE.update(_family.TABLE)


# The one rule by which a float32 layer leaves the FPU / Helium kernels on a core that has them: --optimize=size
# (every float32 layer), or, by default, a model whose float32 layers of the layer's kind (CONV_2D, DEPTHWISE_CONV_2D,
# FULLY_CONNECTED) have fewer than FEW_FLOAT_MACS MACs in all.  The fast forms save at most about 5 instructions per
# MAC (portable 6.2-7.7 per MAC against 0.5-1.5; below a few dozen MACs a layer they even take more), so such a model
# gives up at most ~2,500 instructions per inference and links no fast unit of that kind (1.1-11 KB of code each in
# the plain recipe, the portable kernel 0.2-0.7 KB).  The kind's total, not the layer's MACs: an image links a unit
# once for all its layers.  The bench's float models have 640 (ResNet's fully connected head) MACs and more per kind.
FEW_FLOAT_MACS = 512


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def float_kind_macs(graph) -> dict:
    """{op kind: the MACs of the model's float32 layers of that kind}, for the FEW_FLOAT_MACS rule (set on each op as
    op.float_kind_macs by passes/prepare_ops.py before the choice)."""
    macs = {}
    for op in graph.ops:
        if op.kind not in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED") or op.output.dtype != "float32":
            continue
        filt = op.input(1).shape
        taps = int(filt[1]) * int(filt[2]) if op.kind == "DEPTHWISE_CONV_2D" else _prod(filt[1:])
        macs[op.kind] = macs.get(op.kind, 0) + _prod(op.output.shape) * taps
    return macs


def portable_only(op) -> bool:
    """Whether op (a float32 layer) takes the portable kernels only: --optimize=size, or the FEW_FLOAT_MACS rule."""
    if op.output.dtype != "float32":
        return False
    kind_macs = getattr(op, "float_kind_macs", None)
    few = kind_macs is not None and kind_macs.get(op.kind, FEW_FLOAT_MACS) < FEW_FLOAT_MACS
    return options_of(op).optimize == "size" or few


def candidates(kind: str, dtype: str, target: str, portable: bool = False) -> list:
    """The table's candidates for an op on `target`, in the order they are tried; with `portable` (portable_only)
    the portable kernels only."""
    fams = ("portable",) if portable else FAMILIES.get(target, ("portable",))
    table = TABLE[(kind, dtype)]
    return [k for f in fams for k in table if k.family == f]


def select(op, p: dict, layer: Layer) -> str:
    """Choose op's kernel from the table (sets op.kernel_impl and op.kernel, the layout in p, op.kernel_reason and
    op.kernel_reason_numeric) and return its name."""
    op.params = p
    best_family, reasons, numeric = None, [], False
    for k in candidates(op.kind, op.output.dtype, getattr(op, "target", "host"), portable_only(op)):
        if k.serves is not None and not k.serves(op, p, layer):
            continue
        if best_family is None:
            best_family = k.family
        why = k.when(op, p, layer) if k.when is not None else None
        if why is None:
            op.kernel_impl, op.kernel = k, k.name  # the set-up may choose a variant (common/kernel.use)
            why = k.setup(op, p, layer) if k.setup is not None else None
            numeric = numeric or (why is not None and k.family == best_family)
        if why is None:
            fell = k.family != best_family
            op.kernel_reason = "; ".join(reasons) if fell else None
            op.kernel_reason_numeric = fell and numeric
            return op.kernel
        if k.family == best_family:
            reasons.append(f"{k.name}: {why}")
    raise AssertionError(f"no portable kernel for {op.kind} {op.output.dtype}")


def offer_table(op) -> None:
    """For the int8 unary ops (common/lut_s8.LUT_KINDS): after prepare() set op.kernel to the op's arithmetic kernel
    (or, for ELU, its table) and op.params, let the table choose a table lookup or that kernel."""
    if not offers_table(op):
        return
    op.params["own_kernel"] = op.kernel
    select(op, op.params, Layer())


def entry_point(op) -> Optional[str]:
    """The function a layer's code actually calls (the exact / short / unrolled variants of a kernel), or the
    specialized body with its requantization form, for reports."""
    k, p = op.kernel, op.params or {}
    if k is None:
        return None
    if "spec" in p:
        return f"{k}[{'short' if p['spec']['tables']['short'] else 'exact'} requant]"
    if "residual" in p:
        return k  # its *_add form; reports append "+add"
    impl = getattr(op, "kernel_impl", None)
    return impl.entry(op) if impl is not None and impl.entry is not None else k


def check_strict(graph) -> None:
    """strict_kernels: refuse a model in which a layer leaves its core's best kernels because of its quantization
    parameters (structural fallbacks stay allowed and are listed in the report)."""
    if not getattr(graph, "kernel_options", DEFAULT_OPTIONS).strict:
        return
    bad = [op for op in graph.ops if getattr(op, "kernel_reason_numeric", False)]
    if bad:
        layers = "; ".join(f"operator {op.index} ({op.kind}) runs {op.kernel} because {op.kernel_reason}" for op in bad)
        raise UnsupportedError(
            f"strict_kernels: {len(bad)} layer(s) for {graph.target} leave the best kernels of the core because of "
            f"their quantization parameters: {layers}. Re-quantize these layers, or build without strict_kernels."
        )
