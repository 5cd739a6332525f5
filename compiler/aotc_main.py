"""Entry point of the Bazel `//compiler:aotc` py_binary (the same CLI as `python -m compiler`)."""

import os
import sys

# Inside Bazel runfiles the repository root (main or external/aot_rules) is on sys.path already; when this file
# is run directly, make the package importable from the checkout.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

if __name__ == "__main__":
    if sys.argv[1:] == ["--persistent_worker"]:  # Bazel's worker mode (compiler/worker.py)
        from compiler.worker import serve

        sys.exit(serve())
    from compiler.cli import main
    from compiler.worker import expand_params

    # Bazel passes an action's arguments in a parameter file (`@file`), which workers require.
    sys.exit(main(sys.argv[:1] + expand_params(sys.argv[1:])))
