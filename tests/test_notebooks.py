"""Every notebook matches its source and runs top to bottom, offline, on the embedded models.

The sources in ``notebooks/src/`` are jupytext percent-format files; the
committed ``.ipynb`` files must hold exactly their cells (rebuild with
``make notebooks``, or ``NB=03 make notebooks`` for one). Execution uses
nbclient in a fresh kernel of this interpreter (ipykernel's ``python3`` kernel
resolves to ``sys.executable``, so a fresh CI venv needs no kernelspec
installed), with ``notebooks/`` as the working directory.
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
jupytext = pytest.importorskip("jupytext")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from execute import execute  # noqa: E402  (notebooks/execute.py, found through sys.path above)

PAGES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
CELL_TIMEOUT_S = 600


def cells(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """What a reader sees of a notebook: each cell's type and text, outputs and metadata aside."""
    return [(c.cell_type, c.source) for c in nb.cells]


def test_there_is_a_notebook_for_every_source() -> None:
    sources = sorted(p.stem for p in (NOTEBOOKS / "src").glob("[0-9][0-9]_*.py"))
    assert sources and sources == [p.stem for p in PAGES]


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_matches_its_source(path: Path) -> None:
    source = jupytext.read(NOTEBOOKS / "src" / f"{path.stem}.py", fmt="py:percent")
    assert cells(source), "the source has no cells"
    assert cells(nbformat.read(path, as_version=4)) == cells(source), f"rebuild it: NB={path.stem[:2]} make notebooks"


def test_the_source_check_sees_an_edit(tmp_path: Path) -> None:
    """A changed line in a source makes its notebook differ (the check above can fail)."""
    path = PAGES[0]
    text = (NOTEBOOKS / "src" / f"{path.stem}.py").read_text().replace("\n# %%\n", "\n# %%\nprint('edited')\n", 1)
    edited = jupytext.reads(text, fmt="py:percent")
    assert cells(nbformat.read(path, as_version=4)) != cells(edited)


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_is_committed_executed(path: Path) -> None:
    """Committed with outputs, so GitHub shows them; every code cell ran, in order, without error."""
    code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    counts = [c.execution_count for c in code]
    assert counts == list(range(1, len(code) + 1)), f"not executed top to bottom: NB={path.stem[:2]} make notebooks"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]


@pytest.mark.slow
@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_runs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    start = time.monotonic()
    execute(nb, cwd=NOTEBOOKS, timeout=CELL_TIMEOUT_S)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
    print(f"{path.name}: {time.monotonic() - start:.0f}s")
