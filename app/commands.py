"""The CLI subcommands (registered into app.cli.COMMANDS)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from app.flags import context_from
from app.runtime import MemoryAgent
from core.context import env_value, parse_setting

Handler = Callable[[argparse.Namespace], int]
USER_ENV = "MEMORY_USER_ID"
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    """Decorator that registers a handler in ``COMMANDS`` under ``name``."""
    def register(fn: Handler) -> Handler:
        COMMANDS[name] = fn
        return fn

    return register


def _agent(args: argparse.Namespace, **extra: object) -> MemoryAgent:
    return MemoryAgent(context_from(args, **extra))


def _named_user_agent(args: argparse.Namespace, what: str) -> MemoryAgent:
    """The agent for a command that deletes, whose user must be named: ``--user`` (or
    ``--set user_id=U``), or MEMORY_USER_ID in the environment or .env (read by the Context),
    never the silent default.
    """
    ctx = context_from(args)
    set_user = any(parse_setting(a)[0] == "user_id" for a in getattr(args, "set", None) or ())
    if not (getattr(args, "user", None) or set_user or env_value("user_id")):
        raise ValueError(f"{what}: name the user with --user U (or set {USER_ENV}); nothing was changed")
    return MemoryAgent(ctx)


@command("chat")
def chat(args: argparse.Namespace) -> int:
    """``chat``: talk to the agent in an interactive REPL (a capable model's server is checked first)."""
    from app.chat_repl import run_repl
    from models.endpoint import check_chat_endpoint
    from stores.redaction.names import check_identifier

    if args.thread:
        check_identifier(args.thread, "--thread")
    ctx = context_from(args)
    check_chat_endpoint(ctx.chat_model, ctx.max_new_tokens)
    with MemoryAgent(ctx) as agent:
        return run_repl(agent, args.thread)


@command("demo")
def demo(args: argparse.Namespace) -> int:
    """``demo``: run the scripted two-session demo."""
    from app.demo import run_demo

    return run_demo(args)


@command("import")
def import_(args: argparse.Namespace) -> int:
    """``import``: load a JSONL file of messages into memory; the file is checked whole before the store opens."""
    from nodes.importer import import_messages, read_import

    ctx = context_from(args)
    messages = read_import(args.file, ctx.max_message_chars)
    with MemoryAgent(ctx) as agent, agent.writing():  # a turn in another process writes before or after, not between
        report = import_messages(messages, agent.env(), agent.layers, progress=not args.no_progress)
    print(report, file=sys.stderr)
    return 0


@command("recall")
def recall(args: argparse.Namespace) -> int:
    """``recall``: print the best memories for each query as JSON lines."""
    from nodes.recall import recall_queries, validate_kind

    if args.k <= 0:
        raise ValueError("--k must be a positive number")
    validate_kind(args.kind)  # before the store opens: an unknown kind is one line, naming the valid ones
    with _agent(args) as agent:
        for row in recall_queries(args.queries, agent.env(), agent.layers, k=args.k, kind=args.kind):
            print(json.dumps(row, ensure_ascii=False), flush=True)
    return 0


@command("memories")
def memories(args: argparse.Namespace) -> int:
    """``memories``: show what is remembered about the user (text or JSON)."""
    from memory.privacy.export import export_user, render_memories

    with _agent(args) as agent:
        data = export_user(agent.store, agent.env().scope, agent.data_dir)
    print(json.dumps(data, indent=2, ensure_ascii=False) if args.json else render_memories(data))
    return 0


@command("forget")
def forget(args: argparse.Namespace) -> int:
    """``forget``: delete the memories matching the given text (of a named user only)."""
    with _named_user_agent(args, "forget deletes memories") as agent:
        report = agent.forget(args.text)
    print(report)
    return 0


@command("delete-user")
def delete_user(args: argparse.Namespace) -> int:
    """``delete-user``: erase everything stored for a user."""
    with _agent(args) as agent:
        report = agent.delete_user(args.user)
    print(report)
    return 0


def _switch(args: argparse.Namespace, on: bool) -> int:
    from memory.privacy.consent import set_memory_enabled

    with _agent(args) as agent:
        set_memory_enabled(agent.store, agent.env().scope, on)
    print(f"long-term memory {'on' if on else 'off'} for user {agent.context.user_id!r}")
    return 0


@command("memory-on")
def memory_on(args: argparse.Namespace) -> int:
    """``memory-on``: let the agent save new long-term memories."""
    return _switch(args, True)


@command("memory-off")
def memory_off(args: argparse.Namespace) -> int:
    """``memory-off``: stop the agent saving new long-term memories."""
    return _switch(args, False)


@command("expire")
def expire(args: argparse.Namespace) -> int:
    """``expire``: remove stored items whose TTL or ``expires_at`` has passed, and what every
    user said before their retention limit (memory/privacy/retention.py).
    """
    from memory.privacy.retention_sweep import sweep_retention
    from memory.upkeep.expire import expire_everyone
    from models.loader import load_embeddings
    from stores.data_dir import prepare_data_dir
    from stores.open import open_store

    ctx = context_from(args)
    root = prepare_data_dir(ctx.data_dir)
    store = open_store(str(root), ctx.embedding_model, expire_on_open=False)
    try:
        removed = store.expire()  # type: ignore[attr-defined]
        removed += expire_everyone(store, ctx, load_embeddings(ctx.embedding_model))
        retained = sweep_retention(store, ctx)
    finally:
        getattr(store, "close", lambda: None)()
    print(_expired_message(removed, root))
    for report in retained:
        print(report)
    return 0


def _expired_message(removed: int, root: Path) -> str:
    """What ``expire`` did, on the backend in use: the store's files, or the server's tables (no password)."""
    from stores.backend import backend_from_env

    backend = backend_from_env()
    if not backend.is_postgres:
        return f"{removed} expired item(s) removed from {root / 'store'}, bytes included"
    from stores.postgres.connect import where

    done = ", bytes included (store tables rewritten with VACUUM FULL)" if removed else ""
    return f"{removed} expired item(s) removed from Postgres at {where(backend.uri or '')}{done}"


@command("upkeep")
def upkeep(args: argparse.Namespace) -> int:
    """``upkeep``: one upkeep pass for the user; each step's counts on stderr as it ends, the report on stdout."""
    from memory.upkeep.run import run_upkeep

    opened = _agent(args) if args.dry_run else _named_user_agent(args, "upkeep deletes and merges memories")
    with opened as agent, agent.writing():
        report = run_upkeep(agent.env(), dry_run=args.dry_run, progress=not args.no_progress and sys.stderr.isatty(),
                            on_step=lambda step: print(f"upkeep: {step}", file=sys.stderr, flush=True),
                            checkpointer=agent.checkpointer)
    print(report)
    return 0


@command("retention")
def retention(args: argparse.Namespace) -> int:
    """``retention``: show the user's retention limit, or set a shorter one (``--days N``, ``--clear``) and apply it."""
    from memory.privacy.retention_sweep import set_retention

    if args.days is None and not args.clear:
        with _agent(args) as agent:
            print(set_retention(agent, None, change=False))
        return 0
    with _named_user_agent(args, "retention deletes old memories") as agent:
        print(set_retention(agent, None if args.clear else args.days))
    return 0


@command("mcp")
def mcp(args: argparse.Namespace) -> int:
    """``mcp``: serve the memory to MCP clients, on stdio (one user) or streamable HTTP (token users)."""
    from app.host_check import host_settings
    from app.mcp_memory import McpMemory
    from app.mcp_run import configured_user, http_verifier, run_http, run_stdio

    verifier = http_verifier(args.host) if args.http else None  # refused before anything is opened
    if args.http:
        host_settings(args.host, args.port, args.allowed_host)  # a malformed --allowed-host, before too
    if verifier is None:
        args.user = configured_user(args.user)  # stdio, or an open loopback server: one user
    with MemoryAgent(context_from(args, consolidation_delay_s=0.0)) as agent:
        memory = McpMemory(agent)
        if args.http:
            run_http(memory, args.host, args.port, verifier, args.user, args.allowed_host)
        else:
            run_stdio(memory, args.user)
    return 0


@command("knowledge")
def knowledge(args: argparse.Namespace) -> int:
    """``knowledge``: the operator adds, lists, removes and searches the shared documents."""
    from app.knowledge_cmd import run

    return run(args)


@command("ui")
def ui(args: argparse.Namespace) -> int:
    """``ui``: the memory page for one user in a browser (app/ui/)."""
    from app.ui.serve import serve

    return serve(args)
