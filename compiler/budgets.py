"""RAM and flash budgets of one model, checked at compile time from the memory plan and the constant arrays.

A budget is a byte count written like `24K`, `1.5M` or `4096` (K = 1024). The model's RAM is its workspace (every
intermediate tensor and kernel scratch, as planned) plus its state buffer (variable tensors kept between runs); its
flash is the data it adds to the image (weights and
per-layer parameters; code is shared by all models and is checked after linking, on the firmware). Over budget, the
error names the budget, the actual figure and the three largest contributors, so the user knows what to shrink.
"""

import re

from .errors import CompileError

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmM]i?[bB]?|[bB])?\s*$")


def parse_bytes(text: str, what: str) -> int:
    m = _SIZE.match(text or "")
    if not m:
        raise CompileError(f"{what} '{text}' is not a size: write bytes like 4096, 24K or 1.5M (K = 1024 bytes).")
    unit = (m.group(2) or "b")[0].lower()
    return int(float(m.group(1)) * {"b": 1, "k": 1024, "m": 1024 * 1024}[unit])


def _top3(items) -> str:
    """items: (bytes, description); the three largest as one readable clause."""
    top = sorted(items, key=lambda x: (-x[0], x[1]))[:3]
    return "; ".join(f"{desc} ({size} B)" for size, desc in top)


def check_budgets(prefix: str, plan, consts, workspace_size: int, ram_budget: str, flash_budget: str) -> None:
    if ram_budget:
        budget = parse_bytes(ram_budget, "ram_budget")
        if workspace_size + plan.state_size > budget:
            state = (
                f" plus {plan.state_size} B of state (variable tensors: "
                f"{_top3([(s.size, repr(s.name[:60])) for s in plan.state])})"
                if plan.stateful
                else ""
            )
            raise CompileError(
                f"Model '{prefix}' is over its ram_budget of {budget} B ({ram_budget}): its workspace needs "
                f"{workspace_size} B (lower bound {plan.lower_bound} B){state}. Largest contributors, live "
                f"together at the peak: {_top3(_peak_buffers(plan))}."
            )
    if flash_budget:
        budget = parse_bytes(flash_budget, "flash_budget")
        total = sum(c.nbytes for c in consts)
        if total > budget:
            raise CompileError(
                f"Model '{prefix}' is over its flash_budget of {budget} B ({flash_budget}): its weights and "
                f"parameters take {total} B. Largest contributors: "
                f"{_top3([(c.nbytes, c.symbol) for c in consts])}."
            )


def _peak_buffers(plan):
    """The buffers live at the op where the most bytes are live (they are what the workspace must hold)."""
    if not plan.buffers:
        return []
    steps = range(min(b.start for b in plan.buffers), max(b.end for b in plan.buffers) + 1)
    peak = max(steps, key=lambda t: sum(b.size for b in plan.buffers if b.start <= t <= b.end))
    return [(b.size, f"'{b.name[:60]}'") for b in plan.buffers if b.start <= peak <= b.end]
