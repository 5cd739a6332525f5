"""The cost model (compiler/report/cost_model.py): prices by kernel and shape class, their fallbacks, `aotc report`'s
estimate, and the calibration's agreement with the benchmarks: every bench model on every core within 10 % of the
instructions QEMU counted (the measured figures and the models' work are committed with the prices by
bench/calibrate.py, so this test compiles nothing)."""

import os

import pytest

from compiler.driver import compile_model
from compiler.report import cost_fit, cost_measured, cost_model, cost_table

MODELS = os.path.join(os.path.dirname(__file__), "..", "models")


def _manifest(ops, tensors):
    return {"target": "cortex-m4", "ops": ops, "tensors": tensors}


def _op(index, kind, entry, macs, out, kernel="k"):
    return {"index": index, "kind": kind, "entry": entry, "kernel": kernel, "macs": macs, "outputs": [out]}


TENSORS = [{"index": 0, "shape": [1, 10, 10, 8]}, {"index": 1, "shape": [1, 100]}]
TABLE = {
    "cortex-m4": {
        "conv_a|k<=128,c<=8": [300, 100],  # 3 per MAC
        "conv_a|*": [400, 100],
        "CONV_2D|mac": [200, 100],
        "*|mac": [100, 100],
        "*|element": [50, 100],  # 0.5 per element
    }
}


def test_shape_classes():
    conv = _op(0, "CONV_2D", "conv_a", 800 * 72, 0)  # 72 MACs per output element
    assert cost_model.layer_work(conv, {0: TENSORS[0]}) == ("mac", 800 * 72, "k<=128,c<=8")
    wide = _op(0, "FULLY_CONNECTED", "fc", 100 * 2000, 1)
    assert cost_model.layer_work(wide, {1: TENSORS[1]}) == ("mac", 200_000, "k>1024,c<=128")
    add = dict(_op(0, "ADD", "add_s8", 800, 0), inputs=[0])  # element-wise: per element, whatever its MAC count
    assert cost_model.layer_work(add, {0: TENSORS[0]}) == ("element", 800, "r<=1")
    argmax = dict(_op(0, "ARG_MAX", "argmax", 0, 1), inputs=[0])  # a reduction: priced by what it reads
    assert cost_model.layer_work(argmax, {0: TENSORS[0], 1: TENSORS[1]}) == ("element", 800, "r<=16")


def test_prices_fall_back_from_class_to_kernel_to_kind_to_core():
    ops = [
        _op(0, "CONV_2D", "conv_a", 800 * 72, 0),  # conv_a|k<=128: 3.0
        _op(1, "CONV_2D", "conv_a", 800 * 4, 0),  # conv_a|*: 4.0
        _op(2, "CONV_2D", "conv_b", 800 * 4, 0),  # CONV_2D|mac: 2.0
        _op(3, "FULLY_CONNECTED", "fc", 100 * 4, 1),  # *|mac: 1.0
        _op(4, "ADD", "add", 0, 0),  # *|element: 0.5 x 800
        _op(5, "RESHAPE", None, 0, 1, kernel=None),  # aliased: no code
    ]
    est = cost_model.estimate(_manifest(ops, TENSORS), table=TABLE)
    got = [(r["key"], r["instructions"]) for r in est["layers"]]
    assert got == [
        ("conv_a|k<=128,c<=8", 3 * 800 * 72),
        ("conv_a|*", 4 * 800 * 4),
        ("CONV_2D|mac", 2 * 800 * 4),
        ("*|mac", 400),
        ("*|element", 400),
        ("aliased", 0),
    ]
    assert est["total"] == sum(n for _, n in got)
    work = cost_model.work_vector(_manifest(ops, TENSORS))
    assert cost_model.estimate_work("cortex-m4", work, TABLE) == est["total"]
    assert cost_model.estimate(_manifest(ops, TENSORS), core="cortex-m0", table=TABLE) is None


