"""The run's Context from the CLI's flags: one home for every subcommand (commands, demo, knowledge)."""

from __future__ import annotations

import argparse

from core.context import Context, parse_setting


def context_from(args: argparse.Namespace, **extra: object) -> Context:
    """A Context from flags (``--set`` first, named flags over it), falling back to env/.env for the rest."""
    named = {
        "user_id": getattr(args, "user", None),
        "data_dir": args.data_dir,
        "chat_model": args.chat_model,
        "embedding_model": args.embedding_model,
        **extra,
    }
    settings = dict(parse_setting(assignment) for assignment in getattr(args, "set", None) or ())
    return Context(**{**settings, **{k: v for k, v in named.items() if v is not None}})
