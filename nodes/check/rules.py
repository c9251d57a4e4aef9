"""Checkable procedural rules: the rule kinds a reply can be tested against cheaply.

Checked (by the topic the procedural layer stores with each rule):
- length "Keep answers concise.": at most ``concise_max_words`` words (memory/words.toml [rules]);
- emojis "Do not use emojis.": no emoji characters;
- format "Write in prose, not bullet points.": no line starting with -, * or •;
- apologies "Do not apologise.": no "sorry" / "apologise" / "apologies";
- questions "Do not end answers with follow-up questions.": the last sentence is no question;
- language "Answer in Spanish.": py3langid (offline) finds that language, on replies
  of at least ``language_min_words`` words (shorter ones are too short to tell).
Every other rule (tone, options, "use bullet points", open-ended wishes) is left
to the prompt.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from models.word_split import reply_words
from nodes.check.checks import Check
from nodes.check.lexicon import Lexicon

_EMOJI = re.compile(
    "[\U0001F300-\U0001FAFF\U00002600-\U000027BF\U0001F000-\U0001F2FF\U0001F900-\U0001F9FF\u2B50\u2B55\u203C\u2049]"
)
_BULLET = re.compile(r"^\s*[-*•‣◦]\s+\S", re.MULTILINE)
_APOLOGY = re.compile(r"\b(?:sorry|apologi[sz]e[sd]?|apologi[sz]ing|apologies|my apology)\b", re.IGNORECASE)
LANGUAGE_CODES = {
    "english": "en", "french": "fr", "german": "de", "spanish": "es", "italian": "it", "portuguese": "pt",
    "dutch": "nl", "polish": "pl", "russian": "ru", "ukrainian": "uk", "turkish": "tr", "arabic": "ar",
    "hebrew": "he", "hindi": "hi", "chinese": "zh", "mandarin": "zh", "japanese": "ja", "korean": "ko",
    "swedish": "sv", "norwegian": "no", "danish": "da", "finnish": "fi", "greek": "el", "czech": "cs",
    "vietnamese": "vi", "indonesian": "id",
}
_NAMES = {code: name.capitalize() for name, code in reversed(LANGUAGE_CODES.items())}


def word_count(text: str) -> int:
    """Words in a reply, as the length rule counts them."""
    return len(reply_words(text))


def _last_sentence(text: str) -> str:
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+|\n+", text.strip()) if p.strip()]
    return parts[-1] if parts else ""


@cache
def _identifier() -> Any:
    """py3langid's model, loaded on the first language rule only (about half a second)."""
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_DIR / MODEL_FILE, norm_probs=True)


def _has_langid() -> bool:
    """Without py3langid installed, language rules are left to the prompt."""
    import importlib.util

    return importlib.util.find_spec("py3langid") is not None


def detect_language(text: str) -> str:
    """The ISO 639-1 code py3langid finds for ``text``."""
    return str(_identifier().classify(text)[0])


def _check(item: dict[str, Any], label: str, find: Any, reminder: str, flag: str) -> Check:
    return Check(label=label, memory=str(item.get("text")), find=find, reminder=reminder,
                 flag=lambda items, flag=flag: flag.format(items=", ".join(items)), kind="rule")


def rule_check(item: dict[str, Any], lex: Lexicon) -> Check | None:
    """The check for one recalled rule, or None when its kind is left to the prompt."""
    text = str(item.get("text") or "")
    topic = (item.get("meta") or {}).get("topic")
    settings = lex.rule_settings
    if topic == "length" and text.startswith("Keep answers concise"):
        limit = int(settings.get("concise_max_words", 100))

        def too_long(reply: str) -> list[str]:
            n = word_count(reply)
            return [f"{n} words"] if n > limit else []

        return _check(item, f"rule: concise (at most {limit} words)", too_long,
                      f'Remember the rule: "{text}" Answer in at most {limit} words.',
                      f"this answer has {{items}}, but you asked for concise answers (at most {limit} words)")
    if topic == "emojis" and text.startswith("Do not"):
        return _check(item, "rule: no emojis", lambda r: list(dict.fromkeys(_EMOJI.findall(r))),
                      f'Remember the rule: "{text}" Use no emojis at all.',
                      "this uses emojis ({items}), but you asked for no emojis")
    if topic == "format" and "not bullet" in text:
        return _check(item, "rule: no bullet points", lambda r: ["bullet points"] if _BULLET.search(r) else [],
                      f'Remember the rule: "{text}" Write plain paragraphs.',
                      "this uses {items}, but you asked for prose")
    if topic == "apologies":
        return _check(item, "rule: no apologies", lambda r: [m.lower() for m in _APOLOGY.findall(r)][:1],
                      f'Remember the rule: "{text}"', "this apologises ({items}), but you asked me not to apologise")
    if topic == "questions":
        return _check(item, "rule: no follow-up questions",
                      lambda r: ["a follow-up question"] if _last_sentence(r).endswith("?") else [],
                      f'Remember the rule: "{text}" End with a statement.',
                      "this ends with {items}, but you asked for none")
    m = re.fullmatch(r"Answer in (\w+)\.", text)
    if topic == "language" and m and m.group(1).lower() in LANGUAGE_CODES and _has_langid():
        name, code = m.group(1), LANGUAGE_CODES[m.group(1).lower()]
        min_words = int(settings.get("language_min_words", 5))

        def other_language(reply: str) -> list[str]:
            if word_count(reply) < min_words:
                return []
            found = detect_language(reply)
            return [] if found == code else [_NAMES.get(found, found)]

        return _check(item, f"rule: answer in {name}", other_language,
                      f'Remember the rule: "{text}" Write the whole answer in {name}.',
                      f"this is in {{items}}, but you asked for answers in {name}")
    return None
