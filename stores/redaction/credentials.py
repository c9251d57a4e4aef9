"""Find a stated password, PIN or secret by its cue and its shape together, in any phrasing.

"password is X" is one way of many: "the password for the server is X",
"Anna's password is X", "use X as the password", "X is my PIN", "pw: X",
"mein Passwort ist X", "moje hasło to X", "DB_PASS=X", "--password X". A cue
word (``credential_words.CUES``) names the credential; its value is the first
token after a link word within a short window (same sentence, a few words on),
before the cue in the reverse forms, or right after a separator. The value must
have a credential's shape (``credential_shape``), so "the password policy is
strict" and "my key to success is patience" stay prose. Spans cover the value
only, so redaction keeps the sentence.

Measured on the tuning and held-out corpora and LoCoMo prose by ``python -m bench.secrets_eval``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from stores.redaction.credential_shape import (
    TRAILING,
    credential_shaped,
    is_placeholder,
    phrase_in_quotes,
    pin_shaped,
    plain_word,
    secret_shaped,
    trim,
)
from stores.redaction.credential_words import (
    COMPOUNDS,
    CUES,
    DETERMINERS,
    FILLERS,
    LINKS,
    NOT_A_PASSWORD,
    PASSWORD,
    PIN,
    REVERSE_AS,
    REVERSE_IS,
    SECRET,
    STEMS,
    Cue,
    link_pattern,
)
from stores.redaction.phrasings import DOUBT_BEFORE

Span = tuple[int, int, str]

_ORDERED = sorted(enumerate(CUES), key=lambda ic: -len(ic[1].pattern))
_CUE_RX = re.compile(
    r"(?<![\w])(?:" + "|".join(f"(?P<c{i}>{cue.pattern})" for i, cue in _ORDERED) + r")(?![\w]|-\w)",
    re.IGNORECASE | re.VERBOSE,
)
_EN_LINKS = frozenset(LINKS["en"])  # a bare word is a password only in "password is sunflower"
_FRAGMENTS = [re.compile(cue.pattern, re.IGNORECASE | re.VERBOSE) for cue in CUES]
_WINDOW_CHARS, _WINDOW_TOKENS, _REVERSE_CHARS = 160, 8, 100
_BOUNDARY = re.compile(r"[.!;](?=\s|$)|\?(?!\s*it(?:['’]s|\s+is)\b)|\n")
_SEP = re.compile(r"""\s*["']?\s*(?:=>|->|[:=])\s*""")
_VALUE = re.compile(r""""[^"\n]{1,80}"|'[^'\n]{1,80}'|“[^”\n]{1,80}”|«[^»\n]{1,80}»|‘[^’\n]{1,80}’|`[^`\n]{1,80}`
    |\S+""", re.VERBOSE)
_TOKEN = re.compile(r"\S+")
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;!?)—–-]|(?:and|but|so|or|because)\b)", re.IGNORECASE)
_QUOTES = "\"'`“«‘"
_REVERSE_CONNECTORS = frozenset(REVERSE_AS + REVERSE_IS)
# "never use X as your password": an example of what not to do, not the user's password.
_NEGATED = re.compile(r"(?i)\b(?:never|don['’]?t|do\ not|not|avoid|nie|nicht|jamais|nunca|mai)\s+(?:\S+\s+)?$")
# A value that names the cue ("Password1 as your password") is an example.
_NAMES_A_PASSWORD = re.compile(r"(?i)pass|pwd|senha|wachtwoord|has[łl]o|contrase|mot.?de.?passe|kennwort")
_ENV_NAME = re.compile(r"""(?i)(?<![A-Za-z0-9_])(?:[A-Za-z0-9]{1,20}_){1,4}(?:password|passwd|pass|pwd|passphrase|pin)
    (?![A-Za-z0-9_])\s*["']?\s*(?:=>|[:=])\s*(?P<v>"[^"\n]+"|'[^'\n]+'|\S+)""", re.VERBOSE)
