"""The memory plan as a self-contained SVG: time (operator index) across, workspace offset down.

Each workspace buffer is a box spanning the operators during which it is live and the bytes it occupies, so the
peak (where boxes stack highest) and any waste (empty space under the workspace line) show at a glance. Hovering a
box shows its tensor name, size and lifetime. Everything that comes from the model is XML-escaped.
"""

import re

# html.escape(quote=False) escapes &, < and > as xml.sax.saxutils.escape does, without importing urllib and http.
from html import escape as _html_escape

# Characters XML 1.0 forbids even as character references (C0 controls but tab/newline/CR, surrogates, U+FFFE/F);
# a model name may hold any of them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    return _html_escape(_NOT_XML.sub("?", str(text)), quote=False)


_W, _H = 900, 480  # drawing area in px
_LEFT, _TOP, _BOTTOM = 70, 40, 50
_TENSOR_COLORS = ("#4e79a7", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#9c755f", "#bab0ac")
_SCRATCH_COLOR = "#e15759"


def _label_bytes(n: int) -> str:
    return f"{n / 1024:.1f} KiB" if n >= 1024 else f"{n} B"


def render_plan_svg(
    title: str,
    buffers,
    num_steps: int,
    workspace_size: int,
    lower_bound: int,
    xlabel: str = "",
    sections=(),
    bands=(),
    state_size: int = 0,
) -> str:
    """buffers: objects with name, kind, offset, size, start, end (inclusive operator indices).

    xlabel replaces the time axis' label; sections are (first step, label) pairs drawn as vertical dividers and
    bands (offset, label) pairs as horizontal ones (a shared workspace shows where each model's timeline or region
    starts). lower_bound None: no lower-bound line (a shared workspace has none of its own). state_size: bytes of
    the model's state buffer, named in the title (it is a separate buffer, live across runs, not part of the plan).
    """
    steps = max(num_steps, 1)
    top = max([workspace_size, lower_bound or 0, 1] + [b.offset + b.size for b in buffers])
    sx = _W / steps
    sy = _H / top
    width, height = _LEFT + _W + 20, _TOP + _H + _BOTTOM
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
        f'<text x="{_LEFT}" y="20" font-size="14">{escape(title)}: workspace {_label_bytes(workspace_size)}'
        + (f", lower bound {_label_bytes(lower_bound)}" if lower_bound is not None else "")
        + f", {len(buffers)} buffers"
        + (f"; + state {_label_bytes(state_size)} in its own buffer (kept between runs)" if state_size else "")
        + "</text>",
        f'<rect x="{_LEFT}" y="{_TOP}" width="{_W}" height="{_H}" fill="#f4f4f4" stroke="#999"/>',
    ]
    for i, b in enumerate(sorted(buffers, key=lambda b: (b.start, b.offset, b.name))):
        color = _SCRATCH_COLOR if b.kind == "scratch" else _TENSOR_COLORS[i % len(_TENSOR_COLORS)]
        x = _LEFT + b.start * sx
        y = _TOP + b.offset * sy
        w = max((b.end - b.start + 1) * sx, 1.0)
        h = max(b.size * sy, 1.0)
        tip = f"{b.name}: {b.size} B at offset {b.offset}, live ops {b.start}..{b.end} ({b.kind})"
        out.append(
            f'<rect class="buffer" x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" '
            f'fill="{color}" fill-opacity="0.85" stroke="white" stroke-width="0.5" '
            f'data-offset="{b.offset}" data-size="{b.size}" data-start="{b.start}" data-end="{b.end}">'
            f"<title>{escape(tip)}</title></rect>"
        )
    marks = [(workspace_size, "#c00", "workspace"), (lower_bound, "#080", "lower bound")]
    if lower_bound is None:
        marks = [(workspace_size, "#c00", "workspace")]
    elif workspace_size == lower_bound:
        marks = [(workspace_size, "#c00", "workspace = lower bound")]
    for value, color, label in marks:
        y = _TOP + value * sy
        out.append(
            f'<line x1="{_LEFT}" y1="{y:.2f}" x2="{_LEFT + _W}" y2="{y:.2f}" stroke="{color}" stroke-dasharray="6,3"/>'
        )
        out.append(
            f'<text x="{_LEFT + _W - 4}" y="{y - 4:.2f}" text-anchor="end" fill="{color}">{label} '
            f"{_label_bytes(value)}</text>"
        )
    for step, label in sections:
        x = _LEFT + step * sx
        out.append(f'<line class="section" x1="{x:.2f}" y1="{_TOP}" x2="{x:.2f}" y2="{_TOP + _H}" stroke="#333"/>')
        out.append(f'<text x="{x + 4:.2f}" y="{_TOP + _H + 16}">{escape(label)}</text>')
    for offset, label in bands:
        y = _TOP + offset * sy
        out.append(f'<line class="band" x1="{_LEFT}" y1="{y:.2f}" x2="{_LEFT + _W}" y2="{y:.2f}" stroke="#333"/>')
        out.append(f'<text x="{_LEFT + _W - 4}" y="{y + 14:.2f}" text-anchor="end">{escape(label)}</text>')
    xlabel = xlabel or f"operator (execution order, 0..{steps - 1})"
    out.append(f'<text x="{_LEFT + _W / 2}" y="{height - 12}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(
        f'<text x="14" y="{_TOP + _H / 2}" transform="rotate(-90 14 {_TOP + _H / 2})" '
        'text-anchor="middle">workspace offset (bytes, from 0 at the top)</text>'
    )
    out.append(f'<text x="{_LEFT - 4}" y="{_TOP + 10}" text-anchor="end">0</text>')
    out.append(f'<text x="{_LEFT - 4}" y="{_TOP + _H}" text-anchor="end">{_label_bytes(top)}</text>')
    out.append("</svg>")
    # Model names may be any Unicode; character references keep the file ASCII like every other output.
    return ("\n".join(out) + "\n").encode("ascii", "xmlcharrefreplace").decode("ascii")
