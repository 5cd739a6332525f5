"""The picture of a shared workspace (aot_workspace): every model's plan placed where it lives in the one buffer.

"exclusive": the models run one after another from offset 0, so their timelines are laid end to end and the buffer
is as tall as the tallest plan. "concurrent": each model has its own band (offsets as the generated header computes
them, aligned), all over the same time axis. Either way the boxes are the models' own planned buffers, from the
compiler's JSON reports, so the picture is the plan, not a sketch of it.
"""

from dataclasses import dataclass

from .plan_svg import render_plan_svg


@dataclass
class _Box:
    name: str
    kind: str
    offset: int
    size: int
    start: int
    end: int


def _align_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def layout(manifests: list, mode: str):
    """manifests: [(prefix, manifest dict)] in the order of aot_workspace's `models`.

    Returns (boxes, steps, size, separate_bytes, sections): sections are (first step or offset, label) per
    model: where its timeline starts (exclusive) or its band starts (concurrent).
    """
    boxes, sections = [], []
    t0 = base = size = separate = steps = 0
    for prefix, m in manifests:
        ws = m["workspace"]
        n_ops = max(len(m["ops"]), 1)
        align = ws["alignment"]
        separate += _align_up(ws["size"], align)
        if mode == "concurrent":
            base = _align_up(base, align)
        for b in ws["buffers"]:
            start, end = b["lifetime"]
            boxes.append(
                _Box(
                    f"{prefix}: {b['name']}",
                    b["kind"],
                    base + b["offset"],
                    b["size"],
                    t0 + max(start, 0),
                    t0 + min(end, n_ops - 1),
                )
            )
        sections.append((t0 if mode == "exclusive" else base, f"{prefix} ({ws['size']} B)"))
        if mode == "exclusive":
            t0 += n_ops
            size = max(size, ws["size"])
            steps = t0
        else:
            base += ws["size"]
            size = base
            steps = max(steps, n_ops)
    align = max([m["workspace"]["alignment"] for _, m in manifests] + [1])
    return boxes, steps, _align_up(size, align), separate, sections


def render_workspace_svg(name: str, manifests: list, mode: str) -> str:
    boxes, steps, size, separate, sections = layout(manifests, mode)
    if mode == "exclusive":
        xlabel = "operators of each model, in the order the models run (they never overlap in time)"
    else:
        xlabel = "operator of each model (the models may run at the same time: one band each)"
    title = f"{name} ({mode}, {len(manifests)} models; separate buffers: {separate} B)"
    exclusive = mode == "exclusive"
    return render_plan_svg(
        title,
        boxes,
        steps,
        size,
        None,
        xlabel=xlabel,
        sections=sections if exclusive else [],
        bands=[] if exclusive else sections,
    )
