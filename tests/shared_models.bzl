"""Repository rule exposing the shared real-world models (never copied into this repo) to Bazel tests.

The directory is `$AOT_MODELS_DIR`, or `../shared/models` beside the aot_rules checkout. When it is absent the
repository is empty and `AVAILABLE` in its defs.bzl is False, so BUILD files can skip those tests with a clear
message instead of failing to load.
"""

def _shared_models_impl(rctx):
    root = rctx.path(Label("//:WORKSPACE")).dirname
    path = rctx.os.environ.get("AOT_MODELS_DIR") or "%s/../shared/models" % root
    models = []
    if rctx.path(path).exists:
        for f in rctx.path(path).readdir():
            if f.basename.endswith(".tflite") or f.basename.endswith(".onnx") or f.basename == "MANIFEST.md":
                rctx.symlink(f, f.basename)
                if f.basename != "MANIFEST.md":
                    models.append(f.basename)
    models = sorted(models)
    rctx.file("BUILD.bazel", "exports_files(%r, visibility = [\"//visibility:public\"])\n" % (
        models + (["MANIFEST.md"] if models else [])
    ) + "filegroup(name = \"all\", srcs = %r, visibility = [\"//visibility:public\"])\n" % models)
    rctx.file("defs.bzl", "\"\"\"Generated: which shared models exist.\"\"\"\nDIR = %r\nAVAILABLE = %r\nMODELS = %r\n" % (
        str(path),
        bool(models),
        models,
    ))

shared_models = repository_rule(
    implementation = _shared_models_impl,
    local = True,
    environ = ["AOT_MODELS_DIR"],
    doc = "The shared .tflite/.onnx models, symlinked (empty when the directory is absent).",
)
