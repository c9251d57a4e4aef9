"""The interactive chat loop behind `memory-agent chat`."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from app.chat_input import MULTILINE_HELP, MessageReader, bracketed_paste
from app.runtime import MemoryAgent, TurnResult
from models.endpoint import first_line
from nodes.input_check import InvalidInput, check_encoding
from nodes.usage import usage_line

HELP = f"""Commands:
  /remember TEXT   store TEXT as a fact about you
  /forget TEXT     delete every memory matching TEXT, everywhere
  /search QUERY    search your long-term memories
  /memories        what do you remember about me?
  /memory on|off   switch long-term memory on or off for you
  /prompt          show the system prompt assembled for the last message
  /end             end the session (consolidate it into long-term memory)
  /quit            leave (without ending the session)
  /help            this text

{MULTILINE_HELP}"""


def _question(proposal: dict[str, object]) -> str:
    """How an interrupt is asked: a forget confirmation (nodes/commands.py) or a rule review."""
    if proposal.get("type") == "forget_confirm":
        shown = proposal.get("preview") or []
        lines = "".join(f"\n  - {line}" for line in shown if isinstance(shown, list))
        return f"[confirm] {proposal.get('question')}{lines}\n[y/N] "
    return f"[review] save this rule? {proposal.get('rule')!r} ({proposal.get('action', 'add')}) [y/N] "


def render_answer_check(record: dict) -> str:
    """The answer check of the last reply: what was checked, what conflicted, how many tries."""
    if not record:
        return "----- answer check -----\n(no reply checked yet)"
    if not record.get("enabled", True):
        return "----- answer check -----\n(off: check_answers is false)"
    lines = ["----- answer check -----", f"checked: {', '.join(record.get('checked') or []) or '(nothing checkable)'}"]
    if record.get("unchecked"):
        lines.append(f"left to the prompt: {', '.join(record['unchecked'])}")
    for n, tried in enumerate(record.get("tries") or []):
        found = "; ".join(f"{c['label']} ({', '.join(c['items'])})" for c in tried["conflicts"]) or "no conflict"
        lines.append(f"try {n + 1}: {found}")
    lines.append(f"retries: {record.get('retries', 0)}, flagged: {'yes' if record.get('flagged') else 'no'}, "
                 f"check time: {record.get('check_ms', 0.0):.2f} ms")
    return "\n".join(lines)


YES, NO = {"y", "yes"}, {"", "n", "no"}


def _review(agent: MemoryAgent, thread: str, result: TurnResult, reader: MessageReader) -> TurnResult:
    """Answer interrupts (forget confirmations, rule reviews) until the turn completes.

    Only y/yes accepts. Any other line declines, and one that is not an answer at all
    (piped input that did not expect the question, "/end") is kept as the next message.
    """
    while result.interrupt:
        try:
            answer = reader.ask(_question(result.interrupt))
        except EOFError:  # the input ended unanswered: the question stays pending (the page's Reviews)
            print("(input ended: the question stays pending until it is answered)")
            raise
        said = answer.strip().lower()
        if said not in YES | NO:
            reader.pending = answer
            print("(not a y/n answer: taken as no, and your line goes on as the next message)")
        result = agent.resume(thread, said in YES)
    return result


def handle_command(agent: MemoryAgent, thread: str, line: str) -> str | None:
    """Run a slash command; return text to print, or None for /quit."""
    cmd, _, arg = line.partition(" ")
    arg = arg.strip()
    if cmd == "/quit":
        return None
    if cmd == "/help":
        return HELP
    if cmd == "/end":
        closed = agent.end_session(thread)
        return f"(session ended and consolidated into long-term memory)\n{usage_line(closed.usage)}"
    if cmd == "/remember":
        from memory.layers.semantic import NEW, kept_summary, remember_outcomes
        from memory.write_policy.gate import MemoryOff

        try:  # through the user's write gate, like every long-term write
            with agent.writing():
                stored = remember_outcomes(agent.env(), arg) if arg else []
        except MemoryOff as err:
            return f"({err})"
        if not stored:
            return "(nothing to remember: give the fact after /remember)"
        if all(done == NEW for done, _ in stored):
            return f"(remembered {len(stored)} fact(s))"
        return f"(remembered: {kept_summary(stored)})"  # what was really kept, not a count of sentences
    if cmd == "/forget":
        return str(agent.forget(arg)) if arg else "(say what to forget: /forget TEXT)"
    if cmd == "/search":
        from memory.tools.memory_tools import make_memory_tools

        search = next(t for t in make_memory_tools(agent.env()) if t.name == "search_memory")
        return str(search.invoke({"query": arg})) if arg else "(say what to search for: /search QUERY)"
    if cmd == "/memories":
        from memory.privacy.export import export_user, render_memories

        return render_memories(export_user(agent.store, agent.env().scope, agent.data_dir))
    if cmd == "/prompt":
        state = agent.state(thread)
        prompt = state.get("system_prompt", "")
        return (f"----- system prompt -----\n{prompt}\n----- end of prompt -----\n"
                + render_answer_check(state.get("answer_check") or {}) + "\n"
                + usage_line(state.get("memory_usage")))
    if cmd == "/memory" and arg in ("on", "off"):
        from memory.privacy.consent import set_memory_enabled

        set_memory_enabled(agent.store, agent.env().scope, arg == "on")
        return f"(long-term memory {arg})"
    return f"unknown command {cmd!r}; /help lists the commands"


def run_repl(agent: MemoryAgent, thread: str | None, ask: Callable[[str], str] = input) -> int:
    """Run the interactive chat loop on ``thread`` until EOF or /quit; returns the exit code."""
    thread = thread or f"thread-{uuid.uuid4().hex[:8]}"
    agent.config(thread)  # a --thread that is no fit name is refused in one line before the chat opens
    print(f"user {agent.context.user_id!r}, thread {thread!r}. /help for commands.")
    with bracketed_paste():
        return _loop(agent, thread, ask)


def _loop(agent: MemoryAgent, thread: str, ask: Callable[[str], str]) -> int:
    reader = MessageReader(ask)  # a paste, a quoted block or a private key is one message
    while True:
        try:
            line = reader.read("you> ")
        except EOFError:
            return 0
        if line.startswith("/"):
            try:  # a command's text is checked like a message's; its failure ends the command, not the chat
                out = handle_command(agent, thread, check_encoding(line.strip(), "input"))
            except (InvalidInput, ValueError, OverflowError) as err:
                print(f"error: {err}" if isinstance(err, InvalidInput) else f"error: {first_line(err)}")
                continue
            if out is None:
                return 0
            print(out)
            continue
        try:
            result = _review(agent, thread, agent.say(line, thread), reader)
        except EOFError:
            return 0
        except InvalidInput as err:
            print(f"error: {err}")
            continue
        except Exception as err:  # a model or server failure the turn did not absorb: the chat goes on
            print(f"error: this turn failed ({first_line(err)}); what was stored before it is kept")
            continue
        if result.notice:
            print(f"note: {result.notice}")
        print(f"agent> {result.reply}")
