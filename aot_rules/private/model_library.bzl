"""`aot_model_library`: runs the aot compiler on a .tflite/.onnx model and wraps the C it writes in a cc_library."""

load("@aot_cpu//:defs.bzl", "CPU_CORES")
load("@rules_cc//cc:defs.bzl", "cc_library")
load("//toolchains:cores.bzl", "COMPILER_TARGETS", "CORES")
load(":aotc_action.bzl", "expand_compiler_flags", "run_aotc")
load(":copts.bzl", "AOT_C_COPTS")
load(":hygiene_test.bzl", "aot_hygiene_check", "aot_hygiene_test")
load(":per_core.bzl", "per_core_library")
load(":providers.bzl", "AotModelInfo", "AotUserKernelInfo")
load(":quantize.bzl", "aot_quantized_model")
load(":user_kernel.bzl", "invert_kernel_map", "kernel_flags")

# aot_model_library's optimize values (`aotc compile --optimize`), the default first.
OPTIMIZE = ["speed", "size"]

def _optimize_error(where, value):
    return "%s: optimize = \"%s\": use \"speed\" (the default: each layer's fastest kernel) or \"size\" (the smallest code: float32 layers on the portable kernels)." % (where, value)

_C_KEYWORDS = [
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
]
_IDENT_START = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
_IDENT_REST = _IDENT_START + "0123456789"

def validate_prefix(prefix, what):
    """Fails at load time unless `prefix` can start every C symbol of a model."""
    problem = None
    if not prefix:
        problem = "it is empty"
    elif prefix[0] not in _IDENT_START:
        problem = "it must start with a letter or '_'"
    elif [c for c in prefix.elems() if c not in _IDENT_REST]:
        problem = "it may contain only letters, digits and '_'"
    elif prefix in _C_KEYWORDS:
        problem = "it is a C keyword"
    elif prefix == "aot" or prefix.startswith("aot_") or prefix.startswith("__"):
        problem = "'aot'/'aot_' is reserved for the CRT and '__' for the implementation"
    if problem:
        fail("%s: prefix \"%s\" is not a valid C identifier prefix: %s." % (what, prefix, problem))

def target_select():
    """The core of the configuration being built by aot_rules' own core constraint (boards, aot_firmware), or ""."""
    return select(dict(
        {str(Label("//toolchains:" + core)): core for core in CORES},
        **{"//conditions:default": ""}
    ))

def cpu_target_select():
    """The core implied by the platform's standard @platforms//cpu value (a user's own platform), or host."""
    return select(dict(CPU_CORES, **{"//conditions:default": "host"}))

def _target(ctx):
    """--target: the explicit `core`, else the core constraint, else the @platforms//cpu value, else host."""
    core = ctx.attr.core or ctx.attr.target or ctx.attr.cpu_target
    return COMPILER_TARGETS.get(core, core)

