"""`memory-agent demo` through the real CLI: session 2's answer respects what session 1 said."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.agent_cli import assert_respects

MODELS = {
    "scripted": ["--chat-model", "scripted", "--embedding-model", "hash:384"],
    "local": ["--chat-model", "local", "--embedding-model", "local"],
}


@pytest.mark.parametrize("models", [pytest.param("scripted"), pytest.param("local", marks=pytest.mark.slow)])
def test_demo_ends_on_an_answer_that_respects_diet_and_allergy(tmp_path: Path, models: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "--data-dir", str(tmp_path / "data"), *MODELS[models], "demo", "--user", "ana"],
        check=False, capture_output=True, text=True, cwd=ROOT, timeout=900, env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answer = done.stdout.split("agent> ")[-1].split("\n=====", 1)[0].strip()
    report = done.stdout.rsplit("Answer checked against memory", 1)[1]
    assert "diet: vegetarian" in report and "allergy: peanuts" in report
    assert_respects(answer, "The user is vegetarian.")
    assert_respects(answer, "The user is allergic to peanuts.")
