"""`memory-agent import` refuses bad input early and whole: size, encoding, depth, types and the chat's rules.

Each bad file holds good lines around one bad line; the error is one line naming the
file and the line, and nothing is stored (issue 25, section 4).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_run import FAST, export, run_cli

GOOD = {"thread": "t1", "time": "2025-03-02T10:00:00Z", "role": "user", "text": "I keep bees in Lyon."}


def _line(n: int, **changes: object) -> str:
    return json.dumps({**GOOD, "id": f"m{n}", **changes})


def _file(tmp_path: Path, name: str, bad: bytes) -> Path:
    """Good line 1, the bad line 2, good line 3."""
    path = tmp_path / name
    path.write_bytes(_line(1).encode() + b"\n" + bad + b"\n" + _line(3).encode() + b"\n")
    return path


BIG = 50 * 1024 * 1024
CASES = {
    "huge-line": (b'{"thread": "t1", "id": "m2", "role": "user", "time": "2025-03-02T10:00:00Z", "text": "'
                  + b"a" * BIG + b'"}', "line longer than"),
    "bad-utf8": (_line(2, text="cafe").encode().replace(b"cafe", b"caf\xe9"), "invalid UTF-8 at byte"),
    "deep-json": (b'{"thread": "t1", "id": "m2", "deep": ' + b"[" * 5000 + b"]" * 5000 + b"}",
                  "invalid JSON (nested too deeply)"),
    "text-number": (_line(2, text=5).encode(), "field 'text': input should be a valid string, got 5"),
    "thread-list": (_line(2, thread=["t1"]).encode(), "field 'thread': input should be a valid string"),
    "nul": (_line(2, text="hello\u0000world").encode(), "field 'text': message contains a NUL byte"),
    "control-only": (_line(2, text="\u0001\u0002\u001b").encode(), "field 'text': message has no visible text"),
    "too-long": (_line(2, text="b" * 8001).encode(), "field 'text': message too long: 8001 characters"),
    "empty": (_line(2, text="  ").encode(), "field 'text': empty message"),
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A data dir holding one good import, and its export."""
    root = tmp_path_factory.mktemp("import-limits")
    data = root / "data"
    good = root / "good.jsonl"
    good.write_text(_line(100, thread="t0", text="My sister is called Ines.") + "\n")
    done = run_cli(data, *FAST, "import", "--user", "u1", "--no-progress", str(good))
    assert done.returncode == 0, done.stderr
    return data, export(data, "u1")


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_line_is_one_error_naming_file_and_line_and_stores_nothing(
    case: str, stored: tuple[Path, dict], tmp_path: Path
) -> None:
    data, before = stored
    bad, reason = CASES[case]
    path = _file(tmp_path, f"{case}.jsonl", bad)
    done = run_cli(data, *FAST, "import", "--user", "u1", "--no-progress", str(path), timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.count("\n") == 1, done.stderr[-2000:]  # one line, no traceback
    assert f"{path}, line 2: " in done.stderr and reason in done.stderr, done.stderr[-300:]
    assert done.stderr.rstrip().endswith("; nothing was imported")
    assert export(data, "u1") == before


def test_the_chat_refuses_a_message_of_control_characters_only(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = run_cli(data, *FAST, "chat", "--user", "u1", "--thread", "t", stdin="\x01\x02\x1b\n/quit\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "error: message has no visible text, only control characters" in done.stdout
    assert export(data, "u1")["messages"]["total"] == 0
