"""`aot_user_kernel`: a cc_library of the application's that implements a model operator, plus what the aot compiler
needs to call it (the function, its scratch bytes, its init hook).

aot_model_library(custom_ops = {"MyOp": ":my_op"}, offload = {"CONV_2D": ":npu_conv"}) turns each into an
`aotc compile --custom_op` / `--offload` flag and links the kernel's cc_library into the model library. The C
interface is crt/include/aot/user_kernel.h (docs/user-kernels.md)."""

load(":providers.bzl", "AotUserKernelInfo")

def _aot_user_kernel_impl(ctx):
    if ctx.attr.scratch < 0:
        fail("aot_user_kernel %s: scratch must be >= 0 bytes, got %d." % (ctx.label, ctx.attr.scratch))
    spec = ctx.attr.function
    if ctx.attr.scratch:
        spec += ",scratch=%d" % ctx.attr.scratch
    if ctx.attr.init:
        spec += ",init=" + ctx.attr.init
    return [
        AotUserKernelInfo(function = ctx.attr.function, scratch = ctx.attr.scratch, init = ctx.attr.init, spec = spec),
        # The kernel is also a cc dependency: the model library links what it wraps.
        ctx.attr.library[CcInfo],
    ]

aot_user_kernel = rule(
    implementation = _aot_user_kernel_impl,
    doc = "A user kernel for aot_model_library(custom_ops = ..., offload = ...): a cc_library defining `function` " +
          "(and `init`), with the scratch bytes the compiler plans for it.",
    attrs = {
        "library": attr.label(mandatory = True, providers = [CcInfo], doc = "The cc_library defining the functions."),
        "function": attr.string(mandatory = True, doc = "C name of the kernel function."),
        "scratch": attr.int(default = 0, doc = "Bytes of workspace the kernel gets during its call (custom operators)."),
        "init": attr.string(doc = "C name of its init hook, run by <prefix>_init() (the model then has one)."),
    },
    provides = [AotUserKernelInfo, CcInfo],
)

def invert_kernel_map(mapping, what):
    """{key: kernel label} -> {kernel label: "key1|key2"} (a label-keyed attribute; one kernel may serve several
    keys)."""
    out = {}
    for key, label in mapping.items():
        if "|" in key:
            fail("%s: key \"%s\" may not contain '|'." % (what, key))
        out[label] = out[label] + "|" + key if label in out else key
    return out

def kernel_flags(flag, inverted):
    """`--custom_op KEY=SPEC` / `--offload KEY=SPEC` arguments of a label-keyed attribute, sorted by key."""
    pairs = []
    for target, keys in inverted.items():
        for key in keys.split("|"):
            pairs.append((key, target[AotUserKernelInfo].spec))
    return [a for key, spec in sorted(pairs) for a in [flag, "%s=%s" % (key, spec)]]
