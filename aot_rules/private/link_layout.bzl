"""How a firmware is linked for its board: the linker script (board regions + the firmware's placement) and the
board's startup, handed to the firmware's cc_binary as one CcInfo dependency.

Placement maps a kind (weights, workspace, state, io) to a region of the board. Weights need a read-only region
or the code region (they are not copied at reset), the other kinds a writable one. A kind placed in the code or RAM region joins
.rodata / .bss there; a kind placed elsewhere gets an output section `.aot_<region>` in that region (NOLOAD and
zeroed at reset for RAM).
"""

load(":board.bzl", "PLACEMENT_KINDS")
load(":providers.bzl", "AotBoardInfo")

def resolve_placement(board, placement, what):
    """kind -> region for every kind: the firmware's `placement`, else the board's, else code/RAM region."""
    names = [r.name for r in board.regions]
    writable = {r.name: "w" in r.attributes for r in board.regions}
    out = {}
    for kind in PLACEMENT_KINDS:
        default = board.code_region if kind == "weights" else board.ram_region
        out[kind] = placement.get(kind, board.placement.get(kind, default))
    for kind, region in placement.items():
        if kind not in PLACEMENT_KINDS:
            fail("%s: placement kind \"%s\" is not one of %s" % (what, kind, ", ".join(PLACEMENT_KINDS)))
    for kind, region in out.items():
        if region not in names:
            fail("%s: placement %s = \"%s\": board %s has regions %s" % (what, kind, region, board.name, ", ".join(names)))

        # Weights are never copied at reset: a read-only region, or the code region whatever its attributes.
        ok = (not writable[region] or region == board.code_region) if kind == "weights" else writable[region]
        if not ok:
            fail("%s: placement %s = \"%s\": %s go in a %s region; %s is %s" % (
                what,
                kind,
                region,
                kind,
                "read-only (rx)" if kind == "weights" else "writable (rw)",
                region,
                [r.attributes for r in board.regions if r.name == region][0],
            ))
    return out

def _kind_block(kind):
    return "\n".join([
        "    . = ALIGN(16);",
        "    __aot_%s_start = .;" % kind,
        "    *(%s*)" % PLACEMENT_KINDS[kind],
        "    __aot_%s_end = .;" % kind,
    ])

def _overflow_assert(board, region, section, kinds):
    """An ASSERT whose message, printed by ld beside its own `region ... overflowed by N bytes`, says in one
    paragraph what the region holds and how to make it fit (ld strings cannot hold double quotes)."""
    return ("  ASSERT(SIZEOF(%s) <= LENGTH(%s), \"aot_rules: region %s of board %s (%d B at %s) cannot hold the %s " +
            "placed in it: ld's line 'region %s overflowed by N bytes' says by how much. Place %s in another region " +
            "(aot_firmware placement, or the board's), make it smaller (a smaller model; one aot_workspace shared by " +
            "the models), or declare the region's real length in the aot_board.\")") % (
        section,
        region.name,
        region.name,
        board.name,
        region.length,
        _hex(region.origin),
        " and ".join(kinds),
        region.name,
        "it" if len(kinds) == 1 else "one of them",
    )

def _hex(value):
    digits = ""
    for _ in range(8):
        digits = "0123456789abcdef"[value % 16] + digits
        value //= 16
    return "0x" + digits

def linker_substitutions(board, placement):
    """The template's placeholders for `board` with the resolved `placement`."""
    memory = ["  %s (%s) : ORIGIN = %s, LENGTH = %d" % (r.name, r.attributes, _hex(r.origin), r.length) for r in board.regions]
    placed, zero = [], []
    for region in board.regions:
        if region.name in (board.code_region, board.ram_region):
            continue
        kinds = [k for k in PLACEMENT_KINDS if placement[k] == region.name]
        if not kinds:
            continue
        section = ".aot_" + region.name
        ram = "w" in region.attributes
        placed.append("  %s%s : ALIGN(16)\n  {\n%s\n  } > %s\n%s\n" % (
            section,
            " (NOLOAD)" if ram else "",
            "\n".join([_kind_block(k) for k in kinds]),
            region.name,
            _overflow_assert(board, region, section, kinds),
        ))
        if ram:
            zero.append("    LONG(ADDR(%s)); LONG(ADDR(%s) + SIZEOF(%s));" % (section, section, section))
    return {
        "%AOT_MEMORY%": "\n".join(memory),
        "%AOT_STACK_SIZE%": "%d" % board.stack_size,
        "%AOT_CODE%": board.code_region,
        "%AOT_RAM%": board.ram_region,
        "%AOT_PLACED_SECTIONS%": "\n".join(placed),
        "%AOT_CODE_KINDS%": "\n".join([_kind_block(k) for k in PLACEMENT_KINDS if placement[k] == board.code_region]),
        "%AOT_RAM_KINDS%": "\n".join([_kind_block(k) for k in PLACEMENT_KINDS if placement[k] == board.ram_region]),
        "%AOT_ZERO_TABLE%": "\n".join(zero),
    }

def _aot_link_layout_impl(ctx):
    board = ctx.attr.board[AotBoardInfo]
    placement = resolve_placement(board, ctx.attr.placement, "aot_firmware(name = \"%s\")" % ctx.attr.firmware)
    script = ctx.actions.declare_file(ctx.label.name + ".ld")
    ctx.actions.expand_template(
        template = board.linker_script or board.linker_script_template,
        output = script,
        substitutions = linker_substitutions(board, placement),
    )
    flags = ["-nostartfiles", "-T" + script.path]
    if board.semihosting:
        flags.append("--specs=rdimon.specs")
    link = cc_common.create_linking_context(linker_inputs = depset([cc_common.create_linker_input(
        owner = ctx.label,
        user_link_flags = depset(flags),
        additional_inputs = depset([script]),
    )]))
    cc = cc_common.merge_cc_infos(cc_infos = [ctx.attr.board[CcInfo], CcInfo(linking_context = link)])
    return [DefaultInfo(files = depset([script])), cc]

aot_link_layout = rule(
    implementation = _aot_link_layout_impl,
    doc = "A firmware's linker script and startup for its board, as a CcInfo for the firmware's cc_binary.",
    attrs = {
        "board": attr.label(mandatory = True, providers = [AotBoardInfo], doc = "An aot_board target."),
        "placement": attr.string_dict(doc = "kind (weights, workspace, state, io) -> region of the board."),
        "firmware": attr.string(doc = "Name of the firmware, for messages."),
    },
    provides = [CcInfo],
)
