"""Idioms and contrasts that end a state, brought to the plain forms ``ending_forms`` reads.

Regional verbs ("I packed in my job", "jacked in the gym", "knocked the booze on the head",
"I'm no more in Bangalore"), a past set against now ("I used to be a nurse but now I work in
IT", "I was a teacher, now I'm in sales", "I was at Deloitte until March"), and an ending said
as the reason for a request ("Since I don't drive anymore, what's …?") say what "I quit …",
"I'm not … anymore" and "I no longer work at …" say. They run before ``ending_forms.SENTENCE_FORMS``.

Each form needs the speaker ("I", "we") and a lasting thing (an employer, a habit, a role, a
place): "I packed my bags", "I was at the gym until 8" and "I was tired, now I'm fine" end nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_I = re.IGNORECASE
_CAP = r"(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*"
# A time gone by that an ending runs up to: "until March", "till 2019", "until last season".
_GONE_BY = (r"(?:(?:19|20)\d\d|january|february|march|april|may|june|july|august|september|october|november|"
            r"december|last|recently|a (?:few|couple)|\w+ (?:years?|months?) ago|the (?:pandemic|end of|start of|"
            r"summer|spring|autumn|fall|winter))\b")
# A named place or firm, then "until" a time gone by.
UNTIL_THEN = rf"(?P<x>(?:the )?{_CAP}) (?:until|till|up to) (?={_GONE_BY})"
_ME = r"(?:^|(?<=[,;] )|(?<=\bbut )|(?<=\bso ))"
# What one was that is a role, not a moment or a mood: "a teacher", not "a bit tired" or "a kid".
_ROLE = r"(?:an?|the) (?!(?:bit|little|lot|mess|wreck|kid|child|baby|teen\w*|while|moment|second)\b)[\w-]+(?: [\w-]+)?"
_SINCE = rf"(?:(?:19|20)\d\d|\w+ (?:years?|months?)|years|ages|months|{_GONE_BY})"
# Where a lasting thing's name stops: the end, a clause, or when it ended.
_ENDS = (r"(?=\s*(?:$|[,.;!]| (?:in|last|this|for good|after|since|because|and|now|years|months|a|an|\d+|two|three|"
         r"four|five|ten)\b))")
_NOW = r"(?:now|these days|nowadays)\b"
# "now" after a past state, in its clause or the next: "…, now I'm in sales", "… but I eat meat now";
# not one that goes on ("…, now I drink it every day").
_THEN_NOW = (rf"(?![^.?!]*\b(?-i:it|them|still|more|too|even)\b)"
             rf"(?=(?:I |I'm |I've )?{_NOW}|(?:I|I'm|I've)\b[^.?!]*\b{_NOW})")
# A state held now, set against one held before: "I'm retired now", "I'm teetotal these days".
_NOW_STATE = rf"I(?:'m| am) (?:now )?(?:retired|an? [\w-]+|in [\w-]+|teetotal|vegan|vegetarian|sober) {_NOW}"
# What one was (a role, a diet, a fan) and did (a habit, a home, a job) before a plain "but not anymore".
_WAS = (rf"(?:{_ROLE}|vegetarian|vegan|pescatarian|teetotal|religious|married|engaged|on (?:the |my )?[\w-]+|"
        rf"(?:a )?{_CAP}(?: fan| supporter)?)")
_HABIT = (r"(?:smoke|drink|vape|eat meat|eat fish|drive|run|swim|cycle|play [\w-]+(?: [\w-]+)?|live in [\w -]+?|"
          r"work (?:at|in|for|as) [\w -]+?|volunteer (?:at|with|for) [\w -]+?|sing in [\w -]+?|"
          r"go to (?:the )?[\w-]+(?: [\w-]+)?)(?: on \w+days?| every \w+)?")
_BUT_NO_MORE = (r"(?: for [\w ]+?)?,? (?:but )?(?:(?:I'm |I am |I do )?not (?:any ?more|any longer|now|"
                r"these days|nowadays)\b|(?:I )?(?:have |"
                r"'ve )?(?:quit|stopped|gave (?:it |that )?up|given (?:it |that )?up)\b(?! (?:on|at|by|for|to)\b))")
_PAST = {"sell": "sold", "leave": "left", "quit": "quit", "stop": "stopped", "close": "closed", "cancel": "cancelled"}
_DONE = {"discontinued": "stopped", "given up": "gave up"}
_VICES = r"(?:sauce|booze|drink|fags|cigs|cigarettes|smokes|ciggies|weed|vapes?|bottle)"

# An ending given as the reason for a request: "Since I don't drive anymore, what's …?" (the
# reason is the user's news; "If I don't drive anymore, …" stays a hypothetical).
REASON_ENDING = re.compile(
    r"^(?:since|as|because|cos|coz|now that|seeing as) (?=I(?:'ve| have)? (?:stopped|quit|gave up|"
                r"given up)\b|I(?:'m| am| do|)(?: not|n'?t| no longer)\b[^,?]*\b(?:anymore|any more|any longer|"
                r"no longer)\b)", _I)
# A subjectless ending before a question: "not playing netball anymore since …, what else can I do?"
_SUBJECTLESS_REASON = re.compile(r"^(?=not \w+ing\b[^,?]*\b(?:anymore|any more|any longer)\b)", _I)


def reason_first(sentence: str) -> str:
    """``sentence`` with an ending given as the reason for a request as the user's own first clause."""
    return _SUBJECTLESS_REASON.sub("I'm ", REASON_ENDING.sub("", sentence))


