"""Six months of one user, with and without upkeep: is the memory still small, current and complete?

The seeded generator (bench/upkeep_world.py) plants 200 sessions over 182 days:
facts that change (a move, a new job, a diet, a partner), one-off events,
restatements, habits and small talk. Sessions are imported as of their own
time; every 28 days (and on the last day) questions are asked through the real
graph (scripted chat model, ``--now`` clock) and the system prompt is read:

- planted-fact recall: the current value is in the prompt;
- stale facts: an old value shown as current (in the profile or facts block);
- past-value and event recall: the old value / the event's word is in the prompt;
- memory count (facts, profile, episodes and roll-ups) and memory tokens per prompt.

The upkeep arm runs one pass every 7 simulated days; a review question in the
prompt is answered truthfully on the next turn.

The assistant is ``SimAssistant``: it answers the way a capable model would, in one
sentence from the remembered sentence that holds the answer, in the second person
("You went to a Coldplay concert at Wembley."), and asks a due review question.
The scripted test model instead repeats six memory lines in every reply; the
questions are logged like any turn, so its replies would come back as recalled
messages and mark every recalled memory as used (which no real answer does, and
which stops upkeep from ever pruning an unused episode).

    python -m bench.upkeep_sim [--sessions 200] [--seeds 7,8,9,10] [--embedding hash:384] [--episode-ttl-days 180]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately

from app.runtime import MemoryAgent
from bench.upkeep_world import DAYS, START, Question, questions, sessions
from core.context import Context
from memory.clock import NOW_ENV
from memory.layers.semantic_review import second_person
from memory.upkeep.items import all_items
from memory.upkeep.run import run_upkeep
from models.scripted_chat import ScriptedChatModel, remembered_lines
from nodes.importer import import_messages
from stores.namespaces import EPISODES, FACTS, PROFILE

RESULTS = Path(__file__).resolve().parent / "results" / "upkeep_sim.md"
BLOCK = re.compile(r'<memories kind="(\w+)">\n# [^\n]*\n(.*?)\n</memories>', re.DOTALL)
KITTEN = "Miso"  # the pet adopted in passing: with the four changing facts, the five current values
TICK = 7
ASK_EVERY = 28


class SimAssistant(ScriptedChatModel):
    """Answers in one sentence from the remembered sentence that holds ``expect`` (set per question), turned
    to the second person ("You went to a Coldplay concert at Wembley."), else says it does not know.
    """

    expect: str | None = None

    def _call(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> str:
        system = next((m.text for m in messages if m.type == "system"), "")
        lines = remembered_lines(system)
        sentences = [s for line in lines for s in re.split(r"\\n|\n", line)]
        found = next((s for s in sentences if self.expect and _has(self.expect, s)), None)
        review = next((line for line in lines if "is that still right" in line), None)
        answer = _second_person(found) if found else "I don't know that."
        return f"{answer} {review}" if review else answer


def _second_person(sentence: str) -> str:
    """'[3 May 2025] user: I live in Paris.' / 'User: My partner is Sam.' -> 'You live in Paris.' / 'Your ...'."""
    body = re.sub(r"^(?:\[[^\]]*\]\s*)?(?:user|User|assistant):\s*", "", sentence.strip())
    if body.startswith("The user"):
        said = second_person(body)
        return said[:1].upper() + said[1:] + "."
    for mine, yours in (("I'm", "You're"), ("I am", "You are"), ("I", "You"), ("My", "Your"), ("my", "your"),
                        ("me", "you")):
        body = re.sub(rf"\b{mine}\b", yours, body)
    return body


def _has(word: str, text: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def run_arm(root: Path, all_sessions: list, upkeep: bool, embedding: str, ttl_days: float) -> dict[str, Any]:
    """Play the six months into ``root``; returns per-checkpoint figures and upkeep timings.

    Both arms read with the same context (read policy, budget, TTL); only the upkeep passes differ.
    """
    ctx = Context(user_id="sim", data_dir=str(root), chat_model="scripted", embedding_model=embedding,
                  episode_ttl_days=ttl_days, review_rules=False, check_answers=False)
    checkpoints: list[dict[str, Any]] = []
    pass_seconds: list[float] = []
    pending = list(all_sessions)
    assistant = SimAssistant()
    with MemoryAgent(ctx, chat_model=assistant) as agent:
        for day in [*range(TICK, DAYS, TICK), DAYS]:
            at = START + timedelta(days=day)
            due = [s for s in pending if s[-1].time <= at]
            pending = pending[len(due):]
            if due:
                import_messages([m for s in due for m in s], agent.env(), agent.layers, progress=False)
            if upkeep:
                started = time.perf_counter()
                run_upkeep(replace(agent.env(), now=at))
                pass_seconds.append(time.perf_counter() - started)
            if day % ASK_EVERY == 0 or day == DAYS:
                checkpoints.append(ask(agent, assistant, day, at))
                print(f"  {'with' if upkeep else 'without'} upkeep, day {day}: {summary(checkpoints[-1])}",
                      file=sys.stderr, flush=True)
    return {"checkpoints": checkpoints, "pass_seconds": pass_seconds}


def ask(agent: MemoryAgent, assistant: SimAssistant, day: int, at: Any) -> dict[str, Any]:
    """Ask the day's questions through the graph at simulated time ``at``; score each prompt."""
    os.environ[NOW_ENV] = at.isoformat()
    try:
        env = agent.env()
        count = sum(len(all_items(env, kind)) for kind in (FACTS, PROFILE, EPISODES))
        rows = []
        for n, q in enumerate(questions(day)):
            thread = f"q{day}-{n}"
            assistant.expect = q.expect
            prompt = agent.say(q.text, thread).system_prompt
            rows.append(score(q, prompt))
            if "is that still right" in prompt:
                agent.say("Yes, that's right.", thread)  # the simulated user answers the review truthfully
        return {"day": day, "memories": count, "rows": rows}
    finally:
        os.environ.pop(NOW_ENV, None)


