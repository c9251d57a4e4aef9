"""Lexical (BM25) retrieval with SQLite FTS5, scoped to namespaces by construction.

Every word is indexed with a fixed-width tag naming its namespace ("bbbbbcd" +
"pizza"), so each term's posting list holds one namespace's documents only. A
search then reads exactly the postings of the searched user: with a shared token
plus ``AND`` (measured) every term re-read the whole namespace's doclist, and
FTS5's own bm25() counts a term's documents across the whole table.

BM25 (binary term frequency, fine for short memories) is computed here from each
term's postings. A term found in more than 5% of the documents (bounded by
``MIN_CAP``/``MAX_CAP``) carries little weight and is skipped, which bounds a
query's cost. Searches spanning more than ``MAX_NAMESPACES`` namespaces (e.g.
across all users) rank by vectors alone.

The table is contentless: it keeps tokens, never text. Deleting needs the exact
indexed text, which ``items.ftext`` keeps (the tagging is recomputed from it).
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Sequence

_WORD = re.compile(r"[^\W_]+", re.UNICODE)  # what FTS5's unicode61 treats as a token
_TAG_LETTERS = "bcdfghjklmnpqrstvwxz"  # consonants only: porter stems the word as if untagged
_TAG_WIDTH = 7
MAX_TERMS = 32
MIN_CAP = 200
MAX_CAP = 2000
MAX_NAMESPACES = 64

# Words in nearly every English text: they cost the most postings and weigh the least.
STOPWORDS = frozenset(
    "a an and are as at be but by do did does for from had has have he her his how i if in is it its "
    "me my no not of on or our she so that the their them they this to us was we were what when where "
    "which who why will with you your".split()
)


def _tag(ns_id: int) -> str:
    chars = []
    for _ in range(_TAG_WIDTH):
        ns_id, digit = divmod(ns_id, len(_TAG_LETTERS))
        chars.append(_TAG_LETTERS[digit])
    return "".join(chars)


def _tagged(ns_id: int, text: str) -> str:
    tag = _tag(ns_id)
    return " ".join(tag + w for w in _WORD.findall(text.lower()))


def add(conn: sqlite3.Connection, item_id: int, ns_id: int, ftext: str) -> None:
    conn.execute("INSERT INTO fts (rowid, txt) VALUES (?, ?)", (item_id, _tagged(ns_id, ftext)))


def remove(conn: sqlite3.Connection, item_id: int, ns_id: int, ftext: str) -> None:
    conn.execute(
        "INSERT INTO fts (fts, rowid, txt) VALUES ('delete', ?, ?)", (item_id, _tagged(ns_id, ftext))
    )


def _terms(query: str) -> list[str]:
    words = (w for w in _WORD.findall(query.lower()) if w not in STOPWORDS)
    return list(dict.fromkeys(words))[:MAX_TERMS]


def search(conn: sqlite3.Connection, query: str, ns_ids: Sequence[int], n_docs: int, limit: int) -> list[int]:
    """Item ids in the given namespaces, best BM25 first (the caller still checks
    expiry and filters)."""
    if not ns_ids or len(ns_ids) > MAX_NAMESPACES:
        return []
    tags = [_tag(i) for i in ns_ids]
    total = max(n_docs, 1)
    cap = min(MAX_CAP, max(MIN_CAP, total // 20))
    scores: dict[int, float] = {}
    for term in _terms(query):
        expr = " OR ".join(f'"{tag}{term}"' for tag in tags)
        rows = conn.execute("SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?", (expr, cap + 1)).fetchall()
        if not rows or len(rows) > cap:
            continue
        idf = math.log(1.0 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
        for (item_id,) in rows:
            scores[item_id] = scores.get(item_id, 0.0) + idf
    return sorted(scores, key=lambda i: (-scores[i], -i))[:limit]


def optimize(conn: sqlite3.Connection) -> None:
    """Merge FTS segments, dropping the entries of deleted documents for good."""
    conn.execute("INSERT INTO fts (fts) VALUES ('optimize')")
