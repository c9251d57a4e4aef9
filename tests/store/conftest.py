"""Fixtures for the FAISS + SQLite store: real files in tmp_path, hash embeddings."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from models.loader import HashEmbeddings
from stores.faiss_sqlite import FaissSqliteStore

ROOT = Path(__file__).resolve().parents[2]
DIMS = 64


class CountingEmbeddings(HashEmbeddings):
    """Hash embeddings that count how many texts they were asked to embed."""

    def __init__(self, dims: int = DIMS) -> None:
        super().__init__(dims)
        self.documents = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += len(texts)
        return super().embed_documents(texts)


@pytest.fixture
def embeddings() -> CountingEmbeddings:
    return CountingEmbeddings()


@pytest.fixture
def make_store(tmp_path: Path, embeddings: CountingEmbeddings) -> Iterator[Callable[..., FaissSqliteStore]]:
    opened: list[FaissSqliteStore] = []

    def make(path: Path | None = None, **kwargs) -> FaissSqliteStore:
        kwargs.setdefault("index", {"dims": DIMS, "embed": embeddings, "fields": ["text"]})
        store = FaissSqliteStore(path or tmp_path / "store", **kwargs)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store) -> FaissSqliteStore:
    return make_store()


@pytest.fixture
def python() -> Callable[..., subprocess.Popen | subprocess.CompletedProcess]:
    return run_python


def run_python(code: str, *args: str, wait: bool = True, **kwargs) -> subprocess.Popen | subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter with the repo importable (a separate process)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-c", textwrap.dedent(code), *args]
    if wait:
        return subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=120, **kwargs)
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


@pytest.fixture
def open_store_code() -> str:
    """Code that opens, in a subprocess, the store at argv[1] as the tests do."""
    return OPEN_STORE


OPEN_STORE = f"""
import sys
from models.loader import HashEmbeddings
from stores.faiss_sqlite import FaissSqliteStore
store = FaissSqliteStore(sys.argv[1], index={{"dims": {DIMS}, "embed": HashEmbeddings({DIMS}), "fields": ["text"]}})
"""
