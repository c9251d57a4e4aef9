"""Forgotten rows leave no bytes in the SQLite file, even where secure_delete alone does not.

On a real data dir (``tests/fixtures/forget_leftover``), forgetting "peanuts" with
``secure_delete`` alone left one deleted message's bytes in a leaf page: SQLite can
rebalance a page in place and keep a deleted cell in its unused area. ``scrub``
therefore rewrites the SQLite file (VACUUM). The first test shows the leftover without
the VACUUM (and with the matched messages deleted whole, as forget did then), so the
second can fail.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memory.privacy import forget as forget_module
from memory.privacy.forget import UserData, forget
from models.loader import HashEmbeddings
from stores.faiss_sqlite import FaissSqliteStore, maintenance
from stores.namespaces import UserScope
from tests.support import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "forget_leftover"


def _forget_peanuts(tmp_path: Path) -> bytes:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE, data, ignore=shutil.ignore_patterns("README.md"))
    store = FaissSqliteStore(data / "store", index={"dims": 384, "embed": HashEmbeddings(384), "fields": ["text"]})
    try:
        report = forget(UserData(store, UserScope("alice"), data), "peanuts")
        counts = report.counts()  # a message that said more than peanuts may lose only that part
        assert counts.get("messages", 0) + counts.get("messages (part)", 0) >= 6
        assert all("peanut" not in str(i.value).lower() for i in store.search(("users", "alice"), limit=500))
    finally:
        store.close()
    return b"".join(p.read_bytes().lower() for p in (data / "store").rglob("*") if p.is_file())


def test_secure_delete_alone_leaves_a_deleted_cell_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(maintenance, "vacuum", maintenance.truncate_wal)  # scrub as it was, without the VACUUM
    monkeypatch.setattr(forget_module, "CUTTERS", {})  # and every matched message deleted whole, as then
    assert b"peanut" in _forget_peanuts(tmp_path)


def test_scrub_leaves_no_deleted_bytes(tmp_path: Path) -> None:
    assert b"peanut" not in _forget_peanuts(tmp_path)
