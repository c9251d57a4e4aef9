"""People and pets through the real CLI (scripted chat model, hash embeddings): a partner and a pet
introduced in two sessions, recalled by the relation word in a later thread (seen in ``/prompt``),
a break-up then a new partner, the export, forget, and another user who sees none of it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.support.cli import scripted_cli

_cli = scripted_cli  # tests/support/cli.py: scripted model, hash embeddings, review off


def _chat(data: Path, thread: str, *lines: str, user: str = "alice") -> str:
    return _cli(data, "chat", "--user", user, "--thread", thread, stdin="\n".join(lines) + "\n/quit\n")


def _people(data: Path, user: str = "alice") -> dict[str, dict[str, Any]]:
    export = json.loads(_cli(data, "memories", "--user", user, "--json"))
    return {p["value"]["name"]: p["value"] for p in export["people"]}


def test_people_and_pets_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _chat(data, "s1", "I'm seeing someone new, her name is Marta.", "/end")
    _chat(data, "s2", "I adopted a cat called Pierogi.", "/end")
    prompt = _chat(data, "s3", "How should I celebrate with my girlfriend?", "/prompt").split("system prompt", 1)[1]
    block = prompt.split('<memories kind="person">', 1)[1].split("</memories>", 1)[0]
    assert "Marta: the user's partner" in block and "Pierogi" not in block

    _chat(data, "s4", "Marta and I broke up.", "I'm dating Sam now.", "/end")
    people = _people(data)
    assert (people["Marta"]["relation"], people["Marta"]["current"]) == ("ex_partner", False)
    assert (people["Sam"]["relation"], people["Sam"]["current"]) == ("partner", True)
    assert (people["Pierogi"]["relation"], people["Pierogi"]["species"]) == ("pet", "cat")
    assert "People and pets:" in _cli(data, "memories", "--user", "alice")
    assert _people(data, "bob") == {}  # kept apart per user

    _cli(data, "forget", "--user", "alice", "Marta")
    after = json.loads(_cli(data, "memories", "--user", "alice", "--json"))
    assert "marta" not in json.dumps(after).lower()
    assert set(_people(data)) == {"Sam", "Pierogi"}


def test_the_memory_page_shows_people_and_forgets_one_by_name(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from app.runtime import MemoryAgent
    from app.ui.source import LocalSource
    from app.ui.web import build_app
    from core.context import Context

    ctx = Context(data_dir=str(tmp_path / "data"), embedding_model="hash:64", chat_model="scripted",
                  user_id="alice", consolidation_delay_s=0.0, review_rules=False)
    with MemoryAgent(ctx) as agent:
        agent.say("I adopted a cat called Pierogi.", "t1")
        page = TestClient(build_app(LocalSource(agent)))
        home = page.get("/").text
        assert "Pierogi: the user&#39;s pet cat." in home and "1 people and pets" in home
        assert "Pierogi" in page.get("/list/people").text
        token = re.findall(r'name="csrf" value="([^"]+)"', home)[0]
        preview = page.post("/forget/preview", data={"csrf": token, "kind": "person", "key": "pet:pierogi"})
        assert preview.status_code == 200 and "Forget “pierogi”?" in preview.text  # her name, not her line
        shown = re.findall(r'<li class="preview">([^<]+)</li>', preview.text)
        assert "Pierogi: the user&#39;s pet cat." in shown and any(s.startswith("I adopted a cat called Pierogi") for s in shown)
