"""Repository rule exposing the shared real-world models (never copied into this repo) to Bazel tests.

The directory is `$AOT_MODELS_DIR`, or `../shared/models` beside the aot_rules checkout; its top-level models are
symlinked one by one (`@shared_models//:kws_ref_model.tflite`, filegroup `:all`). The field corpus is
`$AOT_FIELD_MODELS_DIR`, or `field/` of that directory: it is symlinked as a whole as `field/`, and its .tflite files
at any depth are the filegroup `:field` (`@shared_models//:field/tiny/str_ww_ref_model.tflite`). When a directory is
absent its part of the repository is empty and `AVAILABLE` / `FIELD_AVAILABLE` in its defs.bzl are False, so BUILD
files can skip those tests with a clear message instead of failing to load.
"""

def _field_models(rctx, path):
    """Relative paths of the .tflite files at any depth under `path`, sorted (Starlark has no directory walk)."""
    result = rctx.execute(["find", "-L", ".", "-name", "*.tflite", "-type", "f"], working_directory = str(path))
    if result.return_code != 0:
        fail("shared_models: cannot list the field models in %s: %s" % (path, result.stderr))
    return sorted([line[2:] for line in result.stdout.splitlines() if line.startswith("./")])

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
    field_path = rctx.os.environ.get("AOT_FIELD_MODELS_DIR") or "%s/field" % path
    field = []
    if rctx.path(field_path).exists:
        rctx.symlink(rctx.path(field_path), "field")
        field = ["field/" + m for m in _field_models(rctx, field_path)]
    rctx.file("BUILD.bazel", "exports_files(%r, visibility = [\"//visibility:public\"])\n" % (
                                 models + (["MANIFEST.md"] if models else []) + field
                             ) + "filegroup(name = \"all\", srcs = %r, visibility = [\"//visibility:public\"])\n" % models +
                             "filegroup(name = \"field\", srcs = %r, visibility = [\"//visibility:public\"])\n" % field)
    rctx.file("defs.bzl", "\"\"\"Generated: which shared models exist.\"\"\"\nDIR = %r\nAVAILABLE = %r\nMODELS = %r\n" % (
        str(path),
        bool(models),
        models,
    ) + "FIELD_DIR = %r\nFIELD_AVAILABLE = %r\n# Paths relative to FIELD_DIR.\nFIELD_MODELS = %r\n" % (
        str(field_path),
        bool(field),
        [m[len("field/"):] for m in field],
    ))

shared_models = repository_rule(
    implementation = _shared_models_impl,
    local = True,
    environ = ["AOT_MODELS_DIR", "AOT_FIELD_MODELS_DIR"],
    doc = "The shared .tflite/.onnx models and the field corpus, symlinked (empty when a directory is absent).",
)
