"""The message log's learned fusion, an opt-in of the benchmarks (bench/learned_fusion): its features
on a real search, the switch, the weights kept there, and the trainer on pools whose answer is known.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from bench.learned_fusion.candidates import Pools
from bench.learned_fusion.model import FEATURES, WEIGHTS_PATH, FusionModel, candidate_features, shipped_model
from bench.learned_fusion.train import MODELS, recall
from bench.message_levers.layer import LeverMessageLog
from bench.message_levers.rank import analysed
from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.message_log import MessageLogLayer
from models.loader import HashEmbeddings
from stores.namespaces import MESSAGES, UserScope
from stores.open import open_store

T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)
COL = {name: i for i, name in enumerate(FEATURES)}

LOG = [
    LoggedMessage(id=f"m{i}", thread=f"s{i // 2}", time=T0 + timedelta(days=i), role=role, text=text, name=name)
    for i, (name, role, text) in enumerate([
        ("Priya", "user", "Did you bake the bread again?"),
        ("Tomasz", "assistant", "I baked rye bread with caraway on Sunday."),
        ("Priya", "user", "My bread came out flat, the oven was too cold."),
        ("Tomasz", "assistant", "Bread needs a hot oven, that is all."),
        ("Priya", "user", "We walked along the river after lunch."),
    ])
]


@pytest.fixture
def env(tmp_path: Path) -> Iterator[LayerEnv]:
    store = open_store(str(tmp_path / "data"), "hash:128")
    env = LayerEnv(store=store, scope=UserScope("priya"), context=Context(top_k=3),
                   embeddings=HashEmbeddings(128), now=T0 + timedelta(days=30))
    MessageLogLayer().on_turn(env, LOG)
    yield env
    store.close()  # type: ignore[attr-defined]


def _only(feature: str, weight: float) -> FusionModel:
    return FusionModel(0.0, tuple(weight if name == feature else 0.0 for name in FEATURES))


def test_features_read_what_a_real_search_found(env: LayerEnv) -> None:
    hits = env.store.search(env.scope.ns(MESSAGES), query="How did Tomasz bake bread?", limit=10)
    x = candidate_features(hits, analysed("How did Tomasz bake bread?", {"priya", "tomasz"}, env.now))
    assert x.shape == (len(hits), len(FEATURES))
    row = {h.key: x[i] for i, h in enumerate(hits)}
    assert x[0, COL["fused rank"]] == 1.0 and x[:, COL["cosine below the best"]].max() == 0.0
    assert row["m4"][COL["recency"]] == 1.0 and row["m0"][COL["recency"]] == 0.0
    assert row["m0"][COL["a question itself"]] == 1.0 and row["m1"][COL["a question itself"]] == 0.0
    assert row["m1"][COL["named speaker"]] == 1.0 and row["m2"][COL["named speaker"]] == 0.0
    # m1 replies to m0's question, and both were found; m4 is alone in its session
    assert row["m1"][COL["answers a question ranked high"]] == 1.0
    assert row["m3"][COL["answers a question ranked high"]] == 0.0  # m2 before it is no question
    assert row["m1"][COL["a neighbouring turn in the pool"]] > 0.0 and row["m4"][COL["a neighbouring turn in the pool"]] == 0.0
    assert candidate_features([], analysed("anything", set(), env.now)).shape == (0, len(FEATURES))


def test_the_switch_ranks_by_the_model_and_the_default_is_the_runtimes_hand_set_rerank(env: LayerEnv) -> None:
    assert LeverMessageLog(fusion="shipped").fusion == shipped_model() and LeverMessageLog().fusion is None
    runtime = [(r.key, r.score) for r in MessageLogLayer().search(env, "What did Tomasz bake?", 5)]
    assert [(r.key, r.score) for r in LeverMessageLog().search(env, "What did Tomasz bake?", 5)] == runtime
    assert not hasattr(MessageLogLayer(), "fusion")  # the runtime carries no learned weights
    newest_first = [r.key for r in LeverMessageLog(fusion=_only("recency", 5.0)).search(env, "bread oven", 5)]
    oldest_first = [r.key for r in LeverMessageLog(fusion=_only("recency", -5.0)).search(env, "bread oven", 5)]
    assert newest_first == sorted(newest_first, key=lambda k: -int(k[1:]))
    assert oldest_first == list(reversed(newest_first))
    spoken = [r.key for r in LeverMessageLog(fusion=_only("named speaker", 5.0)).search(env, "What did Tomasz bake?", 2)]
    assert set(spoken) == {"m1", "m3"}
    answer = LeverMessageLog(fusion=_only("answers a question ranked high", 5.0)).search(env, "bread oven", 1)
    assert [r.key for r in answer] == ["m1"]


def test_the_shipped_weights_are_for_todays_features() -> None:
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES) and "locomo-dev" in data["trained_on"]
    assert len(shipped_model().weights) == len(FEATURES)


def test_a_model_with_the_wrong_number_of_weights_is_refused() -> None:
    with pytest.raises(ValueError, match="fusion model has 2 weights"):
        FusionModel(0.0, (1.0, 2.0))


def test_an_unknown_fusion_name_is_refused() -> None:
    """Only "shipped" names a model; any other string would have silently meant it."""
    with pytest.raises(ValueError, match="unknown fusion 'cv'"):
        LeverMessageLog(fusion="cv")  # type: ignore[arg-type]


def _pools(seed: int) -> Pools:
    """20 questions of 10 candidates each; the one evidence message per question is the one
    holding the query's words, placed anywhere in the store's order.
    """
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, (200, len(FEATURES)))
    x[:, COL["query words in the message"]] = 0.0
    answer = rng.integers(0, 10, 20) + np.arange(20) * 10
    x[answer, COL["query words in the message"]] = 1.0
    y = np.zeros(200, dtype=np.int8)
    y[answer] = 1
    return Pools(x, y, np.repeat(np.arange(20), 10), np.ones(20, dtype=int), np.ones(20, dtype=int))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_trainer_finds_the_feature_that_marks_the_evidence(name: str) -> None:
    fit = MODELS[name]
    model = fit(_pools(1), 1.0)
    assert int(np.argmax(model.weights)) == COL["query words in the message"]
    test = _pools(2)
    assert recall(test, model.scores(test.x), k=1).mean() == 1.0
    assert fit(_pools(1), 1.0) == model  # deterministic: the same rows give the same weights
