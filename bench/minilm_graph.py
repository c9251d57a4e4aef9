"""MiniLM's ONNX graph: cold build time, size, query latency on one thread and a 64-text batch.

The graph comes from models/minilm_graph.py; ``--against FILE.onnx`` times another graph of the
same inputs and output beside it (the torch.onnx export it replaced, say), in the same process,
the order alternating per query, and reports how far its vectors are from the built graph's.
Texts: the reference texts of tests/fixtures/minilm_reference.json.

    python -m bench.minilm_graph [--against FILE.onnx] [--rounds 5] [--threads N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from models.minilm_onnx import DISTRIBUTION, OnnxMiniLM, build
from models.packaged import packaged_model_dir

TEXTS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "minilm_reference.json"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another MiniLM graph to time beside the built one")
    parser.add_argument("--rounds", type=int, default=5, help="times each short text is embedded alone")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="threads of the batch session")
    args = parser.parse_args(argv)
    if args.against and not args.against.is_file():
        parser.error(f"--against {args.against}: no such file")
    model_dir = packaged_model_dir(DISTRIBUTION)
    texts: list[str] = json.loads(TEXTS.read_text(encoding="utf-8"))["texts"]
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        built = Path(tmp) / "built.onnx"
        built.write_bytes(build(model_dir, "bench"))
        build_s = time.perf_counter() - start
        graphs = {"built (onnx.helper)": built}
        if args.against:
            graphs[f"against ({args.against.name})"] = args.against
        models = {}
        for name, path in graphs.items():
            start = time.perf_counter()
            models[name] = OnnxMiniLM(path, model_dir, args.threads)
            models[name].embed(["warm up"])
            print(f"{name}: session start {time.perf_counter() - start:.2f} s")
        queries = [t for t in texts if len(t) < 300]
        query_ms: dict[str, list[float]] = {name: [] for name in models}
        for i in range(args.rounds):
            for text in queries:
                for name in list(models) if i % 2 == 0 else list(models)[::-1]:
                    start = time.perf_counter()
                    models[name].embed([text])
                    query_ms[name].append((time.perf_counter() - start) * 1000)
        batch = (texts * 2)[:64]
        batch_s: dict[str, float] = {}
        vectors = {}
        for name, model in models.items():
            vectors[name] = model.embed(batch)
            runs = []
            for _ in range(3):
                start = time.perf_counter()
                model.embed(batch)
                runs.append(time.perf_counter() - start)
            batch_s[name] = min(runs)
        sizes = {name: path.stat().st_size / 1e6 for name, path in graphs.items()}
    print(f"\ncold build of the graph: {build_s:.2f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"| graph | size MB | query p50 / p95 ms (1 thread, {len(queries)} texts x {args.rounds}) "
          f"| 64-text batch s ({args.threads} threads, best of 3) |")
    print("|---|---|---|---|")
    for name in models:
        ms = query_ms[name]
        print(f"| {name} | {sizes[name]:.1f} | {statistics.median(ms):.2f} / {statistics.quantiles(ms, n=20)[-1]:.2f} "
              f"| {batch_s[name]:.2f} |")
    if args.against:
        first, second = vectors.values()
        print(f"\nlargest difference between the two graphs' vectors: {np.abs(first - second).max():.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
