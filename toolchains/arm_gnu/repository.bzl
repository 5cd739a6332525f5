"""Repository rule providing a pinned arm-none-eabi GCC: a release archive (URL + sha256) or a checked local install.

The compiler Bazel uses is never taken silently from PATH. Either
- `local_path` names an installation prefix (e.g. "/usr" for Debian's gcc-arm-none-eabi) whose
  `arm-none-eabi-gcc --version` must report the pinned release's version, or
- `local_path = "auto"` (the default of aot_rules_dependencies): the local install at /usr when it exists and
  reports the pinned version (Debian bookworm's package does), otherwise the official archive for this host, or
- `urls` + `sha256` (+ `strip_prefix`) name an archive, or
- none is given, and the official Arm GNU Toolchain archive for this host is taken from releases.bzl.
The repository defines one cc_toolchain per Cortex-M core of toolchains/cores.bzl.
"""

load("//toolchains/arm_gnu:releases.bzl", "ARM_GNU_RELEASES", "archive_for")

_TOOLS = ["addr2line", "ar", "as", "cpp", "gcc", "gcov", "ld", "nm", "objcopy", "objdump", "readelf", "size", "strip"]

# Where local_path = "auto" looks for a matching install (Debian/Ubuntu's gcc-arm-none-eabi package).
_AUTO_LOCAL_PREFIX = "/usr"

def _is_windows(rctx):
    return rctx.os.name.lower().startswith("windows")

def _host_arch(rctx):
    if _is_windows(rctx):
        return rctx.os.environ.get("PROCESSOR_ARCHITECTURE", "amd64")
    return rctx.execute(["uname", "-m"]).stdout.strip()

def _local_version_matches(rctx, prefix, release):
    gcc = rctx.path("%s/bin/arm-none-eabi-gcc" % prefix)
    if not gcc.exists:
        return False
    res = rctx.execute([gcc, "--version"])
    return res.return_code == 0 and ARM_GNU_RELEASES[release]["version_string"] in res.stdout

def _exec_cpu(rctx):
    return "aarch64" if _host_arch(rctx).lower() in ["aarch64", "arm64"] else "x86_64"

def _normalize(path):
    """Removes `.` and `..` segments (Bazel refuses unnormalized include paths)."""
    parts = []
    for seg in path.split("/"):
        if seg == "..":
            if parts and parts[-1] not in ["", ".."]:
                parts.pop()
            else:
                parts.append(seg)
        elif seg != ".":
            parts.append(seg)
    return "/".join(parts)

def _builtin_include_dirs(rctx, gcc):
    res = rctx.execute([gcc, "-E", "-xc", "-Wp,-v", "/dev/null"])
    dirs = []
    in_list = False
    for line in res.stderr.splitlines():
        if line.startswith("#include <...> search starts here:"):
            in_list = True
        elif line.startswith("End of search list."):
            in_list = False
        elif in_list:
            path = _normalize(line.strip())
            dirs.append(path)
            real = str(rctx.path(path).realpath)
            if real != path:
                # Debian links .../arm-none-eabi/include to /usr/include/newlib; dependency files name the target.
                dirs.append(real)
    return dirs

def _check_version(rctx, gcc, release, origin):
    res = rctx.execute([gcc, "--version"])
    first = res.stdout.splitlines()[0] if res.stdout else res.stderr
    want = ARM_GNU_RELEASES[release]["version_string"]
    if res.return_code != 0 or want not in first:
        fail(("aot_rules: the arm-none-eabi-gcc from %s reports\n    %s\nbut release %s (gcc %s) is pinned. " +
              "Install that release, point local_path at it, or use the archive (urls + sha256) instead.") %
             (origin, first or "(no output; exit code %d)" % res.return_code, release, want))

