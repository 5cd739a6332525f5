"""Bench images built with plain flags only: the generated C and the whole CRT compiled as a CMake, Make or IDE
user compiles them (`arm-none-eabi-gcc -mcpu=<core> ... -O2 -std=c99`, or -Os), none of this project's copts.

`bench_plain_model` declares, per board and optimization level, the image `<name>_<board>_plain_<O2|Os>.elf`
(bench/plain_build.py) with the `.size.json` and `.model.json` the runner reads beside every bench ELF, and returns
the runner's `--entry` arguments for them.  The runner measures them like the Bazel-built images (bench/README.md).
"""

load("//aot_rules/private:board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS", "board_transition")
load("//aot_rules/private:link_layout.bzl", "linker_substitutions", "resolve_placement")
load("//aot_rules/private:providers.bzl", "AotBoardInfo")
load("//toolchains:cores.bzl", "BOARDS", "CORES")

def _plain_linker_script_impl(ctx):
    board = ctx.attr.board[0][AotBoardInfo]
    script = ctx.actions.declare_file(ctx.label.name + ".ld")
    ctx.actions.expand_template(
        template = board.linker_script or board.linker_script_template,
        output = script,
        substitutions = linker_substitutions(board, resolve_placement(board, {}, str(ctx.label))),
    )
    return [DefaultInfo(files = depset([script]))]

_plain_linker_script = rule(
    implementation = _plain_linker_script_impl,
    doc = "The board's linker script with its default placement (what aot_firmware links with).",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "board": attr.label(mandatory = True, cfg = board_transition, providers = [AotBoardInfo]),
    }),
)

def _opt_flags(opt):
    return "--opt=-" + opt

def bench_plain_crt(boards, opts = ("O2", "Os")):
    """`plain_crt_<core>_<opt>`: the CRT's files compiled with plain flags into one archive per core and level."""
    for core in sorted({BOARDS[b]["core"]: None for b in boards}.keys()):
        for opt in opts:
            native.genrule(
                name = "plain_crt_%s_%s" % (core, opt),
                srcs = ["//crt:sources"],
                outs = ["plain_crt_%s_%s.a" % (core, opt)],
                cmd = "$(location //bench:plain_build) --core_flags '%s' %s --out $@ $(locations //crt:sources)" % (
                    " ".join(CORES[core]),
                    _opt_flags(opt),
                ),
                tools = ["//bench:plain_build"],
                tags = ["manual"],
            )

def bench_plain_model(name, model, boards, opts = ("O2", "Os"), compiler_flags = []):
    """Plain-flag images of `model` (already a bench_model `name` on those boards: its main, reference data and
    linker scripts are reused).

    Args:
      name: the bench name (prefix) of the model.
      model: label of the .tflite file.
      boards: boards to build it for.
      opts: optimization levels, "O2" and/or "Os".
      compiler_flags: extra `aotc compile` flags (the bench_model's).
    Returns:
      opt -> (the runner's --entry arguments, the runfiles they need).
    """
    out = {opt: ([], []) for opt in opts}
    for board in boards:
        spec = BOARDS[board]
        core = spec["core"]

        # The model's C for the core, in a directory of its own (the bench_model's library writes the same names).
        sub = "%s_%s_plain" % (name, board)
        gen = sub + "_gen"
        gen_outs = [sub + "/" + name + ext for ext in [".h", ".c", "_weights.c", ".json", "_plan.svg"]]
        native.genrule(
            name = gen,
            srcs = [model],
            outs = gen_outs,
            cmd = "$(location //compiler:aotc) compile $(location %s) --quiet --prefix %s --target %s --out_dir $(RULEDIR)/%s%s" % (
                model,
                name,
                core,
                sub,
                "".join([" " + f for f in compiler_flags]),
            ),
            tools = ["//compiler:aotc"],
            tags = ["manual"],
        )
        sources = [":" + f for f in gen_outs[:3]]
        ld = sub + "_ld"
        _plain_linker_script(name = ld, board = "//toolchains/boards:" + board, tags = ["manual"])
        report = ":" + gen_outs[3]
        for opt in opts:
            fw = "%s_%s_plain_%s" % (name, board, opt)
            regions = [
                "--region=FLASH:%d:%d:rx" % spec["flash"],
                "--region=RAM:%d:%d:rwx" % spec["ram"],
            ]
            native.genrule(
                name = fw,
                srcs = sources + [
                    report,
                    ":%s_ref_gen" % name,
                    ":%s_main" % name,
                    ":" + ld,
                    "//crt:sources",
                    ":plain_crt_%s_%s" % (core, opt),
                    "//toolchains/boards:startup.c",
                ],
                outs = [fw + ".elf", fw + ".size.json", fw + ".size.txt", fw + ".model.json"],
                cmd = " && ".join([
                    "$(location //bench:plain_build) --core_flags '%s' %s --linker_script $(location :%s) --crt $(location :plain_crt_%s_%s) --out $(location %s.elf) %s $(locations :%s_ref_gen) $(locations :%s_main) $(locations //crt:sources) $(location //toolchains/boards:startup.c)" % (
                        " ".join(CORES[core]),
                        _opt_flags(opt),
                        ld,
                        core,
                        opt,
                        fw,
                        " ".join(["$(location %s)" % f for f in sources]),
                        name,
                        name,
                    ),
                    "cp $(location %s) $(location %s.model.json)" % (report, fw),
                    "$(location //toolchains/tools:elf_size) --elf=$(location %s.elf) --name=%s --board=%s --flash_bytes=%d --ram_bytes=%d --json_out=$(location %s.size.json) --text_out=$(location %s.size.txt) --objdump=arm-none-eabi-objdump --model=%s=$(location %s) %s" % (
                        fw,
                        fw,
                        board,
                        spec["flash"][1],
                        spec["ram"][1],
                        fw,
                        fw,
                        name,
                        report,
                        " ".join(regions),
                    ),
                ]),
                tools = ["//bench:plain_build", "//toolchains/tools:elf_size"],
                tags = ["manual"],
            )
            out[opt][0].append("--entry=%s|%s|%s|%s|$(rootpath %s)|$(rootpath :%s.elf)" % (
                name,
                board,
                core,
                spec["qemu_machine"],
                model,
                fw,
            ))
            out[opt][1].extend([":%s.elf" % fw, ":%s.size.json" % fw, ":%s.model.json" % fw])
    return out
