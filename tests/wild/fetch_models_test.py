"""fetch_models.py on sources made here (no registry, no real mirror): a model read from an archive inside an
archive, sha256 checks that keep a changed file out, a repository mirror read with git, a missing mirror skipped
with a message, a warm cache left alone; and the checker's skip when the cache is empty."""

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fetch_models  # noqa: E402
import wild_conformance  # noqa: E402


def _zip(members: dict) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_member_inside_a_nested_archive():
    inner = _zip({"m.tflite": b"TFL3 model"})
    outer = zipfile.ZipFile(io.BytesIO(_zip({"pkg/models/a.mltk.zip": inner, "pkg/b.onnx": b"onnx"})))
    assert fetch_models.read_member(outer, "pkg/models/a.mltk.zip!m.tflite") == b"TFL3 model"
    assert fetch_models.read_member(outer, "pkg/b.onnx") == b"onnx"


def test_a_file_that_is_not_the_manifests_is_not_kept(tmp_path):
    entry = {"name": "p-1/m.tflite", "sha256": hashlib.sha256(b"right").hexdigest()}
    assert "is not the manifest's" in fetch_models.store(str(tmp_path), entry, b"wrong")
    assert not (tmp_path / "p-1" / "m.tflite").exists()
    assert fetch_models.store(str(tmp_path), entry, b"right") == ""
    assert (tmp_path / "p-1" / "m.tflite").read_bytes() == b"right"


def _git(*args, cwd):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_repository_mirror_then_warm_cache_then_missing_mirror(tmp_path):
    work = tmp_path / "work"
    (work / "models").mkdir(parents=True)
    (work / "models" / "w.tflite").write_bytes(b"a wake word model")
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "m", cwd=work)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout.strip()
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirrors / "owner+repo" / "repo")], check=True)
    manifest = tmp_path / "manifest.json"
    entry = {
        "name": "repo/w.tflite",
        "source": f"github:owner/repo@{commit}",
        "path": "models/w.tflite",
        "sha256": hashlib.sha256(b"a wake word model").hexdigest(),
    }
    manifest.write_text(json.dumps({"models": [entry]}))
    cache, lines = tmp_path / "cache", []
    assert fetch_models.fetch(str(cache), str(mirrors), log=lines.append, manifest=str(manifest)) == 0
    assert (cache / "models" / "repo" / "w.tflite").read_bytes() == b"a wake word model"
    assert any("1 of 1 models present" in line for line in lines)
    lines.clear()
    assert fetch_models.fetch(str(cache), str(mirrors), log=lines.append, manifest=str(manifest)) == 0
    assert lines == []  # warm: nothing to say, nothing hashed
    lines.clear()
    assert (
        fetch_models.fetch(str(tmp_path / "other"), str(tmp_path / "none"), log=lines.append, manifest=str(manifest))
        == 0
    )
    assert any("skipped: no local mirror" in line for line in lines)
    (cache / "models" / "repo" / "w.tflite").write_bytes(b"changed")
    assert fetch_models.fetch(str(cache), str(mirrors), log=lines.append, manifest=str(manifest)) == 0
    assert (cache / "models" / "repo" / "w.tflite").read_bytes() == b"a wake word model"  # re-fetched


def test_checker_skips_with_a_message_when_the_cache_is_empty(tmp_path, capsys):
    assert wild_conformance.main(["--models_dir", str(tmp_path)]) == 0
    assert "SKIPPED" in capsys.readouterr().out


def test_manifest_md_is_generated_from_manifest_json():
    import manifest_md

    with open(manifest_md.MANIFEST_JSON) as f:
        want = manifest_md.render(json.load(f))
    with open(manifest_md.MANIFEST_MD) as f:
        assert f.read() == want, "tests/wild/MANIFEST.md is stale: run python tests/wild/manifest_md.py"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
