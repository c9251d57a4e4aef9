"""How text splits into words: the one home of every word tokeniser in the agent.

It sits at the bottom of the layering (below ``stores/``) so that the FTS5 index
and the hash embeddings split with the same functions as the memory layers, the
write policy and the answer check. ``words`` is the default; each other tokeniser
is a variant whose docstring says why its caller needs a different split. A new
caller picks one of these instead of writing its own regex. Sentence splitting and
stop words build on these in ``memory/text.py``.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
_PLAIN_WORD = re.compile(r"[a-z0-9]+")
_KEYWORD = re.compile(r"[A-Za-z][A-Za-z0-9'-]{2,}")
_FTS_WORD = re.compile(r"[^\W_]+")
_CASED_WORD = re.compile(r"[A-Za-z0-9']+")
_REPLY_WORD = re.compile(r"\b[\w'’-]+\b")
_APOSTROPHE_WORD = re.compile(r"[\w'’]+")
_ADDRESS_WORD = re.compile(r"[\w'@.+-]+")
_PIECE = re.compile(r"[A-Za-z']+|[^A-Za-z'\s]+|\s+")
_INNER_CAPITALISED = re.compile(r"(?<=\s)[A-Z][a-z]+")
_NAME_OR_NUMBER = re.compile(r"(?<!^)(?<![.!?] )\b(?:[A-Z][a-zA-Z'-]+|\d+)\b")


def words(text: str) -> list[str]:
    """Lower-cased words, keeping a contraction's tail ("don't", "user's"): how a query is read."""
    return [w.lower() for w in _WORD.findall(text)]


def plain_words(text: str) -> list[str]:
    """Lower-cased runs of ASCII letters and digits; an apostrophe splits ("user's" -> "user", "s").
    Grounding compares a fact with what the user said this way, and the hash embeddings hash these.
    """
    return _PLAIN_WORD.findall(text.lower())


def keywords(text: str) -> list[str]:
    """Lower-cased words of three or more characters, hyphens and apostrophes kept: a summary's keywords."""
    return [m.lower() for m in _KEYWORD.findall(text)]


def fts_words(text: str) -> list[str]:
    """Lower-cased runs of letters and digits in any script: the tokens of FTS5's unicode61 tokenizer,
    so the lexical index's own tagging and its queries split exactly as SQLite does.
    """
    return _FTS_WORD.findall(text.lower())


def cased_words(text: str) -> list[str]:
    """Runs of ASCII letters, digits and apostrophes, case kept: the summariser weighs a sentence by
    its capitalised words (names, "O'Brien" as one) and its numbers.
    """
    return _CASED_WORD.findall(text)


def reply_words(text: str) -> list[str]:
    """Words of a reply in any script, hyphenated compounds and either apostrophe kept whole:
    what the answer check's length rule counts ("meat-free" is one word, "don’t" too).
    """
    return _REPLY_WORD.findall(text)


def apostrophe_words(text: str) -> list[str]:
    """Runs of word characters and either apostrophe (a hyphen splits): how many words the answer
    check lets stand between a negation cue and a food ("without any of the chicken").
    """
    return _APOSTROPHE_WORD.findall(text)


def address_words(text: str) -> list[str]:
    """Words with the characters of an address kept ("sam.lee+work@example.com", "v2.1"): a memory
    command's target is searched for as said, so an email must not fall apart.
    """
    return _ADDRESS_WORD.findall(text)


def pieces(text: str) -> list[str]:
    """Words (letters and apostrophes), runs of other characters and runs of spaces, in order:
    a lossless split (``"".join(pieces(t)) == t``) for rewriting a clause word by word.
    """
    return _PIECE.findall(text)


def inner_capitalised(text: str) -> list[str]:
    """Lower-cased capitalised words after a space ("Lisbon", "Biscuit"), so never the first word:
    inside a question these are likely the names of things.
    """
    return [w.lower() for w in _INNER_CAPITALISED.findall(text)]


def names_and_numbers(text: str) -> list[str]:
    """Lower-cased capitalised words not opening a sentence, and numbers: what a stored fact names,
    which grounding requires the user to have said.
    """
    return [w.lower() for w in _NAME_OR_NUMBER.findall(text)]
