"""``memory-agent knowledge add|list|remove|search|share-tasks|unshare-tasks``: the operator's shared data.

They run on the raw store (the operator's path, memory/knowledge/base.py), which no
chat command, agent tool, MCP tool or server client reaches. ``add`` prints one
line per refused file on stderr and exits 1 when any was refused; the files it
could read are stored, each whole or not at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.store.base import BaseStore


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The ``knowledge`` subcommand and its four actions."""
    k = sub.add_parser("knowledge", help="the operator's shared documents (RAG): add, list, remove, search")
    acts = k.add_subparsers(dest="action", metavar="ACTION", required=True)
    s = acts.add_parser("add", help="add or update text, Markdown, HTML and PDF files and folders (recursive)")
    s.add_argument("paths", nargs="+", metavar="PATH")
    s.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    acts.add_parser("list", help="every document in the knowledge base")
    s = acts.add_parser("remove", help="remove a document and its chunks, bytes included")
    s.add_argument("doc", metavar="DOC", help="its path, or its title when only one document has it")
    s = acts.add_parser("search", help="the best passages for QUERY (hybrid search), cited")
    s.add_argument("query", metavar="QUERY")
    s.add_argument("--k", type=int, default=5, help="passages to show (default 5)")
    s.add_argument("--json", action="store_true", help="one JSON object per passage")
    for name, what in (("share-tasks", "publish USER's successful task episodes to the shared pool (task, approach, "
                                        "outcome, quality; no notes, no user id)"),
                       ("unshare-tasks", "take USER's task episodes back out of the shared pool")):
        acts.add_parser(name, help=what).add_argument("user", metavar="USER")


@contextmanager
def _store(args: argparse.Namespace) -> Iterator[BaseStore]:
    from app.flags import context_from  # on use: the parser is built for every command, --help included
    from stores.data_dir import prepare_data_dir
    from stores.open import open_store

    ctx = context_from(args)
    store = open_store(str(prepare_data_dir(ctx.data_dir)), ctx.embedding_model)
    try:
        yield store
    finally:
        getattr(store, "close", lambda: None)()


def run(args: argparse.Namespace) -> int:
    """Dispatch ``knowledge ACTION``."""
    acts = {"add": _add, "list": _list, "remove": _remove, "search": _search, "share-tasks": _pool,
            "unshare-tasks": _pool}
    return acts[args.action](args)


def _add(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from memory.knowledge.base import add_file
    from memory.knowledge.sources import Refused, Skipped, Unreadable, candidates

    found = list(candidates(args.paths))
    counts: Counter[str] = Counter()
    refused = [f for f in found if isinstance(f, Refused)]
    skipped = sum(isinstance(f, Skipped) for f in found)
    files = [f for f in found if not isinstance(f, (Refused, Skipped))]
    bar = tqdm(files, desc="knowledge add", unit="file", file=sys.stderr,
               disable=args.no_progress or not sys.stderr.isatty())
    with _store(args) as store:
        for path in bar:
            try:
                counts[add_file(store, path)] += 1  # type: ignore[arg-type]
            except Unreadable as err:
                refused.append(Refused(str(path), str(err)))
    for r in refused:
        tqdm.write(str(r), file=sys.stderr)
    print(f"knowledge: {counts['added']} added, {counts['replaced']} replaced, "
          f"{counts['unchanged']} unchanged, {len(refused)} refused"
          + (f", {skipped} skipped (not text, Markdown, HTML or PDF)" if skipped else ""))
    return 1 if refused else 0


def _list(args: argparse.Namespace) -> int:
    from memory.knowledge.base import documents

    with _store(args) as store:
        docs = documents(store)
    for d in docs:
        print(f"{d.doc}\t{d.chunks} chunk(s)\tsha256 {d.sha256[:12]}")
    if not docs:
        print("the knowledge base is empty (memory-agent knowledge add PATH...)", file=sys.stderr)
    return 0


def _remove(args: argparse.Namespace) -> int:
    from memory.knowledge.base import remove_document

    with _store(args) as store:
        gone = remove_document(store, args.doc)
    print(f"removed {gone.doc} ({gone.chunks} chunk(s)), bytes included")
    return 0


def _search(args: argparse.Namespace) -> int:
    from memory.knowledge.base import citation, search_chunks

    if args.k <= 0:
        raise ValueError("--k must be a positive number")
    with _store(args) as store:
        hits = search_chunks(store, args.query, args.k)
    for h in hits:
        v = h.value
        if args.json:
            row = {k: v.get(k) for k in ("doc", "title", "section", "chunk", "text")}
            print(json.dumps({**row, "score": round(float(h.score or 0.0), 6)}, ensure_ascii=False))
        else:
            print(f"{float(h.score or 0.0):.3f}  {citation(v)}\n    {v['text']}")
    if not hits:
        print("no passage found", file=sys.stderr)
    return 0


def _pool(args: argparse.Namespace) -> int:
    from memory.tasks.pool import share_episodes, unshare_episodes
    from stores.namespaces import UserScope

    scope = UserScope(args.user)
    with _store(args) as store:
        if args.action == "share-tasks":
            print(f"shared {share_episodes(store, scope)} successful task episode(s) of {args.user} "
                  "(users see them while task_pool is on)")
        else:
            print(f"removed {unshare_episodes(store, scope)} task episode(s) of {args.user} from the shared pool")
    return 0
