"""WORKSPACE set-up for aot_rules (Bazel 4.2.3 and other WORKSPACE-mode users).

    local_repository(name = "aot_rules", path = "...")   # or an http_archive of a release
    load("@aot_rules//aot_rules:repositories.bzl", "aot_rules_dependencies", "aot_rules_register_toolchains")
    aot_rules_dependencies()
    aot_rules_register_toolchains()

Everything declared here is local: offline stand-ins for the repositories Bazel 4.2.3 would download, the Python
venv toolchain that runs the compiler, and the pinned arm-none-eabi GCC.
"""

load("//aot_rules/private:offline_shims.bzl", "offline_shim")
load("//aot_rules/private:python_venv.bzl", "python_venv")
load("//toolchains/arm_gnu:repository.bzl", "arm_gnu_toolchain")

def _shim(name, files, packages):
    if not native.existing_rule(name):
        offline_shim(
            name = name,
            files = [Label("//third_party/shims:%s/%s" % (name, f)) for f in files],
            strip = name,
            packages = packages,
        )

def aot_rules_dependencies(
        python_interpreter = None,
        arm_toolchain_local_path = "auto",
        arm_toolchain_urls = None,
        arm_toolchain_sha256 = None,
        arm_toolchain_strip_prefix = None):
    """Declares the repositories aot_rules needs. Call it before anything loads @rules_cc.

    Args:
      python_interpreter: absolute path of the Python that runs the compiler; default: `.venv` in the aot_rules
        checkout (created by tools/setup.sh).
      arm_toolchain_local_path: prefix of a local arm-none-eabi GCC install whose version must match the pinned
        release (Debian: "/usr"); "auto" (default): /usr when it holds the pinned release, otherwise the official
        archive for this host (macOS, Windows, other Linux distributions). None: always the archive.
      arm_toolchain_urls: archive URLs of the toolchain (with arm_toolchain_sha256); None with no local path
        means the official Arm GNU Toolchain archive for the host (toolchains/arm_gnu/releases.bzl).
      arm_toolchain_sha256: checksum of that archive.
      arm_toolchain_strip_prefix: top-level directory inside that archive.
    """
    _shim("rules_cc", ["cc/defs.bzl"], ["", "cc"])
    _shim("rules_java", ["java/defs.bzl"], ["", "java"])
    _shim("remote_coverage_tools", ["BUILD.shim", "noop.sh"], [""])
    if not native.existing_rule("aot_python"):
        python_venv(name = "aot_python", interpreter = python_interpreter or "")
    if not native.existing_rule("arm_none_eabi"):
        arm_gnu_toolchain(
            name = "arm_none_eabi",
            local_path = arm_toolchain_local_path or "" if not arm_toolchain_urls else "",
            urls = arm_toolchain_urls or [],
            sha256 = arm_toolchain_sha256 or "",
            strip_prefix = arm_toolchain_strip_prefix or "",
        )

def aot_rules_register_toolchains():
    """Registers the venv Python toolchain and one arm-none-eabi cc_toolchain per Cortex-M core."""
    native.register_toolchains("@aot_python//:toolchain", "@arm_none_eabi//:all")
