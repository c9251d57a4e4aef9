"""Screens both people readers apply (the regexes in ``people.py`` and the parse in ``people_parse.py``).

Words before "my sister Anna" can say she is not being introduced: a verb of giving makes
"my son Lego" two objects, and words said to someone ("thanks, my friend Sam") address them.
A polite request ("Could you help me write a card for my sister Leah?") is no supposition.
"""

from __future__ import annotations

import re

from memory.write_policy.hypotheticals import SUPPOSING

# After a verb of giving, "my son Lego" is two objects unless a third follows ("gave my son Leo a bike")
GIVING = re.compile(r"\b(?:gave|give|gives|giving|bought|buy|buys|buying|got|get|gets|getting|sent|send|sends|taught|"
                    r"teach|teaches|made|make|makes|showed|show|shows|cooked|cook|baked|bake|"
                    r"ordered|order|lent|lend|owe|owed|offered|offer|fed|feed|feeds|paid|pay|call|calls|called|"
                    r"nickname|nicknamed)\s+$", re.IGNORECASE)
# Words said to someone, the assistant most often: "You're my best friend, Claude", "thanks, my friend Sam"
ADDRESSED = re.compile(r"\b(?:you(?:'re| are)(?: like)?|u r|ur|hi|hey|hello|thanks|thank you|cheers|bye|love you|"
                       r"good ?night|morning|dear)\W*$", re.IGNORECASE)
# "Could you help me ...": the "could" of a request, which the hypothetical screen would read as a supposition
REQUEST = re.compile(r"^(?:could|would|can) (?:you|u) (?:please |pls |kindly )?", re.IGNORECASE)
# A break-up verb with an object of its own is no break-up: "Tom and I split the bill", "I left my wife a note".
OBJECT_AFTER = re.compile(r"\s+(?:the|a|an|our|my|his|her|their|its|this|that|these|those|some|it|them)\b",
                          re.IGNORECASE)
# "I got my son a bike": a gift's receiver, not news of the son
BOUGHT_FOR = re.compile(r"\b(?:got|bought) (?:my|our)\b", re.IGNORECASE)
# What makes "my sister Anna" no fact even after a want or a modal: a supposition, fiction, a naming
# ("if my husband Tom left", "in the book my sister Anna", "I might name my daughter Rose")
SUPPOSED = re.compile(rf"\b(?:{SUPPOSING}|what if|novel|story|book|game|dream\w*|show|movie|film|series|play|comic|"
                      r"sitcom|character|fictional|let's say|call\w*|nam(?:e|es|ed|ing)|nickname\w*)\b", re.IGNORECASE)
# What follows a name that someone phoned, not was named: "my mom called Verizon about the bill"
PHONED_AFTER = r"(?:about|yesterday|today|tonight|earlier|again|back|me|us|him|her|them|to say|to tell)\b"
