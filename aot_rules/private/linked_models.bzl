"""Aspect that finds the models linked into a firmware: the AotModelInfo behind each aot_model_library in its deps.

aot_model_library is a macro whose cc_library reaches the generated code through filegroups, so the aspect walks
`deps` (cc libraries), `srcs` (the filegroups) and `library` (the per-core forwarding of per_core.bzl, on a board)
down to the codegen targets that carry AotModelInfo.
"""

load(":providers.bzl", "AotModelInfo")

AotLinkedModelsInfo = provider(
    doc = "Models whose generated code a target links.",
    fields = {"models": "depset of AotModelInfo"},
)

_WALKED = ["deps", "srcs", "library"]

def _linked_models_impl(target, ctx):
    direct = [target[AotModelInfo]] if AotModelInfo in target else []
    transitive = []
    for attr_name in _WALKED:
        deps = getattr(ctx.rule.attr, attr_name, [])
        for dep in (deps if type(deps) == "list" else [deps]):
            if type(dep) == "Target" and AotLinkedModelsInfo in dep:
                transitive.append(dep[AotLinkedModelsInfo].models)
    return [AotLinkedModelsInfo(models = depset(direct, transitive = transitive))]

linked_models_aspect = aspect(
    implementation = _linked_models_impl,
    attr_aspects = _WALKED,
    doc = "Collects AotModelInfo of the models a target links (for the firmware image report).",
)