def _aot_model_codegen_impl(ctx):
    prefix = ctx.attr.prefix
    blob = ctx.attr.weights == "blob"
    exts = [".h", ".c", "_weights.c", ".json", "_plan.svg"] + (["_weights.bin"] if blob else [])
    outs = {ext: ctx.actions.declare_file(prefix + ext) for ext in exts}
    if ctx.attr.weights not in ["const", "blob"]:
        fail("%s: weights = \"%s\": use \"const\" (arrays compiled into the image) or \"blob\" (<prefix>_weights.bin, bound at run time)." % (ctx.label, ctx.attr.weights))
    if blob and (ctx.attr.custom_ops or ctx.attr.offload):
        fail("%s: weights = \"blob\" does not support user kernels (custom_ops / offload): their parameter blocks point at the weights." % ctx.label)
    args = ctx.actions.args()
    args.add("compile")
    args.add(ctx.file.model)
    args.add("--quiet")
    args.add("--prefix", prefix)
    args.add("--out_dir", outs[".h"].dirname)
    if ctx.attr.core and ctx.attr.core not in CORES:
        fail("%s: core \"%s\" is not one of %s" % (ctx.label, ctx.attr.core, ", ".join(sorted(CORES))))
    target = _target(ctx)
    args.add("--target", target)
    if ctx.attr.ram_budget:
        args.add("--ram_budget", ctx.attr.ram_budget)
    if ctx.attr.flash_budget:
        args.add("--flash_budget", ctx.attr.flash_budget)
    if ctx.attr.optimize not in OPTIMIZE:
        fail(_optimize_error(ctx.label, ctx.attr.optimize))
    if ctx.attr.optimize != "speed":
        args.add("--optimize", ctx.attr.optimize)
    if ctx.attr.strict_kernels:
        args.add("--strict_kernels")
    if ctx.attr.io_in_workspace:
        args.add("--io_in_workspace")
    args.add_all(kernel_flags("--custom_op", ctx.attr.custom_ops))
    args.add_all(kernel_flags("--offload", ctx.attr.offload))
    args.add_all(expand_compiler_flags(ctx))
    if blob:
        args.add("--weights", "blob")

    # What `aotc blob` needs to generate the same code from another model (aot_weights_blob).
    code_flags = ["--target", target] + (["--optimize", ctx.attr.optimize] if ctx.attr.optimize != "speed" else []) + (["--io_in_workspace"] if ctx.attr.io_in_workspace else []) + expand_compiler_flags(ctx)
    for f in ctx.files.model_data:
        # The compiler reads an ONNX model's external data from beside the model file only.
        if f.dirname != ctx.file.model.dirname:
            fail("%s: model_data file %s is not in the directory of the model %s; keep the weights file next to the model." % (ctx.label, f.short_path, ctx.file.model.short_path))
    run_aotc(
        ctx,
        args,
        inputs = [ctx.file.model] + ctx.files.model_data,
        outputs = outs.values(),
        mnemonic = "AotCompile",
        progress_message = "Compiling model %s to C (prefix %s, %s)" % (ctx.file.model.short_path, prefix, target),
    )
    return [
        DefaultInfo(files = depset([outs[".h"], outs[".c"], outs["_weights.c"]])),
        OutputGroupInfo(
            header = depset([outs[".h"]]),
            c_sources = depset([outs[".c"], outs["_weights.c"]]),
            report = depset([outs[".json"], outs["_plan.svg"]]),
            weights_blob = depset([outs["_weights.bin"]] if blob else []),
        ),
        AotModelInfo(
            prefix = prefix,
            model = ctx.file.model,
            header = outs[".h"],
            report = outs[".json"],
            weights_blob = outs["_weights.bin"] if blob else None,
            code_flags = code_flags,
        ),
    ]

aot_model_codegen = rule(
    implementation = _aot_model_codegen_impl,
    doc = "Runs `aotc compile` on a model: <prefix>.h/.c/_weights.c, the report <prefix>.json and <prefix>_plan.svg.",
    attrs = {
        "model": attr.label(mandatory = True, allow_single_file = [".tflite", ".onnx"], doc = "The model file."),
        "model_data": attr.label_list(allow_files = True, doc = "Files the model reads beside it: an ONNX model's external weights (model.onnx.data)."),
        "prefix": attr.string(mandatory = True, doc = "C identifier prefix of every symbol the model emits."),
        "target": attr.string(doc = "Core from aot_rules' core constraint of the configuration (a key of CORES)."),
        "cpu_target": attr.string(default = "host", doc = "Core implied by the platform's @platforms//cpu."),
        "core": attr.string(doc = "Explicit core (a key of CORES); wins over the configuration's."),
        "compiler_flags": attr.string_list(doc = "Extra flags for `aotc compile` (`$(location f)` of a model_data file expands to its path)."),
        "ram_budget": attr.string(doc = "Fail the build if the workspace exceeds this (e.g. \"24K\")."),
        "flash_budget": attr.string(doc = "Fail the build if weights + parameters exceed this (e.g. \"64K\")."),
        "strict_kernels": attr.bool(doc = "Fail the build if a layer leaves its core's best kernels because of its quantization parameters."),
        "optimize": attr.string(default = "speed", doc = "speed: each layer's fastest kernel; size: the smallest code (`aotc compile --optimize`)."),
        "io_in_workspace": attr.bool(doc = "Plan the inputs and outputs inside the workspace (accessors; run(workspace))."),
        "weights": attr.string(default = "const", doc = "const: weights compiled into the image; blob: <prefix>_weights.bin, bound at run time with <prefix>_bind_weights()."),
        "custom_ops": attr.label_keyed_string_dict(providers = [AotUserKernelInfo], doc = "aot_user_kernel -> custom operator names ('|'-separated)."),
        "offload": attr.label_keyed_string_dict(providers = [AotUserKernelInfo], doc = "aot_user_kernel -> --offload patterns ('|'-separated)."),
        "_compiler": attr.label(default = "//compiler:aotc", cfg = "exec", executable = True),
    },
    provides = [AotModelInfo],
)

