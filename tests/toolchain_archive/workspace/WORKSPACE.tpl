workspace(name = "toolchain_archive_test")

# Written by tests/toolchain_archive/run_test.sh: the ARM toolchain comes from an archive, checked by sha256.
local_repository(
    name = "aot_rules",
    path = "%AOT_RULES%",
)

load("@aot_rules//aot_rules:repositories.bzl", "aot_rules_dependencies", "aot_rules_register_toolchains")

# The compiler runs in the aot_rules checkout's .venv (this test is about the ARM toolchain; e2e/ covers the
# hermetic Python, whose pip install needs the package registry).
aot_rules_dependencies(
    python = "venv",
    arm_toolchain_local_path = None,
    arm_toolchain_sha256 = "%SHA256%",
    arm_toolchain_strip_prefix = "%STRIP_PREFIX%",
    arm_toolchain_urls = ["%URL%"],
)

aot_rules_register_toolchains()
