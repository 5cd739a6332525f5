"""The host build's prebuilt CRT archive: used only when its key matches the CRT, flags and compiler."""

import os

from compiler import hostbuild


def _tiny_crt(root, body="int aot_probe(void) { return 7; }\n"):
    os.makedirs(root / "include" / "aot", exist_ok=True)
    os.makedirs(root / "src", exist_ok=True)
    (root / "include" / "aot" / "probe.h").write_text("int aot_probe(void);\n")
    (root / "src" / "probe.c").write_text('#include "aot/probe.h"\n' + body)


def _run_probe(tmp_path):
    main = tmp_path / "main.c"
    main.write_text('#include "aot/probe.h"\nint main(void) { return aot_probe(); }\n')
    exe = str(tmp_path / "probe")
    hostbuild.build_executable([str(main)], [], exe)
    return hostbuild.run_executable(exe, []).returncode


def test_prebuilt_archive_is_linked_only_while_its_key_matches(tmp_path, monkeypatch):
    crt = tmp_path / "crt"
    _tiny_crt(crt)
    monkeypatch.setenv("AOT_CRT_DIR", str(crt))
    hostbuild.write_archive(str(crt / hostbuild.HOST_ARCHIVE))
    assert hostbuild.crt_objects() == [str(crt / hostbuild.HOST_ARCHIVE)]
    assert _run_probe(tmp_path) == 7

    # A changed CRT source makes the archive stale: the CRT is compiled again, and the new code is what runs.
    _tiny_crt(crt, "int aot_probe(void) { return 9; }\n")
    objs = hostbuild.crt_objects()
    assert objs != [str(crt / hostbuild.HOST_ARCHIVE)] and all(o.endswith(".o") for o in objs)
    assert _run_probe(tmp_path) == 9


def test_no_archive_compiles_the_crt(tmp_path, monkeypatch):
    crt = tmp_path / "crt"
    _tiny_crt(crt)
    monkeypatch.setenv("AOT_CRT_DIR", str(crt))
    assert all(o.endswith(".o") for o in hostbuild.crt_objects())
    assert _run_probe(tmp_path) == 7
