"""Full-text side of the Postgres store: a ``store_text`` side table and a BM25 ranking.

PostgresStore searches by vectors only, and the message log needs lexical matches
(names, dates, rare words) as much as the local store's FTS5 gives them. The side
table keeps one ``tsvector`` per indexed item (English stemming, GIN index), next to
LangGraph's own tables and deleted with the item (foreign key, ON DELETE CASCADE), so
the store stays a plain ``BaseStore``. It holds lexemes, never the text.

Ranking is BM25 with binary term frequency over the searched namespace, as the local
store computes it: each query lexeme weighs ln(1 + (N - df + 0.5) / (df + 0.5)), where
N is the namespace's document count and df the documents holding the lexeme; only
documents that hold some query lexeme are read (through the GIN index). As there, a
lexeme found in more than 5% of the documents (bounded by ``MIN_CAP``/``MAX_CAP``) is
skipped, and ties go to the newest document: without both, LoCoMo dev R@10 read 0.770
here against the local 0.783 (bench/README.md, "Postgres against the local store").
"""

from __future__ import annotations

from typing import Any

from stores.faiss_sqlite.lexical import MAX_CAP, MIN_CAP  # one cap for both backends

TEXT_CONFIG = "english"
MAX_TERMS = 32

DDL = [
    """CREATE TABLE IF NOT EXISTS store_text (
        prefix text NOT NULL,
        key text NOT NULL,
        tsv tsvector NOT NULL,
        PRIMARY KEY (prefix, key),
        FOREIGN KEY (prefix, key) REFERENCES store (prefix, key) ON DELETE CASCADE
    )""",
    "CREATE INDEX IF NOT EXISTS store_text_tsv_idx ON store_text USING gin (tsv)",
    "CREATE INDEX IF NOT EXISTS store_text_prefix_idx ON store_text USING btree (prefix text_pattern_ops)",
    # No statistics samples of users' words or values in pg_statistic: the text must
    # be gone from the database once the item is deleted and the tables rewritten.
    "ALTER TABLE store_text ALTER COLUMN tsv SET STATISTICS 0",
    "ALTER TABLE store ALTER COLUMN value SET STATISTICS 0",
]

UPSERT = (
    f"INSERT INTO store_text (prefix, key, tsv) VALUES (%s, %s, to_tsvector('{TEXT_CONFIG}', %s)) "
    "ON CONFLICT (prefix, key) DO UPDATE SET tsv = EXCLUDED.tsv"
)
DELETE = "DELETE FROM store_text WHERE prefix = %s AND key = %s"


def prefix_condition(column: str, namespace_prefix: tuple[str, ...]) -> tuple[str, list[Any]]:
    """Scope to a namespace and its children on ``column`` (LangGraph joins namespaces with '.').

    LangGraph's ``prefix = p OR prefix LIKE 'p.%'`` alone is estimated badly once there are
    many users: at 100k items the planner scanned every row of ``store``. The byte range
    [p, p + '/') holds p and all of 'p.*' ('.' sorts just before '/'), so it is added in
    front: one range scan of the ``text_pattern_ops`` prefix index, estimated from the
    column's statistics; the exact test then drops siblings such as 'p-x' in that range.
    """
    if not namespace_prefix:
        return "TRUE", []
    path = ".".join(namespace_prefix)
    like = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ".%"
    return (
        f"({column} ~>=~ %s AND {column} ~<~ %s AND ({column} = %s OR {column} LIKE %s ESCAPE '\\'))",
        [path, path + "/", path, like],
    )


def bm25_sql(ns_sql: str, live_sql: str, filter_sql: str) -> str:
    """One statement: (prefix, key, score) of the best ``limit`` documents for the query.

    Parameters, in order: query text, namespace params, filter params, namespace params, limit.
    """
    # On store_text's own prefix: the planner can AND its prefix index with the GIN index,
    # instead of matching every user's documents and filtering them on ``store``.
    on_text = ns_sql.replace("store.prefix", "t.prefix")
    return f"""
    WITH q AS MATERIALIZED (
        SELECT to_tsvector('{TEXT_CONFIG}', %s) AS v
    ), terms AS MATERIALIZED (
        SELECT lex FROM q, unnest(tsvector_to_array(q.v)) AS lex LIMIT {MAX_TERMS}
    ), query AS MATERIALIZED (
        SELECT string_agg(quote_literal(lex), ' | ')::tsquery AS tq FROM terms
    ), docs AS MATERIALIZED (
        SELECT t.prefix, t.key, store.created_at, tsvector_to_array(t.tsv) AS lexes
        FROM store_text t JOIN store ON store.prefix = t.prefix AND store.key = t.key, query
        WHERE query.tq IS NOT NULL AND t.tsv @@ query.tq AND {on_text}
              {live_sql} {filter_sql}
    ), total AS MATERIALIZED (
        SELECT count(*)::float8 AS n FROM store_text t WHERE {on_text}
    ), hits AS (
        SELECT d.prefix, d.key, d.created_at, terms.lex FROM docs d JOIN terms ON terms.lex = ANY (d.lexes)
    ), weights AS (
        SELECT lex, ln(1.0 + (total.n - count(*) + 0.5) / (count(*) + 0.5)) AS w FROM hits, total GROUP BY lex, total.n
        HAVING count(*) <= least({MAX_CAP}, greatest({MIN_CAP}, floor(total.n / 20)))
    )
    SELECT prefix, key, sum(w) AS score FROM hits JOIN weights USING (lex)
    GROUP BY prefix, key, created_at ORDER BY score DESC, created_at DESC, key DESC LIMIT %s
    """
