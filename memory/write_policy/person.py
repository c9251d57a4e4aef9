"""Rewrite a first-person clause as a standalone third-person fact about the user.

"I really like hiking with my dog" becomes "The user really likes hiking with the
user's dog." Stored facts must read correctly wherever they are recalled later
(another session, another prompt), where "I" would mean the assistant.
"""

from __future__ import annotations

import re

from models.word_split import pieces

_MODALS = {"can", "could", "will", "would", "shall", "should", "may", "might", "must"}
_IRREGULAR_PAST = {
    "was", "were", "had", "did", "went", "grew", "got", "made", "took", "became", "began",
    "bought", "came", "left", "met", "ran", "saw", "spent", "taught", "thought", "wrote",
    "lost", "found", "knew", "gave", "sold", "built", "brought", "felt", "kept", "heard",
    "won", "ate", "drove", "flew", "fell", "broke", "chose", "forgot", "spoke", "used",
}
_IRREGULAR_PRESENT = {"am": "is", "have": "has", "do": "does", "go": "goes", "are": "is",
                      "don't": "doesn't", "haven't": "hasn't"}
_ADVERBS = {
    "really", "usually", "always", "often", "never", "rarely", "sometimes", "also", "still",
    "generally", "normally", "typically", "absolutely", "mostly", "just", "actually", "only",
    "definitely", "totally", "strongly", "truly", "no", "longer", "regularly", "mainly",
}
_NEGATIONS = {"don't": "does not", "do not": "does not", "can't": "cannot", "cannot": "cannot",
              "won't": "will not", "didn't": "did not", "wasn't": "was not", "haven't": "has not",
              "'m not": "is not", "am not": "is not"}
_POSSESSIVE = {"my": "the user's", "mine": "the user's", "me": "the user", "myself": "themselves"}


def conjugate(verb: str) -> str:
    """Third-person singular of a verb that followed "I" (past tense and modals unchanged)."""
    low = verb.lower()
    if low in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[low]
    if low in _MODALS or low in _IRREGULAR_PAST or low.endswith("ed"):
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


_HOUSEHOLD = {"our": "their", "ours": "theirs"}
_THIRD_PERSON_AUX = {"is", "does", "did", "has", "was", "cannot", "will", "would"}
_CONTRACTIONS = {"I'm": "I am", "I've": "I have", "I'd": "I would", "I'll": "I will"}


def third_person(clause: str) -> str:
    """The clause about "the user", capitalised and ending with a full stop."""
    text = clause.strip().rstrip(".!").strip().replace("\u2019", "'")
    for neg, repl in _NEGATIONS.items():
        text = re.sub(rf"\bI\s*{re.escape(neg)}\b", "I " + repl, text, flags=re.IGNORECASE)
    for short, full in _CONTRACTIONS.items():
        text = re.sub(rf"\b{short}\b", full, text, flags=re.IGNORECASE)
    # "our" is the user's household's: "their" where no "we" is left to say whose ("I like our new flat")
    owner = {} if re.search(r"\b(?:we|us|we're|we've)\b", text, re.IGNORECASE) else _HOUSEHOLD
    out: list[str] = []
    verb_due = False  # the next verb after "I" must agree with "the user"
    for tok in pieces(text):
        low = tok.lower()
        if tok in ("I", "i"):
            out.append("the user")
            verb_due = True
        elif verb_due and not tok.isspace():
            verb_due = low in _ADVERBS
            agrees = verb_due or low in _THIRD_PERSON_AUX or not tok[0].isalpha()
            out.append(tok if agrees else conjugate(tok))
        else:
            out.append(_POSSESSIVE.get(low) or owner.get(low, tok))
    result = "".join(out).strip()
    result = result[0].upper() + result[1:] if result else result
    return result if result.endswith((".", "?", "!")) else result + "."
