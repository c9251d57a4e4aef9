"""Scots spelling brought to standard English before the rules read a message.

"sold ma xbox tae a boy", "got the sack fae greggs", "vapin days are ower", "moved oot ma da's":
the rules are written in standard spelling, so a Glaswegian's endings, moves and names went
unread. A message is rewritten only when it shows at least two words no standard English
message uses ("fae", "tae", "noo", "disnae"…), so "ma" (mother) and "wee" elsewhere are left
alone. The facts are still grounded in the message as written (``grounding.py`` matches stems).
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Words only a Scots message uses: two of them mark the message.
_MARKERS = re.compile(r"\b(?:fae|tae|noo|oot|wis|disnae|cannae|didnae|isnae|arnae|wasnae|wouldnae|couldnae|"
                      r"dinnae|gonnae|wantae|whit|hame|wean|ower|dae|aboot|naw|widnae|huvnae|havnae)\b", _I)
_WORDS = {
    "fae": "from", "tae": "to", "noo": "now", "oot": "out", "wis": "was", "wi": "with", "dae": "do",
    "ma": "my", "naw": "no", "aw": "all", "oor": "our", "hame": "home", "auld": "old", "ower": "over",
    "aboot": "about", "whit": "what", "ye": "you", "wean": "child", "maw": "mum", "da": "dad",
    "disnae": "doesn't", "cannae": "can't", "didnae": "didn't", "isnae": "isn't", "arnae": "aren't",
    "wasnae": "wasn't", "wouldnae": "wouldn't", "widnae": "wouldn't", "couldnae": "couldn't", "dinnae": "don't",
    "huvnae": "haven't", "havnae": "haven't", "gonnae": "going to", "wantae": "want to",
}
_WORD = re.compile(r"\b(?:" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")\b", _I)
# A dropped "g" ("swimmin", "vapin"); not a word that ends in "in" ("cousin", "protein", "Dublin").
_DROPPED_G = re.compile(r"\b(?-i:[a-z]{2,}[^aeiou\W]in)\b")
_ENDS_IN_IN = {"cousin", "margin", "cabin", "robin", "basin", "satin", "violin", "muffin", "coffin", "raisin", "toxin",
               "insulin", "dolphin", "pumpkin", "napkin", "origin", "admin", "login", "begin", "latin", "griffin",
               "goblin", "bulletin", "aspirin", "heroin", "resin", "within", "penguin", "vitamin", "mandolin",
               "chaplain", "javelin", "zeppelin", "tintin", "muslin", "catkin", "bodkin", "firkin", "gherkin",
               "kremlin", "lanolin", "pippin", "ramekin", "sequin", "tannin", "urchin", "vermin", "dentin"}


def plain_scots(text: str) -> str:
    """``text`` in standard spelling when it is written in Scots; otherwise as it is."""
    if len(_MARKERS.findall(text)) < 2:
        return text
    text = _WORD.sub(lambda m: _cased(_WORDS[m[0].lower()], m[0]), text)
    return _DROPPED_G.sub(lambda m: m[0] if m[0] in _ENDS_IN_IN else m[0] + "g", text)


def _cased(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word
