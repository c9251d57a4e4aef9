"""Text helpers shared by the layers and the extractors: sentence splitting, content
words (stop words dropped) and cosine similarity. Words themselves are split in
``models/word_split.py``, the one home of every word tokeniser.

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
from models.word_split import keywords, plain_words

# Words with no content in any of our uses (memory/words.toml [stop_words]).
FUNCTION_WORDS = stop_words()

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n+")
_STATEMENT_END = re.compile(r"(?<=[.!?])\s+|\n+|;\s+")
_STOP = {"facts": stop_words("grounding"), "summary": stop_words("summary")}


def sentences(text: str) -> list[str]:
    """Sentences (and lines) of ``text``, stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def statements(text: str) -> list[str]:
    """Sentences and ';'-clauses of a chat message, trimmed, apostrophes made plain."""
    return [s.strip() for s in _STATEMENT_END.split(text.replace("\u2019", "'")) if s.strip()]


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
