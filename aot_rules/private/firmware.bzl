"""`aot_firmware`: a cc_binary linked for a board through a platform transition, plus .bin and a size report."""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//toolchains:cores.bzl", "BOARDS")
load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS", "board_transition")
load(":cc_tools.bzl", "AotCcToolsInfo", "check_bare_metal_toolchain")
load(":link_layout.bzl", "aot_link_layout", "resolve_placement")
load(":linked_models.bzl", "AotLinkedModelsInfo", "linked_models_aspect")
load(":providers.bzl", "AotBoardInfo", "AotFirmwareInfo")

def board_label(board):
    """The aot_board label of `board`: one of the six built-in names (an alias of //toolchains/boards:<name>)
    or a label."""
    if board in BOARDS:
        return str(Label("//toolchains/boards:" + board))
    return board

def _region_args(board, placement, budgets):
    args = ["--region=%s:%d:%d:%s" % (r.name, r.origin, r.length, r.attributes) for r in board.regions]
    args += ["--placement=%s=%s" % (k, v) for k, v in sorted(placement.items())]
    names = [r.name for r in board.regions]
    for region, budget in sorted(budgets.items()):
        if region not in names:
            fail("aot_firmware: region_budgets names \"%s\"; board %s has regions %s" % (region, board.name, ", ".join(names)))
        args.append("--region_budget=%s=%s" % (region, budget))
    return args

