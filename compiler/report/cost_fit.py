"""Fitting the cost model's prices to bench runs, and checking them out of sample.

`calibrate` turns bench and sweep rows (one per model and board: its measured instructions, its work by key and,
where the runner calls the CRT kernels or the model has one layer, its per-layer counts) into the price table
compiler/report/cost_model.py reads; bench/calibrate.py writes it to cost_table.py and the rows it came from to
cost_measured.py (MEASURED: each model's total, its work and its per-layer counts by kernel and shape class).
`leave_one_out` refits the prices without one bench model (on every core at once: a model nobody has benched is the
case the estimate is for) and estimates that model from the others and the sweep, for every model and core: what
//tests/compiler:test_cost_model holds to the issue's bound and bench/README.md reports.

Where the prices come from (cost_model.price falls back in this order): a kernel's shape class measured by a layer
of another model; the same class measured on another core that runs the same kernel, scaled (`_borrow`); the kernel
over every class; the operator kind on that core (`CONV_2D|mac`, the work-weighted
mean of the kernels of that kind); the core's mean per MAC or per element. The last two are guesses: a kernel no
other bench model runs on that core (the only model with an LSTM, with LUT activations, with a float ResNet) is
priced at what other kernels cost, and the error is then whatever the difference between the kernels is.
"""

from . import cost_model

# How an estimate's price was found, from the best to the worst (cost_model.layer_key's order).
LEVELS = ("class", "borrowed", "kernel", "proxy", "kind", "core")


def _add(prices: dict, key: str, instructions: float, work: float):
    have = prices.setdefault(key, [0, 0])
    have[0] += instructions
    have[1] += work


def layered_prices(rows: list) -> dict:
    """`entry|band` and `entry|*` prices from the per-layer counts of the rows that have them."""
    prices = {}
    for row in rows:
        for layer in row["layers"]:
            if not layer.get("work") or not layer.get("kernel"):
                continue
            entry = layer.get("entry") or layer["kernel"]
            n, w = layer["instructions"], layer["work"]
            for key in (f"{entry}|{layer['band']}", f"{entry}|*"):
                _add(prices, key, n, w)
    return {k: [int(v[0]), int(v[1])] for k, v in prices.items() if v[1]}


def implied_row(row: dict, prices: dict):
    """A run with its total only (a Cortex-M3 runner that inlines its layers) as per-layer counts: its total split
    over its kernels and shape classes in proportion to what the measured prices make of them, so the total counts
    in the prices of its classes as a per-layer run would. None if a class has no measured price (the run is then
    fitted to its total instead: fitted_prices)."""
    parts = []
    for key, n in row["work_vector"].items():
        p = _entry_price(prices, key)
        if p is None:
            return None
        parts.append((key, n, p * n))
    estimate = sum(e for _, _, e in parts)
    if not estimate:
        return None
    layers = []
    for key, n, e in parts:
        entry, band, _kind, _unit = key.split("|")
        layers.append(
            {
                "kernel": entry,
                "entry": entry,
                "band": band,
                "work": n,
                "instructions": row["instructions"] * e / estimate,
            }
        )
    return dict(row, layers=layers)


def _entry_price(prices: dict, key: str):
    entry, band, _kind, _unit = key.split("|")
    for k in (f"{entry}|{band}", f"{entry}|*"):
        if k in prices:
            return prices[k][0] / prices[k][1]
    return None


# The weight of that pull against the totals' relative errors: small enough that a price the totals determine moves
# by well under 0.1 %.
RIDGE = 1e-6


def fitted_prices(rows: list, prices: dict, sweeps: int = 2000) -> dict:
    """Prices for the kernels of runs without per-layer counts, fitted to their totals: every layer whose kernel
    has a measured price keeps it, the others get one price per kernel (`entry|*`) such that the models' totals
    come out right: min sum(((known + X p - y) / y)^2) with p >= 0, by coordinate descent."""
    known, unknown = [], []
    for r in rows:
        k = 0.0
        for key, n in r["work_vector"].items():
            p = _entry_price(prices, key)
            if p is None:
                unknown.append(key.split("|")[0])
            else:
                k += p * n
        known.append(k)
    groups = sorted(set(unknown))
    if not groups:
        return {}
    X = [
        [
            sum(
                n for key, n in r["work_vector"].items() if key.split("|")[0] == g and _entry_price(prices, key) is None
            )
            for g in groups
        ]
        for r in rows
    ]
    y = [r["instructions"] for r in rows]
    rest_total = sum(max(0.0, t - k) for t, k in zip(y, known))
    p = [rest_total / max(1, sum(sum(x) for x in X))] * len(groups)
    # Each model's estimate, kept up to date as one price changes (a sweep costs rows x kernels).
    pred = [k + sum(xi * pi for xi, pi in zip(x, p)) for x, k in zip(X, known)]
    # A run's total often spans several unmeasured kernels that no other run separates (an audio front end's eight
    # signal kernels): the totals then fix their sum only. A small pull towards the common starting price picks the
    # split closest to it (in proportion to the work) instead of whatever kernel the descent visits first.
    p0 = p[0] or 1.0
    pull = RIDGE / (p0 * p0)
    for _ in range(sweeps):
        moved = 0.0
        for j in range(len(groups)):
            num, den = pull * p0, pull
            for x, t, e in zip(X, y, pred):
                if x[j]:
                    a = x[j] / t
                    num += a * (1.0 - (e - x[j] * p[j]) / t)
                    den += a * a
            if not den:
                continue
            new = max(0.0, num / den)
            if new != p[j]:
                for r, x in enumerate(X):
                    pred[r] += x[j] * (new - p[j])
                moved = max(moved, abs(new - p[j]) / max(new, p[j]))
                p[j] = new
        if moved < 1e-12:
            break
    # Stored as (instructions, work) like the measured prices: work 10^6 keeps six significant digits.
    return {f"{g}|*": [int(round(pj * 1_000_000)), 1_000_000] for g, pj in zip(groups, p)}


