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


def test_crt_key_is_remembered_only_for_files_older_than_a_timestamp_tick(tmp_path, monkeypatch):
    crt = tmp_path / "crt"
    _tiny_crt(crt)
    monkeypatch.setenv("AOT_CRT_DIR", str(crt))
    src = crt / "src" / "probe.c"
    cc = hostbuild.compiler_command()
    # Just written: hashed again on every call, never remembered (it could change within the same mtime tick).
    hostbuild._key_memo.clear()
    first = hostbuild._crt_key(cc)
    assert hostbuild._key_memo == {} and hostbuild._crt_key(cc) == first
    # An hour old: remembered, and the memo answers without reading the files.
    old = os.stat(src).st_mtime_ns - 3600 * 10**9
    for p in (src, crt / "include" / "aot" / "probe.h"):
        os.utime(p, ns=(old, old))
    key = hostbuild._crt_key(cc)
    assert key == first and len(hostbuild._key_memo) == 1
    # The same size, another (still old) mtime: a different file set, hashed again, so the change is seen.
    _tiny_crt(crt, "int aot_probe(void) { return 9; }\n")
    os.utime(src, ns=(old + 10**9, old + 10**9))
    os.utime(crt / "include" / "aot" / "probe.h", ns=(old, old))
    assert hostbuild._crt_key(cc) != first
