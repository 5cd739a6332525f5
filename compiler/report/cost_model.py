"""Instructions per inference before anything is flashed: a per-core cost model calibrated under QEMU.

Every layer is priced as (instructions per unit of work) x (its work): its MACs for layers that multiply, its output
elements for the others (pooling, element-wise, data movement, tables). The price depends on the core, the kernel
the layer runs (the manifest's `entry`, e.g. aot_conv2d_s8_dsp_sat) and its shape class: for MAC layers the dot
length K of one output (MACs / output elements) and the output channels C, in bands, since short dot products and
few channels spread the per-output and per-patch set-up over fewer MACs, and whether a convolution is 1x1 (no patch
to gather). The prices come from the benchmarks' per-layer counts and the calibration sweep's one-layer models
(bench/sweep; `bench/recalibrate.sh` reruns both and writes cost_table.py); a (kernel, class) never measured on that
core takes its price on another core that runs the same kernel, scaled by the two cores' ratio, then the kernel's
price over every class, then the operator kind's, then the core's average.
The same table holds the measured totals, which //tests/compiler:test_cost_model compares with the estimates (within
10 %, in sample and with each bench model left out of the fit).

Instruction counts, not cycles: an estimate of what the QEMU counter reports, as the benchmarks measure it, for the
code the bench builds (-O2; the perf tests' -Os images run more instructions, so their budgets are not this estimate).
How far the estimate can be trusted for a model the bench never ran: compiler/report/cost_fit.py (leave one model out)
and the report's notes on layers priced by a fallback.
"""

from . import cost_table

# Dot length and output channel bands of the shape classes of MAC layers.
_K_BANDS = (4, 8, 16, 32, 64, 128, 256, 512, 1024)
_C_BANDS = (4, 8, 16, 32, 64, 128, 256)
# Elements read per element written of the others (element-wise 1, reductions such as ARG_MAX more).
_R_BANDS = (1, 16, 256)


def _band(name: str, value: float, bands: tuple) -> str:
    return next((f"{name}<={b}" for b in bands if value <= b), f"{name}>{bands[-1]}")


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def layer_work(op: dict, tensors: dict) -> tuple:
    """(unit, work, shape class) of one manifest operator: ("mac", MACs, "k<=32,c<=8") for a layer that
    multiplies (dot length K of one output, output channels C: the set-up per output and per input patch is spread
    over them; ",1x1" added for a pointwise convolution), ("element", n, "-") for the others, n the larger of its
    first input and its outputs (a reduction such as ARG_MAX reads much more than it writes)."""
    outs = [tensors[i] for i in op.get("outputs", []) if i in tensors]
    elements = sum(_prod(t["shape"]) for t in outs) or 1
    macs = int(op.get("macs", 0))
    if macs and op["kind"] in MAC_KINDS:
        channels = int(outs[0]["shape"][-1]) if outs and outs[0]["shape"] else 1
        band = _band("k", macs / elements, _K_BANDS) + "," + _band("c", channels, _C_BANDS)
        return "mac", macs, band + (",1x1" if _pointwise(op, tensors) else "")
    first = [_prod(tensors[i]["shape"]) for i in op.get("inputs", [])[:1] if i in tensors]
    read = max([elements] + first)
    return "element", read, _band("r", read / elements, _R_BANDS)


def _pointwise(op: dict, tensors: dict) -> bool:
    """A 1x1 CONV_2D (filter [C, 1, 1, K]): a plain GEMM over its input, where a KxK convolution of the same dot
    length first gathers each output's patch (im2col), which costs 1.5-2.5x more per MAC on the same kernel."""
    inputs = op.get("inputs", [])
    if op["kind"] != "CONV_2D" or len(inputs) < 2 or inputs[1] not in tensors:
        return False
    shape = tensors[inputs[1]]["shape"]
    return len(shape) == 4 and shape[1] == shape[2] == 1


# Operators priced per MAC (the others per output element, their MAC count being an operation count).
MAC_KINDS = frozenset(
    {
        "CONV_2D",
        "DEPTHWISE_CONV_2D",
        "FULLY_CONNECTED",
        "TRANSPOSE_CONV",
        "BATCH_MATMUL",
        "UNIDIRECTIONAL_SEQUENCE_LSTM",
        "SVDF",
        "CONV",
        "GEMM",
        "MATMUL",
    }
)


