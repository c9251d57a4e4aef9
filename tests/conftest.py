"""Shared fixtures: a real data dir per test, fast deterministic embeddings."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Consolidate in the turn, as before background consolidation: tests that read the store right
# after a turn see what it stored. Tests of the worker set a delay in their Context.
os.environ.setdefault("MEMORY_CONSOLIDATION_DELAY_S", "0")


@pytest.fixture
def ctx(tmp_path: Path):
    """A context on a fresh data dir with the scripted model and hash embeddings."""
    from graph.context import Context

    return Context(
        user_id="alice",
        data_dir=str(tmp_path / "data"),
        chat_model="scripted",
        embedding_model="hash:384",
        review_rules=False,
    )


@pytest.fixture(scope="session")
def llama_server():
    """Starts llama-cpp-python's OpenAI-compatible server on the embedded GGUF, on demand.

    ``llama_server(alias, chat_format=None)`` gives the base URL of a server for
    that alias (one process per alias, so no test pays for model swaps); all stop
    when the session ends.
    """
    from tests.llama_server import LlamaServers

    servers = LlamaServers()
    try:
        yield servers.url
    finally:
        servers.stop()
