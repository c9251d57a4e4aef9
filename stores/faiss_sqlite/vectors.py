"""FAISS partitions, one per full namespace, kept in step with SQLite.

Why partitions: a user's search then costs what that user holds, not what every
user holds. Why fp16 scalar quantization: it halves memory and file size and scans
faster than float32 (less memory traffic); exact float32 scores are recomputed
from SQLite for the few candidates returned. Past ``hnsw_threshold`` vectors a
partition becomes HNSW, which cannot delete, so deletions there are tombstoned
and the partition is rebuilt once a fifth of it is dead.

Consistency: every change to a namespace's vectors bumps ``namespaces.version``
in the same transaction. A loaded partition remembers the version it reflects;
when the database is ahead (another process wrote, or a saved file is old) it
catches up from SQLite: ids are never reused, so new vectors are those above the
partition's highest id, and a count mismatch reveals deletions. Partitions load
lazily on first use, so opening a store with many users is instant.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from .embed_cache import unit
from .partition import Partition, empty_partition, read_partition, write_partition
from .schema import retry

logger = logging.getLogger("stores.faiss_sqlite")

HNSW_EF_SEARCH = 64
SAVE_AT_ONCE = 1000  # partitions at least this big are saved right after a rebuild
AUTOSAVE_MIN = 256  # save a partition once this many (and 10%) changes are unsaved
DEAD_FRACTION = 0.2

_VECS = "SELECT iv.id, e.vec FROM item_vectors iv JOIN embeddings e ON e.id = iv.emb_id WHERE iv.ns_id = ?"


ITEM_MEMO_SIZE = 200_000


class BoundedMap(dict[Any, Any]):
    """A dict that empties itself when full: enough for a memo of immutable facts."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def update(self, pairs: Any) -> None:  # type: ignore[override]
        if len(self) >= self.limit:
            self.clear()
        super().update(pairs)


@contextmanager
def _single_thread() -> Iterator[None]:
    """One query at a time gains nothing from OpenMP, and spinning threads on a busy
    2-core box made a 0.3 ms search take 30 ms in measurements.
    """
    prev = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(prev)


