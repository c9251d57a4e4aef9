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

import json
import sqlite3
from collections.abc import Sequence

from models.word_split import fts_words

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
    return " ".join(tag + w for w in fts_words(text))


class PendingTerms:
    """A batch's FTS changes, written in one statement at the end of its transaction.

    FTS5 flushes its pending terms into a new segment whenever SQLite opens a
    statement savepoint, which it does for most writes in a transaction (here:
    every ``INSERT ... RETURNING``). Indexing each document as it was put gave one
    segment per document (measured: 7 segments for a 100-item batch) and constant
    merging; one statement at the end gives one segment per batch.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[str | None, int, str]] = []  # ('delete' or None, rowid, tagged text)

    def add(self, item_id: int, ns_id: int, ftext: str) -> None:
        self.rows.append((None, item_id, _tagged(ns_id, ftext)))

    def remove(self, item_id: int, ns_id: int, ftext: str) -> None:
        self.rows.append(("delete", item_id, _tagged(ns_id, ftext)))

    def write(self, conn: sqlite3.Connection) -> None:
        """Apply the changes in order (an update is a delete then an add of the same rowid)."""
        if not self.rows:
            return
        conn.execute(
            "INSERT INTO fts (fts, rowid, txt) SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), "
            "json_extract(value, '$[2]') FROM json_each(?) ORDER BY key",
            (json.dumps(self.rows),),
        )
        note_writes(conn, len(self.rows))
        self.rows = []


def _terms(query: str) -> list[str]:
    words = (w for w in fts_words(query) if w not in STOPWORDS)
    return list(dict.fromkeys(words))[:MAX_TERMS]


def search(conn: sqlite3.Connection, query: str, ns_ids: Sequence[int], n_docs: int, limit: int) -> list[int]:
    """Item ids in the given namespaces, best BM25 first (the caller still checks
    expiry and filters).
    """
    if not ns_ids or len(ns_ids) > MAX_NAMESPACES:
        return []
    tags = [_tag(i) for i in ns_ids]
    total = max(n_docs, 1)
    cap = min(MAX_CAP, max(MIN_CAP, total // 20))
    terms = _terms(query)
    if not terms:
        return []
    # One statement does it all inside SQLite: each term's postings (capped, so its
    # document frequency is known), a weight per term, and the summed score per
    # item; only ``limit`` ids come back. Done in Python, a 10k-message namespace
    # moved ~1,300 postings per query through the interpreter.
    hits = " UNION ALL ".join(
        f"SELECT {n}, rowid FROM (SELECT rowid FROM fts WHERE fts MATCH ? LIMIT {cap + 1})" for n in range(len(terms))
    )
    sql = (
        f"WITH hits (t, id) AS MATERIALIZED ({hits}), "
        "weights (t, w) AS (SELECT t, ln(1.0 + (? - COUNT(*) + 0.5) / (COUNT(*) + 0.5)) FROM hits "
        "GROUP BY t HAVING COUNT(*) <= ?) "
        "SELECT id FROM hits JOIN weights USING (t) GROUP BY id ORDER BY SUM(w) DESC, id DESC LIMIT ?"
    )
    params = [" OR ".join(f'"{tag}{term}"' for tag in tags) for term in terms]
    return [r[0] for r in conn.execute(sql, (*params, total, cap, limit))]


def optimize(conn: sqlite3.Connection) -> None:
    """Merge FTS segments, dropping the entries of deleted documents for good."""
    conn.execute("INSERT INTO fts (fts) VALUES ('optimize')")
    conn.execute("DELETE FROM meta WHERE k = 'fts_writes'")


# Every write transaction leaves a segment and FTS5's automerge keeps O(log n) of
# them; a term lookup probes each one. At 1M items that made a user's search cost
# twice what it cost alone (15 segments); merged into one it cost 1.1x. So the
# index is merged once the changes since the last merge reach a tenth of the
# documents. Measured on a 1M-document fill in batches of 5,000: 5 segments at
# the end instead of 12, and 16 s of merging in all (a full merge of 1M
# documents takes ~2 s).
COMPACT_MIN = 5000
COMPACT_SHARE = 0.1


def note_writes(conn: sqlite3.Connection, n: int) -> None:
    """Add ``n`` to the count of FTS writes since the last merge."""
    conn.execute(
        "INSERT INTO meta (k, v) VALUES ('fts_writes', ?) "
        "ON CONFLICT (k) DO UPDATE SET v = CAST(v AS INTEGER) + excluded.v",
        (n,),
    )


def needs_merge(conn: sqlite3.Connection) -> bool:
    """Whether enough FTS writes have piled up, relative to the item count, to merge the index."""
    row = conn.execute("SELECT CAST(v AS INTEGER) FROM meta WHERE k = 'fts_writes'").fetchone()
    if row is None or row[0] < COMPACT_MIN:
        return False
    (docs,) = conn.execute("SELECT COALESCE(MAX(id), 0) FROM items").fetchone()  # an upper bound, O(log n)
    return bool(row[0] >= COMPACT_SHARE * docs)
