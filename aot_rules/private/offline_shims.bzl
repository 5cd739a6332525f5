"""Repository rule that materialises one offline shim repository from //third_party/shims.

Bazel 4.2.3 would download @rules_cc, @rules_java and @remote_coverage_tools; declaring them first with this rule
keeps every build offline. The shims only forward to native rules.
"""

def _offline_shim_impl(rctx):
    rctx.file("WORKSPACE", "workspace(name = \"%s\")\n" % rctx.name)
    for f in rctx.attr.files:
        # Labels look like //third_party/shims:<strip>/<path in the shim repository>.
        rel = f.name[len(rctx.attr.strip) + 1:] if f.name.startswith(rctx.attr.strip + "/") else f.name
        dest = rel[:-len(".shim")] if rel.endswith(".shim") else rel
        rctx.template(dest, f, executable = dest.endswith(".sh"))
    for pkg in rctx.attr.packages:
        path = pkg + "/BUILD" if pkg else "BUILD"
        if not rctx.path(path).exists:
            rctx.file(path, "")

offline_shim = repository_rule(
    implementation = _offline_shim_impl,
    doc = "A local repository made of files from //third_party/shims (no network).",
    attrs = {
        "files": attr.label_list(allow_files = True, doc = "Shim files; `X.shim` is written as `X`."),
        "strip": attr.string(doc = "Directory below //third_party/shims that is the repository root."),
        "packages": attr.string_list(default = [""], doc = "Packages that get an empty BUILD if none is given."),
    },
)
