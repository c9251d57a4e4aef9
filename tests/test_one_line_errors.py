"""Crashes that became one clear line, with nothing stored lost (issue 43, item 9)."""

from __future__ import annotations

import asyncio
import io
import json
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

import pytest

from app import cli
from stores.checkpointer import open_checkpointer
from stores.data_dir import DataDirError
from stores.db_errors import open_error
from tests.support.mcp_client import call, fails, stdio_session

FAST = ["--chat-model", "scripted", "--embedding-model", "hash:64"]


def _cli(data: Path, *args: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)), redirect_stdout(out), redirect_stderr(err):
        code = cli.main(["--data-dir", str(data), *FAST, *args])
    return code, out.getvalue(), err.getvalue()


def _memories(data: Path) -> dict:
    code, out, err = _cli(data, "memories", "--user", "alice", "--json")
    assert code == 0, err
    return {k: v for k, v in json.loads(out).items() if k != "exported_at"}


def _one_line(code: int, err: str, *words: str) -> None:
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(w in err for w in words), err


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data dir where alice already said something."""
    data = tmp_path / "data"
    code, _, err = _cli(data, "chat", "--user", "alice", "--thread", "t0", stdin="/remember My dog is Brindlewick.\n")
    assert code == 0, err
    return data


@pytest.mark.parametrize("when", ["9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "1899-12-31T23:59:59+00:00"])
def test_an_import_time_outside_the_calendar_is_one_line(data: Path, when: str) -> None:
    before = _memories(data)
    line = {"thread": "t9", "id": "m1", "time": when, "role": "user", "text": "I moved to Bergen."}
    path = data.parent / "far.jsonl"
    path.write_text(json.dumps(line) + "\n")
    _one_line(*_cli(data, "import", "--user", "alice", "--no-progress", str(path))[::2], "field 'time'",
              "outside the supported times")
    assert _memories(data) == before


@pytest.mark.parametrize("flags", [["--now", "9999-12-31T23:59:59Z"], ["--set", "episode_ttl_days=1e12"],
                                   ["--set", "retention_days=1e300"], ["--set", "upkeep_review_days=nan"]])
def test_a_clock_or_a_ttl_past_the_calendar_is_one_line(data: Path, flags: list[str]) -> None:
    before = _memories(data)
    code, _, err = _cli(data, *flags, "chat", "--user", "alice", "--thread", "t1", stdin="I like tea.\n/end\n")
    _one_line(code, err)
    _one_line(*_cli(data, *flags, "expire")[::2])
    assert _memories(data) == before


def test_undecodable_bytes_on_the_chats_stdin_are_refused_and_the_chat_goes_on(data: Path) -> None:
    raw = b"I like \xff\xfe tea.\n/remember My cat is \xe9l\xe9.\n/search \xff\nI live in Porto.\n"
    typed = raw.decode("utf-8", "surrogateescape")  # what Python's stdin hands the chat
    before = _memories(data)
    code, out, err = _cli(data, "chat", "--user", "alice", "--thread", "t2", stdin=typed)
    assert code == 0 and "Traceback" not in out + err, err
    assert out.count("is not valid UTF-8 text") == 3, out
    assert "agent> " in out  # the last, valid line was answered
    after = _memories(data)
    assert [f["text"] for f in after["facts"]] == [f["text"] for f in before["facts"]]
    assert "\\udc" not in json.dumps(after)


def test_an_unfit_thread_id_is_one_line(data: Path) -> None:
    for thread in ("x" * 100_000, "a\x00b", "line\nbreak"):
        _one_line(*_cli(data, "chat", "--user", "alice", "--thread", thread, stdin="hello\n")[::2], "thread id")


def test_mcp_log_turn_with_an_unfit_conversation_id_says_why(tmp_path: Path) -> None:
    async def go() -> None:
        async with stdio_session(tmp_path / "data", "alice") as s:
            for conversation in ("c" * 100_000, "bad\x00id", ""):
                why = await fails(s, "log_turn", role="user", text="My sister Ana lives in Porto.",
                                  conversation=conversation)
                assert "conversation" in why and "nothing was stored" in why, why
                why = await fails(s, "end_session", conversation=conversation)
                assert "conversation" in why, why
            assert (await call(s, "log_turn", role="user", text="I live in Oslo.", conversation="ok"))["logged"]

    asyncio.run(go())


def _sqlite_error(path: Path, sql: str, uri: str | None = None, pages: int | None = None) -> sqlite3.DatabaseError:
    conn = sqlite3.connect(uri or str(path), uri=uri is not None)
    try:
        if pages:
            conn.execute(f"PRAGMA max_page_count={pages}")
        conn.executescript(sql)
    except sqlite3.DatabaseError as err:
        return err
    finally:
        conn.close()
    raise AssertionError("no error")


def test_a_full_or_read_only_disk_is_not_called_a_damaged_store(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    sqlite3.connect(db).executescript("CREATE TABLE t(v); INSERT INTO t VALUES (1);")
    full = _sqlite_error(db, "INSERT INTO t SELECT randomblob(100000) FROM t;" * 20, pages=3)
    read_only = _sqlite_error(db, "INSERT INTO t VALUES (2);", uri=f"file:{db}?mode=ro")
    for err, says in ((full, "disk is full"), (read_only, "read-only")):
        line = open_error(db, "memory store", err)
        assert says in line and "intact" in line and "Move it aside" not in line, line
    damaged = tmp_path / "checkpoints.sqlite"
    damaged.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DataDirError, match="Move it aside"):
        open_checkpointer(tmp_path)
