"""TFLite Micro's arena for a model, measured with the `tflite-micro` interpreter, to compare our plan against.

The interpreter's recording allocator reports the arena it used: the "head" (TFLM's own memory plan of the
intermediate tensors, the counterpart of our workspace) and the "tail" (persistent interpreter structures, which
our generated code does not need). It prints them from C++ to the process' stdout, so the measurement runs in a
child process whose output is parsed. Figures are for the host build of TFLM (64-bit pointers make the tail larger
than on a Cortex-M).
"""

import re
import subprocess
import sys
from dataclasses import dataclass

_SCRIPT = """
import sys
from tflite_micro.python.tflite_micro import runtime
interp = runtime.Interpreter.from_file(sys.argv[1], arena_size=int(sys.argv[2]))
interp.print_allocations()
"""
_LINE = re.compile(r"Arena allocation (total|head|tail) (\d+) bytes")


@dataclass
class TflmArena:
    total: int  # everything TFLM allocated in its arena
    head: int  # its plan of the intermediate tensors
    tail: int  # persistent interpreter data


def measure(model_path: str, arena_size: int = 8 << 20, timeout: float = 120.0):
    """TflmArena for the model, or None when the interpreter is unavailable or refuses the model."""
    try:
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT, model_path, str(arena_size)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    figures = dict((k, int(v)) for k, v in _LINE.findall(out.stdout + out.stderr))
    if out.returncode != 0 or len(figures) != 3:
        return None
    return TflmArena(figures["total"], figures["head"], figures["tail"])
