"""Many compiled models built into ONE host program and run in ONE process: the batched form of
commands/run_cmd.execute_on_host, for test suites that check hundreds of small models.

A host build of one small model costs ~0.13 s of the C compiler (model, harness, link) plus a process; most of it
is the same headers parsed again, the same link and the same process start. Here the models (each compiled with
its own prefix: their symbols are prefix-mangled, so they link together) are grouped a few to a translation unit,
each with its run harness (compiler/harness.py, under an entry named after its prefix), linked once with the CRT
and a dispatcher that runs every model in turn on its input file, exactly as execute_on_host runs one.

Every failure stays with its model: a group that does not compile is compiled again one model per unit (only the
models that fail alone are failures, with the compiler's message); a harness that returns non-zero fails its
model alone; a crash or hang of the program fails the model it was running, and the run goes on from the next.
A model with a weights blob gets a program of its own (execute_on_host).
"""

import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .driver import write_files
from .harness import render_run_harness
from .hostbuild import CFLAGS, compiler_command, crt_dir, crt_objects

# Models per translation unit: large enough that the headers are parsed a few times per batch, small enough that
# the units compile on every core and a unit that fails costs little to split.
GROUP = 12


class HostRunError(RuntimeError):
    """One model of a batch failed to build or run: the message says how (the compiler's or the harness's text)."""


def _entry(prefix: str) -> str:
    return f"{prefix}_harness_main"


@dataclass(frozen=True)
class HostModel:
    """What a batch needs of a compiled model, picklable (a worker process can hand it over): its C sources and
    headers with its run harness, and the numpy dtype and shape of each input and output."""

    prefix: str
    files: dict
    inputs: tuple
    outputs: tuple


def host_model(compiled) -> HostModel:
    from .ir.dtypes import DTYPES

    p = compiled.prefix
    files = {n: t for n, t in compiled.files.items() if n.endswith((".c", ".h"))}
    files[f"{p}_harness.c"] = render_run_harness(p, compiled.fields, entry=_entry(p))

    def io(tensors):
        return tuple((np.dtype(DTYPES[t.dtype].np).str, tuple(t.shape)) for t in tensors)

    return HostModel(p, files, io(compiled.graph.inputs), io(compiled.graph.outputs))


def _write_inputs(path: str, model: HostModel, cases: list) -> None:
    with open(path, "wb") as f:
        for case in cases:
            for (dtype, _), a in zip(model.inputs, case):
                f.write(np.ascontiguousarray(np.asarray(a).astype(dtype)).tobytes())


def _read_outputs(path: str, model: HostModel, count: int) -> list:
    with open(path, "rb") as f:
        raw = f.read()
    results, pos = [], 0
    for _ in range(count):
        outs = []
        for dtype, shape in model.outputs:
            n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
            outs.append(np.frombuffer(raw[pos : pos + n], dtype).reshape(shape))
            pos += n
        results.append(outs)
    return results


def _unit_lines(model: HostModel) -> list:
    p = model.prefix
    # The harness last: the model's sources are what a unit of its own would start with.
    srcs = sorted((n for n in model.files if n.endswith(".c")), key=lambda n: (n == f"{p}_harness.c", n))
    return [f'#include "{p}/{n}"' for n in srcs]


def _compile(args) -> tuple:
    """Compile SOURCES (in one compiler run) into objects in DIRECTORY: (ok, log, objects)."""
    sources, directory, flags = args
    cmd = [compiler_command()] + CFLAGS + list(flags) + ["-I", os.path.join(crt_dir(), "include"), "-c"] + sources
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=directory)
    objects = [os.path.join(directory, os.path.basename(s)[:-2] + ".o") for s in sources]
    return proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout + proc.stderr, objects


def _dispatcher(prefixes: list) -> str:
    """main(argc, argv): runs models FIRST.. (argv[1]) in turn, model k on argv[2 + 2k] / argv[3 + 2k] with the
    case count argv[2 + 2n + k]; reports "@done k rc" on stdout and "@model k" on stderr before each (flushed), so
    a crash or a harness's message is traced to its model."""
    L = ["#include <stdio.h>", "#include <stdlib.h>", ""]
    L += [f"int {_entry(p)}(int argc, char** argv);" for p in prefixes]
    L += ["", "typedef int (*entry_fn)(int, char**);", "static const entry_fn entries[] = {"]
    L += [f"    {_entry(p)}," for p in prefixes]
    L += [
        "};",
        "",
        "int main(int argc, char** argv)",
        "{",
        "    const int n = (int)(sizeof(entries) / sizeof(entries[0]));",
        "    int k;",
        "    if (argc != 2 + 3 * n) {",
        '        fprintf(stderr, "usage: %s FIRST (IN OUT)... COUNT...\\n", argv[0]);',
        "        return 2;",
        "    }",
        "    for (k = atoi(argv[1]); k < n; k++) {",
        "        char* args[5];",
        "        int rc;",
        "        args[0] = argv[0];",
        "        args[1] = argv[2 + 2 * k];",
        "        args[2] = argv[3 + 2 * k];",
        "        args[3] = argv[2 + 2 * n + k];",
        "        args[4] = NULL;",
        '        fprintf(stderr, "@model %d\\n", k);',
        "        fflush(stderr);",
        "        rc = entries[k](4, args);",
        '        printf("@done %d %d\\n", k, rc);',
        "        fflush(stdout);",
        "    }",
        "    return 0;",
        "}",
        "",
    ]
    return "\n".join(L)