def aot_model_library(name, model, prefix = None, model_data = [], compiler_flags = [], ram_budget = "", flash_budget = "", strict_kernels = False, optimize = "speed", io_in_workspace = False, core = "", custom_ops = {}, offload = {}, quantize = None, weights = "const", hygiene_test = True, **kwargs):
    """A cc_library with the plain C for `model`: `#include "<prefix>.h"` and call `<prefix>_run()`.

    Also creates `<name>_hygiene_test`: every global symbol of the model starts with the prefix, and the generated
    C uses no 64-bit integers, doubles, heap or packed-argument types (with `hygiene_test = False`, the package's
    `aot_hygiene_suite` checks it instead).

    Args:
      name: target name.
      model: a .tflite or .onnx file.
      prefix: C prefix of every symbol (default: `name`); must be a C identifier, not `aot`/`aot_*`.
      model_data: files the model reads from beside it, in the model's package: an ONNX model's external
        weights (`model.onnx.data`, what torch.onnx.export writes by default), the .npy files of
        `--freeze_input`.
      compiler_flags: extra `aotc compile` flags, e.g. `["--dim", "batch=1"]`, `["--input_shape", "x=1,512"]`
        or `["--freeze_input", "sr=$(location sr.npy)"]` (`$(location f)` of a `model_data` file expands to
        its path).
      ram_budget: e.g. "24K": the build fails, naming the largest tensors at the peak, if the planned workspace
        is larger.
      flash_budget: e.g. "64K": the build fails, naming the largest arrays, if the model's weights and
        parameters are larger (code is shared by all models; budget it on the firmware).
      strict_kernels: the build fails, naming each layer and why, if a layer leaves the best kernels of the core
        it is built for because of its quantization parameters (`aotc compile --strict_kernels`; layers that
        leave them for a structural reason are listed in the report, <prefix>.json).
      optimize: "speed" (default): each layer's fastest kernel for the core. "size": the smallest code (`aotc
        compile --optimize=size`): float32 layers take the portable kernels (a few KB less code on a core with an
        FPU, 4-22x the instructions); integer layers' kernels are unchanged (docs/kernels.md).
      io_in_workspace: plan the model's inputs and outputs inside its workspace: no I/O buffers of their own;
        the header gives `<prefix>_input_<name>(workspace)` / `<prefix>_output_<name>(workspace)` and
        `<prefix>_run(workspace)` (see compiler/codegen/io_accessors.py).
      core: the core to generate code (and pick kernels) for, e.g. "cortex-m7", whatever the configuration; by
        default the core of the platform being built: aot_rules' boards and aot_firmware set it, a user's own
        platform gives it with a standard @platforms//cpu value (armv6-m, armv7-m, armv7e-m, armv7e-mf, armv8-m,
        armv8.1-m, where its @platforms has them); otherwise the host.
      quantize: `aot_quantize(calibration = "calib.npz", ...)`: `model` is a float ONNX model that onnxruntime's
        static quantizer (QDQ) quantizes in the build, or a float .tflite (with a SignatureDef) that Google's
        ai-edge-quantizer quantizes to int8 (an optional dependency: requirements_tflite_quantize.txt)
        (`<name>_quantized`, the model file the library compiles);
        `<name>_quantize_report` is the float-vs-int8 agreement on the calibration set, and a threshold of
        aot_quantize not met fails the build (docs/quantize.md).
      custom_ops: {"MyOp": "//pkg:my_op"}: the model's CUSTOM operator MyOp runs the function of the
        aot_user_kernel //pkg:my_op (crt/include/aot/user_kernel.h), whose cc_library is linked in.
      offload: {"CONV_2D": "//pkg:npu_conv2d"}: built-in operators matching the key (an operator type, "#N" for
        operator N, "name:GLOB" for an output name) call the aot_user_kernel's function with the arguments of the
        portable built-in kernel (docs/user-kernels.md).
      weights: "const" (default): the weights are const arrays in the image. "blob": the model's constants
        (weights, biases, the quantization's multipliers and tables) go to `<prefix>_weights.bin` (the
        `<name>_weights_blob` target) instead, and the application binds a blob at run time with
        `<prefix>_bind_weights(blob, size)`; another model of the same architecture gives its own blob
        (aot_weights_blob) that the same firmware runs without relinking (docs/weights-blob.md).
      hygiene_test: create `<name>_hygiene_test`. False: an `aot_hygiene_check` `<name>_hygiene` instead, which
        the package's `aot_hygiene_suite` (called at the end of its BUILD file) checks together with the others, in
        one test: for packages of many models.
      **kwargs: visibility, tags, testonly, ...
    """
    prefix = prefix or name
    validate_prefix(prefix, "aot_model_library(name = \"%s\")" % name)
    if optimize not in OPTIMIZE:
        fail(_optimize_error("aot_model_library(name = \"%s\")" % name, optimize))
    if quantize:
        aot_quantized_model(
            name = name + "_quantized",
            model = model,
            model_data = model_data,
            calibration = quantize.calibration,
            per_channel = quantize.per_channel,
            activations = quantize.activations,
            min_top1 = quantize.min_top1,
            min_snr_db = quantize.min_snr_db,
            max_abs_error = quantize.max_abs_error,
            compiler_flags = quantize.compiler_flags,
            visibility = kwargs.get("visibility"),
            testonly = kwargs.get("testonly"),
            tags = kwargs.get("tags"),
        )
        native.filegroup(
            name = name + "_quantize_report",
            srcs = [":%s_quantized" % name],
            output_group = "report",
            testonly = kwargs.get("testonly"),
            tags = kwargs.get("tags"),
            visibility = kwargs.get("visibility"),
        )
        model = ":%s_quantized" % name
        model_data = []  # the quantized model is one self-contained file

    # The model's C, and its objects, depend on the core only: on a board they are made once per core, for every
    # board of that core (per_core.bzl), through `<name>_codegen` and `<name>`.
    codegen = name + "_codegen"
    aot_model_codegen(
        name = codegen + "_rule",
        model = model,
        model_data = model_data,
        prefix = prefix,
        target = target_select(),
        cpu_target = cpu_target_select(),
        core = core,
        compiler_flags = compiler_flags,
        ram_budget = ram_budget,
        flash_budget = flash_budget,
        strict_kernels = strict_kernels,
        optimize = optimize,
        io_in_workspace = io_in_workspace,
        weights = weights,
        custom_ops = invert_kernel_map(custom_ops, "aot_model_library(name = \"%s\").custom_ops" % name),
        offload = invert_kernel_map(offload, "aot_model_library(name = \"%s\").offload" % name),
        visibility = kwargs.get("visibility"),
        testonly = kwargs.get("testonly"),
        tags = kwargs.get("tags"),
    )
    per_core_library(
        name = codegen,
        library = ":%s_rule" % codegen,
        visibility = kwargs.get("visibility"),
        testonly = kwargs.get("testonly"),
        tags = kwargs.get("tags"),
    )
    for group in ["header", "c_sources", "report"] + (["weights_blob"] if weights == "blob" else []):
        native.filegroup(
            name = "%s_%s" % (name, group),
            srcs = [":" + codegen],
            output_group = group,
            testonly = kwargs.get("testonly"),
            # Without the user's tags a `manual` library would still be built by `bazel build //...`.
            tags = kwargs.get("tags"),
            visibility = kwargs.get("visibility") if group in ["report", "weights_blob"] else ["//visibility:private"],
        )
    cc_library(
        name = name + "_cc",
        srcs = [":%s_c_sources" % name],
        hdrs = [":%s_header" % name],
        copts = AOT_C_COPTS,
        # Users write #include "<prefix>.h" (-I, not -isystem: the header stays under -Werror).
        strip_include_prefix = "/" + native.package_name(),
        # Linked into programs, not loaded as a shared library: no .so of the model's weights is linked.
        linkstatic = kwargs.pop("linkstatic", True),
        deps = [str(Label("//crt"))] + sorted({k: None for k in list(custom_ops.values()) + list(offload.values())}.keys()),
        **kwargs
    )
    per_core_library(
        name = name,
        library = ":%s_cc" % name,
        **{k: v for k, v in kwargs.items() if k in ["visibility", "testonly", "tags", "deprecation"]}
    )
    check = dict(
        library = ":%s_cc" % name,
        prefix = prefix,
        sources = [":%s_c_sources" % name, ":%s_header" % name],
        user_kernels = sorted({k: None for k in list(custom_ops.values()) + list(offload.values())}.keys()),
        tags = kwargs.get("tags"),
        testonly = kwargs.get("testonly"),
        visibility = ["//visibility:private"],
    )
    if hygiene_test:
        aot_hygiene_test(name = name + "_hygiene_test", size = "small", **check)
    else:
        aot_hygiene_check(name = name + "_hygiene", **check)
