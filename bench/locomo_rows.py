"""The rows of the LoCoMo report (bench/locomo_recall.py): the ablation, one lever per row, and the ladder.

Each row is a label and the ``LeverMessageLog`` options it runs with (bench/message_levers;
with none, it ranks as the runtime's ``MessageLogLayer`` does). ``fusion="cv"`` (the weights fitted
without the conversation ranked) is resolved per conversation by ``locomo_recall.resolved``;
``"shipped"`` is the fusion fitted on both dev conversations (bench/learned_fusion).
"""

from __future__ import annotations

from bench.message_levers.pointers import Pointers

# The ablation: the first row is the runtime's default (the hand-set rerank); the learned fusion
# is an opt-in fitted on locomo-dev (CC BY-NC 4.0, so never the default). The lever rows below it
# were measured on top of the learned fusion, which was the default then (bench/TRIED.md), and
# still spell it out, so each reproduces its figure; the pointer rows vary that lever alone.
BEFORE: dict[str, object] = {}  # the runtime's default
LEARNED: dict[str, object] = {"fusion": "shipped"}  # the learned fusion, fitted on locomo-dev
HAND_SET = BEFORE  # the round-number boosts: the runtime's rerank
ABLATION: list[tuple[str, dict[str, object]]] = [
    ("message log, today's default (the hand-set rerank)", BEFORE),
    ("+ learned fusion fitted on locomo-dev (opt-in, in-sample)", LEARNED),
    ("+ learned fusion, cross-validated (each dev conversation ranked by fusion weights fitted on the other)", {"fusion": "cv"}),
    ("- a vector per sentence (one vector per message)", {"by_sentence": False}),
    ("learned fusion + candidate pool 100", {**LEARNED, "pool": 100}),
    ("learned fusion + session-level ranking (weight 0.3)", {**LEARNED, "session_weight": 0.3}),
    ("learned fusion + at most 2 per session in the first k", {**LEARNED, "per_session": 2}),
    ("learned fusion + at most 3 per session in the first k", {**LEARNED, "per_session": 3}),
    ("learned fusion + query decomposition", {**LEARNED, "decompose": True}),
    ("learned fusion + pseudo-relevance feedback (3 words)", {**LEARNED, "feedback": 3}),
    ("+ entity cue (weight 0.3), on the hand-set rerank", {"entity_boost": 0.3}),
    ("learned fusion + session-level ranking (weight 0.15)", {**LEARNED, "session_weight": 0.15}),
    ("learned fusion + session-level ranking (weight 0.5)", {**LEARNED, "session_weight": 0.5}),
    ("learned fusion + pointers: facts and episodes, 5 each (weight 0.3)", {**LEARNED, "pointers": Pointers(0.3, limit=5)}),
    ("learned fusion + pointers: facts only, 5 (weight 0.3)", {**LEARNED, "pointers": Pointers(0.3, episodes=False, limit=5)}),
    ("learned fusion + pointers: episodes only, 5 (weight 0.3)", {**LEARNED, "pointers": Pointers(0.3, facts=False, limit=5)}),
    ("learned fusion + pointers: both, 5 each (weight 0.6)", {**LEARNED, "pointers": Pointers(0.6, limit=5)}),
    ("learned fusion + pointers: both, 5 each (0.3), neighbouring turns half the lift", {**LEARNED, "pointers": Pointers(0.3, neighbours=0.5, limit=5)}),
    ("learned fusion + pointers: both, 5 each (0.3), lift only, no pool join", {**LEARNED, "pointers": Pointers(0.3, limit=5, join=False)}),
    ("learned fusion + pointers: both, 5 each (weight 0.15)", {**LEARNED, "pointers": Pointers(0.15, limit=5)}),
    ("learned fusion + pointers: both, 2 each (weight 0.3)", {**LEARNED, "pointers": Pointers(0.3, limit=2)}),
    ("learned fusion + pointers: both, 2 each (weight 0.15)", {**LEARNED, "pointers": Pointers(0.15)}),
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
    ("+ a vector per sentence, led by it (= MessageLogLayer)", HAND_SET),
    ("+ learned fusion of the rerank's signals (opt-in, fitted on locomo-dev)", LEARNED),
    ("+ facts and episodes as pointers to their messages (weight 0.15, off)", {**LEARNED, "pointers": Pointers(0.15)}),
]
