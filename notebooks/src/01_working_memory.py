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
# # 01 · Working memory
#
# A chat model is **stateless**: every call sees only the messages it is given. "Memory" is whatever
# the application puts back into the prompt. The first layer of that is *working memory* — the
# current thread, kept by LangGraph's checkpointer — and the first problem it has is that threads
# grow past any budget.
#
# This notebook shows
# 1. the embedded model forgetting between two independent calls, and remembering once the thread is replayed;
# 2. the agent keeping the thread for you (checkpointer, `thread_id`);
# 3. **compaction** (`memory/layers/working.py` → `compact`): when the thread outgrows its token budget, older
#    turns are folded into a running summary that keeps every id, amount, date, path, command and error verbatim.
#
# Everything runs offline on the embedded models (SmolLM2-135M for chat, all-MiniLM-L6-v2 for embeddings),
# in a temporary data dir.

# %%
from langchain_core.messages import AIMessage, HumanMessage
from nbutil import Prompt, Table, fresh_data_dir

from models.loader import load_chat_model

chat = load_chat_model("local", max_tokens=48)  # keep generations short: this is a demo, not a benchmark

# %% [markdown]
# ## 1. A model without memory forgets
# Two separate calls. The second one has no way to know what the first one was told.

# %%
first = HumanMessage("Hi! My name is Ana and my order number is ORD-48213.")
reply1 = chat.invoke([first])
question = HumanMessage("What is my name?")
forgetful = chat.invoke([question])
Table([
    {"call": "1", "sent": first.text, "reply": reply1.text},
    {"call": "2 (new call, nothing replayed)", "sent": question.text, "reply": forgetful.text},
])

# %% [markdown]
# Replaying the thread is the whole trick: the same model, given the earlier turns, can answer
# (a 135M-parameter model does not always use what it is given, but now it *could*).

# %%
with_thread = chat.invoke([first, AIMessage(reply1.text), question])
Table([{"sent": "call 1 + reply + question", "reply": with_thread.text}])

# %% [markdown]
# ## 2. The agent keeps the thread for you
# `MemoryAgent` compiles the graph with a SQLite checkpointer; the same `thread` id continues the
# conversation (also after a restart). We use a deliberately tiny working budget so compaction kicks in
# after a few turns.

# %%
from app.runtime import MemoryAgent
from core.context import Context

ctx = Context(
    user_id="ana",
    data_dir=fresh_data_dir(),
    chat_model="local",
    embedding_model="local",
    max_new_tokens=48,
    working_budget_tokens=160,  # tiny on purpose
    keep_last_messages=4,
)
agent = MemoryAgent(ctx)
turns = [
    "Hi, I'm Ana. My order ORD-48213 arrived damaged.",
    "The tracking number was 1Z999AA10123456784 and it cost $129.99.",
    "I already ran `pip install -U shop-cli` and got ConnectionError: timed out.",
    "The receipt is saved at ~/Documents/receipts/ord-48213.pdf.",
    "Can you help me write the complaint?",
]
rows = []
for text in turns:
    agent.say(text, thread="support-1")
    state = agent.state("support-1")
    rows.append({"user said": text, "messages kept": len(state["messages"]), "summary words": len((state.get("summary") or "").split())})
Table(rows, title="thread 'support-1' after each turn")

# %% [markdown]
# The oldest turns left the message list but not the thread: they live on in the running summary,
# with the identifiers copied character for character.

# %%
state = agent.state("support-1")
Prompt(state.get("summary", ""), title="running summary of compacted turns")

# %%
Table(
    [{"type": m.type, "text": m.text} for m in state["messages"]],
    title="messages still verbatim in the thread",
)

# %% [markdown]
# The summary is part of what the model sees: it goes into the volatile part of the system prompt
# (after the stable, cacheable prefix).

# %%
Prompt(state["system_prompt"])

# %% [markdown]
# ## 3. `compact` on its own
# The layer's write policy is one pure function, so it is easy to test and to reuse:
# `compact(messages, summary, budget_tokens, keep_last)` returns the ids to remove and the new summary.
# It never cuts between an AI tool call and its results, and never drops the latest user message.

# %%
from memory.layers.identifiers import extract_identifiers
from memory.layers.working import compact

thread = [
    HumanMessage("Deploy failed again on staging.", id="m1"),
    AIMessage("What does the log say?", id="m2"),
    HumanMessage("It says `ModuleNotFoundError: No module named 'yaml'` when running python manage.py migrate.", id="m3"),
    AIMessage("Add pyyaml to requirements.txt and redeploy.", id="m4"),
    HumanMessage("Done, ticket OPS-2291 is updated. The config lives in /etc/shop/settings.yaml.", id="m5"),
    AIMessage("Great. Anything else?", id="m6"),
    HumanMessage("Yes: the invoice INV-2024-0042 for $1,250.00 is due on 2024-07-31.", id="m7"),
    AIMessage("Noted.", id="m8"),
    HumanMessage("What was the error again?", id="m9"),
]
removed, summary = compact(thread, summary="", budget_tokens=80, keep_last=3)
Table([{"removed": m.id, "text": m.text} for m in thread if m.id in removed], title=f"{len(removed)} messages folded into the summary")

# %%
Prompt(summary, title="summary")

# %%
wanted = [i for m in thread if m.id in removed for i in extract_identifiers(m.text)]
Table([{"identifier": i, "kept verbatim": "yes" if i in summary else "NO"} for i in wanted], title="identifiers of the removed turns")

# %%
assert all(i in summary for i in wanted), "every identifier must survive compaction"
agent.close()
