"""WORKSPACE set-up for aot_rules (Bazel 4.2.3 and other WORKSPACE-mode users).

    local_repository(name = "aot_rules", path = "...")   # or an http_archive of a release
    load("@aot_rules//aot_rules:repositories.bzl", "aot_rules_dependencies", "aot_rules_register_toolchains")
    aot_rules_dependencies()
    aot_rules_register_toolchains()

Declared here: offline stand-ins for the repositories Bazel 4.2.3 would download, the Python toolchain that runs
the compiler (by default a venv built from the hash-checked requirements_lock.txt, the one thing fetched from the
package registry), and the pinned arm-none-eabi GCC (local install or official archive).
"""

load("//aot_rules/private:cpu_settings.bzl", "aot_cpu_settings")
load("//aot_rules/private:offline_shims.bzl", "offline_shim")
load("//aot_rules/private:python_venv.bzl", "python_hermetic", "python_venv")
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
        python = "hermetic",
        python_interpreter = None,
        python_base = None,
        arm_toolchain_local_path = "auto",
        arm_toolchain_urls = None,
        arm_toolchain_sha256 = None,
        arm_toolchain_strip_prefix = None):
    """Declares the repositories aot_rules needs. Call it before anything loads @rules_cc.

    Args:
      python: "hermetic" (default): the compiler runs in a venv that a repository rule creates from the pinned,
        hash-checked requirements_lock.txt (pip, from the package registry; CPython 3.11 needed on the host);
        "venv": the `.venv` of an aot_rules checkout (tools/setup.sh) or python_interpreter.
      python_interpreter: with python = "venv", the <prefix>/bin/python3 to use instead of the checkout's `.venv`.
      python_base: with python = "hermetic", the CPython 3.11 to create the venv from (default: from PATH).
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
    if not native.existing_rule("aot_cpu"):
        aot_cpu_settings(name = "aot_cpu")
    if not native.existing_rule("aot_python"):
        if python == "venv":
            python_venv(name = "aot_python", interpreter = python_interpreter or "")
        elif python == "hermetic":
            python_hermetic(name = "aot_python", python = python_base or "")
        else:
            fail("aot_rules_dependencies: python must be \"hermetic\" or \"venv\", not %r" % python)
    if not native.existing_rule("arm_none_eabi"):
        arm_gnu_toolchain(
            name = "arm_none_eabi",
            local_path = arm_toolchain_local_path or "" if not arm_toolchain_urls else "",
            urls = arm_toolchain_urls or [],
            sha256 = arm_toolchain_sha256 or "",
            strip_prefix = arm_toolchain_strip_prefix or "",
        )

def aot_rules_register_toolchains():
    """Registers the compiler's Python toolchain and one arm-none-eabi cc_toolchain per Cortex-M core."""
    native.register_toolchains("@aot_python//:toolchain", "@arm_none_eabi//:all")
