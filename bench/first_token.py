"""First-token latency of a streamed turn on the embedded default chat model (numpy SmolLM2-135M).

Each turn runs the real graph with ``stream_mode="messages"``, the way a chat UI
or ``langgraph dev`` streams it, and times from the call to the prompt being
assembled (the memory work before the model), to the first piece of the reply the
client receives, and to the last. Two cases:

- ``nothing to check``: the user has no diet, allergy or checkable rule, so
  ``respond`` streams tokens as SmolLM2 writes them;
- ``a diet to check``: the user is vegetarian, so the reply is held back as a
  draft and the client gets it whole from the ``check`` node (docs/streaming.md):
  the first piece arrives with the last.

The model is loaded (and warmed with one turn) before timing; hash embeddings keep
the memory side out of the figure.

    python -m bench.first_token [--turns 10] [--max-new-tokens 64]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.semantic import remember

QUESTIONS = ("What should I cook tonight?", "Name a colour.", "Give me one tip for sleeping better.",
             "What is a good name for a cat?")


Row = tuple[float, float, float, int]


def timed_turn(agent: MemoryAgent, text: str, thread: str) -> Row:
    """Seconds to the prompt being assembled, to the first reply piece, to the last; and the pieces."""
    t0 = time.perf_counter()
    assembled = first = last = 0.0
    pieces = 0
    for mode, data in agent.sync_graph.stream(agent._turn(text, thread), agent.config(thread),
                                              context=agent.context, stream_mode=["messages", "updates"]):
        if mode == "updates" and "assemble" in data:
            assembled = time.perf_counter() - t0  # the memory work is done; respond starts
        elif mode == "messages" and data[0].type in ("ai", "AIMessageChunk") and data[0].text:
            last = time.perf_counter() - t0
            first = first or last
            pieces += 1
    return assembled, first, last, pieces


def run(ctx: Context, turns: int, facts: Sequence[str]) -> list[Row]:
    with MemoryAgent(ctx) as agent:
        for fact in facts:
            remember(agent.env(), fact)
        timed_turn(agent, "Hello!", "warm-up")  # loads the model
        return [timed_turn(agent, QUESTIONS[i % len(QUESTIONS)], f"t{i}") for i in range(turns)]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turns", type=int, default=10)
    p.add_argument("--max-new-tokens", type=int, default=64)
    args = p.parse_args(argv)
    print(f"embedded chat model, max_new_tokens={args.max_new_tokens}, {args.turns} turns per case (median)")
    for case, facts in (("nothing to check", ()), ("a diet to check", ("I'm vegetarian.",))):
        with tempfile.TemporaryDirectory() as data:
            ctx = Context(user_id="bench", data_dir=data, chat_model="local", embedding_model="hash:384",
                          review_rules=False)
            rows = run(replace(ctx, max_new_tokens=args.max_new_tokens), args.turns, facts)
        assembled, first, last, pieces = (statistics.median(r[i] for r in rows) for i in range(4))
        print(f"{case:18s} prompt ready {assembled * 1000:6.0f} ms   first piece {first * 1000:6.0f} ms   "
              f"whole reply {last * 1000:6.0f} ms   pieces {pieces:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
