"""Run-time configuration: the context schema Studio shows and the CLI fills.

Follows the official LangGraph templates: a dataclass passed as ``context`` to
``graph.invoke``. Any field left at its default is read from the environment
(``MEMORY_<FIELD>``, upper case), and ``.env`` is loaded with python-dotenv, so
one file configures the CLI, the notebooks and ``langgraph dev`` alike.

Two kinds of field: per-run settings, which a server client may send, and
server settings (``SERVER_SETTINGS``: where data lives, which embedding model
indexed it, the limits of ``core/limits.py``), which come from the server's environment only. ``RunContext``
(core/run_context.py) is the schema a server shows and accepts; it drops server settings with a warning.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from dotenv import find_dotenv, load_dotenv

from core.limits import LIMIT_FIELDS
from core.prompts import DEFAULT_PERSONA

MAX_DAYS = 100_000  # about 270 years: any supported time (memory/clock.py) +/- it is still a date

ENV_PREFIX = "MEMORY_"
log = logging.getLogger("memory.context")

# Fields a server client may not set: they move files, change what the store
# indexes, or bound what a request may cost (the limits, core/limits.py), so
# they come from the server's environment (MEMORY_<FIELD>) only.
SERVER_SETTINGS = (
    frozenset({"data_dir", "embedding_model", "redact_input", "task_pool", "retention_days"}) | LIMIT_FIELDS
)

# Retrieval weight presets (relevance, recency, importance). See docs/extending.md ("Change the weights").
PRESETS: dict[str, tuple[float, float, float]] = {
    "assistant": (0.4, 0.4, 0.2),  # personal assistant: what happened lately matters
    "copilot": (0.7, 0.1, 0.2),  # technical copilot: what matches the question matters
}

def _meta(description: str) -> dict[str, Any]:
    return {"description": description}


@dataclass(kw_only=True)
class Context:
    """Everything a turn may be configured by. The user id never comes from the model."""

    user_id: str = field(default="default-user", metadata=_meta("Whose memory this run reads and writes."))
    chat_model: str = field(
        default="local",
        metadata=_meta("'local' (embedded SmolLM2-135M, in numpy), 'llamacpp' (the same via llama.cpp, "
                       "after `make llamacpp`), 'openai:<model>', or 'scripted' (tests)."),
    )
    chat_tools: str = field(
        default="auto",
        metadata=_meta("Offer tools to the chat model: 'on', 'off', or 'auto' (only 'openai:<model>' specs)."),
    )
    llm_extraction: str = field(
        default="auto",
        metadata=_meta("Extract facts and standing rules with the chat model at session end, beside the per-turn "
                       "rules: 'on', 'off', or 'auto' (on for every '<provider>:<model>' spec, off for the embedded "
                       "and scripted models)."),
    )
    extraction_max_tokens: int = field(
        default=1024,
        metadata=_meta("Longest answer the chat model may write for the session-end extraction (its JSON)."),
    )
    embedding_model: str = field(
        default="local",
        metadata=_meta(
            "'local' (embedded all-MiniLM-L6-v2), 'openai:<model>', or 'hash:<dims>' (tests)."
        ),
    )
    data_dir: str = field(
        default="./data",
        metadata=_meta("Where the SQLite files, FAISS indexes and memory files live."),
    )
    persona: str = field(
        default=DEFAULT_PERSONA,
        metadata=_meta("The system persona, first in the stable prompt prefix."),
    )
    max_message_chars: int = field(default=8000, metadata=_meta("Longest user message accepted."))
    working_budget_tokens: int = field(
        default=1500,
        metadata=_meta("Thread tokens kept before older turns are compacted."),
    )
    keep_last_messages: int = field(default=6, metadata=_meta("Messages always kept verbatim when compacting."))
    memory_budget_tokens: int = field(default=800, metadata=_meta("Tokens of recalled memories allowed in the prompt."))
    knowledge_budget_tokens: int = field(
        default=600,
        metadata=_meta("Tokens of shared-document passages allowed in the prompt (apart from the memory budget)."),
    )
    top_k: int = field(default=5, metadata=_meta("Memories recalled per layer."))
    task_k: int = field(default=3, metadata=_meta("Past task episodes shown as examples for a new task."))
    task_floor: float = field(
        default=0.6,
        metadata=_meta("Cosine a past task must reach to be shown as an example: MiniLM's lowest floor "
                       "with no wrong example on bench/task_floor.py's labelled pairs."),
    )
    # server setting: the operator decides whether users see the published pool (memory/tasks/pool.py).
    task_pool: bool = field(
        default=False,
        metadata=_meta("Also recall task examples from the shared pool the operator published."),
    )
    score_floor: float = field(default=0.15, metadata=_meta("Recalled memories scoring below this are dropped."))
    preset: str = field(
        default="assistant",
        metadata=_meta("Weight preset: 'assistant' (recency-heavy) or 'copilot' (relevance-heavy)."),
    )
    w_relevance: float = field(
        default=-1.0,
        metadata=_meta("Relevance weight; negative means take it from the preset."),
    )
    w_recency: float = field(default=-1.0, metadata=_meta("Recency weight; negative means take it from the preset."))
    w_importance: float = field(
        default=-1.0,
        metadata=_meta("Importance weight; negative means take it from the preset."),
    )
    recency_half_life_days: float = field(default=7.0, metadata=_meta("Half-life of the recency score."))
    episode_ttl_days: float = field(default=180.0, metadata=_meta("Episodes expire after this many days."))
    retention_days: float = field(
        default=0.0,
        metadata=_meta("Delete what a user said (messages, episodes, roll-up lines, threads, memory-file text) "
                       "after this many days; 0 = off. A user may choose fewer, never more (docs/privacy.md)."),
    )
    dedup_threshold: float = field(default=0.9, metadata=_meta("Cosine at or above which a new fact is a duplicate."))
    upkeep_promote_min: int = field(
        default=3,
        metadata=_meta("Upkeep: sessions showing the same habit before it becomes a fact."),
    )
    upkeep_review_days: float = field(
        default=120.0,
        metadata=_meta("Upkeep: days after which an important fact is re-confirmed with the user."),
    )
    upkeep_rollup_days: float = field(
        default=14.0,
        metadata=_meta("Upkeep: episodes older than this are rolled up into weekly, then monthly summaries."),
    )
    upkeep_prune_days: float = field(
        default=30.0,
        metadata=_meta("Upkeep: an unused episode older than this that adds nothing to its roll-up is pruned "
                       "(ageing; forgetting is only ever the user's deletion)."),
    )
    upkeep_reflect_importance: float = field(
        default=60.0,
        metadata=_meta("Upkeep: summed importance of new memories that triggers reflection."),
    )
    review_rules: bool = field(
        default=True,
        metadata=_meta("Ask the user (interrupt) before saving a new or changed rule."),
    )
    max_rules: int = field(default=10, metadata=_meta("Most procedural rules kept."))
    max_new_tokens: int = field(default=160, metadata=_meta("Longest reply the chat model may write."))
    context_window_tokens: int = field(
        default=0,
        metadata=_meta("Tokens the chat model takes in one request; 0 asks its server (else the first "
                       "context-length error tells). Each request is fitted into it."),
    )
    # server setting: fixed where the checkpointer is opened (CLI start, server start), not per run.
    redact_input: bool = field(
        default=True,
        metadata=_meta("Redact secrets from user messages before they enter the thread and its checkpoints."),
    )
    check_answers: bool = field(
        default=True,
        metadata=_meta("Check each reply against remembered diets, allergies and rules."),
    )
    check_retries: int = field(default=2, metadata=_meta("Regenerations allowed when a reply conflicts with memory."))
    consolidation_delay_s: float = field(
        default=1.5,
        metadata=_meta("CLI: seconds a thread stays quiet before its fact extraction runs in the background "
                       "(debounced); 0 runs it in the turn."),
    )

    def __post_init__(self) -> None:
        if not _on_event_loop():
            # Under `langgraph dev` the server has loaded .env already, and a file read
            # on its event loop would be a blocking call.
            _load_env_file(os.getcwd())
        for f in fields(self):
            if getattr(self, f.name) != f.default:
                continue
            raw = os.environ.get(ENV_PREFIX + f.name.upper())
            if raw is None or raw == "":
                continue
            setattr(self, f.name, _coerce(f.name, raw, type(f.default)))
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}; expected one of {sorted(PRESETS)}")
        for name in ("chat_tools", "llm_extraction"):
            if getattr(self, name) not in ("auto", "on", "off"):
                raise ValueError(f"{name} must be 'auto', 'on' or 'off', not {getattr(self, name)!r}")
        if self.max_message_chars <= 0 or self.memory_budget_tokens <= 0 or self.knowledge_budget_tokens <= 0:
            raise ValueError("budgets must be positive")
        if self.context_window_tokens < 0:
            raise ValueError("context_window_tokens must be 0 (ask the server) or more")
        if self.task_k < 0 or not 0.0 <= self.task_floor <= 1.0:
            raise ValueError("task_k must be 0 or more and task_floor between 0 and 1")
        if self.extraction_max_tokens <= 0:
            raise ValueError("extraction_max_tokens must be positive")
        if self.check_retries < 0:
            raise ValueError("check_retries must be 0 or more")
        if self.consolidation_delay_s < 0:
            raise ValueError("consolidation_delay_s must be 0 or more")
        if self.retention_days < 0:
            raise ValueError("retention_days must be 0 (off) or a number of days")
        for name in (f.name for f in fields(self) if f.name.endswith("_days")):
            days = getattr(self, name)  # every TTL, limit and review date is a time +/- these days
            if not (isinstance(days, int | float) and math.isfinite(days) and 0 <= days <= MAX_DAYS):
                raise ValueError(f"{name} must be a number of days from 0 to {MAX_DAYS}, not {days!r}")

    @property
    def weights(self) -> tuple[float, float, float]:
        """(relevance, recency, importance), explicit weights overriding the preset."""
        base = PRESETS[self.preset]
        given = (self.w_relevance, self.w_recency, self.w_importance)
        return tuple(g if g >= 0 else b for g, b in zip(given, base))  # type: ignore[return-value]


def env_value(field_name: str) -> str:
    """What the environment (or .env, once a Context has loaded it) says for a field, "" when unset."""
    return os.environ.get(ENV_PREFIX + field_name.upper(), "").strip()


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@lru_cache(maxsize=16)
def _load_env_file(cwd: str) -> None:
    """Read the nearest .env (from the working directory up) once per directory."""
    load_dotenv(find_dotenv(usecwd=True), override=False)


def _coerce(name: str, raw: str, kind: type, given_as: str = "") -> Any:
    try:
        if kind is bool:
            if raw.strip().lower() in {"1", "true", "yes", "on"}:
                return True
            if raw.strip().lower() in {"0", "false", "no", "off"}:
                return False
            raise ValueError(raw)
        return kind(raw)
    except ValueError:
        given_as = given_as or f"{ENV_PREFIX}{name.upper()}"
        raise ValueError(f"{given_as}={raw!r} is not a valid {kind.__name__}") from None


def parse_setting(assignment: str) -> tuple[str, Any]:
    """A CLI ``--set FIELD=VALUE`` as the field's name and a value of its type."""
    name, sep, raw = assignment.partition("=")
    name = name.strip().lower()
    known = {f.name: f for f in fields(Context)}
    if not sep or not name:
        raise ValueError(f"--set takes FIELD=VALUE, not {assignment!r}")
    if name not in known:
        raise ValueError(f"unknown setting {name!r} in --set; the fields are those of core/context.py (README, "
                         "Configuration: MEMORY_<FIELD> in lower case)")
    return name, _coerce(name, raw, type(known[name].default), given_as=f"--set {name}")
