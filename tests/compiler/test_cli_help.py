"""`aotc <command> --help` lists every flag of that command (each flag the command's module reads, found in its
source), the global usage names ONNX and the ONNX / I/O flags, and `bench` exists only in a checkout."""

import os
import re

import pytest

from compiler import cli

COMMANDS_DIR = os.path.join(os.path.dirname(cli.__file__), "commands")
# Modules whose flags a command reads besides its own (compile, report and run go through the driver).
SHARED = {"compile": ["driver.py"], "report": ["driver.py"], "run": ["driver.py"]}


def _help(capsys, *args):
    assert cli.main(["aotc", *args]) == 0
    return capsys.readouterr().out


def _flags_read(command):
    module = {"compile": "compile_cmd.py"}.get(command, f"{command}_cmd.py")
    paths = [os.path.join(COMMANDS_DIR, module)] + [
        os.path.join(os.path.dirname(cli.__file__), p) for p in SHARED.get(command, [])
    ]
    names = set()
    for path in paths:
        src = open(path).read()
        names |= {n for n in re.findall(r"\bflags\.(\w+)", src) if n in cli.FLAGS}
        names |= {n for n in re.findall(r"\bFLAGS\.(\w+)", src) if n in cli.FLAGS}
    return names


@pytest.mark.parametrize("command", sorted(cli.COMMAND_HELP))
def test_command_help_lists_every_flag(capsys, command):
    out = _help(capsys, command, "--help")
    assert out.startswith(f"usage: aotc {command}")
    listed = set(re.findall(r"^  --(\w+):", out, re.M))
    _, declared = cli.COMMAND_HELP[command]
    assert listed == set(declared)
    missing = _flags_read(command) - listed
    assert not missing, f"`aotc {command} --help` does not list {sorted(missing)}, which `{command}` reads"
    for name in listed:
        assert cli.FLAGS[name].help in out


def test_every_command_has_help():
    assert set(cli.COMMAND_HELP) == set(cli._commands())


def test_usage_names_onnx_and_its_flags(capsys):
    out = _help(capsys, "--help")
    for want in (".tflite", ".onnx", "--dim NAME=N", "--freeze_input NAME=FILE.npy", "--io_in_workspace"):
        assert want in out, want


def test_bench_only_in_a_checkout(capsys, monkeypatch):
    monkeypatch.setattr(cli, "_in_checkout", lambda: True)
    assert "bench" in _help(capsys, "--help")
    monkeypatch.setattr(cli, "_in_checkout", lambda: False)
    assert "bench" not in _help(capsys, "--help")
    assert cli.main(["aotc", "bench"]) == 2
    assert "unknown command 'bench'" in capsys.readouterr().err


def test_crt_writes_the_runtime(tmp_path, capsys):
    out = tmp_path / "crt"
    assert cli.main(["aotc", "crt", "--out_dir", str(out)]) == 0
    assert (out / "include" / "aot" / "errors.h").is_file()
    assert list((out / "src").rglob("*.c"))
    assert cli.main(["aotc", "crt", "--out_dir", str(out)]) == 2
    assert "exists already" in capsys.readouterr().err
