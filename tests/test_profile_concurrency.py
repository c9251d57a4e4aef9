"""Two processes adding to the same multi-value profile slot: no update is lost.

Each process opens the same real FAISS + SQLite store and writes 200 allergies
through the semantic layer's write path (``store_fact``). Before slot updates
became one transaction, both read the slot, both appended, and the later write
dropped the other's value.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from langgraph.store.base import PutOp

from models.loader import HashEmbeddings
from stores.faiss_sqlite import FaissSqliteStore
from stores.namespaces import PROFILE, UserScope

ROOT = Path(__file__).resolve().parents[1]
PER_PROCESS = 200

WRITER = """
import sys
from datetime import datetime, timezone
from core.context import Context
from models.loader import HashEmbeddings
from memory.write_policy.base import CandidateFact
from memory.layers.base import LayerEnv
from memory.layers.semantic_records import store_fact
from stores.faiss_sqlite import FaissSqliteStore
from stores.namespaces import UserScope

path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
emb = HashEmbeddings(64)
store = FaissSqliteStore(path, index={"dims": 64, "embed": emb, "fields": ["text"]})
env = LayerEnv(store=store, scope=UserScope("alice"), context=Context(user_id="alice"), embeddings=emb)
for i in range(n):
    value = f"{tag}item{i}"
    store_fact(env, CandidateFact(text=f"The user is allergic to {value}.", category="health", key="allergies",
                                  value=value, sources=[f"{tag}-m{i}"], stated_at=datetime.now(timezone.utc)))
store.close()
"""


def test_two_processes_lose_no_profile_update(tmp_path: Path) -> None:
    path = tmp_path / "store"
    store = FaissSqliteStore(path, index={"dims": 64, "embed": HashEmbeddings(64), "fields": ["text"]})
    store.batch([PutOp(("warmup",), "k", {"text": "schema ready"}, index=False)])  # both writers find the schema
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag, str(PER_PROCESS)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for tag in ("a", "b")
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err[-2000:]
    item = store.get(UserScope("alice").ns(PROFILE), "allergies")
    store.close()
    assert item is not None
    expected = {f"{tag}item{i}" for tag in ("a", "b") for i in range(PER_PROCESS)}
    assert len(item.value["values"]) == len(expected) and set(item.value["values"]) == expected
    assert set(item.value["sources"]) == {f"{tag}-m{i}" for tag in ("a", "b") for i in range(PER_PROCESS)}
