"""DETECTION_POSTPROCESS (CUSTOM:TFLite_Detection_PostProcess): generated SSD post-processing models compared with
the TFLite Micro interpreter bit for bit (float32 outputs equal, not within a tolerance: the kernel follows TFLite
Micro's arithmetic order), over regular and fast NMS, with and without a background class, ties in the scores,
every box kept or none, an int8 detector whose outputs are dequantized first, and the refusals.

Fast NMS writes only the detections it finds; TFLite Micro leaves the remaining output slots as they were (stale
arena contents), the generated code zeroes them, so there the comparison covers the detections and checks the
rest is zero. Regular NMS zeroes them in both.
"""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tflite_builder import ModelBuilder  # noqa: E402
from test_ops_tflite import needs_tflm  # noqa: E402

from compiler.commands.run_cmd import execute_on_host  # noqa: E402
from compiler.driver import compile_model  # noqa: E402
from compiler.errors import CompileError, UnsupportedError  # noqa: E402
from compiler.oracle import tflm_outputs  # noqa: E402

KIND = "CUSTOM:TFLite_Detection_PostProcess"


def anchors_for(n, seed=0):
    """SSD-like anchors (y, x, h, w): centers in the unit square, positive sizes."""
    rng = np.random.default_rng(seed)
    return np.stack(
        [rng.uniform(0.0, 1.0, n), rng.uniform(0.0, 1.0, n), rng.uniform(0.02, 0.6, n), rng.uniform(0.02, 0.6, n)], 1
    ).astype(np.float32)


def detection_model(
    n=32,
    classes=5,
    background=True,
    max_det=8,
    regular=False,
    per_class=4,
    score=0.0,
    iou=0.5,
    scales=(10.0, 10.0, 5.0, 5.0),
    box_width=4,
    int8_inputs=None,
    options=None,
    anchors=None,
    out_slots=None,
    max_classes_per_detection=1,
    batch=1,
    omit=(),
    direct_int8=False,
):
    """One DETECTION_POSTPROCESS on run-time box encodings [batch, n, box_width] and class predictions
    [batch, n, classes (+1)], constant anchors. int8_inputs: (box q, class q) to feed it from int8 inputs through
    DEQUANTIZE, as converted int8 detectors do (or, with direct_int8, straight into the operator). omit: option names
    left out (TFLite Micro's defaults apply)."""

    def build():
        b = ModelBuilder()
        cw = classes + int(background)
        if int8_inputs:
            (bs, bz), (cs, cz) = int8_inputs
            bq = b.input("box_q", [batch, n, box_width], "int8", bs, bz)
            cq = b.input("cls_q", [batch, n, cw], "int8", cs, cz)
        if direct_int8:
            box, cls = bq, cq
        elif int8_inputs:
            box = b.op("DEQUANTIZE", [bq], out=b.tensor("box", [batch, n, box_width], "float32"))
            cls = b.op("DEQUANTIZE", [cq], out=b.tensor("cls", [batch, n, cw], "float32"))
        else:
            box = b.input("box", [batch, n, box_width], "float32")
            cls = b.input("cls", [batch, n, cw], "float32")
        a = b.const("anchors", anchors_for(n) if anchors is None else anchors, "float32")
        md = max_det if out_slots is None else out_slots
        outs = [
            b.tensor("boxes", [1, md, 4], "float32"),
            b.tensor("classes", [1, md], "float32"),
            b.tensor("scores", [1, md], "float32"),
            b.tensor("num_detections", [1], "float32"),
        ]
        opts = dict(
            max_detections=max_det,
            max_classes_per_detection=max_classes_per_detection,
            detections_per_class=per_class,
            use_regular_nms=regular,
            nms_score_threshold=score,
            nms_iou_threshold=iou,
            num_classes=classes,
            y_scale=scales[0],
            x_scale=scales[1],
            h_scale=scales[2],
            w_scale=scales[3],
        )
        opts.update(options or {})
        for k in omit:
            opts.pop(k)
        b.output(*b.op(KIND, [box, cls, a], out=outs, options=opts))
        return b

    return build


