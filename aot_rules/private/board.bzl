"""`aot_board`: a board as a target (core, memory regions, linker script, startup, QEMU machine) -> AotBoardInfo.

`aot_firmware(board = "//my/board:stm32f7")` builds for it: the macro also declares `<name>_platform` (the core's
constraint value, which the firmware's transition selects by that naming convention, since a transition sees the
board's label but not its provider), and the board target itself carries the startup code as CcInfo so the
firmware links it like any dependency.
"""

load("//toolchains:cores.bzl", "CORES")
load(":providers.bzl", "AotBoardInfo")

# What a firmware can place, and the input sections generated code puts it in (compiler/codegen/sections.py).
PLACEMENT_KINDS = {
    "weights": ".rodata.aot_weights.",
    "workspace": ".bss.aot_workspace.",
    "state": ".bss.aot_state.",
    "io": ".bss.aot_io.",
}

_SUFFIXES = {"K": 1024, "M": 1024 * 1024}
_IDENT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"

def parse_size(value, what):
    """An int, or a string "65536", "0x20000000", "64K", "1M" -> int; fails naming `what` otherwise."""
    if type(value) == "int":
        return value
    text = value.strip()
    mult = 1
    if text and text[-1].upper() in _SUFFIXES:
        mult = _SUFFIXES[text[-1].upper()]
        text = text[:-1]
    digits = text[2:] if text.lower().startswith("0x") else text
    base = 16 if text.lower().startswith("0x") else 10
    ok = digits and [c for c in digits.lower().elems() if c not in "0123456789abcdef"[:base]] == []
    if not ok:
        fail("%s: \"%s\" is not a size (a number, 0x..., or with K / M)" % (what, value))
    return int(digits, base) * mult

def aot_memory_region(name, origin, length, attributes = "rw"):
    """One memory region of an aot_board: `name` (a linker identifier), `origin` and `length` (ints or strings such
    as "0x08000000", "1M", "64K") and `attributes`: "rx" (read-only: code and weights) or "rw"/"rwx" (RAM)."""
    return "%s|%s|%s|%s" % (name, origin, length, attributes)

def _region(encoded, board):
    name, origin, length, attributes = encoded.split("|")
    what = "aot_board(name = \"%s\") region %s" % (board, name)
    if not name or [c for c in name.elems() if c not in _IDENT] or name[0] in "0123456789":
        fail("%s: the name must be a linker identifier (letters, digits, _)" % what)
    if not attributes or [c for c in attributes.elems() if c not in "rwx"]:
        fail("%s: attributes \"%s\" must be made of r, w and x" % (what, attributes))
    return struct(
        name = name,
        origin = parse_size(origin, what + " origin"),
        length = parse_size(length, what + " length"),
        attributes = attributes,
    )

def _aot_board_impl(ctx):
    regions = [_region(r, ctx.label.name) for r in ctx.attr.regions]
    names = [r.name for r in regions]
    what = "aot_board(name = \"%s\")" % ctx.label.name
    if not regions:
        fail("%s: give at least one read-only (rx) and one writable (rw) memory region" % what)
    if len(names) != len({n: 1 for n in names}):
        fail("%s: region names repeat: %s" % (what, names))
    code = ctx.attr.code_region or ([r.name for r in regions if "w" not in r.attributes] + [""])[0]
    ram = ctx.attr.ram_region or ([r.name for r in regions if "w" in r.attributes] + [""])[0]
    for role, region in (("code_region", code), ("ram_region", ram)):
        if region not in names:
            fail("%s: %s \"%s\" is not one of its regions %s" % (what, role, region, names))
    for kind, region in ctx.attr.placement.items():
        if kind not in PLACEMENT_KINDS or region not in names:
            fail("%s: placement %s = \"%s\": kinds are %s, regions %s" % (what, kind, region, PLACEMENT_KINDS.keys(), names))
    info = AotBoardInfo(
        name = ctx.label.name,
        core = ctx.attr.core,
        description = ctx.attr.description or ctx.label.name,
        regions = regions,
        code_region = code,
        ram_region = ram,
        stack_size = ctx.attr.stack_size,
        placement = dict(ctx.attr.placement),
        linker_script = ctx.file.linker_script,
        linker_script_template = ctx.file.linker_script_template,
        semihosting = ctx.attr.semihosting,
        qemu_machine = ctx.attr.qemu_machine,
        clock_hz = ctx.attr.clock_hz,
    )
    cc = cc_common.merge_cc_infos(cc_infos = [dep[CcInfo] for dep in ctx.attr.startup])
    return [info, cc]

