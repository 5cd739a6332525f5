"""`aot_weights_blob`: the weights blob of a model for the code of another model of the same architecture (an
aot_model_library with weights = "blob"), so a firmware built once runs either's weights (docs/weights-blob.md)."""

load(":providers.bzl", "AotModelInfo")

def _aot_weights_blob_impl(ctx):
    like = ctx.attr.like[AotModelInfo]
    if like.weights_blob == None:
        fail("%s: like = %s was compiled with its weights in the code; give it weights = \"blob\"." % (ctx.label, ctx.attr.like.label))
    out = ctx.actions.declare_file(ctx.label.name + ".bin")
    args = ctx.actions.args()
    args.add("blob")
    args.add(ctx.file.model)
    args.add("--quiet")
    args.add("--like", like.report)
    args.add("--prefix", like.prefix)
    args.add("--out", out)
    args.add_all(like.code_flags)
    ctx.actions.run(
        executable = ctx.executable._compiler,
        arguments = [args],
        inputs = [ctx.file.model, like.report] + ctx.files.model_data,
        outputs = [out],
        mnemonic = "AotWeightsBlob",
        progress_message = "Weights blob of %s for the code of %s" % (ctx.file.model.short_path, ctx.attr.like.label),
    )
    return [DefaultInfo(files = depset([out]))]

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