def score(q: Question, prompt: str) -> dict[str, Any]:
    """What one prompt shows: memory tokens, the expected word, a stale value shown as current."""
    blocks = BLOCK.findall(prompt)
    memory = "\n".join(body for _, body in blocks)
    current = "\n".join(body for kind, body in blocks if kind in ("profile", "fact"))
    return {"kind": q.kind, "expect": q.expect, "tokens": count_tokens_approximately([SystemMessage(content=memory)]),
            "hit": _has(q.expect, memory), "stale": bool(q.stale and _has(q.stale, current))}


def figures(cp: dict[str, Any]) -> dict[str, float]:
    """Rates and means for one checkpoint."""
    rows = cp["rows"]

    def rate(kind: str) -> float:
        picked = [r["hit"] for r in rows if r["kind"] == kind]
        return sum(picked) / len(picked) if picked else float("nan")

    current = [r for r in rows if r["kind"] == "current"]
    return {"memories": cp["memories"], "tokens": statistics.mean(r["tokens"] for r in rows),
            "current": rate("current"), "stale": sum(r["stale"] for r in current), "asked_current": len(current),
            "past": rate("past"), "event": rate("event")}


def summary(cp: dict[str, Any]) -> str:
    f = figures(cp)
    return (f"{f['memories']} memories, {f['tokens']:.0f} tok/prompt, current {f['current']:.2f}, "
            f"stale {f['stale']}/{f['asked_current']}, past {f['past']:.2f}, events {f['event']:.2f}")


def report(arms: dict[str, dict[str, Any]], budget: int) -> str:
    """The results table (markdown) and the targets, met or not."""
    lines = ["| arm | day | memories | memory tokens / prompt | planted-fact recall | stale shown as current "
             "| past-value recall | event recall |", "|---|---|---|---|---|---|---|---|"]
    for name, arm in arms.items():
        for cp in arm["checkpoints"]:
            f = figures(cp)
            lines.append(f"| {name} | {cp['day']} | {f['memories']} | {f['tokens']:.0f} | {f['current']:.2f} | "
                         f"{f['stale']}/{f['asked_current']} | {f['past']:.2f} | {f['event']:.2f} |")
    on, off = (figures(arms[k]["checkpoints"][-1]) for k in ("with upkeep", "without upkeep"))
    every = [figures(cp) for cp in arms["with upkeep"]["checkpoints"]]
    secs = arms["with upkeep"]["pass_seconds"]
    recall = sum(f["current"] * f["asked_current"] for f in every) / sum(f["asked_current"] for f in every)
    stale = sum(f["stale"] for f in every)
    lines += ["", f"Upkeep time per user per pass: mean {statistics.mean(secs):.3f} s, max {max(secs):.3f} s "
              f"({len(secs)} passes).", "", "Targets (with upkeep):",
              f"- planted-fact recall over all checkpoints ≥ 0.95: {recall:.3f} — {'met' if recall >= 0.95 else 'NOT met'}",
              f"- stale facts shown as current = 0: {stale} — {'met' if stale == 0 else 'NOT met'}",
              f"- memory tokens at month six within the {budget}-token budget: {on['tokens']:.0f} — "
              f"{'met' if on['tokens'] <= budget else 'NOT met'}",
              f"- memory tokens at month six ≤ half of without upkeep ({off['tokens']:.0f}): {on['tokens']:.0f} — "
              f"{'met' if on['tokens'] <= off['tokens'] / 2 else 'NOT met'}"]
    return "\n".join(lines)


