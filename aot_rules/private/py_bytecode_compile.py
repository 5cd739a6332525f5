"""Compiles Python sources to checked-hash bytecode for the py_bytecode rule (py_bytecode.bzl says why).

    py_bytecode_compile.py SRC=PYC ...

Each SRC becomes the file PYC (`__pycache__/<module>.<cache tag>.pyc`, as the import system names it, the rule
declares it).
"""

import os
import py_compile
import sys


def main(argv: list) -> int:
    for arg in argv:
        src, _, out = arg.rpartition("=")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        py_compile.compile(
            src,
            cfile=out,
            dfile=src,
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
