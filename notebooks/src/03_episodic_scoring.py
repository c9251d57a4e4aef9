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
# # 03 · Episodic memory and scoring
#
# Episodic memory keeps **one summary per past session** (`memory/layers/episodic.py`): an extractive summary
# (sentences copied, so names, ids and dates stay exact), an importance from 1 to 10 computed without an LLM,
# keywords, the session's time and the ids of its messages (provenance). Episodes expire after
# `episode_ttl_days`.
#
# Reading is where **scoring** comes in (`memory/layers/scoring.py`), shared by every layer that ranks memories:
#
# $$\text{score} = w_{rel}\cdot\text{relevance} + w_{rec}\cdot 0.5^{\,\text{age}/\text{half-life}} + w_{imp}\cdot\frac{\text{importance}}{10}$$
#
# Two presets: **assistant** (0.4 / 0.4 / 0.2 — what happened lately matters) and **copilot**
# (0.7 / 0.1 / 0.2 — what matches the question matters). Set `Context.preset` or `MEMORY_PRESET`, or
# individual weights with `MEMORY_W_RELEVANCE` / `_RECENCY` / `_IMPORTANCE`.

# %%
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from nbutil import Table, fresh_data_dir, recalled_table

from app.runtime import MemoryAgent
from core.context import PRESETS, Context
from memory.layers.base import LoggedMessage
from memory.layers.episodic import EpisodicLayer
from memory.layers.scoring import recency
from stores.namespaces import EPISODES

ctx = Context(user_id="sam", data_dir=fresh_data_dir(), chat_model="local", embedding_model="local")
agent = MemoryAgent(ctx)
now = datetime(2025, 6, 30, 18, 0, tzinfo=UTC)
env = replace(agent.env(), now=now)
layer = EpisodicLayer()

# %% [markdown]
# ## 1. Sessions become episodes
# Four past sessions, from two months ago to yesterday. The layer's `on_session_end` turns each into one episode.

# %%
sessions = {
    60: ["I'm planning the team offsite in Lisbon for September. We decided on the hotel Casa Azul, booking ref LIS-7781.",
         "Great choice. I noted the booking ref LIS-7781."],
    21: ["My laptop keeps crashing when I run docker compose up. The error is OSError: [Errno 28] No space left on device.",
         "Free some space with docker system prune and try again."],
    7: ["Just chatting: the weather in Lisbon has been lovely this week.",
        "Glad to hear it!"],
    1: ["Quick one: what's a good name for a cat?",
        "How about Miso?"],
}
for days_ago, (user, assistant) in sessions.items():
    when = now - timedelta(days=days_ago)
    thread = f"s-{days_ago}d"
    session = [
        LoggedMessage(id=f"{thread}-u", thread=thread, time=when, role="user", text=user),
        LoggedMessage(id=f"{thread}-a", thread=thread, time=when + timedelta(minutes=1), role="assistant", text=assistant),
    ]
    layer.on_session_end(replace(env, now=when), session)

episodes = sorted((i.value for i in env.store.search(env.scope.ns(EPISODES), limit=20)), key=lambda v: v["time"])
Table([{"time": e["time"][:10], "importance": e["importance"], "keywords": ", ".join(e["keywords"][:5]), "summary": e["text"]}
       for e in episodes], title="stored episodes")

# %% [markdown]
# ## 2. What each weight contributes
# For one question, the store's vector search gives each episode a relevance; recency comes from its age
# (half-life 7 days) and importance from the write policy. The plot splits each episode's score into the three
# weighted parts, for both presets.

# %%
query = "What was the booking reference for the Lisbon hotel?"
hits = env.store.search(env.scope.ns(EPISODES), query=query, limit=10)


def parts(hit, preset: str) -> dict[str, float]:
    w_rel, w_rec, w_imp = PRESETS[preset]
    return {
        "relevance": w_rel * max(0.0, hit.score or 0.0),
        "recency": w_rec * recency(hit.value["time"], now, ctx.recency_half_life_days),
        "importance": w_imp * hit.value["importance"] / 10,
    }


rows = []
for hit in hits:
    for preset in PRESETS:
        p = parts(hit, preset)
        rows.append({"episode": hit.value["time"][:10], "preset": preset, **p, "score": sum(p.values())})
Table(rows, ["episode", "preset", "relevance", "recency", "importance", "score"], title=f"score parts for: {query!r}")

# %%
import matplotlib.pyplot as plt  # the kernel's inline backend saves the figure as a PNG
from IPython.display import display

labels = [h.value["time"][:10] + "\n" + " ".join(h.value["keywords"][:2]) for h in hits]
colors = {"relevance": "#4C72B0", "recency": "#DD8452", "importance": "#55A868"}
fig, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
for ax, preset in zip(axes, PRESETS):
    left = [0.0] * len(hits)
    for part, color in colors.items():
        values = [parts(h, preset)[part] for h in hits]
        ax.barh(labels, values, left=left, color=color, label=part)
        left = [a + b for a, b in zip(left, values)]
    w = PRESETS[preset]
    ax.set_title(f"{preset} preset (w = {w[0]} / {w[1]} / {w[2]})")
    ax.set_xlabel("score")
    ax.invert_yaxis()
axes[1].legend(loc="center right", fontsize=8)
fig.suptitle(f"Why each episode ranks where it does: {query!r}", fontsize=10)
fig.tight_layout()
plt.show()

# %% [markdown]
# With the **assistant** preset, yesterday's small talk about cat names competes with — here even outranks — the
# Lisbon offsite session, only because it is recent; with **copilot**, relevance dominates and the session that
# holds the booking reference wins clearly. Neither is wrong: a personal assistant is often asked about what just
# happened, a copilot about what matches. The layer's own `recall` applies the same formula, drops anything under
# `score_floor` and keeps the top `top_k`:

# %%
for preset in PRESETS:
    penv = replace(env, context=replace(ctx, preset=preset))
    display(recalled_table(layer.recall(penv, query), title=f"EpisodicLayer.recall with preset={preset!r}"))

# %%
agent.close()
