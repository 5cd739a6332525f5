"""Worst-case stack depth of functions in a linked Thumb ELF, from its disassembly and call graph.

GCC's `-fstack-usage` writes the frame of each function into `.su` files beside the objects, which Bazel's compile
actions discard and which know nothing of calls. The same frame sizes can be read back from the linked code: the
prologue of every function is a `push`/`stmdb sp!`/`vpush`/`sub sp` sequence (a frame too large for an immediate,
on Thumb-1, is `ldr rN, [pc, #..]` of a literal word and `add sp, rN`). This module replays the stack-pointer
adjustments of each function (tracking the deepest point), follows direct calls (`bl`, and `b.w` tail calls to
another function), and returns the deepest path below a root such as `kws_run`. Indirect calls (`blx rN`) and
recursion make the figure unknowable statically; they are reported as such instead of guessed.
tests/image_report checks the frames against `-fstack-usage` for the same code.
"""

import re
import subprocess
from dataclasses import dataclass, field

_FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")
_INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
_TARGET = re.compile(r"^([0-9a-f]+) <([^>+]+)>")
_REGLIST = re.compile(r"\{([^}]*)\}")
_IMM = re.compile(r"#(\d+)")
_WORD = re.compile(r"^\s*([0-9a-f]+):\s+\.word\s+0x([0-9a-f]+)")
_LITERAL_LOAD = re.compile(r"^(r\d+|ip|lr),\s*\[pc,\s*#\d+\]\s*@\s*\(([0-9a-f]+)")
_SP_BY_REG = re.compile(r"^sp,\s*(?:sp,\s*)?(r\d+|ip|lr)$")


@dataclass
class Frame:
    """What one function does to the stack: its deepest own depth and the calls it makes at which depth."""

    name: str
    depth: int = 0
    calls: list = field(default_factory=list)  # (callee, own depth at the call)
    indirect: bool = False


def _reglist_bytes(operands: str, unit: int) -> int:
    m = _REGLIST.search(operands)
    if not m:
        return 0
    count = 0
    for part in m.group(1).split(","):
        part = part.strip()
        if "-" in part:  # a register range such as d8-d15
            lo, hi = (int(re.sub(r"\D", "", r)) for r in part.split("-"))
            count += hi - lo + 1
        elif part:
            count += 1
    size = unit
    if m.group(1).strip().startswith("d"):
        size = 8
    return count * size


def _sp_delta(mnemonic: str, operands: str) -> int:
    """Bytes this instruction pushes (positive) or pops (negative)."""
    mnem = mnemonic.split(".")[0]
    if mnem == "push" or (mnem == "stmdb" and operands.startswith("sp!")):
        return _reglist_bytes(operands, 4)
    if mnem == "vpush":
        return _reglist_bytes(operands, 4)
    if mnem == "pop" or (mnem in ("ldmia", "ldm") and operands.startswith("sp!")):
        return -_reglist_bytes(operands, 4)
    if mnem == "vpop":
        return -_reglist_bytes(operands, 4)
    if mnem in ("sub", "subw", "add", "addw") and re.match(r"sp,\s*(sp,\s*)?#", operands):
        imm = int(_IMM.search(operands).group(1))
        return imm if mnem.startswith("sub") else -imm
    if mnem == "str" and re.match(r"\w+,\s*\[sp,\s*#-(\d+)\]!", operands):
        return int(re.search(r"#-(\d+)", operands).group(1))
    if mnem == "ldr" and re.match(r"\w+,\s*\[sp\],\s*#(\d+)", operands):
        return -int(re.search(r"#(\d+)", operands).group(1))
    return 0


def _leaves(base: str, operands: str) -> bool:
    """True for an unconditional exit: return through pc or lr, or a branch (tail call) out of the function."""
    if base in ("pop", "ldmia", "ldm") and "pc" in operands:
        return True
    if base == "ldr" and operands.startswith("pc,"):
        return True
    if base == "bx" and operands == "lr":
        return True
    return base == "b" and _TARGET.match(operands) is not None


def _literal_words(text: str) -> dict:
    """{address: signed 32-bit value} of the literal pool words in the disassembly."""
    words = {}
    for line in text.splitlines():
        m = _WORD.match(line)
        if m:
            v = int(m.group(2), 16)
            words[int(m.group(1), 16)] = v - (1 << 32) if v >= 1 << 31 else v
    return words


