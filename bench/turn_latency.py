"""Per-turn latency of ``MemoryAgent.say``: consolidation in the turn vs in the background.

The scripted chat model and hash embeddings, so the figure is the memory system's
own cost per turn (graph, recall, prompt, consolidation), not a model's. Each mode
runs the same ``--turns`` user messages in one thread of a fresh data dir:

- ``sync``: ``consolidation_delay_s=0``, every layer's write policy in the turn;
- ``deferred``: a delay longer than the run, so fact extraction waits for one
  flush at the end (timed on its own line).

On a checkout without background consolidation (no ``consolidation_delay_s``)
only ``sync`` runs: that is the "before" figure.

    python -m bench.turn_latency [--turns 50]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import fields, replace

from app.runtime import MemoryAgent
from core.context import Context

MESSAGES = (
    "I'm vegan and I live in Lisbon.",
    "My sister Ana works at Siemens as an engineer.",
    "What should I cook tonight?",
    "Please be concise.",
    "I moved to Porto last week and started a new job at Google.",
    "My order ORD-48213 arrived broken on 2026-03-14.",
    "Can you remind me what my sister does?",
)


def run(ctx: Context, turns: int) -> tuple[list[float], float]:
    """Seconds per turn, and seconds of the final flush (0 when nothing is deferred)."""
    per_turn: list[float] = []
    with MemoryAgent(ctx) as agent:
        for i in range(turns):
            text = f"{MESSAGES[i % len(MESSAGES)]} (note {i})"
            t0 = time.perf_counter()
            agent.say(text, "bench")
            per_turn.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        getattr(agent, "flush", lambda: None)()
        return per_turn, time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=50)
    args = p.parse_args(argv)
    background = any(f.name == "consolidation_delay_s" for f in fields(Context))
    modes = {"sync": 0.0, "deferred": 3600.0} if background else {"sync (before)": None}
    medians: dict[str, float] = {}
    print(f"{'mode':<14}{'median ms':>10}{'mean ms':>10}{'p90 ms':>10}{'flush ms':>10}")
    for mode, delay in modes.items():
        with tempfile.TemporaryDirectory() as tmp:
            ctx = Context(user_id="bench", data_dir=tmp, chat_model="scripted", embedding_model="hash:384",
                          review_rules=False)
            if delay is not None:
                ctx = replace(ctx, consolidation_delay_s=delay)
            per_turn, flush = run(ctx, args.turns)
        ms = [t * 1000 for t in per_turn[1:]]  # the first turn pays one-off imports and warm-up
        medians[mode] = statistics.median(ms)
        p90 = statistics.quantiles(ms, n=10)[-1]
        print(f"{mode:<14}{medians[mode]:>10.1f}{statistics.mean(ms):>10.1f}{p90:>10.1f}{flush * 1000:>10.1f}")
    if len(medians) == 2:
        print(f"deferred / sync median: {medians['deferred'] / medians['sync']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
