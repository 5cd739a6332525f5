"""TFLite Micro's signal operators (CUSTOM:Signal*, the micro_speech audio front-end): each operator built alone with
tflite_builder (custom options as a FlexBuffer map) and compared bit for bit with the TFLite Micro interpreter on
seeded inputs over the whole int16 / uint32 range plus extremes; refusals of malformed options; and the two field
audio preprocessors, compiled (or refused in one paragraph) when the field corpus is present."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import _compile_error, needs_tflm  # noqa: E402

from compiler.commands.run_cmd import run_model  # noqa: E402
from compiler.driver import load_model  # noqa: E402
from compiler.errors import UnsupportedError  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402

pytestmark = needs_tflm


def _draw(rng, t, n):
    """n seeded cases of tensor t over its whole range, the first one the extremes tiled."""
    info = np.iinfo(t.dtype)
    edge = (
        np.resize(np.array([info.min, info.max, 0, 1, 2, 3, info.max - 1, info.min + 1], np.int64), t.num_elements)
        .reshape(t.shape)
        .astype(t.dtype)
    )
    out = [edge]
    for k in range(n - 1):
        # Half of the random cases are drawn on a log scale so small values (where logarithms and square roots
        # have their corner cases) appear as often as large ones.
        if k % 2 and info.min == 0:
            bits = rng.integers(0, 33, size=t.shape)
            v = np.minimum(rng.integers(0, 1 << 32, size=t.shape, dtype=np.int64), (1 << bits) - 1)
        else:
            v = rng.integers(info.min, info.max, size=t.shape, dtype=np.int64, endpoint=True)
        out.append(v.astype(t.dtype))
    return out


def check_exact(tmp_path, b, seed=0, count=8, compare=None, cases=()):
    """Compile + run the model and TFLM on the same seeded inputs; integer outputs must agree bit for bit (only
    the slice `compare` of each output when given: values TFLite Micro leaves unwritten are not compared); `cases`
    are run after the drawn ones."""
    path = b.save(tmp_path / "model.tflite")
    graph = load_model(path)
    rng = np.random.default_rng(seed)
    per_input = [_draw(rng, t, count) for t in graph.inputs]
    cases = [[per_input[i][n] for i in range(len(graph.inputs))] for n in range(count)] + [list(c) for c in cases]
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, **{t.name: np.stack([c[i] for c in cases]) for i, t in enumerate(graph.inputs)})
    got = run_model(str(path), str(in_npz), None, target="host")
    want = tflm_outputs(str(path), cases, len(graph.outputs))
    sl = compare or slice(None)
    for k, t in enumerate(graph.outputs):
        for n, case_want in enumerate(want):
            g = got[t.name][n].reshape(-1)[sl].astype(np.int64)
            w = np.asarray(case_want[k]).reshape(-1)[sl].astype(np.int64)
            diff = np.flatnonzero(g != w)
            assert diff.size == 0, (
                f"case {n}, output '{t.name}': {diff.size} of {g.size} values differ; first "
                f"at {diff[0]}: got {g[diff[0]]}, TFLM {w[diff[0]]}"
            )


# --- SignalWindow ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,frame,shift", [((1, 480), 480, 12), ((3, 16), 16, 0), ((40,), 8, 31), ((2, 30), 30, 15)]
)
def test_window(tmp_path, shape, frame, shift):
    rng = np.random.default_rng(frame + shift)
    b = ModelBuilder()
    x = b.input("x", shape, "int16")
    w = b.const(
        "w", np.resize([-32768, 32767, 0, 1], frame) if shift == 31 else rng.integers(-32768, 32768, frame), "int16"
    )
    y = b.op("CUSTOM:SignalWindow", [x, w], out=b.tensor("y", shape, "int16"), options={"shift": shift})
    b.output(y)
    check_exact(tmp_path, b)


# --- SignalEnergy ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bins,start,end", [(257, 0, 257), (257, 5, 241), (9, 3, 3)])
def test_energy(tmp_path, bins, start, end):
    b = ModelBuilder()
    x = b.input("x", [2 * bins], "int16")
    y = b.op(
        "CUSTOM:SignalEnergy",
        [x],
        out=b.tensor("y", [bins], "uint32"),
        options={"end_index": end, "start_index": start},
    )
    b.output(y)
    check_exact(tmp_path, b, compare=slice(start, end))


# --- SignalFilterBankLog -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bits,scale", [(3, 64), (0, 1), (0, 65535), (12, 1 << 20), (31, 3)])
def test_filter_bank_log(tmp_path, bits, scale):
    b = ModelBuilder()
    x = b.input("x", [300], "uint32")
    y = b.op(
        "CUSTOM:SignalFilterBankLog",
        [x],
        out=b.tensor("y", [300], "int16"),
        options={"input_correction_bits": bits, "output_scale": scale},
    )
    b.output(y)
    check_exact(tmp_path, b, count=12)


# --- refusals ----------------------------------------------------------------------------------------------------


def test_missing_option_is_refused(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [8], "int16")
    w = b.const("w", np.ones(8), "int16")
    b.output(b.op("CUSTOM:SignalWindow", [x, w], out=b.tensor("y", [8], "int16"), options={"shft": 3}))
    msg = str(_compile_error(tmp_path, b))
    assert "SignalWindow" in msg and "'shift'" in msg


# --- SignalFilterBank + SignalFilterBankSquareRoot (the uint64 sums stay inside the model) ----------------------


def _bands(rng, channels, bins, max_width):
    """Random band tables: channel j covers width[j] bins from freq_start[j], its weights from weight_start[j]."""
    width = rng.integers(0, max_width + 1, channels + 1)
    start = np.minimum(rng.integers(0, bins, channels + 1), bins - width)
    wstart = np.concatenate([[0], np.cumsum(width)[:-1]])
    return start, wstart, width, int(width.sum())


@pytest.mark.parametrize(
    "channels,bins,max_width,weight_range,scale_bits",
    [
        (40, 257, 12, (0, 4097), 0),  # the micro_speech front-end's shape
        (40, 257, 12, (0, 4097), 7),
        (8, 33, 33, (-32768, 32768), 3),  # any int16 weights, wide overlapping bands
        (3, 16, 1, (4096, 4097), 31),
    ],
)
def test_filter_bank_sqrt(tmp_path, channels, bins, max_width, weight_range, scale_bits):
    rng = np.random.default_rng(channels + max_width)
    start, wstart, width, total = _bands(rng, channels, bins, max_width)
    w = rng.integers(*weight_range, max(total, 1))
    b = ModelBuilder()
    x = b.input("x", [bins], "uint32")
    cfg = [
        b.const(name, v, "int16")
        for name, v in (("w", w), ("uw", 4096 - np.clip(w, 0, 4096)), ("fs", start), ("ws", wstart), ("wd", width))
    ]
    fb_out = b.op(
        "CUSTOM:SignalFilterBank",
        [x] + cfg,
        out=b.tensor("fb", [channels], "uint64"),
        options={"num_channels": channels},
    )
    bits = b.const("bits", np.array(scale_bits), "int32")
    y = b.op("CUSTOM:SignalFilterBankSquareRoot", [fb_out, bits], out=b.tensor("y", [channels], "uint32"))
    b.output(y)
    check_exact(tmp_path, b, count=10)


# --- SignalFftAutoScale ------------------------------------------------------------------------------------------


def test_fft_auto_scale(tmp_path):
    rng = np.random.default_rng(5)
    n = 64
    quiet = [rng.integers(-(1 << k), 1 << k, n) for k in range(0, 15)]
    wrapped = [
        np.concatenate([[-32768], rng.integers(-9, 9, n - 1)]),  # the running maximum wraps
        np.concatenate([rng.integers(-9, 9, n - 1), [-32768]]),
        np.zeros(n),
        np.full(n, -1),
        np.full(n, 16384),
        np.full(n, -16384),
        np.full(n, -16385),
    ]
    b = ModelBuilder()
    x = b.input("x", [n], "int16")
    y, bits = b.op("CUSTOM:SignalFftAutoScale", [x], out=[b.tensor("y", [n], "int16"), b.tensor("s", [], "int32")])
    b.output(y, bits)
    check_exact(tmp_path, b, cases=[[np.asarray(v, np.int16)] for v in quiet + wrapped])


# --- SignalPCAN --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_kind,shift", [("smooth", 6), ("random", 6), ("random", 0), ("smooth", 40)])
def test_pcan(tmp_path, table_kind, shift):
    rng = np.random.default_rng(shift)
    if table_kind == "random":  # any int16 coefficients: the int32 intermediate wraps as TFLite Micro's
        table = rng.integers(-32768, 32768, 125)
    else:  # a decreasing gain, as a real front-end's table is
        table = np.clip(np.round(32767 / np.sqrt(1 + np.arange(125))), 0, 32767).astype(np.int64)
        table[2::4] = rng.integers(-200, 200, len(table[2::4]))
    b = ModelBuilder()
    x = b.input("x", [40], "uint32")
    noise = b.input("noise", [40], "uint32")
    lut = b.const("lut", table, "int16")
    y = b.op("CUSTOM:SignalPCAN", [x, noise, lut], out=b.tensor("y", [40], "uint32"), options={"snr_shift": shift})
    b.output(y)
    check_exact(tmp_path, b, count=12)


# --- SignalRfft (int16) ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape,fft_length", [((480,), 512), ((2, 8), 8), ((100,), 128), ((3, 64), 64), ((4,), 4)])
def test_rfft_int16(tmp_path, shape, fft_length):
    b = ModelBuilder()
    x = b.input("x", shape, "int16")
    out_shape = tuple(shape[:-1]) + (fft_length + 2,)
    y = b.op(
        "CUSTOM:SignalRfft", [x], out=b.tensor("y", out_shape, "int16"), options={"T": 7, "fft_length": fft_length}
    )
    b.output(y)
    rng = np.random.default_rng(fft_length)
    tone = np.round(12000 * np.sin(np.arange(np.prod(shape)) * 0.3)).reshape(shape)
    check_exact(tmp_path, b, cases=[[tone.astype(np.int16)], [rng.integers(-300, 300, shape).astype(np.int16)]])


# --- SignalFilterBankSpectralSubtraction (noise estimate kept in the state buffer across runs) ------------------


@pytest.mark.parametrize(
    "clamping,smoothing_bits,bits,values",
    [
        (False, 10, 14, (409, 15975, 983, 15401, 819)),  # the micro_speech front-end's parameters
        (True, 10, 14, (409, 15975, 983, 15401, 819)),
        (True, 0, 0, (1, 0, 0, 1, 1)),
        (False, 31, 31, (2**31 - 1, 7, 3, 2**31 - 1, 2**31 - 1)),
    ],
)
def test_spectral_subtraction_sequence(tmp_path, clamping, smoothing_bits, bits, values):
    names = (
        "smoothing",
        "one_minus_smoothing",
        "alternate_smoothing",
        "alternate_one_minus_smoothing",
        "min_signal_remaining",
    )
    b = ModelBuilder()
    x = b.input("x", [40], "uint32")
    y, noise = b.op(
        "CUSTOM:SignalFilterBankSpectralSubtraction",
        [x],
        out=[b.tensor("y", [40], "uint32"), b.tensor("noise", [40], "uint32")],
        options=dict(
            zip(names, values),
            clamping=clamping,
            num_channels=40,
            smoothing_bits=smoothing_bits,
            spectral_subtraction_bits=bits,
        ),
    )
    b.output(y, noise)
    rng = np.random.default_rng(bits)
    # A quiet stretch after loud frames, so the estimate both rises above the signal and decays.
    quiet = [[rng.integers(0, 1 << 12, 40).astype(np.uint32)] for _ in range(6)]
    check_exact(tmp_path, b, count=10, cases=quiet)


# --- raw int32 arithmetic (the front-end's feature scaling) ------------------------------------------------------


@pytest.mark.parametrize("kind", ["ADD", "SUB", "MUL", "DIV"])
def test_raw_int32_arith(tmp_path, kind):
    b = ModelBuilder()
    x = b.input("x", [40], "int32")
    c = b.const("c", np.array([-7]) if kind == "DIV" else np.array([333]), "int32")
    b.output(b.op(kind, [x, c], out=b.tensor("y", [40], "int32"), options={}))
    rng = np.random.default_rng(3)
    check_exact(tmp_path, b, count=1, cases=[[rng.integers(-40000, 40000, 40).astype(np.int32)] for _ in range(3)])


# --- refusals ----------------------------------------------------------------------------------------------------


def test_rfft_other_forms_are_refused(tmp_path):
    for dtype, t_code, n in (("int32", 2, 8), ("float32", 0, 8), ("int16", 7, 12)):
        b = ModelBuilder()
        x = b.input("x", [8], dtype)
        b.output(
            b.op("CUSTOM:SignalRfft", [x], out=b.tensor("y", [n + 2], dtype), options={"T": t_code, "fft_length": n})
        )
        err = _compile_error(tmp_path, b)
        assert isinstance(err, UnsupportedError) and "SignalRfft" in str(err), str(err)


def test_other_signal_ops_are_refused(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [8], "int16")
    b.output(b.op("CUSTOM:SignalFramer", [x], out=b.tensor("y", [8], "int16"), options={"frame_size": 4}))
    msg = str(_compile_error(tmp_path, b))
    assert "CUSTOM:SignalFramer" in msg and "CUSTOM:SignalRfft" in msg, msg


def test_filter_bank_output_is_no_model_output(tmp_path):
    b = ModelBuilder()
    x = b.input("x", [4], "uint32")
    cfg = [
        b.const(n, v, "int16")
        for n, v in (("w", [1, 2]), ("uw", [3, 4]), ("fs", [0, 1]), ("ws", [0, 1]), ("wd", [1, 1]))
    ]
    b.output(b.op("CUSTOM:SignalFilterBank", [x] + cfg, out=b.tensor("y", [1], "uint64"), options={"num_channels": 1}))
    err = _compile_error(tmp_path, b)
    assert isinstance(err, UnsupportedError) and "uint64" in str(err), str(err)


# --- the field models: TFLite Micro's micro_speech audio preprocessors ------------------------------------------


def _field_model(name):
    root = os.environ.get("AOT_FIELD_MODELS_DIR") or (
        os.path.join(os.environ["AOT_MODELS_DIR"], "field")
        if os.environ.get("AOT_MODELS_DIR")
        else os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models", "field")
    )
    path = os.path.join(root, "tflm", name + ".tflite")
    if not os.path.isfile(path):
        pytest.skip(f"field model {name}.tflite not found under {root} (set AOT_FIELD_MODELS_DIR)")
    return path


@pytest.mark.parametrize("name", ["audio_preprocessor_int8", "audio_preprocessor_float"])
def test_field_audio_preprocessor(tmp_path, name):
    """A sequence of 30 frames at several loudnesses (the spectral subtraction's noise estimate carries over from
    one run to the next) against the TFLite Micro interpreter run on the same sequence: identical outputs."""
    path = _field_model(name)
    graph = load_model(path)
    rng = np.random.default_rng(7)
    cases = []
    for k in range(30):
        amp = (32767, 3000, 200, 10, 0, 32767)[k % 6]
        tone = amp * np.sin(np.arange(480) * (0.05 + 0.01 * k))
        frame = np.clip(np.round(tone + rng.integers(-amp // 4 - 1, amp // 4 + 1, 480)), -32768, 32767)
        cases.append([frame.astype(np.int16).reshape(graph.inputs[0].shape)])
    in_npz = tmp_path / "inputs.npz"
    np.savez(in_npz, **{graph.inputs[0].name: np.stack([c[0] for c in cases])})
    got = run_model(path, str(in_npz), None, target="host")[graph.outputs[0].name]
    want = tflm_outputs(path, cases, 1)
    for n, w in enumerate(want):
        assert np.array_equal(got[n].reshape(-1), np.asarray(w[0]).reshape(-1)), f"run {n} differs"
