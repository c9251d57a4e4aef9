"""One home for word tokenising (models/word_split.py): no private word regex elsewhere, FTS5 parity.

The scan reads the package's sources: a regex that is one run of a word-character class
(``[A-Za-z0-9']+``, ``\\w+``, ``[^\\W_]+`` ...) and is used to split text (``findall`` /
``finditer``) belongs in models/word_split.py as a named tokeniser.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

import pytest

from models import word_split

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "models" / "word_split.py"
PACKAGES = ("app", "graph", "memory", "models", "nodes", "settings", "stores")

_LOOK = r"(?:\(\?<[=!][^)]*\))*"
_UNIT = r"(?:\[[^\]]+\]|\\[ws])(?:[+*]|\{\d*,?\d*\})?"
_ALT = _LOOK + r"(?:\\b)?(?:" + _UNIT + r"){1,3}(?:\(\?:'\[a-z\]\+\)\?)?(?:\\b)?"
_WORD_RUN = re.compile(_ALT + r"(?:\|" + _ALT + r")*")
_WORDISH = re.compile(r"\\w|A-Z|a-z|\^\\W")


def is_word_run(pattern: str) -> bool:
    """Whether a regex is a run of word characters (with at most a contraction tail or \\b edges)."""
    return bool(_WORD_RUN.fullmatch(pattern) and _WORDISH.search(pattern) and re.search(r"[+*]|\{\d*,", pattern))


def _re_call(node: ast.AST, names: tuple[str, ...]) -> str | None:
    """The constant pattern of ``re.<name>("...")``, else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in names
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return node.args[0].value
    return None


def word_splitters(source: str) -> list[str]:
    """The word-run regexes a module splits text with: ``re.findall(p, ...)`` or ``NAME.findall`` of a
    ``NAME = re.compile(p)``."""
    tree = ast.parse(source)
    compiled = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if (pattern := _re_call(node.value, ("compile",))) is not None:
                compiled[node.targets[0].id] = pattern
    found = []
    for node in ast.walk(tree):
        if (pattern := _re_call(node, ("findall", "finditer", "split"))) is not None:
            found.append(pattern)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("findall", "finditer") and isinstance(node.func.value, ast.Name)
              and node.func.value.id in compiled):
            found.append(compiled[node.func.value.id])
    return [p for p in found if is_word_run(p)]


@pytest.mark.parametrize(
    "pattern", [r"[A-Za-z0-9]+(?:'[a-z]+)?", r"[a-z0-9]+", r"[^\W_]+", r"\b[\w'’-]+\b", r"\w+",
                r"[A-Za-z']+|[^A-Za-z'\s]+|\s+", r"(?<=\s)[A-Z][a-z]+", r"[A-Za-z][A-Za-z0-9'-]{2,}"],
)
def test_the_scan_knows_a_word_regex(pattern: str) -> None:
    assert is_word_run(pattern)


@pytest.mark.parametrize("pattern", [r"[^\W\d_]", r"[a-z][A-Z]", r"[ \-]", r"\S+", r"[.!?;:\n]", r"\bmy\b"])
def test_the_scan_leaves_other_regexes_alone(pattern: str) -> None:
    assert not is_word_run(pattern)


def test_a_private_word_regex_is_found() -> None:
    src = 'import re\n_W = re.compile(r"[A-Za-z0-9\']+")\ndef f(t):\n    return _W.findall(t) + re.findall(r"\\w+", t)\n'
    assert sorted(word_splitters(src)) == sorted([r"[A-Za-z0-9']+", r"\w+"])


def test_no_module_splits_words_with_a_private_regex() -> None:
    offenders = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path != HOME:
                offenders += [f"{path.relative_to(ROOT)}: {p}" for p in word_splitters(path.read_text("utf-8"))]
    assert not offenders, "split words with models/word_split.py:\n" + "\n".join(offenders)


TEXT = "Café au lait, naïve_user's O'Brien 2nd-floor ü ångström x86 東京 don’t"


def test_fts_words_split_as_sqlite_fts5_unicode61_does() -> None:
    """The lexical index tags each token itself, so its split must be FTS5's own (diacritics kept here,
    since the index folds them after the split)."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 0')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    db.execute("INSERT INTO t(x) VALUES (?)", (TEXT,))
    sqlite_tokens = [row[0] for row in db.execute("SELECT term FROM v ORDER BY offset")]
    assert word_split.fts_words(TEXT) == sqlite_tokens


def test_each_variant_splits_as_its_docstring_says() -> None:
    assert word_split.words("I don't like the user's dog") == ["i", "don't", "like", "the", "user's", "dog"]
    assert word_split.plain_words("The user's dog") == ["the", "user", "s", "dog"]
    assert word_split.keywords("A well-known caf at Joe's") == ["well-known", "caf", "joe's"]
    assert word_split.cased_words("Met O'Brien at 5") == ["Met", "O'Brien", "at", "5"]
    assert len(word_split.reply_words("Try meat-free, don’t -worry-")) == 4
    assert len(word_split.apostrophe_words("meat-free, don’t")) == 3
    assert word_split.address_words("email sam.lee+work@example.com now") == ["email", "sam.lee+work@example.com",
                                                                             "now"]
    assert "".join(word_split.pieces(TEXT)) == TEXT
    assert word_split.inner_capitalised("When did Caroline visit Lisbon?") == ["caroline", "lisbon"]
    assert word_split.names_and_numbers("Sam lives in Oslo. Bergen has 3 parks") == ["oslo", "3"]
