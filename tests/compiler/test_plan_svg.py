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
    top = max([compiled.manifest["workspace"]["size"], plan.lower_bound, 1] + [b.offset + b.size for b in plan.buffers])
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


def _rects(root):
    return [r for r in root.iter(NS + "rect") if r.get("class") == "buffer"]


def test_control_characters_in_names_still_give_xml():
    # XML 1.0 forbids C0 controls even as character references; a tensor name may contain them.
    class B:
        name, kind, offset, size, start, end = "a\x01b\x00c\x1b[31m", "tensor", 0, 16, 0, 0

    root = ET.fromstring(plan_svg.render_plan_svg("t\x02\x7f", [B()], 1, 16, 16))
    assert "a?b?c?[31m" in _rects(root)[0].find(NS + "title").text


@pytest.mark.parametrize("mode", ["exclusive", "concurrent"])
def test_shared_workspace_picture_places_every_model_plan(mode):
    """aot_workspace's picture (aotc workspace): one box per buffer of every model, where layout() puts it."""
    from compiler.report.workspace_svg import layout, render_workspace_svg

    models = [
        (p, compile_model(shared_model_path(n), p, "host").manifest)
        for p, n in (("hw", "hello_world_int8"), ("ms", "micro_speech_quantized"))
    ]
    boxes, steps, size, separate, sections = layout(models, mode)
    root = ET.fromstring(render_workspace_svg("ws", models, mode))
    rects = _rects(root)
    assert len(rects) == sum(len(m["workspace"]["buffers"]) for _, m in models) == len(boxes)
    top = max([size, 1] + [b.offset + b.size for b in boxes])
    sx, sy = plan_svg._W / max(steps, 1), plan_svg._H / top
    want = sorted((b.offset, b.size, b.start, b.end) for b in boxes)
    got = sorted(tuple(int(r.get(k)) for k in ("data-offset", "data-size", "data-start", "data-end")) for r in rects)
    assert got == want
    for r in rects:
        offset, size_b, start, end = (int(r.get(k)) for k in ("data-offset", "data-size", "data-start", "data-end"))
        assert float(r.get("x")) == pytest.approx(plan_svg._LEFT + start * sx, abs=0.01)
        assert float(r.get("y")) == pytest.approx(plan_svg._TOP + offset * sy, abs=0.01)
        assert float(r.get("width")) == pytest.approx(max((end - start + 1) * sx, 1.0), abs=0.01)
        assert float(r.get("height")) == pytest.approx(max(size_b * sy, 1.0), abs=0.01)
    # Exclusive: the second model's timeline starts after the first's; concurrent: its band starts past the
    # first's workspace. Either way one divider per model, labelled with its prefix and size.
    dividers = [line for line in root.iter(NS + "line") if line.get("class") in ("section", "band")]
    assert len(dividers) == 2
    texts = " ".join(t.text or "" for t in root.iter(NS + "text"))
    for prefix, m in models:
        assert f"{prefix} ({m['workspace']['size']} B)" in texts
    assert f"separate buffers: {separate} B" in root.find(NS + "title").text
    if mode == "exclusive":
        assert size == max(m["workspace"]["size"] for _, m in models)
    else:
        assert size >= sum(m["workspace"]["size"] for _, m in models)
