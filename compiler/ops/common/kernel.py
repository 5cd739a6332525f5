"""What a kernel is to the compiler: one Kernel value per CRT kernel (or family of entry points), carrying both
whether it can run a layer and what running it takes.

A Kernel is a registration record in the manner of TFLite Micro's one struct per kernel, and an implementation
in the manner of TVM's op strategy (a compute chosen among others by priority): the kernel table
(ops/kernel_table.py) lists the candidates per op and core, `select` picks the first that serves the layer and
sets op.kernel_impl (the object) and op.kernel (its name, for reports and manifests).  From then on the lowering
asks the object, never the name: its scratch, its headers, its C call.  Kernels themselves live in ops/kernels/
(one module per op family); this module is below them and the lowerings and imports neither.
"""

from dataclasses import dataclass, field
from typing import Callable, Optional

from ...errors import CompileError


@dataclass(frozen=True)
class Kernel:
    """A kernel the table can hand out.  Every callable takes the op (and, for the choice, op.params and the Layer);
    the ones left None fall back to the lowering: a kernel without `emit` is called by the lowering's own code
    (the portable kernels, whose arguments are the op's own), without `headers` it is declared in the lowering's
    header, without `scratch` it needs none."""

    name: str  # op.kernel once chosen
    family: str  # mve / dsp / specialized / portable
    setup: Optional[Callable] = None  # (op, p, layer) -> None, or the (quantization) reason it cannot run the layer
    when: Optional[Callable] = None  # (op, p, layer) -> None, or the structural reason it cannot
    serves: Optional[Callable] = None  # (op, p, layer) -> bool: the layer has the form this kernel is written for
    emit: Optional[Callable] = None  # (op, ctx) -> list of C statements
    headers: Optional[Callable] = None  # (op) -> list of CRT headers the call needs
    scratch: Optional[Callable] = None  # (op) -> workspace bytes while the layer runs
    entry: Optional[Callable] = None  # (op) -> the function the generated code calls, for reports (default: name)
    residual: Optional[Callable] = None  # (op) -> True if the kernel has a *_add form (a fused residual ADD)
    # (op) -> the row where the layer can be cut in two bands whose scratch lies inside its own output and input, or
    # None (planner/plan.py asks where the scratch sets the peak; the emit reads op.params["scratch_split"])
    split: Optional[Callable] = None
    # (op) -> True if the kernel has a form with less scratch (a smaller tile) that the layer can take (planner/plan.py
    # asks where the scratch sets the peak and sets op.params["dsp_tile"] if it lowers the workspace)
    small_tile: Optional[Callable] = None


@dataclass
class Layer:
    """What a candidate's checks and set-up read besides op and op.params: the weights one row per output
    channel ([C, K] int8), the model's int32 bias per channel, the input zero point, the GEMM's input channels."""

    rows: object = None
    bias: object = None
    in_zp: int = 0
    in_c: int = 0
    extra: dict = field(default_factory=dict)


def use(op, kernel: Kernel) -> None:
    """Hand the layer to `kernel` (a set-up choosing a variant of itself, e.g. the _c4 form of a DSP depthwise)."""
    op.kernel_impl = kernel
    op.kernel = kernel.name


def own_emit(op) -> Optional[Callable]:
    """The chosen kernel's emit, or None: the lowering emits the call of its (portable) kernel itself."""
    k = getattr(op, "kernel_impl", None)
    return k.emit if k is not None else None


def fuses_residual(op) -> bool:
    """Whether the op's kernel can absorb a following residual ADD (passes/fuse_residual_add.py)."""
    k = getattr(op, "kernel_impl", None)
    return k is not None and k.residual is not None and k.residual(op)


# --- compile options of the choice ----------------------------------------------------------------------------

# --specialize: the layer kinds made shape-specialized functions on the Cortex-M0/M3 (README "Shape-specialized
# layers" says what each earns).
SPECIALIZE_KINDS = ("conv", "depthwise", "fc")
# One more --specialize word: convolutions and fully connected layers store two output channels per 32-bit weight
# word (ops/common/packed.py: about 40 % fewer instructions, weights twice the bytes).  On by default; an explicit
# list without it keeps the int8 weights.
PACKED = "packed"
# Another: convolutions on the M3 pair two output pixels per 32-bit input word instead (ops/common/packed.py's
# xpair_*: a few % more instructions than packed weights, int8 weights) and fully connected layers keep int8
# weights; for models whose packed weights would not fit the board.  Takes precedence over PACKED.
XPAIR = "xpair"


def parse_specialize(spec) -> frozenset:
    """--specialize: a comma-separated subset of SPECIALIZE_KINDS, PACKED and XPAIR, "none", or None for the kinds
    and PACKED."""
    kinds = (
        SPECIALIZE_KINDS + (PACKED,)
        if spec is None
        else [k.strip() for k in spec.split(",") if k.strip() and k.strip() != "none"]
    )
    bad = [k for k in kinds if k not in SPECIALIZE_KINDS + (PACKED, XPAIR)]
    if bad:
        raise CompileError(
            f"--specialize: unknown layer kind '{bad[0]}'; use a comma-separated subset of "
            f"{', '.join(SPECIALIZE_KINDS + (PACKED, XPAIR))}, or none."
        )
    return frozenset(kinds)


# --optimize: "speed" (the default) picks each layer's fastest kernel; "size" the smallest code, which for float32
# layers is the portable kernels (one object each, linked whatever the layer's shape) instead of the FPU / Helium
# GEMM and depthwise forms (several KB each).  Integer layers keep their kernels either way (docs/kernels.md).
OPTIMIZE = ("speed", "size")


def parse_optimize(value) -> str:
    """--optimize: one of OPTIMIZE (None: "speed")."""
    if value is None:
        return OPTIMIZE[0]
    if value not in OPTIMIZE:
        raise CompileError(f"--optimize: unknown goal '{value}'; use speed (the default: fastest kernels) or size.")
    return value


@dataclass(frozen=True)
class KernelOptions:
    """Compile options of kernel selection: the layer kinds specialized on the M0/M3 (--specialize), whether a
    layer that leaves its core's best kernels because of its quantization parameters fails the build
    (--strict_kernels) and the goal of the choice (--optimize: speed or size)."""

    specialize: frozenset = frozenset(SPECIALIZE_KINDS + (PACKED,))
    strict: bool = False
    optimize: str = OPTIMIZE[0]

    @property
    def pack(self) -> bool:
        return PACKED in self.specialize and XPAIR not in self.specialize

    @property
    def xpair(self) -> bool:
        return XPAIR in self.specialize


DEFAULT_OPTIONS = KernelOptions()


def options_from_flags(flags) -> KernelOptions:
    """The KernelOptions of the command line (--specialize, --strict_kernels, --optimize)."""
    return KernelOptions(
        specialize=parse_specialize(getattr(flags, "specialize", None)),
        strict=bool(getattr(flags, "strict_kernels", False)),
        optimize=parse_optimize(getattr(flags, "optimize", None)),
    )


def options_of(op) -> KernelOptions:
    return getattr(op, "kernel_options", None) or DEFAULT_OPTIONS
