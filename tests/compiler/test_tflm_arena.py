"""Our planned workspace against TFLite Micro's arena for the same model (measured with the tflite-micro package).

For every shared model: the workspace is at least the lower bound of the plan and equals it or the report says
why; it is no larger than TFLite Micro's own plan of the tensors (the arena's head) and smaller than its arena.
"""

import pytest

from compiler.driver import compile_model
from compiler.oracle import tflm_available
from compiler.report.tflm_arena import measure


@pytest.mark.skipif(not tflm_available(), reason="tflite-micro is not installed (tools/setup.sh installs it)")
def test_workspace_vs_lower_bound_vs_tflm_arena(shared_model, capsys):
    ws = compile_model(shared_model, "m", "host").manifest["workspace"]
    arena = measure(shared_model)
    assert arena is not None, "the tflite-micro interpreter could not measure the model"
    assert ws["size"] >= ws["lower_bound"]
    if ws["size"] != ws["lower_bound"]:
        assert ws["gap"] and not ws["gap"].startswith("equal"), ws["gap"]
    assert ws["size"] <= arena.head, (ws["size"], arena)
    assert ws["size"] < arena.total, (ws["size"], arena)
    with capsys.disabled():
        print(
            f"\n  {shared_model.rsplit('/', 1)[-1]:<32} workspace {ws['size']:>7} B  lower bound "
            f"{ws['lower_bound']:>7} B  TFLM arena {arena.total:>7} B (tensors {arena.head} B)"
        )


def test_measure_refuses_garbage(tmp_path):
    bad = tmp_path / "bad.tflite"
    bad.write_bytes(b"not a flatbuffer")
    assert measure(str(bad)) is None
