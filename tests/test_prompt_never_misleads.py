"""A prompt that never misleads, through the real CLI's ``/prompt`` (and MCP's ``memory_block``):

- a review question is an instruction outside every ``<memories>`` block, at most one per turn,
  and only on a turn whose message touches its slot;
- the assistant's past replies come only as a recalled user turn's marked context, or when the
  user asks what the assistant said, and its filler never;
- an episode never restates a value the user has since changed as current.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from tests.support.knowledge import cli
from tests.support.mcp_client import call, stdio_session

REVIEW = "is that still right?"
FILLER = "I don't have anything remembered about you yet."
PIZZA = "Pizza Margherita is a classic, made with coconut milk instead of mozzarella."
_BLOCK = re.compile(r"<memories kind=\"(?P<kind>[a-z]+)\">\n(?P<body>.*?)</memories>", re.DOTALL)


def say(data: Path, now: str, thread: str, *lines: str) -> list[str]:
    """One chat session at ``now``; the system prompt each ``/prompt`` among ``lines`` printed."""
    out = cli(data, "--now", now, "chat", "--user", "u", "--thread", thread,
              stdin="".join(f"{line}\n" for line in (*lines, "/quit"))).stdout
    return [p.split("----- end of prompt -----", 1)[0] for p in out.split("----- system prompt -----")[1:]]


def blocks(prompt: str, kind: str | None = None) -> list[str]:
    """The quoted memories of the prompt's ``<memories>`` blocks (of one ``kind``), unquoted."""
    return [json.loads(line[2:]) for b in _BLOCK.finditer(prompt) if kind in (None, b["kind"])
            for line in b["body"].splitlines() if line.startswith("- ")]


def data_blocks(prompt: str) -> str:
    return "\n".join(b.group(0) for b in _BLOCK.finditer(prompt))


def test_a_review_is_one_instruction_outside_the_data_and_only_when_the_message_touches_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    say(data, "2026-01-05T10:00:00Z", "t1", "I'm vegetarian.", "I live in Porto.", "I work as a nurse.", "/end")
    upkeep = cli(data, "--now", "2026-01-06T10:00:00Z", "upkeep", "--user", "u", "--no-progress").stdout
    assert "review dates set 3" in upkeep, upkeep
    # Four months on, all three are due; a cooking question bears on the diet only.
    cooking, joke, move = say(data, "2026-05-20T10:00:00Z", "t2", "What should I cook tonight?", "/prompt",
                              "Tell me a joke about the sea.", "/prompt", "Should I move to a bigger city?", "/prompt")
    asked = [line for line in cooking.splitlines() if REVIEW in line]
    assert len(asked) == 1 and "vegetarian" in asked[0], cooking
    assert REVIEW not in data_blocks(cooking) and "Ask the user" not in data_blocks(cooking)
    assert cooking.index(asked[0]) < cooking.index("<memories kind=")  # with the instructions, before the data
    assert "Porto" not in asked[0] and "nurse" not in asked[0]
    assert FILLER not in cooking  # the first session's filler reply is not a memory
    assert REVIEW not in joke  # touches no slot: no question at all
    [city] = [line for line in move.splitlines() if REVIEW in line]
    assert "Porto" in city and REVIEW not in data_blocks(move)


def _import(data: Path, *rows: tuple[str, str, str, str]) -> None:
    path = data.parent / "import.jsonl"
    path.write_text("".join(json.dumps({"thread": t, "id": f"{t}-{n}", "time": at, "role": role, "text": text}) + "\n"
                            for n, (t, at, role, text) in enumerate(rows)))
    cli(data, "import", "--user", "u", "--no-progress", str(path))


PAST = (("a", "2026-03-02T10:00:00Z", "user", "What pizza should I bake for the party on Saturday?"),
        ("a", "2026-03-02T10:00:05Z", "assistant", PIZZA),
        ("c", "2026-03-03T10:00:00Z", "user", "Do you remember anything about my party?"),
        ("c", "2026-03-03T10:00:05Z", "assistant", FILLER))


