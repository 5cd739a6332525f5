"""Who uses the flash and RAM of a firmware image: each model, the CRT, and the rest (startup, libc, application).

Symbols are attributed by name, which the name-mangling contract makes exact: every symbol of a model starts with
its prefix, every CRT symbol with `aot_`. Per model the report adds what the ELF cannot show by itself: the
workspace its plan needs (from the compiler's JSON; the buffer is the application's or an aot_workspace symbol) and
the worst-case stack of `<prefix>_run` (from stack_usage).
"""

from dataclasses import dataclass, field

CRT = "CRT (aot_*)"
REST = "startup, libc, application"


@dataclass
class Owner:
    name: str
    code: int = 0  # .text bytes
    constants: int = 0  # .rodata bytes: weights and parameters for models
    ram: int = 0  # .data + .bss bytes
    workspace: int = None
    weights_planned: int = None
    stack: int = None
    stack_path: list = field(default_factory=list)
    stack_note: str = ""


def attribute(symbols, models: dict, stacks: dict) -> list:
    """[Owner] for each model prefix (in `models`: prefix -> manifest dict), the CRT and the rest."""
    owners = {p: Owner(p) for p in models}
    crt, rest = Owner(CRT), Owner(REST)
    # Longest prefix first, so `kws_b_run` belongs to `kws_b`, not `kws`.
    prefixes = sorted(models, key=len, reverse=True)
    for sym in symbols:
        owner = next((owners[p] for p in prefixes if sym.name.startswith(p + "_")), None)
        if owner is None:
            owner = crt if sym.name.startswith("aot_") else rest
        if sym.kind == "text":
            owner.code += sym.size
        elif sym.kind == "rodata":
            owner.constants += sym.size
        else:
            owner.ram += sym.size
    for prefix, manifest in models.items():
        o = owners[prefix]
        o.workspace = manifest.get("workspace", {}).get("size")
        o.weights_planned = manifest.get("weight_bytes")
        est = stacks.get(prefix + "_run")
        if est is not None:
            o.stack, o.stack_note = est.bytes, est.unbounded
            o.stack_path = [f"{fn} ({b} B)" for fn, b in est.path]
    return [owners[p] for p in sorted(owners)] + [crt, rest]


def owner_json(o: Owner) -> dict:
    out = {"name": o.name, "code": o.code, "constants": o.constants, "ram": o.ram}
    if o.workspace is not None:
        out.update(workspace=o.workspace, run_stack=o.stack, run_stack_path=o.stack_path)
        if o.stack_note:
            out["run_stack_note"] = o.stack_note
    return out


def render_owners(owners: list) -> str:
    lines = [f"  {'':<28}{'code':>9}{'constants':>11}{'RAM':>9}{'workspace':>11}{'run stack':>11}"]
    for o in owners:
        ws = f"{o.workspace:>9} B" if o.workspace is not None else f"{'':>11}"
        st = f"{o.stack:>9} B" if o.stack is not None else f"{'':>11}"
        lines.append(f"  {o.name:<28}{o.code:>7} B{o.constants:>9} B{o.ram:>7} B{ws}{st}")
    lines.append(
        "  (constants = weights and parameters in flash; workspace = the model's planned buffer, which the "
        "application or an aot_workspace provides; run stack = deepest call path of <prefix>_run, from "
        "the linked code)"
    )
    return "\n".join(lines) + "\n"
