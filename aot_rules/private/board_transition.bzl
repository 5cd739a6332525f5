"""Outgoing-edge transition that builds a dependency for a board's platform (the `<board>_platform` that aot_board
declares beside every board; the rule using it has a label attribute `board`).

A rule using it may also have a `compilation_mode` string attribute: "" keeps the command line's mode, "opt" (or
"dbg", "fastbuild") forces it for everything below, which the benchmarks use to measure -O2 code whatever the
user's flags.
"""

load(":board.bzl", "board_platform")

def _board_transition_impl(settings, attr):
    mode = getattr(attr, "compilation_mode", "") or settings["//command_line_option:compilation_mode"]
    return {
        "//command_line_option:platforms": board_platform(attr.board),
        "//command_line_option:compilation_mode": mode,
    }

board_transition = transition(
    implementation = _board_transition_impl,
    inputs = ["//command_line_option:compilation_mode"],
    outputs = ["//command_line_option:platforms", "//command_line_option:compilation_mode"],
)

# Bazel 4.2.3 requires this attribute on every rule that uses a Starlark transition.
TRANSITION_ALLOWLIST_ATTRS = {
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}