_aot_board = rule(
    implementation = _aot_board_impl,
    doc = "A board: core, memory regions and how a firmware is linked for it (see aot_board).",
    attrs = {
        "core": attr.string(mandatory = True, values = CORES.keys(), doc = "Cortex-M core (toolchains/cores.bzl)."),
        "description": attr.string(doc = "One line shown in image reports."),
        "regions": attr.string_list(mandatory = True, doc = "aot_memory_region(...) values, in address order."),
        "code_region": attr.string(doc = "Region of vectors, code, rodata, .data load image (default: first rx)."),
        "ram_region": attr.string(doc = "Region of .data, .bss, heap, stack (default: first writable)."),
        "stack_size": attr.int(default = 8192, doc = "Stack bytes at the top of ram_region."),
        "placement": attr.string_dict(doc = "Default placement of firmwares for this board: kind -> region."),
        "linker_script": attr.label(allow_single_file = True, doc = "Your own complete linker script."),
        "linker_script_template": attr.label(
            allow_single_file = True,
            default = "//toolchains/boards:sections.ld.tpl",
            doc = "Template filled from the regions and the firmware's placement (see sections.ld.tpl).",
        ),
        "startup": attr.label_list(
            providers = [CcInfo],
            doc = "cc_library targets with the vector table and reset handler (linked whole: alwayslink); the " +
                  "aot_board macro defaults it from `semihosting`.",
        ),
        "semihosting": attr.bool(default = True, doc = "Link newlib's rdimon (output and exit via semihosting)."),
        "qemu_machine": attr.string(doc = "qemu-system-arm -M value that runs this board's images, if any."),
        "clock_hz": attr.int(doc = "The core's clock in Hz: firmware size reports turn the estimated instructions per inference into a time (an estimate)."),
    },
    provides = [AotBoardInfo, CcInfo],
)

def aot_board(name, core, regions, **kwargs):
    """A board for `aot_firmware(board = ...)`: `<name>` (AotBoardInfo + its startup) and `<name>_platform`.

    Args:
      name: board name.
      core: Cortex-M core, e.g. "cortex-m7".
      regions: memory map, a list of `aot_memory_region(name, origin, length, attributes)`.
      **kwargs: code_region, ram_region, stack_size, placement, linker_script, linker_script_template, startup,
        semihosting, qemu_machine, clock_hz (the core's clock in Hz: the firmware's size report then gives an
        estimated time per inference), description, visibility, tags. `semihosting = False` (every real board
        without a debugger) links the start-up `//toolchains/boards:startup_bare`: newlib's system calls are weak
        stubs, stdout goes to the weak hook `void aot_putchar(unsigned char)` and exit() to
        `void aot_exit(int)` (header `aot_board_io.h`), which the firmware defines for its UART; give `startup`
        to use your own vector table and clocks instead.
    """
    if "startup" not in kwargs:
        # Without semihosting (a real chip), the start-up whose newlib system calls are weak stubs writing to the
        # aot_putchar hook; with it, the one that prints and exits through the debugger (QEMU).
        bare = not kwargs.get("semihosting", True)
        kwargs["startup"] = [str(Label("//toolchains/boards:startup_bare" if bare else "//toolchains/boards:startup"))]
    native.platform(
        name = name + "_platform",
        constraint_values = [
            "@platforms//os:none",
            "@platforms//cpu:arm",
            str(Label("//toolchains:" + core)),
            # The CRT of every board of a core is built once, under //toolchains:<core>_platform (per_core.bzl).
            str(Label("//toolchains:aot_board_platform")),
        ],
        visibility = kwargs.get("visibility"),
    )
    _aot_board(name = name, core = core, regions = regions, **kwargs)

def board_platform(board):
    """The platform label of a board Label (aot_board's `<name>_platform`), as a string for a transition.

    str() of a Label names the target explicitly and, on Bazel 7+ with bzlmod, spells the repository canonically
    (`@@...`), which a command-line option needs."""
    return str(board) + "_platform"