def _coarse(prices: dict, rows: list) -> dict:
    """Operator-kind and core prices (`CONV_2D|mac`, `*|element`) over every model of the core, from the finer ones:
    what a layer of a kernel the bench never ran on that core is priced at."""
    out = {}
    for r in rows:
        for key, n in r["work_vector"].items():
            p = _entry_price(prices, key)
            if p is None:
                continue
            _entry, _band, kind, unit = key.split("|")
            for k in (f"{kind}|{unit}", f"*|{unit}"):
                _add(out, k, p * n, n)
    return {k: [int(round(v[0])), int(v[1])] for k, v in out.items() if v[1]}


def layers_by_key(layers: list) -> dict:
    """A row's per-layer counts summed by `entry|band`: [instructions, work] (what MEASURED keeps of them; the
    prices are sums over layers, so the sums lose nothing the fit uses)."""
    out = {}
    for layer in layers or []:
        if not layer.get("work") or not layer.get("kernel"):
            continue
        _add(out, f"{layer.get('entry') or layer['kernel']}|{layer['band']}", layer["instructions"], layer["work"])
    return {k: [int(v[0]), int(v[1])] for k, v in sorted(out.items())}


def calibrate(results: list) -> tuple:
    """(PRICES, MEASURED) from bench result rows (every run whose outputs were exact)."""
    by_core = {}
    for row in results:
        # A bench run counts only if its outputs were exact; a sweep run (seeded inputs, no reference) if it ran.
        if (row.get("outputs_exact") or (row.get("sweep") and row.get("run_ok"))) and row.get("work_vector"):
            by_core.setdefault(row["core"], []).append(row)
    prices, measured = {}, {}
    for core, rows in sorted(by_core.items()):
        layered = [r for r in rows if r.get("layers")]
        p = {k: v for k, v in layered_prices(layered).items() if not (k.endswith("|mac") or k.endswith("|element"))}
        implied = [x for x in (implied_row(r, p) for r in rows if not r.get("layers")) if x]
        if implied:
            p = {
                k: v
                for k, v in layered_prices(layered + implied).items()
                if not (k.endswith("|mac") or k.endswith("|element"))
            }
        p.update(fitted_prices([r for r in rows if not r.get("layers")], p))
        p.update(_coarse(p, rows))
        prices[core] = p
        measured[core] = {
            r["model"]: {
                "board": r["board"],
                "instructions": r["instructions"],
                "work": r["work_vector"],
                "layers": layers_by_key(r["layers"]) if r.get("layers") else None,
                **({"sweep": True} if r.get("sweep") else {}),
            }
            for r in sorted(rows, key=lambda r: r["model"])
        }
    _borrow(prices)
    return prices, measured


def _is_class(key: str) -> bool:
    parts = key.split("|")
    return len(parts) == 2 and parts[1] not in ("*", "mac", "element")


def _borrow(prices: dict) -> None:
    """Shape classes a core never measured but another core did with the same kernel entry (the DSP kernels run on
    the M4, M7 and M33 alike; a few portable ones everywhere): `entry|band|borrowed`, that core's price scaled by the
    two cores' ratio over the classes both measured (instructions on this core / the other core's prices times this
    core's work). From the core that shares the most work with this one that measured the class."""
    measured = {c: {k: v for k, v in p.items() if _is_class(k)} for c, p in prices.items()}
    for core, own in measured.items():
        others = []
        for other, theirs in measured.items():
            common = [k for k in own if k in theirs]
            if other == core or not common:
                continue
            work = sum(own[k][1] for k in common)
            ratio = sum(own[k][0] for k in common) / sum(theirs[k][0] / theirs[k][1] * own[k][1] for k in common)
            others.append((-work, other, ratio))
        for _, other, ratio in sorted(others):
            for k, (n, w) in measured[other].items():
                if k not in own and k + "|borrowed" not in prices[core]:
                    prices[core][k + "|borrowed"] = [int(round(n * ratio)), w]


