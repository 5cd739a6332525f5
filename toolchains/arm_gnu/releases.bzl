"""Pinned Arm GNU Toolchain releases: the official archive of each release for every host, and how a host picks one.

The URLs are Arm's download locations for the AArch32 bare-metal (arm-none-eabi) toolchain. Arm publishes a
`.sha256asc` file beside each archive; this machine has no route to Arm's site, so the sums below are the ones
several independent projects pinned from those files, and each was required to agree in at least two of them:
a Bazel toolchain table for arm-none-eabi 12.2.rel1 (all five hosts), a PyPI wrapper of the Arm toolchains that
lists sha256 and md5 per archive (all five), the osx-cross Homebrew formula arm-gcc-bin@12 (both macOS archives),
and Yocto recipes and Arch PKGBUILDs (both Linux archives). No source disagreed.

`host_key` and `archive_for` are pure functions of the host's OS name and CPU (as Bazel's repository_ctx reports
them), so tests/toolchain_selection checks the choice for every host without a network or another machine.
"""

_ARM = "https://developer.arm.com/-/media/Files/downloads/gnu/12.2.rel1/binrel/"

ARM_GNU_RELEASES = {
    "12.2.rel1": {
        "version_string": "12.2.1 20221205",
        "archives": {
            "linux-x86_64": {
                "url": _ARM + "arm-gnu-toolchain-12.2.rel1-x86_64-arm-none-eabi.tar.xz",
                "sha256": "84be93d0f9e96a15addd490b6e237f588c641c8afdf90e7610a628007fc96867",
                "strip_prefix": "arm-gnu-toolchain-12.2.rel1-x86_64-arm-none-eabi",
            },
            "linux-aarch64": {
                "url": _ARM + "arm-gnu-toolchain-12.2.rel1-aarch64-arm-none-eabi.tar.xz",
                "sha256": "7ee332f7558a984e239e768a13aed86c6c3ac85c90b91d27f4ed38d7ec6b3e8c",
                "strip_prefix": "arm-gnu-toolchain-12.2.rel1-aarch64-arm-none-eabi",
            },
            "darwin-x86_64": {
                "url": _ARM + "arm-gnu-toolchain-12.2.rel1-darwin-x86_64-arm-none-eabi.tar.xz",
                "sha256": "00c0eeb57ae92332f216151ac66df6ba17d2d3b306dac86f4006006f437b2902",
                "strip_prefix": "arm-gnu-toolchain-12.2.rel1-darwin-x86_64-arm-none-eabi",
            },
            "darwin-arm64": {
                "url": _ARM + "arm-gnu-toolchain-12.2.rel1-darwin-arm64-arm-none-eabi.tar.xz",
                "sha256": "21a9e875250bcb0db8df4cb23dd43c94c00a1d3b98ecba9cdd6ed51586b12248",
                "strip_prefix": "arm-gnu-toolchain-12.2.rel1-darwin-arm64-arm-none-eabi",
            },
            # Arm ships one Windows build (a 32-bit mingw executable set); it runs on x86_64 and arm64 Windows.
            "windows": {
                "url": _ARM + "arm-gnu-toolchain-12.2.rel1-mingw-w64-i686-arm-none-eabi.zip",
                "sha256": "ad1427496cde9bbe7604bc448ec6e115c6538e04af1c8275795ebb1c2b7b2830",
                "strip_prefix": "arm-gnu-toolchain-12.2.rel1-mingw-w64-i686-arm-none-eabi",
            },
        },
    },
}

def host_key(os_name, arch):
    """The archives key of a host: os_name as repository_ctx.os.name reports it ("linux", "mac os x",
    "windows 10", ...), arch as `uname -m` (or the OS) does ("x86_64", "amd64", "aarch64", "arm64")."""
    os_name = os_name.lower()
    arm = arch.lower() in ["aarch64", "arm64"]
    if os_name.startswith("linux"):
        return "linux-aarch64" if arm else "linux-x86_64"
    if os_name.startswith("mac") or os_name.startswith("darwin"):
        return "darwin-arm64" if arm else "darwin-x86_64"
    if os_name.startswith("windows"):
        return "windows"
    return "unknown-%s-%s" % (os_name.replace(" ", "_"), arch)

def archive_for(release, os_name, arch):
    """(archive dict, None) for the host, or (None, error message)."""
    if release not in ARM_GNU_RELEASES:
        return None, "aot_rules: unknown Arm GNU Toolchain release '%s'; known: %s" % (
            release,
            ", ".join(ARM_GNU_RELEASES),
        )
    archives = ARM_GNU_RELEASES[release]["archives"]
    key = host_key(os_name, arch)
    if key not in archives:
        return None, ("aot_rules: release %s has no official archive for host %s (os '%s', cpu '%s'); have: %s. " +
                      "Install the toolchain and set arm_toolchain_local_path, or give arm_toolchain_urls + " +
                      "arm_toolchain_sha256.") % (release, key, os_name, arch, ", ".join(sorted(archives)))
    return archives[key], None
