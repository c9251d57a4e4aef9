"""One item out of a list: "I speak French and Spanish" without Spanish is "I speak French".

Forgetting Spanish must not forget French when both were said in one list, in a message
or in a profile slot that holds several values. A clause that names the forgotten words
as one item of a list ("French, German and Spanish", "a dog and a cat") loses that item
and its separator; anything else (the words are the clause's subject, its verb, or sit
beside a pronoun or a verb: "Tom and I broke up", "quit smoking and started running")
is not a list, and the caller cuts the whole clause as before.
"""

from __future__ import annotations

import re

from models.word_split import reply_words

_I = re.IGNORECASE
_CONJ = r"(?:and|or|&)"
_LEFT_SEP = re.compile(rf"(?:,\s*{_CONJ}\s+|\s+{_CONJ}\s+|,\s*)$", _I)  # before the item
_RIGHT_SEP = re.compile(rf"^(?:,\s*{_CONJ}\s+|\s+{_CONJ}\s+|,\s*)", _I)  # after the item
_DETERMINER = re.compile(r"(?:\b(?:a|an|the|some|my|our|two|three)\s+)$", _I)
# A neighbour that makes the words a clause's part, not a list item.
_NOT_ITEM = frozenset(
    "i me we us you he him she her they them it is am are was were be been have has had do does did "
    "will would can could should may might must not never also then so but because when while if".split())
# What a list's first item follows ("I speak | French and Spanish", "a dog and a cat" after "have"):
# an adjective there ("a black dog and a cat") would make the item more than the words.
_LIST_HEAD = re.compile(
    r"(?:^|\b(?:speak|speaks|love|loves|like|likes|have|has|own|owns|play|plays|eat|eats|drink|drinks|"
    r"visit|visited|in|from|with|of|to|about|between|both|either|are|is|am|were|was|including|and|or))\s*$", _I)


def _item_like(word: str | None) -> bool:
    """Whether a list's neighbouring word looks like an item (a noun), not a pronoun or a verb."""
    if word is None:
        return False
    low = word.casefold()
    return low not in _NOT_ITEM and not (word.islower() and low.endswith("ed") and len(low) > 4)


def _first_word(text: str) -> str | None:
    words = [w for w in reply_words(text) if not _DETERMINER.search(w + " ")]
    return words[0] if words else None


def _last_word(text: str) -> str | None:
    words = reply_words(text)
    return words[-1] if words else None


def cut_item(pattern: re.Pattern[str], clause: str) -> str | None:
    """``clause`` without the one list item ``pattern`` matches; None when the match is not one list item."""
    matches = list(pattern.finditer(clause))
    if len(matches) != 1:
        return None
    start, end = matches[0].span()
    det = _DETERMINER.search(clause[:start])
    start = det.start() if det else start
    head, tail = clause[:start], clause[end:]
    ends_list = not tail.strip(" .!?") or _RIGHT_SEP.match(tail) is not None  # the item ends where the words do
    left, right = _LEFT_SEP.search(head), _RIGHT_SEP.match(tail)
    if left is not None and ends_list and _item_like(_last_word(head[: left.start()])):
        kept = head[: left.start()]
        conj = re.search(_CONJ, left.group(0), _I)
        if conj and right is None:  # "French, German and Spanish" - Spanish: "French and German"
            last = re.search(r",\s*([^,]{1,40})$", kept)
            if last is not None and len(reply_words(last.group(1))) <= 3:
                kept = f"{kept[: last.start()]} {conj.group(0)} {last.group(1)}"
        return kept + tail
    if right is not None and _LIST_HEAD.search(head) and _item_like(_first_word(tail[right.end():])):
        return head + tail[right.end():]
    return None