def rows_from_measured(measured: dict) -> list:
    """Bench rows again from MEASURED, as calibrate reads them (per-layer counts as one layer per key)."""
    rows = []
    for core, models in measured.items():
        for model, m in models.items():
            layers = None
            if m.get("layers"):
                layers = []
                for key, (n, w) in m["layers"].items():
                    entry, band = key.split("|", 1)
                    layers.append({"kernel": entry, "entry": entry, "band": band, "instructions": n, "work": w})
            rows.append(
                {
                    "core": core,
                    "model": model,
                    "board": m["board"],
                    "instructions": m["instructions"],
                    "work_vector": m["work"],
                    "layers": layers,
                    "outputs_exact": True,
                    "sweep": bool(m.get("sweep")),
                }
            )
    return rows


def level(key: str, found: str) -> str:
    """How a work key's price was found: "class", "borrowed", "kernel", "proxy", "kind" or "core" (LEVELS)."""
    entry, band, kind, _unit = key.split("|")
    if found == f"{entry}|{band}":
        return "class"
    if found == f"{entry}|{band}|borrowed":
        return "borrowed"
    if found == f"{entry}|*":
        return "kernel"
    proxy = cost_model.proxy_entry(entry)
    if found and proxy is not None and found.startswith(proxy + "|"):
        return "proxy"
    return "kind" if found and found.startswith(kind + "|") else "core"


def bench_models(measured: dict) -> list:
    """The bench models of MEASURED (not the calibration sweep's one-layer models), sorted."""
    return sorted({m for models in measured.values() for m, row in models.items() if not row.get("sweep")})


def leave_one_out(measured: dict) -> list:
    """For every bench model and core: the estimate with prices fitted to every other model (on every core), the
    calibration sweep's included (its one-layer models are calibration data, not left out themselves).
    Rows {core, model, measured, estimate (None: no other model on that core), error, shares (LEVELS -> the share
    of the estimate priced at that level), guessed (the kernels priced at a kind or core mean)}."""
    rows = rows_from_measured(measured)
    out = []
    for model in bench_models(measured):
        prices, _ = calibrate([r for r in rows if r["model"] != model])
        for r in rows:
            if r["model"] != model:
                continue
            core, y = r["core"], r["instructions"]
            if core not in prices:
                out.append(dict(core=core, model=model, measured=y, estimate=None, error=None, shares={}, guessed=[]))
                continue
            by_level, guessed = dict.fromkeys(LEVELS, 0.0), set()
            for key, n in r["work_vector"].items():
                entry, band, kind, unit = key.split("|")
                per_unit, found = cost_model.price(
                    core, cost_model.layer_key({"entry": entry, "kind": kind}, unit, band), prices
                )
                how = level(key, found)
                by_level[how] += (per_unit or 0.0) * n
                if how in ("kind", "core"):
                    guessed.add(entry)
            est = cost_model.estimate_work(core, r["work_vector"], prices)
            total = sum(by_level.values()) or 1.0
            out.append(
                dict(
                    core=core,
                    model=model,
                    measured=y,
                    estimate=est,
                    error=(est - y) / y,
                    shares={k: v / total for k, v in by_level.items() if v},
                    guessed=sorted(guessed),
                )
            )
    return sorted(out, key=lambda r: (r["core"], r["model"]))


def markdown(loo: list) -> str:
    """The leave-one-model-out table (what bench/README.md shows)."""
    lines = [
        "| core | model | measured | estimate without it | error | priced by class / class on another core / "
        "kernel / kind / core mean "
        "| kernels no other model runs |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for r in loo:
        if r["estimate"] is None:
            lines.append(f"| {r['core']} | {r['model']} | {r['measured']:,} | - | - | no other model on the core | |")
            continue
        shares = " / ".join(f"{100 * r['shares'].get(k, 0):.0f}" for k in LEVELS)
        lines.append(
            f"| {r['core']} | {r['model']} | {r['measured']:,} | {r['estimate']:,} | {100 * r['error']:+.1f} % "
            f"| {shares} % | {', '.join(r['guessed'])} |"
        )
    return "\n".join(lines)


def markdown_both(measured: dict, prices: dict, loo: list) -> str:
    """Every bench model and core: its count, the estimate with the committed prices (in sample) and the estimate
    with it left out of the fit (out of sample), with their errors (what bench/README.md shows)."""
    lines = [
        "| core | model | measured | in sample | error | left out | error |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in loo:
        m = measured[r["core"]][r["model"]]
        est = cost_model.estimate_work(r["core"], m["work"], prices)
        inside = f"{est:,} | {100 * (est - m['instructions']) / m['instructions']:+.1f} %"
        out = "- | -" if r["estimate"] is None else f"{r['estimate']:,} | {100 * r['error']:+.1f} %"
        lines.append(f"| {r['core']} | {r['model']} | {m['instructions']:,} | {inside} | {out} |")
    return "\n".join(lines)
