"""The networks the multi-model demo falls back to (tests/models/make_demo_models.py) are the script's output and
behave like converted trained models: outputs vary with the input and do not pile up at the end of the int8 range.
(Their bit-exactness is checked by //tests/models:*_exact_test and the demo itself.)"""

import os
import sys

import pytest

from conftest import REPO

sys.path.insert(0, os.path.join(REPO, "tests", "models"))
import make_demo_models  # noqa: E402

NAMES = sorted(make_demo_models.MODELS)


@pytest.mark.parametrize("name", NAMES)
def test_outputs_vary_and_do_not_saturate(name):
    tops, distinct, saturated = make_demo_models.check_outputs(os.path.join(REPO, "tests", "models", name))
    assert distinct >= 16, f"{name}: only {distinct} distinct outputs over 32 random inputs"
    assert tops >= 2, f"{name}: the top index never changes"
    assert saturated <= 0.05, f"{name}: {saturated:.1%} of outputs at 127"


def test_committed_files_are_the_script_output(tmp_path):
    make_demo_models.main(str(tmp_path))
    for name in NAMES:
        with open(os.path.join(REPO, "tests", "models", name), "rb") as f:
            committed = f.read()
        assert (tmp_path / name).read_bytes() == committed, (
            f"{name} differs from make_demo_models.py's output: rerun .venv/bin/python tests/models/make_demo_models.py"
        )
