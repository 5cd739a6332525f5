"""Outgoing-edge transition that builds a dependency for a board's platform (toolchains/boards)."""

def _board_transition_impl(settings, attr):
    _ignore = settings
    return {"//command_line_option:platforms": str(Label("//toolchains/boards:" + attr.board))}

board_transition = transition(
    implementation = _board_transition_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms"],
)

# Bazel 4.2.3 requires this attribute on every rule that uses a Starlark transition.
TRANSITION_ALLOWLIST_ATTRS = {
    "_allowlist_function_transition": attr.label(
        default = "@bazel_tools//tools/allowlists/function_transition_allowlist",
    ),
}