def _arm_gnu_toolchain_impl(rctx):
    release = rctx.attr.release
    if release not in ARM_GNU_RELEASES:
        fail("aot_rules: unknown Arm GNU Toolchain release '%s'; known: %s" % (release, ", ".join(ARM_GNU_RELEASES)))
    local_path = rctx.attr.local_path
    if local_path == "auto":
        local_path = _AUTO_LOCAL_PREFIX if _local_version_matches(rctx, _AUTO_LOCAL_PREFIX, release) else ""
    if local_path:
        prefix = local_path
        gcc = "%s/bin/arm-none-eabi-gcc" % prefix
        if not rctx.path(gcc).exists:
            fail("aot_rules: %s does not exist. Install arm-none-eabi-gcc %s there (on Debian: apt-get install " %
                 (gcc, release) + "gcc-arm-none-eabi libnewlib-arm-none-eabi) or fetch the archive instead.")
        _check_version(rctx, gcc, release, "local_path = \"%s\"" % prefix)

        # Small wrappers keep the tool paths inside this repository while the install stays where it is.
        for tool in _TOOLS:
            rctx.file(
                "bin/arm-none-eabi-" + tool,
                "#!/bin/sh\nexec \"%s/bin/arm-none-eabi-%s\" \"$@\"\n" % (prefix, tool),
                executable = True,
            )
        tool_dir = "bin"
        origin = "local installation " + prefix
    else:
        if rctx.attr.urls:
            urls, sha256, strip_prefix = rctx.attr.urls, rctx.attr.sha256, rctx.attr.strip_prefix
            if not sha256:
                fail("aot_rules: arm_gnu_toolchain(urls = ...) needs sha256: an unchecked toolchain is not pinned.")
        else:
            a, error = archive_for(release, rctx.os.name, _host_arch(rctx))
            if error:
                fail(error)
            urls, sha256, strip_prefix = [a["url"]], a["sha256"], a["strip_prefix"]
        result = rctx.download_and_extract(
            url = urls,
            sha256 = sha256,
            stripPrefix = strip_prefix,
            output = "toolchain",
            allow_fail = True,
        )
        if not result.success:
            fail(("aot_rules: could not fetch the arm-none-eabi toolchain archive %s with sha256 %s " +
                  "(wrong checksum, unreachable URL or bad archive; see the error above).") % (urls[0], sha256))
        gcc = str(rctx.path("toolchain/bin/arm-none-eabi-gcc" + (".exe" if _is_windows(rctx) else "")))
        _check_version(rctx, gcc, release, urls[0])
        tool_dir = "toolchain/bin"
        origin = "archive " + urls[0]

    rctx.file("BUILD.bazel", """\
# Generated by aot_rules' arm_gnu_toolchain from the {origin}.
load("@aot_rules//toolchains:cores.bzl", "CORES")
load("@aot_rules//toolchains/arm_gnu:cc_toolchain_config.bzl", "arm_gnu_cc_toolchain_config")
load("@rules_cc//cc:defs.bzl", "cc_toolchain")

package(default_visibility = ["//visibility:public"])

filegroup(
    name = "all_files",
    srcs = glob(["bin/**", "toolchain/**"]),
)

[arm_gnu_cc_toolchain_config(
    name = "config_" + core,
    core = core,
    core_flags = flags,
    include_dirs = {include_dirs},
    tool_dir = "{tool_dir}",
    tool_suffix = "{tool_suffix}",
) for core, flags in CORES.items()]

[cc_toolchain(
    name = "cc_" + core,
    all_files = ":all_files",
    ar_files = ":all_files",
    as_files = ":all_files",
    compiler_files = ":all_files",
    dwp_files = ":all_files",
    linker_files = ":all_files",
    objcopy_files = ":all_files",
    strip_files = ":all_files",
    supports_param_files = 1,
    toolchain_config = ":config_" + core,
    toolchain_identifier = "arm-none-eabi-" + core,
) for core in CORES]

[toolchain(
    name = core,
    exec_compatible_with = ["@platforms//cpu:{exec_cpu}"],
    target_compatible_with = [
        "@platforms//os:none",
        "@aot_rules//toolchains:" + core,
    ],
    toolchain = ":cc_" + core,
    toolchain_type = "@bazel_tools//tools/cpp:toolchain_type",
) for core in CORES]
""".format(
        origin = origin,
        include_dirs = repr(_builtin_include_dirs(rctx, gcc)),
        tool_dir = tool_dir,
        tool_suffix = ".exe" if _is_windows(rctx) and tool_dir == "toolchain/bin" else "",
        exec_cpu = _exec_cpu(rctx),
    ))

arm_gnu_toolchain = repository_rule(
    implementation = _arm_gnu_toolchain_impl,
    doc = "A pinned arm-none-eabi GCC (archive with sha256, or a local install with a checked version).",
    attrs = {
        "release": attr.string(default = "12.2.rel1", doc = "Key of ARM_GNU_RELEASES (releases.bzl)."),
        "local_path": attr.string(doc = "Installation prefix of a local toolchain (its bin/ holds arm-none-eabi-gcc), " +
                                        "or \"auto\": /usr when it holds the pinned release, else the archive."),
        "urls": attr.string_list(doc = "Archive URLs (file:// works); default: the official archive for this host."),
        "sha256": attr.string(doc = "sha256 of the archive (required with urls)."),
        "strip_prefix": attr.string(doc = "Top-level directory inside the archive."),
    },
)