class VectorIndex:
    """All partitions of one store directory. Callers hold the store lock."""

    def __init__(self, root: Path, dims: int, hnsw_threshold: int) -> None:
        self.root = root
        self.dims = dims
        self.threshold = hnsw_threshold
        self.parts: dict[int, Partition] = {}
        self.item_of = BoundedMap(ITEM_MEMO_SIZE)  # vector id -> item id, filled by searches
        root.mkdir(parents=True, exist_ok=True)

    def path(self, ns_id: int) -> Path:
        return self.root / f"{ns_id}.faiss"

    # -- building and loading -------------------------------------------------

    def _rows(self, conn: sqlite3.Connection, ns_id: int, after: int = 0) -> tuple[np.ndarray, np.ndarray]:
        rows = conn.execute(_VECS + " AND iv.id > ? ORDER BY iv.id", (ns_id, after)).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        vecs = np.empty((len(rows), self.dims), dtype=np.float32)
        for i, (_, blob) in enumerate(rows):
            vecs[i] = unit(blob)
        return ids, vecs

    def _build(self, conn: sqlite3.Connection, ns_id: int, version: int) -> Partition:
        ids, vecs = self._rows(conn, ns_id)
        part = empty_partition(ns_id, version, len(ids), self.dims, self.threshold)
        self._add(part, ids, vecs)
        part.dirty = max(1, len(ids))
        self.parts[ns_id] = part
        return part

    def ensure(self, conn: sqlite3.Connection, ns_id: int, db_version: int) -> Partition:
        """The partition, loaded or rebuilt if needed and caught up with ``db_version``."""
        part = self.parts.get(ns_id)
        if part is not None:
            if part.version != db_version:
                self._sync(conn, part, db_version)
            return part
        part = read_partition(conn, self.path(ns_id), ns_id, self.dims)
        if part is None:
            return self._build(conn, ns_id, db_version)
        self.parts[ns_id] = part
        if part.version != db_version:
            logger.info(
                "FAISS file %s is behind (v%s, database v%s); catching up", self.path(ns_id), part.version, db_version
            )
        self._sync(conn, part, db_version)
        return part

    # -- changes ----------------------------------------------------------------

    def _add(self, part: Partition, ids: np.ndarray, vecs: np.ndarray) -> None:
        if not len(ids):
            return
        part.index.add_with_ids(vecs, ids)
        part.max_id = max(part.max_id, int(ids.max()))
        part.dirty += len(ids)

    def _remove(self, conn: sqlite3.Connection, part: Partition, ids: np.ndarray) -> None:
        if not len(ids):
            return
        part.dirty += len(ids)
        if not part.hnsw:
            part.index.remove_ids(np.ascontiguousarray(ids, dtype=np.int64))  # type: ignore[arg-type]
            return
        part.dead.update(int(i) for i in ids)
        if len(part.dead) > DEAD_FRACTION * part.index.ntotal:
            self._build(conn, part.ns_id, part.version)

    def _sync(self, conn: sqlite3.Connection, part: Partition, db_version: int) -> None:
        self._add(part, *self._rows(conn, part.ns_id, after=part.max_id))
        (count,) = conn.execute("SELECT COUNT(*) FROM item_vectors WHERE ns_id = ?", (part.ns_id,)).fetchone()
        if count != part.live:  # something was deleted: find what
            db_ids = np.fromiter(
                (r[0] for r in conn.execute("SELECT id FROM item_vectors WHERE ns_id = ?", (part.ns_id,))),
                dtype=np.int64,
            )
            have = faiss.vector_to_array(part.index.id_map)
            self._remove(conn, part, np.setdiff1d(have, db_ids))
        part = self.parts[part.ns_id]  # a rebuild may have replaced it
        part.version = db_version
        self._resize(conn, part)

    def _resize(self, conn: sqlite3.Connection, part: Partition) -> None:
        if not part.hnsw and part.live > self.threshold:
            logger.info("namespace %s passed %d vectors; switching its index to HNSW", part.ns_id, self.threshold)
            self._build(conn, part.ns_id, part.version)

    def after_commit(
        self, conn: sqlite3.Connection, ns_id: int, new_version: int, added: list[tuple[int, bytes]], removed: list[int]
    ) -> None:
        """Apply this process's own committed change, unless another writer got in between."""
        part = self.parts.get(ns_id)
        if part is None or part.version + 1 != new_version:
            return  # not loaded, or stale: the next search catches up from SQLite
        if added:  # add before removing: a removal may rebuild from SQLite, which has both
            ids = np.asarray([a[0] for a in added], dtype=np.int64)
            self._add(part, ids, np.stack([unit(a[1]) for a in added]))
        self._remove(conn, part, np.asarray(removed, dtype=np.int64))
        part = self.parts[ns_id]
        part.version = new_version
        self._resize(conn, part)

    def forget(self, ns_id: int) -> None:
        self.parts.pop(ns_id, None)
        self.path(ns_id).unlink(missing_ok=True)

    # -- search -----------------------------------------------------------------

    def search(
        self, conn: sqlite3.Connection, parts: list[tuple[int, int]], query: np.ndarray, k: int
    ) -> tuple[list[int], bool, int]:
        """Vector ids of the ``k`` nearest vectors across ``parts``, whether every
        vector was considered (so asking for more finds nothing new), and how many
        live vectors the parts hold.
        """
        hits: list[tuple[float, int]] = []
        complete = True
        live = 0
        q = query.reshape(1, -1)
        with _single_thread():
            for ns_id, version in parts:
                part = self.ensure(conn, ns_id, version)
                n = part.index.ntotal
                live += part.live
                if n == 0:
                    continue
                kk = min(k + len(part.dead), n)
                complete = complete and kk == n
                if part.hnsw:
                    part.base.hnsw.efSearch = max(HNSW_EF_SEARCH, kk)  # type: ignore[attr-defined]
                scores, ids = part.index.search(q, kk)
                hits.extend((float(s), int(i)) for s, i in zip(scores[0], ids[0]) if i >= 0 and i not in part.dead)
        hits.sort(reverse=True)
        return [i for _, i in hits[:k]], complete, live

    # -- persistence --------------------------------------------------------------

    def save(self, conn: sqlite3.Connection, part: Partition) -> None:
        """Write the file atomically, then record its version and checksum."""
        write_partition(conn, self.path(part.ns_id), part)

    def flush(self, conn: sqlite3.Connection, everything: bool = False) -> None:
        """Save partitions with enough unsaved changes (all of them when closing)."""
        for part in list(self.parts.values()):
            big = part.index.ntotal >= SAVE_AT_ONCE and part.dirty >= max(AUTOSAVE_MIN, part.index.ntotal // 10)
            if part.dirty and (everything or big):
                retry(lambda: self.save(conn, part))

    def rewrite(self, conn: sqlite3.Connection, live_ns: dict[int, int], gone: list[int]) -> None:
        """Rebuild and save only the partitions in ``live_ns`` (namespace id -> version)
        from SQLite, and delete the files of ``gone``; no other file is opened.
        """
        for ns_id in gone:
            self.forget(ns_id)
        for ns_id, version in live_ns.items():
            self.parts.pop(ns_id, None)
            self.save(conn, self._build(conn, ns_id, version))

    def rewrite_all(self, conn: sqlite3.Connection, live_ns: dict[int, int]) -> None:
        """Rebuild and save every partition from SQLite; delete every other file.
        ``live_ns`` maps namespace id to version for namespaces that hold vectors.
        """
        self.parts.clear()
        self.rewrite(conn, live_ns, [])
        keep = {self.path(ns_id).name for ns_id in live_ns}
        for f in self.root.iterdir():
            if f.name not in keep:
                f.unlink(missing_ok=True)
