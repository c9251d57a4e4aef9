"""Identifiers a client names (thread ids, conversation ids, memory-file names, store keys, namespace labels).

An identifier is stored verbatim, as a key, a column or a file name: it cannot be
redacted without becoming another identifier (two threads would merge), so one
that carries a secret is refused instead, before anything is written, and the
error never repeats it. Separators are read as spaces too, so
"my-password-is-Tr0ub4dor" is caught as well as "sk-proj-…".
"""

from __future__ import annotations

import re

from stores.redaction.phrasings import high_entropy
from stores.redaction.secrets import find_secrets

_SEPARATORS = re.compile(r"[_\-./:+|]+")
_CUE = re.compile(r"(?i)key|apikey|token|secret|password|passwd|pass|pwd|pw|pin|passcode|cvv|cvc|otp|creds?")


class SecretInIdentifier(ValueError):
    """An identifier that holds a secret; nothing was stored."""


def identifier_secret(value: str) -> str | None:
    """The kind of secret ``value`` holds (read as is, then with separators as spaces), or None."""
    if not isinstance(value, str) or not value:
        return None
    spaced = _SEPARATORS.sub(" ", value)
    for text in (value, spaced):
        found = find_secrets(text)
        if found:
            return found[0][2]
    # "session_token_Ab12Cd34Ef56": a cue word and a random-looking part, with no "is" between them.
    parts = spaced.split()
    if any(_CUE.fullmatch(p) for p in parts) and any(high_entropy(p) for p in parts):
        return "api_key"
    return None


def check_identifier(value: str, what: str) -> str:
    """``value`` when it holds no secret; else ``SecretInIdentifier`` in one line that does not repeat it."""
    kind = identifier_secret(value)
    if kind is not None:
        raise SecretInIdentifier(
            f"{what} holds what looks like a secret ({kind.replace('_', ' ')}); choose another name; nothing was stored"
        )
    return value


def secret_in_names(key: str, labels: tuple[str, ...]) -> str | None:
    """Why a store put must be refused (its key or a namespace label holds a secret), or None."""
    for what, name in (("the key", key), *(("a namespace label", label) for label in labels)):
        kind = identifier_secret(name)
        if kind is not None:
            return (f"{what} holds what looks like a secret ({kind.replace('_', ' ')}); choose another name; "
                    "nothing was saved")
    return None