def test_assistant_replies_come_only_beside_their_user_turn_or_when_asked_and_filler_never(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _import(data, *PAST)
    about, anything, told = say(data, "2026-04-01T10:00:00Z", "b",
                                "Is pizza margherita good with coconut milk?", "/prompt",
                                "Have you remembered anything about me yet?", "/prompt",
                                "What did you tell me about pizza?", "/prompt")
    for prompt in (about, anything, told):
        assert FILLER not in prompt
    for prompt in (about, anything):  # not asked what the assistant said: never a reply of its own
        assert not any(re.match(r"\[[^\]]*\] assistant:", m) for m in blocks(prompt, "message")), prompt
    [pizza] = [m for m in blocks(about, "message") if "coconut" in m]
    head, reply = pizza.split("\n")
    assert head.startswith("[2 March 2026] user: What pizza") and reply == f"[2 March 2026] assistant replied: {PIZZA}"
    assert any(PIZZA in m for m in blocks(told, "message"))


def test_an_episode_never_shows_a_superseded_value_as_current(tmp_path: Path) -> None:
    data = tmp_path / "data"
    say(data, "2026-03-02T10:00:00Z", "a", "I live in Porto.", "I adopted a cat called Miso.", "/end")
    say(data, "2026-07-01T10:00:00Z", "b", "I moved to Lisbon.", "/end")
    [prompt] = say(data, "2026-08-01T10:00:00Z", "c", "Remind me about Miso and Porto.", "/prompt")
    episodes = blocks(prompt, "episode")
    assert any("Porto" in e for e in episodes), prompt  # the session is recalled ...
    for line in (line for e in episodes for line in e.splitlines() if "Porto" in line):
        assert "(as of 2026-03-02) I live in Porto." in line, prompt  # ... its old home dated, never current
    assert "The user lives in Lisbon." in blocks(prompt, "profile")


def test_mcp_memory_block_and_recall_hold_the_same_lines(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _import(data, *PAST)

    async def go() -> None:
        async with stdio_session(data, "u") as s:
            block = (await s.get_prompt("memory_block", {"query": "Is pizza margherita good with coconut milk?"}))
            text = block.messages[0].content.text  # type: ignore[union-attr]
            assert FILLER not in text
            assert any(m.startswith("[2 March 2026] user: What pizza") and PIZZA in m for m in blocks(text, "message")), text
            found = (await call(s, "recall", query="Have you remembered anything about me yet?",
                                kinds=["message"]))["results"]
            assert found and not any(FILLER in r["text"] for r in found)
            assert not any(r["text"].startswith("[2 March 2026] assistant:") for r in found)

    asyncio.run(go())


def test_filler_is_told_from_substance() -> None:
    from memory.chatter import substance

    for filler in (FILLER, "I'm not sure.", "Sorry, I can't help with that.", "Hello! How can I help you today?",
                   "Noted, thanks for telling me.", "OK, got it!"):
        assert substance(filler) == "", filler
    assert substance("Sure! Try a risotto with mushrooms.") == "Try a risotto with mushrooms."
    assert substance("Great question, the capital is Paris.") == "Great question, the capital is Paris."


def test_a_named_second_speaker_of_an_imported_dialogue_is_a_person_and_still_recalled(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = tmp_path / "dialogue.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in (
        {"thread": "s1", "id": "D1:1", "time": "2026-03-02T10:00:00Z", "role": "user", "name": "Caroline",
         "text": "How was your weekend?"},
        {"thread": "s1", "id": "D1:2", "time": "2026-03-02T10:01:00Z", "role": "assistant", "name": "Melanie",
         "text": "I painted a lake sunrise with my kids on Saturday."})))
    cli(data, "import", "--user", "u", "--no-progress", str(path))
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"id": "q1", "query": "Melanie painted a lake sunrise with her kids"}) + "\n")
    [line] = cli(data, "recall", "--user", "u", "--kind", "message", "--k", "3", str(queries)).stdout.splitlines()
    assert any(r["sources"] == ["D1:2"] and "Melanie: I painted" in r["text"] for r in json.loads(line)["results"]), line