def test_fused_layers_are_priced_with_their_host():
    ops = [_op(0, "CONV_2D", "conv_a", 800 * 72, 0), dict(_op(1, "ADD", "add", 0, 0), fused_into=0)]
    assert [r["index"] for r in cost_model.estimate(_manifest(ops, TENSORS), table=TABLE)["layers"]] == [0]


def test_report_prints_the_estimate(capsys):
    from compiler.commands import report_cmd

    class Flags:
        prefix = "kws"
        target = "cortex-m4"
        compare_tflm = False
        out_dir = None
        io_in_workspace = False
        strict_kernels = False
        specialize = None
        custom_op = []
        offload = []

    model = os.path.join(MODELS, "kws_ds_cnn_int8.tflite")
    try:
        report_cmd.run_report(model, Flags)
    except AttributeError as e:  # a flag the command reads that this stub lacks
        pytest.fail(f"the report command reads a flag the test does not give: {e}")
    out = capsys.readouterr().out
    est = cost_model.estimate(compile_model(model, "kws", "cortex-m4").manifest)
    assert est is not None, "no calibration for cortex-m4"
    assert "estimated instructions per inference on cortex-m4" in out
    assert f"total {est['total']:,} instructions" in out
    assert "aot_conv2d_s8_dsp" in out


# Every bench model on every core it ran on (the calibration sweep's one-layer models are calibration data).
CASES = [
    (core, model)
    for core, models in sorted(cost_measured.MEASURED.items())
    for model in sorted(models)
    if not models[model].get("sweep")
]
SWEEP_CORES = ("cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55")


def test_every_core_of_the_bench_is_calibrated():
    assert {"cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"} <= set(cost_table.PRICES)
    # and has -Os figures of some bench model, plausible ones (-Os trades instructions for size, within 2x here)
    assert {"cortex-m3", "cortex-m4", "cortex-m7", "cortex-m33", "cortex-m55"} <= set(cost_table.OS_RATIOS)
    assert all(0.9 < r < 2.0 for models in cost_table.OS_RATIOS.values() for r in models.values())


def test_estimate_within_ten_percent_of_the_bench():
    """In sample: every bench model on every core within 10 % of its count with the committed prices (but for
    IN_SAMPLE_MISSES, which must still miss: the list stays exact)."""
    errors = {}
    for core, model in CASES:
        m = cost_measured.MEASURED[core][model]
        errors[core, model] = (cost_model.estimate_work(core, m["work"]) - m["instructions"]) / m["instructions"]
    table = "\n".join(f"{c} {m}: {100 * e:+.1f} %" for (c, m), e in sorted(errors.items()))
    misses = {case for case, e in errors.items() if abs(e) > 0.10}
    assert misses == set(IN_SAMPLE_MISSES), f"off by more than 10 % in sample: {sorted(misses)}\n{table}"


def test_the_sweep_measured_every_core():
    """The calibration sweep (bench/sweep: one-layer models per kernel family and shape class) ran on all five
    cores, and each of its rows is one layer whose count is the model's whole count (what makes it per-layer data on
    the Cortex-M3, whose runner inlines layers)."""
    for core in SWEEP_CORES:
        sweep = {m: row for m, row in cost_measured.MEASURED[core].items() if row.get("sweep")}
        assert len(sweep) >= 80, f"{core}: {len(sweep)} sweep models"
        for model, row in sweep.items():
            assert len(row["layers"]) == 1 and sum(row["work"].values()) == next(iter(row["layers"].values()))[1]
            assert next(iter(row["layers"].values()))[0] == row["instructions"], (core, model)


def test_the_kept_bench_rows_refit_the_table():
    """MEASURED keeps what the prices were fitted from: refitting it gives the committed prices again (so the
    leave-one-out check below refits from the same data)."""
    prices, _ = cost_fit.calibrate(cost_fit.rows_from_measured(cost_measured.MEASURED))
    assert prices == cost_table.PRICES


