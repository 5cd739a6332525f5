"""`aot_lto_unity_image`: every listed model test of a board, again, in ONE image built with -flto and a unity CRT.

The models' generated C, their `aotc testgen` tests and the CRT's files are the very outputs the QEMU model tests
of that board already build (taken through the same board transition, so no model is compiled or referenced again);
tests/lto_unity/build_image.py compiles the CRT as one translation unit and links everything with -flto -O2, and
run_image.py (a py_test beside the image) runs it under QEMU. One image and one QEMU run per board, whatever the number of models.
"""

load("//aot_rules/private:board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS", "board_transition")
load("//aot_rules/private:link_layout.bzl", "linker_substitutions", "resolve_placement")
load("//aot_rules/private:providers.bzl", "AotBoardInfo")
load("//toolchains:cores.bzl", "CORES")

def _files(targets):
    return [f for t in targets for f in t[DefaultInfo].files.to_list()]

def _image_impl(ctx):
    board = ctx.attr.board[0][AotBoardInfo]
    script = ctx.actions.declare_file(ctx.label.name + ".ld")
    ctx.actions.expand_template(
        template = board.linker_script or board.linker_script_template,
        output = script,
        substitutions = linker_substitutions(board, resolve_placement(board, {}, str(ctx.label))),
    )
    elf = ctx.actions.declare_file(ctx.label.name + ".elf")
    args = ctx.actions.args()
    args.add("--core_flags", " ".join(CORES[board.core]))
    args.add("--linker_script", script)
    args.add("--startup", ctx.file.startup)
    args.add("--out", elf)
    if ctx.attr.const_region:
        args.add("--const_region", ctx.attr.const_region)
    inputs = [script, ctx.file.startup]
    if len(ctx.attr.headers) != len(ctx.attr.tests) or len(ctx.attr.sources) != len(ctx.attr.tests):
        fail("%s: headers, sources and tests must pair up" % ctx.label)
    for header, sources, test in zip(ctx.attr.headers, ctx.attr.sources, ctx.attr.tests):
        files = [f for f in _files([header]) if f.path.endswith(".h")] + _files([sources]) + _files([test])
        args.add("--model", ",".join([f.path for f in files]))
        inputs += files
    crt = _files(ctx.attr.crt)
    args.add_all(crt)
    ctx.actions.run(
        executable = ctx.executable._build,
        arguments = [args],
        inputs = inputs + crt,
        outputs = [elf],
        mnemonic = "AotLtoUnityImage",
        # arm-none-eabi-gcc from the PATH, as aot_firmware's toolchain and bench/plain_build.py find it.
        use_default_shell_env = True,
        progress_message = "Linking %d models with -flto and a unity CRT for %s" % (len(ctx.attr.tests), board.name),
    )
    return [DefaultInfo(files = depset([elf]), runfiles = ctx.runfiles(files = [elf]))]

_board_list = attr.label_list(cfg = board_transition, allow_files = True, mandatory = True)

_lto_unity_image = rule(
    implementation = _image_impl,
    doc = "One ELF: the listed models' tests, the CRT as one translation unit, compiled and linked with -flto.",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "board": attr.label(mandatory = True, cfg = board_transition, providers = [AotBoardInfo]),
        "headers": _board_list,
        "sources": _board_list,
        "tests": _board_list,
        "const_region": attr.string(doc = "ORIGIN:LENGTH of the read-only memory .rodata moves to (build_image.py)."),
        "crt": attr.label_list(cfg = board_transition, allow_files = True, default = ["//crt:sources"]),
        "startup": attr.label(allow_single_file = True, default = "//toolchains/boards:startup.c"),
        "_build": attr.label(default = "//tests/lto_unity:build_image", executable = True, cfg = "exec"),
    }),
)

def aot_lto_unity_image(name, board, models, const_region = "", **kwargs):
    """`<name>` (`<name>.elf`): one -flto, unity-CRT image holding the tests of every model of `models`.

    A py_test of run_image.py runs it (declared in the BUILD file: the py_* rules are not `native` in every Bazel).

    Args:
      name: target name.
      board: built-in board name (a target of //toolchains/boards).
      models: labels of the stems of existing model tests: for an aot_model_test `X` (or a model `X` of an
        aot_model_test_batch), `//pkg:X`, whose `X_model` library and `X_src` test source are reused.
      const_region: "ORIGIN:LENGTH": link `.rodata` (weights, reference cases) there instead of the code region, for a
        board whose code region cannot hold every model's constants (memory QEMU's machine has, the board need not).
      **kwargs: tags, visibility, ...
    """
    _lto_unity_image(
        name = name,
        board = "//toolchains/boards:" + board,
        headers = [m + "_model_header" for m in models],
        sources = [m + "_model_c_sources" for m in models],
        tests = [m + "_src" for m in models],
        const_region = const_region,
        testonly = True,
        **kwargs
    )

def _stem(label, suffix):
    """`X` of a same-package label `:X<suffix>` (or `//pkg:X<suffix>`), else None."""
    name = label.split(":")[-1]
    return name[:-len(suffix)] if name.endswith(suffix) else None

def tested_models(board):
    """The stems of every model test declared so far in this BUILD file that runs on `board` under QEMU.

    Read from the rules aot_model_test (srcs `:X_src`) and aot_model_test_batch (deps `:X_case`) declare for a
    board: the cc_binary `_<test>_<board>_fw.elf` of each aot_qemu_test `<test>_<board>`. A model test added for
    the board so joins its image without a list to keep; call this after the tests.
    """
    rules = native.existing_rules()
    stems = []
    for name, rule in rules.items():
        test = name[:-len("_%s" % board)] if name.endswith("_" + board) else None
        if test == None or rule["kind"] != "_aot_qemu_test":
            continue
        elf = rules.get("_%s_%s_fw.elf" % (test, board))
        if elf == None:
            continue
        found = [_stem(s, "_src") for s in elf.get("srcs", [])] + [_stem(d, "_case") for d in elf.get("deps", [])]
        for stem in found:
            if stem != None and stem not in stems:
                stems.append(stem)
    return sorted(stems)
