"""MiniLM (a BERT encoder) written as an ONNX graph with ``onnx.helper``, straight from its weights.

Why by hand: the graph used to be exported by ``torch.onnx`` from sentence-transformers, which
kept torch (gigabytes) in every install for a one-time export. A BERT encoder is a short list of
standard operators, so the graph is spelled out here from ``config.json`` and the safetensors
weights: embeddings (word + position + token type, LayerNorm), then per layer self-attention with
the additive padding mask, output projection + residual + LayerNorm, and an erf-GELU feed-forward
+ residual + LayerNorm; then sentence-transformers' mean pooling over the attention mask and L2
normalisation, so one run gives the finished vector. Opset 17 (it has ``LayerNormalization``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import onnx
from numpy.typing import ArrayLike
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8  # the IR of opset 17: read by every onnxruntime the project allows
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT = "embedding"


class _Builder:
    """Collects nodes and initializers; every op gets a fresh output name."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []

    def const(self, name: str, value: ArrayLike) -> str:
        array = np.asarray(value)
        if array.dtype == np.float64:
            array = array.astype(np.float32)
        self.initializers.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def op(self, op_type: str, *inputs: str, out: str = "", **attrs: Any) -> str:
        out = out or f"{op_type.lower()}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out


def _weights(tensors: Mapping[str, np.ndarray]) -> Mapping[str, np.ndarray]:
    """The encoder's tensors under BertModel's names (a ``bert.`` prefix, as in BertFor* files, dropped)."""
    if "embeddings.word_embeddings.weight" in tensors:
        return tensors
    return {k.removeprefix("bert."): v for k, v in tensors.items()}


