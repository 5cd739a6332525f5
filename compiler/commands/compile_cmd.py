"""`compile MODEL --prefix P --out_dir D [--target T] [--weights const|blob]`: write P.h, P.c, P_weights.c, P.json
(and P_weights.bin with --weights blob)."""

from ..driver import compile_model, write_files
from ..ops.kernel_table import options_from_flags
from ..user_kernels import options_from_flags as user_kernel_options, unused_mappings


def run_compile(model: str, flags) -> int:
    prefix = flags.prefix
    compiled = compile_model(
        model,
        prefix,
        flags.target,
        flags.ram_budget,
        flags.flash_budget,
        options_from_flags(flags),
        io_in_workspace=flags.io_in_workspace,
        user_kernels=user_kernel_options(flags),
        weights=getattr(flags, "weights", "const"),
    )
    paths = write_files(flags.out_dir, compiled.files)
    for spec in unused_mappings(compiled.graph, compiled.graph.user_kernels):
        print(f"{prefix}: note: no operator of the model matches user kernel mapping '{spec}'")
    if flags.quiet:
        return 0
    for path in paths:
        print(path)
    ws, state = compiled.manifest["workspace"], compiled.manifest["state"]["size"]
    print(
        f"{prefix}: {len(compiled.graph.ops)} ops, workspace {ws['size']} B "
        f"(lower bound {ws['lower_bound']} B), "
        + (f"state {state} B, " if state else "")
        + f"weights {compiled.manifest['weight_bytes']} B"
    )
    io = compiled.manifest.get("io_in_workspace")
    if io:
        print(
            f"{prefix}: I/O in the workspace: {io['total_ram']} B of RAM in all, against "
            f"{io['workspace_with_separate_io']} B + {io['io_bytes']} B of I/O buffers (saves {io['saved']} B)"
        )
    return 0
