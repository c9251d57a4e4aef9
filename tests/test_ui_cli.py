"""`memory-agent ui` refuses what it must before it opens anything."""

from __future__ import annotations

from pathlib import Path

from tests.cli_run import FAST, run_cli


def test_ui_refuses_a_non_loopback_address_without_auth(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", *FAST, "ui", "--user", "alice", "--host", "0.0.0.0")
    assert done.returncode == 2
    assert "refusing to serve memory on non-loopback address 0.0.0.0" in done.stderr
    assert not (tmp_path / "data").exists()


def test_ui_needs_the_user_named(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "data", *FAST, "ui")
    assert done.returncode == 2 and "--user U" in done.stderr
