"""`memory-agent`: chat, demo, import, recall, memories, forget, delete-user, memory-on/off, expire, upkeep, mcp,
knowledge.

Every subcommand shares ``--data-dir`` (env MEMORY_DATA_DIR, default ./data) and
takes the user id from ``--user`` (env MEMORY_USER_ID): configuration, never
model output. ``--now`` (env MEMORY_NOW) sets the clock every command reads, to
simulate months. Errors print one clear line and exit 2; nothing stored is touched.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for the ``memory-agent`` command and its subcommands."""
    from app.chat_input import MULTILINE_HELP

    p = argparse.ArgumentParser(
        prog="memory-agent",
        description="A LangGraph agent with long-term memory that runs offline on embedded models.",
    )
    p.add_argument("--data-dir", default=None, help="where memory lives (env MEMORY_DATA_DIR, default ./data)")
    p.add_argument("--chat-model", default=None, help="'local', 'openai:<model>' or 'scripted' (env MEMORY_CHAT_MODEL)")
    p.add_argument(
        "--embedding-model",
        default=None,
        help="'local', 'openai:<model>' or 'hash:<dims>' (env MEMORY_EMBEDDING_MODEL)",
    )
    p.add_argument("--now", default=None, help="simulate the clock: an ISO-8601 time (env MEMORY_NOW)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("chat", help="talk to the agent (/remember, /forget, /memories, /memory on|off, /end, /quit)",
                       epilog=MULTILINE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--thread", help="thread id; the same id resumes the conversation (default: a new thread)")

    s = sub.add_parser("demo", help="scripted two-session demo: facts from session 1 recalled in session 2")
    s.add_argument("--user", default="demo-user", help="user id for the demo (its memory is reset first)")
    s.add_argument("--session", type=int, choices=(1, 2), help=argparse.SUPPRESS)

    s = sub.add_parser("import", help="import a JSONL conversation (one past session per thread)")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    s.add_argument("file", help="JSONL: {thread, id, time, role, name?, text} per line")

    s = sub.add_parser("recall", help="recall memories for each query of a JSONL file; prints JSONL")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--k", type=int, default=10, help="results per query (default 10)")
    s.add_argument("--kind", choices=("message", "fact", "episode", "rule"), help="only this kind of memory")
    s.add_argument("queries", help="JSONL: {id, query, time?} per line")

    s = sub.add_parser("memories", help="show (or export) everything kept about a user")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--json", action="store_true", help="export as JSON")

    s = sub.add_parser("forget", help="delete every memory matching TEXT, everywhere")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("text", help="what to forget")

    s = sub.add_parser("delete-user", help="remove every trace of a user, threads included")
    s.add_argument("user", help="the user id to delete")

    for name, verb in (("memory-on", "resume"), ("memory-off", "pause")):
        s = sub.add_parser(name, help=f"{verb} long-term memory for a user (persisted)")
        s.add_argument("--user", help="user id (env MEMORY_USER_ID)")

    sub.add_parser("expire", help="remove expired memories (episodes past their TTL) from disk, bytes included")

    s = sub.add_parser("mcp", help="serve this memory to MCP clients (Claude Desktop, Cursor, ...): stdio or --http")
    s.add_argument("--user", help="user id on stdio, or of an HTTP server without auth (env MEMORY_USER_ID)")
    s.add_argument("--http", action="store_true", help="streamable HTTP at /mcp; users from MEMORY_AUTH_TOKENS / JWT")
    s.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1; others need auth)")
    s.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")

    s = sub.add_parser("upkeep", help="merge, promote, roll up, expire and review a user's memories (one pass)")
    s.add_argument("--user", help="user id (env MEMORY_USER_ID)")
    s.add_argument("--dry-run", action="store_true", help="report what would change; write nothing")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    from app.knowledge_cmd import add_parser as add_knowledge_parser

    add_knowledge_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point: parse ``argv`` and run the chosen subcommand; returns the exit code."""
    from app.commands import COMMANDS

    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    try:
        from nodes.clock import NOW_ENV, parse_now

        when = args.now if args.now is not None else os.environ.get(NOW_ENV, "").strip() or None
        if when is not None:
            os.environ[NOW_ENV] = parse_now(when).isoformat()  # checked before any work; every layer's clock reads it
        return COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except (ValueError, RuntimeError, OSError) as err:
        print(f"memory-agent {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
