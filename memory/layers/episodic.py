"""Episodic memory: one summary per past session, ranked by relevance, recency and importance.

Write policy (``on_session_end``): the session becomes one episode — a short
summary, an importance from 1 to 10, keywords, the time of its last message, its
thread and the ids of its messages (provenance). The summary is extractive by
default: sentences are copied, never rewritten, so names, ids and dates stay
verbatim; it keeps the user's words and only those assistant sentences that add a
detail (``summary_lines``), never the assistant's filler. A chat model may write
it instead (``use_llm``), but a tiny local model invents things, so its text is
kept only when it is grounded in the session's words, and every identifier is
still appended verbatim. A near-duplicate of a stored episode is not stored twice.
Episodes expire after ``context.episode_ttl_days``: through the store's TTL when
it has one, and always through an ``expires_at`` that recall checks, since a
store's sweeper may lag.

Read policy (``recall``): candidates from the store's vector search, rescored
with ``combined_score`` so the presets mean the same here as in every layer. A
sentence naming a value the user has since changed is marked with the date it was
true as of ("(as of 2026-03-02) I live in Porto."), never shown as current
(``episode_dating``).
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core.prompts import EPISODE_SUMMARY_PROMPT
from memory.clock import parse_time
from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.episode_dating import dated, ended_values
from memory.layers.excerpt import excerpt
from memory.layers.identifiers import (
    ensure_verbatim,
    extract_identifiers,
    extractive_summary,
    model_summary,
)
from memory.layers.scoring import combined_score
from memory.particulars import same_particulars
from memory.text import content_words, cosine_similarities
from memory.text import sentences as split_sentences
from stores.namespaces import EPISODES
from stores.redaction.secrets import redact

SUMMARY_MAX_WORDS = 80
MAX_KEYWORDS = 8
CANDIDATES_PER_RESULT = 4

_REDACTED = re.compile(r"\[REDACTED:[^\]]*\]")  # a redacted secret: no keyword of it
_DURABLE = re.compile(
    r"\b(?:i am|i'm|my (?:name|wife|husband|partner|son|daughter|job|birthday)|i live|i work|"
    r"i moved|i have|i prefer|i always|i never|i'm allergic|remember)\b",
    re.IGNORECASE,
)
_DECISION = re.compile(
    r"\b(?:decided|decide|let's go with|we'll|i'll|agreed|chose|choose|booked|ordered|"
    r"signed|scheduled|going to|plan to|confirmed)\b",
    re.IGNORECASE,
)
_FEEDBACK = re.compile(
    r"\b(?:stop|don't|do not|please be|too (?:long|short|verbose)|wrong|incorrect|"
    r"prefer|from now on)\b",
    re.IGNORECASE,
)
# Assistant sentences count less in an extractive summary: the session is about the user.
ASSISTANT_WEIGHT = 0.5
_URGENT = re.compile(r"\b(?:urgent|asap|deadline|important|critical|emergency)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Episode:
    """A past session as stored: see ``to_value`` for the record's JSON shape."""

    text: str
    importance: int
    keywords: tuple[str, ...]
    time: datetime
    thread: str
    sources: tuple[str, ...]
    summarizer: str  # "extractive" or "llm"

    @property
    def key(self) -> str:
        """Stable per session, so consolidating the same session again overwrites it."""
        return str(uuid.uuid5(uuid.NAMESPACE_URL, "|".join((self.thread, *self.sources))))

    def to_value(self, created_at: datetime, expires_at: datetime) -> dict[str, Any]:
        return {
            "text": self.text,
            "importance": self.importance,
            "keywords": list(self.keywords),
            "time": self.time.isoformat(),
            "thread": self.thread,
            "sources": list(self.sources),
            "summarizer": self.summarizer,
            "created_at": created_at.isoformat(),
            "expires_at": expires_at.isoformat(),
        }


