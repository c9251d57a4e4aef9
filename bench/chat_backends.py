"""The embedded chat model's two runtimes side by side: load time, decode speed, same answers?

``local`` runs the packaged SmolLM2 GGUF in numpy (no compiler);
``llamacpp`` runs it through llama.cpp (built from source, portably). Each
figure is measured in a fresh subprocess, alternating the two, so a loaded
machine slows both alike; read the ratio.

    python -m bench.chat_backends [--reps 3] [--tokens 64]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

PROMPTS = [
    "Suggest a dinner recipe for tonight.",
    "What is a good name for a cat?",
    "Explain what a memory layer is in one sentence.",
]
CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from langchain_core.messages import HumanMessage, SystemMessage
from models.loader import load_chat_model
spec, tokens, prompts = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
model = load_chat_model(spec, tokens)
model.invoke([HumanMessage(content="Hi")])  # first call: lazy parts loaded
load_s = time.perf_counter() - t0
out, spent = [], 0.0
for p in prompts:
    t = time.perf_counter()
    text = model.invoke([SystemMessage(content="You are a helpful assistant."), HumanMessage(content=p)]).text
    spent += time.perf_counter() - t
    out.append(text)
print(json.dumps({"load_s": load_s, "gen_s": spent, "answers": out}))
"""


def run_once(spec: str, tokens: int, cache: str | None) -> dict:
    env_cache = {"MEMORY_MODEL_CACHE_DIR": cache} if cache else {}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, spec, str(tokens), json.dumps(PROMPTS)],
        capture_output=True, text=True, env={**os.environ, **env_cache, "HF_HUB_OFFLINE": "1"}, check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"{spec}: exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--tokens", type=int, default=64, help="reply limit per prompt")
    args = ap.parse_args(argv)
    cold_cache = tempfile.mkdtemp(prefix="model-cache-")
    first = run_once("local", args.tokens, cold_cache)  # converts the GGUF into the empty cache
    os.environ["MEMORY_MODEL_CACHE_DIR"] = cold_cache
    from models.smollm_weights import load_smollm

    tokenizer = load_smollm().tokenizer
    rows: dict[str, list[dict]] = {"local": [], "llamacpp": []}
    for _ in range(args.reps):
        for spec in rows:
            run = run_once(spec, args.tokens, cold_cache if spec == "local" else None)
            run["tokens"] = sum(len(tokenizer.encode(a, add_special_tokens=False).ids) for a in run["answers"])
            rows[spec].append(run)
    print(f"local, first load with an empty model cache (conversion): {first['load_s']:.1f} s")
    print("| runtime | load s (p50) | tokens/s (p50) |")
    print("|---|---|---|")
    speed = {}
    for spec, runs in rows.items():
        speed[spec] = statistics.median(r["tokens"] / r["gen_s"] for r in runs)
        print(f"| {spec} | {statistics.median(r['load_s'] for r in runs):.2f} | {speed[spec]:.1f} |")
    print(f"llamacpp / local decode speed: {speed['llamacpp'] / speed['local']:.1f}x")
    same = [a == b for a, b in zip(rows["local"][0]["answers"], rows["llamacpp"][0]["answers"])]
    print(f"same answers: {sum(same)} of {len(same)} prompts")
    for p, a, b in zip(PROMPTS, rows["local"][0]["answers"], rows["llamacpp"][0]["answers"]):
        print(f"- {p}\n  local:    {a[:120]!r}\n  llamacpp: {b[:120]!r}")


if __name__ == "__main__":
    main()