# Kernels the calibration has not measured yet, priced at another kernel's shape classes before a kind's mean: the
# Cortex-M3's packed-input convolution body at the packed-weight body's (the same SMLAL lanes and requantization;
# on the M3 bench models it ran 0 to 11 % fewer instructions where it replaced it, bench/README.md "Plain builds");
# the DSP GEMM's 2-pixel tile (the planner's choice only where its scratch lowers the workspace peak) at the 3-pixel
# GEMM's (the same MACs; it runs more instructions per MAC, so the estimate is low); the FPU cores' float fully
# connected unit of a batch of one at the kernel's (the same code for one row), and the depthwise entry point that
# links the single column's slide of 3 taps, and Helium's lanes' own, at the kernel's.
PROXY = {
    "aot_conv2d_s8_xpair_body": "aot_conv2d_s8_packed_body",
    "aot_conv2d_s8_dsp_t2": "aot_conv2d_s8_dsp",
    "aot_fully_connected_f32_gemm_row": "aot_fully_connected_f32_gemm",
    "aot_depthwise_conv2d_f32_vec3": "aot_depthwise_conv2d_f32_vec",
    "aot_depthwise_conv2d_f32_vec_lanes": "aot_depthwise_conv2d_f32_vec",
}


def proxy_entry(entry: str):
    """The entry whose prices stand in for `entry` (PROXY; its requantization suffix kept), or None."""
    for own, other in PROXY.items():
        if entry.startswith(own):
            return other + entry[len(own) :]
    return None


def layer_key(op: dict, unit: str, band: str) -> tuple:
    """The keys a layer's price is looked up under, most specific first."""
    entry = op.get("entry") or op.get("kernel") or op["kind"]
    keys = (f"{entry}|{band}", f"{entry}|{band}|borrowed", f"{entry}|*")
    proxy = proxy_entry(entry)
    if proxy is not None:
        keys += (f"{proxy}|{band}", f"{proxy}|{band}|borrowed", f"{proxy}|*")
    return keys + (f"{op['kind']}|{unit}", f"*|{unit}")


def price(core: str, keys: tuple, table: dict = None):
    """(instructions per unit, the key it came from) for a core, or (None, None) if the core is uncalibrated."""
    prices = (table or cost_table.PRICES).get(core)
    if not prices:
        return None, None
    for key in keys:
        if key in prices:
            instructions, work = prices[key]
            return instructions / work, key
    return None, None


def estimate(manifest: dict, core: str = None, table: dict = None) -> dict:
    """{"core", "total", "layers": [{index, kind, entry, unit, work, band, per_unit, instructions, key}]} for a
    model's report as compiled for `core` (default: its target), or None when the table has no prices for it."""
    core = core or manifest["target"]
    if core not in (table or cost_table.PRICES):
        return None
    tensors = {t["index"]: t for t in manifest["tensors"]}
    layers = []
    for op in manifest["ops"]:
        if op.get("fused_into") is not None:
            continue  # its work is priced with the layer it is fused into
        unit, work, band = layer_work(op, tensors)
        per_unit, key = price(core, layer_key(op, unit, band), table)
        if not op.get("kernel"):  # aliased (a RESHAPE in place): no code
            per_unit, key = 0.0, "aliased"
        layers.append(
            {
                "index": op["index"],
                "kind": op["kind"],
                "entry": op.get("entry") or op.get("kernel"),
                "unit": unit,
                "work": work,
                "band": band,
                "per_unit": per_unit or 0.0,
                "instructions": int(round((per_unit or 0.0) * work)),
                "key": key,
            }
        )
    return {"core": core, "total": sum(r["instructions"] for r in layers), "layers": layers}


def work_vector(manifest: dict) -> dict:
    """{"entry|band|kind|unit": work} summed over a model's layers: what bench/calibrate.py keeps beside each
    measured total, so that the estimate of a bench model can be recomputed without compiling it."""
    tensors = {t["index"]: t for t in manifest["tensors"]}
    out = {}
    for op in manifest["ops"]:
        if op.get("fused_into") is not None or not op.get("kernel"):
            continue
        unit, work, band = layer_work(op, tensors)
        key = "|".join((op.get("entry") or op["kernel"], band, op["kind"], unit))
        out[key] = out.get(key, 0) + work
    return out


def estimate_work(core: str, work: dict, table: dict = None) -> int:
    """The estimate of a work_vector on `core`."""
    total = 0.0
    for key, n in work.items():
        entry, band, kind, unit = key.split("|")
        per_unit, _ = price(core, layer_key({"entry": entry, "kind": kind}, unit, band), table)
        total += (per_unit or 0.0) * n
    return int(round(total))


