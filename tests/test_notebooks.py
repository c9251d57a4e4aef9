"""Every notebook runs top to bottom, offline, on the embedded models.

Executed with nbclient in a fresh kernel of this interpreter (ipykernel's
``python3`` kernel resolves to ``sys.executable``, so a fresh CI venv needs no
kernelspec installed), with ``notebooks/`` as the working directory. The
committed ``.ipynb`` files must also still match their sources in
``notebooks/src/`` (rebuild with ``.venv/bin/python notebooks/make_notebooks.py``).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

import make_notebooks as build  # noqa: E402

PAGES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
CELL_TIMEOUT_S = 600


def test_there_is_a_notebook_for_every_source() -> None:
    sources = sorted(p.stem for p in (NOTEBOOKS / "src").glob("[0-9][0-9]_*.py"))
    assert sources and sources == [p.stem for p in PAGES]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_matches_its_source(path: Path) -> None:
    cells = build.parse_source((NOTEBOOKS / "src" / f"{path.stem}.py").read_text())
    assert build.same_cells(nbformat.read(path, as_version=4), cells), f"rebuild {path.name}: notebooks/make_notebooks.py"


@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_runs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    build.execute(nb, cwd=NOTEBOOKS, timeout=CELL_TIMEOUT_S)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    print(f"{path.name}: {time.monotonic() - start:.0f}s")
