"""Quantization inside the build: `aot_quantize(...)` describes how, `aot_model_library(quantize = ...)` runs it.

The action is `aotc quantize` (compiler/commands/quantize_cmd.py) with the same hermetic Python as the compile
action, so onnxruntime's static quantizer (QDQ) comes from the pinned requirements. It runs once for every
configuration (the reference cases' transition: the quantized model depends on no board), writes
`<name>.onnx` or, for a float .tflite (Google's ai-edge-quantizer, an optional dependency:
requirements_tflite_quantize.txt), `<name>.tflite` (the quantized model, what the library compiles) and `<name>_quantize.json` (the float-vs-int8
agreement on the calibration set), and fails the build with one paragraph when a threshold is not met.
"""

load(":aotc_action.bzl", "run_aotc")
load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS")
load(":reference_data.bzl", "ONE_CONFIG")

_ACTIVATIONS = ["int8", "uint8"]

def _number(value, what):
    """A threshold as the string aotc parses, from a number (0.95) or a string ("0.95")."""
    if value == None:
        return ""
    text = str(value)
    digits = text.replace(".", "", 1).replace("-", "", 1).replace("e", "", 1).replace("+", "", 1)
    if not digits or not digits.isdigit():
        fail("aot_quantize: %s = %s is not a number" % (what, repr(value)))
    return text

def aot_quantize(
        calibration,
        per_channel = True,
        activations = "int8",
        min_top1 = None,
        min_snr_db = None,
        max_abs_error = None,
        compiler_flags = []):
    """How `aot_model_library(quantize = ...)` quantizes its float ONNX model in the build.

    onnxruntime's static quantizer (`quantize_static`, QDQ format, MinMax calibration, symmetric int8 weights)
    runs as a Bazel action on the calibration set; the library compiles its output. The agreement of the
    quantized model with the float one on the calibration set (per output: top-1 agreement for a classifier's
    scores, signal-to-noise ratio, largest absolute error) is written to `<library>_quantized_quantize.json`
    (the library's `<name>_quantize_report` target); a threshold not met fails the build with one paragraph
    naming the output, the figure and the threshold. A float .tflite is quantized by Google's ai-edge-quantizer
    instead (int8 weights and activations, int8 inputs and outputs; it must be installed in the compiler's Python:
    requirements_tflite_quantize.txt, docs/quantize.md); activations must then be "int8".

    Args:
      calibration: label of an .npz with one array per model input (key = the input's name), the samples on
        the first axis (for a batch-1 input, on its batch axis).
      per_channel: int8 weights per output channel (False: per tensor).
      activations: "int8" or "uint8".
      min_top1: fail unless the quantized model's top-1 class agrees with the float model's on at least this
        fraction of the samples (classifier outputs), e.g. 0.98.
      min_snr_db: fail if an output's signal-to-noise ratio against the float model is under this, in dB (e.g. 30).
      max_abs_error: fail if an output's largest absolute error against the float model is over this.
      compiler_flags: extra `aotc quantize` flags (e.g. ["--dim", "batch=1"]).

    Returns:
      A struct for `aot_model_library(quantize = ...)`.
    """
    if activations not in _ACTIVATIONS:
        fail("aot_quantize: activations = \"%s\" is not one of %s" % (activations, ", ".join(_ACTIVATIONS)))
    return struct(
        calibration = calibration,
        per_channel = per_channel,
        activations = activations,
        min_top1 = _number(min_top1, "min_top1"),
        min_snr_db = _number(min_snr_db, "min_snr_db"),
        max_abs_error = _number(max_abs_error, "max_abs_error"),
        compiler_flags = compiler_flags,
    )

def _aot_quantized_model_impl(ctx):
    # The quantized model keeps the float model's format: QDQ ONNX from onnxruntime, an int8 .tflite from
    # ai-edge-quantizer (the optional requirements_tflite_quantize.txt in the compiler's Python).
    tflite = ctx.file.model.extension == "tflite"
    model = ctx.actions.declare_file(ctx.label.name + (".tflite" if tflite else ".onnx"))
    report = ctx.actions.declare_file(ctx.label.name + "_quantize.json")
    args = ctx.actions.args()
    args.add("quantize")
    args.add(ctx.file.model)
    args.add("--quiet")
    args.add("--prefix", ctx.label.name)
    args.add("--out_dir", model.dirname)
    args.add("--calibration", ctx.file.calibration)
    args.add("--per_channel" if ctx.attr.per_channel else "--noper_channel")
    args.add("--activations", ctx.attr.activations)
    for flag in ["min_top1", "min_snr_db", "max_abs_error"]:
        value = getattr(ctx.attr, flag)
        if value:
            args.add("--" + flag, value)
    args.add_all(ctx.attr.compiler_flags)
    run_aotc(
        ctx,
        args,
        inputs = [ctx.file.model, ctx.file.calibration] + ctx.files.model_data,
        outputs = [model, report],
        mnemonic = "AotQuantize",
        progress_message = "Quantizing %s with %s (calibration %s)" % (
            ctx.file.model.short_path,
            "ai-edge-quantizer (int8)" if tflite else "onnxruntime (QDQ)",
            ctx.file.calibration.short_path,
        ),
    )
    return [
        DefaultInfo(files = depset([model])),
        OutputGroupInfo(report = depset([report])),
    ]

aot_quantized_model = rule(
    implementation = _aot_quantized_model_impl,
    doc = "Runs `aotc quantize`: the model quantized by onnxruntime (QDQ) or ai-edge-quantizer (.tflite) and its agreement report.",
    cfg = ONE_CONFIG,
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "model": attr.label(mandatory = True, allow_single_file = [".onnx", ".tflite"], doc = "The float model."),
        "model_data": attr.label_list(allow_files = True, doc = "Files the model reads beside it (ONNX external weights)."),
        "calibration": attr.label(mandatory = True, allow_single_file = [".npz"], doc = "The calibration set."),
        "per_channel": attr.bool(default = True, doc = "int8 weights per output channel."),
        "activations": attr.string(default = "int8", values = _ACTIVATIONS, doc = "Activation type."),
        "min_top1": attr.string(doc = "Minimum top-1 agreement (fraction) of classifier outputs."),
        "min_snr_db": attr.string(doc = "Minimum signal-to-noise ratio (dB) of every output."),
        "max_abs_error": attr.string(doc = "Maximum absolute error of every output."),
        "compiler_flags": attr.string_list(doc = "Extra `aotc quantize` flags."),
        "_compiler": attr.label(default = "//compiler:aotc", cfg = "exec", executable = True),
    }),
)
