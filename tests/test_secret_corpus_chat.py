"""Every secret of a sample of the corpus, said in chat, is in no file of the data dir.

A sample of the positive lines of ``bench/datasets/secrets_corpus.jsonl`` (up to two
of each kind of secret, and every multi-line one: tests/fixtures/secrets_sample.jsonl) is typed
into the chat REPL (multi-line keys as one message, as a paste into a client would send
them), the session is ended, and every file under the data dir — store, FAISS
indexes, checkpoints with their WAL — is byte-searched for every secret. With
``redact_input`` off the long-term store is still clean, and the checkpoints keep
the raw thread, as the README says.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from app.chat_repl import run_repl
from app.runtime import MemoryAgent
from core.context import Context

CORPUS = Path(__file__).resolve().parent / "fixtures" / "secrets_sample.jsonl"


def _positives() -> list[dict]:
    rows = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["secrets"]]


SHORT = 8  # a 4-digit PIN alone turns up inside any uuid: search it with the words before it


def _needles(rows: list[dict]) -> set[bytes]:
    """Each secret value, and each longer line of a multi-line one (a key's body)."""
    out: set[bytes] = set()
    for row in rows:
        for secret in row["secrets"]:
            value = secret["value"]
            if len(value) < SHORT:
                end = row["text"].index(value) + len(value)
                value = row["text"][max(0, end - len(value) - SHORT) : end]
            out.add(value.encode())
            out.update(part.strip().encode() for part in value.splitlines() if len(part.strip()) >= 12)
    return out


def _hits(root: Path, needles: set[bytes]) -> dict[str, int]:
    found: dict[str, int] = {}
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            n = sum(needle in data for needle in needles)
            if n:
                found[str(path.relative_to(root))] = n
    return found


def _chat(ctx: Context, lines: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    feed = iter([*lines, "/end"])

    def ask(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    with MemoryAgent(ctx) as agent:
        assert run_repl(agent, "t1", ask=ask) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("redact_input", [True, False])
def test_corpus_secrets_in_no_file(ctx: Context, redact_input: bool, capsys: pytest.CaptureFixture[str]) -> None:
    rows = _positives()
    assert len(rows) >= 25 and len({s["kind"] for r in rows for s in r["secrets"]}) >= 17
    ctx = replace(ctx, redact_input=redact_input)
    out = _chat(ctx, [r["text"] for r in rows], capsys)
    data, needles = Path(ctx.data_dir), _needles(rows)
    assert (data / "store" / "store.sqlite").exists() and (data / "checkpoints.sqlite").exists()
    assert any((data / "store" / "faiss").iterdir())
    hits = _hits(data, needles)
    if redact_input:
        assert hits == {}
        assert out.count("note: Removed from your message") == len(rows)
    else:
        assert {path for path in hits if not path.startswith("checkpoints.sqlite")} == set()
        assert hits, "with redact_input off the checkpoints keep the raw thread"
        assert "note:" not in out
