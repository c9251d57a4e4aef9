"""The embedded MiniLM embedder: sentence-transformers' vectors without torch, and a graph cache
that survives what a cache folder meets (a first run, a second process, a broken or foreign file,
no write access, no onnxruntime).

The reference vectors were computed once by sentence-transformers (bench/minilm_reference.py),
one text at a time, so these tests mean the same where torch is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from models import minilm_onnx
from models.local_embeddings import DIMS, LocalEmbeddings

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
TEXTS: list[str] = json.loads((FIXTURES / "minilm_reference.json").read_text(encoding="utf-8"))["texts"]
REFERENCE = np.load(FIXTURES / "minilm_reference.npz")["vectors"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "model-cache"
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(folder))
    return folder


def _cosines(vectors: np.ndarray) -> np.ndarray:
    return (vectors * REFERENCE).sum(1) / np.linalg.norm(vectors, axis=1) / np.linalg.norm(REFERENCE, axis=1)


def test_the_fixture_covers_what_it_claims() -> None:
    assert REFERENCE.shape == (len(TEXTS), DIMS) and REFERENCE.dtype == np.float32
    assert "" in TEXTS and any(len(t) > 2000 for t in TEXTS)  # the empty string; texts cut at 256 tokens
    assert any("\u6771\u4eac" in t for t in TEXTS) and any("\U0001f355" in t for t in TEXTS)  # CJK, emoji


@pytest.mark.slow
def test_vectors_match_sentence_transformers_alone_and_in_padded_batches(cache: Path) -> None:
    """A data dir written by the torch-era embedder must read the same now."""
    emb = LocalEmbeddings(batch_size=16)  # three padded batches of mixed lengths
    single = np.array([emb.embed_query(t) for t in TEXTS])
    batch = np.array(emb.embed_documents(TEXTS))
    assert single.shape == batch.shape == (len(TEXTS), DIMS)
    for vectors in (single, batch):
        cos = _cosines(vectors)
        print(f"min cosine {cos.min():.9f}, max abs difference {np.abs(vectors - REFERENCE).max():.2e}")
        assert cos.min() >= 0.9999
        assert np.abs(vectors - REFERENCE).max() < 1e-4
    assert np.abs(single - batch).max() < 1e-5  # padding changes nothing
    assert np.allclose(np.linalg.norm(single, axis=1), 1.0, atol=1e-5)
    assert list(cache.glob("*.onnx")) == [minilm_onnx.graph_path()]


def _fresh_process(cache: Path, text: str) -> list[str]:
    code = ("import json, sys; from models.local_embeddings import LocalEmbeddings; "
            f"v = LocalEmbeddings().embed_query({text!r}); print(json.dumps(v)); "
            "print(*(m in sys.modules for m in ('torch', 'transformers', 'sentence_transformers', 'onnx')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "MEMORY_MODEL_CACHE_DIR": str(cache)})
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()


@pytest.mark.slow
def test_a_fresh_process_builds_then_a_second_loads_the_graph_without_torch(cache: Path) -> None:
    first = _fresh_process(cache, TEXTS[3])
    assert first[-1] == "False False False True"  # built: onnx is imported, torch never
    graph = minilm_onnx.graph_path()
    before = graph.stat().st_mtime_ns
    second = _fresh_process(cache, TEXTS[3])
    assert second[-1] == "False False False False"  # loaded: not even onnx
    assert graph.stat().st_mtime_ns == before  # read, not written again
    vec = np.array(json.loads(second[0]))
    assert vec.shape == (DIMS,) and float(vec @ REFERENCE[3]) >= 0.9999


def _foreign_graph() -> bytes:
    """A valid ONNX model with the right output name, written by someone else."""
    from onnx import TensorProto, helper

    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["embedding"])], "other",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8).SerializeToString()


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["garbage", "truncated", "foreign"])
def test_a_broken_or_foreign_cached_graph_is_rebuilt(cache: Path, damage: str) -> None:
    LocalEmbeddings().embed_query("build it")
    graph = minilm_onnx.graph_path()
    good = graph.read_bytes()
    broken = {"garbage": b"not an onnx graph", "truncated": good[: len(good) // 2], "foreign": _foreign_graph()}
    graph.write_bytes(broken[damage])  # a disk error, a killed copy, another tool's file
    again = np.array(LocalEmbeddings().embed_query(TEXTS[4]))
    assert float(again @ REFERENCE[4]) >= 0.9999
    assert graph.stat().st_size == len(good)
    assert [p.name for p in cache.iterdir()] == [graph.name]  # no temporary file left behind


@pytest.mark.slow
def test_an_unwritable_cache_runs_from_memory_with_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", str(blocker))
    emb = LocalEmbeddings()
    with caplog.at_level("WARNING"):
        vec = np.array(emb.embed_query(TEXTS[5]))
    assert float(vec @ REFERENCE[5]) >= 0.9999 and emb.onnx().graph is None
    warned = [r.getMessage() for r in caplog.records if "cannot cache MiniLM's ONNX graph" in r.getMessage()]
    assert len(warned) == 1 and "\n" not in warned[0] and "running it from memory" in warned[0]
    assert blocker.read_text() == "a file where the cache folder should be"


def test_without_onnxruntime_the_embedder_says_so_in_one_line(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import onnxruntime now raises ImportError
    with pytest.raises(minilm_onnx.OnnxUnavailable) as err:
        LocalEmbeddings().embed_query("hello")
    assert "needs onnxruntime" in str(err.value) and "pip install" in str(err.value) and "\n" not in str(err.value)
    assert isinstance(err.value, RuntimeError)  # the CLI prints RuntimeErrors as one line
    assert not cache.exists()  # nothing built that could not run


def test_the_cache_key_follows_what_shapes_the_graph(monkeypatch: pytest.MonkeyPatch) -> None:
    first = minilm_onnx.graph_path()
    monkeypatch.setattr(minilm_onnx, "GRAPH_FORMAT", minilm_onnx.GRAPH_FORMAT + 1)
    assert minilm_onnx.graph_path() != first
    monkeypatch.setattr(minilm_onnx, "GRAPH_FORMAT", minilm_onnx.GRAPH_FORMAT - 1)
    real = minilm_onnx._version
    monkeypatch.setattr(minilm_onnx, "_version", lambda d: "0.0" if d == "onnx" else real(d))
    assert minilm_onnx.graph_path() != first  # another onnx writes another file
    monkeypatch.setattr(minilm_onnx, "_version", real)
    assert minilm_onnx.graph_path() == first
    monkeypatch.setenv("MEMORY_MODEL_CACHE_DIR", "/elsewhere")
    assert minilm_onnx.graph_path().parent == Path("/elsewhere")


def test_a_bad_batch_size_is_refused() -> None:
    with pytest.raises(ValueError, match="batch_size must be at least 1, not 0"):
        LocalEmbeddings(batch_size=0)


@pytest.mark.slow
def test_threads_embedding_at_once_get_their_own_vectors(cache: Path) -> None:
    """The server embeds from several threads (parallel recall nodes, concurrent runs) on one embedder."""
    from concurrent.futures import ThreadPoolExecutor

    emb = LocalEmbeddings()
    texts = [f"Message {i}: we talked about {topic}." for i, topic in enumerate(["dogs", "taxes", "Lisbon", "jazz"] * 6)]
    alone = np.array([emb.embed_query(t) for t in texts])
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = np.array(list(pool.map(emb.embed_query, texts)))
        batches = list(pool.map(emb.embed_documents, [texts[i : i + 6] for i in range(0, len(texts), 6)]))
    assert np.abs(together - alone).max() < 1e-6
    assert np.abs(np.array([row for batch in batches for row in batch]) - alone).max() < 1e-5


def test_without_onnxruntime_the_cli_fails_in_one_line_and_records_nothing(tmp_path: Path) -> None:
    from tests.support.cli_run import cli_env, run_cli

    shadow = tmp_path / "shadow" / "onnxruntime"  # an install without onnxruntime: the import fails
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named onnxruntime')\n")
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"id": "q1", "query": "Where does Ada live?"}) + "\n")
    env = cli_env(MEMORY_MODEL_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = f"{shadow.parent}{os.pathsep}{env['PYTHONPATH']}"
    data = tmp_path / "d"
    done = run_cli(data, "--chat-model", "scripted", "--embedding-model", "local", "recall", "--user", "u",
                   str(queries), env=env, process=True)  # a new process: the import is what is under test
    assert done.returncode != 0 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "needs onnxruntime" in lines[0] and "pip install 'onnxruntime" in lines[0], lines
    assert not (tmp_path / "cache").exists()
