"""tools/setup.sh installs only what a command needs: `setup.sh build` (what ./bazelw runs before the demo) asks
for no lint, MISRA, CMake or remote-cache tool and never calls npm; `setup.sh` (tools/test_all.sh) asks for them.

The script runs on a copy of the checkout's layout in a temporary directory, with a PATH on which only its
coreutils, stubs of the build tools and recording stubs of apt-get/sudo/npm exist, and a venv whose stamp is
current, so nothing is installed and nothing is downloaded.
"""

import hashlib
import os
import pathlib
import shutil
import subprocess
import tempfile
import unittest

SETUP = pathlib.Path(__file__).resolve().parent / "setup.sh"
COREUTILS = ["bash", "cat", "cut", "dirname", "id", "sha256sum", "grep"]
BUILD_TOOLS = ["bazel", "arm-none-eabi-gcc", "qemu-system-arm"]
SUITE_PACKAGES = {"clang-format", "cppcheck", "cmake"}


class SetupScopeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = pathlib.Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp)
        (self.tmp / "tools").mkdir()
        shutil.copy(SETUP, self.tmp / "tools" / "setup.sh")
        requirements = b"numpy==1\n"
        (self.tmp / "requirements.txt").write_bytes(requirements)
        venv_bin = self.tmp / ".venv" / "bin"
        venv_bin.mkdir(parents=True)
        self._stub(venv_bin / "python3", "exit 0")
        (self.tmp / ".venv" / ".aot-setup-stamp").write_text(hashlib.sha256(requirements).hexdigest() + "\n")
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        for tool in COREUTILS:
            os.symlink(shutil.which(tool), self.bin / tool)
        for tool in BUILD_TOOLS:
            self._stub(self.bin / tool, "exit 0")
        self.log = self.tmp / "calls.log"
        for tool in ("apt-get", "sudo", "npm"):
            # sudo runs its command; the others record their arguments (npm as if it installed buildifier).
            body = 'exec "$@"' if tool == "sudo" else f'echo "{tool} $*" >> "{self.log}"'
            self._stub(self.bin / tool, body)

    def _stub(self, path, body):
        path.write_text(f"#!/bin/bash\n{body}\n")
        path.chmod(0o755)

    def run_setup(self, *args):
        r = subprocess.run(
            ["bash", str(self.tmp / "tools" / "setup.sh"), *args],
            env={"PATH": str(self.bin), "HOME": str(self.tmp)},
            capture_output=True,
            text=True,
        )
        calls = self.log.read_text() if self.log.exists() else ""
        return r, calls

    def installed(self, calls):
        words = set()
        for line in calls.splitlines():
            if line.startswith("apt-get") and " install " in line:
                words |= set(line.split())
        return words

    def test_build_scope_installs_no_suite_tool(self):
        r, calls = self.run_setup("build")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertFalse(SUITE_PACKAGES & self.installed(calls), calls)
        self.assertNotIn("nginx-light", self.installed(calls))
        self.assertNotIn("npm", calls)

    def test_default_scope_installs_the_suites_tools(self):
        r, calls = self.run_setup()
        # npm "installed" nothing, so the stub's buildifier is missing afterwards: only the calls matter here.
        self.assertTrue(SUITE_PACKAGES <= self.installed(calls), calls)
        self.assertIn("npm install", calls)
        self.assertIn("@bazel/buildifier", calls)

    def test_unknown_scope_is_refused(self):
        r, calls = self.run_setup("demo")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage: tools/setup.sh [build|all]", r.stderr)
        self.assertEqual(calls, "")


if __name__ == "__main__":
    unittest.main()
