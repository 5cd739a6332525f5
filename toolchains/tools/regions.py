"""Memory regions of a firmware image: how full each region of its board is, what is placed where, and the
per-region budgets of aot_firmware(region_budgets = ...).

A region's use is every allocated section whose run address lies in it, plus the load image of a section copied at
reset (.data) where that image is stored; the heap (all of RAM left between .bss and the stack) is not counted. The
linker script frames each placement kind with __aot_<kind>_start / _end (aot_rules/private/link_layout.bzl), so a
symbol in a frame is that kind's: model weights, a workspace, state or I/O buffer. A symbol whose name starts with
a model's prefix belongs to that model (the name-mangling contract).
"""

from dataclasses import dataclass

KINDS = ("weights", "workspace", "state", "io")


@dataclass(frozen=True)
class Region:
    name: str
    origin: int
    length: int
    attributes: str

    def holds(self, address: int) -> bool:
        return self.origin <= address < self.origin + self.length


def parse_region(spec: str) -> Region:
    """NAME:ORIGIN:LENGTH:ATTRIBUTES (decimal), as aot_firmware passes them."""
    name, origin, length, attributes = spec.split(":")
    return Region(name, int(origin), int(length), attributes)


def region_of(regions, address: int):
    return next((r.name for r in regions if r.holds(address)), None)


def usage(regions, sections) -> dict:
    """region name -> bytes used (sections run there, plus load images stored there; the heap excluded)."""
    used = {r.name: 0 for r in regions}
    for s in sections:
        if s.name == ".heap":
            continue
        run = region_of(regions, s.address)
        if run:
            used[run] += s.size
        stored = region_of(regions, s.load)
        if not s.nobits and s.load != s.address and stored and stored != run:
            used[stored] += s.size
    return used


def total_capacity(rows, writable: bool):
    """([region names], bytes) that a total of the report is a share of: the board's read-only regions that hold
    something for flash_total, its writable ones for ram_total (a workspace in DTCM is RAM too). Dividing all RAM by
    one region's length would overstate how full that region is; each region's own share is in the region table."""
    picked = [r for r in rows if ("w" in r["attributes"]) == writable and r["used"]]
    return [r["name"] for r in picked], sum(r["length"] for r in picked)


def kind_of(markers: dict, address: int):
    for kind in KINDS:
        start, end = markers.get(f"__aot_{kind}_start"), markers.get(f"__aot_{kind}_end")
        if start is not None and end is not None and start <= address < end:
            return kind
    return None


def contributors(region: Region, symbols, sections, markers: dict, models: dict, placement: dict) -> list:
    """[(bytes, description)] of what fills `region`, largest first: per model and kind (weights of kws, the
    workspace buffer test_workspace, ...), the other symbols by name, and the stack and .data load image."""
    groups = {}
    prefixes = sorted(models, key=len, reverse=True)
    for sym in symbols:
        if not region.holds(sym.address):
            continue
        kind = kind_of(markers, sym.address)
        owner = next((p for p in prefixes if sym.name.startswith(p + "_")), None)
        if kind == "weights" and owner:
            key = f"weights of {owner}"
        elif kind:
            key = f"{kind} buffer {sym.name}"
        else:
            key = sym.name
        groups[key] = groups.get(key, 0) + sym.size
    for s in sections:
        if s.name == ".stack" and region.holds(s.address):
            groups["the stack reservation"] = s.size
        if not s.nobits and s.load != s.address and region.holds(s.load) and not region.holds(s.address):
            groups[f"load image of {s.name}"] = s.size
    return sorted(((size, desc) for desc, size in groups.items()), key=lambda x: (-x[0], x[1]))


def placed_kinds(regions, symbols, markers: dict, placement: dict) -> dict:
    """kind -> {region (where the linker put its frame), bytes, symbols}: what the placement did, for the JSON."""
    out = {}
    for kind in KINDS:
        start, end = markers.get(f"__aot_{kind}_start"), markers.get(f"__aot_{kind}_end")
        if start is None or end is None:
            continue
        out[kind] = {
            "region": region_of(regions, start) if end > start else placement.get(kind),
            "bytes": end - start,
            "symbols": sorted(s.name for s in symbols if start <= s.address < end),
        }
    return out


def render_placed(placed: dict) -> str:
    return "".join(
        f"  {kind:<10} {p['bytes']:>9} B in {p['region']}: {', '.join(p['symbols'][:4])}"
        f"{' ...' if len(p['symbols']) > 4 else ''}\n"
        for kind, p in placed.items()
        if p["bytes"]
    )


def planned_note(region: Region, models: dict, placement: dict) -> str:
    """What the models' plans need of the kinds placed in `region` (their buffers are the application's)."""
    parts = []
    for kind in ("workspace", "state"):
        if placement.get(kind) == region.name:
            parts += [
                f"{p}'s {kind} {m[kind]['size']} B" for p, m in sorted(models.items()) if m.get(kind, {}).get("size")
            ]
    return f" Placed here by the models' plans: {', '.join(parts)}." if parts else ""


def region_rows(regions, used: dict, budgets: dict, placement: dict) -> list:
    """JSON rows: one per region with its use, length, budget and the kinds placed there."""
    return [
        {
            "name": r.name,
            "origin": r.origin,
            "length": r.length,
            "attributes": r.attributes,
            "used": used[r.name],
            "budget": budgets.get(r.name),
            "holds": [k for k in KINDS if placement.get(k) == r.name],
        }
        for r in regions
    ]


def render_regions(rows) -> str:
    lines = [f"  {'region':<10}{'origin':>12}{'length':>11}{'used':>11}{'':>9}  budget      placed here"]
    for row in rows:
        pct = f"{100.0 * row['used'] / row['length']:.1f} %" if row["length"] else ""
        budget = f"{row['budget']} B" if row["budget"] is not None else "-"
        lines.append(
            f"  {row['name']:<10}{row['origin']:>#12x}{row['length']:>9} B{row['used']:>9} B{pct:>9}  "
            f"{budget:<12}{', '.join(row['holds']) or '-'}"
        )
    lines.append("  (used = sections run there + load images stored there; the heap is not counted)")
    return "\n".join(lines) + "\n"


def region_budget_problems(
    name: str, regions, rows, symbols, sections, markers, models, placement, budget_texts: dict
) -> list:
    """One message per region over its budget: region, figure (used vs budget and length), contributors."""
    problems = []
    by_name = {r.name: r for r in regions}
    for row in rows:
        if row["budget"] is None or row["used"] <= row["budget"]:
            continue
        top = contributors(by_name[row["name"]], symbols, sections, markers, models, placement)[:5]
        problems.append(
            f"{name}: region {row['name']} holds {row['used']} B, over its budget of {row['budget']} B "
            f"({budget_texts[row['name']]}; the region is {row['length']} B). Contributors: "
            + "; ".join(f"{desc} ({size} B)" for size, desc in top)
            + "."
            + planned_note(by_name[row["name"]], models, placement)
        )
    return problems
