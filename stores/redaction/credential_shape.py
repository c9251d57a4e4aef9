"""Does a string look like a password, a PIN or a secret, as opposed to a word, a date or a name?

A cue word alone ("password", "key", "code") is everywhere in ordinary prose;
what makes "the password for the server is pa55-w0rd-Xq" a secret is the value's
shape: letters mixed with digits or symbols, of credential length, and not one
of the shapes prose is full of (dates, times, versions, units, ordinals, e-mail
addresses, URLs, paths, product names like "COVID-19").
"""

from __future__ import annotations

import re

# Trailing characters that end a sentence rather than a value.
TRAILING = ".,;:?)]}\"'`”»"

# Masks, template variables and our own redaction marker stand where a secret would go.
_PLACEHOLDER = re.compile(r"[*xX.•#_\-]+|<[^>]*>|\$\{?[\w.]+\}?|%\w+%|\{\{.*\}\}|\[REDACTED:[^\]]*\]")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")
_URL_OR_DOMAIN = re.compile(r"(?i)[a-z][a-z0-9+.\-]*://\S*|www\.\S*|[\w\-]+(?:\.[\w\-]+)*\.(?:com|org|net|io|dev|"
                            r"edu|gov|co|uk|de|fr|es|it|nl|pl|app|ai)(?:/\S*)?")
_PATH = re.compile(r"[~.]?(?:[/\\][\w.\-]*)+|[A-Za-z]:\\\S*")
# Digits and letters that prose writes: 1st, 10am, 24h, 5km, 3D, 2FA, 1990s, v2.3.1, x86_64, utf-8, Q3, PS5, mp3.
_PROSE_ALNUM = re.compile(r"""(?ix)
    \d+(?:st|nd|rd|th|am|pm|h|hr|hrs|min|mins|s|ms|k|m|km|kg|g|mg|cm|mm|ml|l|gb|mb|tb|kb|mph|kmh|yo|yrs|x|d|fps|p)
  | v?\d+(?:\.\d+)+[a-z]?\d* | \d+[a-z]{1,2} | [a-z]{1,3}-?\d{1,2} | x86_64 | utf-?\d+ | \d+'?s
  | \$?\d[\d,.]*[km]?""")
_DATE_OR_TIME = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}/\d{1,2}")
_STRONG_SYMBOL = re.compile(r"[!#$%&*+=?@^~|<>§€£]")


def trim(value: str) -> str:
    """``value`` without quotes around it and sentence punctuation after it."""
    value = value.strip()
    if len(value) >= 2 and value[0] in "\"'`“«‘" and value[-1] in "\"'`”»’":
        return value[1:-1].strip()
    return value.rstrip(TRAILING)


def is_placeholder(value: str) -> bool:
    """A mask, a template variable or an already-redacted marker, not a secret."""
    return bool(_PLACEHOLDER.fullmatch(value.strip("\"'`")))


def _not_prose_shape(value: str) -> bool:
    return not any(rx.fullmatch(value) for rx in (_EMAIL, _URL_OR_DOMAIN, _PATH, _PROSE_ALNUM, _DATE_OR_TIME))


def credential_shaped(value: str, min_len: int = 5) -> bool:
    """Letters with digits or strong symbols (or a long camel-case run), of credential length, not a prose token."""
    if not min_len <= len(value) <= 80 or any(c.isspace() for c in value) or is_placeholder(value):
        return False
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    if not letters or not _not_prose_shape(value):
        return False
    if digits:
        return True
    if _STRONG_SYMBOL.search(value):
        return True
    humps = len(re.findall(r"[a-z][A-Z]", value))
    return humps >= 2 and len(value) >= 10


def secret_shaped(value: str) -> bool:
    """A key, token or secret: credential-shaped and long enough that a word-number pair does not pass."""
    return len(value) >= 8 and credential_shaped(value) and not re.fullmatch(r"[A-Za-z]+-\d{1,4}", value)


def pin_shaped(value: str) -> bool:
    """4 to 12 digits, optionally grouped by dashes or spaces, not one digit repeated."""
    if not re.fullmatch(r"\d(?:[ \-]?\d){3,11}[#*]?", value):  # "#" ends a keypad code
        return False
    return len(set(re.sub(r"\D", "", value))) > 1


def plain_word(value: str) -> bool:
    """One ordinary lowercase-or-capitalised word (how a dictionary-word password is said)."""
    return bool(re.fullmatch(r"[^\W\d_][^\W\d_'’\-]{3,30}", value))


def phrase_in_quotes(value: str) -> bool:
    """A quoted passphrase: 4 to 64 characters, at most six words, not a placeholder."""
    return 4 <= len(value) <= 64 and len(value.split()) <= 6 and not is_placeholder(value)
