"""Mutation fuzzer of the compiler's frontends: a malformed model must give a CompileError, never anything else.

Every input runs the whole compile (parse, passes, planner, codegen) in a worker process with an address-space
limit; a result other than success or CompileError, a worker that dies (crash, memory blow-up) or one that takes
longer than the time limit is a finding, saved with its traceback. Mutations are format-agnostic byte edits (flips,
overwrites with boundary int32 values at aligned offsets, where flatbuffer and protobuf offsets, lengths, shapes
and indices live, truncation, chunk deletion/duplication, splicing of two inputs). An input joins the corpus when
its outcome has not been seen before (the outcome class plus the error message with numbers and names masked): a
cheap behavioural coverage signal that steers mutation towards new checks.

    python tests/fuzz/fuzz_frontend.py --seconds 600 --format tflite --corpus_out tests/fuzz/corpus/tflite

Seeds: the generated models of tests/fuzz/seeds.py and every model given with --seed_model. Corpus entries are
saved only when derived from generated seeds (`--save_from_all` to save everything, e.g. to reproduce locally),
so third-party models never end up in the repository.
"""

import argparse
import hashlib
import json
import multiprocessing as mp
import os
import random
import re
import resource
import struct
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)

_BOUNDARY = [0, 1, 2, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x10000, 0x1000000]
_MEMORY_LIMIT = 3 << 30


def _worker(conn, ext):
    """Compiles each input it receives; replies (outcome, detail)."""
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_LIMIT, _MEMORY_LIMIT))
    from compiler.driver import compile_model
    from compiler.errors import CompileError
    tmp = tempfile.mkdtemp(prefix="aot-fuzz-")
    path = os.path.join(tmp, "model" + ext)
    while True:
        data = conn.recv()
        if data is None:
            return
        with open(path, "wb") as f:
            f.write(data)
        try:
            compile_model(path, "m", "host")
            conn.send(("ok", ""))
        except CompileError as e:
            conn.send(("error", str(e)))
        except BaseException as e:  # noqa: BLE001 - anything else is what we look for
            conn.send(("bug", f"{type(e).__name__}: {e}\n{traceback.format_exc()}"))


class Runner:
    """A worker process, restarted after a crash or a hang."""

    def __init__(self, ext, timeout):
        self.ext, self.timeout, self.proc = ext, timeout, None

    def _start(self):
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, self.ext), daemon=True)
        self.proc.start()

    def run(self, data):
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(data)
        if not self.conn.poll(self.timeout):
            self.proc.kill()
            self.proc.join()
            self.proc = None
            return "hang", f"no result within {self.timeout} s"
        try:
            return self.conn.recv()
        except EOFError:
            self.proc.join()
            code = self.proc.exitcode
            self.proc = None
            return "crash", f"worker died (exit code {code})"

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)


def signature(outcome, detail):
    if outcome == "bug":
        last = [line for line in detail.splitlines() if line.startswith("  File ")][-1:] or [detail[:80]]
        return outcome + ":" + detail.split(":", 1)[0] + ":" + "".join(last)
    masked = re.sub(r"'[^']*'", "'_'", detail)
    masked = re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "N", masked)
    return outcome + ":" + masked[:200]


def mutate(rng, data, corpus):
    d = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        if len(d) < 16:
            d += bytes(rng.randrange(256) for _ in range(16))
        kind = rng.randrange(8)
        i = rng.randrange(len(d))
        if kind == 0:
            d[i] ^= 1 << rng.randrange(8)
        elif kind == 1:
            d[i] = rng.randrange(256)
        elif kind in (2, 3):
            i -= i % 4
            if i + 4 <= len(d):
                v = rng.choice(_BOUNDARY)
                if kind == 3:
                    v = (struct.unpack_from("<I", d, i)[0] + rng.choice([-1, 1, -4, 4, 16, -16])) & 0xFFFFFFFF
                struct.pack_into("<I", d, i, v)
        elif kind == 4:
            del d[rng.randrange(8, len(d)):]
        elif kind == 5:
            n = rng.randint(1, 64)
            del d[i:i + n]
        elif kind == 6:
            n = rng.randint(1, 64)
            d[i:i] = d[i:i + n]
        else:
            other = rng.choice(corpus)
            j = rng.randrange(len(other))
            d = d[:i] + bytearray(other[j:j + rng.randint(4, 256)]) + d[i:]
    return bytes(d)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--format", choices=["tflite", "onnx"], default="tflite")
    ap.add_argument("--seed_model", action="append", default=[], help="extra seed model files")
    ap.add_argument("--corpus_in", default="", help="directory of earlier corpus entries to start from")
    ap.add_argument("--corpus_out", default="", help="directory to save new corpus entries into")
    ap.add_argument("--findings", default=os.path.join(tempfile.gettempdir(), "aot-fuzz-findings"))
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per input before it counts as a hang")
    ap.add_argument("--rng_seed", type=int, default=0)
    ap.add_argument("--save_from_all", action="store_true")
    args = ap.parse_args(argv)

    ext = "." + args.format
    seeds = []  # (bytes, own: generated by this project)
    if args.format == "tflite":
        from seeds import builder_seeds
        seeds += [(d, True) for d in builder_seeds().values()]
    for path in args.seed_model:
        with open(path, "rb") as f:
            seeds.append((f.read(), False))
    if args.corpus_in and os.path.isdir(args.corpus_in):
        for name in sorted(os.listdir(args.corpus_in)):
            with open(os.path.join(args.corpus_in, name), "rb") as f:
                seeds.append((f.read(), True))
    if not seeds:
        sys.exit("fuzz_frontend: no seeds")

    rng = random.Random(args.rng_seed)
    runner = Runner(ext, args.timeout)
    corpus, own, seen = [], [], set()
    stats = {"format": args.format, "executions": 0, "outcomes": {}, "findings": 0, "saved": 0}
    os.makedirs(args.findings, exist_ok=True)
    if args.corpus_out:
        os.makedirs(args.corpus_out, exist_ok=True)

    def record(data, is_own, outcome, detail):
        stats["executions"] += 1
        stats["outcomes"][outcome] = stats["outcomes"].get(outcome, 0) + 1
        sig = signature(outcome, detail)
        if sig in seen:
            return
        seen.add(sig)
        corpus.append(data)
        own.append(is_own)
        digest = hashlib.sha256(data).hexdigest()[:16]
        if outcome in ("bug", "hang", "crash"):
            stats["findings"] += 1
            with open(os.path.join(args.findings, f"{outcome}_{digest}{ext}"), "wb") as f:
                f.write(data)
            with open(os.path.join(args.findings, f"{outcome}_{digest}.txt"), "w") as f:
                f.write(detail)
            print(f"finding: {outcome}: {detail.splitlines()[0][:200]}", flush=True)
        if args.corpus_out and (is_own or args.save_from_all) and len(data) <= 64 * 1024:
            with open(os.path.join(args.corpus_out, f"{outcome}_{digest}{ext}"), "wb") as f:
                f.write(data)
            stats["saved"] += 1

    start = time.monotonic()
    for data, is_own in seeds:
        record(data, is_own, *runner.run(data))
    while time.monotonic() - start < args.seconds:
        k = rng.randrange(len(corpus))
        data = mutate(rng, corpus[k], corpus)
        record(data, own[k], *runner.run(data))
    runner.close()
    stats.update(seconds=round(time.monotonic() - start, 1), corpus=len(corpus), signatures=len(seen))
    print(json.dumps(stats, indent=2))
    return 1 if stats["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
