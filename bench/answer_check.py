"""Does the answer check keep replies within what memory says? Check off vs on.

    python -m bench.answer_check                  # 60 questions, embedded chat model, check off then on
    python -m bench.answer_check --per-profile 2  # a quick look
    python -m bench.answer_check --lexicon        # only the lexicon's precision/recall and check time

Six profiles (vegetarian, vegan, peanut allergy, gluten-free, halal, none), ten
food questions each (cooking, restaurants, shopping, travel food), asked through
the whole graph on fresh threads, once with ``check_answers`` off and once on.
A reply "conflicts" when the answer check's own tests find a forbidden item in
it (the Memory check line itself excluded); the lexicon's precision and recall
on labelled sentences (bench/answer_check_lexicon.py) say how far to trust that.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from typing import Any

from app.runtime import MemoryAgent
from bench import answer_check_lexicon
from core.context import Context
from memory.layers.semantic import remember
from nodes.check.memories import gather_checks
from nodes.check.node import FLAG_PREFIX, find_conflicts

PROFILES: dict[str, str] = {
    "vegetarian": "I'm vegetarian.",
    "vegan": "I'm vegan.",
    "peanut allergy": "I'm allergic to peanuts.",
    "gluten-free": "I'm gluten-free.",
    "halal": "I eat halal.",
    "none": "",
}
QUESTIONS = [
    "Can you suggest a dinner recipe for tonight?",
    "What should I cook for a quick weekday lunch?",
    "What can I bring to a picnic?",
    "Give me an idea for a hearty soup.",
    "What should I order at an Italian restaurant?",
    "What is a good snack for a long hike?",
    "What should I buy at the supermarket for the week?",
    "What street food should I try in Bangkok?",
    "What should I eat on a trip to Lisbon?",
    "What can I make for a birthday party buffet?",
]


def _split_flag(text: str) -> tuple[str, bool]:
    body, sep, _ = text.partition(f"\n\n{FLAG_PREFIX}")
    return body, bool(sep)


def run_mode(agent: MemoryAgent, profile: str, questions: list[str], on: bool) -> list[dict[str, Any]]:
    """Ask every question once on a fresh thread; one row per reply."""
    agent.context = replace(agent.context, check_answers=on)
    rows = []
    for i, question in enumerate(questions):
        t0 = time.perf_counter()
        result = agent.say(question, f"{profile.replace(' ', '-')}-{'on' if on else 'off'}-{i}")
        seconds = time.perf_counter() - t0
        body, flagged = _split_flag(result.reply)
        checks, _ = gather_checks(result.recalled)
        record = agent.state(f"{profile.replace(' ', '-')}-{'on' if on else 'off'}-{i}").get("answer_check") or {}
        rows.append({
            "profile": profile, "on": on, "seconds": seconds, "flagged": flagged,
            "conflicts": [c["label"] + ": " + ", ".join(c["items"]) for c in find_conflicts(checks, body)],
            "retries": int(record.get("retries", 0)), "check_ms": float(record.get("check_ms", 0.0)),
            "reply": result.reply,
        })
    return rows


def summarise(rows: list[dict[str, Any]]) -> dict[str, float]:
    n = len(rows) or 1
    return {
        "replies": len(rows),
        "conflict": sum(bool(r["conflicts"]) for r in rows) / n,
        "unflagged": sum(bool(r["conflicts"]) and not r["flagged"] for r in rows) / n,
        "flagged": sum(bool(r["conflicts"]) and r["flagged"] for r in rows) / n,
        "retries": sum(r["retries"] for r in rows) / n,
        "mean_s": statistics.mean(r["seconds"] for r in rows) if rows else 0.0,
        "check_ms_p50": statistics.median(r["check_ms"] for r in rows) if rows else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-profile", type=int, default=len(QUESTIONS), help="questions per profile (10: all 60)")
    parser.add_argument("--chat-model", default="local")
    parser.add_argument("--embedding-model", default="hash:384", help="recall here is the whole profile; hash is enough")
    parser.add_argument("--lexicon", action="store_true", help="only the lexicon figures")
    parser.add_argument("--show", action="store_true", help="print every reply")
    args = parser.parse_args()
    for name in ("dev", "heldout"):
        s = answer_check_lexicon.scores(answer_check_lexicon.load_labelled(name))
        print(f"lexicon {name:8} n={s['n']:3} precision={s['precision']:.3f} recall={s['recall']:.3f}")
    print(f"check p50 (lexicon sentences): {answer_check_lexicon.check_timing(answer_check_lexicon.load_labelled('dev')):.3f} ms")
    if args.lexicon:
        return
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as data:
        for profile, statement in PROFILES.items():
            ctx = Context(user_id=profile.replace(" ", "-"), data_dir=data, chat_model=args.chat_model,
                          embedding_model=args.embedding_model, review_rules=False)
            with MemoryAgent(ctx) as agent:
                if statement:
                    remember(agent.env(), statement)
                for on in (False, True):
                    rows += run_mode(agent, profile, QUESTIONS[: args.per_profile], on)
    print(f"\n{'':10} {'replies':>7} {'conflict':>9} {'unflagged':>10} {'flagged':>8} {'retries/turn':>13} "
          f"{'s/turn':>7} {'check p50 ms':>13}")
    for on in (False, True):
        s = summarise([r for r in rows if r["on"] == on])
        print(f"check {'on ' if on else 'off'}  {s['replies']:7} {s['conflict']:9.1%} {s['unflagged']:10.1%} "
              f"{s['flagged']:8.1%} {s['retries']:13.2f} {s['mean_s']:7.2f} {s['check_ms_p50']:13.3f}")
    for profile in PROFILES:
        off = summarise([r for r in rows if r["profile"] == profile and not r["on"]])
        on_ = summarise([r for r in rows if r["profile"] == profile and r["on"]])
        print(f"  {profile:15} conflict off {off['conflict']:5.0%}  on {on_['conflict']:5.0%}  "
              f"unflagged on {on_['unflagged']:5.0%}  retries/turn {on_['retries']:.2f}")
    if args.show:
        for r in rows:
            print(f"\n[{r['profile']} | check {'on' if r['on'] else 'off'}] {r['conflicts']}\n{r['reply']}")


if __name__ == "__main__":
    main()
