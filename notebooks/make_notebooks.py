"""Build the notebooks from their sources in ``notebooks/src/`` and execute them.

Each source is a plain Python file in "percent" format: ``# %%`` starts a code
cell, ``# %% [markdown]`` a markdown cell whose lines are ``# ``-commented. The
sources are what reviewers read and diff; the ``.ipynb`` files are what GitHub
and Jupyter show, committed with their outputs.

    .venv/bin/python notebooks/make_notebooks.py            # rebuild and execute all
    .venv/bin/python notebooks/make_notebooks.py 03         # only notebooks whose name starts with 03
    .venv/bin/python notebooks/make_notebooks.py --check    # fail if an .ipynb no longer matches its source
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
CELL_TIMEOUT_S = 900
KERNEL = "python3"


def parse_source(text: str) -> list[tuple[str, str]]:
    """[(kind, source)] from a percent-format file; kind is "code" or "markdown"."""
    cells: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("# %%"):
            cells.append(("markdown" if "[markdown]" in line else "code", []))
        elif cells:
            cells[-1][1].append(line)
    out = []
    for kind, lines in cells:
        if kind == "markdown":
            lines = [ln[2:] if ln.startswith("# ") else ln.lstrip("#") for ln in lines]
        body = "\n".join(lines).strip("\n")
        if body:
            out.append((kind, body))
    return out


def to_notebook(cells: list[tuple[str, str]]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src)
        for kind, src in cells
    ]
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids keep diffs small
    return nb


def execute(nb: nbformat.NotebookNode, cwd: Path = HERE, timeout: int = CELL_TIMEOUT_S) -> nbformat.NotebookNode:
    """Run every cell in a fresh kernel (this interpreter's ipykernel), in ``cwd``."""
    client = NotebookClient(nb, timeout=timeout, kernel_name=KERNEL, resources={"metadata": {"path": str(cwd)}})
    client.execute()
    for cell in nb.cells:  # execution times and counts only make diffs noisy
        cell.metadata.pop("execution", None)
    return nb


def same_cells(nb: nbformat.NotebookNode, cells: list[tuple[str, str]]) -> bool:
    return [(c.cell_type, c.source) for c in nb.cells] == cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", help="name prefixes to build (default: all)")
    parser.add_argument("--check", action="store_true", help="compare sources with the .ipynb files, run nothing")
    args = parser.parse_args(argv)
    failed = 0
    for src in sorted(SRC.glob("[0-9][0-9]_*.py")):
        if args.only and not any(src.stem.startswith(p) for p in args.only):
            continue
        cells = parse_source(src.read_text())
        target = HERE / f"{src.stem}.ipynb"
        if args.check:
            ok = target.exists() and same_cells(nbformat.read(target, as_version=4), cells)
            print(f"{target.name}: {'ok' if ok else 'OUT OF DATE'}")
            failed += not ok
            continue
        start = time.monotonic()
        nb = execute(to_notebook(cells))
        nbformat.write(nb, target)
        print(f"{target.name}: executed in {time.monotonic() - start:.0f}s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
