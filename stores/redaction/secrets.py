"""Find secrets in text before it reaches long-term memory, logs or prompts.

A memory agent must never keep an API key, a password or a card number the
user pasted in passing: whatever is stored is recalled into later prompts and
exported. Every detector here is a pattern plus, where one exists, a checksum
or range check (Luhn, IBAN mod-97, SSN ranges, JWT header), because a bare
pattern flags order numbers, phone numbers and git hashes. A span covers the
secret value only, so redaction keeps the sentence readable ("my password is
[REDACTED:password]"). Stated passwords, PINs and secrets, which have no
format, are found by cue and shape together in ``credentials.py``; passphrases,
logins, CVVs, backup codes and key halves by the words around them in ``phrasings.py``.

Measured on the tuning and held-out corpora in ``bench/datasets/secrets_*.jsonl``
and on LoCoMo prose by ``python -m bench.secrets_eval``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from stores.redaction.credential_shape import is_placeholder
from stores.redaction.credentials import find_credentials
from stores.redaction.phrasings import continuation_spans, find_phrased

Span = tuple[int, int, str]

# Characters that may surround a token without being part of it.
_TOK = r"A-Za-z0-9_\-"


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


# Issuer prefixes (IIN ranges) of the card networks people paste, with the
# lengths each network issues: a Luhn-valid number with an Amex prefix but 18
# digits is a reference number, not a card.
_CARD_NETWORKS: tuple[tuple[re.Pattern[str], frozenset[int]], ...] = (
    (re.compile(r"^3[47]"), frozenset({15})),  # American Express
    (re.compile(r"^(?:5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)"), frozenset({16})),  # Mastercard
    (re.compile(r"^4"), frozenset({13, 16, 19})),  # Visa
    (re.compile(r"^(?:6011|64[4-9]|65|62|35)"), frozenset(range(16, 20))),  # Discover, UnionPay, JCB
    (re.compile(r"^3(?:0[0-5]|[689])"), frozenset(range(14, 20))),  # Diners Club
    (re.compile(r"^(?:50|5[6-9]|6)"), frozenset(range(12, 20))),  # Maestro
)


def _card_ok(raw: str) -> bool:
    if len(set(re.findall(r"[ \-]", raw))) > 1:  # "4111 1111-1111 1111" is not how anyone writes a card
        return False
    digits = re.sub(r"\D", "", raw)
    if len(set(digits)) == 1 or not _luhn_ok(digits):
        return False
    network = next((lengths for prefix, lengths in _CARD_NETWORKS if prefix.match(digits)), frozenset())
    return len(digits) in network


# Length of a full IBAN per country (ISO 13616 registry, common countries).
_IBAN_LEN = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20,
    "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18,
    "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IS": 26, "IT": 27, "JO": 30,
    "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24,
    "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28,
    "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24,
    "SM": 27, "TN": 24, "TR": 26, "UA": 29, "VG": 24, "XK": 20,
}


def _iban_ok(raw: str) -> bool:
    iban = re.sub(r"\s", "", raw).upper()
    if _IBAN_LEN.get(iban[:2]) != len(iban):
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1


def _ssn_ok(raw: str) -> bool:
    digits = re.sub(r"\D", "", raw)
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    return 0 < area < 900 and area != 666 and group != 0 and serial != 0


def _jwt_ok(raw: str) -> bool:
    head = raw.split(".", 1)[0]
    try:
        decoded = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return False
    return isinstance(decoded, dict) and "alg" in decoded


def _randomish(value: str) -> bool:
    """A credential value, not a word, a placeholder or a code expression."""
    if is_placeholder(value):
        return False
    if re.search(r"(?i)your|example_|here$|changeme_?later|placeholder|redacted", value):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_alpha = any(c.isalpha() for c in value)
    mixed_case = any(c.islower() for c in value) and any(c.isupper() for c in value)
    return has_alpha and (has_digit or (mixed_case and len(value) >= 20))


def _mixed_base64(value: str) -> bool:
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)


@dataclass(frozen=True)
class _Detector:
    """One detector. ``group`` is the regex group holding the secret value."""

    kind: str
    pattern: re.Pattern[str]
    check: Callable[[str], bool] | None = None
    group: int | str = 0
    # Higher wins when two detections overlap (specific formats beat generic ones).
    priority: int = 1


# Stated passwords, PINs and secrets (``credentials.py``) rank with the other keyword rules.
_CREDENTIAL_PRIORITY = 4
# Passphrases, logins, CVVs, backup codes, key halves (``phrasings.py``): below the shaped credentials,
# whose spans are tighter, but a longer passphrase still wins over the one word inside it.
_PHRASED_PRIORITY = 4


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.VERBOSE)


# Prefix and suffix words are bounded: an unbounded ``(\w+_)*`` makes the scan
# quadratic on long runs of letters and dashes.
_KEYWORD = r"(?<![A-Za-z0-9_\-])(?:[A-Za-z0-9]{1,40}[_\-]){0,5}" \
    r"""(?:api[_\-\ ]?key|apikey|secret(?:[_\-]?(?:access[_\-]?)?key)?
               |access[_\-]?key|(?:access|auth|refresh|session|bot)[_\-]?token|token
               |client[_\-]?secret|private[_\-]?key)(?:[_\-][A-Za-z0-9]{1,40}){0,5}"""

_DETECTORS: tuple[_Detector, ...] = (
    _Detector("private_key", _rx(r"""-----BEGIN\ (?:[A-Z0-9]+\ )*PRIVATE\ KEY(?:\ BLOCK)?-----
        [\s\S]*?(?:-----END\ (?:[A-Z0-9]+\ )*PRIVATE\ KEY(?:\ BLOCK)?-----|\Z)"""), priority=9),
    # A line of a key's body pasted on its own (a chat sends one line per message): long, base64, mixed.
    _Detector("base64_block", _rx(r"(?m)^[ \t]*(?P<v>[A-Za-z0-9+/]{60,}={0,2})[ \t]*$"), _mixed_base64, "v", 7),
    _Detector("anthropic_key", _rx(rf"(?<![{_TOK}])sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_\-]{{20,}}(?![{_TOK}])"),
              priority=9),
    _Detector("openai_key", _rx(rf"(?<![{_TOK}])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{{20,}}(?![{_TOK}])"),
          _randomish, priority=8),
    _Detector("github_token",
              _rx(rf"(?<![{_TOK}])(?:gh[pousr]_[A-Za-z0-9]{{30,}}|github_pat_[A-Za-z0-9_]{{30,}})(?![{_TOK}])"),
          priority=8),
    _Detector("aws_access_key", _rx(r"(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])"), priority=8),
    _Detector("slack_token", _rx(rf"(?<![{_TOK}])xox[abposr]-[A-Za-z0-9\-]{{10,}}(?![{_TOK}])"), priority=8),
    _Detector("slack_webhook", _rx(r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]+"),
              priority=8),
    _Detector("google_api_key", _rx(rf"(?<![{_TOK}])AIza[0-9A-Za-z_\-]{{35}}(?![{_TOK}])"), priority=8),
    _Detector("stripe_key", _rx(rf"(?<![{_TOK}])(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{{16,}}(?![{_TOK}])"), priority=8),
    _Detector("jwt", _rx(r"(?<![A-Za-z0-9_\-.])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{16,}"),
          _jwt_ok, priority=7),
    _Detector("bearer_token", _rx(r"(?i:\bbearer)\s+(?P<v>[A-Za-z0-9_\-.~+/]{16,}=*)"), _randomish, "v", 6),
    # Backslashes before a quote: the same assignment quoted inside a JSON string (a prompt's
    # memory line, quoted again each time a reply repeating it is recalled).
    _Detector("api_key", _rx(rf"""(?i:{_KEYWORD})\\{{0,8}}["']?\s*(?:[:=]|=>|\s(?i:is|was)\s)\s*\\{{0,8}}["']?
        (?P<v>[A-Za-z0-9_\-./+=]{{12,}})"""), _randomish, "v", 5),
    _Detector("password",
              _rx(r"""(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,30}://[^\s:/@]{1,100}:(?P<v>[^\s@/]{3,200})@[\w.\-]+"""),
              group="v", priority=6),
    _Detector("card_number", _rx(r"""(?<![\w\-.])(?:\d{4}([ \-]?)\d{4}\1\d{4}\1\d{4}(?:\1\d{1,3})?
        |\d{4}[ \-]?\d{6}[ \-]?\d{4,5}|\d{13,19})(?![\w\-]|\.\d)"""), _card_ok, priority=3),
    _Detector("iban", _rx(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:\ ?[A-Z0-9]{4}){2,7}(?:\ ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])"),
          _iban_ok, priority=3),
    _Detector("ssn", _rx(r"(?<![\d\-])\d{3}-\d{2}-\d{4}(?![\d\-])"), _ssn_ok, priority=2),
    _Detector("ssn", _rx(r"""(?i:\b(?:ssn|social\ security(?:\ number|\ no\.?|\ \#)?))\D{0,12}?
        (?P<v>(?<!\d)\d{3}[ ]?\d{2}[ ]?\d{4})(?!\d)"""), _ssn_ok, "v", 2),
    _Detector("uk_nino", _rx(r"""(?<![A-Za-z0-9])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]
        \ ?\d{2}\ ?\d{2}\ ?\d{2}\ ?[A-D](?![A-Za-z0-9])"""), priority=2),
)


