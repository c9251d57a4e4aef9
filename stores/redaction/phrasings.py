"""Secrets said in words rather than shaped like keys: passphrases, logins, CVVs, backup codes, key halves.

``credentials.py`` wants a value shaped like a credential (letters with digits or
symbols) or one plain word; these forms have no such shape, so each is found by
the words around it instead:

- a passphrase: everything after "password is" / "passcode is" / "my wifi pass is"
  up to the end of the sentence, when that is 2 to 8 content words (no article,
  pronoun, preposition or auxiliary: "my password is on a sticky note" is prose);
- a login: "login: bob / X", "user bob pass X", "username: bob password: X",
  ``curl -u admin:X``;
- 2FA backup or recovery codes listed after their name, a card's CVV, the answer
  to a security question;
- a key split across messages: a known key prefix with too little after it to be
  a whole key ("sk-proj-Xa81"), and "the rest is X" / "the second half is X".

Spans cover the value only, so the sentence stays readable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from stores.redaction.credential_shape import TRAILING, credential_shaped, is_placeholder, pin_shaped
from stores.redaction.credential_words import NOT_A_PASSWORD

Span = tuple[int, int, str]

# Words no passphrase holds but prose about passwords always does.
FUNCTION_WORDS = frozenset("""a an the this that these those it its it's i me my you your he him his she her we us
    our they them their there here who whom which what when where why how
    is are was were be been being am do does did done has have had having will would shall should can could
    may might must not no nor never ever always often usually sometimes again also too very so quite really
    just only even still already yet now then soon later today yesterday tomorrow tonight anymore
    to of in on at by for from with without into onto about over under after before since until than
    as like and or but if because while though although unless whether either neither both
    all any some none each every much many more most less few first last same different
    something anything nothing everything
    someone anyone somewhere anywhere else enough please thanks thank ok okay yes""".split())
# A count opens prose ("my passphrase is four random words"); later in a passphrase it is one of its words.
_COUNTS = frozenset("one two three four five six seven eight nine ten twelve twenty hundred".split())
# "I can't remember if the password is capitalised": a question about it, not its value (the write policy's
# hypotheticals, a wider and sentence-wide cue, are memory/write_policy/hypotheticals.py).
DOUBT_BEFORE = re.compile(r"(?i)\b(?:if|whether|unless|wonder)\s+(?:\S+\s+){0,2}$")
# Sentence ends: the passphrase runs up to one of these.
_END = re.compile(r"[.!?;,\n()\"]|\s[-–—]\s|$")
_WORD = re.compile(r"[^\W\d_][^\W_'’\-]*(?:[-'’][^\W_]+)?|\d+")

_PHRASE_CUE = re.compile(r"""(?ix)(?<![\w\-])
    (?: pass\s?(?:word|phrase|code)|passwd|pwd|pw
      | (?:my|our|the|your|his|her|their|wi-?fi|email|e-mail|account|router|\w+['’]s)\s+pass
    )
    (?:\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w\-]+(?:\s+[\w\-]+)?)?
    \s*(?:\s(?:is|was|will\s+be|is\s+now|was\s+changed\s+to)\s|[:=]|['’]s\s)\s*""")


def _phrase_value(text: str, start: int, one_word: bool) -> tuple[int, int] | None:
    """The words from ``start`` to the sentence end, when they read like a passphrase.

    ``one_word``: whether a single plain word is a value here ("passcode is tangerine"); after
    "password" ``credentials.py`` already decides that, with its own list of prose words.
    """
    stop = _END.search(text, start)
    end = stop.start() if stop else len(text)
    chunk = text[start:end].rstrip()
    words = chunk.split()
    if not words or "[REDACTED" in chunk:
        return None
    if len(words) == 1:  # one token: a PIN, or a word ``credentials.py`` left (it takes shaped ones)
        value = words[0].rstrip(TRAILING)
        prose = value.lower() in NOT_A_PASSWORD or value.lower() in FUNCTION_WORDS
        ok = pin_shaped(value) or credential_shaped(value) or (one_word and value.isalpha() and len(value) >= 4
                                                               and not prose)
        return (start, start + len(value)) if ok and not is_placeholder(value) else None
    if len(words) > 8 or not all(_WORD.fullmatch(w) for w in words):
        return None
    low = [w.lower() for w in words]
    if any(w in FUNCTION_WORDS for w in low) or low[0] in _COUNTS:
        return None
    # "case sensitive", "changed yesterday": an adjective about the password, not one.
    if low[0] in NOT_A_PASSWORD and len(words) < 4:
        return None
    return start, start + len(chunk)


def _passphrases(text: str) -> Iterator[Span]:
    for m in _PHRASE_CUE.finditer(text):
        if DOUBT_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue
        one_word = not re.match(r"(?i)pass(?:word|wd|\s?phrase)|pwd|pw", m.group())
        span = _phrase_value(text, m.end(), one_word)
        if span:
            yield (*span, "password")


_TOKEN_VALUE = r"""(?P<v>"[^"\n]{1,64}"|'[^'\n]{1,64}'|[^\s"',;]+)"""
_LOGIN = re.compile(rf"""(?ix)(?<![\w\-])(?:login|log-in|creds|credentials|account)(?:\s*[:=]\s*|\s+)
    (?P<name>[\w.@+\-]{{2,64}})\s*[/|]\s*(?:(?:pass(?:word)?|pwd|pw)(?!\w)\s*[:=]?\s*)?{_TOKEN_VALUE}""")
_USER_PASS = re.compile(rf"""(?ix)(?<![\w\-])(?:user(?:name)?|usr|login)(?:\s*[:=]\s*|\s+)(?P<name>[\w.@+\-]{{2,64}})
    \s*[,;/]?\s*(?:pass(?:word)?|pwd|pw)(?!\w)\s*[:=]?\s*{_TOKEN_VALUE}""")
_CLAUSE_END = re.compile(r"\s*(?:$|[.,;!?)])")
_CURL = re.compile(r"""(?ix)\b(?:curl|wget|http|httpie)\b[^\n]{0,200}?\s(?:-u|--user|--http-user)[\s=]+["']?
    [^\s:"']{1,64}:(?P<v>[^\s"']{3,200})""")
# "user will pass the test", "login page was slow": the word after the user name is prose.
_NOT_A_NAME = FUNCTION_WORDS | frozenset("""page screen form button issue issues problem problems flow details
    info time attempt attempts name names research input data experience interface story stories""".split())


def _plausible_password(value: str) -> bool:
    v = value.strip("\"'").rstrip(TRAILING)
    if len(v) < 4 or is_placeholder(v) or "[REDACTED" in v:
        return False
    if v.lower() in FUNCTION_WORDS or v.lower() in NOT_A_PASSWORD:
        return False
    return credential_shaped(v, 4) or pin_shaped(v) or v.isalpha() or " " in v


def _logins(text: str) -> Iterator[Span]:
    for rx in (_USER_PASS, _LOGIN):
        for m in rx.finditer(text):
            if m.group("name").lower() in _NOT_A_NAME:
                continue
            raw, value = m.group("v"), m.group("v").rstrip(TRAILING)
            # "login: Monday / Tuesday works for me": without "pass", a plain word ends the clause.
            shaped = credential_shaped(value, 4) or pin_shaped(value) or bool(_CLAUSE_END.match(text, m.end("v")))
            if _plausible_password(raw) and (rx is _USER_PASS or shaped):
                end = m.start("v") + len(raw if raw[0] in "\"'" else raw.rstrip(TRAILING))
                yield m.start("v"), end, "password"
    for m in _CURL.finditer(text):
        yield m.start("v"), m.end("v"), "password"


_CODE = r"(?:[A-Za-z0-9]{3,6}[- ][A-Za-z0-9]{3,6}|[A-Za-z0-9]{6,12})"
_BACKUP = re.compile(rf"""(?ix)\b(?:2fa|mfa|two[- ]factor|backup|recovery|one[- ]time|otp|scratch|emergency)\s+codes?
    (?:\s+(?:for|of)\s+\w+)?\s*(?:\s(?:are|were|is)\s|[:=])\s*
    (?P<v>{_CODE}(?:\s*(?:,|;|\s|and)\s*{_CODE}){{0,15}})""")
_CVV = re.compile(r"""(?ix)\b(?:cvv2?|cvc2?|card\s+security\s+code|security\s+code\s+on\s+the\s+card)
    (?:\s+(?:on|for|of)\s+(?:my|the|her|his|our)\s+[\w\-]+(?:\s+card)?)?
    \s*(?:\s(?:is|was|number\s+is)\s|[:=#]|\s)\s*(?P<v>\d{3,4})(?!\d)""")
_ANSWER = re.compile(r"""(?ix)\b(?:security\s+(?:question\s+)?answer|memorable\s+(?:word|answer)
    |answer\s+to\s+(?:my|the|our|her|his)\s+security\s+question)
    \s*(?:\s(?:is|was)\s|[:=]|\s[-–—]\s)\s*""")


def _codes_and_answers(text: str) -> Iterator[Span]:
    for m in _BACKUP.finditer(text):
        codes = re.findall(_CODE, m.group("v"))
        if codes and all(any(c.isdigit() for c in code) for code in codes):
            yield m.start("v"), m.start("v") + len(m.group("v").rstrip(TRAILING + " ")), "backup_code"
    for m in _CVV.finditer(text):
        yield m.start("v"), m.end("v"), "card_cvv"
    for m in _ANSWER.finditer(text):
        stop = _END.search(text, m.end())
        end = stop.start() if stop else len(text)
        value = text[m.end():end].strip()
        if value and "[REDACTED" not in value and len(value.split()) <= 8:
            yield m.end(), m.end() + len(value), "security_answer"


# A known key prefix with any tail: too short for the full-key detectors, still half a key.
_KEY_PREFIX = re.compile(r"""(?x)(?<![A-Za-z0-9_\-])
    (?:sk-(?:proj-|ant-(?:api|admin)\d\d-|svcacct-|admin-)?|gh[pousr]_|github_pat_|xox[abposr]-|AIza
      |(?:sk|rk|pk)_(?:live|test)_|AKIA|ASIA|glpat-|hf_|npm_)[A-Za-z0-9_\-]{4,}""")
_CONTINUES = re.compile(r"""(?ix)\b(?:the\s+)?(?:rest|remainder|second\s+(?:half|part)|other\s+half|last\s+(?:part|bit)
    |end|tail)(?:\s+of\s+(?:it|the\s+(?:key|token|password|secret)|my\s+(?:key|token|password)))?
    \s*(?:\s(?:is|was|goes)\s|[:=])\s*(?P<v>[A-Za-z0-9_\-+/=]{6,})""")


def high_entropy(token: str) -> bool:
    """A random-looking fragment: letters mixed with digits, or mixed case, 6+ characters, no prose shape."""
    token = token.rstrip(TRAILING)
    if len(token) < 6 or not re.fullmatch(r"[A-Za-z0-9_\-+/=]+", token):
        return False
    digits, upper, lower = (sum(f(c) for c in token) for f in (str.isdigit, str.isupper, str.islower))
    return credential_shaped(token, 6) and (bool(digits and (upper or lower)) or (upper >= 2 and lower >= 2))


def _key_halves(text: str) -> Iterator[Span]:
    for m in _KEY_PREFIX.finditer(text):
        yield m.start(), m.end(), "key_fragment"
    for m in _CONTINUES.finditer(text):
        if high_entropy(m.group("v")):
            yield m.start("v"), m.end("v"), "key_fragment"


def find_phrased(text: str) -> list[Span]:
    """Spans of the secrets above; may overlap others, ``find_secrets`` picks."""
    if not text:
        return []
    return [s for s in (*_passphrases(text), *_logins(text), *_codes_and_answers(text), *_key_halves(text))
            if s[1] > s[0]]


# A message that leaves a secret unfinished: a cue with no value after it ("my api key is:"), a key's
# first part ("it starts with sk-proj-Xa81", already ``[REDACTED:key_fragment]`` in a thread's state).
_OPEN_CUE = re.compile(r"""(?ix)(?:key|token|secret|password|passphrase|passcode|pin|code|pw|pwd)
    \s*(?:is|was|=|:|->)?\s*(?:[:.…\-]+\s*)?$""")
_FIRST_PART = re.compile(r"(?i)\b(?:first\s+(?:half|part|bit)|part\s+(?:1|one)|(?:starts|begins)\s+with)\b")
_FRAGMENT_MARK = "[REDACTED:key_fragment]"


def opens_secret(previous: str) -> bool:
    """Whether ``previous`` (a message, raw or redacted) leaves a secret for the next message to finish."""
    text = previous.strip()
    if not text:
        return False
    if _FRAGMENT_MARK in text or any(kind == "key_fragment" for _, _, kind in find_phrased(text)):
        return True
    if _OPEN_CUE.search(text):
        return True
    return bool(_FIRST_PART.search(text)) and "[REDACTED" in text


_ENDS_REDACTED = re.compile(r"\[REDACTED:[a-z_]+\][\s.…,;:!-]*$")


def continuation_spans(previous: str, text: str) -> list[Span]:
    """The random-looking fragments of ``text`` when ``previous`` left a secret open: its other half.

    After a message that ended on a secret (redacted: how a thread holds it), a message that is
    only a fragment or two ("5678IjKl9012") is taken as more of that secret.
    """
    bare = len(text.split()) <= 2 and bool(_ENDS_REDACTED.search(previous.strip()))
    if not (bare or opens_secret(previous)):
        return []
    return [(m.start(), m.start() + len(m.group().rstrip(TRAILING)), "key_fragment")
            for m in re.finditer(r"[^\s,;()\"'`]+", text) if high_entropy(m.group())]
