"""Small display helpers shared by the notebooks.

pandas is deliberately not a dependency, so stored records are shown with a tiny
HTML table (with a plain-text fallback) that renders on GitHub and in Jupyter
alike. Importing this module also puts the repository root on ``sys.path`` (for
``bench``) and switches off progress bars and hub downloads, so the notebooks'
saved outputs stay short and everything runs offline.
"""

from __future__ import annotations

import html
import json
import os
import sys
import tempfile
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
for _key, _value in {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "TQDM_DISABLE": "1",
}.items():
    os.environ.setdefault(_key, _value)
# tqdm.auto warns once that ipywidgets is missing; the bars are off anyway.
warnings.filterwarnings("ignore", message="IProgress not found")

MAX_CELL_CHARS = 90


def fresh_data_dir(prefix: str = "memory-notebook-") -> str:
    """A new, empty data dir for one notebook run (nothing touches ./data)."""
    return tempfile.mkdtemp(prefix=prefix)


def _cell(value: Any, max_chars: int) -> str:
    if isinstance(value, float):
        text = f"{value:.3f}"
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(value, ensure_ascii=False, default=str)
    elif value is None:
        text = ""
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= max_chars else text[: max_chars - 1] + "…"


class Table:
    """Rows of dicts shown as a table: HTML in a notebook, aligned text elsewhere."""

    def __init__(self, rows: Iterable[Mapping[str, Any]], columns: Sequence[str] | None = None,
                 max_chars: int = MAX_CELL_CHARS, title: str = "") -> None:
        self.rows = [dict(r) for r in rows]
        self.columns = list(columns) if columns else list(dict.fromkeys(k for r in self.rows for k in r))
        self.max_chars = max_chars
        self.title = title

    def _cells(self) -> list[list[str]]:
        return [[_cell(r.get(c), self.max_chars) for c in self.columns] for r in self.rows]

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(c)}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:left'>{html.escape(v)}</td>" for v in row) + "</tr>"
            for row in self._cells()
        )
        caption = f"<caption style='text-align:left'><b>{html.escape(self.title)}</b></caption>" if self.title else ""
        empty = "" if self.rows else f"<tr><td colspan='{max(len(self.columns), 1)}'><i>(no rows)</i></td></tr>"
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}{empty}</tbody></table>"

    def __repr__(self) -> str:
        cells = self._cells()
        widths = [max([len(c), *(len(row[i]) for row in cells)]) for i, c in enumerate(self.columns)]
        lines = [self.title] if self.title else []
        lines.append("  ".join(c.ljust(w) for c, w in zip(self.columns, widths)))
        lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths)) for row in cells]
        return "\n".join(lines) if self.rows else "\n".join([*lines, "(no rows)"])


def items_table(store: Any, namespace: tuple[str, ...], columns: Sequence[str], title: str = "",
                limit: int = 100, query: str | None = None) -> Table:
    """The items of one store namespace, with the chosen value fields (plus key, score)."""
    rows = []
    for item in store.search(namespace, query=query, limit=limit):
        row = {"key": item.key, **{c: item.value.get(c) for c in columns}}
        if query is not None:
            row["score"] = item.score
        rows.append(row)
    cols = ["key", *columns, *(["score"] if query is not None else [])]
    return Table(rows, cols, title=title or "/".join(namespace))


def recalled_table(recalled: Iterable[Mapping[str, Any] | Any], title: str = "recalled") -> Table:
    """What the layers offered the prompt (dicts from state, or ``Recalled`` objects)."""
    rows = []
    for r in recalled:
        get = r.get if isinstance(r, Mapping) else (lambda k, _r=r: getattr(_r, k, None))
        rows.append({"kind": get("kind"), "score": float(get("score") or 0.0), "text": get("text"),
                     "sources": len(get("sources") or ())})
    return Table(rows, ["kind", "score", "text", "sources"], title=title)


class Prompt:
    """A system prompt shown verbatim in a fixed-width block."""

    def __init__(self, text: str, title: str = "assembled system prompt") -> None:
        self.text = text
        self.title = title

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.title)}</b><pre style='white-space:pre-wrap'>{html.escape(self.text)}</pre>"

    def __repr__(self) -> str:
        return f"--- {self.title} ---\n{self.text}"