class EpisodicLayer(LayerBase):
    """Past sessions as summaries; see the module docstring for both policies."""

    name = "episodic"

    def __init__(self, use_llm: bool = False, dedup_threshold: float | None = None) -> None:
        self.use_llm = use_llm
        self.dedup_threshold = dedup_threshold

    # -- write policy ---------------------------------------------------------------
    def on_session_end(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        episode = self.summarize(env, session) if any(m.text.strip() for m in session) else None
        if episode is not None:
            self.save(env, episode)
        return None

    def summarize(self, env: LayerEnv, session: Sequence[LoggedMessage]) -> Episode | None:
        """The episode for ``session``; importance and keywords need no LLM. None when the
        session holds nothing of the user's and no detail of the assistant's: filler is no episode.
        """
        lines = [f"{'User' if m.role == 'user' else 'Assistant'}: {m.text}" for m in session]
        text, summarizer = None, "extractive"
        if self.use_llm and env.chat_model is not None:
            text, summarizer = model_summary(env.chat_model, EPISODE_SUMMARY_PROMPT, "\n".join(lines)), "llm"
        if not text:
            picked = summary_lines(session)
            # The best of the user's words, with the assistant's details beside them. When no user line
            # scores, the user's lines that hold a content word, as said, or nothing: never the assistant
            # alone, whose lines would be recalled, and counted as used, as if they were the user's memory.
            text = extractive_summary(picked, SUMMARY_MAX_WORDS, {"Assistant": ASSISTANT_WEIGHT})
            if not any(line.startswith("User: ") for line in text.splitlines()):
                told = [line for line in picked if line.startswith("User: ") and content_words(line[6:], "summary")]
                text = _first_words(told, SUMMARY_MAX_WORDS)
            summarizer = "extractive"
        if not text:
            return None
        return Episode(
            text=ensure_verbatim(text, [m.text for m in session]),
            importance=importance(session),
            keywords=keywords(session),
            time=max(parse_time(m.time) for m in session),  # type: ignore[type-var]
            thread=session[-1].thread,
            sources=tuple(m.id for m in session),
            summarizer=summarizer,
        )

    def save(self, env: LayerEnv, episode: Episode) -> str | None:
        """Store ``episode``; return its key, or None when a near-duplicate is already stored."""
        ns = env.scope.ns(EPISODES)
        if self._is_duplicate(env, ns, episode.text):
            return None
        ttl_days = float(env.context.episode_ttl_days)
        value = episode.to_value(env.now, env.now + timedelta(days=ttl_days))
        if env.store.supports_ttl:
            env.store.put(ns, episode.key, value, ttl=ttl_days * 24 * 60)
        else:
            env.store.put(ns, episode.key, value)
        return episode.key

    def _is_duplicate(self, env: LayerEnv, ns: tuple[str, ...], text: str) -> bool:
        threshold = self.dedup_threshold if self.dedup_threshold is not None else env.context.dedup_threshold
        live = [h.value["text"] for h in env.store.search(ns, query=text, limit=5)
                if not _expired(h.value, env.now) and same_particulars(text, h.value["text"])]
        return any(sim >= threshold for sim in cosine_similarities(env.embeddings, text, live))

    # -- read policy ----------------------------------------------------------------
    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        ctx = env.context
        hits = env.store.search(env.scope.ns(EPISODES), query=query, limit=ctx.top_k * CANDIDATES_PER_RESULT)
        scored: list[Recalled] = []
        ended = ended_values(env) if hits else []
        for hit in hits:
            value = hit.value
            if _expired(value, env.now):
                continue
            score = combined_score(
                relevance=max(0.0, hit.score or 0.0),
                then=value.get("time"),
                importance=float(value.get("importance", 0)),
                now=env.now,
                weights=ctx.weights,
                half_life_days=ctx.recency_half_life_days,
                use_count=int(value.get("use_count", 0)),
            )
            if score < ctx.score_floor:
                continue
            text, sources = value["text"], tuple(value.get("sources", ()))
            meta = {k: value.get(k) for k in ("time", "thread", "importance", "keywords", "level")}
            if value.get("level"):  # a roll-up: shown as the lines that bear on the message (excerpt.py)
                cut = excerpt(text, query, env.embeddings)
                if cut is None:
                    continue
                if cut[0] != text:
                    # Only these lines are shown: they, not every source, say what a past message repeats.
                    text, sources, meta["quotes"] = cut[0], (), cut[1]
            text = dated(text, parse_time(value.get("time")), ended, rollup=bool(value.get("level")))
            scored.append(Recalled(kind="episode", text=text, score=score, sources=sources, key=hit.key, meta=meta))
        scored.sort(key=lambda r: r.score, reverse=True)
        return scored[: ctx.top_k]


def summary_lines(session: Sequence[LoggedMessage]) -> list[str]:
    """What an extractive episode summary picks from: the user's messages whole, and of the
    assistant's only the sentences that carry a detail the user did not give (an id, a
    date, an amount). Acknowledgements, offers of help and restatements are left out:
    an episode records what happened, in the user's words.
    """
    said = "\n".join(m.text for m in session if m.role == "user")
    lines: list[str] = []
    for m in session:
        if m.role == "user":
            lines.append(f"User: {m.text}")
            continue
        news = [s for s in split_sentences(m.text) if any(i not in said for i in extract_identifiers(s))]
        if news:
            lines.append("Assistant: " + " ".join(news))
    return lines


def _first_words(lines: Sequence[str], max_words: int) -> str:
    """The first ``lines`` whole, as many as fit ``max_words`` (at least one)."""
    kept: list[str] = []
    for line in lines:
        if kept and sum(len(k.split()) for k in kept) + len(line.split()) > max_words:
            break
        kept.append(line)
    return "\n".join(kept)


def importance(session: Sequence[LoggedMessage]) -> int:
    """1-10 without an LLM: longer sessions with durable facts, decisions, feedback,
    identifiers or urgency matter more than small talk.
    """
    user_text = "\n".join(m.text for m in session if m.role == "user")
    all_text = "\n".join(m.text for m in session)
    score = 1.0 + min(len(all_text.split()) / 100.0, 2.0)
    score += 2.0 if _DURABLE.search(user_text) else 0.0
    score += 2.0 if _DECISION.search(all_text) else 0.0
    score += 1.5 if _FEEDBACK.search(user_text) else 0.0
    score += 0.5 * min(len(extract_identifiers(all_text)), 3)
    score += 1.0 if _URGENT.search(all_text) else 0.0
    return int(round(min(max(score, 1.0), 10.0)))


def keywords(session: Sequence[LoggedMessage]) -> tuple[str, ...]:
    """The most frequent content words, ties broken by first appearance; secrets are not words."""
    counts = Counter(w for m in session for w in content_words(_REDACTED.sub(" ", redact(m.text)), "summary"))
    return tuple(w for w, _ in counts.most_common(MAX_KEYWORDS))


def _expired(value: dict[str, Any], now: datetime) -> bool:
    expires_at = parse_time(value.get("expires_at"))
    return expires_at is not None and expires_at <= now
