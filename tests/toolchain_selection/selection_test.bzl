"""A test of which official Arm GNU Toolchain archive every host gets, evaluated at analysis time without a network.

releases.bzl's host_key / archive_for are the functions the repository rule calls with repository_ctx's OS name and
`uname -m`; here they are called with the values each host reports, and the table's entries are checked for form
(an https URL on Arm's download server, a 64-digit sha256, a strip_prefix that names the archive's top directory).
The verdict becomes a shell script that prints every case and exits non-zero on any mismatch.
"""

load("//toolchains/arm_gnu:releases.bzl", "ARM_GNU_RELEASES", "archive_for")

# (repository_ctx.os.name, arch as reported, expected archive file name or None when there is none)
_CASES = [
    ("linux", "x86_64", "arm-gnu-toolchain-12.2.rel1-x86_64-arm-none-eabi.tar.xz"),
    ("linux", "aarch64", "arm-gnu-toolchain-12.2.rel1-aarch64-arm-none-eabi.tar.xz"),
    ("linux", "arm64", "arm-gnu-toolchain-12.2.rel1-aarch64-arm-none-eabi.tar.xz"),
    ("mac os x", "x86_64", "arm-gnu-toolchain-12.2.rel1-darwin-x86_64-arm-none-eabi.tar.xz"),
    ("mac os x", "arm64", "arm-gnu-toolchain-12.2.rel1-darwin-arm64-arm-none-eabi.tar.xz"),
    ("windows 10", "AMD64", "arm-gnu-toolchain-12.2.rel1-mingw-w64-i686-arm-none-eabi.zip"),
    ("windows server 2019", "ARM64", "arm-gnu-toolchain-12.2.rel1-mingw-w64-i686-arm-none-eabi.zip"),
    ("freebsd", "amd64", None),
]

_HEX = "0123456789abcdef"

def _check_entry(key, a):
    problems = []
    if not a["url"].startswith("https://developer.arm.com/-/media/Files/downloads/gnu/12.2.rel1/binrel/"):
        problems.append("%s: URL %s is not on Arm's 12.2.rel1 download path" % (key, a["url"]))
    sha = a["sha256"]
    if len(sha) != 64 or [c for c in sha.elems() if c not in _HEX.elems()]:
        problems.append("%s: sha256 %r is not 64 lowercase hex digits" % (key, sha))
    name = a["url"].split("/")[-1]
    if not name.startswith(a["strip_prefix"] + "."):
        problems.append("%s: strip_prefix %s does not match the archive %s" % (key, a["strip_prefix"], name))
    return problems

def _impl(ctx):
    lines = []
    problems = []
    for release, r in ARM_GNU_RELEASES.items():
        for key, a in r["archives"].items():
            problems += _check_entry(key, a)
        want_hosts = ["darwin-arm64", "darwin-x86_64", "linux-aarch64", "linux-x86_64", "windows"]
        missing = [h for h in want_hosts if h not in r["archives"]]
        if missing:
            problems.append("release %s has no archive for %s" % (release, ", ".join(missing)))
        shas = [a["sha256"] for a in r["archives"].values()]
        if len(shas) != len({s: 1 for s in shas}):
            problems.append("release %s: two hosts share one sha256" % release)
    for os_name, arch, want in _CASES:
        a, error = archive_for("12.2.rel1", os_name, arch)
        got = a["url"].split("/")[-1] if a else None
        lines.append("%s / %s -> %s" % (os_name, arch, got or "(none: %s)" % error.split(";")[0]))
        if got != want:
            problems.append("%s/%s: expected %s, got %s" % (os_name, arch, want, got))
        if not a and (not error or "arm_toolchain_local_path" not in error):
            problems.append("%s/%s: the refusal does not say what to do instead" % (os_name, arch))
    script = ["#!/bin/sh", "cat <<'AOT_EOF'"] + lines + ["AOT_EOF"]
    if problems:
        script += ["cat >&2 <<'AOT_EOF'", "FAIL:"] + problems + ["AOT_EOF", "exit 1"]
    else:
        script += ["echo 'toolchain selection: every host gets its archive; the table is well formed'", "exit 0"]
    out = ctx.actions.declare_file(ctx.label.name + ".sh")
    ctx.actions.write(out, "\n".join(script) + "\n", is_executable = True)
    return [DefaultInfo(executable = out)]

toolchain_selection_test = rule(
    implementation = _impl,
    test = True,
    doc = "Checks releases.bzl's per-host archive selection and the form of its entries (no network).",
)
