"""The rows of the LoCoMo report (bench/locomo_recall.py): the ablation, one lever per row, and the ladder.

Each row is a label and the ``MessageLogLayer`` options it runs with. ``fusion="cv"`` (the
weights fitted without the conversation ranked) is resolved per conversation by
``locomo_recall.resolved``; the layer itself reads ``"shipped"``, its default.
"""

from __future__ import annotations

from memory.layers.message_pointers import Pointers

# The ablation: each row is today's layer (pointers off, spelt out) with one lever changed ("-": one
# idea of today's layer taken out; the cross-validated row is today's layer scored honestly on dev); the
# pointer rows vary that lever alone; the last row is the pointer setting that passed the quality rule.
BEFORE: dict[str, object] = dict(pointers=Pointers(weight=0))
HAND_SET: dict[str, object] = {**BEFORE, "fusion": None}  # the round-number boosts instead of the learned fusion
ABLATION: list[tuple[str, dict[str, object]]] = [
    ("message log, today's default (pointers off; learned fusion fitted on locomo-dev)", BEFORE),
    ("today's default, cross-validated (each dev conversation ranked by fusion weights fitted on the other)", {**BEFORE, "fusion": "cv"}),
    ("- learned fusion (the hand-set rerank, the default before)", HAND_SET),
    ("- learned fusion - a vector per sentence (one vector per message)", {**HAND_SET, "by_sentence": False}),
    ("+ candidate pool 100", {**BEFORE, "pool": 100}),
    ("+ session-level ranking (weight 0.3)", {**BEFORE, "session_weight": 0.3}),
    ("+ at most 2 per session in the first k", {**BEFORE, "per_session": 2}),
    ("+ at most 3 per session in the first k", {**BEFORE, "per_session": 3}),
    ("+ query decomposition", {**BEFORE, "decompose": True}),
    ("+ pseudo-relevance feedback (3 words)", {**BEFORE, "feedback": 3}),
    ("+ entity cue (weight 0.3), on the hand-set rerank", {**HAND_SET, "entity_boost": 0.3}),
    ("+ session-level ranking (weight 0.15)", {**BEFORE, "session_weight": 0.15}),
    ("+ session-level ranking (weight 0.5)", {**BEFORE, "session_weight": 0.5}),
    ("+ pointers: facts and episodes, 5 each (weight 0.3)", dict(pointers=Pointers(0.3, limit=5))),
    ("+ pointers: facts only, 5 (weight 0.3)", dict(pointers=Pointers(0.3, episodes=False, limit=5))),
    ("+ pointers: episodes only, 5 (weight 0.3)", dict(pointers=Pointers(0.3, facts=False, limit=5))),
    ("+ pointers: both, 5 each (weight 0.6)", dict(pointers=Pointers(0.6, limit=5))),
    ("+ pointers: both, 5 each (0.3), neighbouring turns half the lift", dict(pointers=Pointers(0.3, neighbours=0.5, limit=5))),
    ("+ pointers: both, 5 each (0.3), lift only, no pool join", dict(pointers=Pointers(0.3, limit=5, join=False))),
    ("+ pointers: both, 5 each (weight 0.15)", dict(pointers=Pointers(0.15, limit=5))),
    ("+ pointers: both, 2 each (weight 0.3)", dict(pointers=Pointers(0.3, limit=2))),
    ("+ pointers: both, 2 each (weight 0.15): passes the quality rule", dict(pointers=Pointers(0.15))),
]

# The ladder (--ladder): each row adds one idea to the one above it.
LADDER: list[tuple[str, dict[str, object]]] = [
    ("store hybrid search, name + text", dict(HAND_SET, by_sentence=False, date_in_index=False, neighbours=False, speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ session date indexed", dict(HAND_SET, by_sentence=False, neighbours=False, speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ neighbouring turns indexed", dict(HAND_SET, by_sentence=False, speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ rerank: named speaker", dict(HAND_SET, by_sentence=False, when_boost=0, period_boost=0, term_boost=0)),
    ("+ rerank: 'when' → dated messages", dict(HAND_SET, by_sentence=False, period_boost=0, term_boost=0)),
    ("+ rerank: period named in the query", dict(HAND_SET, by_sentence=False, term_boost=0)),
    ("+ rerank: content words in the message itself", dict(HAND_SET, by_sentence=False)),
    ("+ a vector per sentence, led by it", HAND_SET),
    ("+ learned fusion of the rerank's signals (= MessageLogLayer)", BEFORE),
    ("+ facts and episodes as pointers to their messages (weight 0.15, off by default)", dict(pointers=Pointers(0.15))),
]
