"""The host build's prebuilt CRT archive: used only when its key matches the CRT, flags and compiler."""

import os

import pytest

from compiler import hostbuild


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Each test with a user cache of its own (the CRT archive an earlier process left, hostbuild.user_cache_dir)."""
    monkeypatch.setenv("AOT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(autouse=True)
def _one_unit_per_file(monkeypatch):
    """execute_on_host as `aotc run` builds it (one translation unit per file, not the one unit per model of
    hostbuild.build_one_unit_executable that conftest sets for the other tests): the batch is compared with it here."""
    from compiler.commands import run_cmd

    monkeypatch.setattr(run_cmd, "build_executable", hostbuild.build_executable)


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


def test_the_next_process_links_the_archive_left_in_the_user_cache(tmp_path, monkeypatch):
    crt = tmp_path / "crt"
    _tiny_crt(crt)
    monkeypatch.setenv("AOT_CRT_DIR", str(crt))
    monkeypatch.setattr(hostbuild, "_crt_cache", {})
    assert all(o.endswith(".o") for o in hostbuild.crt_objects())
    (cached,) = [
        os.path.join(d, f) for d, _, fs in os.walk(tmp_path / "cache") for f in fs if f == hostbuild.HOST_ARCHIVE
    ]
    monkeypatch.setattr(hostbuild, "_crt_cache", {})  # a new process
    assert hostbuild.crt_objects() == [cached]
    assert _run_probe(tmp_path) == 7
    # Changed sources have another key: compiled again, and the new code runs.
    _tiny_crt(crt, "int aot_probe(void) { return 9; }\n")
    monkeypatch.setattr(hostbuild, "_crt_cache", {})
    assert all(o.endswith(".o") for o in hostbuild.crt_objects())
    assert _run_probe(tmp_path) == 9
    # write_archive (the Bazel action) compiles its own objects whatever the cache holds.
    assert all(o.endswith(".o") for o in hostbuild.crt_objects(prebuilt=False))


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


# --- many models in one program (compiler/host_batch.py) ------------------------------------------------------------


def _add_models(tmp_path, count):
    import sys

    import numpy as np

    sys.path.insert(0, os.path.dirname(__file__))
    from tflite_builder import ModelBuilder

    from compiler.driver import compile_model

    jobs = []
    for k in range(count):
        b = ModelBuilder()
        x = b.input("x", [1, 3 + k], "int8", 0.05, -3)
        y = b.input("y", [1, 3 + k], "int8", 0.02 + 0.01 * k, 7)
        b.output(b.op("ADD", [x, y], out=b.tensor("o", [1, 3 + k], "int8", 0.06, 2)))
        compiled = compile_model(str(b.save(tmp_path / f"m{k}.tflite")), f"m{k}", "host")
        rng = np.random.default_rng(k)
        cases = [[rng.integers(-128, 128, size=(1, 3 + k)).astype(np.int8) for _ in range(2)] for _ in range(3)]
        jobs.append((compiled, cases))
    return jobs


def _same(a, b):
    import numpy as np

    return len(a) == len(b) and all(np.array_equal(x, y) for ca, cb in zip(a, b) for x, y in zip(ca, cb))


def test_batch_gives_what_one_build_per_model_gives(tmp_path):
    """Models over more than one translation unit, built into one program: per model, the outputs its own
    program (execute_on_host) gives."""
    from compiler import host_batch
    from compiler.commands.run_cmd import execute_on_host

    jobs = _add_models(tmp_path, host_batch.GROUP + 2)
    got = host_batch.run_many(jobs, threads=2)
    for k in (0, host_batch.GROUP - 1, host_batch.GROUP, host_batch.GROUP + 1):
        assert _same(got[k], execute_on_host(*jobs[k])), k
    # And the one-unit build of a model that the other tests' host runs use (conftest.py).
    from compiler.commands import run_cmd

    run_cmd.build_executable = hostbuild.build_one_unit_executable
    assert _same(got[1], execute_on_host(*jobs[1]))


def test_batch_failures_stay_with_their_model(tmp_path):
    """A model whose C does not compile, one that crashes and one whose run fails: each is that model's error (the
    crash and the failed run with the harness's own message), and every other model's outputs are right."""
    from compiler import host_batch
    from compiler.commands.run_cmd import execute_on_host

    jobs = _add_models(tmp_path, 6)
    want = [execute_on_host(*jobs[k]) for k in (0, 2, 4)]
    head = "void* workspace)\n{\n"
    for k, body in ((1, "this is not C;\n"), (3, "*(volatile int*)0 = 1;\n"), (5, "return 77;\n")):
        files = jobs[k][0].files
        assert head in files[f"m{k}.c"]
        files[f"m{k}.c"] = files[f"m{k}.c"].replace(head, head + body, 1)
    got = host_batch.run_many(jobs, threads=2)
    assert [isinstance(r, host_batch.HostRunError) for r in got] == [False, True, False, True, False, True]
    assert "compilation" in str(got[1]) and "m1.c" in str(got[1])
    assert "generated program failed" in str(got[3])
    assert "m5_run failed with 77" in str(got[5])
    for k, w in zip((0, 2, 4), want):
        assert _same(got[k], w), k
