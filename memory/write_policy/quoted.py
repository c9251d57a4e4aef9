"""Quoted speech: words the user repeats, not words about the user.

"Watched The Princess Bride again. "Hello. My name is Inigo Montoya." Still brilliant." holds no
name of the user's, and "my boss said "I'm moving you to Leeds"" no move of theirs. A quoted
span that speaks (a first- or second-person word, or a sentence that ends inside it) is taken out
before the rules read a message; a quoted title or term with neither ("my favourite film is
"Alien"") stays, since it is the value the user gives.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Straight and curly double quotes; single quotes only round a long span, so "I've" or "Jo's" is no quote.
QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|(?<!\w)'[^']{12,}'(?!\w)")
_SPEAKS = re.compile(r"\b(?:i|i'm|i've|i'll|i'd|me|my|mine|we|we're|we've|us|our|you|you're|your)\b|[.!?]\s+\S", _I)


def without_quoted_speech(text: str) -> str:
    """``text`` with each quoted span that speaks replaced by a space (see the module docstring)."""
    return QUOTED.sub(lambda m: " " if _SPEAKS.search(m.group(0).replace("’", "'")) else m.group(0), text)
