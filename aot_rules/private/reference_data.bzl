"""Reference cases computed at build time with the model format's reference interpreter (TFLite Micro).

`aot_reference_gen` runs `aotc testgen` (a self-checking `<prefix>_test.c`) or `aotc refdata` (`<prefix>_ref.h` /
`<prefix>_ref.c`, the cases as const arrays) on seeded random inputs; `aot_reference_data` wraps the latter in a
cc_library so firmware can check a model on the target with known inputs.
"""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":aotc_action.bzl", "expand_compiler_flags", "run_aotc")
load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS")
load(":copts.bzl", "AOT_C_COPTS")

_OUTPUTS = {
    "testgen": ["_test.c"],
    "refdata": ["_ref.h", "_ref.c"],
}

def _one_config_impl(_settings, _attr):
    # The reference cases depend on the model, count and seed only, never on the board or mode a test is built
    # for: without this, `aot_model_test` computed the same cases once more for every board configuration (the
    # host's and each core's), and the interpreter runs were a large share of CI time.
    return {
        "//command_line_option:platforms": str(Label("//aot_rules/private:reference_platform")),
        "//command_line_option:compilation_mode": "fastbuild",
    }

_one_config = transition(
    implementation = _one_config_impl,
    inputs = [],
    outputs = ["//command_line_option:platforms", "//command_line_option:compilation_mode"],
)

# Also used by aot_quantize's action (quantize.bzl), whose result likewise depends on no board or mode.
ONE_CONFIG = _one_config

def _aot_reference_gen_impl(ctx):
    # testgen's source includes the model's header: it gets a directory of its own, so that, built for a board, it
    # cannot find the header generated for another configuration beside it (a quoted #include looks there first).
    # refdata's files include only each other, and users include `<prefix>_ref.h` from the package.
    subdir = ctx.label.name + "/" if ctx.attr.command == "testgen" else ""
    outs = [
        ctx.actions.declare_file(subdir + ctx.attr.prefix + suffix)
        for suffix in _OUTPUTS[ctx.attr.command]
    ]
    args = ctx.actions.args()
    args.add(ctx.attr.command)
    args.add(ctx.file.model)
    args.add("--quiet")
    args.add("--prefix", ctx.attr.prefix)
    args.add("--out_dir", outs[0].dirname)
    args.add("--count", str(ctx.attr.count))
    args.add("--seed", str(ctx.attr.seed))
    args.add_all(expand_compiler_flags(ctx))
    run_aotc(
        ctx,
        args,
        inputs = [ctx.file.model] + ctx.files.model_data,
        outputs = outs,
        mnemonic = "AotReference",
        progress_message = "Computing reference outputs of %s (%s)" % (ctx.file.model.short_path, ctx.attr.command),
    )
    return [
        DefaultInfo(files = depset(outs)),
        OutputGroupInfo(
            headers = depset([f for f in outs if f.extension == "h"]),
            c_sources = depset([f for f in outs if f.extension == "c"]),
        ),
    ]

aot_reference_gen = rule(
    implementation = _aot_reference_gen_impl,
    doc = "Seeded inputs and reference outputs of a model, as a checking test source or as C arrays.",
    cfg = _one_config,
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "model": attr.label(mandatory = True, allow_single_file = [".tflite", ".onnx"], doc = "The model file."),
        "model_data": attr.label_list(allow_files = True, doc = "Files the model reads beside it (ONNX external weights, --freeze_input .npy files)."),
        "compiler_flags": attr.string_list(doc = "The model library's `aotc compile` flags (the model-reading ones, --dim / --input_shape / --freeze_input, shape the cases; `$(location f)` of a model_data file expands to its path)."),
        "prefix": attr.string(mandatory = True, doc = "Prefix of the model library the data is for."),
        "command": attr.string(default = "refdata", values = _OUTPUTS.keys(), doc = "testgen or refdata."),
        "count": attr.int(default = 1, doc = "Number of seeded random input cases."),
        "seed": attr.int(default = 0, doc = "Seed of the random inputs."),
        "_compiler": attr.label(default = "//compiler:aotc", cfg = "exec", executable = True),
    }),
)

def aot_reference_data(name, model, prefix, count = 1, seed = 0, **kwargs):
    """A cc_library with `<prefix>_ref.h`: `<PREFIX>_REF_COUNT` seeded input cases and the reference outputs.

    Arrays are named `<prefix>_ref_<field>` (inputs) and `<prefix>_ref_<field>_want` (outputs), with the field
    names of the model library's `<prefix>.h`, case-major.

    Args:
      name: target name.
      model: the .tflite/.onnx model (the same file as the aot_model_library's).
      prefix: the aot_model_library's prefix.
      count: number of cases.
      seed: seed of the random inputs.
      **kwargs: visibility, testonly, tags, ...
    """
    aot_reference_gen(
        name = name + "_gen",
        model = model,
        prefix = prefix,
        command = "refdata",
        count = count,
        seed = seed,
        testonly = kwargs.get("testonly"),
        tags = kwargs.get("tags"),
        visibility = ["//visibility:private"],
    )
    for group in ["headers", "c_sources"]:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [":" + name + "_gen"],
            output_group = group,
            testonly = kwargs.get("testonly"),
            tags = kwargs.get("tags"),
            visibility = ["//visibility:private"],
        )
    cc_library(
        name = name,
        srcs = [":%s_c_sources" % name],
        hdrs = [":%s_headers" % name],
        copts = AOT_C_COPTS,
        strip_include_prefix = "/" + native.package_name(),
        # Linked into programs, not loaded as a shared library: no .so of the cases is linked.
        linkstatic = kwargs.pop("linkstatic", True),
        **kwargs
    )