def test_a_class_measured_on_another_core_is_borrowed_scaled():
    """The M7 runs the M4's kernels: a class only the M4 measured is priced at the M4's price times the ratio of
    the two cores over the classes both measured."""
    rows = [
        dict(
            core=c,
            model=m,
            board="b",
            instructions=n,
            outputs_exact=True,
            work_vector={f"k|{layers[0]['band']}|CONV_2D|mac": layers[0]["work"]},
            layers=layers,
        )
        for c, m, n, layers in [
            ("cortex-m4", "a", 300, [dict(kernel="k", entry="k", band="k<=8,c<=8", instructions=300, work=100)]),
            ("cortex-m4", "b", 500, [dict(kernel="k", entry="k", band="k<=64,c<=8", instructions=500, work=250)]),
            ("cortex-m7", "a", 330, [dict(kernel="k", entry="k", band="k<=8,c<=8", instructions=330, work=100)]),
        ]
    ]
    prices, _ = cost_fit.calibrate(rows)
    assert prices["cortex-m7"]["k|k<=64,c<=8|borrowed"] == [550, 250]  # 2.0 per MAC on the M4, x 1.1
    assert "k|k<=8,c<=8|borrowed" not in prices["cortex-m7"]  # its own class is measured
    keys = cost_model.layer_key({"entry": "k", "kind": "CONV_2D"}, "mac", "k<=64,c<=8")
    assert cost_model.price("cortex-m7", keys, prices) == (2.2, "k|k<=64,c<=8|borrowed")


def test_report_names_the_layers_priced_by_a_fallback():
    ops = [
        _op(0, "CONV_2D", "conv_a", 800 * 72, 0),  # its own class
        _op(1, "CONV_2D", "conv_a", 800 * 4, 0),  # the kernel's other classes
        _op(2, "CONV_2D", "conv_b", 800 * 4, 0),  # the kind's mean
        _op(3, "FULLY_CONNECTED", "fc", 100 * 4, 1),  # the core's mean
    ]
    text = "\n".join(cost_model.render(cost_model.estimate(_manifest(ops, TENSORS), table=TABLE)))
    assert "-O2 build" in text
    assert "1 layer(s), 7% of the estimate, priced at its kernel's mean over the other shape classes" in text
    assert "priced at the mean of the other CONV_2D kernels on cortex-m4" in text and "#2 conv_b" in text
    assert "priced at the mean of every kernel on cortex-m4 per MAC" in text and "#3 fc" in text
    assert cost_model.os_note({"core": "cortex-m4"}, {"cortex-m4": {"a": 1.05, "b": 1.2}}) == [
        "  an -Os build runs about 1.05x to 1.20x this: the -Os / -O2 counts of 2 bench model(s) on cortex-m4 "
        "(the perf tests' -Os budgets)"
    ]
    assert cost_model.os_note({"core": "cortex-m4"}, {}) == []
    only_own = cost_model.render(cost_model.estimate(_manifest(ops[:1], TENSORS), table=TABLE))
    assert only_own[-1].strip() == "every layer priced by its own kernel and shape class as the bench measured them"


