"""Compiles Python sources to checked-hash bytecode for the py_bytecode rule (py_bytecode.bzl says why).

    py_bytecode_compile.py SRC=PYCACHE_DIR ...

Each SRC becomes PYCACHE_DIR/<module>.<interpreter cache tag>.pyc, as the import system names it. The tag is this
interpreter's: the rule runs it with the Python toolchain that runs the modules.
"""

import os
import py_compile
import sys


def main(argv: list) -> int:
    for arg in argv:
        src, _, out_dir = arg.rpartition("=")
        os.makedirs(out_dir, exist_ok=True)
        module = os.path.splitext(os.path.basename(src))[0]
        py_compile.compile(
            src,
            cfile=os.path.join(out_dir, "%s.%s.pyc" % (module, sys.implementation.cache_tag)),
            dfile=src,
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
