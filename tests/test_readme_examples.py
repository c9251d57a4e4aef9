"""Every code example in README.md and docs/*.md runs as written, so a change that breaks one fails here.

Each ```python block, and each ```bash block with a ``memory-agent`` command, carries a
marker comment on the line above: ``<!-- example: NAME -->`` names the handler below that
runs it (only the data dir and model specs are pointed at the test's own), and
``<!-- not run: REASON -->`` says why it cannot run offline (an API key, a server).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from tests.support import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!-- (example|not run): (.+?) -->$")


@dataclass(frozen=True)
class Snippet:
    page: str
    line: int
    lang: str
    code: str
    marker: tuple[str, str] | None  # ("example", name) or ("not run", reason)


def snippets() -> list[Snippet]:
    """Every fenced block of every page, with the marker comment right above it, if any."""
    found: list[Snippet] = []
    for page in PAGES:
        lines = page.read_text().splitlines()
        i = 0
        while i < len(lines):
            opened = FENCE.match(lines[i])
            if not opened:
                i += 1
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            above = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            mark = MARKER.match(above.strip())
            found.append(Snippet(page.relative_to(ROOT).as_posix(), i + 1, opened.group(1),
                                 "\n".join(lines[i + 1:end]) + "\n", (mark.group(1), mark.group(2)) if mark else None))
            i = end + 1
    return found


def cli_lines(code: str) -> list[list[str]]:
    """The ``memory-agent`` commands of a bash block, each as argv with leading VAR=value words."""
    commands = []
    for line in code.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        program = next((w for w in words if "=" not in w), "")
        if program.endswith("memory-agent"):
            commands.append(words)
    return commands


def must_run(snippet: Snippet) -> bool:
    return snippet.lang == "python" or (snippet.lang == "bash" and bool(cli_lines(snippet.code)))


def example(name: str) -> Snippet:
    (snippet,) = [s for s in snippets() if s.marker == ("example", name)]
    return snippet


def run_python(snippet: Snippet, scope: dict) -> dict:
    exec(compile(snippet.code, f"{snippet.page}:{snippet.line}", "exec"), scope)
    return scope


def test_every_example_is_run_or_says_why_not() -> None:
    unmarked = [f"{s.page}:{s.line}" for s in snippets() if must_run(s) and s.marker is None]
    assert not unmarked, f"add <!-- example: NAME --> (and a handler here) or <!-- not run: REASON -->: {unmarked}"
    names = [s.marker[1] for s in snippets() if s.marker and s.marker[0] == "example"]
    handlers = {name[len("test_example_"):].replace("_", "-") for name in globals() if name.startswith("test_example_")}
    assert sorted(names) == sorted(handlers), "each example marker needs exactly one test_example_<name> here"


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data dir, the scripted model and hash embeddings for every ``Context()`` an example makes."""
    from memory.clock import NOW_ENV

    data = tmp_path / "data"
    env = {"MEMORY_DATA_DIR": str(data), "MEMORY_CHAT_MODEL": "scripted", "MEMORY_EMBEDDING_MODEL": "hash:384",
           "MEMORY_USER_ID": "alice", "MEMORY_REVIEW_RULES": "false", NOW_ENV: ""}  # the CLI sets MEMORY_NOW
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return data


def made_agents(monkeypatch: pytest.MonkeyPatch) -> list[tuple[MemoryAgent, dict]]:
    """Every MemoryAgent made from now on, with the keywords it was made with, to look at and close."""
    made: list[tuple[MemoryAgent, dict]] = []
    original = MemoryAgent.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append((self, kwargs))

    monkeypatch.setattr(MemoryAgent, "__init__", init)
    return made


def test_example_custom_layer(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = made_agents(monkeypatch)
    scope = run_python(example("custom-layer"), {})
    try:
        (added, _), (removed, _) = made
        assert added.say("When is my next meeting?", "t1").recalled[-1]["text"] == (
            "Design review with Priya on Friday at 10:00.")
        assert "calendar" in {layer.name for layer in added.layers}
        assert "episodic" not in {layer.name for layer in removed.layers}
        assert scope["agent"] is removed
    finally:
        for agent, _ in made:
            agent.close()


def test_example_add_a_tool(offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from langgraph.runtime import Runtime

    made = made_agents(monkeypatch)
    scope = run_python(example("add-a-tool"), {"MemoryAgent": MemoryAgent})  # imported above it on the page
    ((agent, kwargs),) = made
    try:
        assert "tools" in agent.graph.get_graph().nodes
        tools = kwargs["tool_factory"](Runtime(context=agent.context, store=agent.store), {})
        assert {"weather", "remember", "search_memory", "forget", "memory"} <= {t.name for t in tools}
        assert scope["weather"].invoke({"city": "Lisbon"}) == "Sunny in Lisbon."
    finally:
        agent.close()


def test_example_swap_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snippet = example("swap-the-store")
    code = snippet.code.replace('load_embeddings("local")', 'load_embeddings("hash:384")')
    monkeypatch.chdir(tmp_path)  # "./data" is the example's data dir
    graph = run_python(Snippet(snippet.page, snippet.line, "python", code, None), {})["graph"]
    assert {"retrieve", "assemble", "respond", "consolidate"} <= set(graph.get_graph().nodes)
    assert (tmp_path / "data" / "checkpoints.sqlite").exists()


def test_example_custom_verifier() -> None:
    from core.auth_tokens import Unauthenticated, active_verifier, bearer_user, use_verifier

    class Sessions:  # the example's own session service
        def user_for(self, token: str) -> str | None:
            return {"s-1": "alice"}.get(token)

    before = active_verifier()
    try:
        run_python(example("custom-verifier"), {"my_sessions": Sessions()})
        assert bearer_user("Bearer s-1") == "alice"
        with pytest.raises(Unauthenticated):
            bearer_user("Bearer s-2")  # None from the verifier: rejected
    finally:
        use_verifier(before)


def test_example_knowledge(offline: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """The knowledge lines run in order on one fresh data dir: the repository's own docs become the knowledge base."""
    from app.cli import main

    monkeypatch.chdir(ROOT)
    for words in cli_lines(example("knowledge").code):
        assert main(words[1:]) == 0, f"{shlex.join(words)}: {capsys.readouterr().err}"
    out = capsys.readouterr().out
    assert "privacy.md" in out and "removed" in out  # search cited it, then it was removed


def test_example_cli(offline: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """The CLI lines run in order on one fresh data dir, in this process (the CLI's own ``main``)."""
    from app.cli import main

    monkeypatch.chdir(ROOT)  # the examples name files relative to the repository
    ran = []
    for words in cli_lines(example("cli").code):
        program = next(k for k, word in enumerate(words) if "=" not in word)  # after any VAR=value
        for setting in words[:program]:
            monkeypatch.setenv(*setting.split("=", 1))
        argv = words[program + 1:]
        assert main(argv) == 0, f"memory-agent {shlex.join(argv)}: {capsys.readouterr().err}"
        ran.append(argv[2] if argv[0] == "--now" else argv[0])
    assert {"import", "recall", "memories", "forget", "upkeep", "delete-user"} <= set(ran)
    assert "Pixel" in capsys.readouterr().out  # recall found the imported dog's name
