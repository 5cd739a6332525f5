"""I/O inside the workspace (`aotc compile --io_in_workspace`, `aot_model_library(io_in_workspace = True)`).

The model's inputs and outputs are planned in the workspace like any tensor, so the application needs no I/O
buffers of its own. API shape (instead of the I/O structs):

    #define P_IO_IN_WORKSPACE 1
    #define P_<FIELD>_OFFSET <offset in the workspace>
    static inline int8_t* p_input_<field>(void* workspace);              where to write an input before the run
    static inline const int8_t* p_output_<field>(const void* workspace); where to read an output after it
    int32_t p_run(void* workspace);                                       (stateful: (void* workspace, void* state))

The inputs are consumed by the run (their bytes are reused once read): write them again before every run.
An accessor given a NULL workspace returns NULL (offsetting a null pointer is undefined behaviour in C), as
p_run(NULL) returns AOT_ERR_NULL_ARG: no public entry of the generated code dereferences or offsets a NULL argument.
"""


def io_offsets(fields, plan) -> dict:
    """C field name -> offset of the I/O tensor in the workspace."""
    return {f.field: plan.tensor_offset[f.tensor.index] for f in fields}


def accessor_lines(prefix: str, fields, plan) -> list:
    """The header's offset macros and accessors."""
    P = prefix.upper()
    offsets = io_offsets(fields, plan)
    L = [f"#define {P}_IO_IN_WORKSPACE 1 /* inputs and outputs live in the workspace: use the accessors */"]
    L += [f"#define {P}_{f.field.upper()}_OFFSET {offsets[f.field]}u" for f in fields]
    L += [
        "",
        f"/* Where to write each input before {prefix}_run() and read each output after it: inside the",
        " * workspace. The run consumes its inputs: write them again before every run. A NULL workspace gives NULL. */",
    ]
    for f in fields:
        c, M = f.tensor.ctype, f"{P}_{f.field.upper()}_OFFSET"
        if f.kind == "input":
            L.append(f"static inline {c}* {prefix}_input_{f.field}(void* workspace)")
            L.append(f"{{ return (workspace == NULL) ? NULL : ({c}*)(void*)((uint8_t*)workspace + {M}); }}")
        else:
            L.append(f"static inline const {c}* {prefix}_output_{f.field}(const void* workspace)")
            L.append(
                f"{{ return (workspace == NULL) ? NULL : (const {c}*)(const void*)((const uint8_t*)workspace + {M}); }}"
            )
    return L + [""]


def io_saving(fields, workspace_size: int, separate_io_workspace: int) -> dict:
    """The manifest's record of what I/O in the workspace saves against separate I/O buffers."""
    io_bytes = sum(f.tensor.nbytes for f in fields)
    separate_total = separate_io_workspace + io_bytes
    return {
        "enabled": True,
        "io_bytes": io_bytes,
        "workspace_with_separate_io": separate_io_workspace,
        "total_ram_separate_io": separate_total,
        "total_ram": workspace_size,
        "saved": separate_total - workspace_size,
    }
