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
