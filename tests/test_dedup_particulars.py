"""Dedup never merges facts that differ in a number, a name or an identifier (issue 43, item 8).

With MiniLM, twenty "/remember My locker number N code word is zetaN." lines
each answered "(remembered 1 fact(s))" while only 4 of 20 were kept: their
vectors sit above ``dedup_threshold``, so each new fact was taken for an old one.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path
from unittest import mock

import pytest

from app import cli
from app.runtime import MemoryAgent
from memory.layers.semantic import remember_outcomes
from memory.particulars import same_particulars
from memory.upkeep.merge import merge_step
from stores.namespaces import FACTS


def _cli(data: Path, *args: str, stdin: str = "") -> str:
    out = io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)), redirect_stdout(out):
        assert cli.main(["--data-dir", str(data), "--chat-model", "scripted", "--embedding-model", "local",
                         *args]) == 0
    return out.getvalue()


def _facts(data: Path) -> str:
    return json.dumps(json.loads(_cli(data, "memories", "--user", "alice", "--json")))


def test_twenty_lockers_are_twenty_facts_with_minilm(tmp_path: Path) -> None:
    data = tmp_path / "data"
    lines = [f"/remember My locker number {n} code word is zeta{n}." for n in range(1, 21)]
    out = _cli(data, "chat", "--user", "alice", "--thread", "t1", stdin="\n".join(lines) + "\n")
    assert out.count("(remembered 1 fact(s))") == 20, out
    kept = _facts(data)
    assert [n for n in range(1, 21) if f"zeta{n}." not in kept] == []
    again = _cli(data, "chat", "--user", "alice", "--thread", "t1", stdin=lines[4] + "\n")
    assert "(remembered: 1 already known)" in again  # a true re-statement is said to be known, not new


@pytest.mark.parametrize(("a", "b"), [
    ("My locker number 7 code word is zeta7.", "My locker number 12 code word is zeta12."),
    ("My sister Anna lives in Porto.", "My sister Ilse lives in Porto."),
    ("My work e-mail is ana.silva@acme.io.", "My work e-mail is ana.silva@acme.com."),
    ("The order ORD-48213 was late.", "The order ORD-48214 was late."),
    ("I take the 7:15 train.", "I take the 7:45 train."),
])
def test_facts_that_differ_in_a_particular_are_never_merged(ctx, a: str, b: str) -> None:
    """Through the write path, and through upkeep's merge, on an embedding that calls them equal."""
    assert not same_particulars(a, b)
    with MemoryAgent(ctx) as agent:
        env = agent.env()
        with mock.patch("memory.layers.semantic_records.cosines", lambda env, text, others: [1.0] * len(others)):
            assert [done for done, _ in remember_outcomes(env, a)] == ["new"]
            assert [done for done, _ in remember_outcomes(env, b)] == ["new"]
        texts = sorted(i.value["text"] for i in env.store.search(env.scope.ns(FACTS), limit=10))
        assert len(texts) == 2, texts
        merge_step(replace(env, context=replace(env.context, dedup_threshold=-1.0)), dry_run=False)  # every pair near
        assert len(env.store.search(env.scope.ns(FACTS), limit=10)) == 2


def test_a_true_restatement_is_still_one_fact(ctx) -> None:
    with MemoryAgent(ctx) as agent:
        env = agent.env()
        assert [d for d, _ in remember_outcomes(env, "My locker number 7 code word is zeta7.")] == ["new"]
        assert [d for d, _ in remember_outcomes(env, "My locker number 7 code word is zeta7.")] == ["already known"]
        assert same_particulars("Coffee is my favourite drink.", "I love coffee, my favourite drink.")
