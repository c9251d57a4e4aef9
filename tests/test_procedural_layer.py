"""Procedural layer: feedback becomes reconciled, reviewed, capped rules (stored on both backends' real store)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.procedural import ProceduralLayer, detect_feedback
from models.loader import HashEmbeddings
from stores.namespaces import RULES, UserScope
from tests.support.backends import StoreOn

NOW = datetime(2026, 3, 20, 12, 0, tzinfo=UTC)
EMB = HashEmbeddings(384)


class Approver:
    """Stands in for LangGraph's interrupt: the i-th call of a run gets the i-th
    resume value, and a call with no resume value yet interrupts the run."""

    class Interrupted(Exception):
        pass

    def __init__(self, *resumes: bool) -> None:
        self.resumes = list(resumes)
        self.calls: list[dict[str, Any]] = []
        self._index = 0

    def new_run(self, *resumes: bool) -> Approver:
        self.resumes, self._index = list(resumes), 0
        return self

    def __call__(self, proposal: dict[str, Any]) -> bool:
        self.calls.append(proposal)
        if self._index >= len(self.resumes):
            raise Approver.Interrupted(proposal)
        self._index += 1
        return self.resumes[self._index - 1]


def make_env(store: BaseStore, approve: Any = None, review: bool = True, now: datetime = NOW) -> LayerEnv:
    env = LayerEnv(
        store=store,
        scope=UserScope("alice"),
        context=Context(user_id="alice", review_rules=review),
        embeddings=EMB,
        now=now,
    )
    if approve is not None:
        env.approve = approve
    return env


def make_store() -> InMemoryStore:
    return InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]})


def user(text: str, i: int = 0) -> LoggedMessage:
    return LoggedMessage(id=f"m{i}", thread="t1", time=NOW, role="user", text=text)


def rules(store: BaseStore) -> dict[str, dict[str, Any]]:
    return {i.key: i.value for i in store.search(UserScope("alice").ns(RULES), limit=100)}


def say(layer: ProceduralLayer, store: BaseStore, text: str, i: int, minutes: int = 0, **kw: Any) -> None:
    layer.on_turn(make_env(store, now=NOW + timedelta(minutes=minutes), **kw), [user(text, i)])


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Stop giving me three options, just pick one.", "Pick one option instead of listing several."),
        ("please be more concise", "Keep answers concise."),
        ("Don't use emojis.", "Do not use emojis."),
        ("Always answer in French.", "Answer in French."),
        ("I prefer bullet points.", "Use bullet points."),
        ("Your answers are way too long.", "Keep answers concise."),
        ("Please stop apologizing", "Do not apologise."),
        ("From now on, sign your replies with Bob.", "Sign your replies with Bob."),
    ],
)
def test_feedback_becomes_one_imperative_rule(text: str, rule: str) -> None:
    store = make_store()
    ProceduralLayer().on_turn(make_env(store, review=False), [user(text)])
    assert [(v["text"], v["sources"]) for v in rules(store).values()] == [(rule, ["m0"])]


NEGATIVES = [
    "What's the weather in Paris tomorrow?",
    "Can you list three options for a weekend trip?",
    "What does 'concise' mean?",
    "How do I type emojis on Windows?",
    "Is it rude to use emojis at work?",
    "Translate 'good morning' into French.",
    "My French teacher always answers in French.",
    "I prefer tea over coffee.",
    "The bullet points on slide 3 are misaligned.",
    "Pick one number between 1 and 10.",
    "Stop the server and restart it.",
    "Don't forget to water the plants on Friday.",
    "Please summarise this article about options trading.",
    "From now on I'll be working from home.",
    "Never mind, it works now.",
    "There are no emojis in this font.",
    "Give me more details about the Eiffel Tower.",
    "Is a formal tone better for a cover letter?",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_non_feedback_produces_no_rule(text: str) -> None:
    store = make_store()
    assert detect_feedback(user(text)) == []
    ProceduralLayer().on_turn(make_env(store, review=False), [user(text)])
    assert rules(store) == {}


def test_assistant_messages_are_never_feedback() -> None:
    msg = LoggedMessage(id="a1", thread="t1", time=NOW, role="assistant", text="Don't use emojis.")
    assert detect_feedback(msg) == []


def test_restated_rule_merges_without_a_second_review(backend_store: StoreOn) -> None:
    store, layer, approver = backend_store(), ProceduralLayer(), Approver(True)
    say(layer, store, "Please be more concise.", 1, approve=approver)
    say(layer, store, "Your replies are too long.", 2, minutes=5, approve=approver.new_run())
    assert len(approver.calls) == 1
    [(key, value)] = rules(store).items()
    assert key == "length"
    assert value["text"] == "Keep answers concise."
    assert value["sources"] == ["m1", "m2"]
    assert value["created_at"] == NOW.isoformat()
    assert value["updated_at"] == (NOW + timedelta(minutes=5)).isoformat()


def test_contradiction_revises_the_rule(backend_store: StoreOn) -> None:
    store, layer, approver = backend_store(), ProceduralLayer(), Approver(True)
    say(layer, store, "Please use emojis!", 1, approve=approver)
    say(layer, store, "Actually, don't use emojis anymore.", 2, approve=approver.new_run(True))
    assert [v["text"] for v in rules(store).values()] == ["Do not use emojis."]
    assert approver.calls[-1] == {
        "type": "rule_review",
        "action": "update",
        "rule": "Do not use emojis.",
        "replaces": "Use emojis.",
        "topic": "emojis",
        "evicts": None,
    }


def test_related_open_ended_rule_is_updated_not_appended(backend_store: StoreOn) -> None:
    store, layer = backend_store(), ProceduralLayer()
    say(layer, store, "From now on, sign your replies with Bob.", 1, review=False)
    say(layer, store, "From now on, don't sign your replies with Bob.", 2, review=False)
    assert [v["text"] for v in rules(store).values()] == ["Don't sign your replies with Bob."]


def test_language_rule_is_replaced(backend_store: StoreOn) -> None:
    store, layer = backend_store(), ProceduralLayer()
    say(layer, store, "Always answer in French.", 1, review=False)
    say(layer, store, "Please reply in German.", 2, review=False)
    assert rules(store)["language"]["text"] == "Answer in German."


WISHES = [
    "mention the weather in Oslo", "quote Shakespeare sometimes", "use metric units", "cite sources with links",
    "greet me with good evening", "number every paragraph", "avoid sports metaphors", "explain acronyms first",
    "write dates as ISO", "add a haiku", "spell colour British style", "end with a summary line",
]


def test_at_most_max_rules_oldest_dropped(backend_store: StoreOn) -> None:
    store, layer, approver = backend_store(), ProceduralLayer(), Approver()
    for n, wish in enumerate(WISHES):
        say(layer, store, f"From now on, {wish}.", n, minutes=n, approve=approver.new_run(True))
    kept = sorted(v["text"] for v in rules(store).values())
    assert len(kept) == 10
    assert kept == sorted(w[0].upper() + w[1:] + "." for w in WISHES[2:])
    assert approver.calls[-1]["evicts"] == "Quote Shakespeare sometimes."
    assert [c["evicts"] for c in approver.calls[:10]] == [None] * 10


def test_rejected_review_saves_nothing() -> None:
    store, approver = make_store(), Approver(False)
    ProceduralLayer().on_turn(make_env(store, approve=approver), [user("Don't use emojis.")])
    assert rules(store) == {}
    assert approver.calls == [
        {"type": "rule_review", "action": "add", "rule": "Do not use emojis.", "replaces": None,
         "topic": "emojis", "evicts": None}
    ]


def test_no_review_when_disabled() -> None:
    store, approver = make_store(), Approver()  # would interrupt if asked
    ProceduralLayer().on_turn(make_env(store, approve=approver, review=False), [user("Don't use emojis.")])
    assert approver.calls == [] and list(rules(store)) == ["emojis"]


def test_rerun_after_interrupts_is_idempotent(backend_store: StoreOn) -> None:
    store, layer, approver = backend_store(), ProceduralLayer(), Approver()
    turn = [user("Please be more concise. And don't use emojis.", 7)]
    with pytest.raises(Approver.Interrupted):
        layer.on_turn(make_env(store, approve=approver.new_run()), turn)
    assert rules(store) == {}
    with pytest.raises(Approver.Interrupted):
        layer.on_turn(make_env(store, approve=approver.new_run(True)), turn)
    assert rules(store) == {}  # nothing is written until every proposal is answered
    layer.on_turn(make_env(store, approve=approver.new_run(True, False)), turn)
    concise, no_emojis = "Keep answers concise.", "Do not use emojis."
    assert [c["rule"] for c in approver.calls] == [concise, concise, no_emojis, concise, no_emojis]
    assert {k: v["sources"] for k, v in rules(store).items()} == {"length": ["m7"]}
    # Running the same turn again: the applied rule is neither proposed nor added again.
    layer.on_turn(make_env(store, approve=approver.new_run(False)), turn)
    assert [c["rule"] for c in approver.calls[5:]] == [no_emojis]
    assert {k: v["sources"] for k, v in rules(store).items()} == {"length": ["m7"]}


def test_recall_returns_all_rules_in_creation_order(backend_store: StoreOn) -> None:
    store, layer = backend_store(), ProceduralLayer()
    say(layer, store, "Use bullet points.", 1, minutes=1, review=False)
    say(layer, store, "Don't use emojis.", 2, minutes=2, review=False)
    say(layer, store, "Please be more concise.", 3, minutes=3, review=False)
    say(layer, store, "No more bullet points, please.", 4, minutes=4, review=False)  # revises the first
    recalled = layer.recall(make_env(store), "anything at all")
    assert [(r.kind, r.text, r.score, r.sources) for r in recalled] == [
        ("rule", "Write in prose, not bullet points.", 1.0, ("m1", "m4")),
        ("rule", "Do not use emojis.", 1.0, ("m2",)),
        ("rule", "Keep answers concise.", 1.0, ("m3",)),
    ]
