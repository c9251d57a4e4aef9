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
# # 06 · Everything together
#
# The full agent (`MemoryAgent`: the graph `retrieve → assemble → respond → consolidate` with all five layers, the
# FAISS + SQLite store and the SQLite checkpointer), across two sessions and a restart; then the message log's
# retrieval quality on a real long conversation, next to the usual baselines.
#
# **Data attribution.** Part 2 uses `bench/datasets/locomo-dev` (in this repository), a sample of **LoCoMo** ("Evaluating
# Very Long-Term Conversational Memory of LLM Agents", Maharana et al., 2024; snap-research/LoCoMo), licensed
# **CC BY-NC 4.0** (non-commercial use only); see `bench/datasets/locomo-dev/README.md`.

# %%
from nbutil import Prompt, Table, fresh_data_dir, recalled_table

from app.runtime import MemoryAgent
from core.context import Context
from memory.privacy.export import export_user, render_memories
from stores.namespaces import UserScope

ctx = Context(user_id="maya", data_dir=fresh_data_dir(), chat_model="local", embedding_model="local",
              max_new_tokens=48, review_rules=True)

# %% [markdown]
# ## 1. Session one: Maya introduces herself
# Facts are extracted by grounded rules after every turn; the style feedback proposes a rule, which Maya approves.
# Ending the session writes an episode.

# %%
agent = MemoryAgent(ctx)
rows = []
for text in [
    "Hi, I'm Maya. I'm vegetarian and I'm allergic to peanuts.",
    "I live in Lyon and I work as a nurse.",
    "Please keep your answers short.",
]:
    turn = agent.say(text, thread="monday")
    rows.append({"Maya": text, "reply": turn.reply, "rule review": turn.interrupt and turn.interrupt["rule"]})
    if turn.interrupt:
        agent.resume("monday", approve=True)
agent.end_session("monday")
Table(rows, title="session 1 (thread 'monday')")

# %%
Prompt(render_memories(export_user(agent.store, UserScope("maya"), ctx.data_dir)), title="what is stored after session 1")

# %% [markdown]
# ## 2. Session two, after a restart, on a new thread
# A new `MemoryAgent` on the same data dir (as a new process would be) and a new thread: nothing of session 1 is in
# the thread. Everything the model knows arrives through the long-term store, and the prompt shows exactly what.

# %%
agent.close()
agent = MemoryAgent(ctx)
result = agent.say("Can you suggest a dinner recipe for tonight?", thread="friday")
recalled_table(result.recalled, title="recalled for: 'Can you suggest a dinner recipe for tonight?'")

# %%
Prompt(result.system_prompt)

# %%
Table([{"reply (SmolLM2-135M, 48 tokens)": result.reply}])

# %%
agent.close()

# %% [markdown]
# ## 3. Message-log retrieval on LoCoMo
# The message log keeps every raw message and finds past turns with hybrid (dense + BM25) search, indexing each
# message with its speaker, the session date and its neighbouring turns, then reranking for names, dates and words
# of the question (`memory/layers/message_log.py`). LoCoMo questions come with the ids of the turns that hold the
# answer, so retrieval can be scored directly: **R@k** is the share of a question's evidence turns among the top *k*
# retrieved messages (categories 1–4).
#
# To keep this notebook quick, one conversation is evaluated (the benchmark, `python -m bench.locomo_recall`, runs
# both and adds a per-idea ablation). The functions are the benchmark's own.

# %%
from dataclasses import replace
from statistics import fmean

import numpy as np

from bench.locomo_recall import DEFAULT_DATA, KS, baseline_rankers, layer_ranker, load_conversation, recall_at
from memory.layers.message_log import MessageLogLayer
from models.loader import load_embeddings
from nodes.importer import import_messages

conversation = DEFAULT_DATA / "conv-30"  # bench/datasets/locomo-dev, vendored in this repository
messages, questions = load_conversation(conversation)
Table([{"conversation": conversation.name, "messages": len(messages), "sessions": len({m.thread for m in messages}),
        "questions (cat. 1-4)": len(questions), "first": messages[0].time.date(), "last": messages[-1].time.date()}])

# %%
lctx = replace(ctx, user_id="locomo")
lagent = MemoryAgent(lctx)
env = lagent.env()
layer = MessageLogLayer()
import_messages(messages, env, [layer], progress=False)

embeddings = load_embeddings("local")
rankers = {name: (lambda q, f=f: f(q.query))
           for name, f in baseline_rankers(messages, lambda t: np.asarray(embeddings.embed_documents(t), dtype=np.float32)).items()}
rankers["message log (ours)"] = layer_ranker(env, layer)
scores = {name: [fmean(recall_at(rank(q), q.evidence, k) for q in questions) for k in KS] for name, rank in rankers.items()}
Table([{"retriever": name, **{f"R@{k}": s for k, s in zip(KS, vals)}} for name, vals in scores.items()],
      title=f"{conversation.name}: evidence recall over {len(questions)} questions")

# %%
import matplotlib.pyplot as plt  # the kernel's inline backend saves the figure as a PNG

names = list(scores)
x = np.arange(len(names))
fig, ax = plt.subplots(figsize=(9, 3.4))
for i, k in enumerate(KS):
    bars = ax.bar(x + (i - 0.5) * 0.38, [scores[n][i] for n in names], width=0.36, label=f"R@{k}")
    ax.bar_label(bars, fmt="%.2f", fontsize=8)
ax.set_xticks(x, [n.replace(" of both", "\nof both").replace(" (", "\n(") for n in names], fontsize=8)
ax.set_ylim(0, 1)
ax.set_ylabel("evidence recall")
ax.set_title(f"LoCoMo {conversation.name} ({len(questions)} questions): message log vs. baselines", fontsize=10)
ax.legend()
fig.tight_layout()
plt.show()

# %% [markdown]
# For reference, the benchmark over both conversations (`python -m bench.locomo_recall`, 231 questions; its table is in
# the README) gives R@5/R@10 = 0.349/0.459 (dense), 0.497/0.580 (BM25), 0.495/0.574 (RRF) and 0.697/0.793 for the
# message log. Its hand-set boosts were chosen on these two conversations, conv-30 included, so its figure here is
# tuned on; on the project's own invented hold-out it reads R@10 0.889. A run writes the full table to
# `bench/results/`.
#
# Data: LoCoMo (Maharana et al., 2024; snap-research/LoCoMo), CC BY-NC 4.0.

# %%
lagent.close()
