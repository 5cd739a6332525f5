"""`python -m compiler ...`: the aot compiler's command line (see compiler/cli.py)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv))
