"""Macros of the benchmark suite: one model compiled, linked into the bench firmware for each board, at -O2.

`bench_model` declares the firmware and returns the runner's arguments for it; `bench_build_info` writes what the
report states about how every image was built (the exact flags per core, the boards' memory), from the same tables
the toolchain and the linker scripts are generated from, so the report cannot drift from the build.
"""

load("//aot_rules:defs.bzl", "aot_firmware", "aot_model_library", "aot_reference_data")
load("//aot_rules/private:copts.bzl", "AOT_C_COPTS")
load("//toolchains:cores.bzl", "BOARDS", "CORES")
load("//toolchains/arm_gnu:cc_toolchain_config.bzl", "COMPILE_FLAGS", "LINK_FLAGS", "MODE_COMPILE_FLAGS")

# Every bench image is built in this mode (aot_firmware's compilation_mode), whatever the command line says.
BENCH_COMPILATION_MODE = "opt"

def bench_model(name, model, boards, unfit = {}, compilation_mode = BENCH_COMPILATION_MODE, compiler_flags = []):
    """`<name>` for `model`, a bench firmware `<name>_<board>` per board (built with -c opt), and the arguments
    that tell the runner (run_bench.py) where everything is.

    Args:
      name: the model's prefix in the bench (and the key of reference_figures.json).
      model: label of the .tflite file.
      boards: boards to build and measure the model on.
      unfit: boards the model is known not to fit (or a model the compiler does not support: no boards); not
        built, the runner says why (from the model's needs and the board's memory, or the compiler's error) and
        fails if the model would in fact fit.
      compilation_mode: the firmware's -c mode.
      compiler_flags: extra `aotc compile` flags of the model library.
    Returns:
      The runner arguments for this model.
    """
    args = ["--unfit=%s|%s|%s|$(rootpath %s)" % (name, board, BOARDS[board]["core"], model) for board in unfit]
    if not boards:
        return args
    aot_model_library(name = name, model = model, compiler_flags = compiler_flags, tags = ["manual"])
    aot_reference_data(name = name + "_ref", model = model, prefix = name, count = 1, seed = 1, tags = ["manual"])
    native.genrule(
        name = name + "_main",
        srcs = [":%s_report" % name],
        # In a directory of its own: a quoted #include looks beside the including file first, where an older build
        # may have left a header of the same name for this configuration (an unsandboxed build would find it).
        outs = ["_%s_main/bench_%s.c" % (name, name)],
        cmd = "$(location //bench:gen_bench_main) --manifest $(locations :%s_report) --out $@" % name,
        tools = ["//bench:gen_bench_main"],
        tags = ["manual"],
    )
    for board in boards:
        fw = "%s_%s" % (name, board)
        aot_firmware(
            name = fw,
            srcs = [":%s_main" % name],
            board = board,
            compilation_mode = compilation_mode,
            copts = AOT_C_COPTS,
            deps = [":" + name, ":%s_ref" % name],
            tags = ["manual"],
        )
        native.filegroup(name = fw + "_size", srcs = [":" + fw], output_group = "size_report", tags = ["manual"])
        native.filegroup(name = fw + "_elf", srcs = [":" + fw], output_group = "elf", tags = ["manual"])

        # The model's report as compiled for this board's core (kernels, scratch, workspace), under a name of its
        # own: the runfiles path of <name>.json is the same for every board.
        native.filegroup(name = fw + "_manifests", srcs = [":" + fw], output_group = "model_manifests", tags = ["manual"])
        native.genrule(
            name = fw + "_manifest",
            srcs = [":%s_manifests" % fw],
            outs = ["%s.model.json" % fw],
            cmd = "cp $(SRCS) $@",
            tags = ["manual"],
        )

        # The runner finds <fw>.size.json and <fw>.model.json (the model's report for this board) beside the ELF.
        args.append("--entry=%s|%s|%s|%s|$(rootpath %s)|$(rootpath :%s_elf)" % (
            name,
            board,
            BOARDS[board]["core"],
            BOARDS[board]["qemu_machine"],
            model,
            fw,
        ))
    return args

def bench_data(entries):
    """The runfiles the runner needs for `entries` [(name, model, boards, unfit)]."""
    data = []
    for name, model, boards, _unfit in entries:
        data += [model] + ([":%s_report" % name] if boards else [])
        for board in boards:
            data += [":%s_%s_elf" % (name, board), ":%s_%s_size" % (name, board), ":%s_%s_manifest" % (name, board)]
    return data

def _bench_build_info_impl(ctx):
    mode_flags = MODE_COMPILE_FLAGS[ctx.attr.compilation_mode]
    info = {
        "compilation_mode": ctx.attr.compilation_mode,
        # In command-line order: the core's flags (toolchain feature aot_core), the toolchain's defaults and the
        # mode's, then the copts of aot_rules' C (CRT, generated code, the bench main).
        "compile_flags": {
            core: flags + COMPILE_FLAGS + mode_flags + AOT_C_COPTS
            for core, flags in CORES.items()
        },
        # aot_firmware links with the board's startup library, newlib's semihosting specs and its linker script.
        "link_flags": {
            core: flags + LINK_FLAGS + ["-nostartfiles", "--specs=rdimon.specs", "-T<board>.ld"]
            for core, flags in CORES.items()
        },
        "boards": {
            board: {
                "core": spec["core"],
                "flash_bytes": spec["flash"][1],
                "ram_bytes": spec["ram"][1],
                "stack_bytes": spec["stack"],
            }
            for board, spec in BOARDS.items()
        },
    }
    out = ctx.actions.declare_file(ctx.label.name + ".json")
    ctx.actions.write(out, json.encode(info))
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

bench_build_info = rule(
    implementation = _bench_build_info_impl,
    doc = "Writes <name>.json: the bench images' compilation mode and exact flags per core, and every board's " +
          "flash, RAM and stack sizes (what the runner reports and checks 'does not fit' against).",
    attrs = {
        "compilation_mode": attr.string(
            default = BENCH_COMPILATION_MODE,
            values = MODE_COMPILE_FLAGS.keys(),
            doc = "The mode the images it describes are built in (bench_model's compilation_mode).",
        ),
    },
)
