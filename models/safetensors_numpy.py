"""Read a ``.safetensors`` file into numpy arrays, without the ``safetensors`` package.

The format is small enough to read by hand (8-byte little-endian header length, a JSON header
naming each tensor's dtype, shape and byte range, then the raw bytes), and the runtime installs
neither torch nor ``safetensors``: this is how MiniLM's weights reach its ONNX graph.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

DTYPES = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2",
    "I64": "<i8", "I32": "<i4", "I16": "<i2", "I8": "i1", "U8": "u1", "BOOL": "?",
}


class SafetensorsError(ValueError):
    """The file is not a safetensors file this reader understands (truncated, foreign, bf16)."""


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor of ``path`` by name, as read-only arrays backed by a memory map of the file."""
    data = np.memmap(path, dtype=np.uint8, mode="r")
    if data.size < 8:
        raise SafetensorsError(f"{path}: too short for a safetensors file ({data.size} bytes)")
    header_len = int.from_bytes(data[:8].tobytes(), "little")
    if header_len > data.size - 8:
        raise SafetensorsError(f"{path}: header of {header_len} bytes in a file of {data.size}")
    try:
        header = json.loads(data[8 : 8 + header_len].tobytes())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SafetensorsError(f"{path}: unreadable header ({exc})") from None
    body = data[8 + header_len :]
    tensors = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        tensors[name] = _tensor(path, name, spec, body)
    return tensors


def _tensor(path: Path, name: str, spec: dict[str, Any], body: np.ndarray) -> np.ndarray:
    dtype = DTYPES.get(spec.get("dtype", ""))
    if dtype is None:
        known = ", ".join(DTYPES)
        raise SafetensorsError(f"{path}: tensor {name!r} has dtype {spec.get('dtype')!r}, not one of {known}")
    start, end = (int(x) for x in spec["data_offsets"])
    shape = tuple(int(d) for d in spec["shape"])
    expected = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
    if not 0 <= start <= end <= body.size or end - start != expected:
        raise SafetensorsError(f"{path}: tensor {name!r} bytes {start}..{end} do not hold {shape} {spec['dtype']}")
    return body[start:end].view(dtype).reshape(shape)
