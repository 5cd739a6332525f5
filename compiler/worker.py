"""aotc as a Bazel persistent worker: one process imports the compiler once, and each build action runs in a fork.

A build compiles hundreds of models and generates their reference data, each in a fresh Python process that spent
more than half of a small model's compile importing numpy, absl and the compiler (whose modules it also compiled to
bytecode again, since a sandbox throws `__pycache__` away). With `supports-workers`, Bazel starts
`aotc --persistent_worker` once per tool and sends it one WorkRequest per action on stdin.

Every request runs in a child forked from the warm process, so no state of one action (parsed flags, configured
limits, kernel options) can reach another: the child is what a fresh `aotc` process would be, minus the imports.
Its stdout and stderr become the response's output, its exit code the response's. The parent never runs a
command itself, only imports.

The protocol is Bazel's protobuf one (length-delimited `WorkRequest` / `WorkResponse` of worker_protocol.proto):
the few fields aotc needs are read and written here, so the worker depends on no protobuf runtime and needs no
flag on any Bazel version. Cancellation and multiplexing are not requested, so Bazel sends neither.
"""

import os
import sys
import tempfile
import traceback

# Field numbers and wire types of worker_protocol.proto.
_REQ_ARGUMENTS = 1  # repeated string
_REQ_REQUEST_ID = 3  # int32
_RESP_EXIT_CODE = 1
_RESP_OUTPUT = 2
_RESP_REQUEST_ID = 3
_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5


def _read_varint(read) -> int:
    """A base-128 varint from a byte reader; -1 at a clean end of stream."""
    shift = value = 0
    while True:
        b = read(1)
        if not b:
            if shift:
                raise EOFError("end of stream inside a varint")
            return -1
        value |= (b[0] & 0x7F) << shift
        if not b[0] & 0x80:
            return value
        shift += 7


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int32s are ten-byte varints in protobuf
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def parse_request(data: bytes):
    """(arguments, request_id) of a serialized WorkRequest; unknown fields are skipped."""
    args, request_id, i = [], 0, 0

    def varint():
        nonlocal i
        shift = value = 0
        while True:
            b = data[i]
            i += 1
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7

    while i < len(data):
        key = varint()
        field, wire = key >> 3, key & 7
        if wire == _VARINT:
            value = varint()
            if field == _REQ_REQUEST_ID:
                request_id = value
        elif wire == _LEN:
            n = varint()
            chunk, i = data[i : i + n], i + n
            if field == _REQ_ARGUMENTS:
                args.append(chunk.decode("utf-8"))
        elif wire == _I64:
            i += 8
        elif wire == _I32:
            i += 4
        else:
            raise ValueError(f"WorkRequest: unsupported wire type {wire} of field {field}")
    return args, request_id


def encode_response(exit_code: int, output: str, request_id: int) -> bytes:
    """A serialized WorkResponse, with its varint length prefix."""
    text = output.encode("utf-8")
    body = bytes([_RESP_EXIT_CODE << 3 | _VARINT]) + _varint(exit_code)
    if text:
        body += bytes([_RESP_OUTPUT << 3 | _LEN]) + _varint(len(text)) + text
    if request_id:
        body += bytes([_RESP_REQUEST_ID << 3 | _VARINT]) + _varint(request_id)
    return _varint(len(body)) + body


def expand_params(args: list) -> list:
    """Arguments with each `@file` (Bazel's multiline parameter file: one argument per line) replaced by its lines."""
    out = []
    for a in args:
        if a.startswith("@") and os.path.isfile(a[1:]):
            with open(a[1:], encoding="utf-8") as f:
                out.extend(f.read().splitlines())
        else:
            out.append(a)
    return out


def _warm(command: str) -> None:
    """Imports, in the parent, what `command` will import in every child (idempotent; nothing request-specific)."""
    from . import cli

    cli._commands()
    if command in ("compile", "report", "workspace", "testgen", "refdata"):
        from .ops import lowering_registry

        lowering_registry()
    if command in ("testgen", "refdata"):
        try:
            import tflite_micro  # noqa: F401  (the reference interpreter; absent in a compile-only install)
        except ImportError:
            pass


def _aotc(argv: list) -> int:
    from .cli import main

    return main(["aotc"] + argv)


def _run_in_child(argv: list, run=_aotc) -> tuple:
    """(exit code, combined stdout+stderr) of `run(argv)` (by default `aotc argv`) in a forked child."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as log:
        pid = os.fork()
        if pid == 0:  # the child: a fresh aotc, already imported
            code = 1
            try:
                devnull = os.open(os.devnull, os.O_RDONLY)
                os.dup2(devnull, 0)
                os.dup2(log.fileno(), 1)
                os.dup2(log.fileno(), 2)
                # Python-level streams on those descriptors too, whatever the parent had put in their place.
                sys.stdout = open(1, "w", closefd=False)
                sys.stderr = open(2, "w", closefd=False)
                code = run(argv)
            except SystemExit as e:
                # sys.exit("message"), as a process would: the message on stderr, exit code 1.
                if e.code is not None and not isinstance(e.code, int):
                    print(e.code, file=sys.stderr)
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:  # noqa: BLE001  (reported in the action's output, as a process would)
                traceback.print_exc()
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code & 0xFF)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        log.seek(0)
        return code, log.read().decode("utf-8", errors="replace")


def serve(stdin=None, stdout=None, run=_aotc, warm=_warm) -> int:
    """The worker loop: one response per request until Bazel closes stdin. `run(argv)` is the tool (run in a fork
    per request, returns its exit code), `warm(first argument)` what the parent imports before the first fork of
    each command (by default aotc and its commands' imports)."""
    stdin = stdin or sys.stdin.buffer
    if stdout is None:
        # Only WorkResponses may reach Bazel on stdout: the protocol gets its own descriptor, and anything else
        # the process prints (a library's warning at import) goes to stderr, the worker's log.
        sys.stdout.flush()
        stdout = os.fdopen(os.dup(1), "wb")
        os.dup2(2, 1)
    warmed = set()
    while True:
        n = _read_varint(stdin.read)
        if n < 0:
            return 0
        data = stdin.read(n)
        if len(data) != n:
            raise EOFError("end of stream inside a WorkRequest")
        args, request_id = parse_request(data)
        argv = expand_params(args)
        command = argv[0] if argv else ""
        if command not in warmed:
            warmed.add(command)
            try:
                warm(command)
            except Exception:  # noqa: BLE001  (the child imports again and reports the error as its output)
                traceback.print_exc()
        code, output = _run_in_child(argv, run)
        if code < 0:
            output += f"\naotc worker: the action's process was killed by signal {-code}\n"
            code = 1
        stdout.write(encode_response(code, output, request_id))
        stdout.flush()