def random_inputs(graph, rng, count, ties=False):
    """Box encodings in (-1, 1) (decoded boxes stay valid), class scores uniform or, with ties, from 4 values."""
    cases = []
    for _ in range(count):
        case = []
        for t in graph.inputs:
            if t.dtype == "int8":
                case.append(rng.integers(-128, 128, t.shape).astype(np.int8))
            elif ties and t.name == "cls":
                case.append(rng.choice(np.float32([0.1, 0.5, 0.75, 0.9]), t.shape))
            else:
                case.append(rng.uniform(-1, 1, t.shape).astype(np.float32))
        cases.append(case)
    return cases


def compare(tmp_path, build, seed=0, count=6, ties=False, cases=None):
    """Run the generated code and TFLite Micro on the same inputs; equal outputs (see the module docstring)."""
    path = str(tmp_path / "model.tflite")
    build().save(path)
    compiled = compile_model(path, "dp", "host")
    graph = compiled.graph
    cases = cases or random_inputs(graph, np.random.default_rng(seed), count, ties)
    got = execute_on_host(compiled, cases)
    want = tflm_outputs(path, cases, 4)
    regular = bool(graph.ops[-1].options["custom"].get("use_regular_nms"))
    counts = []
    for n, (g, w) in enumerate(zip(got, want)):
        w = [np.asarray(x).reshape(t.shape) for x, t in zip(w, graph.outputs)]
        np.testing.assert_array_equal(g[3], w[3], err_msg=f"case {n}: num_detections")
        k = int(w[3][0])
        counts.append(k)
        for i, name in enumerate(("boxes", "classes", "scores")):
            gi, wi = g[i].reshape(g[i].shape[1], -1), w[i].reshape(w[i].shape[1], -1)
            if regular:
                np.testing.assert_array_equal(gi, wi, err_msg=f"case {n}: {name}")
            else:
                np.testing.assert_array_equal(gi[:k], wi[:k], err_msg=f"case {n}: {name}")
                assert not np.any(gi[k:]), f"case {n}: {name} past the {k} detections are not zero"
    return counts


CASES = [
    # (name, model options)
    ("fast_background", dict()),
    ("fast_no_background", dict(background=False, classes=3, score=0.3)),
    ("regular_background", dict(regular=True)),
    ("regular_no_background", dict(regular=True, background=False, classes=7, per_class=2, max_det=5)),
    # Every box kept (threshold below all scores): sorts of all 300 boxes, many suppressions.
    ("fast_all_kept_300", dict(n=300, classes=4, score=-2.0, iou=0.3, max_det=20)),
    ("regular_all_kept_300", dict(n=300, classes=3, score=-2.0, iou=0.3, max_det=20, regular=True, per_class=12)),
    # More detections per class than max_detections, an IoU threshold of 1 (only identical boxes suppress).
    ("regular_many_per_class_iou1", dict(regular=True, per_class=30, max_det=6, iou=1.0, n=40)),
    # Tiny IoU threshold: any overlap suppresses; wide box encodings (extra values per box are ignored).
    ("fast_tiny_iou_wide_boxes", dict(iou=1e-6, box_width=6, scales=(1.0, 2.0, 0.5, 3.0))),
    # Defaults: detections_per_class (100) and use_regular_nms (false) absent.
    ("defaults", dict(omit=("detections_per_class", "use_regular_nms"))),
    ("defaults_regular", dict(omit=("detections_per_class",), regular=True)),
    # One class, no background: the fast path's single class.
    ("one_class", dict(classes=1, background=False, score=0.5)),
]


@needs_tflm
@pytest.mark.parametrize("name,kw", CASES, ids=[c[0] for c in CASES])
def test_matches_tflm(tmp_path, name, kw):
    counts = compare(tmp_path, detection_model(**kw))
    assert any(counts), "no case detected anything: the comparison would be vacuous"


@needs_tflm
@pytest.mark.parametrize("regular", [False, True])
def test_tied_scores(tmp_path, regular):
    """Scores from four values: the order among equal scores (lower box index first) decides the detections."""
    counts = compare(
        tmp_path,
        detection_model(n=60, classes=3, regular=regular, per_class=5, max_det=10, iou=0.4),
        ties=True,
        count=4,
    )
    assert max(counts) >= 5