_BARE_PASS = re.compile(r"(?i)(?<![\w\-])pass\s*[:=]\s*(?P<v>\S+)")
_FLAG = re.compile(r"""(?i)(?<!\S)--?(?:password|passwd|pass|pwd)(?:=|\s+)(?P<v>"[^"\n]+"|'[^'\n]+'|[^\s\-"']\S*)""")
_MYSQL_P = re.compile(r"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]{0,200}?\s-p(?P<v>[^\s\-]\S{3,})")


def _kind(cls: str) -> str:
    return "api_key" if cls == SECRET else "password"


def _value_span(start: int, raw: str) -> tuple[int, int]:
    """The span of ``raw`` (found at ``start``) without the sentence punctuation after it."""
    if raw[0] in _QUOTES:
        return start, start + len(raw)
    stripped = raw.rstrip(TRAILING)
    return start, start + len(stripped)


def _quoted(raw: str) -> bool:
    return len(raw) >= 2 and raw[0] in _QUOTES and raw[-1] in "\"'`”»’"


def _accept(raw: str, cue: Cue, bare_word_ok: bool) -> bool:
    """Whether ``raw``, said where ``cue`` expects its value, is a credential."""
    value = trim(raw)
    if not value or is_placeholder(value) or "[REDACTED" in value:
        return False
    if cue.cls == SECRET:
        return secret_shaped(value)
    if pin_shaped(value) or credential_shaped(value):
        return True
    if _quoted(raw):
        return phrase_in_quotes(value) and value.lower() not in NOT_A_PASSWORD
    return bare_word_ok and plain_word(value) and value.lower() not in NOT_A_PASSWORD


def _separated(text: str, end: int, cue: Cue) -> tuple[int, int] | None:
    """``pw: X``, ``password = X``: after an English password word anything but a placeholder is its value."""
    sep = _SEP.match(text, end)
    if not sep or sep.end() >= len(text):
        return None
    m = _VALUE.match(text, sep.end())
    if not m:
        return None
    raw = m.group()
    lenient = cue.cls == PASSWORD and "en" in cue.langs
    ok = (len(trim(raw)) >= 4 and not is_placeholder(trim(raw))) if lenient else _accept(raw, cue, False)
    return _value_span(m.start(), raw) if ok else None


def _forward(text: str, end: int, cue: Cue, bare_ok: bool = True) -> tuple[int, int] | None:
    """The first credential-shaped value right after a link word, in the cue's sentence.

    ``bare_ok``: whether one plain word may be the value ("password is sunflower"); not in
    "if the password is capitalised", which asks about it.
    """
    window = text[end : end + _WINDOW_CHARS]
    stop = _BOUNDARY.search(window)
    window = window[: stop.start()] if stop else window
    tokens = list(_TOKEN.finditer(window))
    if not tokens or tokens[0].group().lower().strip(TRAILING) in COMPOUNDS:
        return None
    links = link_pattern(cue.langs)
    for i, tok in enumerate(tokens[:_WINDOW_TOKENS]):
        link = links.fullmatch(tok.group()) or links.fullmatch(" ".join(t.group() for t in tokens[i : i + 2]))
        if link:
            at = tok.start() + len(link.group()) if " " not in link.group() else tokens[i + 1].end()
        elif tok.group().endswith(":") and len(tok.group()) > 1:
            at = tok.end()
        else:
            continue
        rest = _TOKEN.finditer(window, at)
        nxt = next(rest, None)
        while nxt is not None and nxt.group().lower() in FILLERS:
            nxt = next(rest, None)
        if nxt is None:
            return None
        m = _VALUE.match(window, nxt.start())
        raw = m.group() if m else ""
        english = link is not None and "en" in cue.langs and link.group().lower() in _EN_LINKS
        if m is None:
            continue  # no value after the link: as before, try the next token
        bare = bare_ok and i == 0 and cue.cls == PASSWORD and english and bool(_CLAUSE_END.match(window, m.end()))
        if raw and _accept(raw, cue, bare):
            s, e = _value_span(end + m.start(), raw)
            return s, e
    first = tokens[0]  # no link: "wifi password Xj3-99-pLm", "enter passcode 559031"
    value = trim(first.group())
    if cue.cls != SECRET and (credential_shaped(value) or (cue.cls == PIN and pin_shaped(value))):
        return _value_span(end + first.start(), first.group())
    return None


