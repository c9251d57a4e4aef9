"""Execute notebooks in place: a fresh kernel each, with ``notebooks/`` as the working directory.

The ``.ipynb`` files are built from their percent-format sources in
``notebooks/src/`` by jupytext (``make notebooks`` runs both steps); this runs
them so they are committed with their outputs. It is nbclient with per-cell
timings switched off, because timestamps would change every cell of the diff on
each rebuild. ``tests/test_notebooks.py`` executes through the same function.

    .venv/bin/python notebooks/execute.py notebooks/01_working_memory.ipynb [...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
KERNEL = "python3"  # ipykernel's own kernel: this interpreter, no kernelspec to install
CELL_TIMEOUT_S = 900


def execute(nb: nbformat.NotebookNode, cwd: Path = HERE, timeout: int = CELL_TIMEOUT_S) -> nbformat.NotebookNode:
    """Run every cell of ``nb`` in a fresh kernel, in ``cwd``; outputs are stored in ``nb``."""
    client = NotebookClient(
        nb, timeout=timeout, kernel_name=KERNEL, record_timing=False, resources={"metadata": {"path": str(cwd)}}
    )
    client.execute()
    return nb


def main(paths: list[str]) -> int:
    """Execute each notebook and write it back with its outputs."""
    for name in paths:
        path = Path(name)
        start = time.monotonic()
        nb = execute(nbformat.read(path, as_version=4))
        nbformat.write(nb, path)
        print(f"{path.name}: executed in {time.monotonic() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
