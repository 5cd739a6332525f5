"""`run_aotc`: the one way a rule runs the aot compiler in a build action (and `expand_compiler_flags`, its flags).

The action's arguments go in a parameter file and the action supports workers, so Bazel keeps one warm `aotc
--persistent_worker` process per tool and forks it per action (compiler/worker.py) instead of starting Python and
importing the compiler for each of a build's hundreds of compiles. Where workers are off (`--strategy=...=sandboxed`,
remote execution), the same command line runs `aotc @params` as a plain process.
"""

def expand_compiler_flags(ctx):
    """The `compiler_flags` attribute with `$(location f)` of a `model_data` file replaced by its path.

    E.g. the .npy of `--freeze_input NAME=$(location sr.npy)`.

    Args:
      ctx: the rule context (attributes compiler_flags and model_data).

    Returns:
      The flags as strings.
    """
    return [ctx.expand_location(f, ctx.attr.model_data) for f in ctx.attr.compiler_flags]

def run_aotc(ctx, args, **kwargs):
    """ctx.actions.run of `ctx.executable._compiler` with `args` (an Args object) and the other `kwargs`."""
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable._compiler,
        arguments = [args],
        execution_requirements = {"supports-workers": "1"},
        **kwargs
    )
