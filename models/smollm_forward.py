"""A Llama forward pass and decoding loop in numpy float32, for SmolLM2-135M.

The arithmetic follows transformers' Llama (RMSNorm, RoPE with ``rotate_half``
on HF-ordered Q/K rows, grouped-query attention, SiLU MLP, tied embeddings), so
greedy replies come out token for token as they did on torch. A KV cache keeps
each new token to one row of work per layer.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from models.blas_threads import one_blas_thread
from models.smollm_weights import SmolLM

REPEAT_WINDOW = 64  # tokens; llama.cpp's repeat_last_n, so the penalty reads as it did there
REPEAT_PENALTY = 1.3  # tiny models loop on greedy decoding ("I'm sorry for any confusion. I'm sorry...")
TOP_K = 40


class KVCache:
    """Keys and values of every layer for the positions seen so far, grown in place."""

    def __init__(self, model: SmolLM, capacity: int) -> None:
        c = model.config
        shape = (c.layers, c.kv_heads, capacity, c.head_dim)
        self.k = np.empty(shape, np.float32)
        self.v = np.empty(shape, np.float32)
        self.length = 0


def _rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    variance = np.mean(x * x, axis=-1, keepdims=True)
    return weight * (x * (np.float32(1.0) / np.sqrt(variance + np.float32(eps))))


def _rope(positions: np.ndarray, head_dim: int, theta: float) -> tuple[np.ndarray, np.ndarray]:
    """The cos and sin tables, (positions, head_dim), computed in float32 as transformers does."""
    exponents = np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / np.float32(head_dim)
    inv_freq = np.float32(1.0) / (np.float32(theta) ** exponents)
    freqs = positions.astype(np.float32)[:, None] * inv_freq[None, :]
    angles = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(angles), np.sin(angles)


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """RoPE on (heads, tokens, head_dim): ``x*cos + rotate_half(x)*sin``."""
    half = x.shape[-1] // 2
    rotated = np.concatenate([-x[..., half:], x[..., :half]], axis=-1)
    return x * cos + rotated * sin


def forward(model: SmolLM, ids: list[int], cache: KVCache) -> np.ndarray:
    """Logits (float32, vocab) for the last of ``ids``, which follow the cached positions."""
    c, w = model.config, model.weights
    start, count = cache.length, len(ids)
    total = start + count
    cos, sin = _rope(np.arange(start, total), c.head_dim, c.rope_theta)
    group = c.heads // c.kv_heads
    scale = np.float32(c.head_dim ** -0.5)
    q_size, kv_size = c.heads * c.head_dim, c.kv_heads * c.head_dim
    # A new token sees every cached position and the new ones up to itself.
    future = np.triu(np.ones((count, total), dtype=bool), k=start + 1)
    x = np.asarray(w["embed"][np.asarray(ids)], dtype=np.float32)
    for i in range(c.layers):
        h = _rms_norm(x, w[f"{i}.attn_norm"], c.eps)
        qkv = h @ w[f"{i}.qkv"].T
        q = qkv[:, :q_size].reshape(count, c.heads, c.head_dim).transpose(1, 0, 2)
        k = qkv[:, q_size:q_size + kv_size].reshape(count, c.kv_heads, c.head_dim).transpose(1, 0, 2)
        v = qkv[:, q_size + kv_size:].reshape(count, c.kv_heads, c.head_dim).transpose(1, 0, 2)
        cache.k[i, :, start:total] = _rotate(k, cos, sin)
        cache.v[i, :, start:total] = v
        q = _rotate(q, cos, sin).reshape(c.kv_heads, group * count, c.head_dim)  # heads of one kv head together
        keys, values = cache.k[i, :, :total], cache.v[i, :, :total]
        scores = (q @ keys.transpose(0, 2, 1)) * scale  # (kv_heads, group*count, total)
        scores = scores.reshape(c.kv_heads, group, count, total)
        scores[..., future] = -np.inf
        scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
        scores /= scores.sum(axis=-1, keepdims=True)
        attn = scores.reshape(c.kv_heads, group * count, total) @ values
        attn = attn.reshape(c.heads, count, c.head_dim).transpose(1, 0, 2).reshape(count, q_size)
        x = x + attn @ w[f"{i}.attn_out"].T
        h = _rms_norm(x, w[f"{i}.ffn_norm"], c.eps)
        gate, up = np.split(h @ w[f"{i}.gate_up"].T, 2, axis=-1)
        x = x + ((gate / (np.float32(1.0) + np.exp(-gate))) * up) @ w[f"{i}.down"].T
    cache.length = total
    last = _rms_norm(x[-1:], w["norm"], c.eps)
    return (last @ w["output" if "output" in w else "embed"].T)[0]


def penalise_recent(logits: np.ndarray, reply: list[int]) -> np.ndarray:
    """llama.cpp's repeat penalty over the reply's own last ``REPEAT_WINDOW`` tokens (never the prompt).

    Reading the prompt too would push the model away from every word memory put in the system prompt.
    """
    recent = np.unique(np.asarray(reply[-REPEAT_WINDOW:], dtype=np.int64))
    if recent.size:
        picked = logits[recent]
        logits[recent] = np.where(picked < 0, picked * np.float32(REPEAT_PENALTY), picked / np.float32(REPEAT_PENALTY))
    return logits


def pick(logits: np.ndarray, temperature: float, rng: np.random.Generator | None) -> int:
    """Greedy at temperature 0, else a sample from the ``TOP_K`` most likely tokens."""
    if temperature <= 0 or rng is None:
        return int(np.argmax(logits))
    scaled = logits.astype(np.float64) / temperature
    top = np.argpartition(-scaled, TOP_K)[:TOP_K]
    p = np.exp(scaled[top] - scaled[top].max())
    return int(top[rng.choice(TOP_K, p=p / p.sum())])


def generate(model: SmolLM, prompt: list[int], max_tokens: int, temperature: float = 0.0,
             seed: int | None = None) -> Iterator[int]:
    """Yield reply token ids as they are decided, until the end-of-turn token or ``max_tokens``."""
    if max_tokens <= 0:
        return
    rng = np.random.default_rng(seed) if temperature > 0 else None
    stops = {model.config.eos_id, model.tokenizer.token_to_id("<|im_end|>")}
    cache = KVCache(model, len(prompt) + max_tokens)
    logits = forward(model, prompt, cache)
    reply: list[int] = []
    while True:
        token = pick(penalise_recent(logits, reply), temperature, rng)
        if token in stops:
            return
        reply.append(token)
        yield token
        if len(reply) >= max_tokens:
            return
        with one_blas_thread():
            logits = forward(model, [token], cache)