def _stderr_of(text: str, k: int) -> str:
    """The harness's own stderr lines for model k (between its "@model k" marker and the next marker)."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("@model "):
            inside = line == f"@model {k}"
        elif inside:
            out.append(line)
    return "\n".join(out)


def run_many(jobs: list, threads: int = 1, timeout: float = 300.0, work_dir: str = None, cflags=()) -> list:
    """jobs: (model, cases) pairs, a model being a CompiledModel or its HostModel, each compiled with a prefix of its
    own; cases as execute_on_host takes them.
    Returns per job what execute_on_host would (per case, the output arrays in model output order), or the
    HostRunError saying why that job failed. threads: how many units compile at once. timeout: per model. cflags:
    added to hostbuild.CFLAGS for the models' units (e.g. -O0)."""
    from .commands.run_cmd import execute_on_host

    prefixes = [c.prefix for c, _ in jobs]
    if len(set(prefixes)) != len(prefixes):
        raise ValueError("every model of a batch needs a prefix of its own")
    results = [None] * len(jobs)
    batched = []
    jobs = list(jobs)
    for i, (compiled, cases) in enumerate(jobs):
        if isinstance(compiled, HostModel):
            batched.append(i)
        elif any(n.endswith("_weights.bin") for n in compiled.files):
            try:
                results[i] = execute_on_host(compiled, cases, timeout)
            except RuntimeError as e:
                results[i] = HostRunError(str(e))
        else:
            jobs[i] = (host_model(compiled), cases)
            batched.append(i)
    if not batched:
        return results
    tmp = work_dir or tempfile.mkdtemp(prefix="aotc-batch-")
    try:
        _run_batch(jobs, batched, results, tmp, threads, timeout, cflags)
    finally:
        if work_dir is None:
            shutil.rmtree(tmp, ignore_errors=True)
    return results


def _run_batch(jobs, batched, results, tmp, threads, timeout, cflags) -> None:
    for i in batched:
        model, cases = jobs[i]
        d = os.path.join(tmp, model.prefix)
        os.makedirs(d, exist_ok=True)
        write_files(d, model.files)
        _write_inputs(os.path.join(d, "in.bin"), model, cases)
    # Groups of models per unit. A group that fails is built again model by model, each of its files a unit of
    # its own as execute_on_host builds them: only what fails there is the model's failure.
    groups = [batched[k : k + GROUP] for k in range(0, len(batched), GROUP)]
    group_jobs = []
    for n, group in enumerate(groups):
        unit = os.path.join(tmp, f"unit_{n}.c")
        with open(unit, "w") as f:
            f.write("\n".join(line for i in group for line in _unit_lines(jobs[i][0])) + "\n")
        group_jobs.append(([unit], tmp, cflags))
    objects, linked, retry = [], [], []
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        for group, (ok, _, objs) in zip(groups, pool.map(_compile, group_jobs)):
            if ok:
                objects += objs
                linked += group
            else:
                retry += group
        single = []
        for i in retry:
            c = jobs[i][0]
            d = os.path.join(tmp, c.prefix)
            srcs = [n for n in sorted(c.files) if n.endswith(".c")]
            single.append(([os.path.join(d, s) for s in srcs], d, cflags))
        for i, (ok, log, objs) in zip(retry, pool.map(_compile, single)):
            if ok:
                objects += objs
                linked.append(i)
            else:
                results[i] = HostRunError(
                    "C compilation of generated code failed (this is a compiler bug):\n" + log[-3000:]
                )
    if not linked:
        return
    prefixes = [jobs[i][0].prefix for i in linked]
    main_c = os.path.join(tmp, "batch_main.c")
    with open(main_c, "w") as f:
        f.write(_dispatcher(prefixes))
    exe = os.path.join(tmp, "batch")
    cmd = [compiler_command()] + CFLAGS + [main_c] + objects + crt_objects() + ["-o", exe, "-lm"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        msg = "linking the batch failed (this is a compiler bug):\n" + " ".join(cmd) + "\n" + proc.stderr[-3000:]
        for i in linked:
            results[i] = HostRunError(msg)
        return
    args = [os.path.join(tmp, p, n) for p in prefixes for n in ("in.bin", "out.bin")]
    args += [str(len(jobs[i][1])) for i in linked]
    first = 0
    while first < len(linked):
        # The timeout grows with the models left, as one per model would.
        try:
            proc = subprocess.run(
                [exe, str(first)] + args, capture_output=True, text=True, timeout=timeout * (len(linked) - first)
            )
            out, err, how = proc.stdout, proc.stderr, f"exit status {proc.returncode}"
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err = e.stderr.decode() if isinstance(e.stderr, bytes) else (e.stderr or "")
            how = "timed out"
        done = {}
        for line in out.splitlines():
            if line.startswith("@done "):
                k, rc = map(int, line.split()[1:3])
                done[k] = rc
        for k in range(first, len(linked)):
            if k not in done:
                # The program stopped inside model k: that model crashed (or hung); the next run starts after it.
                results[linked[k]] = HostRunError(f"generated program failed ({how}): {_stderr_of(err, k)[-2000:]}")
                first = k + 1
                break
            i = linked[k]
            if done[k] != 0:
                results[i] = HostRunError(f"generated program failed ({done[k]}): {_stderr_of(err, k)[-2000:]}")
            else:
                results[i] = _read_outputs(os.path.join(tmp, prefixes[k], "out.bin"), jobs[i][0], len(jobs[i][1]))
        else:
            first = len(linked)
