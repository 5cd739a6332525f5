"""Pinned Arm GNU Toolchain releases (placeholder until the archive table lands)."""
ARM_GNU_RELEASES = {
    "12.2.rel1": {
        "version_string": "12.2.1 20221205",
        "archives": {},
    },
}
