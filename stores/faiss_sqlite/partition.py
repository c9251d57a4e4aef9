"""One namespace's FAISS partition: its in-memory form, how an empty one is made, and its checksummed file.

Kept apart from ``vectors`` (which keeps all partitions in step with SQLite) so that the
index layout and the on-disk format, what a saved file must pass to be trusted, read in one place.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import faiss
import numpy as np

from .schema import write_txn

logger = logging.getLogger("stores.faiss_sqlite")

HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64


@dataclass
class Partition:
    """One namespace's FAISS index in memory, with its version and unsaved changes."""
    ns_id: int
    index: faiss.IndexIDMap2
    base: faiss.Index
    version: int
    max_id: int = 0
    dead: set[int] = field(default_factory=set)
    dirty: int = 0  # changes not yet in the saved file

    @property
    def hnsw(self) -> bool:
        return isinstance(self.base, faiss.IndexHNSW)

    @property
    def live(self) -> int:
        return self.index.ntotal - len(self.dead)


def empty_partition(ns_id: int, version: int, size: int, dims: int, threshold: int) -> Partition:
    """An empty partition for ``size`` vectors: flat fp16 up to ``threshold``, HNSW beyond."""
    if size > threshold:
        base = faiss.IndexHNSWSQ(dims, faiss.ScalarQuantizer.QT_fp16, HNSW_M, faiss.METRIC_INNER_PRODUCT)  # type: ignore[arg-type]
        base.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    else:
        base = faiss.IndexScalarQuantizer(dims, faiss.ScalarQuantizer.QT_fp16, faiss.METRIC_INNER_PRODUCT)  # type: ignore[assignment]
    return Partition(ns_id, faiss.IndexIDMap2(base), base, version)


def read_partition(conn: sqlite3.Connection, path: Path, ns_id: int, dims: int) -> Partition | None:
    """The partition saved at ``path``, or None when it is missing, fails its checksum or cannot be used."""
    file_version, file_sha = conn.execute(
        "SELECT file_version, file_sha FROM namespaces WHERE id = ?", (ns_id,)
    ).fetchone()
    if not path.exists():
        if file_version is not None:
            logger.warning("FAISS file %s is missing; rebuilding it from the vectors in SQLite", path)
        return None
    data = path.read_bytes()
    if file_sha is None or hashlib.sha256(data).hexdigest() != file_sha:
        logger.warning("FAISS file %s fails its checksum (corrupt or stale); rebuilding it from SQLite", path)
        return None
    try:
        index = faiss.deserialize_index(np.frombuffer(data, dtype=np.uint8))
        base = faiss.downcast_index(index.index)  # type: ignore[attr-defined]
    except (RuntimeError, AttributeError) as exc:
        logger.warning("FAISS file %s cannot be read (%s); rebuilding it from SQLite", path, exc)
        return None
    if index.d != dims:
        logger.warning("FAISS file %s has %d dims, expected %d; rebuilding it", path, index.d, dims)
        return None
    ids = faiss.vector_to_array(index.id_map)  # type: ignore[attr-defined]
    return Partition(ns_id, index, base, file_version, int(ids.max()) if len(ids) else 0)  # type: ignore[arg-type]


def write_partition(conn: sqlite3.Connection, path: Path, part: Partition) -> None:
    """Write the file atomically, then record its version and checksum."""
    data = faiss.serialize_index(part.index).tobytes()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    with write_txn(conn):
        conn.execute(
            "UPDATE namespaces SET file_version = ?, file_sha = ? WHERE id = ?",
            (part.version, hashlib.sha256(data).hexdigest(), part.ns_id),
        )
    part.dirty = 0
