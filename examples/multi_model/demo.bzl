"""The multi-model demo's targets for one set of networks (examples/multi_model and examples/multi_model/generated).

`models` maps each C prefix to a .tflite label; the prefixes are fixed by main.c: kws, kws_b (the same network under
a second prefix), ic, ad, and speech (the shared micro_speech) or vision (the generated MobileNet, with
`generated = True`, which also tells main.c which set it runs).
"""

load("@rules_cc//cc:defs.bzl", "cc_test")
load(
    "//aot_rules:defs.bzl",
    "aot_firmware",
    "aot_model_library",
    "aot_qemu_test",
    "aot_reference_data",
    "aot_workspace",
)
load("//aot_rules/private:copts.bzl", "AOT_C_COPTS")

# prefix -> the networks tests/models/make_demo_models.py generates (same architectures as the shared models).
GENERATED_MODELS = {
    "kws": "//tests/models:kws_ds_cnn_int8.tflite",
    "kws_b": "//tests/models:kws_ds_cnn_int8.tflite",
    "ic": "//tests/models:resnet8_int8.tflite",
    "ad": "//tests/models:ad_autoencoder_int8.tflite",
    "vision": "//tests/models:mobilenet_v1_025_48_int8.tflite",
}

def multi_model_demo(models, generated):
    """demo (QEMU run/test), demo_fw, demo_host, the report filegroups and demo_report_test for `models`."""
    for prefix, model in models.items():
        aot_model_library(name = prefix, model = model)
        aot_reference_data(name = prefix + "_ref", model = model, prefix = prefix, seed = 7)

    # The models run one after another, so they share one buffer as large as the largest workspace.
    aot_workspace(name = "demo_workspace", mode = "exclusive", models = [":" + p for p in models])

    main = "//examples/multi_model:main.c"
    copts = AOT_C_COPTS + (["-DDEMO_GENERATED_MODELS=1"] if generated else [])
    deps = [":demo_workspace", "//toolchains/boards:stack_probe"] + [":%s_ref" % p for p in models]

    # Each model's runs measured with the board's stack probe and held to the size report's static bound.
    aot_firmware(
        name = "demo_fw",
        srcs = [main],
        board = "mps2-an386",
        copts = copts,
        defines = ["AOT_STACK_PROBE"],
        deps = deps,
    )
    aot_qemu_test(name = "demo", firmware = ":demo_fw", check_stack = True)

    # The same program linked for the host: the five libraries (and the CRT once) in one host binary.
    cc_test(name = "demo_host", srcs = [main], copts = copts, deps = deps)

    # The firmware's image report (demo_fw.size.json) attributes flash, RAM, workspace and stack to each model,
    # and the compiler manifests of the linked models, as compiled for the firmware's core.
    native.filegroup(name = "demo_fw_size_report", srcs = [":demo_fw"], output_group = "size_report")
    native.filegroup(name = "demo_fw_model_manifests", srcs = [":demo_fw"], output_group = "model_manifests")
    native.py_test(
        name = "demo_report_test",
        srcs = ["//examples/multi_model:demo_report_test.py"],
        main = "//examples/multi_model:demo_report_test.py",
        args = [native.package_name()] + sorted(models),
        data = [":demo_fw_model_manifests", ":demo_fw_size_report"],
        python_version = "PY3",
    )
