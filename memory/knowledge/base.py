"""The knowledge base on the raw store: add (or replace), list, remove and search documents.

This is the operator's path, the only code that writes ``KNOWLEDGE_ROOT``: it is
run by ``memory-agent knowledge`` on the raw store, never by a graph node, tool
or server client (their stores are gates, which refuse it: memory/write_policy/gate.py).

Layout: one unindexed record per document in ``KNOWLEDGE_DOCS`` (its path, title,
content hash and chunk keys) and one indexed item per chunk in
``KNOWLEDGE_CHUNKS``. A chunk's key holds its version (the content hash), so a
changed file's new chunks never overwrite the old ones in place: the new chunks,
the deletes of the old ones and the new record go to the store in one ``batch``,
which both backends commit as one transaction, so a reader (or a kill -9) sees
the old version whole or the new one whole, never both or neither. A file whose
hash is unchanged is skipped. Secrets are redacted from the text (and the path and title)
before it is chunked, as from anything a user says.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from langgraph.store.base import BaseStore, Item, PutOp, SearchItem

from memory import clock
from memory.knowledge.chunks import split_document
from memory.knowledge.sources import Unreadable, read_document
from stores.namespaces import KNOWLEDGE_CHUNKS, KNOWLEDGE_DOCS, KNOWLEDGE_ROOT
from stores.redaction.scrub import redact_deep
from stores.redaction.secrets import redact

Outcome = Literal["added", "replaced", "unchanged"]
_PAGE = 1000


class UnknownDocument(ValueError):
    """``knowledge remove`` named no stored document."""


def doc_key(doc: str) -> str:
    """The record key of a document id (its resolved path): short, and safe in any store."""
    return hashlib.sha256(doc.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class Document:
    """A stored document as ``knowledge list`` shows it."""

    doc: str
    title: str
    chunks: int
    sha256: str

    @classmethod
    def of(cls, item: Item) -> Document:
        v = item.value
        return cls(v["doc"], v["title"], len(v.get("chunks") or ()), v["sha256"])


def add_file(store: BaseStore, path: Path) -> Outcome:
    """Store (or replace) one document; ``Unreadable`` when it cannot be one, nothing stored then."""
    doc = str(path.resolve())
    text, fmt = read_document(path)
    text = redact(text)  # an operator's file may hold a key or a password: recalled into every user's prompt
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    key = doc_key(doc)
    old = store.get(KNOWLEDGE_DOCS, key)
    if old is not None and old.value.get("sha256") == digest:
        return "unchanged"
    chunks = split_document(text)
    if not chunks:
        raise Unreadable("empty: no text to add")
    version = digest[:12]
    keys = [f"{key}:{version}:{n:05d}" for n in range(len(chunks))]
    ops: list[PutOp] = [
        PutOp(KNOWLEDGE_CHUNKS, k, redact_deep({"text": c.text, "doc": doc, "title": path.name,
                                                "section": c.section, "chunk": n, "version": version}))
        for n, (k, c) in enumerate(zip(keys, chunks, strict=True))
    ]
    stale = set(old.value.get("chunks") or ()) - set(keys) if old is not None else set()
    ops += [PutOp(KNOWLEDGE_CHUNKS, k, None) for k in sorted(stale)]
    record = redact_deep({"doc": doc, "title": path.name, "sha256": digest, "format": fmt, "chunks": keys,
                          "added_at": clock.now().isoformat()})
    ops.append(PutOp(KNOWLEDGE_DOCS, key, record, index=False))
    store.batch(ops)  # one transaction: the old version whole, or the new one whole
    return "added" if old is None else "replaced"


def documents(store: BaseStore) -> list[Document]:
    """Every stored document, by path."""
    out: list[Item] = []
    while True:
        page = store.search(KNOWLEDGE_DOCS, limit=_PAGE, offset=len(out))
        out.extend(page)
        if len(page) < _PAGE:
            return sorted((Document.of(i) for i in out), key=lambda d: d.doc)


def find_document(store: BaseStore, name: str) -> Item:
    """The record of the document ``name`` names: its path (as given or resolved), its id, or its unique title."""
    for doc in (name, str(Path(name).resolve())):
        item = store.get(KNOWLEDGE_DOCS, doc_key(doc))
        if item is not None:
            return item
    titled = [d for d in documents(store) if d.title == name]
    if len(titled) == 1:
        return store.get(KNOWLEDGE_DOCS, doc_key(titled[0].doc))  # type: ignore[return-value]
    if titled:
        raise UnknownDocument(f"{len(titled)} documents are titled {name!r}; name one by its path "
                              "(memory-agent knowledge list)")
    raise UnknownDocument(f"no document {name!r} in the knowledge base (memory-agent knowledge list)")


def remove_document(store: BaseStore, name: str) -> Document:
    """Delete a document and its chunks in one batch, then make it physical (bytes included)."""
    item = find_document(store, name)
    gone = Document.of(item)
    ops = [PutOp(KNOWLEDGE_CHUNKS, k, None) for k in item.value.get("chunks") or ()]
    ops.append(PutOp(KNOWLEDGE_DOCS, item.key, None))
    store.batch(ops)
    scrub = getattr(store, "scrub", None)
    if callable(scrub):
        scrub((KNOWLEDGE_ROOT,))
    return gone


def search_chunks(store: BaseStore, query: str, k: int) -> list[SearchItem]:
    """The ``k`` best chunks for ``query``: the store's hybrid search (dense and lexical, fused)."""
    if k <= 0:
        raise ValueError("k must be positive")
    return store.search(KNOWLEDGE_CHUNKS, query=query, limit=k)


def citation(value: dict[str, Any]) -> str:
    """Where a chunk comes from, as recall cites it: document, section and chunk number."""
    section = f", section {value['section']!r}" if value.get("section") else ""
    return f"{value.get('title')}{section}, chunk {int(value.get('chunk', 0)) + 1}"
