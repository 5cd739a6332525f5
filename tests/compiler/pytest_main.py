"""Runs pytest files of the compiler's tests under `bazel test` (a py_test per file or suite, see BUILD.bazel).

Inside Bazel the shared models are the `@shared_models` repository in the runfiles; outside, conftest.py finds
them through $AOT_MODELS_DIR or ../shared/models beside the checkout.
"""

import os
import sys

import pytest


def main(argv) -> int:
    runfiles = os.environ.get("TEST_SRCDIR")
    if runfiles and "AOT_MODELS_DIR" not in os.environ:
        models = os.path.join(runfiles, "shared_models")
        if os.path.isdir(models):
            os.environ["AOT_MODELS_DIR"] = models
    here = os.path.dirname(os.path.abspath(__file__))
    # The tests' `python -m compiler run ...` subprocesses import the compiler of the venv's editable install (the
    # source tree, whose crt/ has no prebuilt archive), so each compiled the whole host CRT again (about 10 s of
    # CPU per run). Point them at the runfiles' CRT, where //crt:host_archive sits; its key still decides.
    crt = os.path.join(here, "..", "..", "crt")
    if "AOT_CRT_DIR" not in os.environ and os.path.isfile(os.path.join(crt, "libaot_crt_host.a")):
        os.environ["AOT_CRT_DIR"] = os.path.abspath(crt)
    args = [os.path.join(here, f) for f in argv[1:]]
    # No cache directory in the read-only runfiles tree; -p no:cacheprovider keeps pytest from writing one.
    # -rfEs: the summary's last lines name every failed or erroring test by file and name (a suite runs several
    # files) and every skip with its reason.
    return pytest.main(["-q", "-p", "no:cacheprovider", "-rfEs"] + args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