# The bench models that miss 10 % out of sample, with the layer class they lack (bench/README.md): the prices
# fitted without them have nothing that runs their kernel or shape class as they do. A miss not listed here fails
# the test, and so does a listed one that is now within 10 % (the list stays exact).
_RESNET_FLOAT = (
    "its float GEMM convolutions (aot_conv2d_f32_gemm, 3x3 with k from 27 to over 1,024) run at 1.46 to 1.69 "
    "instructions per MAC on the M4, the sweep's one-layer models of the same shape classes (on smaller maps) at 1.20 "
    "to 1.42: without it those classes are priced by the sweep alone, 15-16 % under"
)
_M3_MOBILENET_V2_224 = (
    "the only bench model compiled with packed inputs for every layer (--specialize ...,xpair: its 3x3 stem and "
    "depthwise pixel pairs included); the M3's shape-specialized runner inlines every layer, so the fit has totals "
    "only and prices its classes from the models that take packed inputs for 1x1 layers alone, 12-13 % over"
)
_MOBILENET_V2_224 = (
    "its depthwise layers (96 to 960 channels on 112x112 to 7x7 maps) run at 3.40 instructions per MAC on the M4, "
    "where the other models' depthwise layers (KWS 2.22) and the sweep's set the price when it is left out, and ten "
    "of its clamped (ReLU6) 1x1 shape classes no other model has are priced at the clamping GEMM's mean over every "
    "class (-11.4 % on the M4, -12.4 % on the M7, -13.3 % on the M33)"
)
_MOBILENET_V2_SMALL_K = (
    "the only bench model whose 1x1 layers have K = 16 or 24 (aot_conv2d_s8_dsp_k16 / _k24, which forward to the "
    "saturating GEMM): the sweep's one-layer models of those shapes take the 2-pixel tile instead (in a one-layer "
    "model the scratch is the whole workspace, and aot_conv2d_s8_dsp_t2's is smaller), so left out, K = 24 is priced "
    "at the M4's convolution mean and K = 16 at what the 224x224 MobileNet v2's total makes of it (+12.1 %; the M7 "
    "+9.0 %, the M33 +7.8 %)"
)
KNOWN_MISSES = {
    ("cortex-m4", "field_resnet_large_float"): _RESNET_FLOAT,
    ("cortex-m7", "field_resnet_large_float"): _RESNET_FLOAT,
    ("cortex-m33", "field_resnet_large_float"): _RESNET_FLOAT,
    ("cortex-m3", "field_mobilenet_v2_224"): _M3_MOBILENET_V2_224,
    ("cortex-m4", "field_mobilenet_v2_224"): _MOBILENET_V2_224,
    ("cortex-m7", "field_mobilenet_v2_224"): _MOBILENET_V2_224,
    ("cortex-m33", "field_mobilenet_v2_224"): _MOBILENET_V2_224,
    ("cortex-m4", "mobilenet_v2"): _MOBILENET_V2_SMALL_K,
}
# In sample, every bench model on every core is within 10 % but this one (reason above). (ARG_MAX / ARG_MIN, whose
# count depended on where the extreme lay, missed here until their kernels became one pass of data-independent length;
# hello_world_float, until its three small fully connected layers took the portable kernel: FEW_FLOAT_MACS.)
IN_SAMPLE_MISSES = {
    ("cortex-m3", "field_mobilenet_v2_224"): _M3_MOBILENET_V2_224,
}


def test_leave_one_model_out():
    """Every bench model estimated with prices fitted to the other bench models and the calibration sweep (the model
    removed from every core), within 10 % of its measurement, but for KNOWN_MISSES (each with the reason)."""
    loo = cost_fit.leave_one_out(cost_measured.MEASURED)
    table = cost_fit.markdown(loo)
    assert {(r["core"], r["model"]) for r in loo} == set(CASES)
    estimated = [r for r in loo if r["estimate"] is not None]
    misses = {(r["core"], r["model"]) for r in estimated if abs(r["error"]) > 0.10}
    unexpected = sorted(misses - set(KNOWN_MISSES))
    assert not unexpected, f"out of sample, off by more than 10 %: {unexpected}:\n{table}"
    now_within = sorted(set(KNOWN_MISSES) - misses)
    assert not now_within, f"within 10 % out of sample now, drop them from KNOWN_MISSES: {now_within}:\n{table}"
    # Only the one Cortex-M0 run (micro_speech) has no other model on its core.
    assert [(r["core"], r["model"]) for r in loo if r["estimate"] is None] == [("cortex-m0", "micro_speech")]
    for r in loo:  # a price from a kind or core mean is a kernel no other model ran on that core: named
        guessed = r["shares"].get("kind", 0) + r["shares"].get("core", 0)
        assert bool(guessed) == bool(r["guessed"]), r
