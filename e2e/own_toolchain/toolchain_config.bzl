"""The user's own cc toolchain: arm-none-eabi-gcc for a Cortex-M7 product, written the way a firmware team writes
theirs (tool paths, their flags, their linker script), nothing from aot_rules."""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:cc_toolchain_config_lib.bzl", "feature", "flag_group", "flag_set", "tool_path")

_CORE_FLAGS = ["-mcpu=cortex-m7", "-mthumb", "-mfloat-abi=hard", "-mfpu=fpv5-d16"]

def _impl(ctx):
    tools = [tool_path(name = n, path = "/usr/bin/arm-none-eabi-" + n) for n in ["gcc", "ld", "ar", "cpp", "nm", "objcopy", "objdump", "strip", "gcov"]]
    compile_actions = [
        ACTION_NAMES.c_compile,
        ACTION_NAMES.cpp_compile,
        ACTION_NAMES.assemble,
        ACTION_NAMES.preprocess_assemble,
    ]
    flags = feature(
        name = "product_flags",
        enabled = True,
        flag_sets = [
            flag_set(actions = compile_actions, flag_groups = [flag_group(flags = _CORE_FLAGS + [
                "-O2",
                "-ffunction-sections",
                "-fdata-sections",
                "-no-canonical-prefixes",
                "-fno-canonical-system-headers",
            ])]),
            flag_set(actions = [ACTION_NAMES.cpp_link_executable], flag_groups = [flag_group(flags = _CORE_FLAGS + [
                "-Wl,--gc-sections",
                "-no-canonical-prefixes",
            ])]),
        ],
    )
    return cc_common.create_cc_toolchain_config_info(
        ctx = ctx,
        toolchain_identifier = "product-m7",
        host_system_name = "x86_64-linux",
        target_system_name = "arm-none-eabi",
        target_cpu = "cortex-m7",
        target_libc = "newlib",
        compiler = "gcc",
        abi_version = "eabi",
        abi_libc_version = "newlib",
        tool_paths = tools,
        features = [flags],
        cxx_builtin_include_directories = [
            "/usr/lib/gcc/arm-none-eabi",
            "/usr/lib/arm-none-eabi/include",
            "/usr/include/newlib",
        ],
    )

product_toolchain_config = rule(implementation = _impl, provides = [CcToolchainConfigInfo])
