"""The MCP read operations: ``recall``, ``what_do_you_remember``, the profile and rules resources, the prompt.

``recall`` ranks through ``memory.search_rank`` (as the CLI's ``recall``), so a profile slot or a
rule comes first only when it is about the question. Every ``kind`` is a name of memory/kinds.py,
the same one the CLI, the memory page and the export give the same memory.
"""

from __future__ import annotations

from typing import Any

from app.mcp_base import MAX_ANSWER_TOKENS, McpBase, ToolRefused, cut, within_budget
from memory.kinds import UnknownKind
from memory.layers.semantic import recall_profile
from memory.privacy.consent import is_memory_enabled
from memory.privacy.export import export_user
from memory.search_rank import rank_memories
from nodes.assemble import memory_prompt
from nodes.retrieve import recall_all

MAX_K = 50
PAGE_ITEMS = 25
FILES_SHOWN = 50  # memory-file paths listed with the first page of what_do_you_remember
MAX_FILES_TOKENS = 400  # of the answer's budget, what the file list may take on the first page
ITEMS_TOKENS = MAX_ANSWER_TOKENS - MAX_FILES_TOKENS  # and what a page's memories may take
PAGED_KINDS = ("profile", "fact", "episode", "rule")  # the export's memories, in the order a page lists them
_EXPORT_SECTION = {"profile": ("profile", "current"), "fact": ("facts",), "episode": ("episodes",), "rule": ("rules",)}


def _date(meta: dict[str, Any]) -> str | None:
    for key in ("updated_at", "time", "ended_at", "valid_to"):
        if isinstance(meta.get(key), str):
            return str(meta[key])
    return None


def _section(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    found: Any = data
    for part in _EXPORT_SECTION[kind]:
        found = found[part]
    return list(found)


class McpReads(McpBase):
    """What the MCP tools and resources read for a caller; each call holds the lock."""

    def recall(self, user: str, query: str, kinds: list[str] | None = None, k: int = 10) -> dict[str, Any]:
        """The best memories for ``query`` with scores, dates and sources, within the token budget."""
        query = self._text(query, "query")
        if not 1 <= k <= MAX_K:
            raise ToolRefused(f"k must be between 1 and {MAX_K}, not {k}")
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            if not is_memory_enabled(env.store, env.scope):
                return {"results": [], "note": "long-term memory is off for this user: nothing is recalled"}
            try:
                ranked = rank_memories(env, agent.layers, query, k, kinds)
            except UnknownKind as err:
                raise ToolRefused(str(err)) from None
        rows = [{"kind": item.kind, "id": item.key, "text": cut(item.text), "score": round(float(item.score), 4),
                 "date": _date(item.meta), "sources": list(item.sources)[:5]} for item in ranked]
        kept, over = within_budget(rows)
        return {"results": kept, **({"note": "more results were left out to stay within the budget"} if over else {})}

    def export_page(self, user: str, page: int = 1) -> dict[str, Any]:
        """One page of everything kept about the user (the export), with dates and sources.

        ``items`` are memories, each with its kind; the memory files (notes, not memories) are
        listed apart, with the first page.
        """
        if page < 1:
            raise ToolRefused("page must be 1 or more")
        with self.lock:
            agent = self._for(user)
            data = export_user(agent.store, agent.env().scope, agent.data_dir)
        entries = [
            {"kind": e["kind"] or kind, "id": e["key"], "date": e.get("updated_at") or e.get("created_at"),
             "text": cut(e.get("text") or str(e["value"].get("value") or e["key"])), "sources": e["sources"][:5]}
            for kind in PAGED_KINDS for e in _section(data, kind)
        ]
        pages = max(1, -(-len(entries) // PAGE_ITEMS))
        files = [{"path": f["path"], "bytes": f["bytes"]} for f in data["memory_files"][:FILES_SHOWN]]
        shown_files, _ = within_budget(files, budget=MAX_FILES_TOKENS) if page == 1 else ([], False)
        kept, _ = within_budget(entries[(page - 1) * PAGE_ITEMS: page * PAGE_ITEMS], budget=ITEMS_TOKENS)
        return {"user_id": data["user_id"], "memory_enabled": data["memory_enabled"], "page": page, "pages": pages,
                "total": len(entries), "items": kept, "memory_files": shown_files,
                "memory_files_total": len(data["memory_files"]), "messages": data["messages"]["total"]}

    def profile(self, user: str) -> list[dict[str, Any]]:
        """The user's current profile slots, most important first."""
        with self.lock:
            env = self._for(user).env()
            slots = recall_profile(env)
        return [{"kind": "profile", "slot": r.key, "text": r.text, "updated_at": r.meta.get("updated_at")}
                for r in slots]

    def rules(self, user: str) -> list[dict[str, Any]]:
        """The user's rules (the procedural layer's, all of them: rules are few)."""
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            return [{"kind": "rule", "id": r.key, "text": r.text} for layer in agent.layers
                    if layer.name == "procedural" for r in layer.recall(env, "")]

    def memory_block(self, user: str, query: str) -> str:
        """The system prompt the graph's ``assemble`` builds for ``query`` (no thread summary)."""
        query = self._text(query, "query")
        with self.lock:
            agent = self._for(user)
            env = agent.env()
            recalled = recall_all(env, agent.layers, query) if is_memory_enabled(env.store, env.scope) else []
            return memory_prompt(agent.context, recalled)