@needs_tflm
def test_nothing_above_threshold(tmp_path):
    counts = compare(tmp_path, detection_model(score=1.5, regular=True))
    assert counts == [0] * len(counts)


@needs_tflm
@pytest.mark.parametrize("regular", [False, True])
def test_int8_detector_dequantized(tmp_path, regular):
    """int8 box and class outputs (extreme zero points) dequantized into the post-processing, as in SSD int8."""
    counts = compare(
        tmp_path, detection_model(int8_inputs=((0.01, 127), (1.0 / 256, -128)), regular=regular, score=0.5)
    )
    assert any(counts)


def _compile(tmp_path, build):
    path = str(tmp_path / "model.tflite")
    build().save(path)
    return compile_model(path, "dp", "host")


@needs_tflm
def test_invalid_box_fails_the_run(tmp_path):
    """A negative anchor height decodes to ymin > ymax: TFLite Micro's invocation fails, the run returns
    AOT_ERR_KERNEL (-3)."""
    anchors = anchors_for(32)
    anchors[5, 2] = -0.1
    compiled = _compile(tmp_path, detection_model(anchors=anchors))
    cases = random_inputs(compiled.graph, np.random.default_rng(0), 1)
    with pytest.raises(RuntimeError, match="failed with -3"):
        execute_on_host(compiled, cases)
    with pytest.raises(Exception):  # noqa: B017 (the interpreter raises its own exception types)
        tflm_outputs(str(tmp_path / "model.tflite"), cases, 4)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(max_classes_per_detection=2), "max_classes_per_detection is 2"),
        (dict(iou=0.0), "nms_iou_threshold"),
        (dict(iou=1.5), "nms_iou_threshold"),
        (dict(regular=True, per_class=0), "detections_per_class is 0"),
        (dict(batch=2), "batch 2"),
        (dict(out_slots=6), "expected boxes"),
        (dict(classes=3, background=True, options=dict(num_classes=1)), "num_classes is 1"),
        (dict(omit=("nms_score_threshold",)), "nms_score_threshold"),
        (dict(options=dict(y_scale="ten")), "y_scale"),
    ],
)
def test_refused(tmp_path, kw, match):
    with pytest.raises((CompileError, UnsupportedError), match=match):
        _compile(tmp_path, detection_model(**kw))


@needs_tflm
def test_int8_operands_refused(tmp_path):
    """TFLite Micro's kernel takes float32 only (its invocation fails on int8): refused, naming DEQUANTIZE."""
    build = detection_model(int8_inputs=((0.01, 0), (0.01, 0)), direct_int8=True)
    with pytest.raises(UnsupportedError, match="DEQUANTIZE"):
        _compile(tmp_path, build)
    rng = np.random.default_rng(0)
    inputs = [rng.integers(-128, 128, (1, 32, 4)).astype(np.int8), rng.integers(-128, 128, (1, 32, 6)).astype(np.int8)]
    with pytest.raises(Exception):  # noqa: B017 (the interpreter raises its own exception types)
        tflm_outputs(str(tmp_path / "model.tflite"), [inputs], 4)


def test_scratch_is_planned(tmp_path):
    """The workspace holds the kernel's scratch: regular NMS needs more of it than fast NMS for the same boxes."""
    fast = _compile(tmp_path, detection_model(n=100)).files
    regular = _compile(tmp_path, detection_model(n=100, regular=True, per_class=10, max_det=20)).files

    def ws(files):
        text = files["dp.h"] if "dp.h" in files else next(v for k, v in files.items() if k.endswith(".h"))
        line = next(x for x in text.splitlines() if "DP_WORKSPACE_SIZE" in x and "#define" in x)
        return int(line.split()[2].rstrip("u").strip("()u"))

    # 100 boxes: 4 * 10 * 100 + 100 bytes of scratch at least; regular adds 5 * (20 + 10) slots of 4 bytes.
    assert ws(fast) >= 4100
    assert ws(regular) >= 4100 + 600
