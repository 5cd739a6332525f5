"""Shared fixtures of the compiler tests: where the shared real-world models are.

The models live outside the repository ($AOT_MODELS_DIR, or ../shared/models beside the checkout; under Bazel the
@shared_models repository, see pytest_main.py). Tests that need one skip with a message saying where it was looked
for, so a checkout without them still runs every other test.
"""

import os

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The six models every compiler guarantee is checked on (the stateful LSTM/SVDF models have their own tests:
# test_lstm.py, test_stateful.py).
SHARED_MODELS = ("hello_world_int8", "hello_world_float", "micro_speech_quantized", "kws_ref_model", "ad01_int8",
                 "pretrainedResnet_quant")


def models_dir() -> str:
    return os.environ.get("AOT_MODELS_DIR") or os.path.join(REPO, "..", "shared", "models")


def shared_model_path(name: str) -> str:
    path = os.path.join(models_dir(), name + ".tflite")
    if not os.path.isfile(path):
        pytest.skip(f"shared model {name}.tflite not found in {models_dir()} (set AOT_MODELS_DIR)")
    return path


@pytest.fixture(params=SHARED_MODELS)
def shared_model(request) -> str:
    """Path of each shared model in turn."""
    return shared_model_path(request.param)
