"""aotc's Bazel worker mode (compiler/worker.py): the protocol, and outputs identical to a one-shot process."""

import filecmp
import io
import os
import subprocess
import sys

from compiler import worker

_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
_MAIN = os.path.join(_ROOT, "compiler", "aotc_main.py")
_MODEL = os.path.join(_ROOT, "tests", "models", "decoder_int8.tflite")


def _request(args, request_id=0) -> bytes:
    body = b""
    for a in args:
        raw = a.encode()
        body += bytes([worker._REQ_ARGUMENTS << 3 | worker._LEN]) + worker._varint(len(raw)) + raw
    if request_id:
        body += bytes([worker._REQ_REQUEST_ID << 3 | worker._VARINT]) + worker._varint(request_id)
    return worker._varint(len(body)) + body


def _responses(data: bytes) -> list:
    """Decodes length-delimited WorkResponses into {field number: value} dicts (varint and string fields)."""
    out, stream = [], io.BytesIO(data)
    while (n := worker._read_varint(stream.read)) >= 0:
        body, fields = io.BytesIO(stream.read(n)), {}
        while (key := worker._read_varint(body.read)) >= 0:
            value = worker._read_varint(body.read)
            fields[key >> 3] = body.read(value).decode() if key & 7 == worker._LEN else value
        out.append(fields)
    return out


def test_codec_round_trip():
    args, rid = worker.parse_request(_request(["compile", "m.tflite", "--prefix", "é"], 7)[1:])
    assert args == ["compile", "m.tflite", "--prefix", "é"] and rid == 7
    assert worker._varint(300) == b"\xac\x02"
    assert worker._read_varint(io.BytesIO(b"\xac\x02").read) == 300
    (resp,) = _responses(worker.encode_response(2, "x" * 200, 5))
    assert resp == {1: 2, 2: "x" * 200, 3: 5}


def test_params_file(tmp_path):
    p = tmp_path / "a.params"
    p.write_text("compile\nm.tflite\n--prefix\nm\n")
    assert worker.expand_params(["@" + str(p)]) == ["compile", "m.tflite", "--prefix", "m"]
    assert worker.expand_params(["@not-a-file"]) == ["@not-a-file"]


def test_worker_matches_one_shot_process(tmp_path):
    one, two, three = (tmp_path / d for d in ("one", "two", "three"))
    params = tmp_path / "compile.params"
    params.write_text("\n".join(["compile", _MODEL, "--quiet", "--prefix", "dec", "--out_dir", str(two)]) + "\n")
    requests = (
        _request(["@" + str(params)], 1)
        # A second action in the same worker: no state of the first (its flags) may leak into it.
        + _request(["compile", _MODEL, "--quiet", "--prefix", "dec", "--out_dir", str(three), "--target", "host"], 2)
        + _request(["compile", str(tmp_path / "missing.tflite"), "--prefix", "x", "--out_dir", str(tmp_path)], 3)
    )
    proc = subprocess.run(
        [sys.executable, _MAIN, "--persistent_worker"], input=requests, capture_output=True, check=True
    )
    got = _responses(proc.stdout)
    assert [r.get(3) for r in got] == [1, 2, 3]
    assert got[0].get(1, 0) == 0 and got[1].get(1, 0) == 0, got
    assert got[2][1] == 2 and "missing.tflite" in got[2][2] and "Traceback" not in got[2][2]
    subprocess.run(
        [sys.executable, _MAIN, "compile", _MODEL, "--quiet", "--prefix", "dec", "--out_dir", str(one)], check=True
    )
    names = sorted(os.listdir(one))
    assert names == sorted(os.listdir(two)) == sorted(os.listdir(three))
    for d in (two, three):
        match, mismatch, errors = filecmp.cmpfiles(one, d, names, shallow=False)
        assert not mismatch and not errors, (d, mismatch, errors)


def test_another_tool_in_the_worker_loop():
    """serve(run=...) hosts another tool (the firmware size report): each request runs in its own fork, a
    sys.exit("message") becomes exit code 1 with the message as the output, a state change in one request is not
    seen by the next."""
    seen = []

    def tool(argv):
        seen.append(argv[0])  # in the child only: the parent's list stays empty
        if argv[0] == "over":
            sys.exit("aot_firmware: flash budget exceeded")
        print("report of", argv[0], "after", len(seen) - 1, "earlier requests")
        return 0

    stdin = io.BytesIO(_request(["ok"], 1) + _request(["over"], 2) + _request(["again"], 3))
    stdout = io.BytesIO()
    assert worker.serve(stdin, stdout, run=tool, warm=lambda _command: None) == 0
    r = _responses(stdout.getvalue())
    assert [x.get(worker._RESP_EXIT_CODE, 0) for x in r] == [0, 1, 0]
    assert [x.get(worker._RESP_REQUEST_ID) for x in r] == [1, 2, 3]
    assert "flash budget exceeded" in r[1][worker._RESP_OUTPUT]
    assert r[2][worker._RESP_OUTPUT].strip() == "report of again after 0 earlier requests"
    assert seen == []
