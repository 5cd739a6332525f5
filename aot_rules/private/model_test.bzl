"""`aot_model_test`: a bit-exactness test of a model's generated C against the TFLite Micro interpreter.

Reference outputs are computed at build time (`aotc testgen`, running the tflite-micro interpreter of the venv on
seeded random inputs); the generated `<prefix>_test.c` runs every case through `<prefix>_run()` and compares.
The same test source runs on the host (cc_test) and on each listed board under QEMU.
"""

load("@rules_cc//cc:defs.bzl", "cc_library", "cc_test")
load(":copts.bzl", "AOT_C_COPTS", "AOT_SANITIZER_OPTS")
load(":firmware.bzl", "aot_firmware")
load(":model_library.bzl", "aot_model_library", "validate_prefix")
load(":qemu_test.bzl", "aot_qemu_test")
load(":reference_data.bzl", "aot_reference_gen")

def aot_model_test(
        name,
        model,
        prefix = None,
        model_data = [],
        compiler_flags = [],
        boards = [],
        count = 10,
        seed = 0,
        sanitizers = True,
        tags = [],
        io_in_workspace = False,
        hygiene_test = True,
        plain_host = True,
        optimize = "speed",
        **kwargs):
    """One line to prove a model's generated C matches the reference interpreter bit-exactly (int8).

    Creates `<name>` (host cc_test), `<name>_sanitized` (the same on the host with the generated C and the CRT
    built with AddressSanitizer + UndefinedBehaviorSanitizer; any finding fails) and `<name>_<board>` (QEMU test,
    tagged `qemu`) for each of `boards`; a QEMU test also holds the stack each run used (painted stack, the
    board's probe) to the static bound of `<prefix>_run` in its firmware's size report. With `plain_host = False`
    `<name>` is instead a test_suite of the others.

    Args:
      name: test name.
      model: .tflite (or .onnx) model.
      model_data: files the model reads from beside it (an ONNX model's external weights, model.onnx.data; the
        .npy files of `--freeze_input`).
      compiler_flags: extra `aotc compile` flags, as aot_model_library takes them; the reference cases are
        computed with the same model-reading flags (`--dim NAME=N`, `--input_shape NAME=D0,D1,...`,
        `--freeze_input NAME=$(location f.npy)`: `$(location f)` of a model_data file expands to its path);
        e.g. ["--qdq_exact"] (an ONNX QDQ model's Conv / Gemm as onnxruntime runs them: the test then requires
        equal outputs).
      prefix: C prefix (default: `name`).
      boards: boards to also run the test on under QEMU, e.g. ["mps2-an386", "//my/board:stm32f7"] (tests are
        named after the board's target name).
      count: number of random input cases.
      seed: seed of the random inputs.
      sanitizers: also create the `<name>_sanitized` host test.
      tags: extra tags for every test.
      io_in_workspace: compile the model with its inputs and outputs inside the workspace (the generated test
        copies each case in and out through the accessors).
      hygiene_test: the model library's own hygiene test `<name>_model_hygiene_test`; False: the package's
        `aot_hygiene_suite` checks it (aot_model_library's `hygiene_test`).
      plain_host: the host cc_test without sanitizers. False (needs `sanitizers`): the host cases run only in
        `<name>_sanitized`, the same program and cases with the sanitizers' checks added (a compile, a link and a
        test fewer per model: a package of many model tests saves them), and `<name>` names the model's tests.
      optimize: aot_model_library's `optimize` ("speed" or "size": float32 layers on the portable kernels).
      **kwargs: size, timeout, visibility, ...
    """
    prefix = prefix or name
    validate_prefix(prefix, "aot_model_test(name = \"%s\")" % name)
    if not plain_host and not sanitizers:
        fail("aot_model_test(name = \"%s\"): plain_host = False leaves the host cases to the sanitized test; " % name +
             "it needs sanitizers = True")
    lib = name + "_model"

    # A manual test builds nothing in `bazel test //...`: its library, test source and firmware are manual too
    # (e.g. a model that needs an optional dependency to build).
    hidden = ["manual"] if "manual" in tags else []
    aot_model_library(
        name = lib,
        model = model,
        model_data = model_data,
        compiler_flags = compiler_flags,
        prefix = prefix,
        io_in_workspace = io_in_workspace,
        optimize = optimize,
        hygiene_test = hygiene_test,
        testonly = True,
        tags = hidden,
    )
    aot_reference_gen(
        name = name + "_src",
        model = model,
        model_data = model_data,
        compiler_flags = compiler_flags,
        prefix = prefix,
        command = "testgen",
        count = count,
        seed = seed,
        testonly = True,
        tags = hidden,
    )
    if plain_host:
        cc_test(
            name = name,
            srcs = [":" + name + "_src"],
            deps = [":" + lib],
            copts = AOT_C_COPTS,
            tags = tags,
            **kwargs
        )
    elif not hidden:
        # No tags: a test_suite's tags filter the tests it lists (and a manual model's tests must stay out of
        # `bazel test //...`, which a suite would run).
        native.test_suite(
            name = name,
            tests = [":%s_sanitized" % name] + [":%s_%s" % (name, b.split(":")[-1].split("/")[-1]) for b in boards],
            visibility = kwargs.get("visibility"),
        )
    if sanitizers:
        # The model's header on the include path (the test source, generated once for every configuration by
        # aot_reference_gen, does not sit beside it).
        cc_library(
            name = name + "_sanitized_header",
            hdrs = [":%s_header" % lib],
            strip_include_prefix = "/" + native.package_name(),
            testonly = True,
            tags = ["manual"],
            visibility = ["//visibility:private"],
        )
        cc_test(
            name = name + "_sanitized",
            srcs = [":" + name + "_src", ":%s_c_sources" % lib],
            deps = [":" + name + "_sanitized_header", str(Label("//crt:crt_sanitized"))],
            copts = AOT_C_COPTS + AOT_SANITIZER_OPTS,
            linkopts = AOT_SANITIZER_OPTS,
            tags = tags + ["sanitizer"],
            **kwargs
        )
    for board in boards:
        # A board label (//my/board:stm32f7) names its tests after its target name.
        board_name = board.split(":")[-1].split("/")[-1]
        aot_firmware(
            name = "%s_%s_fw" % (name, board_name),
            srcs = [":" + name + "_src"],
            deps = [":" + lib],
            board = board,
            copts = AOT_C_COPTS,
            # Each run's stack measured with the board's stack probe and held to the size report's static bound.
            defines = ["AOT_STACK_PROBE"],
            testonly = True,
            tags = hidden,
        )
        aot_qemu_test(
            name = "%s_%s" % (name, board_name),
            firmware = ":%s_%s_fw" % (name, board_name),
            check_stack = True,
            tags = tags,
            **kwargs
        )
