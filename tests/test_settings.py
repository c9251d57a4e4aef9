"""Every environment variable has one home: a ``Context`` field or a declared setting in settings/.

The scan reads the package's source for environment reads (``os.environ.get``, ``os.getenv``,
``os.environ[...]``, ``in os.environ``, ``os.environ`` passed around) outside the two modules allowed to
read it, so a new ``os.environ.get("MEMORY_X")`` in a node fails here instead of becoming an undocumented
setting. Writes (``os.environ[K] = v``, ``setdefault`` of a library's offline switch) are not reads.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import settings
from docs.gen_config import table

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app", "graph", "memory", "models", "nodes", "stores")
ALLOWED = {Path("settings/__init__.py"), Path("core/context.py")}


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and getattr(node.value, "id", "") == "os"


def environment_reads(tree: ast.AST) -> list[int]:
    """Line numbers where ``tree`` reads the process environment."""
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "getenv" and getattr(node.value, "id", "") == "os":
            lines.append(node.lineno)
        if not _is_environ(node):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.attr == "setdefault":
            continue  # a default for a library (HF_HUB_OFFLINE), not a setting of ours
        if isinstance(parent, ast.Subscript) and isinstance(parent.ctx, ast.Store | ast.Del):
            continue  # the CLI's --now writes MEMORY_NOW for the layers to read through settings
        lines.append(node.lineno)
    return sorted(set(lines))


def test_the_scan_finds_every_kind_of_read() -> None:
    sample = ast.parse(
        "import os\na = os.environ.get('X')\nb = os.getenv('Y')\nc = os.environ['Z']\nd = 'W' in os.environ\n"
        "os.environ['V'] = '1'\nos.environ.setdefault('U', '1')\n"
    )
    assert environment_reads(sample) == [2, 3, 4, 5]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_reads_the_environment_outside_context_and_settings(package: str) -> None:
    found = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel in ALLOWED:
            continue
        found += [f"{rel}:{line}" for line in environment_reads(ast.parse(path.read_text(), str(rel)))]
    assert not found, f"read the environment through settings/ or a Context field instead: {found}"


def test_every_declared_setting_is_documented_in_the_generated_table() -> None:
    doc = (ROOT / "docs" / "configuration.md").read_text()
    rows = table()
    for s in settings.ALL:
        assert f"| `{s.name}` |" in rows and f"| `{s.name}` |" in doc


def test_a_setting_reads_the_environment_given_and_falls_back_to_its_default() -> None:
    assert settings.BACKEND.read({}) == "local"
    assert settings.BACKEND.read({"MEMORY_BACKEND": "  postgres "}) == "postgres"
    assert settings.AUTH_JWT_ALGORITHMS.read({"MEMORY_AUTH_JWT_ALGORITHMS": ""}) == "HS256"
