"""User kernels in the generated code (compiler/user_kernels.py decides which operators run one).

- CustomOpLowering: a CUSTOM operator mapped with --custom_op.  Emits the operator's const parameter block
  (struct aot_uk_params of crt/include/aot/user_kernel.h: tensor shapes and quantization, the custom options
  bytes verbatim, the scratch size) and one call of the user's function with typed I/O pointers and its planned
  scratch.
- emit_offloaded: a built-in operator routed to a user function (--offload).  The built-in lowering prepares and
  emits as always, for the portable kernel (prepare_ops gives routed operators the host target, so the parameters
  do not depend on the core); its one kernel call is redirected to the user's function, which gets the same
  arguments and returns a status.
Both record the failing operator's index for <prefix>_failed_op() (codegen/runner.py defines it).
"""

import os
import re

import numpy as np

from ..errors import CompileError, UnsupportedError
from ._base import OpLowering

UK_TYPES = {"int8": 1, "uint8": 2, "int16": 3, "int32": 4, "uint32": 5, "float32": 6, "bool": 7}
MAX_DIMS = 6
HEADER = "aot/user_kernel.h"
UK_PROTOTYPE = "(const struct aot_uk_params* params, const void* const* inputs, void* const* outputs, void* scratch)"


def failed_var(prefix: str) -> str:
    return f"{prefix}_failed_index"


def _status_lines(ctx, op, call: str) -> list:
    ctx.uses_status = True
    return [
        f"rc = {call};",
        "if (rc != AOT_OK) {",
        f"    {failed_var(ctx.prefix)} = {op.index};",
        "    return rc;",
        "}",
    ]


def _tensor_entry(ctx, op, t, role: str) -> str:
    if t is None:
        return (
            "{.type = 0, .rank = 0, .dims = {0}, .bytes = 0, .is_const = 0, .quant_count = 0, .quant_axis = 0, "
            ".scales = NULL, .zero_points = NULL}"
        )
    if t.dtype not in UK_TYPES:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) has {role} '{t.name}' of type {t.dtype}; tensors handed to a user "
            f"kernel must be one of: {', '.join(UK_TYPES)}."
        )
    if len(t.shape) > MAX_DIMS:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) has {role} '{t.name}' of rank {len(t.shape)}; a "
            f"user kernel's tensors have at most {MAX_DIMS} dimensions."
        )
    dims = ", ".join(str(int(d)) for d in t.shape) or "0"
    scales = zps = "NULL"
    count = axis = 0
    if t.quant is not None:
        count, axis = len(t.quant.scale), int(t.quant.axis)
        scales = ctx.param(f"uk{op.index}_s{t.index}_", np.asarray(t.quant.scale, np.float32), "float")
        zps = ctx.param(f"uk{op.index}_z{t.index}_", np.asarray(t.quant.zero_point).astype(np.int32), "int32_t")
    return (
        f"{{.type = {UK_TYPES[t.dtype]}, .rank = {len(t.shape)}, .dims = {{{dims}}}, .bytes = {t.nbytes}, "
        f".is_const = {1 if t.is_const else 0}, .quant_count = {count}, .quant_axis = {axis}, "
        f".scales = {scales}, .zero_points = {zps}}}"
    )


