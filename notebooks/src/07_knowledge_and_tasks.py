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
# # 07 · Knowledge beside memory, and past tasks as examples
#
# **Memory** is what the agent learned about one user; **knowledge** is what the operator wrote in advance for
# everyone (policies, manuals). They share the retrieval machinery and nothing else: knowledge lives in a namespace
# of its own, every user reads it, only the operator's `memory-agent knowledge` command writes it, and the prompt
# shows it in its own `<knowledge>` block, cited, within its own budget (`memory/layers/knowledge.py`).
#
# **Task episodes** are procedural memory by example: a turn that asks for a piece of work is recorded with its
# approach, outcome, duration, token cost and a quality score; a similar task later is shown the best past
# successes as few-shot examples (`memory/layers/task_episodes.py`).
#
# This notebook runs on the `scripted` chat model (it plays the replies below) and `hash:384` embeddings, so CI
# runs it in seconds; what to look at is what reaches the model: the assembled prompt.

# %%
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from nbutil import ROOT, Prompt, Table, fresh_data_dir, items_table, recalled_table

from app.runtime import MemoryAgent
from core.context import Context
from models.scripted_chat import ScriptedChatModel
from stores.namespaces import TASKS, UserScope

ctx = Context(user_id="sam", data_dir=fresh_data_dir(), chat_model="scripted", embedding_model="hash:384",
              review_rules=False, consolidation_delay_s=0)


def operator(*args: str) -> str:
    """The operator's command line, as a shell would run it: `memory-agent --data-dir ... ARGS`."""
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", ctx.data_dir, "--embedding-model", ctx.embedding_model,
           *args]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    return (done.stdout + done.stderr).strip()


# %% [markdown]
# ## 1. The operator adds a folder of documents
# Two Markdown pages of an invented shop. `knowledge add` takes text, Markdown, HTML and PDF files and folders,
# chunks them by heading, and skips a file whose content hash is unchanged.

# %%
docs = Path(tempfile.mkdtemp(prefix="shop-docs-"))
(docs / "returns.md").write_text(
    "# Returns\n\nUnopened items may be returned within 30 days of delivery for a full refund.\n\n"
    "## Small appliances\n\nYou can return an opened kettle, toaster or blender within 14 days if it is clean "
    "and in its box. The refund goes back to the card used.\n", encoding="utf-8")
(docs / "shipping.md").write_text(
    "# Shipping\n\nParcels leave the Lyon warehouse on weekdays. Standard delivery takes 2 to 4 working days; "
    "express delivery arrives the next working day when ordered before noon.\n", encoding="utf-8")
def show(out: str) -> None:
    print(out.replace(f"{docs}/", ""))  # the temp folder's name says nothing


show(operator("knowledge", "add", "--no-progress", str(docs)))
show(operator("knowledge", "add", "--no-progress", str(docs)))  # again: unchanged, skipped
show(operator("knowledge", "list"))

# %% [markdown]
# ## 2. A policy question, answered from the document beside the user's own memory
# Sam tells the agent something about himself, then, in another conversation, asks a policy question. The prompt
# holds both, apart: his memory in `<memories>` blocks, the policy in the `<knowledge>` block with its citation
# (document § section, chunk). (With `hash:384` embeddings retrieval goes by shared words; `local`, MiniLM, goes by
# meaning.)

# %%
answers = ScriptedChatModel(responses=[
    "Hello Sam.",
    "Enjoy your tea.",
    "Yes: returns.md § Returns / Small appliances says an opened kettle can go back within 14 days if it is clean "
    "and boxed. You bought yours on Monday, so you are well within it.",
])
agent = MemoryAgent(ctx, chat_model=answers)
agent.say("My name is Sam.", thread="s0")
agent.say("I bought a blue kettle on Monday and I already opened it.", thread="s0")
turn = agent.say("Can I still return an opened kettle?", thread="s1")
print(turn.reply)
recalled_table([r for r in turn.recalled if r["kind"] in ("knowledge", "profile", "message", "fact")],
               title="what the layers recalled")

# %%
Prompt(turn.system_prompt)

# %% [markdown]
# No user can write the knowledge base, through the gate or otherwise; a user's forget and export never reach it.

# %%
from memory.write_policy.gate import KnowledgeReadOnly, MemoryGate  # noqa: E402
from stores.namespaces import KNOWLEDGE_CHUNKS  # noqa: E402

try:
    MemoryGate(agent.store, UserScope("sam")).put(KNOWLEDGE_CHUNKS, "x", {"text": "planted", "sources": ["m1"]})
except KnowledgeReadOnly as err:
    print("refused:", err)

# %% [markdown]
# ## 3. A task, recorded as an episode
# "Write a cover letter…" is a task by rule (`memory/tasks/rules.py`): the turn records an episode with the
# reply's outline as its approach, the answer check's score, then Sam's verdict replaces the score.

# %%
agent.close()
writer = ScriptedChatModel(responses=[
    "Here is the approach:\n1. Open with the cafe's name and why you love it\n2. Show latte art and rush-hour "
    "experience\n3. Close with your availability",
    "Glad it helped!",
    "Sure — same shape as last time, adapted to the bakery.",
])
agent = MemoryAgent(replace(ctx), chat_model=writer)
agent.say("Write a cover letter for a barista job at a cafe.", thread="s2")
agent.say("Thanks, that worked perfectly!", thread="s2")
items_table(agent.store, UserScope("sam").ns(TASKS),
            ["task", "approach", "outcome", "quality", "quality_from", "tokens", "duration_s"], title="task episodes")

# %% [markdown]
# ## 4. A similar task recalls it as a few-shot example
# In a new conversation, a similar task recalls the successful episode (cosine over `task_floor`), and the prompt
# shows it in a block of its own, `<examples kind="tasks">`. A failure would be shown, as "what did not work",
# only when no success reaches the floor.

# %%
turn = agent.say("Write a cover letter for a barista job at a bakery.", thread="s3")
recalled_table([r for r in turn.recalled if r["kind"] == "task"], title="task examples recalled")

# %%
Prompt(turn.system_prompt.split('<examples kind="tasks">', 1)[1].split("</examples>", 1)[0],
       title='<examples kind="tasks">')

# %% [markdown]
# The episodes are Sam's memory like any other: they are in his export, and his forget deletes them.

# %%
from memory.privacy.export import export_user  # noqa: E402

exported = export_user(agent.store, UserScope("sam"), agent.data_dir)
report = agent.forget("barista")
Table([{"in export": len(exported["tasks"]), "forget deleted": len(report.deleted.get(TASKS, [])),
        "left": len(agent.store.search(UserScope("sam").ns(TASKS), limit=10)),
        "knowledge kept": operator("knowledge", "list").count("chunk(s)")}], title="export and forget")

# %%
agent.close()
