"""The words that say a sentence is not about the user's real, present life: a hypothetical, a wish, a plan.

"If I got a dog I'd call it Rex", "I wish my sister lived closer", "one day I'll be a pilot".
``SUPPOSING`` are the words that always mean so, wherever they stand; the loose-fact reader
(``disclosure.py``) drops a sentence that holds one. ``HYPOTHETICAL`` adds the wants, plans and
modals ("want a", "planning to", "might", "should") and fiction ("in my novel", "in the show"): the people rules
(``people.py``) keep only what comes before it. The credential scrubber's "if the password is ..."
is its own narrower cue (``stores.redaction.phrasings.DOUBT_BEFORE``): a store cannot read this module.
"""

from __future__ import annotations

import re

SUPPOSING = r"if|wish|imagine|pretend|suppose|supposing|perhaps|someday|one day|whether"
HYPOTHETICAL = re.compile(
    rf"\b(?:{SUPPOSING}|would|wanna|want(?:s|ed)? (?:a|an|to|one)|hope to|hoping to|thinking (?:of|about)|"
    r"planning (?:to|on)|plan to|considering|might|maybe|dream(?:ing)? (?:of|about)|dreamt|dreamed|should|could|"
    r"going to get|gonna get|looking (?:to|for)|in (?:my|the|this|that|a|an) (?:novel|story|book|game|dream|show|"
    r"movie|film|series|play|comic|sitcom)|character|fictional|"
    r"let's say)\b",
    re.IGNORECASE,
)
