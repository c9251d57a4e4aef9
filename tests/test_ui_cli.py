"""`memory-agent ui` refuses what it must before it opens anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.cli_run import FAST, run_cli


def test_ui_refuses_a_non_loopback_address_without_auth(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", *FAST, "ui", "--user", "alice", "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "refusing to serve memory on non-loopback address 0.0.0.0" in done.stderr
    assert not (tmp_path / "data").exists()


def test_ui_needs_the_user_named(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", *FAST, "ui")
    assert done.returncode == 2 and "--user U" in done.stderr


def test_off_loopback_the_page_opens_only_for_the_served_users_token(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from app.runtime import MemoryAgent
    from app.ui.serve import GuardedLocal
    from app.ui.web import build_app
    from core.auth_tokens import StaticTokens, active_verifier, use_verifier
    from core.context import Context

    ctx = Context(data_dir=str(tmp_path / "data"), embedding_model="hash:64", chat_model="scripted",
                  user_id="alice", consolidation_delay_s=0.0)
    before = active_verifier()
    use_verifier(StaticTokens.parse("tok-a=alice,tok-b=bob"))
    try:
        with MemoryAgent(ctx) as agent:
            _check_guarded(TestClient(build_app(GuardedLocal(agent))))
    finally:
        use_verifier(before)


def _check_guarded(client: Any) -> None:
    """No token and bob's token are refused; alice's opens her page."""
    assert client.get("/").status_code == 403
    refused = client.get("/", headers={"Authorization": "Bearer tok-b"})
    assert refused.status_code == 403 and "serves &#39;alice&#39; only" in refused.text  # escaped, as everything shown
    assert client.get("/", headers={"Authorization": "Bearer tok-a"}).status_code == 200
