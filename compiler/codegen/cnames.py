"""Turning arbitrary model strings into safe C identifiers and comments.

Tensor names come from the model file and may contain anything ("*/",
newlines, non-ASCII, C keywords); nothing from the model reaches generated
code without passing through these functions.
"""

import re

from ..errors import CompileError

C_KEYWORDS = frozenset(
    """
auto break case char const continue default do double else enum extern float for goto
if inline int long register restrict return short signed sizeof static struct switch
typedef union unsigned void volatile while _Bool _Complex _Imaginary bool true false
""".split()
)

# The header is also included from C++ (it has extern "C"), so a field must not be a C++ keyword either.
CXX_KEYWORDS = frozenset(
    """
alignas alignof and and_eq asm bitand bitor catch char16_t char32_t char8_t class compl concept consteval
constexpr constinit const_cast co_await co_return co_yield decltype delete dynamic_cast explicit export friend
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public reinterpret_cast
requires static_assert static_cast template this thread_local throw try typeid typename using virtual wchar_t
xor xor_eq
""".split()
)

# Lower-case macros a C compiler may predefine (GCC in its default GNU modes: `linux`, `unix`; other hosts and
# older ABIs the rest) or the standard headers the generated code includes define: as a field name they would be
# replaced by the preprocessor in the user's translation unit.
PREDEFINED_MACROS = frozenset("linux unix i386 sun sparc mips vax offsetof".split())

# Field names that would produce macros colliding with fixed API macros (`state`: <PREFIX>_STATE_SIZE is what
# marks a stateful model; Silero VAD's recurrent state input is named so).
RESERVED_FIELDS = frozenset({"workspace", "state"}) | CXX_KEYWORDS | PREDEFINED_MACROS

_PREFIX_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
MAX_IDENT_LEN = 40


def validate_prefix(prefix: str) -> str:
    if not _PREFIX_RE.match(prefix or "") or prefix.lower().startswith("aot_"):
        raise CompileError(
            f"Invalid --prefix '{prefix}': it must start with a letter, contain only letters, "
            "digits and underscores, be at most 64 characters, and must not start with 'aot_' "
            "(reserved for the runtime library)."
        )
    return prefix


def sanitize_identifier(name: str, fallback: str) -> str:
    s = re.sub(r"[^a-z0-9_]", "_", (name or "").lower())
    s = re.sub(r"_+", "_", s).strip("_")[:MAX_IDENT_LEN].strip("_")
    if not s:
        s = fallback
    if s[0].isdigit():
        s = "t_" + s
    if s in C_KEYWORDS or s in RESERVED_FIELDS:
        s += "_t"
    return s


def unique_identifiers(names, fallbacks) -> list:
    """Sanitize a list of names and de-duplicate deterministically (_2, _3, ...)."""
    out, seen = [], set()
    for name, fb in zip(names, fallbacks):
        base = sanitize_identifier(name, fb)
        cand, n = base, 2
        while cand in seen:
            cand = f"{base}_{n}"
            n += 1
        seen.add(cand)
        out.append(cand)
    return out


def sanitize_comment(text: str, max_len: int = 80) -> str:
    """Printable ASCII only, no comment delimiters or trigraphs, single line."""
    s = "".join(c if 32 <= ord(c) < 127 else "?" for c in str(text))
    s = s.replace("*/", "*_/").replace("/*", "/_*").replace("??", "?_?").replace("\\", "/")
    if len(s) > max_len:
        s = s[: max_len - 3] + "..."
    return s