IDIOMS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # Spoken openers before the user's news: "so yeah I quit my job …", "ok so basically I don't …"
    (re.compile(r"^(?:(?:so+|ok|okay|um+|uh+|erm|well|yeah|basically|like|anyway|hey|right|alright|oh)[,.!]?\s+)+"
                r"(?=I\b|I'|i\b|i')", _I), ""),
    # Typos seen in chat: "i stoped eating meat"
    (re.compile(r"\bstoped\b", _I), "stopped"),
    # A Nigerian pidgin perfective: "I don sell that Camry", "I don quit smoking"
    (re.compile(r"\bI don (?P<v>sell|leave|quit|stop|close|cancel)\b", _I),
     lambda m: "I " + _PAST[m["v"].lower()]),
    # The thing first, then the news (Indian and Nigerian English): "My Activa I have sold to my
    # cousin", "Tinder I deleted", "my fasting on Tuesdays i have discontinued"
    (re.compile(r"^(?P<x>(?:my|our) (?:[\w-]+ ){0,3}?[\w-]+,?|(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)?) (?P<s>I|we)"
                r"(?: have|'ve)? (?:already |finally |just )?(?P<v>cancell?ed|sold|deleted|discontinued|stopped|quit|"
                r"given up|closed|uninstalled)\b", _I),
     lambda m: f"{m['s']} {_DONE.get(m['v'].lower(), m['v'])} {m['x'].rstrip(',')}"),
    (re.compile(r"^(?=used to (?:be|live|work)\b)", _I), "I "),
    # "I packed in my job", "jacked in the gym", "binned off Facebook"
    (re.compile(r"(?:^|\bI(?:'ve| have)? )(?:just |finally )?(?:packed|jacked|chucked) in "
                r"(?=(?:my|the) |\w+ing\b)", _I),
     "I quit "),
    (re.compile(r"\bI(?:'ve| have)? (?:just |finally )?binned off (?=(?:my|the) |(?-i:[A-Z]))", _I), "I quit "),
    (re.compile(rf"(?:^|\bI(?:'ve| have)? )(?:just |finally )?(?:chucked|binned|ditched|jacked|packed in) (?:the )?"
                rf"(?P<x>{_VICES}){_ENDS}", _I), r"I gave up \g<x>"),
    (re.compile(r"\bI(?:'ve| have)? (?:finally )?knocked (?:the )?(?P<x>(?!(?:him|her|it|them|myself|my)\b)"
                r"[\w-]+(?: [\w-]+)?) on the head\b", _I), r"I gave up \g<x>"),
    (re.compile(rf"\bI(?:'m| am) (?:now )?off the (?P<x>{_VICES})\b", _I), r"I gave up \g<x>"),
    (re.compile(r"\bI(?:'ve| have)? (?:left off|laid off|gone off|packed up) (?=(?:meat|dairy|alcohol|booze|sugar|"
                r"gluten|caffeine|coffee|drinking|smoking|eating meat|cigarettes|fags)\b)", _I), "I gave up "),
    # Work: "I handed in my resignation at Barclays", "I stepped down as chair", "I left teaching"
    (re.compile(r"\bI(?:'ve| have)? (?:handed in|submitted|tendered|put in) my (?:resignation|notice)"
                rf"(?: (?:at|to) (?P<x>(?:the )?{_CAP}|(?:the|my) [\w-]+))?", _I), r"I left my job at \g<x>"),
    (re.compile(r"(?:^|\bI(?:'ve| have)? )(?:stepped down|resigned) as (?P<x>(?:an? |the )?[\w-]+(?: (?!(?:at|in|for|"
                r"with|on|from|after|last|this|because|and|but|so)\b)[\w-]+)?"
                r"(?: of (?:the )?[\w-]+)?)", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"\bI(?:'ve| have)? (?:left|moved on from|walked away from|got out of) (?=(?:teaching|nursing|banking|"
                r"accounting|consulting|lecturing|modelling|modeling|acting|farming|coaching|policing|journalism|"
                rf"law|medicine|retail|hospitality|academia|finance|engineering|social work|the profession){_ENDS})",
                _I),
     "I quit "),
    (re.compile(rf"\bI(?:'ve| have)? (?:left|quit) the (?P<x>{_CAP} [Pp]arty)\b"),
     r"I'm not a member of the \g<x> anymore"),
    # Faith and loyalties: "I've lapsed as a Catholic", "I'm a lapsed Catholic"
    (re.compile(r"\bI(?:'ve| have)? lapsed as (?P<x>an? [\w-]+)", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"\bI(?:'m| am) (?:now )?(?:a )?lapsed (?P<x>[\w-]+)", _I), r"I'm not a \g<x> anymore"),
    # A learner's "no more" or "not more" for "no longer": "I'm no more in Bangalore"
    (re.compile(r"\bI(?:'m| am) not? more (?=(?:in|at|with|an?|working|living|staying|studying|part of|married)\b)",
                _I), "I'm no longer "),
    (re.compile(r"\bI'm no longer in (?:a |the )?relationship with (?=(?-i:[A-Z]))", _I), "I'm no longer with "),
    (re.compile(r"\bI'm no longer in the (?:uni|university|college|school) of (?=(?-i:[A-Z]))", _I),
     "I'm no longer at "),
    # "After 10 years in Abuja I relocated back to Lagos"
    (re.compile(rf"^after (?:\w+ ){{1,3}}?(?:years?|months?) (?:in|at) (?P<x>{_CAP}),? (?:I|we)(?: have|'ve)? "
                r"(?:moved|relocated|shifted)(?: back)? to ", _I), r"I no longer live in \g<x>, I moved to "),
    # "Completed my MTech so no longer a student": the news after "so" is the user's
    (re.compile(r"^(?P<a>(?:I(?:'ve| have)? [a-z]+ed|(?-i:[A-Z]?[a-z]+ed))\b[^,.;!?]*?),?\s+so (?:I'm |i'm |im )?"
                r"no longer "
                r"(?=(?:an? |at |in |on )[\w-]+)", _I), r"\g<a>, so I'm no longer "),
    # Homes: "We relocated from Lagos to Abuja", "We've left Melbourne and moved to Perth"
    (re.compile(rf"\b(I|we)(?: have|'ve)? (?:relocated|shifted|moved house|moved over|emigrated) from (?={_CAP} to )",
                _I), r"\1 moved from "),
    (re.compile(rf"\b(?:I|we)(?: have|'ve)? left (?P<x>{_CAP}) and (?:have )?(?:moved|relocated|shifted) "
                rf"to (?={_CAP})", _I),
     r"I no longer live in \g<x>, I moved to"),
    # Then against now: "I was at Deloitte until March", "I was a smoker until 2019"
    (re.compile(rf"\bI was (?:at|with) {UNTIL_THEN}", _I), r"I no longer work at \g<x>, until "),
    (re.compile(rf"\bI was (?:living|based|staying) in {UNTIL_THEN}", _I), r"I no longer live in \g<x>, until "),
    (re.compile(rf"\bI was working (?P<p>at|in|for) {UNTIL_THEN}", _I), r"I no longer work \g<p> \g<x>, until "),
    (re.compile(rf"\bI was (?P<x>{_ROLE}) (?:until|till) (?={_GONE_BY})", _I), r"I'm not \g<x> anymore, until "),
    # "I was a teacher, now I'm in sales", "I used to be a nurse but now I work in IT"
    (re.compile(rf"{_ME}I (?:was|used to be) (?P<x>{_WAS})(?: for [\w ]+?)?(?:,| but| and|;)+ "
                rf"(?:I'm |I am |I )?{_THEN_NOW}", _I), r"I'm not \g<x> anymore, "),
    (re.compile(rf"{_ME}I used to (?P<x>(?!be\b)(?:live|work|eat|drink|smoke|play|go|teach|study|run|drive)\b"
                rf"(?![^,;.!?]*\b(?:there|it|that|this|them|him|her)\b)[^,;.!?]*?)(?:,| but| and|;)+ {_THEN_NOW}", _I),
     r"I don't \g<x> anymore, "),
    (re.compile(rf"^(?P<a>{_NOW_STATE})[,;]? (?:but |and )?I used to be (?P<x>{_ROLE})", _I),
     r"\g<a>, I'm not \g<x> anymore"),
    (re.compile(rf"^(?P<a>{_NOW_STATE})[,;]? (?:but |and )?I used to (?P<x>(?:drink|smoke|eat meat|"
                r"vape|work (?:at|in|for|as) [\w -]+|live in [\w -]+))",
                _I), r"\g<a>, I don't \g<x> anymore"),
    # "Used to smoke but quit 5 years ago", "I used to drink, not anymore", "Was vegetarian for years, not anymore"
    (re.compile(rf"{_ME}(?:I )?(?:was|used to be) (?P<x>{_WAS}){_BUT_NO_MORE}", _I), r"I'm not \g<x> anymore"),
    (re.compile(rf"{_ME}(?:I )?used to (?P<x>{_HABIT}){_BUT_NO_MORE}", _I), r"I don't \g<x> anymore"),
    # A West African and Indian "again" for "anymore": "I don't stay in Abuja again"
    (re.compile(r"\bI (?:don't|do not|no longer) (?P<x>(?:stay|live|work|eat|drink|smoke|attend)\b[^,.;!?]*?) again\b",
                _I), r"I don't \g<x> anymore"),
    (re.compile(r"\bI(?:'ve| have)? (?:gave|given) up (?=my (?:[\w-]+ )?(?:car|van|flat|house|apartment|allotment|"
                r"motorbike|scooter)\b)", _I), "I got rid of "),
    # A business closed: "I closed my Etsy shop", "I shut down my bakery last year"
    (re.compile(r"\bI(?:'ve| have)? (?:closed|shut|wound up)(?: down| up)? (?P<x>my (?:[\w-]+ )?(?:shop|business|"
                r"company|bakery|restaurant|cafe|café|salon|studio|store|practice|firm))\b(?!\s+(?:for|early|at|on|"
                r"today|tonight|this|until|till|over)\b)", _I), r"I don't have \g<x> anymore"),
    (re.compile(r"\bI(?:'ve| have)? (?:officially|finally|just) retired\b", _I), "I retired"),
    # "used to live in dubai but moved back to kerala"
    (re.compile(rf"{_ME}(?:I )?used to live in (?P<x>[\w -]+?),? (?:but |and )(?:I |we )?(?:have |'ve )?(?:then )?"
                r"(?:moved|relocated|shifted)\b", _I), r"I don't live in \g<x> anymore, I moved"),
    # Subjectless: "not playing netball anymore since …", "quit caffeine completely in september"
    (re.compile(r"^(?:I'm )?not (?P<x>(?!going\b|living\b)\w+ing\b[^,.;!?]*?) (?:anymore|any more|any longer)\b", _I),
     r"I stopped \g<x>"),
    (re.compile(r"^(?:quit|gave up|stopped) (?=[a-z][\w-]*(?: [a-z][\w-]*)? (?:completely |for good |entirely )?"
                r"(?:in (?:19|20)\d\d|in (?:january|february|march|april|may|june|july|august|september|october|"
                r"november|december)|\w+ (?:years?|months?|weeks?) ago|last (?:year|month|week))\b)", _I), "I quit "),
    # "I haven't smoked since 2019", "I haven't had a drink in two years"
    (re.compile(rf"\bI (?:haven't|have not|'ve not) (?:smoked|vaped|had a (?:cigarette|smoke|fag)|touched a cigarette) "
                rf"(?:since|in|for) (?={_SINCE})", _I), "I gave up smoking, "),
    (re.compile(rf"\bI (?:haven't|have not|'ve not) (?:drunk|had a drink|touched (?:a drop|alcohol)) "
                rf"(?:since|in|for) (?={_SINCE})", _I), "I gave up drinking, "),)


def idiomatic_endings(sentence: str) -> str:
    """``sentence`` with its idiomatic and contrastive endings in the plain forms."""
    for pattern, replacement in IDIOMS:
        sentence = pattern.sub(replacement, sentence)
    return sentence
