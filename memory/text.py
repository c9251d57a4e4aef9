"""Text helpers shared by the layers and the extractors: one home for splitting,
stop words and cosine similarity.

Two sentence splitters on purpose: ``sentences`` is conservative (a new sentence
starts with a capital, digit or quote), because summaries copy sentences whole
and must not cut "e.g. this"; ``statements`` also splits clauses at ";" and
normalises curly apostrophes, because each statement may become one atomic fact.
Stop-word lists differ by use (grounding, query analysis, summary keywords); each
use extends ``FUNCTION_WORDS`` with its own words, all in ``memory/words.toml``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import numpy as np
from langchain_core.embeddings import Embeddings

from memory.words import stop_words

# Words with no content in any of our uses (memory/words.toml [stop_words]).
FUNCTION_WORDS = stop_words()

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")
_STATEMENT_END = re.compile(r"(?<=[.!?])\s+|\n+|;\s+")
_WORD = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
_PLAIN_WORD = re.compile(r"[a-z0-9]+")  # grounding: an apostrophe splits ("user's" -> "user", "s")
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]{2,}")  # summary keywords: three characters or more, hyphens kept
_STOP = {"facts": stop_words("grounding"), "summary": stop_words("summary")}


def sentences(text: str) -> list[str]:
    """Sentences (and lines) of ``text``, stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def statements(text: str) -> list[str]:
    """Sentences and ';'-clauses of a chat message, trimmed, apostrophes made plain."""
    return [s.strip() for s in _STATEMENT_END.split(text.replace("\u2019", "'")) if s.strip()]


def words(text: str) -> list[str]:
    """Lower-cased words, keeping a contraction's tail ("don't", "user's")."""
    return [w.lower() for w in _WORD.findall(text)]


def plain_words(text: str) -> list[str]:
    """Lower-cased runs of letters and digits: how grounding compares a fact with what the user said."""
    return _PLAIN_WORD.findall(text.lower())


def keywords(text: str) -> list[str]:
    """Lower-cased words of three or more characters (hyphens and apostrophes kept), stop words included."""
    return [m.lower() for m in _KEYWORD.findall(text)]


def content_words(text: str, use: Literal["facts", "summary"] = "facts") -> list[str]:
    """The words that carry meaning, for one ``use``: a fact's words for grounding (no function words,
    no "user"), or a summary's keywords.
    """
    if use == "summary":
        return [w for w in keywords(text) if w not in _STOP["summary"]]
    return [w for w in plain_words(text.lower().replace("'s ", " ")) if w not in _STOP["facts"]]


def cosine_similarities(embeddings: Embeddings, text: str, others: Sequence[str]) -> list[float]:
    """Cosine of ``text`` with each of ``others``, embedded in one batch."""
    if not others:
        return []
    vectors = np.asarray(embeddings.embed_documents([text, *others]), dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1)
    norms[norms == 0] = 1.0
    unit = vectors / norms[:, None]
    return [float(x) for x in unit[1:] @ unit[0]]
