"""`memory-agent mcp`: the memory as an MCP server (tools, resources, a prompt).

Built on the official SDK's ``MCPServer``. Every tool acts for the caller that
``user_of`` names: the configured user on stdio, the verified bearer token's
user over HTTP (app/mcp_http.py). No tool takes a user id, so a model can never
reach another user's memory by naming it. The work is done by ``McpMemory``
(app/mcp_memory.py), which calls the same code as the chat and the CLI. Every ``kind``
in an answer, and in ``recall``'s filter, is a name of memory/kinds.py.

Why ``log_turn`` and not sampling or notifications: a client's conversation is
the client's, and MCP gives a server no standard way to read it. Sampling asks
the client's model for a completion, not for the transcript, and notifications
are not acknowledged, so a lost one would lose a turn silently. A tool call is
explicit, answered (the client learns whether the turn was kept, and if a secret
was removed) and refused with memory off, like every other write.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server import MCPServer

from app.mcp_memory import DEFAULT_CONVERSATION, McpMemory
from memory.kinds import KINDS, SEARCHED_BY_DEFAULT

INSTRUCTIONS = (
    "Long-term memory of the user, private to them. Call recall before answering anything that may depend on "
    "what you were told before; call remember when the user states something worth keeping about themselves "
    "or asks you to remember it. To carry a whole conversation into memory, send each message with log_turn "
    "and call end_session when it is over; a rule it finds is kept only after the user agrees (confirm_rule). "
    "forget deletes for real and asks for confirmation first."
)

RECALL_DESCRIPTION = (
    "Search the user's long-term memory: profile and facts, past-session summaries, rules, past messages.\n\n"
    f"kinds narrows the search to any of {', '.join(SEARCHED_BY_DEFAULT)} (the default: all of them), or also "
    f"{', '.join(k for k in KINDS if k not in SEARCHED_BY_DEFAULT)} when named; k is how many results (1-50). "
    "Results come best first with their kind, a score, a date, their id (for forget) and the message ids they "
    "came from. A profile entry or a rule comes only when it is about the query; memory://rules lists every rule."
)


def build_server(memory: McpMemory, user_of: Callable[[], str], **server_args: Any) -> MCPServer:
    """The MCP server over ``memory``; ``user_of()`` names the caller of the current request."""
    mcp = MCPServer("memory-agent", instructions=INSTRUCTIONS, **server_args)

    @mcp.tool()
    def remember(text: str) -> dict[str, Any]:
        """Save something the user wants remembered ("I'm vegetarian", "my sister is Ana").

        Each sentence becomes a fact or a profile entry, with its provenance. The answer lists what was stored
        and, when something was not, why (memory is off, the text holds a secret, nothing durable was said).
        """
        return memory.remember(user_of(), text)

    @mcp.tool(description=RECALL_DESCRIPTION)
    def recall(query: str, kinds: list[str] | None = None, k: int = 10) -> dict[str, Any]:
        return memory.recall(user_of(), query, kinds, k)

    @mcp.tool()
    def forget(text_or_id: str, confirm: str | None = None) -> dict[str, Any]:
        """Delete every memory matching a text, or the memory with an id from recall, everywhere and for real.

        The first call deletes nothing: it returns how many items match, a short preview and a confirm token.
        Show the preview to the user; only if they agree, call forget again with the same text and that token.
        """
        return memory.forget(user_of(), text_or_id, confirm)

    @mcp.tool()
    def what_do_you_remember(page: int = 1) -> dict[str, Any]:
        """Everything kept about the user: profile, facts, past sessions, rules and memory files, a page at a time.

        Each item has its kind (profile, fact, episode, rule); memory files are listed apart, on the first page.
        The answer says how many pages there are; ask for the next page with page=2, 3...
        """
        return memory.export_page(user_of(), page)

    @mcp.tool()
    def memory_off() -> dict[str, Any]:
        """Stop saving anything new about the user (nothing is deleted; recall returns nothing while off)."""
        return memory.set_memory(user_of(), False)

    @mcp.tool()
    def memory_on() -> dict[str, Any]:
        """Let memory save new things about the user again."""
        return memory.set_memory(user_of(), True)

    @mcp.tool()
    def log_turn(role: str, text: str, conversation: str = DEFAULT_CONVERSATION) -> dict[str, Any]:
        """Record one message of this conversation (role "user" or "assistant") in the user's message log.

        Facts and rules are learned from it as in the agent's own chat; secrets are removed before anything is
        kept. A rule ("from now on, answer in French") is not kept until the user confirms it: the answer lists it
        under rules_to_confirm (see confirm_rule). Call end_session when the conversation is over.
        """
        return memory.log_turn(user_of(), role, text, conversation)

    @mcp.tool()
    def confirm_rule(confirm: str) -> dict[str, Any]:
        """Save a rule that log_turn returned in rules_to_confirm, after the user agreed to it.

        Rules change how every later answer is written, so none is kept unasked: show the rule to the user and
        call this with its token only if they say yes. A token works once, for ten minutes.
        """
        return memory.confirm_rule(user_of(), confirm)

    @mcp.tool()
    def end_session(conversation: str = DEFAULT_CONVERSATION) -> dict[str, Any]:
        """Close the conversation sent with log_turn: summarise it into long-term memory. Later turns start anew."""
        return memory.end_session(user_of(), conversation)

    _file_tools(mcp, memory, user_of)

    @mcp.resource("memory://profile", mime_type="application/json")
    def profile() -> str:
        """The user's current profile (name, home, job, diet...): pin it to keep it in context."""
        return json.dumps(memory.profile(user_of()), ensure_ascii=False)

    @mcp.resource("memory://rules", mime_type="application/json")
    def rules() -> str:
        """How the user wants the assistant to work (rules learned from their feedback)."""
        return json.dumps(memory.rules(user_of()), ensure_ascii=False)

    @mcp.prompt()
    def memory_block(query: str) -> str:
        """The memory block for a message: the system prompt the agent itself would use, from what is recalled."""
        return memory.memory_block(user_of(), query)

    return mcp


