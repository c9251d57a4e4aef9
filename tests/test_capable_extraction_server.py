"""A provider spec extracts facts and rules at session end with no code change: the CLI and `langgraph dev`.

The model is llama.cpp's real OpenAI-compatible server on the embedded 135M GGUF, behind a proxy
that records what was asked. It is no capable model (what it proposes is mostly noise, often cut
off mid-JSON), so the checks are the mechanics: the spec alone turned extraction on, one
structured-output request was made at session end, and whatever came back passed the write
policy: nothing the user did not say was stored, and a malformed answer broke nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.base import LoggedMessage
from memory.layers.procedural import model_feedback
from memory.write_policy.llm import ExtractedFacts
from memory.write_policy.llm_rules import ExtractedRule, grounded_rules
from stores.namespaces import RULES, UserScope
from tests.support import cli as in_process
from tests.support.extract_helpers import SAID_AT
from tests.support.langgraph_dev import SERVER_ENV, dev_server
from tests.support.recording_proxy import RecordingProxy
from tests.support.server_client import client, items, run, say

FACT = "I live in Lisbon and I am allergic to peanuts."
FEEDBACK = "From now on, keep your answers short and never use emojis."
SAID = (FACT, FEEDBACK)
EXTRACTION_TOKENS = 96  # enough for a few items; the tiny model often runs past it (the malformed path)
SPEC = "openai:smollm"
SCHEMA = ExtractedFacts.__name__


@pytest.fixture
def proxy(llama_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[RecordingProxy]:
    recording = RecordingProxy(llama_server("smollm"))
    monkeypatch.setenv("OPENAI_BASE_URL", recording.url)
    monkeypatch.setenv("OPENAI_API_KEY", "not-checked")
    yield recording
    recording.close()


def proposed(answer: dict[str, Any]) -> dict[str, Any]:
    """The model's raw proposals in one structured answer ({} when it is not JSON: cut off, say)."""
    calls = answer["choices"][0]["message"].get("tool_calls") or []
    try:
        data = json.loads(calls[0]["function"]["arguments"]) if calls else {}
    except json.JSONDecodeError:
        return {}
    return data if isinstance(data, dict) else {}


def check_session_end(proxy: RecordingProxy, stored: list[dict[str, Any]]) -> None:
    """One structured request at session end, on the user's words only; nothing stored that they did not say."""
    asked = proxy.structured(SCHEMA)
    assert len(asked) == 1, [q.get("tool_choice") for q, _ in proxy.exchanges]  # facts and rules: one call
    request, answer = asked[0]
    assert request["max_tokens"] == EXTRACTION_TOKENS  # the extraction's own budget, not a chat reply's
    sent = json.dumps(request["messages"])
    assert "Lisbon" in sent and "never use emojis" in sent  # the user's words, and not the assistant's:
    replies = [(a["choices"][0]["message"].get("content") or "").strip() for q, a in proxy.exchanges if q is not request]
    assert not any(json.dumps(r[:40])[1:-1] in sent for r in replies if len(r) >= 12), replies
    said = [LoggedMessage(id=f"m{i}", thread="t", time=SAID_AT, role="user", text=t) for i, t in enumerate(SAID)]
    rules = proposed(answer).get("rules")
    grounded = {model_feedback(p).rule for p in grounded_rules(_valid(rules if isinstance(rules, list) else []), said)}
    assert {r["text"] for r in stored if r.get("by") == "model"} <= grounded, (stored, rules)  # nothing unsaid
    for rule in stored:
        assert rule["sources"] and rule["text"].strip(), rule


def _valid(items: list[Any]) -> list[ExtractedRule]:
    kept = []
    for item in items:
        try:
            kept.append(ExtractedRule.model_validate(item))
        except ValueError:
            continue
    return kept


@pytest.mark.slow
def test_the_cli_extracts_at_session_end_through_the_server(proxy: RecordingProxy, tmp_path: Path) -> None:
    env = {**os.environ, **SERVER_ENV}  # the proxy's URL and key are set by the fixture
    data = tmp_path / "data"
    args = ["--data-dir", str(data), "--chat-model", SPEC, "chat", "--user", "alice", "--thread", "t1",
            "--set", "max_new_tokens=16", "--set", f"extraction_max_tokens={EXTRACTION_TOKENS}", "--set", "review_rules=false", "--set", "chat_tools=off"]
    done = in_process.main(args, stdin=f"{FACT}\n{FEEDBACK}\n/end\n/quit\n", env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    ctx = Context(user_id="alice", data_dir=str(data), chat_model=SPEC, embedding_model="hash:384")
    with MemoryAgent(ctx) as agent:
        rules = [i.value for i in agent.store.search(UserScope("alice").ns(RULES), limit=50)]
    assert "Keep answers concise." in [r["text"] for r in rules]  # the per-turn patterns ran as ever
    check_session_end(proxy, rules)


@pytest.mark.slow
def test_langgraph_dev_extracts_at_session_end_through_the_server(
    proxy: RecordingProxy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMORY_AUTH_TOKENS", "tok-a=alice")
    monkeypatch.setenv("MEMORY_MAX_NEW_TOKENS", "16")  # limits are the server's, from its environment
    monkeypatch.setenv("MEMORY_EXTRACTION_MAX_TOKENS", str(EXTRACTION_TOKENS))
    context = {"chat_model": SPEC, "review_rules": False, "chat_tools": "off"}  # the spec alone turns extraction on

    async def session(url: str) -> list[dict[str, Any]]:
        alice = client(url, "tok-a")
        thread = (await alice.threads.create())["thread_id"]
        for text in (FACT, FEEDBACK):
            await run(alice, thread, context, input=say(text))
        before = len(proxy.structured(SCHEMA))
        assert before == 0  # nothing extracted per turn: the model is asked at session end
        out = await run(alice, thread, context, input={"mode": "end_session"})
        assert not out.get("error"), out.get("error")
        return [i["value"] for i in await items(alice, ["users", "alice", RULES])]

    with dev_server(tmp_path, tmp_path / "data") as (url, _proc, log):
        rules = asyncio.run(session(url))
        assert "Traceback" not in log.read_text(errors="replace")
    assert "Keep answers concise." in [r["text"] for r in rules]
    check_session_end(proxy, rules)
