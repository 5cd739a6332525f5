"""C lines for programs that call a generated model (test, harness, benchmark) whether or not it is stateful.

A stateful model's header defines `<PREFIX>_STATE_SIZE`, declares `<prefix>_reset(void*)` and its run takes the
state buffer last; a stateless one keeps the three-argument run. The caller is written once with the preprocessor
choosing, so the program generators need not know which kind of model they call.
"""


def state_declaration(prefix: str, buffer: str) -> list:
    """A static state buffer `buffer` (stateful models only) and `<BUFFER>_ARG`, the run call's extra argument."""
    P, B = prefix.upper(), buffer.upper()
    return [
        f"#ifdef {P}_STATE_SIZE",
        f"static uint8_t {buffer}[{P}_STATE_SIZE] __attribute__((aligned({P}_STATE_ALIGN))) {P}_SECTION_STATE;",
        f"#define {B}_ARG , {buffer}",
        "#else",
        f"#define {B}_ARG",
        "#endif",
    ]


def state_reset(prefix: str, buffer: str, indent: str, on_error: str) -> list:
    """`<prefix>_reset(buffer)` for a stateful model (nothing otherwise); `on_error` is the C statement run when it
    fails."""
    return [
        f"#ifdef {prefix.upper()}_STATE_SIZE",
        f"{indent}if ({prefix}_reset({buffer}) != 0) {{",
        f"{indent}    {on_error}",
        f"{indent}}}",
        "#endif",
    ]


def run_call(prefix: str, inputs: str, outputs: str, workspace: str, buffer: str) -> str:
    return f"{prefix}_run({inputs}, {outputs}, {workspace} {buffer.upper()}_ARG)"


def io_declarations(prefix: str, indent: str) -> list:
    """The I/O structs of the run call, unless the model keeps its I/O in the workspace."""
    return [
        f"#ifndef {prefix.upper()}_IO_IN_WORKSPACE",
        f"{indent}struct {prefix}_inputs in;",
        f"{indent}struct {prefix}_outputs out;",
        "#endif",
    ]


def run_with_io(prefix: str, ins, outs, workspace: str, buffer: str, indent: str, rc: str, before=(), after=()) -> list:
    """`rc = <prefix>_run(...)` for either API: `ins` / `outs` are (field, pointer, byte count) of the caller's
    buffers. With I/O in the workspace (codegen/io_accessors.py) the inputs are copied in through the accessors
    and the outputs out after the run; otherwise the I/O structs point at the caller's buffers. Needs string.h.
    `before` / `after`: lines right next to the call (nothing else runs between them and the run)."""
    P = prefix.upper()
    L = [f"#ifdef {P}_IO_IN_WORKSPACE"]
    L += [f"{indent}memcpy({prefix}_input_{field}({workspace}), {src}, {n});" for field, src, n in ins]
    L += [*before, f"{indent}{rc} = {prefix}_run({workspace} {buffer.upper()}_ARG);", *after]
    L += [f"{indent}memcpy({dst}, {prefix}_output_{field}({workspace}), {n});" for field, dst, n in outs]
    L.append("#else")
    L += [f"{indent}in.{field} = {src};" for field, src, _ in ins]
    L += [f"{indent}out.{field} = {dst};" for field, dst, _ in outs]
    L += [*before, f"{indent}{rc} = {run_call(prefix, '&in', '&out', workspace, buffer)};", *after]
    return L + ["#endif"]
