"""One chat message from the terminal, however many lines it spans: pastes, quoted blocks, private keys.

A terminal hands the chat a paste one line at a time, so a pasted private key
used to arrive as one message per line: the ``-----BEGIN`` line was recognised
and redacted, the base64 body lines after it were stored as ordinary turns.
Here a message is whole before anyone sees it:

- a bracketed paste (terminals wrap a paste in ESC[200~ … ESC[201~ once the
  chat switches bracketed paste mode on) is one message;
- a ``\"\"\"`` line opens a block that the next ``\"\"\"`` line closes;
- a line with a ``-----BEGIN … PRIVATE KEY-----`` header opens a key block
  that takes every following key-shaped line up to the ``-----END`` line, so
  the whole key is one message and the detector redacts it whole. A line that
  cannot be part of a key (prose, a slash command) ends the block and is read
  as the next message.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
BLOCK = '"""'
CONTINUE = "... "

MULTILINE_HELP = f"""Multi-line messages:
  {BLOCK}              on a line of its own starts a message of several lines; the next {BLOCK} line sends it
  (paste)          a paste is one message (bracketed paste mode is switched on in a terminal)
  -----BEGIN ... PRIVATE KEY-----
                   a pasted private key is read up to its -----END line and redacted whole"""

_BEGIN = re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_END = re.compile(r"-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")
_KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{1,100}")
_PEM_HEADER = re.compile(r"[A-Za-z][A-Za-z\-]*: \S.*")  # Proc-Type: 4,ENCRYPTED / DEK-Info: …
_COMMANDS = frozenset("/remember /forget /search /memories /memory /prompt /end /quit /help".split())


def _in_key(line: str, after_header: bool) -> bool:
    """Whether ``line`` can continue a private key's body (a blank line only after a PEM header)."""
    text = line.strip()
    if text.split(" ", 1)[0] in _COMMANDS:
        return False
    return bool(_KEY_LINE.fullmatch(text) or _PEM_HEADER.fullmatch(text) or (not text and after_header))


class MessageReader:
    """Reads whole messages through ``ask`` (``input`` in a terminal), one per ``read``."""

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask
        self.pending: str | None = None  # a line read past the end of a key block

    def read(self, prompt: str) -> str:
        """The next message; raises ``EOFError`` when the input ends before one starts."""
        if self.pending is not None:
            line, self.pending = self.pending, None
        else:
            line = self.ask(prompt)
        if PASTE_START in line:
            return self._paste(line)
        if line.strip() == BLOCK:
            return self._block()
        if _BEGIN.search(line) and not _END.search(line):
            return self._key(line)
        return line

    def _more(self, prompt: str) -> str | None:
        try:
            return self.ask(prompt)
        except EOFError:
            return None

    def _paste(self, line: str) -> str:
        before, _, rest = line.partition(PASTE_START)
        parts = [rest]
        while PASTE_END not in parts[-1]:
            nxt = self._more("")
            if nxt is None:
                break
            parts.append(nxt)
        inside, _, after = "\n".join(parts).partition(PASTE_END)
        return (before + inside + after).replace(PASTE_START, "").replace(PASTE_END, "")

    def _block(self) -> str:
        parts: list[str] = []
        while (nxt := self._more(CONTINUE)) is not None and nxt.strip() != BLOCK:
            parts.append(nxt)
        return "\n".join(parts)

    def _key(self, line: str) -> str:
        parts, after_header = [line], False
        while (nxt := self._more(CONTINUE)) is not None:
            if _END.search(nxt):
                parts.append(nxt)
                break
            if not _in_key(nxt, after_header):
                self.pending = nxt
                break
            parts.append(nxt)
            after_header = bool(_PEM_HEADER.fullmatch(nxt.strip()))
        return "\n".join(parts)


@contextmanager
def bracketed_paste() -> Iterator[None]:
    """Bracketed paste mode on for the chat's lifetime, when both ends are a terminal."""
    tty = sys.stdin.isatty() and sys.stdout.isatty()
    if tty:
        sys.stdout.write("\x1b[?2004h")
        sys.stdout.flush()
    try:
        yield
    finally:
        if tty:
            sys.stdout.write("\x1b[?2004l")
            sys.stdout.flush()
