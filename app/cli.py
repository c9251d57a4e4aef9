"""`memory-agent`: chat, demo, import, recall, memories, forget, delete-user, memory-on/off, expire, upkeep,
retention, mcp, knowledge, ui.

Every subcommand shares ``--data-dir`` (env MEMORY_DATA_DIR, default ./data) and
takes the user id from ``--user`` (env MEMORY_USER_ID): configuration, never
model output. Commands that delete (forget, upkeep, delete-user) need the user
named: ``--user`` or MEMORY_USER_ID set, never the silent ``default-user``.
``--now`` (env MEMORY_NOW) sets the clock every command reads, to simulate
months; ``--set FIELD=VALUE`` sets any field of the context (core/context.py).
The global flags may come before or after the subcommand. Errors print one clear
line and exit 2; nothing stored is touched.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import settings
from memory.kinds import KINDS

SET_AFTER = "set_after"  # --set given after the subcommand, added to those given before it


def _global_flags(p: argparse.ArgumentParser, after: bool) -> None:
    """The flags every command takes. After the subcommand they default to "not given",
    so a flag before the subcommand is not overwritten by its absence after it.
    """
    unset = argparse.SUPPRESS if after else None
    p.add_argument("--data-dir", default=unset, help="where memory lives (env MEMORY_DATA_DIR, default ./data)")
    p.add_argument("--chat-model", default=unset,
                   help="'local', 'llamacpp', 'scripted' or '<provider>:<model>' (env MEMORY_CHAT_MODEL)")
    p.add_argument("--embedding-model", default=unset,
                   help="'local', 'openai:<model>' or 'hash:<dims>' (env MEMORY_EMBEDDING_MODEL)")
    p.add_argument("--now", default=unset, help="simulate the clock: an ISO-8601 time (env MEMORY_NOW)")
    p.add_argument("--set", dest=SET_AFTER if after else "set", action="append", default=[] if not after else unset,
                   metavar="FIELD=VALUE",
                   help="set any context field, e.g. --set top_k=3 (repeatable; env MEMORY_<FIELD>)")


def _chat_help() -> str:
    from app.chat_repl import HELP

    return HELP


def _allowed_host(s: argparse.ArgumentParser) -> None:
    s.add_argument("--allowed-host", action="append", default=[], metavar="NAME[:PORT]",
                   help="another Host name clients use (repeatable; loopback names on the port always pass)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for the ``memory-agent`` command and its subcommands."""
    p = argparse.ArgumentParser(
        prog="memory-agent",
        description="A LangGraph agent with long-term memory that runs offline on embedded models.",
    )
    _global_flags(p, after=False)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    flags = argparse.ArgumentParser(add_help=False)
    _global_flags(flags, after=True)

    def command(name: str, **kwargs: object) -> argparse.ArgumentParser:
        return sub.add_parser(name, parents=[flags], **kwargs)

    s = command("chat", help="talk to the agent (/remember, /search, /forget, /memories, /prompt, /end ...)",
                epilog=_chat_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--thread", help="thread id; the same id resumes the conversation (default: a new thread)")

    s = command("demo", help="scripted two-session demo: facts from session 1 recalled in session 2")
    s.add_argument("--user", default="demo-user", help="user id for the demo (its memory is reset first)")
    s.add_argument("--session", type=int, choices=(1, 2), help=argparse.SUPPRESS)

    s = command("import", help="import a JSONL conversation (one past session per thread)")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    s.add_argument("file", help="JSONL: {thread, id, time, role, name?, text} per line")

    s = command("recall", help="recall memories for each query of a JSONL file; prints JSONL")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--k", type=int, default=10, help="results per query (default 10)")
    s.add_argument("--kind", help=f"only this kind of memory: {', '.join(KINDS)}")
    s.add_argument("queries", help="JSONL: {id, query, time?} per line")

    s = command("memories", help="show (or export) everything kept about a user")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--json", action="store_true", help="export as JSON")

    s = command("forget", help="delete every memory matching TEXT, everywhere")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("text", help="what to forget")

    s = command("delete-user", help="remove every trace of a user, threads included")
    s.add_argument("user", help="the user id to delete")

    for name, verb in (("memory-on", "resume"), ("memory-off", "pause")):
        s = command(name, help=f"{verb} long-term memory for a user (persisted)")
        s.add_argument("--user", help="user id (env MEMORY_USER_ID)")

    command("expire", help="remove expired memories (episodes past their TTL) from disk, bytes included")

    s = command("retention", help="show or shorten how long a user's words are kept (MEMORY_RETENTION_DAYS)")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--days", type=int, help="keep only the last N days (never longer than the operator's limit)")
    s.add_argument("--clear", action="store_true", help="drop the user's own limit (the operator's applies)")

    s = command("mcp", help="serve this memory to MCP clients (Claude Desktop, Cursor, ...): stdio or --http")
    s.add_argument("--user", help="user id on stdio, or of an HTTP server without auth (env MEMORY_USER_ID)")
    s.add_argument("--http", action="store_true", help="streamable HTTP at /mcp; users from MEMORY_AUTH_TOKENS / JWT")
    s.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1; others need auth)")
    s.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    _allowed_host(s)

    s = command("upkeep", help="merge, promote, roll up, expire and review a user's memories (one pass)")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    s = command("ui", help="the memory page in a browser: see, search, correct and forget (127.0.0.1)")
    s.add_argument("--user", help="whose memory (env MEMORY_USER_ID)")
    s.add_argument("--host", default="127.0.0.1", help="address (default 127.0.0.1; others need auth)")
    s.add_argument("--port", type=int, default=8700, help="port (default 8700)")
    _allowed_host(s)

    from app.knowledge_cmd import add_parser as add_knowledge_parser

    add_knowledge_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point: parse ``argv`` and run the chosen subcommand; returns the exit code."""
    from app.commands import COMMANDS

    parser = build_parser()
    args = parser.parse_args(argv)
    args.set = [*args.set, *getattr(args, SET_AFTER, [])]
    if not args.command:
        parser.print_help()
        return 0
    try:
        from memory.clock import NOW_ENV, parse_now

        when = args.now if args.now is not None else settings.NOW.read() or None
        if when is not None:
            os.environ[NOW_ENV] = parse_now(when).isoformat()  # checked before any work; every layer's clock reads it
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except (ValueError, RuntimeError, OSError, OverflowError) as err:
        print(f"memory-agent {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
