"""`per_core_library`: a C library whose objects depend only on the Cortex-M core, built once per core.

A firmware is built in its board's configuration (`--platforms=<board>_platform`, board_transition.bzl), and Bazel
keys configurations, and so output directories and actions, by the platform's label: two boards with the same core
(say mps2-an500 and a user's STM32F7 board, both Cortex-M7) compiled the whole CRT twice, into two directories,
with identical command lines but for the paths. The platform of every aot_board has the same constraints for the
same core (os none, cpu arm, the core, the aot_board marker), so it resolves the same toolchain and flags: building
the library under one canonical platform per core (`//toolchains:<core>_platform`) gives the same objects, once.

`per_core_library(name, library)` declares `name` as an alias that, in an aot_board configuration, points at
`<name>_<core>`, which builds `library` under the core's canonical platform (keeping the compilation mode, which
does change the objects); anywhere else (the host, a user's own platform and cc toolchain, which the canonical
platform would not select) it is `library` itself, built where it is asked for.

aot_model_library uses it too, for a model's generated C and its cc_library: a model linked into the firmware of
several boards of one core is compiled by aotc and by the C compiler once (the forwarding rule passes on the
model's AotModelInfo and output groups as well as CcInfo).
"""

load("//toolchains:cores.bzl", "CORES")
load(":board_transition.bzl", "TRANSITION_ALLOWLIST_ATTRS")
load(":providers.bzl", "AotModelInfo")

def _core_platform_impl(settings, attr):
    return {
        "//command_line_option:platforms": str(Label("//toolchains:%s_platform" % attr.core)),
        # Unchanged, but named so that every path into the configuration sets the same options (Bazel 4 names the
        # output directory after the options Starlark transitions have set).
        "//command_line_option:compilation_mode": settings["//command_line_option:compilation_mode"],
    }

_core_platform = transition(
    implementation = _core_platform_impl,
    inputs = ["//command_line_option:compilation_mode"],
    outputs = ["//command_line_option:platforms", "//command_line_option:compilation_mode"],
)

def _per_core_impl(ctx):
    library = ctx.attr.library[0]
    forwarded = [
        DefaultInfo(files = library[DefaultInfo].files, runfiles = library[DefaultInfo].default_runfiles),
    ]
    for provider in (CcInfo, AotModelInfo, OutputGroupInfo):
        if provider in library:
            forwarded.append(library[provider])
    return forwarded

_per_core = rule(
    implementation = _per_core_impl,
    doc = "Forwards `library` (a cc library, or a model's generated C) built under the canonical platform of `core`.",
    attrs = dict(TRANSITION_ALLOWLIST_ATTRS, **{
        "core": attr.string(mandatory = True, values = CORES.keys()),
        "library": attr.label(mandatory = True, cfg = _core_platform, providers = [[CcInfo], [AotModelInfo]]),
    }),
)

def per_core_library(name, library, visibility = None, **kwargs):
    """`name`: `library` compiled once per core for every aot_board of that core (see the module docstring).

    Args:
      name: the alias that dependents use.
      library: a cc_library whose objects depend on the core and the compilation mode only (or an
        aot_model_codegen, whose C does).
      visibility: of the alias.
      **kwargs: testonly, tags, ... of every target.
    """
    for core in CORES:
        _per_core(
            name = "%s_%s" % (name, core),
            core = core,
            library = library,
            # Built only through the alias, for the cores some firmware needs.
            tags = ["manual"] + (kwargs.get("tags") or []),
            visibility = ["//visibility:private"],
            **{k: v for k, v in kwargs.items() if k != "tags"}
        )
    native.alias(
        name = name,
        actual = select(dict(
            [(str(Label("//toolchains:%s_board" % core)), ":%s_%s" % (name, core)) for core in CORES] +
            [("//conditions:default", library)],
        )),
        visibility = visibility,
        **kwargs
    )
