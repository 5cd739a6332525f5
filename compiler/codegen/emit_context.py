"""What op lowerings use to emit C: buffer expressions, constants, calls.

Weights go to <prefix>_weights.c (external linkage, const); small per-op
parameter tables stay `static const` in the runner.  Identical arrays are
emitted once.  Symbol names derive only from the prefix and op indices, so
output is deterministic and never contains model-provided text.
"""

from dataclasses import dataclass

import numpy as np

from ..ir.dtypes import DTYPES
from .cformat import NonFiniteConstant, float_literal, int_literal
from .weights_blob import blob_pointer, blob_ref

_NP_FOR_CTYPE = {
    "int8_t": np.int8,
    "int32_t": np.int32,
    "float": np.float32,
    "uint8_t": np.uint8,
    "int16_t": np.int16,
    "uint16_t": np.uint16,
    "uint32_t": np.uint32,
}


# Bytes a typed view's offset must be a multiple of (the arena itself is checked by the runner, WORKSPACE_ALIGN).
_VIEW_ALIGN = {"int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4, "float": 4, "int64_t": 8}

# Scratch is read by the DSP kernels' LDRD / word loads (dsp_s8.h aot_load2, the depthwise planes, the FC and LSTM
# expanded inputs), which fault on an address that is not a multiple of 4 whatever UNALIGN_TRP says; 8 keeps the
# word pairs in one doubleword too.
SCRATCH_ALIGN = 8


def _view(ctype: str, base: str, offset: int, align: int = 1) -> str:
    """A typed pointer into the byte arena `base` (ws / st) at `offset`. Character types point into it directly;
    wider ones go through `void*` (a pointer conversion MISRA C:2012 rule 11.3 and -Wcast-align accept: the planner
    aligns every buffer for its element type and the runner checks the arena's alignment). The alignment is asserted
    here, as the C is generated: a plan that broke it would be a compiler bug, never silently misaligned C."""
    need = max(align, _VIEW_ALIGN.get(ctype, 1))
    if offset % need:
        raise AssertionError(
            f"internal error: a {ctype} view of '{base}' at offset {offset}, not a multiple of {need} bytes "
            "(the planner aligns every buffer; the kernels' word and LDRD loads need it)"
        )
    if ctype in ("int8_t", "uint8_t"):
        return f"(({ctype}*)({base} + {offset}u))"
    return f"(({ctype}*)(void*)({base} + {offset}u))"


@dataclass
class ConstArray:
    symbol: str
    ctype: str
    values: np.ndarray
    in_weights_file: bool
    # Handed to a user kernel: 16-byte aligned (DMA engines and NPUs such as Ethos-U need it).
    aligned: bool = False
    # With weights in a blob (codegen/weights_blob.py): where it is, and the pointer expression the C uses.
    offset: int = None
    ref: str = None

    @property
    def nbytes(self) -> int:
        return int(self.values.size) * np.dtype(_NP_FOR_CTYPE[self.ctype]).itemsize


@dataclass
class ConstStruct:
    """A `static const struct` of int32_t fields (kernel parameter blocks, e.g. struct aot_add_s8_params); a field
    whose value is a tuple is an int32_t array of that length."""

    symbol: str
    struct: str  # C struct tag
    fields: tuple  # field names, in declaration order
    values: tuple  # ints, same order
    in_weights_file: bool = False
    offset: int = None  # in the weights blob, when there is one

    def flat(self) -> list:
        return [x for v in self.values for x in (v if isinstance(v, tuple) else (v,))]

    @property
    def nbytes(self) -> int:
        return 4 * sum(len(v) if isinstance(v, tuple) else 1 for v in self.values)

    def definition(self) -> list:
        def literal(v):
            return "{" + ", ".join(int_literal(x) for x in v) + "}" if isinstance(v, tuple) else int_literal(v)

        body = [f"    .{name} = {literal(v)}," for name, v in zip(self.fields, self.values)]
        body[-1] = body[-1][:-1]
        return [f"static const struct {self.struct} {self.symbol} = {{"] + body + ["};"]


@dataclass
class ConstRaw:
    """A static const definition written out by its owner (the user-kernel parameter blocks, ops/_user_kernel.py,
    whose fields are not all int32_t)."""

    symbol: str
    lines: list
    size: int
    in_weights_file: bool = False

    @property
    def nbytes(self) -> int:
        return self.size

    def definition(self) -> list:
        return list(self.lines)


class EmitContext:
    def __init__(self, prefix: str, graph, storage_map, plan, io_fields: dict):
        self.prefix = prefix
        self.graph = graph
        self.storage_map = storage_map
        self.plan = plan
        self.io_fields = io_fields  # ("input"|"output", position) -> C field name
        self.consts = []  # ConstArray, in creation order
        self._by_content = {}
        self.uses_workspace = False
        self.uses_state = False
        self.uses_status = False
        self.functions = []  # (name, C lines) of the runner's static helper functions
        self._fn_by_key = {}
        # User kernels (ops/_user_kernel.py): {function: (prototype, first op, built-in kernel it stands in for)}
        # and the init hooks as (op, hook, &params), in operator order.
        self.user_functions = {}
        self.init_hooks = []
        # weights = "blob": a codegen/weights_blob.BlobLayout that every constant goes to instead of the C.
        self.blob = None

    # --- buffers ------------------------------------------------------------
    def ptr(self, tensor) -> str:
        st = self.storage_map.storage(tensor)
        if st.kind == "input":
            return f"inputs->{self.io_fields[('input', st.key)]}"
        if st.kind == "output":
            return f"outputs->{self.io_fields[('output', st.key)]}"
        if st.kind == "const":
            src = self.graph.tensors[st.key]
            return self.weight(f"t{src.index}", src.data, DTYPES[src.dtype].ctype)
        if st.kind == "state":
            self.uses_state = True
            return _view(tensor.ctype, "st", self.plan.state_offset[tensor.index])
        self.uses_workspace = True
        off = self.plan.tensor_offset[tensor.index]
        return _view(tensor.ctype, "ws", off)

    def op_state(self, op, ctype: str) -> str:
        """The operator's own state (OpLowering.state_bytes), in the state buffer."""
        self.uses_state = True
        return _view(ctype, "st", self.plan.op_state_offset[op.index])

    def scratch(self, op, ctype: str) -> str:
        self.uses_workspace = True
        return _view(ctype, "ws", self.plan.scratch_offset[op.index], SCRATCH_ALIGN)

    def scratch_in(self, tensor, offset: int) -> str:
        """An int32_t scratch pointer `offset` bytes into a workspace tensor whose bytes there the op no longer
        needs (the planner's scratch inside a layer's output and input, ops/common/conv.py dsp_gemm_split)."""
        self.uses_workspace = True
        return _view("int32_t", "ws", self.plan.tensor_offset[tensor.index] + offset, SCRATCH_ALIGN)

    # --- constants ----------------------------------------------------------
    def _const(self, hint: str, values, ctype: str, weights: bool) -> str:
        arr = np.ascontiguousarray(np.asarray(values).astype(_NP_FOR_CTYPE[ctype]).reshape(-1))
        if ctype == "float" and not np.all(np.isfinite(arr)):
            # Checked here, while the operator that uses the array is emitted, so the error can name it.
            raise NonFiniteConstant(
                f"the float array '{hint}' holds {int(np.sum(~np.isfinite(arr)))} NaN or infinite values"
            )
        key = (ctype, weights, arr.tobytes())
        if key in self._by_content:
            known = self._by_content[key]
            return known.symbol if known.ref is None else known.ref
        c = ConstArray(f"{self.prefix}_{hint}", ctype, arr, weights)
        if self.blob is not None:
            c.offset = self.blob.add_array(ctype, arr)
            c.ref = blob_ref(self.prefix, ctype, c.offset)
        self.consts.append(c)
        self._by_content[key] = c
        return c.symbol if c.ref is None else c.ref

    def weight(self, hint: str, values, ctype: str) -> str:
        return self._const(hint, values, ctype, weights=True)

    def weight_or_null(self, hint: str, values, ctype: str) -> str:
        if values is None:
            return "NULL"
        return self.weight(hint, values, ctype)

    def param(self, hint: str, values, ctype: str) -> str:
        return self._const(hint, values, ctype, weights=False)

    def param_struct(self, hint: str, struct: str, fields, values) -> str:
        """`&symbol` of a static const struct (int32_t fields) in the runner; identical blocks are emitted once."""
        values = tuple(tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else int(v) for v in values)
        key = ("struct " + struct, tuple(fields), values)
        if key not in self._by_content:
            c = ConstStruct(f"{self.prefix}_{hint}", struct, tuple(fields), values)
            if self.blob is not None:
                c.offset = self.blob.add_int32s(c.flat())
            self.consts.append(c)
            self._by_content[key] = c
        c = self._by_content[key]
        if c.offset is not None:
            return f"((const struct {struct}*)(const void*)({blob_pointer(self.prefix)} + {c.offset}u))"
        return "&" + c.symbol

    def align_const(self, symbol: str) -> None:
        for c in self.consts:
            if symbol in (c.symbol, getattr(c, "ref", None)) and isinstance(c, ConstArray):
                c.aligned = True

    def raw_const(self, symbol: str, lines: list, nbytes: int) -> None:
        if self.blob is not None:
            from ..errors import UnsupportedError

            raise UnsupportedError(
                "--weights blob does not support user kernels (custom_ops / offload): their parameter blocks hold "
                "pointers to the weights, which a blob bound at run time cannot give a static initializer. Compile "
                "this model with the default --weights const."
            )
        self.consts.append(ConstRaw(symbol, lines, nbytes))

    def declare_user_function(self, fn: str, prototype: str, op, stands_in_for: str = None) -> None:
        """A user function the runner declares; one name must keep one prototype across the model's operators."""
        from ..errors import CompileError

        known = self.user_functions.get(fn)
        if known is not None and known[0] != prototype:
            first = self.graph.ops[known[1]]
            raise CompileError(
                f"User function {fn} is given operator {known[1]} ({first.kind}"
                f"{', for ' + known[2] if known[2] else ''}) and operator {op.index} ({op.kind}"
                f"{', for ' + stands_in_for if stands_in_for else ''}), whose calls need different parameter lists "
                f"({known[0]} and {prototype}). Map them to different functions (--offload '#N=...' or "
                "'name:GLOB=...' selects operators)."
            )
        if known is None:
            self.user_functions[fn] = (prototype, op.index, stands_in_for)

    # --- helper functions -------------------------------------------------
    def function(self, key, hint: str, define) -> str:
        """Name of a `static` function of the runner, defined once per distinct key: define(name) -> C lines."""
        if key not in self._fn_by_key:
            name = f"{self.prefix}_{hint}{len(self.functions)}"
            self._fn_by_key[key] = name
            self.functions.append((name, define(name)))
        return self._fn_by_key[key]

    # --- literals and calls -------------------------------------------------
    @staticmethod
    def f32(v) -> str:
        return float_literal(v)

    @staticmethod
    def arg(v) -> str:
        if isinstance(v, str):
            return v
        if isinstance(v, (float, np.floating)):
            return float_literal(v)
        return int_literal(v)

    def call(self, fn: str, args) -> str:
        return self._format_call(f"{fn}(", args) + ";"

    def checked_call(self, fn: str, args) -> list:
        """Call of a kernel returning an AOT_* status; propagate errors."""
        self.uses_status = True
        return [self._format_call(f"rc = {fn}(", args) + ";", "if (rc != AOT_OK) {", "    return rc;", "}"]

    def _format_call(self, head: str, args) -> str:
        parts = [self.arg(a) for a in args]
        line = head + ", ".join(parts) + ")"
        if len(line) <= 96:
            return line
        # One argument group per line keeps long kernel calls reviewable.
        out, cur = [], head
        for i, p in enumerate(parts):
            piece = p + (", " if i < len(parts) - 1 else ")")
            if len(cur) + len(piece) > 96 and cur.strip():
                out.append(cur.rstrip())
                cur = "        "
            cur += piece
        out.append(cur)
        return "\n".join(out)
