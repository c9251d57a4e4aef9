# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -all
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · Semantic memory: facts about the user
#
# Semantic memory holds what is *true about the user*: a small **profile** (name, diet, allergies, city, job…)
# and loose **facts**. Its write policy is the interesting part (`memory/layers/semantic.py`,
# `memory/layers/semantic_records.py`, `memory/write_policy/`):
#
# 1. **extraction** — a rule extractor (no LLM) turns first-person durable statements into candidate facts;
# 2. **grounding** — every candidate, from any extractor, must be made of the user's own words;
# 3. **dedup** — saying the same thing twice refreshes one record instead of adding another;
# 4. **supersession with history** — a new value for a profile slot replaces the old one, and the old one
#    moves to `profile_history` with the date it stopped being true.

# %%
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from nbutil import Prompt, Table, fresh_data_dir, items_table, recalled_table

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers.base import LoggedMessage
from stores.namespaces import FACTS, PROFILE, PROFILE_HISTORY

ctx = Context(user_id="ana", data_dir=fresh_data_dir(), chat_model="local", embedding_model="local", max_new_tokens=48)
agent = MemoryAgent(ctx)
env = agent.env()
scope = env.scope
t0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def said(i: int, text: str, days: int = 0) -> LoggedMessage:
    """A user message as the layers see it (id, thread, time, role, text)."""
    return LoggedMessage(id=f"m{i}", thread="t1", time=t0 + timedelta(days=days), role="user", text=text)

# %% [markdown]
# ## 1. Extraction without an LLM
# Durable first-person statements become third-person facts; moods, questions and one-off requests do not.

# %%
from memory.write_policy.pattern_extractor import PatternFactExtractor

messages = [
    said(1, "Hi, I'm Ana. I'm vegetarian and I live in Berlin."),
    said(2, "I'm so tired today. Can you suggest a quick dinner?"),
    said(3, "I'm allergic to peanuts. I love hiking in the Alps."),
]
candidates = PatternFactExtractor().extract(messages)
Table([{"text": c.text, "key": c.key, "value": c.value, "importance": c.importance, "sources": c.sources} for c in candidates],
      title="candidates from the rule extractor")

# %% [markdown]
# ## 2. Grounding
# The embedded model, asked for facts as JSON, tends to copy its examples or invent facts
# (`docs/architecture.md`, "Why writes do not trust the model").
# Whatever an extractor proposes, `ground()` keeps only what the user's own messages support. Below, the embedded
# model's proposals (if its answer parses at all — a log line shows it when it does not) are joined by two
# hand-written ones: an invented employer and a true city.

# %%
from memory.write_policy.base import CandidateFact
from memory.write_policy.grounding import ground
from memory.write_policy.llm import LLMFactExtractor
from models.loader import load_chat_model

llm_candidates = LLMFactExtractor(load_chat_model("local", max_tokens=160)).extract(messages)
invented = [
    CandidateFact(text="The user works at Hugging Face.", key="employer", value="Hugging Face"),
    CandidateFact(text="The user lives in Berlin.", key="location", value="Berlin"),
]
proposed = llm_candidates + invented
kept = {c.text for c in ground(proposed, messages)}
Table([{"proposed by": "SmolLM2" if c in llm_candidates else "hand-written", "text": c.text, "value": c.value,
        "grounded": "kept" if c.text in kept else "rejected"} for c in proposed],
      title="grounding: only what the user said survives")

# %% [markdown]
# ## 3. Storing, and dedup
# `write_facts` grounds, screens for secrets and stores. Stating a fact again (in other words, later) refreshes
# the same record — its `sources` grow — instead of adding a near-duplicate.

# %%
from memory.write_policy.pipeline import write_facts

write_facts(env, candidates, messages)
again = [said(4, "I really love hiking in the Alps.", days=3)]
write_facts(replace(env, now=again[0].time), PatternFactExtractor().extract(again), again)
Table([*items_table(env.store, scope.ns(PROFILE), ["text", "value", "importance", "sources", "updated_at"]).rows,
       *items_table(env.store, scope.ns(FACTS), ["text", "value", "importance", "sources", "updated_at"]).rows],
      ["key", "text", "value", "importance", "sources", "updated_at"], title="profile + facts after dedup")

# %% [markdown]
# ## 4. Supersession with history
# Ana moves. The `location` slot now says Lisbon; Berlin is not deleted but archived with `valid_to`,
# so "where did I live before?" stays answerable and nothing is silently overwritten.

# %%
moved = [said(5, "I moved to Lisbon.", days=30)]
write_facts(replace(env, now=moved[0].time), PatternFactExtractor().extract(moved), moved)
Table([*items_table(env.store, scope.ns(PROFILE), ["text", "updated_at"]).rows], title="current profile")

# %%
items_table(env.store, scope.ns(PROFILE_HISTORY), ["text", "valid_to", "superseded_by"], title="profile history")

# %% [markdown]
# ## 5. Recall and the prompt
# The profile is small and always relevant, so it goes into the stable prompt prefix on every turn; loose
# facts are ranked by relevance + recency + importance (notebook 03) and go into the volatile part.

# %%
result = agent.say("Any ideas for a weekend trip?", thread="t2")
recalled_table([r for r in result.recalled if r["kind"] in ("profile", "fact")])

# %%
Prompt(result.system_prompt)

# %%
Table([{"reply (SmolLM2-135M, 48 tokens)": result.reply}])

# %%
agent.close()
