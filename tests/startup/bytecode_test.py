"""Every module of the compiler has valid checked-hash bytecode beside it in the runfiles (//compiler:bytecode).

Actions and tests import the compiler from their runfiles in a fresh sandbox; without this bytecode each of them
compiled every module again (aot_rules/private/py_bytecode.bzl). The test reads each module's pyc where the import
system looks for it and checks its header: the checked-hash flags and the hash of the source beside it.
"""

import importlib.util
import os
import sys
import unittest

import compiler

_MAINS = {"aotc_main.py", "host_crt_main.py"}  # scripts, not imported: py_bytecode leaves them out


class BytecodeTest(unittest.TestCase):
    def test_every_module_has_checked_hash_bytecode(self):
        root = os.path.dirname(compiler.__file__)
        self.assertIn(".runfiles", root, "the compiler must be imported from the runfiles, not " + root)
        modules = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            modules += [os.path.join(dirpath, f) for f in filenames if f.endswith(".py") and f not in _MAINS]
        self.assertGreater(len(modules), 50)
        problems = []
        for source in modules:
            cached = importlib.util.cache_from_source(source)
            if not os.path.exists(cached):
                problems.append("no bytecode for %s" % source)
                continue
            with open(cached, "rb") as f:
                header = f.read(16)
            with open(source, "rb") as f:
                source_hash = importlib.util.source_hash(f.read())
            flags = int.from_bytes(header[4:8], "little")
            if header[:4] != importlib.util.MAGIC_NUMBER:
                problems.append("%s: magic number of another interpreter" % cached)
            elif flags != 0b11:
                problems.append("%s: flags %d, not a checked-hash pyc" % (cached, flags))
            elif header[8:16] != source_hash:
                problems.append("%s: hash differs from its source's" % cached)
        self.assertEqual(problems, [], "\n".join(problems))

    def test_imports_use_it(self):
        import compiler.driver

        self.assertTrue(os.path.exists(compiler.driver.__cached__), compiler.driver.__cached__)


if __name__ == "__main__":
    sys.exit(unittest.main())
