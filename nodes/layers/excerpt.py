"""A roll-up in the prompt: only the lines of it that bear on the message.

Upkeep's roll-ups (nodes/upkeep/rollup.py) sum up a week or a month in up to
160 words; that is what lets old episodes go. Shown whole, three of them fill
the memory block with lines about other things (in the six-month simulation a
month roll-up cost about 150 tokens of which one line answered the question).
So recall shows a roll-up the way a search result shows a snippet: its period
title, then the lines that share a content word with the message, each under
its week's title when the roll-up is a month's, at most ``MAX_LINES``. A roll-up
with no such line is not shown: vector search found it for words it does not
hold. The stored roll-up is unchanged; only the prompt's copy is cut.
"""

from __future__ import annotations

import re

from nodes.layers.identifiers import content_words
from nodes.layers.message_query import stem

MAX_LINES = 3
_MESSAGE_HEAD = re.compile(r"^\[[^\]]*\]\s*[^:]{1,60}:\s*")  # "[3 May 2025] user: " on a recalled message
_TITLE = re.compile(r"^(?:Week \d{4}-W\d{2}\b.*|[A-Z][a-z]+ \d{4}):$")


def terms(text: str) -> set[str]:
    """Stemmed content words (as usage tracking counts them)."""
    return {stem(w) for w in content_words(text)}


def excerpt(text: str, query: str, max_lines: int = MAX_LINES) -> tuple[str, list[str]] | None:
    """(the roll-up cut to the lines that share a content word with ``query``, those lines);
    None when no line does.
    """
    wanted = terms(query)
    lines = text.splitlines()
    if not lines or not wanted:
        return None
    head, out, picked, week = lines[0], [lines[0]], [], None
    for line in lines[1:]:
        if _TITLE.match(line.strip()):
            week = line
            continue
        if len(picked) < max_lines and terms(line) & wanted:
            if week is not None and week not in out:
                out.append(week)
            out.append(line)
            picked.append(line)
    if not picked:
        return None
    return "\n".join(out) if head else "\n".join(out[1:]), picked


def quoted_bodies(lines: list[str]) -> set[str]:
    """The sentences a set of summary lines quote ("User: I moved." -> "i moved."), for spotting a
    past message the prompt already shows word for word.
    """
    return {line.split(":", 1)[1].strip().lower() for line in lines if ":" in line}


def message_body(text: str) -> str:
    """A recalled message's words, without its "[date] speaker: " head, lower-cased (to match a quote)."""
    return _MESSAGE_HEAD.sub("", text.strip()).strip().lower()
