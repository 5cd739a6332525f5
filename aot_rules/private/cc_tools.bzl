"""Exposes binutils of the C toolchain resolved for the current platform (objcopy, nm, objdump) to aot_rules' own rules.

`@bazel_tools//tools/cpp:current_cc_toolchain` is an alias of the --crosstool_top toolchain on Bazel 4.2.3 and does
not follow platform-based resolution, so rules that need the *ARM* binutils depend (through the board transition)
on a target of this rule, which resolves the cc toolchain type itself.
"""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

AotCcToolsInfo = provider(
    doc = "Binutils of the resolved C toolchain.",
    fields = {
        "objcopy": "string: path of objcopy.",
        "nm": "string: path of nm.",
        "objdump": "string: path of objdump.",
        "cpu": "string: target CPU of the toolchain (the core name for ARM toolchains).",
        "target_gnu_system_name": "string: the toolchain's target system (\"arm-none-eabi\" for ARM ones).",
        "compiler": "string: the toolchain's compiler name.",
        "files": "depset of File: everything the tools need to run.",
    },
)

def _cc_tools_impl(ctx):
    cc = find_cpp_toolchain(ctx)
    return [AotCcToolsInfo(
        objcopy = cc.objcopy_executable,
        nm = cc.nm_executable,
        objdump = cc.objdump_executable,
        cpu = cc.cpu,
        target_gnu_system_name = cc.target_gnu_system_name,
        compiler = cc.compiler,
        files = cc.all_files,
    )]

cc_tools = rule(
    implementation = _cc_tools_impl,
    doc = "Resolves the C toolchain of the target platform and exposes its objcopy, nm and objdump.",
    attrs = {
        "_cc_toolchain": attr.label(default = "@bazel_tools//tools/cpp:current_cc_toolchain"),
    },
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
    provides = [AotCcToolsInfo],
)

def check_bare_metal_toolchain(tools, what, board):
    """Fails with one paragraph when the C toolchain resolved for a board's platform is not a bare-metal ARM one.

    Bazel before 7 picks C toolchains from --crosstool_top (the host gcc) unless the workspace turns on platform-based
    resolution; a transition cannot set that flag, so the firmware would be compiled by the host compiler and fail
    deep in the build (`invalid register name for 'r0'`). Checked at analysis time instead."""
    system = tools.target_gnu_system_name or ""
    if "eabi" in system or system.startswith("arm") or system.startswith("thumb"):
        return
    fail((
        "%s for board %s: the C toolchain Bazel resolved for the board's platform is a host one (target system " +
        "\"%s\", cpu \"%s\"), not arm-none-eabi, so the firmware would be compiled by the host " +
        "compiler. Before Bazel 7, C toolchains follow --platforms only with platform-based toolchain resolution: " +
        "add the line\n\n    build --incompatible_enable_cc_toolchain_resolution\n\nto your workspace's .bazelrc " +
        "(and call aot_rules_register_toolchains() in WORKSPACE, or register aot_rules' toolchains in MODULE.bazel). " +
        "Bazel 7 and later do this by default."
    ) % (what, board, system, tools.cpu))
