"""Writes a board's linker script: the shared section layout with that board's memory map from cores.bzl."""

load("//toolchains:cores.bzl", "BOARDS")

def _board_linker_script_impl(ctx):
    board = BOARDS[ctx.attr.board]
    out = ctx.actions.declare_file(ctx.attr.board + ".ld")
    ctx.actions.expand_template(
        template = ctx.file._template,
        output = out,
        substitutions = {
            "%FLASH_ORIGIN%": "%d" % board["flash"][0],
            "%FLASH_LENGTH%": "%d" % board["flash"][1],
            "%RAM_ORIGIN%": "%d" % board["ram"][0],
            "%RAM_LENGTH%": "%d" % board["ram"][1],
            "%STACK_SIZE%": "%d" % board["stack"],
        },
    )
    return [DefaultInfo(files = depset([out]))]

board_linker_script = rule(
    implementation = _board_linker_script_impl,
    doc = "The linker script of one board of toolchains/cores.bzl.",
    attrs = {
        "board": attr.string(mandatory = True, values = BOARDS.keys(), doc = "Board name."),
        "_template": attr.label(default = ":sections.ld.tpl", allow_single_file = True),
    },
)
