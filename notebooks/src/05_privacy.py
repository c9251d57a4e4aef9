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
# # 05 · Privacy: memory files, forgetting, export, isolation
#
# Memory that users cannot inspect, correct or delete is a liability. This notebook shows the four
# guarantees and where they live:
#
# | guarantee | module |
# |---|---|
# | the model's own notes stay inside the user's folder | `memory/tools/memory_files.py`, `memory/tools/memory_paths.py` |
# | "forget X" reaches every copy of X (facts, profile, history, episodes, message log, files, threads) | `memory/privacy/forget.py` |
# | "what do you know about me?" has a complete answer | `memory/privacy/export.py` |
# | one user's memory never reaches another's prompt | `stores/namespaces.py` (`UserScope`), every layer |

# %%
from nbutil import Prompt, Table, fresh_data_dir, items_table

from app.runtime import MemoryAgent
from core.context import Context
from stores.namespaces import FACTS, MESSAGES, PROFILE, PROFILE_HISTORY, UserScope

data_dir = fresh_data_dir()
base = dict(data_dir=data_dir, chat_model="local", embedding_model="local", max_new_tokens=48, review_rules=False)
ana = MemoryAgent(Context(user_id="ana", **base))
ana.say("I'm vegetarian and I live in Berlin. My dentist is Dr. Weber.", thread="a1")
ana.say("I moved to Lisbon.", thread="a1")
ana.end_session("a1")
scope = UserScope("ana")
Table([*items_table(ana.store, scope.ns(PROFILE), ["text"]).rows, *items_table(ana.store, scope.ns(FACTS), ["text"]).rows],
      title="what Ana's memory holds")

# %% [markdown]
# ## 1. The `/memories` file tool
# Capable models get a `memory` tool to keep their own notes as files. Every path is untrusted: it must start
# with `/memories`, may not contain `..`, and maps onto `<data_dir>/memories/<user_id>/` — a folder chosen from
# config, never by the model. Writes are atomic and size-limited.

# %%
from memory.tools.memory_file_tool import memory_file_tool

tool = memory_file_tool(data_dir, ana.env().store)  # the user's write gate
calls = [
    {"command": "create", "path": "/memories/health.md", "file_text": "- Dentist: Dr. Weber, Berlin-Mitte\n- Check-up due in March\n"},
    {"command": "str_replace", "path": "/memories/health.md", "old_str": "March", "new_str": "April"},
    {"command": "view", "path": "/memories/health.md"},
    {"command": "view", "path": "/memories/../../other-user/notes.md"},
    {"command": "create", "path": "/etc/passwd", "file_text": "nope"},
]
Table([{"call": {k: v for k, v in c.items() if k != "file_text"}, "result": tool.invoke(c)} for c in calls],
      title="tool calls and what the tool answered", max_chars=120)

# %% [markdown]
# ## 2. Export: everything kept about a user
# `export_user` walks the user's whole namespace tree and memory folder; `render_memories` is the short answer
# to "what do you remember about me?" (the CLI's `memories` command and the chat's `/memories`).

# %%
from memory.privacy.export import export_user, render_memories

export = export_user(ana.store, scope, data_dir)
Table([{"section": k, "entries": len(v) if isinstance(v, list) else (v.get("total") if "total" in v else
        {kk: len(vv) for kk, vv in v.items()})} for k, v in export.items() if isinstance(v, (list, dict))],
      title="export_user(...) sections")

# %%
Prompt(render_memories(export), title="render_memories(export)")

# %% [markdown]
# ## 3. Forget, for real
# "Forget that I lived in Berlin" must reach the current profile, its history, the episode that summarised the
# session, the raw message log, memory-file lines and the checkpointed thread that still holds the turn — and then
# compact the SQLite files so the deleted bytes are gone from free pages and the WAL.

# %%
def mentions(word: str) -> list[dict]:
    rows = []
    for kind in (PROFILE, PROFILE_HISTORY, FACTS, "episodes", MESSAGES):
        for item in ana.store.search(scope.ns(kind), limit=200):
            if word.lower() in str(item.value).lower():
                rows.append({"kind": kind, "key": item.key, "text": item.value.get("text", "")})
    return rows

Table(mentions("Berlin"), title="items mentioning Berlin, before")

# %%
report = ana.forget("Berlin")  # memory.privacy.forget.forget(env, text, checkpointer=...)
Table([{"what": k, "deleted": v} for k, v in report.counts().items()], title=str(report))

# %%
Table(mentions("Berlin"), title="items mentioning Berlin, after")

# %% [markdown]
# It took nothing else: the message, the episode and the thread that also said "I'm vegetarian" and named the
# dentist lost only the clause about Berlin (marked as cut, with the date, never with what it said). The profile
# still knows the current city:

# %%
Table([{"thread a1 after forget": " / ".join(str(m.content) for m in ana.thread_messages("a1"))[:160],
        "current profile": "; ".join(i.value["text"] for i in ana.store.search(scope.ns(PROFILE), limit=20))}])

# %% [markdown]
# ## 4. The consent switch
# `memory-off` stops new long-term writes and recall for a user without deleting anything (`memory/privacy/consent.py`).

# %%
from memory.privacy.consent import set_memory_enabled

set_memory_enabled(ana.store, scope, False)
off = ana.say("Remember that my sister is called Inês.", thread="a2")
set_memory_enabled(ana.store, scope, True)
Table([{"recalled while off": len(off.recalled),
        "stored facts mentioning Inês": len([r for r in mentions("Inês")])}])

# %% [markdown]
# ## 5. Isolation between users
# Every namespace is built in one function from the user id in config (`UserScope`); the model never supplies a
# user id. Ben uses the same data dir — the same SQLite files and FAISS indexes — and still sees nothing of Ana's.

# %%
ana.close()
ben = MemoryAgent(Context(user_id="ben", **base))
result = ben.say("Where do I live, and what do I eat?", thread="b1")
Table([{"user": "ben", "recalled": [r["text"] for r in result.recalled], "reply": result.reply,
        "ana's items in the same store": len(ben.store.search(("users", "ana"), limit=200))}])

# %%
from stores.namespaces import InvalidUserId

checks = []
for candidate in ["ana", "auth0|ana", "ana.silva@example.com", "../ana", "ana/facts", "", "a" * 300]:
    try:
        checks.append({"user id": candidate[:30], "namespace label": UserScope(candidate).label[:40]})
    except InvalidUserId as err:
        checks.append({"user id": candidate[:30], "namespace label": "refused: " + str(err)[:60]})
Table(checks, title="any id gets its own safe label (injective: no two ids share one); empty or overlong ids are refused")

# %%
ben.close()
