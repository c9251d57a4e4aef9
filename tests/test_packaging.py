"""A wheel of the project carries every file its packages read beside their code.

The editable install (`make install`) reads them from the checkout, so a missing
package-data rule would only show once someone installs a wheel: the word lists and the memory page's templates would be gone. The wheel is built from a
copy of the sources, so the checkout gets no build/ folder.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "graph", "memory", "models", "nodes", "settings", "stores")


def _data_files() -> set[str]:
    """Every non-Python file under the packages, as a path inside the wheel."""
    return {
        p.relative_to(ROOT).as_posix()
        for pkg in PACKAGES
        for p in (ROOT / pkg).rglob("*")
        if p.is_file() and p.suffix not in {".py", ".pyc"} and "__pycache__" not in p.parts
    }


def test_the_wheel_carries_every_data_file_of_the_packages(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "wheel"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(src), "-w", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = out.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = _data_files()
    assert "memory/words.toml" in wanted and any(p.endswith(".html") for p in wanted)
    assert wanted - names == set()
