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