def params_block(ctx, op, scratch: int) -> str:
    """`&<prefix>_ukN`: the operator's struct aot_uk_params (and the arrays it points to), static const."""
    ins = [_tensor_entry(ctx, op, t, f"input {i}") for i, t in enumerate(op.inputs)]
    outs = [_tensor_entry(ctx, op, t, f"output {i}") for i, t in enumerate(op.outputs)]
    consts = [ctx.ptr(t) if t is not None and t.is_const else "NULL" for t in op.inputs]
    for c in consts:
        if c != "NULL":
            ctx.align_const(c)
    raw = op.options.get("custom_bytes", b"") if op.kind.startswith("CUSTOM:") else b""
    opts = ctx.param(f"uk{op.index}_opts", np.frombuffer(raw, np.uint8), "uint8_t") if raw else "NULL"
    p = ctx.prefix
    lines = []
    if ins:
        lines += (
            [f"static const struct aot_uk_tensor {p}_uk{op.index}_in[{len(ins)}] = {{"]
            + [f"    {e}," for e in ins]
            + ["};"]
        )
        lines += [f"static const void* const {p}_uk{op.index}_const[{len(ins)}] = {{{', '.join(consts)}}};"]
    lines += (
        [f"static const struct aot_uk_tensor {p}_uk{op.index}_out[{len(outs)}] = {{"]
        + [f"    {e}," for e in outs]
        + ["};"]
    )
    lines += [
        f"static const struct aot_uk_params {p}_uk{op.index} = {{",
        f"    .op_index = {op.index},",
        f"    .num_inputs = {len(ins)},",
        f"    .num_outputs = {len(outs)},",
        f"    .inputs = {f'{p}_uk{op.index}_in' if ins else 'NULL'},",
        f"    .outputs = {p}_uk{op.index}_out,",
        f"    .options = {opts},",
        f"    .options_size = {len(raw)},",
        f"    .scratch_size = {scratch},",
        f"    .const_inputs = {f'{p}_uk{op.index}_const' if ins else 'NULL'}",
        "};",
    ]
    nbytes = (len(ins) + len(outs)) * 4 * (8 + MAX_DIMS) + 40
    ctx.raw_const(f"{p}_uk{op.index}", lines, nbytes)
    return f"&{p}_uk{op.index}"


class CustomOpLowering(OpLowering):
    """A CUSTOM operator run by the user's function (one instance per mapping, attached by select_lowering)."""

    dtypes = tuple(UK_TYPES)
    num_outputs = (1, 64)
    header = HEADER
    # Inputs nobody writes are the kernel's working memory (Vela's scratch tensors), planned in the workspace.
    scratch_inputs = True

    def __init__(self, kernel):
        self.kernel = kernel

    def check(self, op) -> None:
        for role, ts in (("input", op.inputs), ("output", op.outputs)):
            for i, t in enumerate(ts):
                if t is not None and t.dtype not in UK_TYPES:
                    raise UnsupportedError(
                        f"Operator {op.index} ({op.kind}) has {role} {i} '{t.name}' of type {t.dtype}; tensors "
                        f"handed to a user kernel must be one of: {', '.join(UK_TYPES)}."
                    )
                if t is not None and t.is_variable:
                    raise UnsupportedError(
                        f"Operator {op.index} ({op.kind}) reads variable tensor '{t.name}'; a user kernel keeps "
                        "its state in memory of its own (variable tensors are supported only for SVDF and LSTM)."
                    )

    def prepare(self, op) -> None:
        op.kernel = self.kernel.fn
        # Tensors the model placed itself (TFLite Micro's OfflineMemoryAllocation, written by Vela): a command
        # stream addresses them at these offsets from one base, so they share one block, laid out as planned,
        # after the kernel's own scratch. Constants stay in flash.
        placed = {
            t.index: (t, t.offline_offset)
            for t in op.inputs + op.outputs
            if t is not None and not t.is_const and getattr(t, "offline_offset", None) is not None
        }
        if placed:
            at = _align(self.kernel.scratch)
            op.params["block"] = {i: at + off for i, (t, off) in placed.items()}
            op.params["block_bytes"] = _align(max(off + t.nbytes for t, off in placed.values()))
            op.params["block_at"] = at
            for t, _ in placed.values():
                t.in_user_block = True

    def scratch_bytes(self, op) -> int:
        if "block" in op.params:
            return op.params["block_at"] + op.params["block_bytes"]
        return self.kernel.scratch

    def emit(self, op, ctx) -> list:
        params = params_block(ctx, op, self.kernel.scratch)
        ctx.declare_user_function(self.kernel.fn, "int32_t " + self.kernel.fn + UK_PROTOTYPE, op)
        block = op.params.get("block", {})
        base = ctx.scratch(op, "uint8_t") if block or self.kernel.scratch else None
        copy_in, copy_out = [], []

        def where(t, role):
            if t is None:
                return "NULL"
            if t.index not in block:
                return ctx.ptr(t)
            inside = f"({base} + {block[t.index]}u)"
            # Data from elsewhere (model I/O, earlier operators) is copied to where the plan put it; a tensor
            # nobody writes is working memory and needs no copy.
            if role == "in" and (t.is_input or t.producer is not None):
                copy_in.append(f"memcpy({inside}, {ctx.ptr(t)}, {t.nbytes}u);")
            elif role == "out":
                copy_out.append(f"memcpy({ctx.ptr(t)}, {inside}, {t.nbytes}u);")
            return inside

        ins = [where(t, "in") for t in op.inputs] or ["NULL"]
        outs = [where(t, "out") for t in op.outputs]
        if copy_in or copy_out:
            ctx.uses_memcpy = True
        scratch = f"(void*){base}" if self.kernel.scratch else "NULL"
        call = f"{self.kernel.fn}({params}, uk_in, uk_out, {scratch})"
        if self.kernel.init:
            ctx.init_hooks.append((op, self.kernel.init, params))
        return (
            [
                "{",
                f"    const void* const uk_in[{len(ins)}] = {{{', '.join(ins)}}};",
                f"    void* const uk_out[{len(outs)}] = {{{', '.join(outs)}}};",
            ]
            + ["    " + c for c in copy_in]
            + ["    " + ln for ln in _status_lines(ctx, op, call)]
            + ["    " + c for c in copy_out]
            + ["}"]
        )


