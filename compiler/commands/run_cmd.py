"""`run MODEL --inputs IN.npz --outputs OUT.npz`: compile, build with cc, execute.

npz keys are the model's input/output tensor names.  An array may have the
tensor's exact shape (one case) or an extra leading dimension N (N cases run
in one process); outputs mirror that layout.
"""

import os
import tempfile

import numpy as np

from ..driver import compile_model, write_files
from ..errors import CompileError
from ..harness import render_run_harness
from ..hostbuild import build_executable, run_executable
from ..ir.dtypes import DTYPES

_PREFIX = "aotmodel"


def _load_cases(path: str, graph):
    try:
        data = np.load(path)
    except Exception as e:
        raise CompileError(f"Cannot read inputs file '{path}' as .npz: {e}.") from None
    arrays, batched, count = [], False, None
    for t in graph.inputs:
        if t.name not in data:
            raise CompileError(
                f"Inputs file '{path}' has no array named '{t.name}'. Expected keys (model "
                f"input tensor names): {', '.join(repr(x.name) for x in graph.inputs)}; "
                f"found: {', '.join(repr(k) for k in data.files) or 'none'}."
            )
        a = np.asarray(data[t.name])
        if tuple(a.shape) == tuple(t.shape):
            n, this_batched = 1, False
        elif a.ndim == len(t.shape) + 1 and tuple(a.shape[1:]) == tuple(t.shape):
            n, this_batched = a.shape[0], True
        else:
            raise CompileError(
                f"Input '{t.name}' has shape {list(a.shape)}; expected {list(t.shape)} or [N] + {list(t.shape)}."
            )
        if count is not None and n != count:
            raise CompileError("All inputs must have the same number of cases.")
        count, batched = n, batched or this_batched
        np_t = DTYPES[t.dtype].np
        if np.dtype(np_t).kind == "i":
            lo, hi = np.iinfo(np_t).min, np.iinfo(np_t).max
            if a.dtype.kind not in "iu" or a.min(initial=0) < lo or a.max(initial=0) > hi:
                raise CompileError(f"Input '{t.name}' must hold {t.dtype} values ({lo}..{hi}).")
        arrays.append(a.astype(np_t).reshape((n,) + tuple(t.shape)))
    return arrays, count, batched


def execute_on_host(compiled, cases: list, timeout: float = 300.0, blob: bytes = None, blob_args=()) -> list:
    """Build a compiled model with this PC's C compiler and run `cases` (per case: the input arrays in model input
    order) through it in one process; per case, the output arrays in model output order.  A model compiled with
    its weights in a blob binds `blob` (default: its own <prefix>_weights.bin) first; `blob_args`: the harness's
    [SIZE] [SHIFT] (compiler/harness.py)."""
    graph, prefix = compiled.graph, compiled.prefix
    blob_name = f"{prefix}_weights.bin"
    blob_size = len(compiled.files[blob_name]) if blob_name in compiled.files else None
    with tempfile.TemporaryDirectory(prefix="aotc-run-") as tmp:
        write_files(tmp, compiled.files)
        harness = os.path.join(tmp, "harness.c")
        with open(harness, "w") as f:
            f.write(render_run_harness(prefix, compiled.fields, blob_size))
        extra = []
        if blob_size is not None:
            extra = [os.path.join(tmp, "bound.bin")] + [str(a) for a in blob_args]
            with open(extra[0], "wb") as f:
                f.write(compiled.files[blob_name] if blob is None else blob)
        exe = os.path.join(tmp, "model_run")
        build_executable(
            [os.path.join(tmp, f"{prefix}.c"), os.path.join(tmp, f"{prefix}_weights.c"), harness], [tmp], exe
        )
        in_bin, out_bin = os.path.join(tmp, "in.bin"), os.path.join(tmp, "out.bin")
        with open(in_bin, "wb") as f:
            for case in cases:
                for t, a in zip(graph.inputs, case):
                    f.write(np.ascontiguousarray(np.asarray(a).astype(DTYPES[t.dtype].np)).tobytes())
        proc = run_executable(exe, [in_bin, out_bin, str(len(cases))] + extra, timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"generated program failed ({proc.returncode}): {proc.stderr}")
        raw = open(out_bin, "rb").read()
    results, pos = [], 0
    for _ in cases:
        outs = []
        for t in graph.outputs:
            outs.append(np.frombuffer(raw[pos : pos + t.nbytes], DTYPES[t.dtype].np).reshape(t.shape))
            pos += t.nbytes
        results.append(outs)
    return results


def run_model(
    model: str,
    inputs_path: str,
    outputs_path: str,
    target: str = "host",
    io_in_workspace: bool = False,
    kernel_options=None,
) -> dict:
    """`target` selects kernels and weight layouts; the build is always for this PC (kernels for DSP cores
    fall back to portable emulations of their instructions), so other targets' code can be checked here.
    kernel_options: ops/kernel_table.py's KernelOptions (None: the defaults)."""
    compiled = compile_model(model, _PREFIX, target, io_in_workspace=io_in_workspace, kernel_options=kernel_options)
    graph = compiled.graph
    arrays, count, batched = _load_cases(inputs_path, graph)
    per_case = execute_on_host(compiled, [[a[i] for a in arrays] for i in range(count)])
    outs = {t.name: [case[k] for case in per_case] for k, t in enumerate(graph.outputs)}
    result = {k: (np.stack(v) if batched else v[0]) for k, v in outs.items()}
    if outputs_path:
        d = os.path.dirname(os.path.abspath(outputs_path))
        os.makedirs(d, exist_ok=True)
        fd, tmp_path = tempfile.mkstemp(dir=d, suffix=".npz")
        os.close(fd)
        try:
            with open(tmp_path, "wb") as f:
                np.savez(f, **result)
            os.replace(tmp_path, outputs_path)
        finally:
            if os.path.exists(tmp_path):
                os.unlink(tmp_path)
    return result


def run_run(model: str, flags) -> int:
    result = run_model(model, flags.inputs, flags.outputs, io_in_workspace=flags.io_in_workspace)
    for k, v in result.items():
        print(f"{k}: {v.dtype} {list(v.shape)}")
    return 0
