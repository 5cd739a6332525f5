"""Every public entry of the generated code refuses NULL arguments, and a misaligned workspace, state or weights
blob, with a documented error code (aot/errors.h).

One stateful model (an SVDF: it has `_reset` and a state argument) compiled three ways, linked into one host
program that calls each exported function with NULL in each pointer position: `_run` with the I/O structs,
`_reset`, the I/O accessors of --io_in_workspace, and `_bind_weights` / `_run` of --weights blob; then with a
pointer one byte past an aligned one (the runner's alignment checks, aot_is_aligned of aot/align.h). A NULL
dereference would crash the program, a missed check return AOT_OK or another code, and an accessor that
offsets a NULL workspace return a pointer that is not NULL.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))

from test_stateful import svdf_model  # noqa: E402

from compiler.driver import compile_model, write_files  # noqa: E402
from compiler.hostbuild import build_executable  # noqa: E402

_MAIN = r"""
#include <stdio.h>
#include "na.h"
#include "nb.h"
#include "nc.h"
#include "aot/errors.h"

static uint8_t ws[NA_WORKSPACE_SIZE + NB_WORKSPACE_SIZE + NC_WORKSPACE_SIZE] __attribute__((aligned(16)));
static uint8_t st[NA_STATE_SIZE + NB_STATE_SIZE + NC_STATE_SIZE] __attribute__((aligned(16)));

#define EXPECT(call, code)                                                  \
    do {                                                                    \
        int32_t rc_ = (call);                                               \
        if (rc_ != (code)) {                                                \
            printf("%s returned %d, expected %s\n", #call, (int)rc_, #code); \
            failures++;                                                     \
        }                                                                   \
    } while (0)

int main(void)
{
    int8_t x[NA_X_SIZE], y[NA_Y_SIZE];
    struct na_inputs in = {x};
    struct na_outputs out = {y};
    struct na_inputs in_null = {NULL};
    struct na_outputs out_null = {NULL};
    struct nc_inputs cin = {x};
    struct nc_outputs cout = {y};
    int failures = 0;

    /* <prefix>_run with I/O structs, and <prefix>_reset. */
    EXPECT(na_reset(NULL), AOT_ERR_NULL_ARG);
    EXPECT(na_run(NULL, &out, ws, st), AOT_ERR_NULL_ARG);
    EXPECT(na_run(&in, NULL, ws, st), AOT_ERR_NULL_ARG);
    EXPECT(na_run(&in_null, &out, ws, st), AOT_ERR_NULL_ARG);
    EXPECT(na_run(&in, &out_null, ws, st), AOT_ERR_NULL_ARG);
    EXPECT(na_run(&in, &out, NULL, st), AOT_ERR_NULL_ARG);
    EXPECT(na_run(&in, &out, ws, NULL), AOT_ERR_NULL_ARG);
    EXPECT(na_reset(st), AOT_OK);
    EXPECT(na_run(&in, &out, ws, st), AOT_OK);

    /* --io_in_workspace: the run, the reset and the accessors. */
    EXPECT(nb_reset(NULL), AOT_ERR_NULL_ARG);
    EXPECT(nb_run(NULL, st), AOT_ERR_NULL_ARG);
    EXPECT(nb_run(ws, NULL), AOT_ERR_NULL_ARG);
    if (nb_input_x(NULL) != NULL || nb_output_y(NULL) != NULL) {
        printf("an I/O accessor of a NULL workspace is not NULL\n");
        failures++;
    }
    if (nb_input_x(ws) == NULL || nb_output_y(ws) == NULL) {
        printf("an I/O accessor of a workspace is NULL\n");
        failures++;
    }
    EXPECT(nb_reset(st), AOT_OK);
    EXPECT(nb_run(ws, st), AOT_OK);

    /* --weights blob: binding NULL, and running while nothing is bound. */
    EXPECT(nc_bind_weights(NULL, 0u), AOT_ERR_NULL_ARG);
    EXPECT(nc_bind_weights(NULL, 4096u), AOT_ERR_NULL_ARG);
    EXPECT(nc_run(NULL, &cout, ws, st), AOT_ERR_NULL_ARG);
    EXPECT(nc_run(&cin, &cout, ws, st), AOT_ERR_WEIGHTS_UNBOUND);
    EXPECT(nc_reset(NULL), AOT_ERR_NULL_ARG);

    /* Misaligned: one byte past a 16-byte aligned buffer; NULL is still refused before alignment. */
#if NA_WORKSPACE_ALIGN < 2 || NA_STATE_ALIGN < 2 || NB_WORKSPACE_ALIGN < 2
#error "the misaligned cases need an alignment of at least 2"
#endif
    EXPECT(na_run(&in, &out, ws + 1, st), AOT_ERR_WORKSPACE_ALIGN);
    EXPECT(na_run(&in, &out, ws, st + 1), AOT_ERR_STATE_ALIGN);
    EXPECT(na_run(&in, &out, NULL, st + 1), AOT_ERR_NULL_ARG);
    EXPECT(na_reset(st + 1), AOT_ERR_STATE_ALIGN);
    EXPECT(nb_run(ws + 1, st), AOT_ERR_WORKSPACE_ALIGN);
    EXPECT(nb_reset(st + 2), AOT_ERR_STATE_ALIGN);
    EXPECT(nc_bind_weights(ws + 4, 4096u), AOT_ERR_BLOB_ALIGN);
    EXPECT(nc_bind_weights(ws + 8, 0u), AOT_ERR_BLOB_ALIGN);

    printf("failures=%d\n", failures);
    return failures == 0 ? 0 : 1;
}
"""


def test_every_entry_refuses_null(tmp_path):
    path = svdf_model("int8", "int8", state_q=(0.5, -50), time_scale=0.01, out_q=(0.3, -7)).save(tmp_path / "sv.tflite")
    sources = []
    for prefix, kw in (("na", {}), ("nb", {"io_in_workspace": True}), ("nc", {"weights": "blob"})):
        compiled = compile_model(str(path), prefix, **kw)
        write_files(str(tmp_path), {n: t for n, t in compiled.files.items() if n.endswith((".c", ".h"))})
        sources += [str(tmp_path / n) for n in sorted(compiled.files) if n.endswith(".c")]
    # The alignment checks call the CRT's aot_is_aligned: the generated code converts no pointer to an integer
    # (MISRA C:2012 rules 11.4 / 11.6; docs/misra.md).
    for n in ("na.c", "nb.c", "nc.c"):
        text = (tmp_path / n).read_text()
        assert "uintptr_t" not in text and text.count("aot_is_aligned(") >= 2, n
    header = (tmp_path / "nb.h").read_text()
    assert "nb_input_x(void* workspace)" in header and "(workspace == NULL) ? NULL" in header
    main = tmp_path / "main.c"
    main.write_text(_MAIN)
    exe = str(tmp_path / "null_args")
    build_executable(sources + [str(main)], [str(tmp_path)], exe)
    proc = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "failures=0" in proc.stdout, proc.stdout + proc.stderr
