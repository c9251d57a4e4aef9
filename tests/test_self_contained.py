"""The repository stands on its own: no tracked file reads or names a path outside it.

A fresh clone (or a fork) has none of the folders that sat beside the working
copy while it was written, so a data path into a sibling folder or an absolute
path of the author's machine breaks ``make test`` there, and a citation of a
document that is not in the repository points nowhere. Every tracked text file
is scanned, notebooks' stored outputs included (they show paths too). This file
is the one exception: it holds the patterns and examples of what is refused.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
THIS = Path(__file__).resolve()

# What a path outside the repository looks like in text.
OUTSIDE = {
    "a sibling 'shared' folder": re.compile(r"\.\./shared\b|\bshared/data\b"),
    "an absolute /work path": re.compile(r"(?<![\w.])/work/"),
    "a home directory": re.compile(r"(?<![\w.])/(?:home|Users)/[\w.-]+/"),
    "a temp-folder path": re.compile(r"(?<![\w.])/tmp/[\w.-]+"),
    "a document not in the repository": re.compile(r"\bDESIGN(?:\.md\b|\s*§)"),
    "a parent-of-the-repository path in code": re.compile(r"\bROOT\.parent\b|\bREPO\.parent\b"),
}


def tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = []
    for name in out.decode().split("\0"):
        path = ROOT / name
        if not name or not path.is_file() or path.resolve() == THIS:
            continue
        head = path.read_bytes()[:4096]
        if b"\0" not in head:  # binary files cannot name paths we care about
            files.append(path)
    return files


def outside_references(text: str) -> list[str]:
    """``"line N: what (match)"`` for every reference to a path outside the repository."""
    found = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        for what, pattern in OUTSIDE.items():
            for match in pattern.finditer(line):
                found.append(f"line {line_no}: {what} ({match.group(0)!r})")
    return found


@pytest.mark.parametrize(
    "text",
    [
        'DATA = ROOT.parent / "shared" / "data"',
        "see ../shared/data/locomo-dev",
        'open("/work/main/data/x.jsonl")',
        "as DESIGN §7 says",
        "see DESIGN.md",
        'cache = "/tmp/memory-cache"',
        "    \"/home/alice/data\\n\",",
    ],
)
def test_the_scan_catches_outside_paths(text: str) -> None:
    assert outside_references(text), text


def test_the_scan_leaves_inside_paths_alone() -> None:
    inside = "\n".join(
        [
            'DEFAULT_DATA = REPO / "bench" / "datasets" / "locomo-dev"',
            "the shared 2-core machine; embedded once and shared by all layers",
            "see docs/architecture.md (Public contracts)",
            "tmp_path / 'store'",
        ]
    )
    assert outside_references(inside) == []


def test_the_repository_is_git_tracked() -> None:
    files = tracked_text_files()
    assert any(p.name == "pyproject.toml" for p in files) and len(files) > 50


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    problems = []
    for path in tracked_text_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        problems += [f"{path.relative_to(ROOT)} {hit}" for hit in outside_references(text)]
    assert not problems, "\n".join(problems)


def test_cited_repository_files_exist() -> None:
    """``docs/architecture.md`` replaces the external design notes: it must be there."""
    cited = set()
    for path in tracked_text_files():
        cited.update(re.findall(r"\bdocs/[\w./-]+\.md\b", path.read_text(encoding="utf-8", errors="replace")))
    assert "docs/architecture.md" in cited
    missing = sorted(c for c in cited if not (ROOT / c).is_file())
    assert not missing, missing