def render(est: dict, clock_hz: int = 0, worst: int = 0) -> list:
    """Text lines: the estimated instructions per layer (the `worst` costliest, or all) and in total."""
    if est is None:
        return []
    total = est["total"] or 1
    rows = sorted(est["layers"], key=lambda r: -r["instructions"])[:worst] if worst else est["layers"]
    lines = [
        f"estimated instructions per inference on {est['core']} (cost model calibrated under QEMU by the "
        "benchmarks, for an -O2 build; -Os code runs more; instructions, not cycles):",
        f"  {'#':>4}  {'op':<26} {'kernel':<34} {'work':>12} {'/unit':>7} {'instructions':>13} {'share':>6}",
    ]
    for r in rows:
        work = f"{r['work']:,} {'MAC' if r['unit'] == 'mac' else 'el'}"
        lines.append(
            f"  {r['index']:>4}  {r['kind']:<26} {str(r['entry'] or '-'):<34} {work:>12} {r['per_unit']:>7.2f} "
            f"{r['instructions']:>13,} {100.0 * r['instructions'] / total:>5.1f}%"
        )
    lines.append(f"  total {est['total']:>,} instructions" + time_text(est["total"], clock_hz))
    lines += os_note(est)
    lines += fallback_notes(est)
    return lines


def os_note(est: dict, ratios: dict = None) -> list:
    """What an -Os build runs instead, from the bench models the perf tests also build -Os (cost_table.OS_RATIOS):
    the range of their -Os / -O2 counts on the core, not one factor (it varies by model)."""
    r = (ratios if ratios is not None else getattr(cost_table, "OS_RATIOS", {})).get(est["core"])
    if not r:
        return []
    lo, hi = min(r.values()), max(r.values())
    return [
        f"  an -Os build runs about {lo:.2f}x to {hi:.2f}x this: the -Os / -O2 counts of {len(r)} bench model(s) "
        f"on {est['core']} (the perf tests' -Os budgets)"
    ]


def fallback_notes(est: dict) -> list:
    """Lines naming the layers whose price is not their own kernel's and shape class's. Out of sample (compiler/
    report/cost_fit.py: leave_one_out; the figures in bench/README.md) the bench models priced by class, as the
    calibration sweep measures them, came within 10 % (but for a data-dependent ARG_MAX); before the sweep, a price
    over the kernel's other classes (short dot products and few channels spread the set-up over fewer MACs) missed
    by up to a factor of 5, a kind's or the core's mean (a kernel never run on that core) by more."""
    core = est["core"]
    by_how = {"borrowed": [], "kernel": [], "proxy": [], "kind": [], "core": []}
    for r in est["layers"]:
        key = r["key"]
        if key in (None, "aliased") or key == f"{r['entry']}|{r['band']}":
            continue
        proxy = proxy_entry(r["entry"] or "")
        if proxy is not None and key.startswith(proxy + "|"):
            how = "proxy"
        elif key.endswith("|borrowed"):
            how = "borrowed"
        elif key == f"{r['entry']}|*":
            how = "kernel"
        else:
            how = "kind" if key.startswith(r["kind"] + "|") else "core"
        by_how[how].append(r)
    total = est["total"] or 1
    what = {
        "borrowed": "its kernel's and shape class's price on another core that runs the same kernel, scaled by the "
        f"two cores' ratio (the class was never measured on {core}): the closest fallback",
        "kernel": "its kernel's mean over the other shape classes the bench ran (not its own): may be several times "
        "off",
        "proxy": "the price of a kernel of the same arithmetic for its shape class (cost_model.PROXY: its own kernel "
        "is not calibrated yet)",
        "kind": f"the mean of the other {{kind}} kernels on {core}: the bench never ran its kernel on {core}; a guess",
        "core": f"the mean of every kernel on {core} per {{unit}}: the bench never ran its kernel or its kind on "
        f"{core}; a rough guess",
    }
    lines = []
    for how, rows in by_how.items():
        if not rows:
            continue
        share = 100.0 * sum(r["instructions"] for r in rows) / total
        layers = ", ".join(f"#{r['index']} {r['entry']}" for r in rows[:6]) + (" ..." if len(rows) > 6 else "")
        text = what[how].format(kind=rows[0]["kind"], unit="MAC" if rows[0]["unit"] == "mac" else "element")
        lines.append(f"  note: {len(rows)} layer(s), {share:.0f}% of the estimate, priced at {text} ({layers})")
    if not lines:
        lines.append("  every layer priced by its own kernel and shape class as the bench measured them")
    return lines


def time_text(instructions: int, clock_hz: int) -> str:
    if not clock_hz:
        return ""
    ms = 1000.0 * instructions / clock_hz
    return f", about {ms:,.2f} ms at {clock_hz / 1e6:g} MHz if the core retires one instruction per cycle (estimate)"
