"""Issue 45 through the real CLI, embedded default (rules, no model): a short-form name is stored,
an ended diet leaves the profile for its history, and a standing instruction becomes a rule.

Two ``memory-agent`` chat sessions on one data dir (scripted chat model, hash embeddings, rule
review off so the proposed rule is kept), then ``memories --json`` from a fresh call.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli import scripted_cli

_cli = scripted_cli  # tests/support/cli.py: scripted model, hash embeddings, review off


def _chat(data: Path, thread: str, *lines: str) -> None:
    _cli(data, "chat", "--user", "alice", "--thread", thread, stdin="\n".join([*lines, "/end", "/quit"]) + "\n")


def test_name_ended_diet_and_rule_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _chat(data, "s1", "I'm Marta.", "I'm vegetarian.")
    _chat(data, "s2", "I've stopped being vegetarian, I eat fish and chicken again.",
          "Don't use exclamation marks in your replies.")
    memories = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    current = {r["value"]["key"]: r["value"]["value"] for r in memories["profile"]["current"]}
    assert current.get("name") == "Marta"
    assert "diet" not in current  # ended, not current
    ended = [r["value"] for r in memories["profile"]["history"] if r["value"]["key"] == "diet"]
    assert [(r["value"], r["superseded_by"]) for r in ended] == [("vegetarian", "The user is no longer vegetarian.")]
    assert [r["text"] for r in memories["rules"]] == ["Don't use exclamation marks in your replies."]
