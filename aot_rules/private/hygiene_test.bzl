"""`aot_hygiene_test`: symbol and ABI hygiene of a model library, created for every aot_model_library.

The test runs check_hygiene.py with the toolchain's `nm` on the object files the library itself compiled (not its
dependencies) and on the generated sources and headers.
"""

load(":cc_tools.bzl", "AotCcToolsInfo")
load(":providers.bzl", "AotUserKernelInfo")

def _own_objects(cc_info, owner):
    objs = []
    for linker_input in cc_info.linking_context.linker_inputs.to_list():
        if linker_input.owner != owner:
            continue
        for lib in linker_input.libraries:
            objs += lib.pic_objects or lib.objects or []
    return objs

def _sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _aot_hygiene_test_impl(ctx):
    tools = ctx.attr._cc_tools[AotCcToolsInfo]
    objects = _own_objects(ctx.attr.library[CcInfo], ctx.attr.library.label)
    if not objects:
        fail("%s: %s compiled no object files to check" % (ctx.label, ctx.attr.library.label))
    checker = ctx.executable._checker
    args = [checker.short_path, tools.nm, ctx.attr.prefix, "--objects"] + [o.short_path for o in objects]
    args += ["--sources"] + [f.short_path for f in ctx.files.sources]
    if ctx.attr.user_kernels:
        # A model with user kernels may use their functions, and only those (check_hygiene.py).
        names = []
        for k in ctx.attr.user_kernels:
            names += [k[AotUserKernelInfo].function] + ([k[AotUserKernelInfo].init] if k[AotUserKernelInfo].init else [])
        args += ["--user_symbols"] + sorted({n: None for n in names}.keys())
    if ctx.attr.expect_violations:
        # Fixture mode: the checker must fail and name each expected violation.
        body = "out=$(%s)\nrc=$?\necho \"$out\"\n[ $rc -ne 0 ] || { echo 'expected violations, got none'; exit 1; }\n" % (
            " ".join([_sh_quote(a) for a in args])
        )
        for v in ctx.attr.expect_violations:
            body += "echo \"$out\" | grep -qF -- %s || { echo missing expected violation: %s; exit 1; }\n" % (
                _sh_quote(v),
                _sh_quote(v),
            )
        body += "echo 'fixture: every expected violation was reported'\n"
    else:
        body = "exec %s\n" % " ".join([_sh_quote(a) for a in args])
    script = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(script, "#!/bin/sh\n" + body, is_executable = True)
    runfiles = ctx.runfiles(files = objects + ctx.files.sources, transitive_files = tools.files)
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

aot_hygiene_test = rule(
    implementation = _aot_hygiene_test_impl,
    test = True,
    doc = "Checks that a model library defines only prefixed symbols and its C uses no forbidden types.",
    attrs = {
        "library": attr.label(mandatory = True, providers = [CcInfo], doc = "The model's cc_library."),
        "prefix": attr.string(mandatory = True, doc = "Required prefix of every defined global symbol."),
        "sources": attr.label_list(allow_files = [".c", ".h"], doc = "Generated sources and headers to scan."),
        "expect_violations": attr.string_list(doc = "Fixture mode: violations that must be reported."),
        "user_kernels": attr.label_list(providers = [AotUserKernelInfo], doc = "The model's aot_user_kernels: the only outside functions it may use."),
        "_cc_tools": attr.label(default = "//aot_rules/private:cc_tools"),
        "_checker": attr.label(default = "//aot_rules/private:check_hygiene", executable = True, cfg = "target"),
    },
)
