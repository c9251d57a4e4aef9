"""Every environment variable the project reads besides ``Context``'s own, declared in one place.

A ``Context`` field (core/context.py) is read from ``MEMORY_<FIELD>``. The settings here are the
rest: they pick the storage backend, the server's identities and the process clock, so they are
the operator's, never a client's, and some are read below the layer where ``Context`` lives (the
stores and the model loaders). Declaring them here gives each one name, one reader and one line of
documentation (docs/configuration.md is generated from ``ALL``); tests/test_settings.py fails when
a module reads the environment anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class EnvSetting:
    """One environment variable: its name, what it does, and its value when unset."""

    name: str
    doc: str
    default: str = ""
    group: str = "server"

    def read(self, env: Mapping[str, str] | None = None) -> str:
        """The value in ``env`` (the process environment by default), stripped; ``default`` when unset or blank."""
        return (os.environ if env is None else env).get(self.name, "").strip() or self.default


BACKEND = EnvSetting(
    "MEMORY_BACKEND", "Storage backend: `local` (FAISS + SQLite in the data dir) or `postgres`.", "local"
)
POSTGRES_URI = EnvSetting("POSTGRES_URI", "PostgreSQL connection string, needed when MEMORY_BACKEND=postgres.")
NOW = EnvSetting(
    "MEMORY_NOW", "Pretend the current time is this ISO date (the CLI's `--now` sets it): demos and tests.",
    group="process",
)
AUTH_TOKENS = EnvSetting("MEMORY_AUTH_TOKENS", "Static bearer tokens for the server, `token=user,token2=user2`.")
AUTH_JWT_KEY = EnvSetting("MEMORY_AUTH_JWT_KEY", "Verify bearer tokens as JWTs with this key (the user id is `sub`).")
AUTH_JWT_ALGORITHMS = EnvSetting("MEMORY_AUTH_JWT_ALGORITHMS", "Comma-separated JWT algorithms accepted.", "HS256")
AUTH_JWT_AUDIENCE = EnvSetting("MEMORY_AUTH_JWT_AUDIENCE", "Required JWT audience (`aud`), when set.")
AUTH_JWT_ISSUER = EnvSetting("MEMORY_AUTH_JWT_ISSUER", "Required JWT issuer (`iss`), when set.")
AUTH_OPERATORS = EnvSetting(
    "MEMORY_AUTH_OPERATORS", "Comma-separated user ids that may write the shared knowledge base over HTTP."
)
TOKEN_LIMIT_FIELD = EnvSetting(
    "MEMORY_TOKEN_LIMIT_FIELD",
    "Which request field caps an OpenAI-compatible reply: `max_tokens`, `max_completion_tokens` or `auto`.",
    "auto", group="models",
)
OPENAI_API_BASE = EnvSetting("OPENAI_API_BASE", "OpenAI-compatible endpoint for `openai:` specs.", group="models")
OPENAI_BASE_URL = EnvSetting("OPENAI_BASE_URL", "Same as OPENAI_API_BASE (the OpenAI SDK's name).", group="models")
MODEL_CACHE_DIR = EnvSetting(
    "MEMORY_MODEL_CACHE_DIR",
    "Where files made from the embedded models are cached: the chat model's converted weights, MiniLM's ONNX graph "
    "(default `$XDG_CACHE_HOME/agent-memory-starter`).",
    group="models",
)
XDG_CACHE_HOME = EnvSetting("XDG_CACHE_HOME", "The user's cache folder (default `~/.cache`).", group="models")
OLLAMA_HOST = EnvSetting(
    "OLLAMA_HOST", "Where an `ollama:<model>` spec's server listens (the Ollama client's own variable; "
    "default `localhost:11434`); checked when the chat starts.", group="models",
)
UPKEEP_TEST_PAUSE = EnvSetting(
    "MEMORY_UPKEEP_TEST_PAUSE",
    "Test hook: seconds upkeep sleeps between writes, and a chat turn after its reply, so a test can kill or race "
    "it mid-way.",
    group="process",
)

ALL: tuple[EnvSetting, ...] = (
    BACKEND, POSTGRES_URI, AUTH_TOKENS, AUTH_JWT_KEY, AUTH_JWT_ALGORITHMS, AUTH_JWT_AUDIENCE, AUTH_JWT_ISSUER,
    AUTH_OPERATORS, NOW, UPKEEP_TEST_PAUSE, TOKEN_LIMIT_FIELD, OPENAI_API_BASE, OPENAI_BASE_URL,
    MODEL_CACHE_DIR, XDG_CACHE_HOME, OLLAMA_HOST,
)
