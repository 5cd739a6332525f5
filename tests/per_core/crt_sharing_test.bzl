"""A test that the CRT is compiled once per core, whatever the board (aot_rules/private/per_core.bzl).

`//crt` is built here for each of `boards` exactly as a firmware for that board builds it (the board's platform,
through a split transition), and the CRT archive each board links is compared at analysis time: boards of one core
must link the same file (one compile of the CRT shared by all of them), boards of different cores different ones.
The verdict becomes a shell script that prints every board's archive and exits non-zero on a mismatch.
"""

load("//aot_rules/private:board.bzl", "board_platform")
load("//aot_rules/private:board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS")
load("//aot_rules/private:providers.bzl", "AotBoardInfo")

def _per_board_impl(settings, attr):
    return {
        str(board): {
            "//command_line_option:platforms": board_platform(board),
            "//command_line_option:compilation_mode": settings["//command_line_option:compilation_mode"],
        }
        for board in attr.boards
    }

_per_board = transition(
    implementation = _per_board_impl,
    inputs = ["//command_line_option:compilation_mode"],
    outputs = ["//command_line_option:platforms", "//command_line_option:compilation_mode"],
)

def _archives(cc_info):
    files = []
    for linker_input in cc_info.linking_context.linker_inputs.to_list():
        for lib in linker_input.libraries:
            archive = lib.static_library or lib.pic_static_library
            if archive:
                files.append(archive.path)
    return files

def _impl(ctx):
    lines = []
    problems = []
    by_core = {}
    for key, configured in ctx.split_attr.boards.items():
        # Every board configured for each board's platform (a board target builds only for a board): keep its own.
        board = [b for b in configured if str(b.label) == key][0]
        core = board[AotBoardInfo].core
        archives = _archives(ctx.split_attr.library[key][CcInfo])
        lines.append("%s (%s): %s" % (board.label, core, " ".join(archives)))
        if len(archives) != 1:
            problems.append("%s: expected one CRT archive, got %s" % (board.label, archives))
            continue
        by_core.setdefault(core, {})[archives[0]] = board.label
    for core, archives in by_core.items():
        if len(archives) != 1:
            problems.append("the boards of %s link %d different CRT archives (one compile per board, not per core): %s" % (
                core,
                len(archives),
                ", ".join(["%s by %s" % (a, b) for a, b in archives.items()]),
            ))
    seen = {}
    for core, archives in by_core.items():
        for archive in archives:
            if archive in seen:
                problems.append("%s and %s link the same CRT archive %s" % (seen[archive], core, archive))
            seen[archive] = core
    if len(by_core) < 2 or len(by_core) == len(ctx.attr.boards):
        problems.append("the test needs two boards of one core and a board of another core")
    script = ["#!/bin/sh", "cat <<'AOT_EOF'"] + lines + ["AOT_EOF"]
    if problems:
        script += ["cat >&2 <<'AOT_EOF'", "FAIL:"] + problems + ["AOT_EOF", "exit 1"]
    else:
        script += ["echo 'per-core CRT: one archive per core, shared by the boards of that core'", "exit 0"]
    out = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(out, "\n".join(script) + "\n", is_executable = True)
    return [DefaultInfo(executable = out)]

crt_sharing_test = rule(
    implementation = _impl,
    test = True,
    doc = "Checks that boards of one core link one CRT archive and boards of different cores different ones.",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "boards": attr.label_list(mandatory = True, cfg = _per_board, providers = [AotBoardInfo]),
        "library": attr.label(default = "//crt", cfg = _per_board, providers = [CcInfo]),
    }),
)
