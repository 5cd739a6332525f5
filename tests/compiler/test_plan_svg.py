"""The memory-plan picture is well-formed SVG whose boxes are exactly the planned buffers, drawn to scale."""

import xml.etree.ElementTree as ET

import pytest

from compiler.driver import compile_model
from compiler.report import plan_svg
from conftest import SHARED_MODELS, shared_model_path

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("name", SHARED_MODELS)
def test_boxes_are_the_plan_to_scale(name):
    compiled = compile_model(shared_model_path(name), "m", "host")
    plan, steps = compiled.plan, max(len(compiled.graph.ops), 1)
    root = ET.fromstring(compiled.files["m_plan.svg"])
    assert root.tag == NS + "svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    rects = [r for r in root.iter(NS + "rect") if r.get("class") == "buffer"]
    assert len(rects) == len(plan.buffers)
    top = max([compiled.manifest["workspace"]["size"], plan.lower_bound, 1] +
              [b.offset + b.size for b in plan.buffers])
    sx, sy = plan_svg._W / steps, plan_svg._H / top
    by_key = {(b.offset, b.size, b.start, b.end) for b in plan.buffers}
    for r in rects:
        key = tuple(int(r.get(k)) for k in ("data-offset", "data-size", "data-start", "data-end"))
        assert key in by_key
        offset, size, start, end = key
        assert float(r.get("x")) == pytest.approx(plan_svg._LEFT + start * sx, abs=0.01)
        assert float(r.get("y")) == pytest.approx(plan_svg._TOP + offset * sy, abs=0.01)
        assert float(r.get("height")) == pytest.approx(max(size * sy, 1.0), abs=0.01)
        assert float(r.get("width")) == pytest.approx(max((end - start + 1) * sx, 1.0), abs=0.01)
        assert 0 <= float(r.get("x")) and float(r.get("x")) + float(r.get("width")) <= width + 0.01
        assert float(r.get("y")) + float(r.get("height")) <= height + 0.01
        assert r.find(NS + "title").text  # hover text names the tensor
    lines = list(root.iter(NS + "line"))
    texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
    assert lines and "workspace" in texts
    if plan.workspace_size != plan.lower_bound:
        assert "lower bound" in texts and len(lines) >= 2


def test_hostile_title_is_escaped():
    class B:
        name, kind, offset, size, start, end = "<script>&", "tensor", 0, 16, 0, 0
    svg = plan_svg.render_plan_svg("</svg><script>x</script> ☃", [B()], 1, 16, 16)
    root = ET.fromstring(svg)
    assert not list(root.iter(NS + "script")) and svg.isascii()
    assert "☃" in root.find(NS + "title").text
