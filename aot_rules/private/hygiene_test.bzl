"""`aot_hygiene_test`: symbol and ABI hygiene of model libraries; `aot_hygiene_suite`: one test for a package's.

Every aot_model_library gets a `<name>_hygiene_test` (check_hygiene.py with the toolchain's `nm` on the object files
the library itself compiled, not its dependencies, and on the generated sources and headers). A library declared
with `hygiene_test = False` gets an `aot_hygiene_check` instead (what its test would check, no test), and
`aot_hygiene_suite`, called at the end of the BUILD file, checks every such library of the package in one test and
one process: a package of a hundred models has one hygiene test, not a hundred test actions.
"""

load(":cc_tools.bzl", "AotCcToolsInfo")
load(":providers.bzl", "AotUserKernelInfo")

AotHygieneCheckInfo = provider(
    doc = "What the hygiene of one model library is checked on.",
    fields = {
        "prefix": "required prefix of every defined global symbol",
        "objects": "list of File: the object files the library itself compiled",
        "sources": "list of File: its generated sources and headers",
        "user_symbols": "list of str: the user kernels' functions it may use, or None (no user kernels)",
    },
)

def _own_objects(cc_info, owner):
    objs = []
    for linker_input in cc_info.linking_context.linker_inputs.to_list():
        if linker_input.owner != owner:
            continue
        for lib in linker_input.libraries:
            objs += lib.pic_objects or lib.objects or []
    return objs

def _check_info(ctx):
    objects = _own_objects(ctx.attr.library[CcInfo], ctx.attr.library.label)
    if not objects:
        fail("%s: %s compiled no object files to check" % (ctx.label, ctx.attr.library.label))
    user_symbols = None
    if ctx.attr.user_kernels:
        # A model with user kernels may use their functions, and only those (check_hygiene.py).
        names = []
        for k in ctx.attr.user_kernels:
            names += [k[AotUserKernelInfo].function] + ([k[AotUserKernelInfo].init] if k[AotUserKernelInfo].init else [])
        user_symbols = sorted({n: None for n in names}.keys())
    return AotHygieneCheckInfo(prefix = ctx.attr.prefix, objects = objects, sources = ctx.files.sources, user_symbols = user_symbols)

def _sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _check_args(check):
    """check_hygiene.py's arguments for one library (one group; groups are separated by `---`)."""
    args = [check.prefix, "--objects"] + [o.short_path for o in check.objects]
    args += ["--sources"] + [f.short_path for f in check.sources]
    if check.user_symbols != None:
        args += ["--user_symbols"] + check.user_symbols
    return args

def _aot_hygiene_test_impl(ctx):
    tools = ctx.attr._cc_tools[AotCcToolsInfo]
    checks = ([_check_info(ctx)] if ctx.attr.library else []) + [c[AotHygieneCheckInfo] for c in ctx.attr.checks]
    if not checks:
        fail("%s: give `library` or `checks`" % ctx.label)
    checker = ctx.executable._checker
    args = [checker.short_path, tools.nm]
    for i, check in enumerate(checks):
        args += (["---"] if i else []) + _check_args(check)
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
    files = []
    for check in checks:
        files += check.objects + check.sources
    runfiles = ctx.runfiles(files = files, transitive_files = tools.files)
    runfiles = runfiles.merge(ctx.attr._checker[DefaultInfo].default_runfiles)
    return [DefaultInfo(executable = script, runfiles = runfiles)]

_LIBRARY_ATTRS = {
    "library": attr.label(providers = [CcInfo], doc = "The model's cc_library."),
    "prefix": attr.string(doc = "Required prefix of every defined global symbol."),
    "sources": attr.label_list(allow_files = [".c", ".h"], doc = "Generated sources and headers to scan."),
    "user_kernels": attr.label_list(providers = [AotUserKernelInfo], doc = "The model's aot_user_kernels: the only outside functions it may use."),
}

aot_hygiene_test = rule(
    implementation = _aot_hygiene_test_impl,
    test = True,
    doc = "Checks that model libraries define only prefixed symbols and their C uses no forbidden types: " +
          "`library` (with its prefix, sources, user kernels) and/or every aot_hygiene_check of `checks`.",
    attrs = dict(_LIBRARY_ATTRS, **{
        "checks": attr.label_list(providers = [AotHygieneCheckInfo], doc = "aot_hygiene_checks to run in this test too."),
        "expect_violations": attr.string_list(doc = "Fixture mode: violations that must be reported."),
        "_cc_tools": attr.label(default = "//aot_rules/private:cc_tools"),
        "_checker": attr.label(default = "//aot_rules/private:check_hygiene", executable = True, cfg = "target"),
    }),
)

def _aot_hygiene_check_impl(ctx):
    return [_check_info(ctx)]

aot_hygiene_check = rule(
    implementation = _aot_hygiene_check_impl,
    doc = "What a library's hygiene test would check, for an aot_hygiene_suite to run with others.",
    attrs = _LIBRARY_ATTRS,
    provides = [AotHygieneCheckInfo],
)

def aot_hygiene_suite(name, **kwargs):
    """One hygiene test for every library of this package declared with `hygiene_test = False` (their
    aot_hygiene_checks); call it after them, at the end of the BUILD file. A failure names the library's objects
    or sources. No test when the package has none.

    Args:
      name: the test's name.
      **kwargs: size, tags, ... of the test.
    """
    checks = sorted([
        ":" + r["name"]
        for r in native.existing_rules().values()
        # A manual library (and so its check) is built only when asked for: the suite leaves it out.
        if r["kind"] == "aot_hygiene_check" and "manual" not in (r.get("tags") or [])
    ])
    if checks:
        aot_hygiene_test(name = name, checks = checks, size = kwargs.pop("size", "small"), **kwargs)