def _file_tools(mcp: MCPServer, memory: McpMemory, user_of: Callable[[], str]) -> None:
    """The six memory-file commands, each its own tool, confined to the user's /memories folder."""

    @mcp.tool()
    def memory_file_view(path: str = "/memories", view_range: list[int] | None = None) -> str:
        """List the user's memory folder, or show a file under /memories with line numbers (view_range: [a, b])."""
        return memory.files(user_of(), "view", path=path, **({"view_range": view_range} if view_range else {}))

    @mcp.tool()
    def memory_file_create(path: str, file_text: str) -> str:
        """Create (or overwrite) a notes file under /memories, e.g. /memories/projects.md."""
        return memory.files(user_of(), "create", path=path, file_text=file_text)

    @mcp.tool()
    def memory_file_str_replace(path: str, old_str: str, new_str: str = "") -> str:
        """Replace text that occurs exactly once in a memory file (empty new_str deletes it)."""
        return memory.files(user_of(), "str_replace", path=path, old_str=old_str, new_str=new_str)

    @mcp.tool()
    def memory_file_insert(path: str, insert_line: int, insert_text: str) -> str:
        """Insert text after a line of a memory file (insert_line 0 = at the top)."""
        return memory.files(user_of(), "insert", path=path, insert_line=insert_line, insert_text=insert_text)

    @mcp.tool()
    def memory_file_delete(path: str) -> str:
        """Delete a memory file or folder under /memories."""
        return memory.files(user_of(), "delete", path=path)

    @mcp.tool()
    def memory_file_rename(old_path: str, new_path: str) -> str:
        """Rename or move a memory file within /memories."""
        return memory.files(user_of(), "rename", old_path=old_path, new_path=new_path)
