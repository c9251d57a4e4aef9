"""Which files ``knowledge add`` reads, and their text: text, Markdown, HTML and PDF.

A folder is walked recursively without following links out of it; its files of
other types (code, images) are skipped and counted. Every file that
cannot be read becomes a ``Refused`` with one line saying why (empty, not text,
not a PDF, too large, a link loop, outside the folder, an unknown type), before
anything is stored, so a bad file is never half-stored.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

MAX_FILE_BYTES = 20 * 1024 * 1024  # a 50 MB "manual" is a mistake, not a document
TEXT_SUFFIXES = frozenset({".txt", ".text", ".md", ".markdown"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
PDF_SUFFIXES = frozenset({".pdf"})
SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES


@dataclass(frozen=True)
class Refused:
    """A path that was not added, and why (one line)."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"refused {self.path}: {self.reason}"


@dataclass(frozen=True)
class Skipped:
    """A file in a folder that is no document type (code, images...): counted, not refused."""

    path: str


class Unreadable(ValueError):
    """A file's content cannot become a document."""


def candidates(paths: list[str]) -> Iterator[Path | Refused | Skipped]:
    """Every file named or found under a named folder, or why a path was refused.

    A file named on the command line is read whatever its type (and refused if it is
    none we read); one found in a folder is skipped when its suffix is no document type.
    """
    for given in paths:
        path = Path(given)
        try:
            real = path.resolve(strict=True)
        except RuntimeError:  # Python <3.13 reports a link loop this way
            yield Refused(given, "a symlink loop")
            continue
        except OSError as err:
            yield Refused(given, "a symlink loop" if "loop" in str(err).lower() else "no such file or folder")
            continue
        if real.is_dir():
            yield from _walk(path, real)
        else:
            yield real


def _walk(shown: Path, root: Path) -> Iterator[Path | Refused | Skipped]:
    for folder, dirs, files in os.walk(root):  # links to folders are not followed
        dirs.sort()
        for name in sorted(files) + sorted(d for d in dirs if (Path(folder) / d).is_symlink()):
            entry = Path(folder) / name
            label = str(shown / entry.relative_to(root))
            if name.startswith("."):
                continue
            if entry.suffix.lower() not in SUFFIXES and not entry.is_symlink():
                yield Skipped(label)
                continue
            try:
                real = entry.resolve(strict=True)
            except (RuntimeError, OSError):
                yield Refused(label, "a symlink loop or a broken link")
                continue
            if not real.is_relative_to(root):
                yield Refused(label, f"it leads outside {shown} (to {real})")
            elif real.is_dir():
                continue  # a link to a folder inside: its files are walked there
            else:
                yield real


def read_document(path: Path, max_bytes: int = MAX_FILE_BYTES) -> tuple[str, str]:
    """``(text, format)`` of a file, format "markdown" (text, HTML) or "pdf"; ``Unreadable`` says why not."""
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise Unreadable(f"unsupported type {suffix or '(none)'}; expected one of {', '.join(sorted(SUFFIXES))}")
    size = path.stat().st_size
    if size > max_bytes:
        raise Unreadable(f"{size / 1e6:.1f} MB is over the {max_bytes / 1e6:.0f} MB limit for one document")
    data = path.read_bytes()
    if suffix in PDF_SUFFIXES:
        text = _pdf_text(data)
    else:
        if b"\x00" in data:
            raise Unreadable("binary content, not text")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise Unreadable("not UTF-8 text") from None
        if suffix in HTML_SUFFIXES:
            text = html_to_markdown(text)
    if not text.strip():
        raise Unreadable("empty: no text to add")
    return text, "pdf" if suffix in PDF_SUFFIXES else "markdown"


def _pdf_text(data: bytes) -> str:
    if not data.lstrip()[:5] == b"%PDF-":
        raise Unreadable("not a PDF (no %PDF- header)")
    try:
        from pypdf import PdfReader
    except ImportError:
        raise Unreadable("reading PDFs needs pypdf: pip install pypdf") from None
    import io
    import logging
    import warnings

    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL + 1)  # pypdf logs its own line per fault; the refusal says it in one
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader = PdfReader(io.BytesIO(data))
            return "\n\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception as err:  # pypdf raises many kinds on a damaged file
        raise Unreadable(f"a damaged PDF ({type(err).__name__})") from None
    finally:
        quiet.setLevel(level)


class _HtmlText(HTMLParser):
    """Text of an HTML page with its headings as Markdown headings, scripts and styles left out."""

    HEADINGS = {"h1": "#", "h2": "##", "h3": "###"}
    BLOCKS = frozenset({"p", "div", "li", "br", "tr", "section", "article", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag in self.HEADINGS:
            self.out.append(f"\n\n{self.HEADINGS[tag]} ")
        elif tag in self.BLOCKS:
            self.out.append("\n\n" if tag != "br" else "\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag in self.HEADINGS:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.out.append(re.sub(r"\s+", " ", data))


def html_to_markdown(html: str) -> str:
    """The readable text of ``html``, h1-h3 as Markdown headings so sections survive."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    lines = [line.strip() for line in "".join(parser.out).splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
