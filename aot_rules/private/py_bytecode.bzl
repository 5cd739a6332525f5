"""`py_bytecode`: the bytecode of a Python package's modules as build outputs, beside the sources in the runfiles.

Every Bazel action that runs aotc (AotCompile, AotReference, ...) and every Python test imports the compiler from
its runfiles, inside a fresh sandbox: without bytecode there, Python compiled all of the compiler's modules again
in each action (about a third of a small model's compile time) and threw the `__pycache__` away with the sandbox.
This rule compiles them once per build into `<dir>/__pycache__/<module>.<tag>.pyc` tree artifacts, which a
py_library's `data` places beside the sources. The files are checked-hash pycs (PEP 552): Python verifies each one
against its source's hash, so a stale or foreign one (another interpreter's tag, an edited source) is never used,
only recompiled as before.
"""

# The interpreter whose bytecode is built: the Python 3.11 of the checkout's venv and of the hermetic toolchain
# (requirements_lock.txt). Under another interpreter the files are still valid pycs of 3.11, which the import
# system rejects by their magic number and recompiles, as it would without them.
_CACHE_TAG = "cpython-311"

def _impl(ctx):
    root = "/".join([p for p in [ctx.label.workspace_root, ctx.label.package] if p])
    outs = []
    args = ctx.actions.args()
    for src in ctx.files.srcs:
        if not src.path.startswith(root + "/"):
            fail("py_bytecode %s: %s is not under %s" % (ctx.label, src.path, root))
        rel_dir, _, base = src.path[len(root) + 1:].rpartition("/")

        # One declared file per module, not a directory per package: Bazel 4's remote cache does not serve the
        # results of actions whose outputs are directories (a second clone ran this action again).
        out = ctx.actions.declare_file("%s__pycache__/%s.%s.pyc" % (
            rel_dir + "/" if rel_dir else "",
            base[:-len(".py")],
            _CACHE_TAG,
        ))
        outs.append(out)
        args.add("%s=%s" % (src.path, out.path))
    ctx.actions.run(
        executable = ctx.executable._compile,
        arguments = [args],
        inputs = ctx.files.srcs,
        outputs = outs,
        mnemonic = "PyBytecode",
        progress_message = "Compiling the Python modules of %s to bytecode" % ctx.label.package,
    )
    files = depset(outs)
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
