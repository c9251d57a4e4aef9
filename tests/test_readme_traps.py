"""The README, run as written: traps a user walks into through the real CLI (issue 25, section 6)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.cli_run import FAST, cli_env, export, run_cli
from tests.support.llama_server import free_port

NOW = "2025-03-01T09:00:00Z"


def _one_line_error(done, rc: int = 2) -> str:
    """The error a command printed: exactly one line on stderr, no traceback, exit ``rc``."""
    assert done.returncode == rc, (done.returncode, done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert done.stderr.count("\n") == 1, done.stderr[-3000:]
    return done.stderr.strip()


def _import(data: Path, user: str, *rows: tuple[str, str, str, str]) -> None:
    """Import ``(thread, time, role, text)`` rows for ``user``."""
    path = data.parent / f"import-{user}-{len(list(data.parent.glob('import-*')))}.jsonl"
    path.write_text("".join(json.dumps({"thread": t, "id": f"{t}-{n}", "time": when, "role": role, "text": text}) + "\n"
                            for n, (t, when, role, text) in enumerate(rows)))
    done = run_cli(data, *FAST, "import", "--user", user, "--no-progress", str(path))
    assert done.returncode == 0, done.stderr[-2000:]


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _no_openai() -> dict[str, str]:
    return {k: v for k, v in cli_env().items() if not k.startswith("OPENAI_")}


# -- a misconfigured capable model --------------------------------------------------------------


def test_a_capable_model_without_an_api_key_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", "--embedding-model", "hash:64", "--chat-model", "openai:gpt-4o-mini",
                   "chat", "--user", "me", stdin="Hello there.\n/quit\n", env=_no_openai())
    line = _one_line_error(done)
    assert line.startswith("memory-agent chat: error:") and "OPENAI_API_KEY" in line


def test_a_base_url_where_nothing_listens_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    env = {**_no_openai(), "OPENAI_BASE_URL": url, "OPENAI_API_KEY": "unused"}
    done = run_cli(tmp_path / "data", *FAST[2:], "--chat-model", "openai:smollm", "chat", "--user", "me",
                   stdin="Hello there.\n/quit\n", env=env)
    line = _one_line_error(done)
    assert url in line and "cannot reach" in line


def test_upkeep_with_a_misconfigured_capable_model_skips_reflection_in_one_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _import(data, "u1", ("a", "2025-02-20T10:00:00Z", "user", "I started a pottery class in Lyon."))
    done = run_cli(data, *FAST[2:], "--chat-model", "openai:gpt-4o-mini", "upkeep", "--user", "u1", "--no-progress",
                   env={**_no_openai(), "MEMORY_UPKEEP_REFLECT_IMPORTANCE": "1"})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "reflect: skipped: the chat model failed" in done.stdout, done.stdout


# -- episodes and usage -------------------------------------------------------------------------


def test_an_episode_is_never_assistant_filler_and_filler_is_never_used(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run_cli(data, *FAST, "chat", "--user", "u1", "--thread", "s1", stdin="I'm vegetarian.\n/end\n")
    episodes = export(data, "u1")["episodes"]
    assert all(line.startswith("User:") for e in episodes for line in e["text"].splitlines()), episodes
    # The next session's canned reply shares every word with the filler; nothing of it may count as used.
    out = run_cli(data, *FAST, "chat", "--user", "u1", "--thread", "s2", stdin="Anything new?\n/end\n").stdout
    for e in export(data, "u1")["episodes"]:
        assert "Assistant:" not in e["text"] and not e["value"].get("use_count"), e
    assert "Memories used this session" in out


# -- the redaction notice ---------------------------------------------------------------------


def test_the_redaction_notice_shows_only_on_the_turn_that_held_the_secret(tmp_path: Path) -> None:
    said = ("My key is sk-proj-Q7vX2mLp9RtY4wZa8BcD3eFgH6jK1nP0 ok\n" + "What do you remember about me?\n" * 3
            + "I like tea.\n/quit\n")
    out = run_cli(tmp_path / "data", *FAST, "chat", "--user", "u1", "--thread", "t", stdin=said).stdout
    assert out.count("note: Removed from your message") == 1, out
    first = out.index("note: Removed from your message")
    assert first < out.index("Here is what I remember about you")


# -- expire and upkeep agree ------------------------------------------------------------------


def test_expire_removes_imported_episodes_past_their_date_and_memories_stops_listing_them(tmp_path: Path) -> None:
    data = tmp_path / "data"
    year_ago = "2024-02-20T10:00:00Z"
    _import(data, "u1", ("a", year_ago, "user", "I started a pottery class in Lyon."),
            ("b", "2024-02-27T10:00:00Z", "user", "My pottery teacher is called Odile."))
    when = ("--now", NOW)
    dry = run_cli(data, *when, *FAST, "upkeep", "--user", "u1", "--dry-run", "--no-progress")
    assert "episodes expired 2" in dry.stdout, dry.stdout
    done = run_cli(data, *when, *FAST, "expire")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("2 expired item(s) removed"), done.stdout
    listed = run_cli(data, *when, *FAST, "memories", "--user", "u1").stdout
    assert "Past conversations" not in listed and "pottery class" not in listed
    again = run_cli(data, *when, *FAST, "upkeep", "--user", "u1", "--dry-run", "--no-progress")
    assert "episodes expired" not in again.stdout, again.stdout


# -- destructive commands name their user ------------------------------------------------------


@pytest.mark.parametrize("command", [("forget", "pottery"), ("upkeep", "--no-progress")])
def test_a_destructive_command_without_a_user_is_refused_and_deletes_nothing(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    data = tmp_path / "data"
    _import(data, "default-user", ("a", "2025-02-20T10:00:00Z", "user", "I started a pottery class in Lyon."))
    before = _files(data)
    line = _one_line_error(run_cli(data, *FAST, *command))
    assert "--user" in line and "MEMORY_USER_ID" in line
    assert _files(data) == before  # refused before the store was even opened
    # Named in the environment, or in .env, the user is explicit.
    assert run_cli(data, *FAST, *command, env=cli_env(MEMORY_USER_ID="default-user")).returncode == 0
    (tmp_path / ".env").write_text("MEMORY_USER_ID=default-user\n")
    assert run_cli(data, *FAST, *command).returncode == 0


# -- flags --------------------------------------------------------------------------------------


def test_global_flags_are_accepted_after_the_subcommand(tmp_path: Path) -> None:
    data = tmp_path / "data"
    done = run_cli(data, "chat", "--user", "me", "--chat-model", "scripted", "--embedding-model", "hash:64",
                   "--now", NOW, "--thread", "t", stdin="I live in Porto.\n/quit\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "agent> " in done.stdout
    # The flags reached the command: the data dir records hash:64, so another model is refused.
    refused = run_cli(data, "memories", "--user", "me", "--embedding-model", "hash:32")
    assert refused.returncode == 2 and "hash:64" in refused.stderr


def test_any_context_field_can_be_set_by_a_flag(tmp_path: Path) -> None:
    data = tmp_path / "data"
    long = "x" * 30
    for where in (("--set", "max_message_chars=20", *FAST, "chat"), (*FAST, "chat", "--set", "max_message_chars=20")):
        out = run_cli(data, *where, "--user", "me", "--thread", "t", stdin=f"{long}\n/quit\n").stdout
        assert "error: message too long: 30 characters, the limit is 20" in out, out
    line = _one_line_error(run_cli(data, *FAST, "--set", "no_such_field=1", "memories", "--user", "me"))
    assert "unknown setting 'no_such_field'" in line
    line = _one_line_error(run_cli(data, *FAST, "--set", "top_k=many", "memories", "--user", "me"))
    assert "top_k" in line and "many" in line


# -- what memories and help show -----------------------------------------------------------------


def test_memories_shows_when_each_item_was_said_not_when_it_was_stored(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _import(data, "u1", ("a", "2025-03-04T10:00:00Z", "user", "I live in Krakow and I work as a baker."))
    listed = run_cli(data, *FAST, "memories", "--user", "u1").stdout
    dates = re.findall(r"\((\d{4}-\d{2}-\d{2})\)", listed)
    assert dates and set(dates) == {"2025-03-04"}, listed


def test_chat_help_lists_every_slash_command(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", "chat", "--help")
    assert done.returncode == 0, done.stderr
    for command in ("/remember", "/forget", "/search", "/memories", "/memory on|off", "/prompt", "/end", "/quit",
                    "/help"):
        assert command in done.stdout, command
