"""`memory-agent mcp --user U` driven end to end by the SDK's stdio client, as Claude Desktop starts it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tests.support.mcp_client import SECRET, call, cli, fails, files_holding, resource_json, server_env, stdio_session

TOOLS = {
    "remember", "recall", "forget", "what_do_you_remember", "memory_off", "memory_on", "log_turn", "end_session",
    "confirm_rule", "memory_file_view", "memory_file_create", "memory_file_str_replace", "memory_file_insert",
    "memory_file_delete", "memory_file_rename",
}


def test_every_tool_resource_and_prompt_over_stdio(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def go() -> None:
        async with stdio_session(data, "alice") as s:
            assert {t.name for t in (await s.list_tools()).tools} == TOOLS
            stored = await call(s, "remember", text="I live in Lisbon. I'm vegetarian.")
            assert [r["text"] for r in stored["stored"]] == ["The user lives in Lisbon.", "The user is vegetarian."]
            found = (await call(s, "recall", query="where does the user live?", k=3))["results"]
            lisbon = next(r for r in found if r["text"] == "The user lives in Lisbon.")
            assert lisbon["score"] > 0 and lisbon["date"] and lisbon["sources"] and lisbon["id"]
            assert all(r["kind"] == "fact" for r in (await call(s, "recall", query="lisbon", kinds=["fact"]))["results"])
            profile = resource_json(await s.read_resource("memory://profile"))
            assert any("Lisbon" in slot["text"] for slot in profile)
            assert resource_json(await s.read_resource("memory://rules")) == []
            block = await s.get_prompt("memory_block", {"query": "what should I cook?"})
            assert "vegetarian" in block.messages[0].content.text and "<memories" in block.messages[0].content.text
            page = await call(s, "what_do_you_remember")
            assert page["pages"] == 1 and {i["text"] for i in page["items"]} >= {"The user lives in Lisbon."}
            # the client's conversation: logged, then consolidated into an episode
            assert (await call(s, "log_turn", role="user", text="My sister Ana lives in Porto."))["logged"]
            await call(s, "log_turn", role="assistant", text="Noted, Ana in Porto.")
            assert (await call(s, "end_session"))["ended"]
            after = await call(s, "what_do_you_remember")
            assert any(i["kind"] == "episode" for i in after["items"])
            # memory files, with their path safety
            assert "Created" in await call(s, "memory_file_create", path="/memories/notes.md", file_text="a\nb\n")
            await call(s, "memory_file_str_replace", path="/memories/notes.md", old_str="b", new_str="c")
            await call(s, "memory_file_insert", path="/memories/notes.md", insert_line=0, insert_text="top")
            await call(s, "memory_file_rename", old_path="/memories/notes.md", new_path="/memories/n.md")
            assert "top" in await call(s, "memory_file_view", path="/memories/n.md")
            assert "n.md" in await call(s, "memory_file_view")
            escapes = ("/memories/../../escape.md", "/etc/passwd", "/memories/a/../../../escape.md", "../escape.md",
                       "/memories/x\x00.md")
            for bad in escapes:
                await fails(s, "memory_file_create", path=bad, file_text="x")
                await fails(s, "memory_file_rename", old_path="/memories/notes.md", new_path=bad)
            await call(s, "memory_file_delete", path="/memories/n.md")
            # forget: a preview and a token first, deletion only on the second call
            preview = await call(s, "forget", text_or_id="Lisbon")
            assert preview["count"] >= 1 and any("Lisbon" in line for line in preview["preview"])
            assert (await call(s, "recall", query="lisbon"))["results"]  # nothing deleted yet
            await fails(s, "forget", text_or_id="Lisbon", confirm="not-the-token")
            done = await call(s, "forget", text_or_id="Lisbon", confirm=preview["confirm"])
            assert done["deleted"]
            await fails(s, "forget", text_or_id="Lisbon", confirm=preview["confirm"])  # a token is used once
            assert not [r for r in (await call(s, "recall", query="lisbon"))["results"] if "Lisbon" in r["text"]]

    asyncio.run(go())
    assert not files_holding(data, b"Lisbon")
    assert not list(tmp_path.rglob("escape.md"))


def test_memory_off_refuses_every_write_and_secrets_stay_out(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def go() -> None:
        async with stdio_session(data, "bob") as s:
            assert (await call(s, "remember", text=f"My API key is {SECRET}"))["refused"]
            logged = await call(s, "log_turn", role="user", text=f"use this key: {SECRET} for the deploy")
            assert logged["logged"] and logged["redacted"]
            await call(s, "end_session")
            await call(s, "memory_off")
            assert (await call(s, "remember", text="I live in Oslo."))["refused"]
            assert not (await call(s, "log_turn", role="user", text="I work at Equinor in Oslo."))["logged"]
            assert "off" in await fails(s, "memory_file_create", path="/memories/x.md", file_text="Oslo")
            assert (await call(s, "recall", query="oslo"))["results"] == []
            await call(s, "memory_on")
            assert (await call(s, "remember", text="I live in Bergen."))["stored"]

    asyncio.run(go())
    assert not files_holding(data, SECRET.encode())
    assert not files_holding(data, b"Oslo")


def test_malformed_and_oversized_arguments_get_a_tool_error_and_store_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def go() -> None:
        async with stdio_session(data, "carol") as s:
            assert "text" in await fails(s, "remember")
            assert await fails(s, "remember", text=["not", "a", "string"])
            assert "too long" in await fails(s, "remember", text="Zanzibar " * 2000)
            assert "too long" in await fails(s, "log_turn", role="user", text="Zanzibar " * 2000)
            assert "role" in await fails(s, "log_turn", role="system", text="Zanzibar is nice")
            assert "empty" in await fails(s, "remember", text="   ")
            assert "k must be" in await fails(s, "recall", query="x", k=0)
            assert "unknown kind" in await fails(s, "recall", query="x", kinds=["secrets"])
            assert await fails(s, "recall", query="x", k="many")
            assert await fails(s, "memory_file_insert", path="/memories/a.md", insert_line="top", insert_text="x")
            assert "page" in await fails(s, "what_do_you_remember", page=0)
            assert (await call(s, "what_do_you_remember"))["total"] == 0

    asyncio.run(go())
    assert not files_holding(data, b"Zanzibar")


def test_no_user_is_one_line_and_exit_2(tmp_path: Path) -> None:
    import subprocess

    out = subprocess.run(cli(tmp_path / "data", "mcp"), env=server_env(), capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--user" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert json.dumps(out.stdout) == '""'


def test_a_rule_from_log_turn_waits_for_the_users_confirmation(tmp_path: Path) -> None:
    """Rule review (on by default) holds over MCP too: a rule is kept only with the user's confirm token."""
    data = tmp_path / "data"

    async def go() -> None:
        async with stdio_session(data, "carol") as s:
            logged = await call(s, "log_turn", role="user", text="From now on, answer in French.")
            assert logged["logged"]
            [pending] = logged["rules_to_confirm"]
            assert pending["rule"] == "Answer in French." and pending["action"] == "add" and pending["confirm"]
            assert resource_json(await s.read_resource("memory://rules")) == []  # not kept yet
            await fails(s, "confirm_rule", confirm="not-the-token")
            assert resource_json(await s.read_resource("memory://rules")) == []
            saved = await call(s, "confirm_rule", confirm=pending["confirm"])
            assert saved["saved"] and saved["rule"] == "Answer in French."
            assert [r["text"] for r in resource_json(await s.read_resource("memory://rules"))] == ["Answer in French."]
            await fails(s, "confirm_rule", confirm=pending["confirm"])  # a token is used once
            # a rule the user is not asked about is never kept; a declined one simply expires unused
            again = await call(s, "log_turn", role="user", text="From now on, don't use emojis.")
            assert [p["rule"] for p in again["rules_to_confirm"]] == ["Do not use emojis."]
            assert len(resource_json(await s.read_resource("memory://rules"))) == 1
            # memory switched off between the proposal and the confirmation: nothing is kept
            await call(s, "memory_off")
            off = await call(s, "confirm_rule", confirm=again["rules_to_confirm"][0]["confirm"])
            assert not off["saved"] and "off" in off["note"]
            await call(s, "memory_on")
            assert len(resource_json(await s.read_resource("memory://rules"))) == 1

    asyncio.run(go())


def test_with_rule_review_off_log_turn_keeps_the_rule_at_once(tmp_path: Path) -> None:
    data = tmp_path / "data"

    async def go() -> None:
        async with stdio_session(data, "erin", MEMORY_REVIEW_RULES="false") as s:
            logged = await call(s, "log_turn", role="user", text="From now on, answer in French.")
            assert logged["logged"] and "rules_to_confirm" not in logged
            assert [r["text"] for r in resource_json(await s.read_resource("memory://rules"))] == ["Answer in French."]

    asyncio.run(go())
