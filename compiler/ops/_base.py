"""Base class and registration decorator for op lowerings.

A lowering owns everything op-specific: validation (check), compile-time
parameter computation (prepare, run by the passes), buffer aliasing and
scratch needs (used by the planner), and the C call it emits (emit).
"""

from ..errors import UnsupportedError

_REGISTRY = {}


def register(cls):
    """Class decorator: index a lowering under each name in cls.builtins."""
    inst = cls()
    for name in cls.builtins:
        if name in _REGISTRY:
            raise RuntimeError(f"op {name} registered twice ({cls.__name__})")
        _REGISTRY[name] = inst
    return cls


def registered_lowerings() -> dict:
    return dict(_REGISTRY)


class OpLowering:
    builtins: tuple = ()  # TFLite builtin names handled by this lowering
    dtypes: tuple = ("int8", "float32")
    header: str = ""  # CRT header declaring the kernel(s), e.g. "aot/kernels/add.h"
    # Element-wise kernels read element i of each full-shape input just before writing element i of the output,
    # so the output may overwrite such an input whose buffer dies here (passes/alias.py, in-place ops).
    elementwise: bool = False
    num_outputs: tuple = (1, 1)  # allowed number of output tensors (min, max)
    # Input positions that are TFLite variable tensors: state the kernel reads and updates in place, kept in the
    # model's state buffer from one run to the next (SVDF's activation state, an LSTM's hidden and cell state).
    state_inputs: tuple = ()

    # --- validation -------------------------------------------------------
    def check(self, op) -> None:
        """Raise UnsupportedError/CompileError if the op cannot be compiled."""
        dtype = op.outputs[0].dtype
        if dtype not in self.dtypes:
            raise UnsupportedError(
                f"Operator {op.index} ({op.kind}) produces tensor '{op.outputs[0].name}' of "
                f"type {dtype}; {op.kind} is supported for: {', '.join(self.dtypes)}."
            )

    # --- passes -----------------------------------------------------------
    def prepare(self, op) -> None:
        """Fill op.params with compile-time constants and set op.kernel."""

    def aliases_input(self, op) -> bool:
        """True if the output may share the first input's buffer (pure reshape)."""
        return False

    def inplace_input(self, op):
        """Index of the input whose buffer the output may overwrite element by element (the kernel reads each
        element of it just before writing the same element of the output), or None: then `elementwise` ops
        offer every input of the output's shape and element size, and other ops none."""
        return None

    def scratch_bytes(self, op) -> int:
        """Workspace bytes the kernel needs only while this op runs (the table's kernel says, if it chose one)."""
        k = op.kernel_impl
        return k.scratch(op) if k is not None and k.scratch is not None else 0

    def state_bytes(self, op) -> int:
        """Bytes the kernel keeps for itself from one run to the next (in the state buffer, reset to zero)."""
        return 0

    # --- code generation -------------------------------------------------
    def emit(self, op, ctx) -> list:
        """Return C statements implementing the op (see codegen.emit_context)."""
        raise NotImplementedError

    def headers(self, op) -> list:
        """The CRT headers of the call: the table's kernel's, else the lowering's own."""
        k = op.kernel_impl
        if k is not None and k.headers is not None:
            return k.headers(op)
        return [self.header] if self.header else []
