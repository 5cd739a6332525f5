"""`aot_perf_test`: a performance budget as a test: the first inference under QEMU, counted, against a budget.

`aot_perf_firmware` links one or more model libraries for a board with a generated main() (gen_perf_main.py) that
runs each model's first inference between two marker functions; `aot_perf_test` runs that firmware once under QEMU
with the instruction-counting TCG plugin (toolchains/qemu/insn_count_plugin.c, the benchmarks' counter) and checks
each model's instructions, run stack and planned workspace against its budget (perf_check.py). Instruction counts
are exact and do not vary from run to run, so a budget a change exceeds fails `bazel test` every time, with the
measured figure, the budget and the layers that cost the most.
"""

load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS", "board_transition")
load(":cc_tools.bzl", "AotCcToolsInfo")
load(":copts.bzl", "AOT_C_COPTS")
load(":firmware.bzl", "aot_firmware", "board_label")
load(":linked_models.bzl", "AotLinkedModelsInfo", "linked_models_aspect")
load(":providers.bzl", "AotFirmwareInfo")

_FIGURES = ["instructions", "stack", "workspace"]

def _perf_main_impl(ctx):
    reports = []
    prefixes = {}
    for lib in ctx.attr.libraries:
        models = lib[AotLinkedModelsInfo].models.to_list()
        if not models:
            fail("aot_perf_firmware(name = \"%s\"): %s is not an aot_model_library (no generated model in it)" % (ctx.attr.firmware, lib.label))
        for m in models:
            if m.prefix in prefixes:
                fail("aot_perf_firmware(name = \"%s\"): two models with prefix \"%s\" (%s and %s)" % (ctx.attr.firmware, m.prefix, prefixes[m.prefix], lib.label))
            prefixes[m.prefix] = lib.label
            reports.append(m.report)

    # In a directory of its own: the quoted #include of each model's header looks beside this file first, where an
    # older build may have left a header of the same name for this configuration (an unsandboxed build finds it).
    out = ctx.actions.declare_file(ctx.label.name + "/" + ctx.label.name + ".c")
    args = ctx.actions.args()
    args.add("--manifest")
    args.add_all(reports)
    args.add("--out", out)
    ctx.actions.run(
        executable = ctx.executable._gen,
        arguments = [args],
        inputs = reports,
        outputs = [out],
        mnemonic = "AotPerfMain",
        progress_message = "Writing the perf firmware main() of %s" % ctx.label,
    )
    return [DefaultInfo(files = depset([out]))]

_aot_perf_main = rule(
    implementation = _perf_main_impl,
    doc = "The main() of a perf firmware: each library's first inference between the counting markers.",
    attrs = {
        "libraries": attr.label_list(mandatory = True, providers = [CcInfo], aspects = [linked_models_aspect]),
        "firmware": attr.string(doc = "Name of the firmware, for messages."),
        "_gen": attr.label(default = "//aot_rules/private:gen_perf_main", cfg = "exec", executable = True),
    },
)

def aot_perf_firmware(name, libraries, board, compilation_mode = "opt", **kwargs):
    """A firmware for `board` that runs the first inference of each of `libraries` between the counting markers.

    One image (and so one QEMU run) for several models: aot_perf_test(firmware = ...) checks the budgets of all.

    Args:
      name: target name.
      libraries: aot_model_library targets (distinct prefixes), run in this order.
      board: a built-in board name or an aot_board label with a qemu_machine.
      compilation_mode: the mode the image (models and CRT included) is built in whatever the command line
        says, so that the counts do not change with `-c` (default "opt", -O2: what you ship and what the
        benchmarks measure); "" for the command line's.
      **kwargs: testonly, tags, visibility, ...
    """
    _aot_perf_main(
        name = name + "_main",
        libraries = libraries,
        firmware = name,
        testonly = kwargs.get("testonly"),
        tags = ["manual"],
        visibility = ["//visibility:private"],
    )
    aot_firmware(
        name = name,
        srcs = [":" + name + "_main"],
        deps = libraries,
        board = board,
        copts = AOT_C_COPTS,
        compilation_mode = compilation_mode,
        **kwargs
    )

def _sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _aot_perf_test_impl(ctx):
    fw = ctx.attr.firmware[AotFirmwareInfo]
    if not fw.qemu_machine:
        fail("aot_perf_test(name = \"%s\"): board %s of %s has no qemu_machine" % (ctx.label.name, fw.board_label, ctx.attr.firmware.label))
    tools = ctx.attr._cc_tools[0][AotCcToolsInfo]
    manifests = ctx.attr.firmware[OutputGroupInfo].model_manifests.to_list()
    plugin = ctx.file._plugin
    checker = ctx.executable._checker
    args = [
        checker.short_path,
        "--elf=" + fw.elf.short_path,
        "--machine=" + fw.qemu_machine,
        "--board=" + fw.board,
        "--core=" + fw.core,
        "--plugin=" + plugin.short_path,
        "--objdump=" + tools.objdump,
        "--layers=%d" % ctx.attr.layers,
        "--timeout=%d" % ctx.attr.timeout_seconds,
    ]
    args += ["--manifest=" + m.short_path for m in manifests]
    args += ["--budget=%s=%s" % (k, v) for k, v in sorted(ctx.attr.budgets.items())]
    args += ["--expect_failure=" + e for e in ctx.attr.must_fail_with]
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(
        script,
        "#!/bin/sh\n# Generated by aot_perf_test: the budgets of %s on QEMU %s.\nexec %s\n" % (
            ctx.attr.firmware.label,
            fw.qemu_machine,
            " ".join([_sh_quote(a) for a in args]),
        ),
        is_executable = True,
    )
    runfiles = ctx.runfiles(files = [fw.elf, plugin] + manifests, transitive_files = tools.files)
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