def _aot_firmware_impl(ctx):
    board = ctx.attr.board[0][AotBoardInfo]
    placement = resolve_placement(board, ctx.attr.placement, "aot_firmware(name = \"%s\")" % ctx.label.name)
    regions = {r.name: r for r in board.regions}
    tools = ctx.attr._cc_tools[0][AotCcToolsInfo]
    check_bare_metal_toolchain(tools, "aot_firmware(name = \"%s\")" % ctx.label.name, board.name)
    linked = ctx.attr.binary[0][DefaultInfo].files.to_list()
    if len(linked) != 1:
        fail("aot_firmware: expected one linked file from %s, got %s" % (ctx.attr.binary[0].label, linked))

    elf = ctx.actions.declare_file(ctx.label.name + ".elf")
    ctx.actions.symlink(output = elf, target_file = linked[0])

    # The .bin is the code region's image (what a flash programmer writes at its origin). Weights placed in another
    # read-only region (external flash, DDR) are left out of it: a raw binary spanning both would be filled with
    # zeros between them (1.5 GB from ITCM at 0x0 to DDR at 0x60000000); the .hex holds every region.
    elsewhere = []
    for r in board.regions:
        if r.name != board.code_region and "w" not in r.attributes and r.name in placement.values():
            elsewhere += ["-R", ".aot_" + r.name]
    bin = ctx.actions.declare_file(ctx.label.name + ".bin")
    hex = ctx.actions.declare_file(ctx.label.name + ".hex")
    ctx.actions.run(
        executable = tools.objcopy,
        arguments = ["-O", "binary"] + elsewhere + [elf.path, bin.path],
        inputs = depset([elf], transitive = [tools.files]),
        outputs = [bin],
        mnemonic = "AotObjcopy",
        progress_message = "Extracting binary image of %s" % ctx.label,
    )
    ctx.actions.run(
        executable = tools.objcopy,
        arguments = ["-O", "ihex", elf.path, hex.path],
        inputs = depset([elf], transitive = [tools.files]),
        outputs = [hex],
        mnemonic = "AotObjcopy",
        progress_message = "Extracting Intel hex image of %s" % ctx.label,
    )

    models = ctx.attr.binary[0][AotLinkedModelsInfo].models.to_list()
    size_json = ctx.actions.declare_file(ctx.label.name + ".size.json")
    size_txt = ctx.actions.declare_file(ctx.label.name + ".size.txt")
    stack_bounds = ctx.actions.declare_file(ctx.label.name + ".stack_bounds")
    has_budgets = ctx.attr.flash_budget or ctx.attr.ram_budget or ctx.attr.region_budgets
    problems = ctx.actions.declare_file(ctx.label.name + ".budget_problems.txt") if has_budgets else None

    # One warm worker process forks per report (compiler/worker.py); the arguments go in a parameter file.
    args = [
        "--elf=" + elf.path,
        "--name=" + str(ctx.label),
        "--board=" + board.name,
        "--flash_bytes=%d" % regions[board.code_region].length,
        "--ram_bytes=%d" % regions[board.ram_region].length,
        "--json_out=" + size_json.path,
        "--text_out=" + size_txt.path,
        "--stack_bounds_out=" + stack_bounds.path,
        "--flash_budget=" + ctx.attr.flash_budget,
        "--ram_budget=" + ctx.attr.ram_budget,
        "--objdump=" + tools.objdump,
        "--core=" + board.core,
        "--clock_hz=%d" % board.clock_hz,
    ] + _region_args(board, placement, ctx.attr.region_budgets) + ["--model=%s=%s" % (m.prefix, m.report.path) for m in models]
    if problems:
        args.append("--problems_out=" + problems.path)
    size_args = ctx.actions.args()
    size_args.add_all(args)
    size_args.use_param_file("@%s", use_always = True)
    size_args.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable._elf_size,
        arguments = [size_args],
        execution_requirements = {"supports-workers": "1"},
        inputs = depset([elf] + [m.report for m in models], transitive = [tools.files]),
        outputs = [size_json, size_txt, stack_bounds] + ([problems] if problems else []),
        mnemonic = "AotSizeReport",
        progress_message = "Size report of %s" % ctx.label,
    )
    checked = []
    if problems:
        # The size report always succeeds; this check fails the build with its paragraphs (budget_check.sh).
        budgets_ok = ctx.actions.declare_file(ctx.label.name + ".budgets_ok")
        ctx.actions.run(
            executable = ctx.executable._budget_check,
            arguments = [problems.path, budgets_ok.path],
            inputs = [problems],
            outputs = [budgets_ok],
            mnemonic = "AotBudgetCheck",
            progress_message = "Checking the budgets of %s" % ctx.label,
            execution_requirements = {"no-sandbox": "1"},
        )
        checked.append(budgets_ok)

    return [
        DefaultInfo(files = depset([elf, bin, hex, size_txt] + checked), runfiles = ctx.runfiles(files = [elf])),
        AotFirmwareInfo(
            elf = elf,
            bin = bin,
            size_report = size_json,
            stack_bounds = stack_bounds,
            board = board.name,
            board_label = ctx.attr.board[0].label,
            core = board.core,
            qemu_machine = board.qemu_machine,
            placement = placement,
        ),
        OutputGroupInfo(
            elf = depset([elf]),
            hex = depset([hex]),
            size_report = depset([size_json, size_txt]),
            stack_bounds = depset([stack_bounds]),
            # The compiler manifests of the linked models as built for this board (their workspace includes the
            # scratch of the core's kernels, so it can differ from the same model's host build).
            model_manifests = depset([m.report for m in models]),
        ),
    ]