def _align(n: int, a: int = 16) -> int:
    return (n + a - 1) // a * a


# --- built-in operators routed to a user function -----------------------------------------------------------------


def _builtin_prototype(op, kernel_fn: str) -> str:
    """The parameter list of CRT kernel `kernel_fn` as its header declares it."""
    from ..hostbuild import crt_dir

    for h in op.lowering.headers(op):
        path = os.path.join(crt_dir(), "include", h)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
        m = re.search(r"\b(?:void|int32_t)\s+" + re.escape(kernel_fn) + r"\s*\(([^;{]*)\)\s*;", text)
        if m:
            return "(" + " ".join(m.group(1).split()) + ")"
    raise CompileError(
        f"Operator {op.index} ({op.kind}) cannot be offloaded: the declaration of its built-in "
        f"kernel {kernel_fn} was not found in {', '.join(op.lowering.headers(op)) or 'any header'}."
    )


class _RoutingContext:
    """The emit context as the built-in lowering of an offloaded operator sees it: its kernel call is
    redirected to the user's function; everything else (buffers, constants) is the real context's."""

    def __init__(self, ctx, op, kernel):
        self._ctx, self._op, self._kernel = ctx, op, kernel
        self.calls = []

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def _route(self, fn, args) -> list:
        self.calls.append(fn)
        self._ctx.declare_user_function(
            self._kernel.fn, "int32_t " + self._kernel.fn + _builtin_prototype(self._op, fn), self._op, stands_in_for=fn
        )
        call = self._ctx._format_call(f"{self._kernel.fn}(", args)
        return _status_lines(self._ctx, self._op, call.replace("\n", "\n    "))

    def call(self, fn, args) -> str:
        return "\n".join(self._route(fn, args))

    def checked_call(self, fn, args) -> list:
        return self._route(fn, args)


def emit_offloaded(op, ctx) -> list:
    kernel = op.user_kernel
    if op.lowering.headers(op) == []:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) cannot be offloaded to {kernel.fn}: its built-in "
            "code is no CRT kernel call (it is inline code or an alias)."
        )
    routing = _RoutingContext(ctx, op, kernel)
    lines = op.lowering.emit(op, routing)
    if len(routing.calls) != 1:
        raise UnsupportedError(
            f"Operator {op.index} ({op.kind}) cannot be offloaded to {kernel.fn}: its built-in code makes "
            f"{len(routing.calls)} kernel calls ({', '.join(routing.calls) or 'none'}), and a user function stands "
            "in for exactly one. Offload operators whose built-in code is one kernel call (CONV_2D, "
            "DEPTHWISE_CONV_2D, FULLY_CONNECTED, pooling, ADD, ...)."
        )
    if kernel.init:
        ctx.init_hooks.append((op, kernel.init, params_block(ctx, op, 0)))
    op.offloaded_from = routing.calls[0]
    return lines
