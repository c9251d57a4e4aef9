"""The embedded MiniLM embedder: both runtimes give the same vectors, and the ONNX graph's cache
survives what a cache folder meets (a first run, a second process, a broken file, no onnxruntime).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models import minilm_onnx
from models.local_embeddings import DIMS, LocalEmbeddings, runtime_setting
from models.packaged import packaged_model_dir

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [
    "When did Caroline go to the LGBTQ support group?",
    "I'm vegetarian",
    "x" * 3000,  # one over-long word: a single unknown token
    "We hiked to the lake and talked about the new job. " * 40,  # 480 tokens: both cut it at 256
    "Deploy build 4f3a9c to /srv/app on 2024-05-03; it cost $1,250.",
    "",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "model-cache"
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(folder))
    return folder


@pytest.mark.slow
def test_query_fast_path_matches_batch_encoding() -> None:
    emb = LocalEmbeddings(runtime="torch")
    texts = TEXTS[:3]
    batch = np.array(emb.embed_documents(texts))
    single = np.array([emb.embed_query(t) for t in texts])
    assert single.shape == (3, DIMS)
    assert np.allclose(np.linalg.norm(single, axis=1), 1.0, atol=1e-5)
    assert np.abs(single - batch).max() < 1e-5  # same model, pooling and normalisation
    assert float(single[0] @ single[1]) < 0.5  # and still a semantic model: unrelated texts differ


@pytest.mark.slow
def test_onnx_gives_the_torch_vectors(cache: Path) -> None:
    """A data dir written on one runtime must read the same on the other: same vectors, padded
    batches of mixed lengths and truncated texts included."""
    onnx, torch_path = LocalEmbeddings(runtime="onnx"), LocalEmbeddings(runtime="torch")
    docs_onnx, docs_torch = np.array(onnx.embed_documents(TEXTS)), np.array(torch_path.embed_documents(TEXTS))
    queries_onnx = np.array([onnx.embed_query(t) for t in TEXTS])
    queries_torch = np.array([torch_path.embed_query(t) for t in TEXTS])
    assert docs_onnx.shape == (len(TEXTS), DIMS)
    assert np.abs(docs_onnx - docs_torch).max() < 1e-5
    assert np.abs(queries_onnx - queries_torch).max() < 1e-5
    assert np.abs(queries_onnx - docs_onnx).max() < 1e-5  # a query alone and inside a padded batch
    assert list(cache.glob("*.onnx")) == [minilm_onnx.graph_path(packaged_model_dir(minilm_onnx.DISTRIBUTION))]


@pytest.mark.slow
def test_a_cached_graph_loads_without_torch(cache: Path) -> None:
    """The second process reads the exported graph and never imports torch (the point of the cache)."""
    exporter = LocalEmbeddings(runtime="onnx")
    exporter.embed_query("export it")
    assert exporter._model is None  # the torch model it exported from is not kept
    graph = next(cache.glob("*.onnx"))
    before = graph.stat().st_mtime_ns
    code = ("import sys; from models.local_embeddings import LocalEmbeddings; "
            "v = LocalEmbeddings(runtime='onnx').embed_query('hello'); "
            "print(len(v), 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**_env(), "MEMORY_MODEL_CACHE_DIR": str(cache)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-2:] == ["384", "False"]
    assert graph.stat().st_mtime_ns == before  # read, not written again


@pytest.mark.slow
def test_a_broken_cached_graph_is_exported_again(cache: Path) -> None:
    LocalEmbeddings(runtime="onnx").embed_query("export it")
    graph = next(cache.glob("*.onnx"))
    expected = LocalEmbeddings(runtime="torch").embed_query("hello")
    graph.write_bytes(b"not an onnx graph")  # a truncated download, a disk error, another tool's file
    again = LocalEmbeddings(runtime="onnx").embed_query("hello")
    assert np.abs(np.array(again) - np.array(expected)).max() < 1e-5
    assert graph.stat().st_size > 1_000_000
    assert [p.name for p in cache.iterdir()] == [graph.name]  # no temporary file left behind


@pytest.mark.slow
def test_without_onnxruntime_auto_falls_back_to_torch_and_onnx_refuses(
    cache: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime now raises ImportError
    auto = LocalEmbeddings(runtime="auto")
    with caplog.at_level("WARNING"):
        vec = auto.embed_query("hello")
    assert len(vec) == DIMS and auto.onnx() is None
    assert any("onnxruntime is not installed" in r.getMessage() and "using torch" in r.getMessage()
               for r in caplog.records)
    with pytest.raises(minilm_onnx.OnnxUnavailable, match="onnxruntime is not installed"):
        LocalEmbeddings(runtime="onnx").embed_query("hello")


def test_the_runtime_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_EMBED_RUNTIME", "Torch")
    assert runtime_setting() == "torch"
    assert LocalEmbeddings().runtime == "torch"
    monkeypatch.setenv("MEMORY_EMBED_RUNTIME", "tensorflow")
    with pytest.raises(ValueError, match="MEMORY_EMBED_RUNTIME='tensorflow': expected one of auto, onnx, torch"):
        runtime_setting()
    with pytest.raises(ValueError, match="unknown embedding runtime 'cuda'"):
        LocalEmbeddings(runtime="cuda")


def test_the_cache_key_follows_the_versions_that_shape_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    model_dir = Path("/models/minilm")
    first = minilm_onnx.graph_path(model_dir)
    monkeypatch.setattr(minilm_onnx, "EXPORT_FORMAT", minilm_onnx.EXPORT_FORMAT + 1)
    assert minilm_onnx.graph_path(model_dir) != first
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", "/elsewhere")
    assert minilm_onnx.graph_path(model_dir).parent == Path("/elsewhere")


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "MEMORY_EMBED_RUNTIME"}


@pytest.mark.slow
def test_threads_embedding_at_once_get_their_own_vectors(cache: Path) -> None:
    """The server embeds from several threads (parallel recall nodes, concurrent runs) on one embedder."""
    from concurrent.futures import ThreadPoolExecutor

    emb = LocalEmbeddings(runtime="onnx")
    texts = [f"Message {i}: we talked about {topic}." for i, topic in enumerate(["dogs", "taxes", "Lisbon", "jazz"] * 6)]
    alone = np.array([emb.embed_query(t) for t in texts])
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = np.array(list(pool.map(emb.embed_query, texts)))
        batches = list(pool.map(emb.embed_documents, [texts[i : i + 6] for i in range(0, len(texts), 6)]))
    assert np.abs(together - alone).max() < 1e-6
    assert np.abs(np.array([row for batch in batches for row in batch]) - alone).max() < 1e-5


@pytest.mark.slow
def test_an_unwritable_cache_falls_back_to_torch_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(blocker))
    emb = LocalEmbeddings(runtime="auto")
    with caplog.at_level("WARNING"):
        vec = emb.embed_query("hello")
    expected = LocalEmbeddings(runtime="torch").embed_query("hello")
    assert np.abs(np.array(vec) - np.array(expected)).max() < 1e-6
    warned = [r.getMessage() for r in caplog.records if "exporting MiniLM to ONNX failed" in r.getMessage()]
    assert len(warned) == 1 and "\n" not in warned[0] and "using torch instead" in warned[0]
    assert blocker.read_text() == "a file where the cache folder should be"
