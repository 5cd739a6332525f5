"""The shared-workspace picture (aotc workspace, drawn by aot_workspace) places every model's plan correctly."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from compiler.report.workspace_svg import layout, render_workspace_svg

_SVG = "{http://www.w3.org/2000/svg}"


def _manifest(prefix, size, align, buffers, n_ops):
    return prefix, {
        "prefix": prefix,
        "ops": [{}] * n_ops,
        "workspace": {
            "size": size,
            "alignment": align,
            "buffers": [
                {"name": f"t{i}", "kind": "tensor", "offset": off, "size": sz, "lifetime": [a, b]}
                for i, (off, sz, a, b) in enumerate(buffers)
            ],
        },
    }


_A = _manifest("a", 100, 16, [(0, 60, 0, 1), (60, 40, 1, 2)], 3)
_B = _manifest("b", 30, 8, [(0, 30, 0, 0)], 1)


def test_exclusive_lays_timelines_end_to_end_from_offset_zero():
    boxes, steps, size, separate, sections = layout([_A, _B], "exclusive")
    assert (steps, size, separate) == (4, 112, 112 + 32)
    b_box = [b for b in boxes if b.name.startswith("b: ")]
    assert [(x.offset, x.start, x.end) for x in b_box] == [(0, 3, 3)]
    assert sections == [(0, "a (100 B)"), (3, "b (30 B)")]


def test_concurrent_stacks_aligned_bands():
    boxes, steps, size, separate, sections = layout([_B, _A], "concurrent")
    # b takes 0..30; a starts at the next multiple of its alignment (32) and ends at 132 -> 144 (align 16).
    assert [s[0] for s in sections] == [0, 32]
    assert min(b.offset for b in boxes if b.name.startswith("a: ")) == 32
    assert (steps, size) == (3, 144)
    assert separate == 32 + 112


@pytest.mark.parametrize("mode", ["exclusive", "concurrent"])
def test_svg_has_one_box_per_buffer_and_a_divider_per_model(mode):
    root = ET.fromstring(render_workspace_svg("ws", [_A, _B], mode))
    rects = [r for r in root.iter(_SVG + "rect") if r.get("class") == "buffer"]
    assert len(rects) == 3
    dividers = [line for line in root.iter(_SVG + "line") if line.get("class") in ("section", "band")]
    assert len(dividers) == 2
    assert "separate buffers: 144 B" in root.find(_SVG + "title").text


def test_cli_writes_the_picture_and_rejects_bad_input(tmp_path):
    paths = []
    for prefix, m in (_A, _B):
        p = tmp_path / f"{prefix}.json"
        p.write_text(json.dumps(m))
        paths.append(str(p))
    run = [sys.executable, "-m", "compiler", "workspace", *paths, "--prefix", "ws", "--out_dir", str(tmp_path)]
    subprocess.run(run + ["--mode", "concurrent"], check=True, capture_output=True)
    ET.parse(tmp_path / "ws_plan.svg")
    bad = subprocess.run(run + ["--mode", "sometimes"], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "exclusive, concurrent" in bad.stderr
    (tmp_path / "c.json").write_text("{not json")
    bad = subprocess.run(run[:4] + [str(tmp_path / "c.json")] + run[4:], capture_output=True, text=True)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "c.json" in bad.stderr
