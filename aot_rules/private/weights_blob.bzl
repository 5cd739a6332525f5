"""`aot_weights_blob`: the weights blob of a model for the code of another model of the same architecture (an
aot_model_library with weights = "blob"), so a firmware built once runs either's weights (docs/weights-blob.md)."""

load("@rules_cc//cc:defs.bzl", "cc_library")
load(":aotc_action.bzl", "run_aotc")
load(":copts.bzl", "AOT_C_COPTS")
load(":providers.bzl", "AotModelInfo")

_IDENT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"

def blob_symbol(name):
    """The C array of the blob `name` embeds: the target name with every character not allowed in C made '_'."""
    symbol = "".join([c if c in _IDENT else "_" for c in name.elems()])
    return "_" + symbol if symbol[0] in "0123456789" else symbol

def _aot_weights_blob_impl(ctx):
    like = ctx.attr.like[AotModelInfo]
    if like.weights_blob == None:
        fail("%s: like = %s was compiled with its weights in the code; give it weights = \"blob\"." % (ctx.label, ctx.attr.like.label))
    out = ctx.actions.declare_file(ctx.label.name + ".bin")
    symbol = blob_symbol(ctx.label.name)
    header = ctx.actions.declare_file(symbol + ".h")
    source = ctx.actions.declare_file(symbol + ".c")
    args = ctx.actions.args()
    args.add("blob")
    args.add(ctx.file.model)
    args.add("--quiet")
    args.add("--like", like.report)
    args.add("--prefix", like.prefix)
    args.add("--out", out)
    args.add("--embed", symbol)
    args.add_all(like.code_flags)
    run_aotc(
        ctx,
        args,
        inputs = [ctx.file.model, like.report] + ctx.files.model_data,
        outputs = [out, header, source],
        mnemonic = "AotWeightsBlob",
        progress_message = "Weights blob of %s for the code of %s" % (ctx.file.model.short_path, ctx.attr.like.label),
    )
    return [
        DefaultInfo(files = depset([out])),
        OutputGroupInfo(header = depset([header]), c_sources = depset([source])),
    ]

_aot_weights_blob = rule(
    implementation = _aot_weights_blob_impl,
    doc = "Runs `aotc blob`: <name>.bin, the constants of `model` laid out for the code of `like`.",
    attrs = {
        "model": attr.label(mandatory = True, allow_single_file = [".tflite", ".onnx"], doc = "The model whose weights the blob holds."),
        "model_data": attr.label_list(allow_files = True, doc = "Files the model reads beside it (an ONNX model's external weights)."),
        "like": attr.label(mandatory = True, providers = [AotModelInfo], doc = "The <library>_codegen target of an aot_model_library with weights = \"blob\"."),
        "_compiler": attr.label(default = "//compiler:aotc", cfg = "exec", executable = True),
    },
)

def aot_weights_blob(name, model, like, model_data = [], **kwargs):
    """`<name>.bin`: the weights blob of `model` for the code of the aot_model_library `like` (weights = "blob").

    The build fails with one paragraph naming the first differing operator or tensor when `model` does not have
    `like`'s architecture: the same operators, shapes and kernel choice, and the same zero points and activation
    ranges (which the generated calls hold); everything else (weights, biases, scales and the multipliers, shifts
    and tables derived from them) is in the blob. The blob is for the core `like` is compiled for in this
    build's configuration: give the library `core` (e.g. "cortex-m4") to make it the firmware's whatever the
    configuration; `<prefix>_bind_weights` refuses a blob of any other code (AOT_ERR_BLOB_ARCH).

    `<name>_embedded` is the blob as a cc_library to link into a firmware instead: `#include "<name>.h"` declares
    `const uint8_t <name>[<NAME>_SIZE]` (characters a C name cannot have made '_'), 16-byte aligned in the weights
    section `.rodata.aot_weights.<name>`, which the firmware's `placement` puts in the region of its weights.

    Args:
      name: target name; the blob is `<name>.bin`.
      model: a .tflite or .onnx file with the new weights.
      like: an aot_model_library compiled with weights = "blob" (its label, e.g. ":kws").
      model_data: files the model reads beside it (an ONNX model's external weights).
      **kwargs: visibility, tags, testonly, ...
    """
    like = str(like)
    _aot_weights_blob(
        name = name,
        model = model,
        model_data = model_data,
        like = like + "_codegen",
        **kwargs
    )
    for group in ["header", "c_sources"]:
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [":" + name],
            output_group = group,
            testonly = kwargs.get("testonly"),
            tags = kwargs.get("tags"),
            visibility = ["//visibility:private"],
        )
    cc_library(
        name = name + "_embedded",
        srcs = [":%s_c_sources" % name],
        hdrs = [":%s_header" % name],
        copts = AOT_C_COPTS,
        strip_include_prefix = "/" + native.package_name(),
        linkstatic = True,
        testonly = kwargs.get("testonly"),
        tags = kwargs.get("tags"),
        visibility = kwargs.get("visibility"),
    )
