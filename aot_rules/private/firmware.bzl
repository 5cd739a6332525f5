"""`aot_firmware`: a cc_binary linked for a board through a platform transition, plus .bin and a size report."""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//toolchains:cores.bzl", "BOARDS")
load(":cc_tools.bzl", "AotCcToolsInfo")
load(":linked_models.bzl", "AotLinkedModelsInfo", "linked_models_aspect")
load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS", "board_transition")
load(":providers.bzl", "AotFirmwareInfo")

def _aot_firmware_impl(ctx):
    board = BOARDS[ctx.attr.board]
    tools = ctx.attr._cc_tools[0][AotCcToolsInfo]
    linked = ctx.attr.binary[0][DefaultInfo].files.to_list()
    if len(linked) != 1:
        fail("aot_firmware: expected one linked file from %s, got %s" % (ctx.attr.binary[0].label, linked))

    elf = ctx.actions.declare_file(ctx.label.name + ".elf")
    ctx.actions.symlink(output = elf, target_file = linked[0])

    bin = ctx.actions.declare_file(ctx.label.name + ".bin")
    ctx.actions.run(
        executable = tools.objcopy,
        arguments = ["-O", "binary", elf.path, bin.path],
        inputs = depset([elf], transitive = [tools.files]),
        outputs = [bin],
        mnemonic = "AotObjcopy",
        progress_message = "Extracting binary image of %s" % ctx.label,
    )

    models = ctx.attr.binary[0][AotLinkedModelsInfo].models.to_list()
    size_json = ctx.actions.declare_file(ctx.label.name + ".size.json")
    size_txt = ctx.actions.declare_file(ctx.label.name + ".size.txt")
    ctx.actions.run(
        executable = ctx.executable._elf_size,
        arguments = [
            "--elf=" + elf.path,
            "--name=" + str(ctx.label),
            "--board=" + ctx.attr.board,
            "--flash_bytes=%d" % board["flash"][1],
            "--ram_bytes=%d" % board["ram"][1],
            "--json_out=" + size_json.path,
            "--text_out=" + size_txt.path,
            "--flash_budget=" + ctx.attr.flash_budget,
            "--ram_budget=" + ctx.attr.ram_budget,
            "--objdump=" + tools.objdump,
        ] + ["--model=%s=%s" % (m.prefix, m.report.path) for m in models],
        inputs = depset([elf] + [m.report for m in models], transitive = [tools.files]),
        outputs = [size_json, size_txt],
        mnemonic = "AotSizeReport",
        progress_message = "Size report of %s" % ctx.label,
    )

    return [
        DefaultInfo(files = depset([elf, bin, size_txt]), runfiles = ctx.runfiles(files = [elf])),
        AotFirmwareInfo(
            elf = elf,
            bin = bin,
            size_report = size_json,
            board = ctx.attr.board,
            core = board["core"],
            qemu_machine = board["qemu_machine"],
        ),
        OutputGroupInfo(
            elf = depset([elf]),
            size_report = depset([size_json, size_txt]),
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
        "board": attr.string(mandatory = True, values = BOARDS.keys(), doc = "Board from toolchains/cores.bzl."),
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
    }),
    provides = [AotFirmwareInfo],
)

def aot_firmware(name, board, srcs = [], deps = [], copts = [], linkopts = [], defines = [], flash_budget = "",
                 ram_budget = "", compilation_mode = "", **kwargs):
    """A firmware image for `board`: `<name>.elf`, `<name>.bin` and `<name>.size.txt`/`.size.json`.

    The sources are compiled with the board's core flags (one platform transition, so a plain host `bazel build`
    builds it), linked with the board's startup code and linker script, with semihosting for output and exit.

    Args:
      name: target name.
      board: one of microbit, mps2-an385, mps2-an386, mps2-an500, mps2-an505, mps3-an547.
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
      **kwargs: visibility, tags, testonly, ...
    """
    if board not in BOARDS:
        fail("aot_firmware(name = \"%s\"): unknown board \"%s\"; boards: %s" % (name, board, ", ".join(BOARDS)))
    binary = "_%s.elf" % name
    linker_script = str(Label("//toolchains/boards:%s_ld" % board))
    cc_binary(
        name = binary,
        srcs = srcs,
        deps = deps + [str(Label("//toolchains/boards:%s_startup" % board))],
        copts = copts,
        additional_linker_inputs = [linker_script],
        # Startup code comes from the board library; output and exit go through semihosting (rdimon).
        linkopts = ["-nostartfiles", "--specs=rdimon.specs", "-T$(location %s)" % linker_script] + linkopts,
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
        compilation_mode = compilation_mode,
        flash_budget = flash_budget,
        ram_budget = ram_budget,
        **kwargs
    )
