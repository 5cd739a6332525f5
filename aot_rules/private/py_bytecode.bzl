"""`py_bytecode`: the bytecode of a Python package's modules as build outputs, beside the sources in the runfiles.

Every Bazel action that runs aotc (AotCompile, AotReference, ...) and every Python test imports the compiler from
its runfiles, inside a fresh sandbox: without bytecode there, Python compiled all of the compiler's modules again
in each action (about a third of a small model's compile time) and threw the `__pycache__` away with the sandbox.
This rule compiles them once per build into `<dir>/__pycache__/<module>.<tag>.pyc` tree artifacts, which a
py_library's `data` places beside the sources. The files are checked-hash pycs (PEP 552): Python verifies each one
against its source's hash, so a stale or foreign one (another interpreter's tag, an edited source) is never used,
only recompiled as before.
"""

def _impl(ctx):
    root = "/".join([p for p in [ctx.label.workspace_root, ctx.label.package] if p])
    outs = {}
    args = ctx.actions.args()
    for src in ctx.files.srcs:
        if not src.path.startswith(root + "/"):
            fail("py_bytecode %s: %s is not under %s" % (ctx.label, src.path, root))
        rel_dir = src.path[len(root) + 1:].rpartition("/")[0]
        if rel_dir not in outs:
            outs[rel_dir] = ctx.actions.declare_directory((rel_dir + "/" if rel_dir else "") + "__pycache__")
        args.add("%s=%s" % (src.path, outs[rel_dir].path))
    ctx.actions.run(
        executable = ctx.executable._compile,
        arguments = [args],
        inputs = ctx.files.srcs,
        outputs = outs.values(),
        mnemonic = "PyBytecode",
        progress_message = "Compiling the Python modules of %s to bytecode" % ctx.label.package,
    )
    files = depset(outs.values())
    return [DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files))]

py_bytecode = rule(
    implementation = _impl,
    doc = "Checked-hash .pyc files of `srcs`, in `__pycache__` directories beside them in the runfiles.",
    attrs = {
        "srcs": attr.label_list(allow_files = [".py"], mandatory = True, doc = "Modules of this package and below."),
        "_compile": attr.label(
            default = "//aot_rules/private:py_bytecode_compile",
            executable = True,
            cfg = "exec",
        ),
    },
)