def seed_row(seed: int, arms: dict[str, dict[str, Any]]) -> str:
    """One seed's month six, both arms, as a table row."""
    on, off = (figures(arms[k]["checkpoints"][-1]) for k in ("with upkeep", "without upkeep"))
    every = [figures(cp) for cp in arms["with upkeep"]["checkpoints"]]
    recall = sum(f["current"] * f["asked_current"] for f in every) / sum(f["asked_current"] for f in every)
    return (f"| {seed} | {off['memories']} / {on['memories']} | {off['tokens']:.0f} / {on['tokens']:.0f} | "
            f"{on['tokens'] / off['tokens']:.2f} | {recall:.2f} | {sum(f['stale'] for f in every)} | "
            f"{off['past']:.2f} / {on['past']:.2f} |")


def five_current(seed: int, arms: dict[str, dict[str, Any]]) -> str:
    """Month six in issue 45's terms: of the five current values (city, job, diet, partner, the kitten's
    name), how many the prompt shows, and how many old values it shows as current, per arm.
    """
    said = []
    for name, arm in arms.items():
        rows = arm["checkpoints"][-1]["rows"]
        five = [r for r in rows if r["kind"] == "current" or (r["kind"] == "event" and r["expect"] == KITTEN)]
        said.append(f"{name} {sum(r['hit'] for r in five)} of {len(five)} current, "
                    f"stale {sum(r['stale'] for r in five)}")
    return f"Seed {seed}, month six: " + "; ".join(said) + "."


def main(argv: list[str] | None = None) -> int:
    """Run both arms for each seed and print (and save) the report: the first seed in full, then month six of all."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=int, default=200)
    p.add_argument("--seeds", default="7,8,9,10", help="comma-separated generator seeds (the first is shown in full)")
    p.add_argument("--embedding", default="hash:384", help="'hash:384' (default) or 'local' (MiniLM)")
    p.add_argument("--episode-ttl-days", type=float, default=Context.episode_ttl_days,
                   help="episode TTL for both arms (default: the shipped default)")
    args = p.parse_args(argv)
    seeds = [int(x) for x in args.seeds.split(",") if x.strip()]
    rows, fives, first = [], [], ""
    for seed in seeds:
        planted = sessions(seed, args.sessions)
        arms = {}
        with tempfile.TemporaryDirectory() as tmp:
            for name, on in (("without upkeep", False), ("with upkeep", True)):
                arms[name] = run_arm(Path(tmp) / name.replace(" ", "-"), planted, on, args.embedding,
                                     args.episode_ttl_days)
        first = first or report(arms, Context(user_id="sim").memory_budget_tokens)
        rows.append(seed_row(seed, arms))
        fives.append(five_current(seed, arms))
    text = (f"Seed {seeds[0]} in full:\n\n{first}\n\nMonth six, every seed (without / with upkeep):\n\n"
            "| seed | memories | memory tokens / prompt | ratio | planted-fact recall (with) | stale (with) "
            "| past-value recall |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows)
            + "\n\nFive current values (city, job, diet, partner, the kitten's name):\n\n" + "\n".join(fives))
    print(text)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(f"# Upkeep simulation (seeds {args.seeds}, {args.sessions} sessions, {args.embedding}, "
                       f"episode TTL {args.episode_ttl_days:g} days)\n\n" + text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
