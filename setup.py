"""Packaging of the `aot-rules` wheel: what pyproject.toml cannot say statically.

The installed import package is `aot_compiler`, built from the checkout's compiler/ directory (a generic top-level
name such as `compiler` would collide in a user's environment); its subpackages are found at build time, so new
ones need no edit here. The C runtime's headers and sources (crt/include, crt/src) ship inside it as
`aot_compiler/_crt`, which `aotc run` / `aotc testgen` compile and `aotc crt --out DIR` copies out. setuptools'
scratch directories (build/, *.egg-info) go to a temporary directory, so `pip install .` leaves the tree clean.
"""

import atexit
import shutil
import tempfile

from setuptools import find_packages, setup

_scratch = tempfile.mkdtemp(prefix="aot-rules-build-")
atexit.register(shutil.rmtree, _scratch, True)

setup(
    packages=["aot_compiler", "aot_compiler._crt"] + [f"aot_compiler.{p}" for p in find_packages("compiler")],
    package_dir={"aot_compiler": "compiler", "aot_compiler._crt": "crt"},
    package_data={"aot_compiler._crt": ["include/**/*.h", "src/**/*.c", "src/**/*.h"]},
    exclude_package_data={"aot_compiler": ["BUILD.bazel"]},
    options={"build": {"build_base": _scratch}, "egg_info": {"egg_base": _scratch}},
)
