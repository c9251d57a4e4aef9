"""Standing instructions in the user's own words: "don't …", "never …", "stop …", "always …".

The procedural layer's catalogue (``procedural.py``) knows a few topics (emojis, bullet points,
length); these forms catch the rest as open-ended rules ("Never suggest recipes with
mushrooms.", "Always answer in British English."). A rule changes every later answer, so
a form needs an imperative addressed to the assistant with a verb of answering (use, give,
suggest, call, book …) and no mark of a one-off ("this time", "in this one"); questions,
reported speech ("my boss always says 'never …'") and the user's own habits ("I never eat
mushrooms") are not rules.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
# What an assistant does when it answers: the verbs a standing instruction is about.
_VERBS = (r"use|add|include|put|give|suggest|recommend|call|mention|remind|book|schedule|send|write|reply|respond|"
          r"answer|start|end|ask|tell|show|bring up|say|offer|list|apologi[sz]e|sugar-?coat|assume|correct|explain|"
          r"repeat|swear|spell|format|cite|address|summari[sz]e|keep|convert|round|quote|sign|open|close|translate|"
          r"refer to|talk about|lecture|moralise|moralize|recap|propose|plan|pick|order|set|double-check|check|"
          r"give me|provide|point out|lead with|put my|make")
_GERUNDS = (r"using|adding|including|putting|giving|suggesting|recommending|calling|mentioning|reminding|booking|"
            r"scheduling|sending|writing|replying|responding|answering|starting|ending|asking|telling|showing|"
            r"bringing up|saying|offering|listing|apologi[sz]ing|sugar-?coating|assuming|correcting|explaining|"
            r"repeating|swearing|spelling|formatting|quoting|signing|opening|closing|translating|referring to|"
            r"talking about|lecturing|moralising|moralizing|recapping|proposing|making|pushing|nagging")
_POLITE = r"(?:(?:please|pls|plz|kindly|ok|okay|also|and|so|oh and|ok new rule|new rule|rule)[,:]?\s+)*"
_ADDRESSED = (r"(?:(?:can|could|would|will) you (?:please )?|i'd like you to |i want you to |i need you to |"
              r"you should |you must |make sure (?:you |to )?)?")
_FORMS = (
    re.compile(rf"^{_POLITE}{_ADDRESSED}(?:(?:don't|dont|do not|never|don't ever|do not ever|never ever) "
               rf"(?:{_VERBS})\b.*)$", _I),
    re.compile(rf"^{_POLITE}(?:stop|quit|no more) (?:{_GERUNDS})\b.*$", _I),
    re.compile(rf"^{_POLITE}{_ADDRESSED}always (?:{_VERBS})\b.*$", _I),
    re.compile(rf"^{_POLITE}(?:every time|whenever|each time) you (?:\w+ ){{1,4}}?\w+,\s*(?:{_VERBS})\b.*$", _I),
    re.compile(r"^(?:ok(?:ay)?,?\s+)?new rule:\s*\w.*$", _I),
    re.compile(rf"^{_POLITE}(?:from here on(?: out)?|from this point on|from today on|from now onwards?),?\s+\w.*$",
               _I),
)
_ONE_OFF = re.compile(r"\b(?:this time|this once|(?:just |only )?for (?:this|now|today|tonight)|"
                      r"in this (?:one|answer|reply|email|message|draft)|this (?:one|answer|reply|email|message|draft)|"
                      r"right now|today|tonight|tomorrow|yet|just now|for a (?:bit|while|second|minute))\b", _I)
_REPORTED = re.compile(
    r"\b(?!i\b)\w+ (?:always |once |never )?(?:says?|said|told|tells|asked|announced|wrote|reckons)\b", _I)
_NOT_ADDRESSED = re.compile(r"^(?:(?:don't|do not|never) (?:forget|worry|mind)|never mind)\b", _I)
# Where the rule's words end and the user's reason starts: "— I'm allergic", ", it tastes like soap".
_REASON = re.compile(r"\s+[-–—]\s+.*$|[,;]\s*(?=(?:i|i'm|im|it|it's|its|that|this|they|because|as|since|pls|please|"
                     r"ok|okay|thanks|thx|lol)\b).*$|\s+(?:pls|please|plz|thanks|thx|lol)\b.*$", _I)
_TAG = re.compile(r",?\s*(?:ok|okay|right|yeah|alright|deal|got it|please|pls)\s*\?+$", _I)  # "…, ok?" asks nothing
_LEAD = re.compile(rf"^{_POLITE}(?:ok(?:ay)?,?\s+)?(?:new rule:\s*)?", _I)


def is_request_question(sentence: str) -> bool:
    """'Could you always …?' asks for a rule; 'Do you always …?' asks about one."""
    return bool(re.match(rf"^{_POLITE}(?:can|could|would|will) you\b", sentence, _I))


def not_a_rule(sentence: str) -> bool:
    """A question about the assistant, someone else's words, or a one-off request: no rule, whatever it says."""
    text = _TAG.sub("", sentence.strip(" \"'“”"))
    asks = text.endswith("?") and not is_request_question(text)
    return asks or bool(_REPORTED.search(text) or _ONE_OFF.search(text))


def standing_rule(sentence: str) -> str | None:
    """The standing instruction in one user sentence, as an imperative sentence; None when there is none."""
    text = sentence.strip(" \"'“”")
    if not_a_rule(text) or _NOT_ADDRESSED.match(_LEAD.sub("", text)):
        return None
    if not any(form.match(text) for form in _FORMS):
        return None
    rule = _REASON.sub("", _LEAD.sub("", text.rstrip("?!. "))).strip(" ,.!")
    rule = re.sub(rf"^{_ADDRESSED}", "", rule, flags=_I)
    rule = re.sub(r",?\s+(?:from now on|going forward|in future|in the future)$", "", rule, flags=_I)
    rule = re.sub(r"^dont\b", "don't", rule, flags=_I)
    if len(rule.split()) < 2:
        return None
    return rule[0].upper() + rule[1:] + "."
