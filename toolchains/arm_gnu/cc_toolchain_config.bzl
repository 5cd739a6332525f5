"""cc_toolchain configuration for arm-none-eabi-gcc, one instance per Cortex-M core (flags from cores.bzl)."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load(
    "@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl",
    "feature",
    "flag_group",
    "flag_set",
    "tool_path",
    "with_feature_set",
)

_COMPILE_ACTIONS = [
    ACTION_NAMES.assemble,
    ACTION_NAMES.preprocess_assemble,
    ACTION_NAMES.c_compile,
    ACTION_NAMES.cpp_compile,
    ACTION_NAMES.cpp_header_parsing,
    ACTION_NAMES.cpp_module_compile,
]

_LINK_ACTIONS = [
    ACTION_NAMES.cpp_link_executable,
    ACTION_NAMES.cpp_link_dynamic_library,
    ACTION_NAMES.cpp_link_nodeps_dynamic_library,
]

# Flags of every compile action (after the core's), per --compilation_mode, and of every link. Public so that
# reports (bench/) can state the exact flags an image was built with.
COMPILE_FLAGS = [
    # Sections per function/object so --gc-sections drops unused kernels and weights.
    "-ffunction-sections",
    "-fdata-sections",
    "-fno-common",
    "-no-canonical-prefixes",
    "-fno-canonical-system-headers",
    "-Wno-builtin-macro-redefined",
    "-D__DATE__=\"redacted\"",
    "-D__TIMESTAMP__=\"redacted\"",
    "-D__TIME__=\"redacted\"",
]

MODE_COMPILE_FLAGS = {
    "dbg": ["-O0", "-g3"],
    "fastbuild": ["-Os", "-g"],
    "opt": ["-O2", "-DNDEBUG"],
}

LINK_FLAGS = ["-Wl,--gc-sections", "-no-canonical-prefixes"]

def _flags(actions, flags, features = None):
    return flag_set(
        actions = actions,
        flag_groups = [flag_group(flags = flags)],
        with_features = [with_feature_set(features = features)] if features else [],
    )

def _impl(ctx):
    tools = {name: "%s/arm-none-eabi-%s%s" % (ctx.attr.tool_dir, name, ctx.attr.tool_suffix) for name in [
        "ar",
        "cpp",
        "gcc",
        "gcov",
        "ld",
        "nm",
        "objcopy",
        "objdump",
        "strip",
    ]}
    core_flags = ctx.attr.core_flags
    features = [
        feature(name = "dbg"),
        feature(name = "fastbuild"),
        feature(name = "opt"),
        # Bazel marks these as supported so it does not add host-only flags.
        feature(name = "supports_pic", enabled = False),
        feature(
            name = "aot_core",
            enabled = True,
            flag_sets = [_flags(_COMPILE_ACTIONS + _LINK_ACTIONS, core_flags)],
        ),
        feature(
            name = "aot_defaults",
            enabled = True,
            flag_sets = [
                _flags(_COMPILE_ACTIONS, COMPILE_FLAGS),
            ] + [
                _flags(_COMPILE_ACTIONS, flags, [mode])
                for mode, flags in MODE_COMPILE_FLAGS.items()
            ] + [
                _flags(_LINK_ACTIONS, LINK_FLAGS),
            ],
        ),
    ]
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "arm-none-eabi-" + ctx.attr.core,
        host_system_name = "local",
        target_system_name = "arm-none-eabi",
        target_cpu = ctx.attr.core,
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "newlib",
        tool_paths = [tool_path(name = n, path = p) for n, p in tools.items()],
        features = features,
        cxx_builtin_include_directories = ctx.attr.include_dirs,
    )

arm_gnu_cc_toolchain_config = rule(
    implementation = _impl,
    doc = "CcToolchainConfigInfo for arm-none-eabi-gcc targeting one Cortex-M core.",
    attrs = {
        "core": attr.string(mandatory = True, doc = "Core name, a key of CORES."),
        "core_flags": attr.string_list(mandatory = True, doc = "-mcpu/-mfpu/-mfloat-abi flags of the core."),
        "tool_dir": attr.string(mandatory = True, doc = "Directory (relative to this package) of the tools."),
        "tool_suffix": attr.string(doc = "File name suffix of the tools (\".exe\" for the Windows archive)."),
        "include_dirs": attr.string_list(doc = "The compiler's built-in include directories."),
    },
    provides = [CcToolchainConfigInfo],
)
