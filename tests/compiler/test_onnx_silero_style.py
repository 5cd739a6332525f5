"""A Silero-VAD-style model exported from PyTorch (tests/models/make_silero_style.py: an If on the sample-rate
input, an STFT as a Conv1d after reflect padding, a Conv1d encoder, an LSTM step with its (h, c) state as an input
and an output) compiles with `--freeze_input sr=16000` (and 8000: the other branch) and matches onnxruntime over a
sequence of calls, each call's output state fed to the next, in our program and in onnxruntime independently.

Tolerance: float32 throughout; the STFT and encoder sums run in another order than onnxruntime's, and the state
carries the differences from call to call, so the probability and state are compared over six calls within
rtol 1e-5, atol 1e-6 (observed: below 1e-7)."""

import os
import tempfile

import numpy as np
import pytest

from compiler.driver import compile_model, write_files
from compiler.harness import render_run_harness
from compiler.hostbuild import build_executable, run_executable

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "silero_style_vad.onnx")
CALLS = 6


class _Program:
    """The compiled model built once on the host and called once per step (so state can be carried)."""

    def __init__(self, compiled, tmp):
        self.compiled, self.tmp = compiled, tmp
        write_files(tmp, compiled.files)
        harness = os.path.join(tmp, "harness.c")
        with open(harness, "w") as f:
            f.write(render_run_harness(compiled.prefix, compiled.fields))
        p = compiled.prefix
        self.exe = os.path.join(tmp, "model_run")
        build_executable([os.path.join(tmp, f"{p}.c"), os.path.join(tmp, f"{p}_weights.c"), harness], [tmp], self.exe)

    def __call__(self, feeds: dict) -> dict:
        g = self.compiled.graph
        in_bin, out_bin = os.path.join(self.tmp, "in.bin"), os.path.join(self.tmp, "out.bin")
        with open(in_bin, "wb") as f:
            for t in g.inputs:
                f.write(np.ascontiguousarray(feeds[t.name], np.float32).tobytes())
        proc = run_executable(self.exe, [in_bin, out_bin, "1"], 60)
        assert proc.returncode == 0, proc.stderr
        raw, pos, out = open(out_bin, "rb").read(), 0, {}
        for t in g.outputs:
            out[t.name] = np.frombuffer(raw[pos : pos + t.nbytes], np.float32).reshape(t.shape)
            pos += t.nbytes
        return out


@pytest.mark.parametrize("sr", [16000, 8000])
def test_silero_style_sequence_matches_onnxruntime(tmp_path, sr):
    import onnxruntime as ort

    if not os.path.exists(MODEL):
        pytest.skip("tests/models/silero_style_vad.onnx is not in this checkout")
    from compiler import driver

    frozen = np.array(sr, np.int64)
    driver.ONNX_FROZEN["sr"] = frozen
    try:
        compiled = compile_model(MODEL, "vad")
    finally:
        driver.ONNX_FROZEN.pop("sr", None)
    assert [t.name for t in compiled.graph.inputs] == ["input", "state"]
    # an input named "state" must not produce <PREFIX>_STATE_SIZE, the macro of stateful models
    assert "#define VAD_STATE_T_SIZE" in compiled.files["vad.h"] and "VAD_STATE_SIZE" not in compiled.files["vad.h"]
    sess = ort.InferenceSession(MODEL)
    rng = np.random.default_rng(sr)
    t = np.arange(512) / sr
    with tempfile.TemporaryDirectory() as tmp:
        prog = _Program(compiled, tmp)
        ours = theirs = np.zeros((2, 1, 24), np.float32)
        worst = 0.0
        for call in range(CALLS):
            # noise, then a tone burst: the probability moves and the state with it
            x = (0.05 * rng.normal(size=(1, 512)) + (call >= 3) * 0.5 * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
            want_p, want_s = sess.run(["output", "stateN"], {"input": x, "state": theirs, "sr": frozen})
            got = prog({"input": x, "state": ours})
            worst = max(worst, float(np.abs(got["stateN"] - want_s).max()), float(np.abs(got["output"] - want_p).max()))
            np.testing.assert_allclose(got["output"], want_p, rtol=1e-5, atol=1e-6, err_msg=f"call {call}")
            np.testing.assert_allclose(got["stateN"], want_s, rtol=1e-5, atol=1e-6, err_msg=f"call {call}")
            ours, theirs = got["stateN"].copy(), want_s
        assert np.abs(theirs).max() > 1e-3  # the state really moved
        print(f"sr={sr}: largest difference from onnxruntime over {CALLS} calls: {worst:.3g}")
