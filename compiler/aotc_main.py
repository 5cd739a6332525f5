"""Entry point of the Bazel `//compiler:aotc` py_binary (the same CLI as `python -m compiler`)."""

import os
import sys

# Inside Bazel runfiles the repository root (main or external/aot_rules) is on sys.path already; when this file
# is run directly, make the package importable from the checkout.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from compiler.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv))