def _sp_delta_by_register(base: str, operands: str, registers: dict) -> int:
    """`add sp, rN` / `sub sp, rN` with rN holding a known literal (large Thumb-1 frames)."""
    m = _SP_BY_REG.match(operands)
    if base not in ("add", "sub") or not m or m.group(1) not in registers:
        return 0
    value = registers[m.group(1)]
    return -value if base == "add" else value


def parse_disassembly(text: str) -> dict:
    """{function name: Frame} from `objdump -d` output."""
    words = _literal_words(text)
    # A branch target is named by the function that starts at its address: objdump's annotation may name an
    # absolute symbol of the same value instead (the linker script's __aot_stack_size = 0x8000 where the code
    # crosses 32 KiB), which has no code; a target that starts no function is a branch inside one.
    starts = {int(m.group(1), 16): m.group(2) for m in map(_FUNC.match, text.splitlines()) if m}

    def target(t):
        return starts.get(int(t.group(1), 16), "")

    frames = {}
    current = None
    offset = 0
    registers = {}  # register -> the literal word last loaded into it (only until it is written otherwise)
    for line in text.splitlines():
        m = _FUNC.match(line)
        if m:
            current = frames.setdefault(m.group(2), Frame(m.group(2)))
            offset = 0
            registers = {}
            continue
        m = _INSN.match(line)
        if not m or current is None:
            continue
        mnemonic, operands = m.group(2), m.group(3).split(";")[0].split("@")[0].strip()
        base = mnemonic.split(".")[0]
        offset = max(0, offset + _sp_delta(mnemonic, operands) + _sp_delta_by_register(base, operands, registers))
        literal = _LITERAL_LOAD.match(m.group(3).strip()) if base == "ldr" else None
        if literal and int(literal.group(2), 16) in words:
            registers[literal.group(1)] = words[int(literal.group(2), 16)]
        elif operands.split(",")[0].strip() in registers:
            del registers[operands.split(",")[0].strip()]
        current.depth = max(current.depth, offset)
        if _leaves(base, operands):
            # Code after a return is reached by a branch from inside the body, where the frame is still set up:
            # resume from the deepest offset seen (conservative if the function adjusts sp more than once).
            resume = current.depth
        else:
            resume = None
        t = _TARGET.match(operands) if base in ("bl", "blx", "b") else None
        if base == "blx" and not t:
            current.indirect = True
        elif base in ("bl", "blx"):
            t = target(t) if t else ""
            if t:
                current.calls.append((t, offset))
        elif base == "b":
            t = target(t) if t else ""
            if t and t != current.name:
                current.calls.append((t, offset))  # a tail call: the callee reuses our caller's frame
        if resume is not None:
            offset = resume
    return frames


@dataclass
class StackEstimate:
    root: str
    bytes: int
    path: list  # [(function, its own frame bytes)] along the deepest path
    unbounded: str = ""  # why the figure is a lower bound only ("" when exact)


def deepest_path(frames: dict, root: str) -> StackEstimate:
    """The deepest stack below `root`: max over call paths of the sum of frames at each call."""
    memo = {}

    def visit(name, stack):
        if name in memo:
            return memo[name]
        frame = frames.get(name)
        if frame is None:
            return 0, [(name, 0)], f"no code for {name}"
        if name in stack:
            return 0, [], f"recursion through {name}"
        best, best_path, note = frame.depth, [(name, frame.depth)], ""
        if frame.indirect:
            note = f"indirect call in {name}"
        for callee, at in frame.calls:
            depth, path, sub_note = visit(callee, stack | {name})
            note = note or sub_note
            if at + depth > best:
                best, best_path = at + depth, [(name, at)] + path
        memo[name] = (best, best_path, note)
        return memo[name]

    total, path, note = visit(root, frozenset())
    return StackEstimate(root, total, path, note)


def disassemble(objdump: str, elf: str) -> str:
    return subprocess.run([objdump, "-d", "--no-show-raw-insn", elf], check=True, capture_output=True, text=True).stdout


def estimate(objdump: str, elf: str, roots: list) -> dict:
    """{root: StackEstimate} for every root function present in the ELF."""
    frames = parse_disassembly(disassemble(objdump, elf))
    return {r: deepest_path(frames, r) for r in roots if r in frames}