_aot_perf_test = rule(
    implementation = _aot_perf_test_impl,
    test = True,
    doc = "Runs an aot_perf_firmware under QEMU with the instruction counter; fails over a budget.",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "firmware": attr.label(mandatory = True, providers = [AotFirmwareInfo], doc = "An aot_perf_firmware."),
        "board": attr.label(mandatory = True, cfg = board_transition, doc = "The firmware's board (for its toolchain's objdump)."),
        "budgets": attr.string_dict(doc = "prefix (\"\": the only model) -> instructions:N,stack:N,workspace:N."),
        "layers": attr.int(default = 5, doc = "How many of the worst layers a failure lists."),
        "must_fail_with": attr.string_list(doc = "Fixture: the check must fail, saying each of these."),
        "timeout_seconds": attr.int(default = 600, doc = "QEMU time limit."),
        "_cc_tools": attr.label(default = "//aot_rules/private:cc_tools", cfg = board_transition),
        "_plugin": attr.label(default = "//toolchains/qemu:libaot_insn_count.so", allow_single_file = True, cfg = "exec"),
        "_checker": attr.label(default = "//aot_rules/private:perf_check", executable = True, cfg = "target"),
    }),
)

def _budget_spec(budget, what):
    for key in budget:
        if key not in _FIGURES:
            fail("%s: unknown budget \"%s\" (expected %s)" % (what, key, ", ".join(_FIGURES)))
    return ",".join(["%s:%d" % (k, budget[k]) for k in _FIGURES if budget.get(k)])

def aot_perf_test(
        name,
        board,
        library = None,
        firmware = None,
        max_instructions = 0,
        max_stack = 0,
        max_workspace = 0,
        budgets = {},
        layers = 5,
        compilation_mode = "opt",
        must_fail_with = [],
        timeout_seconds = 600,
        tags = [],
        size = "small",
        **kwargs):
    """A performance budget as a test: fails when the first inference costs more than the budget.

    The model runs once under QEMU with the instruction-counting plugin; the test fails with the measured figure,
    the budget and the `layers` layers with the most instructions when a model exceeds any of its budgets:
    instructions of the first inference (exact and deterministic: the same on every run; instructions, not
    cycles), the run's stack high-water mark (bytes; painted stack) and the planned workspace (bytes, as compiled
    for the board's core). A budget of 0 is not checked. Tagged `qemu`.

    Args:
      name: test name.
      board: a built-in board name (e.g. "mps2-an386") or an aot_board label with a qemu_machine.
      library: an aot_model_library: the test builds `<name>_fw` (aot_perf_firmware) for it.
      firmware: instead of `library`, an aot_perf_firmware of several models for `board`, measured in one run.
      max_instructions: budget of the first inference (with `library`).
      max_stack: budget of the run's stack in bytes (with `library`).
      max_workspace: budget of the planned workspace in bytes (with `library`).
      budgets: with `firmware`, every model's budget: {"kws": {"instructions": 4000000, "stack": 600,
        "workspace": 17000}, ...} (keys: model prefixes; a model of the firmware without one fails the test).
      layers: how many of the most expensive layers a failure lists.
      compilation_mode: with `library`, the mode the image is built in (aot_perf_firmware; default "opt").
      must_fail_with: a fixture that must fail: the test passes iff the budget check fails and its message
        contains every one of these strings.
      timeout_seconds: QEMU time limit.
      tags: extra tags.
      size: test size.
      **kwargs: timeout, visibility, ...
    """
    what = "aot_perf_test(name = \"%s\")" % name
    if (library == None) == (firmware == None):
        fail("%s: give exactly one of library and firmware" % what)
    specs = {}
    if library != None:
        if budgets:
            fail("%s: with library, give max_instructions / max_stack / max_workspace, not budgets" % what)
        firmware = ":%s_fw" % name
        aot_perf_firmware(
            name = name + "_fw",
            libraries = [library],
            board = board,
            compilation_mode = compilation_mode,
            testonly = True,
            tags = ["manual"],
        )
        specs[""] = _budget_spec({"instructions": max_instructions, "stack": max_stack, "workspace": max_workspace}, what)
    else:
        if max_instructions or max_stack or max_workspace:
            fail("%s: with firmware, give every model's budget in budgets = {prefix: {...}}" % what)
        specs = {prefix: _budget_spec(b, what) for prefix, b in budgets.items()}
    _aot_perf_test(
        name = name,
        firmware = firmware,
        board = board_label(board),
        budgets = specs,
        layers = layers,
        must_fail_with = must_fail_with,
        timeout_seconds = timeout_seconds,
        tags = tags + (["qemu"] if "qemu" not in tags else []),
        size = size,
        **kwargs
    )
