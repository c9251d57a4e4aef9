"""The simulated user of ``bench/upkeep_sim.py``: six months, 200 sessions, from a seeded generator.

Planted facts change on set days (a move, a new job, a diet change, a new
partner); one-off events happen once; the rest is restatement, habit and small
talk. Questions at each checkpoint ask for a current value, a past value or an
event, with the words the prompt must (or must not) contain.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memory.layers.base import LoggedMessage

START = datetime(2025, 1, 6, 18, 0, tzinfo=UTC)
DAYS = 182

# slot: [(from day, value, how the user says it, how they restate it)]
FACTS: dict[str, list[tuple[int, str, str, str]]] = {
    "location": [(0, "Paris", "I live in Paris.", "I live in Paris, near the canal."),
                 (70, "Berlin", "I moved to Berlin.", "I live in Berlin now.")],
    "occupation": [(1, "teacher", "I work as a teacher.", "I'm a teacher."),
                   (100, "nurse", "I changed jobs. I work as a nurse.", "I work as a nurse.")],
    "diet": [(5, "vegetarian", "I'm vegetarian.", "I'm vegetarian."),
             (120, "vegan", "I'm vegan now.", "I'm vegan.")],
    "partner": [(10, "Sam", "My partner is Sam.", "My partner is Sam."),
                (130, "Alex", "My partner is Alex.", "My partner is Alex.")],
}
QUESTIONS = {"location": ("Where do I live?", "Where did I live before?"),
             "occupation": ("What is my job?", "What job did I have before?"),
             "diet": ("What is my diet?", "What diet did I follow before?"),
             "partner": ("Who is my partner?", "Who was my partner before?")}
EVENTS = [(d, text, word) for d, text, word in (
    (12, "I went to a Coldplay concert at Wembley.", "Coldplay"),
    (25, "I broke my wrist skiing in Chamonix.", "Chamonix"),
    (38, "I ran the Lisbon half marathon.", "Lisbon"),
    (50, "I adopted a kitten called Miso.", "Miso"),
    (63, "I passed my driving test on the second try.", "driving"),
    (77, "I visited the Pergamon museum with my cousin.", "Pergamon"),
    (91, "I lost my passport at the airport in Oslo.", "Oslo"),
    (104, "I hosted a dinner for twelve friends.", "twelve"),
    (117, "I started learning the cello.", "cello"),
    (133, "I went hiking in the Harz mountains.", "Harz"),
    (146, "I repainted the bathroom turquoise.", "turquoise"),
    (160, "I won a pub quiz with my colleagues.", "quiz"),
)]
EVENT_QUESTIONS = {"Coldplay": "Which band did I see at Wembley?", "Chamonix": "Where did I break my wrist?",
                   "Lisbon": "Which half marathon did I run?", "Miso": "What is my kitten called?",
                   "driving": "What test did I pass on the second try?", "Pergamon": "Which museum did I visit?",
                   "Oslo": "Where did I lose my passport?", "twelve": "How many friends came to my dinner?",
                   "cello": "Which instrument did I start learning?", "Harz": "Where did I go hiking?",
                   "turquoise": "What colour is the bathroom now?", "quiz": "What did I win with my colleagues?"}
SMALL_TALK = ["What's the weather like today?", "Tell me a joke.", "Any tips for a rainy Sunday?",
              "How do I boil an egg?", "What's a good podcast?", "Can you recommend a film?",
              "I'm a bit tired today.", "What day is it?", "Give me a word for happy.", "How are you?"]
HABITS = ["I ordered the vegetarian lasagna.", "We had a vegetarian curry tonight.", "I went climbing after work."]


@dataclass(frozen=True)
class Question:
    """One question at a checkpoint: what the prompt should show, and what it must not show as current."""

    kind: str  # "current", "past" or "event"
    text: str
    expect: str
    stale: str | None = None


def value_at(slot: str, day: float) -> tuple[str | None, str | None]:
    """(current, previous) value of ``slot`` on ``day``."""
    current = previous = None
    for start, value, _, _ in FACTS[slot]:
        if start <= day:
            previous, current = current, value
    return current, previous


def sessions(seed: int = 7, n: int = 200) -> list[list[LoggedMessage]]:
    """``n`` sessions spread over ``DAYS``; each has 2-4 user lines with short replies."""
    rng = random.Random(seed)
    days = sorted(rng.uniform(0, DAYS - 1) for _ in range(n))
    plan: dict[int, list[str]] = {i: [] for i in range(n)}
    first = lambda d: next(i for i, day in enumerate(days) if day >= d)  # noqa: E731
    for slot, changes in FACTS.items():
        for start, _, said, _ in changes:
            plan[first(start)].append(said)
    for day, text, _ in EVENTS:
        plan[first(day)].append(text)
    out = []
    for i, day in enumerate(days):
        lines = list(plan[i])
        if rng.random() < 0.25:  # a restatement of a current value
            slot = rng.choice(list(FACTS))
            restate = [r for start, _, _, r in FACTS[slot] if start <= day]
            if restate:
                lines.append(restate[-1])
        if day < 110 and rng.random() < 0.2:
            lines.append(rng.choice(HABITS))
        lines += rng.sample(SMALL_TALK, k=rng.randint(1, 2))
        at = START + timedelta(days=day)
        thread = f"s{i:03d}"
        msgs = []
        for j, text in enumerate(lines):
            msgs.append(LoggedMessage(id=f"{thread}-u{j}", thread=thread, time=at + timedelta(minutes=2 * j),
                                      role="user", text=text))
            msgs.append(LoggedMessage(id=f"{thread}-a{j}", thread=thread, time=at + timedelta(minutes=2 * j + 1),
                                      role="assistant", text="Got it. Anything else I can help with?"))
        out.append(msgs)
    return out


def questions(day: float) -> list[Question]:
    """The questions asked on ``day``: each slot's current value, past values once changed, past events."""
    out = []
    for slot, (now_q, past_q) in QUESTIONS.items():
        current, previous = value_at(slot, day)
        if current is not None:
            out.append(Question("current", now_q, current, stale=previous))
        if previous is not None:
            out.append(Question("past", past_q, previous))
    out += [Question("event", EVENT_QUESTIONS[word], word) for d, _, word in EVENTS if d + 7 <= day]
    return out