def build_graph(tensors: Mapping[str, np.ndarray], config: Mapping[str, object],
                metadata: Mapping[str, str] | None = None) -> onnx.ModelProto:
    """The whole sentence encoder as one model: token ids in, normalised ``embedding`` [batch, hidden] out."""
    if config.get("model_type", "bert") != "bert" or config.get("hidden_act", "gelu") != "gelu":
        kind = f"{config.get('model_type')}/{config.get('hidden_act')}"
        raise ValueError(f"only BERT encoders with erf GELU are built, not {kind}")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError(f"only absolute position embeddings are built, not {config['position_embedding_type']}")
    w = _weights(tensors)
    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])  # type: ignore[call-overload]
    eps = float(config.get("layer_norm_eps", 1e-12))  # type: ignore[arg-type]
    if hidden % heads:
        raise ValueError(f"hidden_size {hidden} is not a multiple of num_attention_heads {heads}")
    g = _Builder()
    x = _embeddings(g, w, eps)
    mask = g.op("Cast", "attention_mask", to=TensorProto.FLOAT)  # [B, T]: 1 for a token, 0 for padding
    # Added to every score of a padded key: its softmax weight becomes exactly 0 (as in transformers).
    blocked = g.op("Mul", g.op("Sub", g.const("one", 1.0), mask), g.const("most_negative", np.finfo(np.float32).min))
    bias = g.op("Unsqueeze", blocked, g.const("axes_heads_queries", [1, 2]))  # [B, 1, 1, T]
    for i in range(int(config["num_hidden_layers"])):  # type: ignore[call-overload]
        x = _layer(g, w, f"encoder.layer.{i}.", x, bias, hidden, heads, eps)
    _mean_pool_and_normalise(g, x, mask)
    dyn = ["batch", "tokens"]
    graph = helper.make_graph(
        g.nodes, "all-MiniLM-L6-v2",
        [helper.make_tensor_value_info(name, TensorProto.INT64, dyn) for name in INPUTS],
        [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", hidden])],
        g.initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="agent-memory-starter", ir_version=IR_VERSION)
    helper.set_model_props(model, dict(metadata or {}))
    return model


def _embeddings(g: _Builder, w: Mapping[str, np.ndarray], eps: float) -> str:
    word = g.op("Gather", g.const("word_embeddings", w["embeddings.word_embeddings.weight"]), "input_ids")
    types = g.const("token_type_embeddings", w["embeddings.token_type_embeddings.weight"])
    kind = g.op("Gather", types, "token_type_ids")
    length = g.op("Shape", "input_ids", start=1, end=2)  # [T]
    table = g.const("position_embeddings", w["embeddings.position_embeddings.weight"])
    where = g.op("Slice", table, g.const("first_position", [0]), length, g.const("axis_positions", [0]))  # rows 0..T-1
    summed = g.op("Add", g.op("Add", word, kind), where)
    return _layer_norm(g, w, "embeddings.LayerNorm", summed, eps)


def _layer_norm(g: _Builder, w: Mapping[str, np.ndarray], name: str, x: str, eps: float) -> str:
    return g.op("LayerNormalization", x, g.const(f"{name}.weight", w[f"{name}.weight"]),
                g.const(f"{name}.bias", w[f"{name}.bias"]), axis=-1, epsilon=eps)


def _linear(g: _Builder, w: Mapping[str, np.ndarray], name: str, x: str, scale: float = 1.0) -> str:
    """``x @ W.T + b``; W is stored transposed, and ``scale`` folded into it and the bias."""
    weight = np.asarray(w[f"{name}.weight"], dtype=np.float32).T * np.float32(scale)
    bias = np.asarray(w[f"{name}.bias"], dtype=np.float32) * np.float32(scale)
    return g.op("Add", g.op("MatMul", x, g.const(f"{name}.weight_t", weight)), g.const(f"{name}.bias", bias))


def _layer(g: _Builder, w: Mapping[str, np.ndarray], p: str, x: str, bias: str, hidden: int, heads: int,
           eps: float) -> str:
    """One transformer layer: self-attention, then the feed-forward block, each with residual + LayerNorm."""
    size = hidden // heads
    split = g.const(f"{p}split_heads", [0, 0, heads, size])  # [B, T, H] -> [B, T, heads, size]; 0 keeps a dim
    # 1/sqrt(size) goes into the query projection: exact when size is a power of two (32 here).
    q = g.op("Transpose", g.op("Reshape", _linear(g, w, f"{p}attention.self.query", x, 1 / math.sqrt(size)), split),
             perm=[0, 2, 1, 3])
    k = g.op("Transpose", g.op("Reshape", _linear(g, w, f"{p}attention.self.key", x), split), perm=[0, 2, 3, 1])
    v = g.op("Transpose", g.op("Reshape", _linear(g, w, f"{p}attention.self.value", x), split), perm=[0, 2, 1, 3])
    scores = g.op("Add", g.op("MatMul", q, k), bias)  # [B, heads, T, T]
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)  # [B, heads, T, size]
    merged = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), g.const(f"{p}merge_heads", [0, 0, hidden]))
    attended = _linear(g, w, f"{p}attention.output.dense", merged)
    x = _layer_norm(g, w, f"{p}attention.output.LayerNorm", g.op("Add", attended, x), eps)
    inner = _linear(g, w, f"{p}intermediate.dense", x)
    # GELU with erf, in the form onnxruntime fuses into one kernel: x * (1 + erf(x / sqrt 2)) * 0.5
    erf = g.op("Erf", g.op("Div", inner, g.const(f"{p}sqrt2", math.sqrt(2.0))))
    gelu = g.op("Mul", g.op("Mul", inner, g.op("Add", erf, g.const(f"{p}gelu_one", 1.0))), g.const(f"{p}half", 0.5))
    out = _linear(g, w, f"{p}output.dense", gelu)
    return _layer_norm(g, w, f"{p}output.LayerNorm", g.op("Add", out, x), eps)


def _mean_pool_and_normalise(g: _Builder, x: str, mask: str) -> None:
    """sentence-transformers' mean over unpadded tokens, then ``x / max(|x|, 1e-12)``."""
    weights = g.op("Unsqueeze", mask, g.const("axis_hidden", [2]))  # [B, T, 1]
    pooled_axis = g.const("axis_tokens", [1])
    total = g.op("ReduceSum", g.op("Mul", x, weights), pooled_axis, keepdims=0)  # [B, H]
    count = g.op("Max", g.op("ReduceSum", weights, pooled_axis, keepdims=0), g.const("min_count", 1e-9))  # [B, 1]
    mean = g.op("Div", total, count)
    norm = g.op("Max", g.op("ReduceL2", mean, axes=[1], keepdims=1), g.const("min_norm", 1e-12))
    g.op("Div", mean, norm, out=OUTPUT)
