"""More everyday turns of phrase for a name, a job and a home, and for their ends.

"The name's Kofi.", "Got laid off from the warehouse on Friday.", "I got a job as a bus driver in
Porto!", "Lisbon was home until June, but I'm settled in Porto now." say what the canonical clauses
say ("My name is Kofi", "I left my job at the warehouse", "I work as a bus driver", "I no longer
live in Lisbon", "I live in Porto"), so ``REWRITES`` bring them there and the slot patterns and
endings (``patterns.py``, ``endings.py``) stay one per meaning. They run last in
``voices.normalise``.

Each form is the speaker's own news, so it starts the sentence or a clause after a comma
("Good news, I got a job as …"); after "if", "when" or "my brother" nothing is rewritten, as a
wrong ending deletes a true memory.
"""

from __future__ import annotations

from memory.write_policy.patterns import WORKPLACES, Rewrite, rewrites

# Where the speaker's own clause may start: the sentence's start, or after a comma, a colon or "but"/"and".
_OWN = r"(?:^|(?<=[,;:!] )|(?<=\bbut )|(?<=\band ))"
_CAP = r"(?-i:[A-Z])[\w'-]+(?: (?-i:[A-Z])[\w'-]+){0,2}"
# When a thing happened, dropped from what ended: "on Friday", "last week", "yesterday".
_WHEN = (r"(?: (?:on|last|this) (?:mon|tues|wednes|thurs|fri|satur|sun)day| last (?:week|month|year|night)|"
         r" this (?:morning|week|month|year)| yesterday| today| in (?:january|february|march|april|may|june|july|"
         r"august|september|october|november|december))?")
# When a home stopped being one: "until June", "till 2019", "before we moved" (a person "was home until 6").
_THEN = (r"(?:(?:last )?(?:january|february|march|april|may|june|july|august|september|october|november|december|"
         r"spring|summer|autumn|fall|winter|year)|(?:19|20)\d\d|recently|(?:I|we) (?:moved|left)[^,;.!]*)")
# Capitalised words at a sentence's start that are people or pronouns, not places.
_NOT_PLACE = (r"(?:he|she|it|this|that|there|everyone|nobody|someone|mum|mom|dad|mother|father|grandma|grandpa|"
              r"gran|nan)\b")
_WORKPLACE = rf"(?:(?:the|my|our) (?:[\w'-]+ ){{0,3}}?(?:{WORKPLACES}|job)|{_CAP})"
# Whatever one is laid off from is a workplace: "the bank", "the council".
_LAID_OFF_FROM = rf"(?:{_WORKPLACE}|(?:the|my|our) [\w'-]+(?: [\w'-]+)?(?=[,.;!]|$| (?:in|on|last|this|after)\b))"

REWRITES: tuple[Rewrite, ...] = rewrites(
    (
        # "The name's Kofi." (a capitalised word must follow: "the name's not important" is no name)
        (r"^the name(?:'s| is) (?=(?-i:[A-Z])[a-z])", "my name is "),
        # "Got laid off from the warehouse on Friday", "I was made redundant at Nexus last week"
        (rf"{_OWN}(?:I )?(?:just |recently )?(?:got|was|'ve been|have been|'ve just been|had been)?\s?(?:just )?"
         rf"(?:laid off|made redundant|let go|fired|sacked|(?:given )?the (?:sack|boot|chop)) (?:from|at|by) "
         rf"(?:my job (?:at|"
         rf"with) )?(?P<x>{_LAID_OFF_FROM})"
         rf"{_WHEN}\b",
         r"I left my job at \g<x>"),
        # "I got a job as a bus driver in Porto!": the job; where it is is cut off at the comma
        (rf"{_OWN}(?:I )?(?:(?:'ve|have) )?(?:just |finally |recently )?(?:got|landed|found|accepted|started) "
         r"(?:a|my|the) (?:new |full-time |part-time )?job as (?:an? )?(?P<x>(?:[\w-]+ ){0,3}?[\w-]+)"
         r"(?= (?:in|at|for|with) | starting\b|[,.!;]|$)",
         r"I work as a \g<x>,"),
        # "Lisbon was home until June", "Leeds used to be home": no longer the home
        (rf"^(?!{_NOT_PLACE})(?P<x>{_CAP}) (?:was (?:my |our )?home (?:until|till|before) {_THEN}|"
         rf"was (?:my |our )?home for (?:\w+ )?(?:years|months|decades)|used to be (?:my |our )?home)(?=[,;.!]|$)",
         r"I no longer live in \g<x>"),
        # "I'm settled in Porto now" (the "I've settled in" form is phrasings.py's)
        (rf"{_OWN}(I|we)(?:'m|'re| am| are) (?:now |finally |all |happily )?settled(?: down)? in (?={_CAP})",
         r"\1 live in "),
    )
)
