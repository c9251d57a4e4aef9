"""The five checks of a working chat memory, through the real CLI, one call per step.

Each step is a separate `memory-agent` call fed through stdin that opens and closes the
agent on the data dir, so every check crosses a restart (in this process; the canary
below crosses real processes). They run with the scripted chat model and hash
embeddings (exact and fast), with the embedded default models (slow), and with
``openai:`` pointed at a real llama.cpp server (slow; tests/support/llama_server.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.agent_cli import MODELS, Cli, assert_respects


@pytest.mark.parametrize(
    ("models", "backend"),
    [
        ("scripted", "local"),
        ("scripted", "postgres"),
        pytest.param("local", "local", marks=pytest.mark.slow),
        pytest.param("openai", "local", marks=pytest.mark.slow),
    ],
    indirect=["backend"],
)
def test_five_checks(
    tmp_path: Path, models: str, backend, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if models == "openai":  # the CLI processes inherit these
        monkeypatch.setenv("OPENAI_BASE_URL", request.getfixturevalue("llama_server")("smollm"))
        monkeypatch.setenv("OPENAI_API_KEY", "not-checked-by-llama-cpp")
    data = tmp_path / "data"
    cli = Cli(data, MODELS[models])

    # 1. Tell it your diet, restart, ask for a recipe: the diet is in the assembled prompt,
    # and the answer respects it or says plainly where it does not.
    cli.chat("alice", "s1", "I'm vegetarian.", "/end")
    prompt, answer, check = cli.turn("alice", "s2", "Can you suggest a recipe for dinner?")
    assert "vegetarian" in prompt
    assert "checked: diet: vegetarian" in check
    assert_respects(answer, "The user is vegetarian.")

    # 2. Change your diet: the old value no longer appears in the profile.
    cli.chat("alice", "s3", "I'm vegan now.", "/end")
    prompt = cli.prompt_after("alice", "s4", "Any recipe ideas?")
    profile_block = prompt.split('<memories kind="profile">', 1)[1].split("</memories>", 1)[0]
    assert "vegan" in profile_block and "vegetarian" not in profile_block
    exported = cli.export("alice")
    assert any("vegetarian" in json.dumps(h) for h in exported["profile"]["history"])

    # 3. Say the same fact three times: it is stored once.
    cli.chat("alice", "s5", "I'm allergic to peanuts.", "I'm allergic to peanuts.", "I'm allergic to peanuts.", "/end")
    exported = cli.export("alice")
    kept = [r for r in exported["profile"]["current"] + exported["facts"] if "peanut" in json.dumps(r).lower()]
    assert len(kept) == 1, kept

    # 5. A second user sees none of the first user's memories.
    bob_prompt = cli.prompt_after("bob", "b1", "What do you know about me? Any recipe?")
    for word in ("vegan", "vegetarian", "peanut"):
        assert word not in bob_prompt.lower()
    bob = cli.export("bob")
    assert not bob["profile"]["current"] and not bob["facts"] and not bob["episodes"]

    # 4. After /forget, a restart shows no trace of the fact in any file of the data dir.
    cli.chat("alice", "s6", "/forget peanuts")
    cli.export("alice")  # a fresh process opens (and reconciles) everything again
    assert backend.files_containing(data, b"peanut") == []
    assert "vegan" in json.dumps(cli.export("alice")["profile"]["current"])  # the rest survives


def test_what_one_process_stored_the_next_process_recalls_and_forget_reaches_the_files(tmp_path: Path) -> None:
    """The canary of a restart across real processes: checks 1 and 4 with a new ``python -m app.cli`` per step."""
    data = tmp_path / "data"
    cli = Cli(data, MODELS["scripted"], process=True)
    cli.chat("alice", "s1", "I'm vegetarian.", "I'm allergic to peanuts.", "/end")
    prompt, _, check = cli.turn("alice", "s2", "Can you suggest a recipe for dinner?")
    assert "vegetarian" in prompt and "diet: vegetarian" in check
    cli.chat("alice", "s3", "/forget peanuts")
    exported = cli.export("alice")  # a fresh process opens (and reconciles) everything again
    assert "peanut" not in json.dumps(exported).lower() and "vegetarian" in json.dumps(exported)
    assert [str(p) for p in data.rglob("*") if p.is_file() and b"peanut" in p.read_bytes().lower()] == []
