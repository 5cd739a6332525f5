"""Module extension for Bazel 7+ (bzlmod): the repositories WORKSPACE users get from aot_rules_dependencies().

Kept in its own file because Bazel 4.2.3 cannot load bzlmod constructs from anything WORKSPACE loads.
Usage (MODULE.bazel):
    aot = use_extension("@aot_rules//aot_rules:extensions.bzl", "aot")
    aot.toolchain(local_path = "auto")            # or "/usr", or urls = [...], sha256 = "...", strip_prefix = "..."
    use_repo(aot, "aot_cpu", "aot_python", "arm_none_eabi")
"""

load("//aot_rules/private:cpu_settings.bzl", "aot_cpu_settings")
load("//aot_rules/private:python_venv.bzl", "python_hermetic", "python_venv")
load("//toolchains/arm_gnu:repository.bzl", "arm_gnu_toolchain")

_toolchain = tag_class(attrs = {
    "local_path": attr.string(
        default = "auto",
        doc = "Prefix of a local arm-none-eabi GCC install (version checked); \"auto\": /usr when it holds the " +
              "pinned release, else the official archive for the host; \"\": always the archive.",
    ),
    "urls": attr.string_list(doc = "Archive URLs of the toolchain."),
    "sha256": attr.string(doc = "sha256 of the archive."),
    "strip_prefix": attr.string(doc = "Top-level directory inside the archive."),
    "python": attr.string(default = "hermetic", doc = "\"hermetic\": a venv from requirements_lock.txt; \"venv\": a checkout's .venv."),
    "python_interpreter": attr.string(doc = "With python = \"venv\": the <prefix>/bin/python3 to use."),
})

def _aot_impl(module_ctx):
    tags = [t for mod in module_ctx.modules for t in mod.tags.toolchain]
    tag = tags[0] if tags else None
    if tag and tag.python == "venv":
        python_venv(name = "aot_python", interpreter = tag.python_interpreter)
    else:
        python_hermetic(name = "aot_python")
    aot_cpu_settings(name = "aot_cpu")
    arm_gnu_toolchain(
        name = "arm_none_eabi",
        local_path = (tag.local_path if not tag.urls else "") if tag else "auto",
        urls = tag.urls if tag else [],
        sha256 = tag.sha256 if tag else "",
        strip_prefix = tag.strip_prefix if tag else "",
    )

aot = module_extension(
    implementation = _aot_impl,
    tag_classes = {"toolchain": _toolchain},
)
