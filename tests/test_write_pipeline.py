"""The write policy as one declared pipeline (memory/write_policy/pipeline.py): its stages, in order, on a real store."""

from __future__ import annotations

from datetime import UTC, datetime

from langgraph.store.memory import InMemoryStore

from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.write_policy import pipeline
from memory.write_policy.pattern_extractor import PatternFactExtractor
from models.loader import HashEmbeddings
from stores.namespaces import FACTS, PROFILE, UserScope

EMB = HashEmbeddings(384)
T0 = datetime(2025, 3, 1, tzinfo=UTC)


def env() -> LayerEnv:
    return LayerEnv(store=InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]}),
                    scope=UserScope("u1"), context=Context(), embeddings=EMB, now=T0)


def said(role: str, text: str, i: int = 1) -> LoggedMessage:
    return LoggedMessage(id=f"m{i}", thread="t", time=T0, role=role, text=text)


def test_the_stages_are_declared_and_run_in_order() -> None:
    assert pipeline.STAGES == ("normalise", "propose", "screen", "ground", "store")
    assert all(callable(getattr(pipeline, stage)) for stage in pipeline.STAGES)
    doc = pipeline.__doc__ or ""
    assert [doc.index(f"**{stage}**") for stage in pipeline.STAGES] == sorted(doc.index(f"**{s}**") for s in pipeline.STAGES)


def test_only_the_user_is_read_and_a_secret_is_never_stored() -> None:
    e = env()
    written = pipeline.write(e, PatternFactExtractor(), [
        said("assistant", "I'm vegan.", 1), said("user", "I'm vegetarian.", 2),
        said("user", "My password is hunter2-Blue-77.", 3)])
    stored = [i.value for ns in (FACTS, PROFILE) for i in e.store.search(e.scope.ns(ns), limit=20)]
    assert {v.get("value") for v in stored if v.get("value")} == {"vegetarian"}
    assert all("hunter2" not in v["text"] for v in stored)
    assert all(v["sources"] == ["m2"] for v in stored) and len(written) == len(stored) == 1
