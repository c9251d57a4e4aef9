"""Documents into chunks: Markdown headings become sections, long sections become passages.

``langchain-text-splitters`` does both steps: ``MarkdownHeaderTextSplitter`` keeps
each chunk's heading path ("Returns / Time limits"), which recall cites, and
``RecursiveCharacterTextSplitter`` cuts a long section at paragraph, then line,
then sentence boundaries, with a small overlap so an answer split across a
boundary is still found whole in one chunk.
"""

from __future__ import annotations

from dataclasses import dataclass

from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

CHUNK_CHARS = 900
OVERLAP_CHARS = 120
_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]


@dataclass(frozen=True)
class Chunk:
    """One passage of a document, with the heading path of its section ("" before any heading)."""

    section: str
    text: str


def split_document(text: str) -> list[Chunk]:
    """The document's chunks in reading order; blank passages are dropped."""
    sections = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=True).split_text(text)
    cutter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_CHARS, chunk_overlap=OVERLAP_CHARS)
    out: list[Chunk] = []
    for section in sections:
        heading = " / ".join(section.metadata[k] for _, k in _HEADERS if section.metadata.get(k))
        out.extend(Chunk(heading, piece.strip()) for piece in cutter.split_text(section.page_content) if piece.strip())
    return out
