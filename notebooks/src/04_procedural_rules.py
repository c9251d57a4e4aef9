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
# # 04 · Procedural memory: rules, with review
#
# Procedural memory is *how the user wants to be answered*: short imperative rules learned from feedback
# ("stop using emojis" → "Do not use emojis."), see `memory/layers/procedural.py`. A wrong rule changes every
# later answer, so
#
# - feedback is matched by precise patterns (no LLM), open-ended wishes only after "from now on";
# - rules are reconciled by topic, never blindly appended ("use emojis" later *revises* "do not use emojis");
# - with `review_rules=True` every new or changed rule is **shown to the user first**, through a LangGraph
#   `interrupt` raised inside the `consolidate` node. The graph pauses there, its state checkpointed; it continues
#   when resumed with `Command(resume=True | False | {"approve": bool})` — from this notebook, the CLI, or
#   LangGraph Studio's *Resume* button.

# %%
from nbutil import Prompt, Table, fresh_data_dir, items_table

from app.runtime import MemoryAgent
from core.context import Context
from stores.namespaces import RULES

ctx = Context(user_id="lee", data_dir=fresh_data_dir(), chat_model="local", embedding_model="local",
              max_new_tokens=48, review_rules=True)
agent = MemoryAgent(ctx)
rules_ns = ("users", "lee", RULES)

# %% [markdown]
# ## 1. Feedback pauses the graph
# `MemoryAgent.say` runs one turn. The reply is produced, then `consolidate` proposes a rule and interrupts.

# %%
result = agent.say("Please stop using emojis in your answers.", thread="t1")
Table([{"reply": result.reply}, {"reply": "interrupt payload → " + str(result.interrupt)}], title="turn result")

# %% [markdown]
# The same pause, seen through the plain LangGraph API: the thread's next node is `consolidate`, and the pending
# interrupt carries the proposal. Nothing has been written to the rules namespace yet.

# %%
config = agent.config("t1")  # {"configurable": {"thread_id": "lee:t1"}}: thread ids are per user
snapshot = agent.graph.get_state(config)
Table([{"next": list(snapshot.next), "interrupt value": snapshot.interrupts[0].value}], title="graph.get_state(...)")

# %%
items_table(agent.store, rules_ns, ["text", "topic"], title="stored rules (before review)")

# %% [markdown]
# ## 2. Approve
# `agent.resume(thread, approve=True)` is `graph.invoke(Command(resume={"approve": True}), config, context=ctx)`.

# %%
from langgraph.types import Command

out = agent.graph.invoke(Command(resume={"approve": True}), config, context=agent.context)
items_table(agent.store, rules_ns, ["text", "topic", "sources"], title="stored rules (after approving)")

# %% [markdown]
# ## 3. Reject
# A rejected proposal leaves the rules as they were.

# %%
proposal = agent.say("Please be more concise.", thread="t1").interrupt
rejected = agent.resume("t1", approve=False)
Table([{"proposal": proposal, "after reject, pending": rejected.interrupt}], title="reject")

# %%
items_table(agent.store, rules_ns, ["text", "topic"], title="stored rules (after rejecting)")

# %% [markdown]
# ## 4. Revising a rule
# Contradicting feedback on the same topic proposes an **update** of the stored rule (the proposal says what it replaces).

# %%
proposal = agent.say("Actually, I like it when you use emojis.", thread="t2").interrupt
agent.resume("t2", approve=True)
Table([{"proposal": proposal}], title="an update proposal")

# %%
items_table(agent.store, rules_ns, ["text", "topic", "sources"], title="stored rules (after the revision)")

# %% [markdown]
# ## 5. Rules in the prompt
# Rules are recalled whole, oldest first, into the **stable prefix** of the system prompt (right after the persona and
# memory rules), so the prefix stays byte-identical between turns and provider prompt caches can reuse it.

# %%
result = agent.say("How should I start learning Portuguese?", thread="t3")
Prompt(result.system_prompt.split("Current date:")[0].strip(), title="stable prefix + volatile part")

# %%
Table([{"reply (SmolLM2-135M, 48 tokens)": result.reply, "pending review": result.interrupt}])

# %% [markdown]
# Without review (`review_rules=False`, or `MEMORY_REVIEW_RULES=false`), rules are saved directly — the default
# for tests and batch imports; with a real user in the loop, keep review on.

# %%
agent.close()