_aot_firmware = rule(
    implementation = _aot_firmware_impl,
    doc = "Links `binary` for `board` and adds a .bin and a size report.",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "binary": attr.label(
            mandatory = True,
            cfg = board_transition,
            aspects = [linked_models_aspect],
            doc = "The cc_binary to build for the board.",
        ),
        "board": attr.label(
            mandatory = True,
            cfg = board_transition,
            providers = [AotBoardInfo],
            doc = "An aot_board target.",
        ),
        "placement": attr.string_dict(doc = "kind (weights, workspace, state, io) -> region of the board."),
        "region_budgets": attr.string_dict(doc = "region -> budget (e.g. \"48K\"): the build fails above it."),
        "compilation_mode": attr.string(
            values = ["", "fastbuild", "dbg", "opt"],
            doc = "Build the image in this mode whatever the command line says (\"\": the command line's).",
        ),
        "flash_budget": attr.string(doc = "Fail the build if text + rodata + data exceed this (e.g. \"256K\")."),
        "ram_budget": attr.string(doc = "Fail the build if data + bss + stack exceed this (e.g. \"64K\")."),
        "_cc_tools": attr.label(default = "//aot_rules/private:cc_tools", cfg = board_transition),
        "_elf_size": attr.label(
            default = "//toolchains/tools:elf_size",
            cfg = "exec",
            executable = True,
        ),
        "_budget_check": attr.label(
            default = "//aot_rules/private:budget_check.sh",
            allow_single_file = True,
            cfg = "exec",
            executable = True,
        ),
    }),
    provides = [AotFirmwareInfo],
)

def aot_firmware(
        name,
        board,
        srcs = [],
        deps = [],
        copts = [],
        linkopts = [],
        defines = [],
        flash_budget = "",
        ram_budget = "",
        compilation_mode = "",
        placement = {},
        region_budgets = {},
        **kwargs):
    """A firmware image for `board`: `<name>.elf`, `<name>.bin` and `<name>.size.txt`/`.size.json`.

    The sources are compiled with the board's core flags (one platform transition, so a plain host `bazel build`
    builds it), linked with the board's startup code and linker script, with semihosting for output and exit.

    Args:
      name: target name.
      board: an aot_board label (e.g. "//boards:stm32f7"), or one of the built-in boards microbit, mps2-an385,
        mps2-an386, mps2-an500, mps2-an505, mps3-an547 (short for //toolchains/boards:<name>).
      srcs: C sources with `int main(void)`.
      deps: cc_library targets (e.g. aot_model_library targets, //crt).
      copts: extra compiler flags.
      linkopts: extra linker flags.
      defines: preprocessor defines.
      flash_budget: e.g. "256K": the build fails if the image's flash (text + rodata + data) is larger, naming
        the three largest symbols.
      ram_budget: e.g. "64K": the same for RAM (data + bss + stack).
      compilation_mode: "opt", "dbg" or "fastbuild" to build the image (models and CRT included) in that mode
        whatever the command line says; default: the command line's.
      placement: where the models' memory goes, kind -> region of the board: "weights" (a read-only region),
        "workspace", "state", "io" (writable regions). Default: the board's placement, else weights in its code
        region and the rest in its RAM region. The buffers must be defined with the models' section macros
        (`<PREFIX>_SECTION_WORKSPACE`, ...; aot_workspace and generated tests do).
      region_budgets: region -> budget, e.g. {"DTCM": "48K"}: the build fails if the region holds more, naming
        the region, the figure and what is in it (which model's weights, workspace, ...).
      **kwargs: visibility, tags, testonly, ...
    """
    board = board_label(board)
    binary = "_%s.elf" % name
    layout = "_%s_layout" % name
    aot_link_layout(
        name = layout,
        board = board,
        placement = placement,
        firmware = name,
        tags = ["manual"],
        testonly = kwargs.get("testonly"),
        visibility = ["//visibility:private"],
    )
    cc_binary(
        name = binary,
        srcs = srcs,
        # The layout carries the board's startup, its linker script and -nostartfiles (and rdimon's specs when
        # the board does output and exit through semihosting).
        deps = deps + [":" + layout],
        copts = copts,
        linkopts = linkopts,
        defines = defines,
        target_compatible_with = ["@platforms//os:none"],
        tags = ["manual"],
        testonly = kwargs.get("testonly"),
        visibility = ["//visibility:private"],
    )
    _aot_firmware(
        name = name,
        binary = ":" + binary,
        board = board,
        placement = placement,
        region_budgets = region_budgets,
        compilation_mode = compilation_mode,
        flash_budget = flash_budget,
        ram_budget = ram_budget,
        **kwargs
    )
