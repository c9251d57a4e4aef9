"""A roll-up in the prompt: only the lines of it that bear on the message.

Upkeep's roll-ups (memory/upkeep/rollup.py) sum up a week or a month in up to
160 words; that is what lets old episodes go. Shown whole, three of them fill
the memory block with lines about other things (in the six-month simulation a
month roll-up cost about 150 tokens of which one line answered the question).
So recall shows a roll-up the way a search result shows a snippet: its period
title, then the lines that share a content word with the message, each under
its week's title when the roll-up is a month's, at most ``MAX_LINES``. When no
line shares a word, the lines whose embedding is close to the message's
(cosine ≥ ``SEMANTIC_FLOOR``, at most ``SEMANTIC_LINES``) are shown instead:
"What job did I have before?" shares no word with "I work as a teacher." (with
MiniLM: 0.36; unrelated lines score below 0.2). A roll-up with neither is not
shown. The stored roll-up is unchanged; only the prompt's copy is cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.embeddings import Embeddings

from memory.layers.message_query import terms
from memory.text import cosine_similarities

MAX_LINES = 3
SEMANTIC_LINES = 2
SEMANTIC_FLOOR = 0.3
_TITLE = re.compile(r"^(?:Week \d{4}-W\d{2}\b.*|[A-Z][a-z]+ \d{4}):$")


def excerpt(text: str, query: str, embeddings: Embeddings | None = None,
            max_lines: int = MAX_LINES) -> tuple[str, list[str]] | None:
    """(the roll-up cut to the lines that bear on ``query``, those lines); None when none does.

    Lines sharing a content word come first; only without one are ``embeddings`` asked.
    """
    lines = text.splitlines()
    if len(lines) < 2 or not query.strip():
        return None
    body = [(n, line) for n, line in enumerate(lines) if n and not is_title(line)]
    wanted = terms(query)
    chosen = [n for n, line in body if terms(line) & wanted][:max_lines]
    if not chosen and embeddings is not None and body:
        near = cosine_similarities(embeddings, query, [line for _, line in body])
        ranked = sorted(zip(near, (n for n, _ in body)), reverse=True)
        chosen = sorted(n for cos, n in ranked[:SEMANTIC_LINES] if cos >= SEMANTIC_FLOOR)
    if not chosen:
        return None
    return _with_titles(lines, chosen), [lines[n] for n in chosen]


def is_title(line: str) -> bool:
    """Whether a roll-up line is a period title ("January 2025:", "Week 2025-W03 (13 Jan–19 Jan 2025):")."""
    return _TITLE.match(line.strip()) is not None


def _with_titles(lines: Sequence[str], chosen: list[int]) -> str:
    """The roll-up's first line, then each chosen line under the week title it sits under."""
    out, week = [lines[0]], None
    for n, line in enumerate(lines[1:], start=1):
        if is_title(line):
            week = line
        elif n in chosen:
            if week is not None and week not in out:
                out.append(week)
            out.append(line)
    return "\n".join(out)


def quoted_bodies(lines: list[str]) -> set[str]:
    """The sentences a set of summary lines quote ("User: I moved." -> "i moved."), for spotting a
    past message the prompt already shows word for word.
    """
    return {line.split(":", 1)[1].strip().lower() for line in lines if ":" in line}
