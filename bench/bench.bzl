"""Macros of the benchmark suite: one model compiled, linked into the bench firmware for each board, at -O2."""

load("//aot_rules:defs.bzl", "aot_firmware", "aot_model_library", "aot_reference_data")
load("//aot_rules/private:copts.bzl", "AOT_C_COPTS")
load("//toolchains:cores.bzl", "BOARDS")

def bench_model(name, model, boards):
    """`<name>` for `model`, a bench firmware `<name>_<board>` per board (built with -c opt), and the arguments
    that tell the runner (run_bench.py) where everything is. Returns the runner arguments for this model."""
    aot_model_library(name = name, model = model, tags = ["manual"])
    aot_reference_data(name = name + "_ref", model = model, prefix = name, count = 1, seed = 1, tags = ["manual"])
    native.genrule(
        name = name + "_main",
        srcs = [":%s_report" % name],
        outs = ["bench_%s.c" % name],
        cmd = "$(location //bench:gen_bench_main) --manifest $(locations :%s_report) --out $@" % name,
        tools = ["//bench:gen_bench_main"],
        tags = ["manual"],
    )
    args = []
    for board in boards:
        fw = "%s_%s" % (name, board)
        aot_firmware(
            name = fw,
            srcs = [":%s_main" % name],
            board = board,
            compilation_mode = "opt",
            copts = AOT_C_COPTS,
            deps = [":" + name, ":%s_ref" % name],
            tags = ["manual"],
        )
        native.filegroup(name = fw + "_size", srcs = [":" + fw], output_group = "size_report", tags = ["manual"])
        native.filegroup(name = fw + "_elf", srcs = [":" + fw], output_group = "elf", tags = ["manual"])

        # The runner finds <fw>.size.json beside the ELF and <name>.json (the model's report) in this package.
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
    """The runfiles the runner needs for `entries` [(name, model, boards)]."""
    data = []
    for name, model, boards in entries:
        data += [model, ":%s_report" % name]
        for board in boards:
            data += [":%s_%s_elf" % (name, board), ":%s_%s_size" % (name, board)]
    return data
