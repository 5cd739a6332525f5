"""Every entry of the fuzzing regression corpus compiles or fails with one clear CompileError paragraph.

tests/fuzz/corpus/<format>/ holds small malformed models: reproducers of every crash the fuzzer found (fixed since)
and inputs that reached new compiler code, all derived from models this project generates (tests/fuzz/seeds.py).
Each runs through tests/fuzz/target.py, i.e. `compile_model` with the frontend of its extension, every pass, the
planner and all code generation, exactly like one fuzzer execution; any other exception, or a run longer than the
per-entry limit, fails the test. The whole corpus takes seconds.
"""

import glob
import os
import signal
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FUZZ_DIR = os.path.join(HERE, "..", "fuzz")
sys.path.insert(0, FUZZ_DIR)

import target  # noqa: E402

ENTRIES = sorted(glob.glob(os.path.join(FUZZ_DIR, "corpus", "*", "*.*")))
SECONDS_PER_ENTRY = 10


def test_corpus_is_present_and_small():
    assert len(ENTRIES) >= 10, f"regression corpus missing under {FUZZ_DIR}/corpus"
    total = sum(os.path.getsize(p) for p in ENTRIES)
    assert total < 1 << 20, f"the corpus is {total} bytes; keep it under 1 MiB"


def _timeout(signum, frame):
    raise TimeoutError(f"no result within {SECONDS_PER_ENTRY} s of CPU time")


@pytest.mark.parametrize("path", ENTRIES, ids=[os.path.relpath(p, os.path.join(FUZZ_DIR, "corpus")) for p in ENTRIES])
def test_entry_compiles_or_fails_clearly(path):
    # CPU time of this process (ITIMER_PROF), not wall time: a hang spins, while other tests beside this one on a
    # loaded machine only stretch the wall clock.
    old = signal.signal(signal.SIGPROF, _timeout)
    signal.setitimer(signal.ITIMER_PROF, SECONDS_PER_ENTRY)
    try:
        outcome, detail = target.run_target(path)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    assert outcome in ("ok", "error"), detail
    if outcome == "error":
        assert detail and "\n" not in detail and "Traceback" not in detail, detail


@pytest.mark.parametrize("fmt", ["tflite", "onnx"])
def test_fuzzer_runs(tmp_path, fmt):
    """A few dozen executions of the fuzzer itself (a sample of the builder seeds and the corpus, then mutants)."""
    import json
    import subprocess

    r = subprocess.run(
        [
            sys.executable,
            os.path.join(FUZZ_DIR, "fuzz_frontend.py"),
            "--format",
            fmt,
            "--runs",
            "40",
            "--duration",
            "60",
            "--no_shared",
            "--no_project_models",
            "--max_seeds",
            "12",
            "--check_c_every",
            "0",
            "--seed",
            "7",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert stats["executions"] >= 40 and stats["outcomes"]["bug"] == 0, stats
    # Most executions are mutants: the mutators and the coverage feedback ran, not only the seed replay (every
    # corpus entry is replayed in-process by test_entry_compiles_or_fails_clearly above).
    assert stats["seeds"] <= 12 and stats["executions"] - stats["seeds"] >= 28, stats


def test_fuzzer_reports_a_spinning_target_as_a_timeout(monkeypatch):
    """The fuzzer's limit is CPU time: a target that spins is stopped and reported as a timeout bug."""
    import fuzz_frontend

    def spin(path, c_workdir=""):
        while True:
            pass

    monkeypatch.setattr(target, "run_target", spin)
    outcome, detail, _, _, _ = fuzz_frontend.execute(ENTRIES[0], timeout=1, mem_mb=512, rss_mb=1024, coverage=False)
    assert outcome == "bug" and detail.startswith("timeout"), detail