def _reverse_ok(words: list[str]) -> bool:
    """Whether the words between a value and its cue read "as (your new)", "is my" or "a strong"."""
    connector, rest = (words[0], words[1:]) if words and words[0] in _REVERSE_CONNECTORS else ("", words)
    others = [w for w in rest if w not in DETERMINERS]
    if len(others) > 1:
        return False
    if connector in REVERSE_AS:  # "X as (your new) password"
        return True
    if connector:  # "X is my password": a possessive or article says whose
        return len(others) < len(rest)
    return bool(rest) and rest[0] in ("a", "an")  # "is X a strong password?"


def _reverse(text: str, start: int, cue: Cue) -> tuple[int, int] | None:
    """``use X as the password``, ``X is my password``, ``X als Passwort``: the nearest value that reads so."""
    base = max(0, start - _REVERSE_CHARS)
    tokens = list(_TOKEN.finditer(text, base, start))[-5:]
    for k in range(len(tokens) - 1, -1, -1):
        raw, value = tokens[k].group(), trim(tokens[k].group())
        if not _reverse_ok([t.group().lower() for t in tokens[k + 1 :]]):
            continue
        if _NAMES_A_PASSWORD.search(value) or _NEGATED.search(text[base : tokens[k].start()]):
            return None
        if credential_shaped(value) or (cue.cls == PIN and pin_shaped(value)):
            return _value_span(tokens[k].start(), raw)
    return None


@lru_cache(maxsize=512)
def _cue_for(said: str, first: Cue) -> Cue:
    """The cue with the languages of every entry that spells ``said`` ("pincode" is Dutch and German)."""
    langs = {lang for cue, rx in zip(CUES, _FRAGMENTS) if cue.cls == first.cls and rx.fullmatch(said)
             for lang in cue.langs}
    return Cue(first.pattern, first.cls, tuple(sorted(langs | set(first.langs))))


def _cued(text: str) -> Iterator[Span]:
    low = text.lower()
    if not any(stem in low for stem in STEMS):
        return
    for m in _CUE_RX.finditer(text):
        cue = _cue_for(m.group(), CUES[int(m.lastgroup[1:])])  # type: ignore[index]
        asked = bool(DOUBT_BEFORE.search(text, max(0, m.start() - 40), m.start()))
        found = (_separated(text, m.end(), cue) or _forward(text, m.end(), cue, not asked)
                 or _reverse(text, m.start(), cue))
        if found:
            yield found[0], found[1], _kind(cue.cls)


def _named(text: str) -> Iterator[Span]:
    """Environment names (``DB_PASS=X``), command-line flags (``--password X``, ``mysql -pX``), ``pass: X``."""
    for rx in (_ENV_NAME, _BARE_PASS, _FLAG, _MYSQL_P):
        for m in rx.finditer(text):
            raw = m.group("v")
            value = trim(raw)
            strict = rx is not _ENV_NAME
            if is_placeholder(value) or "[REDACTED" in value:
                continue
            if credential_shaped(value, 4) or pin_shaped(value) or (
                    _quoted(raw) and phrase_in_quotes(value)) or (not strict and plain_word(value)):
                yield (*_value_span(m.start("v"), raw), "password")


def find_credentials(text: str) -> list[Span]:
    """Spans (start, end, kind) of stated passwords, PINs and secrets; may overlap, ``find_secrets`` picks."""
    if not text:
        return []
    return [s for s in (*_cued(text), *_named(text)) if s[1] > s[0]]