def find_secrets(text: str) -> list[Span]:
    """Non-overlapping spans (start, end, kind) of secrets in ``text``, in order.

    Where detectors overlap, the more specific one wins (a ``sk-…`` key after
    ``api_key=`` is an ``openai_key``), then the longer span.
    """
    if not text:
        return []
    found: list[tuple[int, int, int, str]] = []
    for rule in _DETECTORS:
        for m in rule.pattern.finditer(text):
            value = m.group(rule.group)
            if value is None or (rule.check is not None and not rule.check(value)):
                continue
            start, end = m.span(rule.group)
            found.append((start, end, rule.priority, rule.kind))
    found.extend((start, end, _CREDENTIAL_PRIORITY, kind) for start, end, kind in find_credentials(text))
    found.extend((start, end, _PHRASED_PRIORITY, kind) for start, end, kind in find_phrased(text))
    found.sort(key=lambda s: (-s[2], -(s[1] - s[0]), s[0]))
    chosen: list[Span] = []
    for start, end, _, kind in found:
        if all(end <= s or start >= e for s, e, _ in chosen):
            chosen.append((start, end, kind))
    return sorted(chosen)


def contains_secret(text: str) -> bool:
    """True when ``text`` holds anything ``find_secrets`` would redact."""
    return bool(find_secrets(text))


def redact(text: str, previous: str = "") -> str:
    """``text`` with every detected secret replaced by ``[REDACTED:<kind>]``.

    ``previous``: the message before it in the same conversation; when that one left a
    secret unfinished ("my key is", "it starts with sk-proj-…"), the random-looking
    fragments of ``text`` are its rest and go too (a key split over two messages).
    """
    spans = find_secrets(text)
    extra = [s for s in continuation_spans(previous, text) if all(s[1] <= a or s[0] >= b for a, b, _ in spans)]
    out, last = [], 0
    for start, end, kind in sorted(spans + extra):
        out.append(text[last:start])
        out.append(f"[REDACTED:{kind}]")
        last = end
    out.append(text[last:])
    return "".join(out)
