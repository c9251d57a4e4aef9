"""The many ways a user says a state of theirs ended, each brought to a clause ``endings.CESSATION`` reads.

"I'm done with Twitter", "I'm an ex-smoker", "my drinking days are over", "I was laid off from
Amazon", "I cancelled my gym membership", "Tom and I broke up", "our dog died": each form is a
class of phrasing, rewritten in place to "I gave up …", "I'm not … anymore", "I left my job at …",
"I don't have … anymore" or "I'm no longer with …", so one table of ended clauses decides what
ended and what it ends. The rest of the sentence stays ("I moved from Leeds to York" keeps the
move to York).

Forms are written for the speaker only ("I", "we", "my"/"our" of the user's own things): other
people's endings, plans and questions are left to the clause rules and the parse, which store
nothing for them.
"""

from __future__ import annotations

import re

from memory.write_policy.ending_figures import figurative_endings
from memory.write_policy.ending_idioms import UNTIL_THEN, idiomatic_endings
from memory.write_policy.people_words import BREAK_UP, PET_WORD

_I = re.IGNORECASE
ANYMORE = r"(?:anymore|any more|any longer|no more)"
_NAME = r"(?-i:[A-Z][a-zà-ÿ]+)"
_PARTNER = r"(?:girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?)"
# Where a subjectless clause is the user's: the start, or after a clause of the user's own.
_START = r"(?P<p>^|\bI(?:'m|'ve)?\b[^,;.!?]*[,;] )"
_ENDED_VERB = r"quit|left|deleted|cancell?ed|gave up|sold|stopped|ditched|uninstalled|deactivated|dropped out of"
# A couple's ending ends the clause or says when: "Jo and I split up last year", not "… split up the chores".
_OVER = (r"(?=\s*(?:$|[,.;!?:)]| (?:last|in|on|after|a (?:few|couple|year|month|week|while)|two|three|four|five|\d+|"
         r"recently|yesterday|this|years|"
         r"months|weeks|ago|because|and|but|so|now|for good|officially)\b))")
# A move bounded by a short span or a purpose is a visit: "we moved to Leeds from London for a week".
_NOT_A_VISIT = (r"(?![^,.;!?]*\bfor (?:a|an|the|one|two|three|\d+|a few|a couple of) (?:days?|weeks?|weekends?|"
                r"holidays?|visit|trip|night|nights|months?)\b)")
_HAVE = r"(?:have |'ve |had |'d )?"
# Days, months and feasts: "I gave up Sunday mornings", "I cancelled Christmas" end no state.
_NOT_THING = (r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|january|february|march|april|may|june|july|"
              r"august|september|october|november|december|christmas|easter|thanksgiving|halloween|diwali|eid|"
              r"hanukkah|ramadan|lent|new year")
# A thing given up, said without an article: "meat", "social media", "Facebook", not "it" or "hope".
BARE = (r"(?!(?:the|my|a|an|this|that|these|those|it|them|him|her|you|on|up|out|off|by|in|at|for|to|myself|"
        r"yourself|himself|herself|ourselves|themselves|hope|halfway|early|now|"
         r"today|tonight|everything|all|trying|work|school|homework|lunch|dinner|breakfast|people|men|women|life|"
         rf"{_NOT_THING})\b)[a-z][\w-]*")
_HAD = (r"(?:car|van|motorbike|motorcycle|scooter|bike|boat|caravan|camper(?:van)?|house|flat|apartment|"
        r"allotment|business|company|shop|restaurant|cafe|café|bakery|salon|studio|farm|piano|horse)")
_ACCOUNT = r"(?:membership|subscription|account|contract|season ticket|pass|plan)"
_FIRED = (r"(?:was|got|have been|'ve been|just got) (?:laid off|fired|sacked|let go|made redundant|given the (?:sack|"
          r"boot|chop)|the (?:sack|boot|chop))")
_DAYS = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends?|winter|summer|rain|you|this|people)\b"
_MEDS = r"(?:meds|medication|medicine|pills?|antidepressants|tablets|insulin|steroids|the pill|shifts?|rota)"

SENTENCE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    # A short preamble before the user's clause: "Quick one - I don't work at Tesco anymore", "Note: I quit".
    (re.compile(r"^(?:[\w'!,]+ ){0,3}[\w'!,]+\s*(?:\s[-–—]|:)\s+(?=(?:i|i'm|im|i've|we|my)\b"
                r"[^.!?]*\b(?:anymore|any more|no longer|stopped|quit|gave up|left|sold|cancell?ed)\b)", _I), ""),
    # A label before the news: "ok so update: im not vegan anymore", "Life update - I left Google".
    (re.compile(r"^(?:(?:ok|okay|so|well|oh|and|small|big|quick|life|little|some|personal)\W+){0,3}"
                r"(?:update|news|fyi|psa|heads up|confession)\s*(?:[:!]|\s[-–—])\s*", _I), ""),
    # Subjectless news, at the start or after a clause of the speaker's: "Sold the car, …", "I'm fine, left Google."
    (re.compile(rf"{_START}(?:just |finally |recently |also )?(?=(?:left|sold|cancell?ed|deleted|closed|unsubscribed|"
                rf"uninstalled|deactivated|"
                r"dropped out|moved (?:out|away|to|back|from)|shifted|relocated|retired from|"
                r"quit(?=[^,;.!?]*\b(?:ago|last|since|for good|in (?:19|20)\d\d)\b)|broke up|split up|got rid of|"
                r"gave up|given up|kicked|"
                r"ditched|binned|"
                r"cut out|cut (?=\w+(?: \w+)? out\b)|came off|resigned|got (?:laid off|fired|sacked|let go|"
                r"made redundant))\b)", _I), r"\g<p>I "),
    # Two endings in one clause: "I deleted Snapchat and quit Reddit" -> "…, and I quit Reddit"
    (re.compile(rf"\b(?P<a>I (?:{_ENDED_VERB})\b[^,;.]*?) (?:and|&) (?=(?:{_ENDED_VERB})\b)", _I), r"\g<a>, and I "),
    (re.compile(r"\bI(?:'m| am) (?:(?:officially|definitely|actually|honestly|now|totally|really|also) )+"
                r"(?=not |no longer )", _I), "I'm "),
    (re.compile(r"\bI (?:used to be|was) (?P<x>(?:an? )?[\w-]+(?: [\w-]+)?)(?: for [\w ]+?)?,? but (?:(?:I )?"
                r"(?:have |'ve )?(?:stopped|quit|gave (?:it )?up)|(?:I'm )?(?:not|no longer) (?:anymore|any more|"
                r"any longer|now)|not since)\b[^,;]*(?:,\s*(?!(?:and |but |so )?(?:now |then )?(?:i|i'm|i've|my|we|"
                r"live|work|speak|have|play|love|study)\b)[^,;]*)*", _I), r"I stopped being \g<x>"),
    # "the vegan phase is over", "my drinking days are behind me", "my days as a teacher are over"
    (re.compile(r"(?:^|\b(?:the|my) )(?P<x>(?!(?:old|good|bad|early|glory|happy|dark|golden|best|worst|hard|great|"
                r"salad|halcyon|heady|simple|carefree|crazy|wild|lazy|long|summer|holiday|school)\b)[\w-]+) "
                r"(?:phase|days|era|stint) (?:is|are) (?:(?:now|well|long|finally) )?"
                r"(?:over|done|behind me|gone|in the past)\b", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"\bmy days (?:as (?P<a>an? )?|of being (?P<b>an? )?)(?P<x>[\w-]+(?: [\w-]+)?) (?:are|is) "
                r"(?:(?:now|well|long|finally) )?(?:over|done|behind me|gone)\b", _I),
     r"I'm not \g<a>\g<b>\g<x> anymore"),
    (re.compile(r"\bmy days of (?P<x>\w+ing\b[\w -]*?) (?:are|is) (?:(?:now|well|long|finally) )?"
                r"(?:over|done|behind me|gone)\b", _I), r"I stopped \g<x>"),
    (re.compile(r"(?:^|\bI |\bI've )(?:haven't|have not|not) been (?P<x>(?:an? )?(?!(?:to|in|at|on|there|here|"
                r"so|that|this|very|really|too|able|allowed|myself)\b)[\w-]+(?<!ing)) (?P<s>since\b|(?=for (?:a|an|"
                r"one|two|three|four|five|six|\d+|a few|a couple of|several|many|over a) (?:\w+ )?"
                r"(?:years?|months?|decades?)\b))", _I),
     r"I'm not \g<x> anymore \g<s>"),
    # Couples: "my wife and I separated", "Tom and I broke up", "I split from my husband", "I divorced Tom"
    (re.compile(rf"\b(?:(?:me and )?my (?P<r>{_PARTNER}) and I|me and my (?P<q>{_PARTNER})) {_HAVE}"
                rf"(?:just |finally |recently )?{BREAK_UP}{_OVER}", _I),
     r"I'm no longer with my \g<r>\g<q>"),
    (re.compile(rf"\bI {_HAVE}(?:{BREAK_UP}) (?:with|from) my (?P<r>{_PARTNER})\b", _I),
     r"I'm no longer with my \g<r>"),
    (re.compile(rf"\bI {_HAVE}(?:divorced|dumped|left) my (?P<r>{_PARTNER})\b", _I), r"I'm no longer with my \g<r>"),
    (re.compile(rf"(?P<p>^|[,;] |\b(?:and|but|so) )(?:me and (?P<n>{_NAME})|(?P<m>{_NAME}) and (?:I|me)) {_HAVE}"
                rf"(?:just |finally |recently )?{BREAK_UP}{_OVER}", _I), r"\g<p>I'm no longer with \g<n>\g<m>"),
    (re.compile(rf"(?P<p>^|[,;] |\b(?:and|but|so) )(?-i:(?P<m>(?!(?:we|they|he|she|it|you|and|so|but|me|him|her|my|"
                rf"then|now)\b)[a-z][a-z]+) and i) {_HAVE}(?:just |finally |recently )?{BREAK_UP}{_OVER}"),
     r"\g<p>I'm no longer with \g<m>"),
    (re.compile(rf"\b(?:(?:my (?P<r>{_PARTNER})|(?P<n>{_NAME})) and I|we) (?:are|'re) (?:no longer together|not "
                rf"together {ANYMORE})\b", _I), r"I'm no longer with \g<r>\g<n>"),
    (re.compile(rf"\bI {_HAVE}(?:just |finally |recently )?(?:(?:{BREAK_UP}) (?:with|from) |divorced |dumped )"
                rf"(?P<n>{_NAME})\b", _I), r"I'm no longer with \g<n>"),
    # Places: "I moved away from Leeds", "we moved out of London", "I moved from Leeds to York"
    (re.compile(r"\b(?:I|we) (?:have |'ve )?moved (?:out of|away from) (?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*|"
                r"(?!(?:the|my|a|an|our|his|her|their|home|there|here|town)\b)[a-z][\w-]+)\b", _I),
     r"I no longer live in \g<x>"),
    (re.compile(r"\b(?:I|we) (?:have |'ve )?moved (?:back )?from (?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*) "
                rf"(?=to ){_NOT_A_VISIT}", _I), r"I no longer live in \g<x>, I moved "),
    (re.compile(r"\b(?:I|we) (?:have |'ve )?(?:moved out of|handed back the keys to|gave up|sold|left) (?:my|our) "
                r"(?:flat|house|apartment|place|home|room) in (?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*)\b", _I),
     r"I no longer live in \g<x>"),
    (re.compile(r"\b(?:I|we) (?:have |'ve )?(?:moved|shifted|relocated|moved back) to (?P<y>[\w ]+?) from "
                rf"(?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*)\b{_NOT_A_VISIT}", _I),
     r"I no longer live in \g<x>, I moved to \g<y>"),
    # "Dubai is no longer home" ("Lisbon was home until June" is turns_of_phrase.py's)
    (re.compile(rf"(?P<p>^|\b(?:so|and|but|now) )(?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*) (?:is|'s) "
                rf"(?:no longer (?:my |our )?home|not (?:my |"
                rf"our )?home {ANYMORE})(?=\s*(?:$|[,.;!]| (?:since|now|so|and|but|because|after|we|i)\b))", _I),
     r"\g<p>I no longer live in \g<x>"),
    # "I worked at Google until 2022", "I lived in Rome till last year"
    (re.compile(rf"\bI worked (?P<p>at|in|for) {UNTIL_THEN}", _I), r"I no longer work \g<p> \g<x>, until "),
    (re.compile(rf"\bI lived (?P<p>in) {UNTIL_THEN}", _I), r"I no longer live \g<p> \g<x>, until "),
    # Work ("laid off from the warehouse" is turns_of_phrase.py's); retiring is news of its own
    # (occupation "retired"), kept next to what it ended.
    (re.compile(r"\bI (?:have |'ve )?retired from (?=\w+ing\b)", _I), "I retired, I stopped "),
    (re.compile(r"\bI (?:have |'ve )?retired from (?=(?:the|my) |(?-i:[A-Z]))", _I), "I retired, I left "),
    (re.compile(rf"\bI {_FIRED} (?:from|at|by) (?:my )?(?:job|position|post|role) (?P<p>at|as|in|for) ", _I),
     r"I left my job \g<p> "),
    (re.compile(r"\bI (?:have |'ve )?(?:lost|resigned from|quit) my (?:job|position|post|role) (?P<p>at|as|in|for) ",
                _I), r"I left my job \g<p> "),
    (re.compile(r"\bI (?:have |'ve )?(?:lost|resigned from) my (?:job|position|post)\b", _I), "I left my job"),
    (re.compile(r"\bI (?:have |'ve )?resigned from (?=(?:the|my) |(?-i:[A-Z]))", _I), "I left "),
    (re.compile(r"\bI (?:have |'ve )?dropped out(?: of)? (?P<x>uni|university|college|school|grad school|law school|"
                r"med school)\b", _I), r"I'm not at \g<x> anymore,"),
    (re.compile(r"\bI (?:have |'ve )?dropped out(?: of)? (?=(?:the|my) |(?-i:[A-Z]))", _I), "I quit "),
    # "My rice business is over", "my cleaning company has closed"
    (re.compile(r"\bmy (?P<x>(?:[\w-]+ )?(?:business|shop|company|bakery|restaurant|salon|store|stall|practice|firm)) "
                r"(?:is|has) (?:now |finally |officially )?(?:over|closed|finished|shut down|wound up)"
                r"(?=\s*(?:$|[,.;!]| "
                r"(?:now|since|after|last|in|because|so|and)\b))", _I), r"I don't have my \g<x> anymore"),
    # Things had: "I sold my car", "we got rid of the caravan", "I cancelled my gym membership"
    (re.compile(rf"(?:\b(?:I|we) {_HAVE}(?:[a-z]+ed and )?|^)(?:sold|got rid of|gotten rid of|given away|gave away|"
                rf"scrapped|traded in|part-exchanged) "
                rf"(?P<x>(?:my|our|the|that) (?:(?:[\w-]+ )?{_HAD}(?: {_NAME})?|"
                rf"(?-i:[A-Z])[\w-]+))\b", _I), r"I don't have \g<x> anymore"),
    (re.compile(rf"\bI {_HAVE}(?:cancell?ed|ended|terminated|closed|deleted|quit|let go of|ditched|dropped|stopped) "
                rf"(?P<x>(?:my|the|our) (?:[\w-]+ ){{1,2}}?{_ACCOUNT}|"
                rf"(?:my|the|our) {_ACCOUNT} (?:(?:at|with|of|on) (?:the )?[\w-]+(?: [\w-]+)?|(?:to|for) (?:the )?"
                rf"(?-i:[A-Z])[\w-]+(?: [\w-]+)?))(?! for (?:my|his|her|their|our|him|them|a friend)\b)",
                _I), r"I don't have \g<x> anymore"),
    (re.compile(rf"\bI {_HAVE}let (?P<x>my (?:[\w-]+ ){{0,2}}?{_ACCOUNT}) (?:lapse|expire|run out|go)\b", _I),
     r"I don't have \g<x> anymore"),
    (re.compile(rf"\bmy (?P<x>(?:[\w-]+ ){{0,2}}?{_ACCOUNT}|(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)?) (?:is|was|"
                rf"has been|"
                r"got) (?:now |finally |officially )?(?:cancell?ed|deleted|closed|terminated|deactivated)\b"
                r"(?! by (?:mistake|accident)\b)|"
                rf"\bmy (?P<y>(?:[\w-]+ ){{0,2}}?{_ACCOUNT}) (?:has )?(?:expired|lapsed|ran out|run out)\b", _I),
     r"I don't have my \g<x>\g<y> anymore"),
    (re.compile(r"\bI (?:have |'ve )?(?:unsubscribed|cancell?ed my subscription) (?:from|to) (?=(?-i:[A-Z]))", _I),
     "I quit "),
    (re.compile(rf"\bI (?:have |'ve )?(?:cancell?ed|deleted|closed|uninstalled|deactivated) (?!(?:{_NOT_THING})\b)"
                r"(?=(?:(?-i:[A-Z])[\w-]+|"
                r"facebook|instagram|twitter|"
                r"tiktok|snapchat|whatsapp|netflix|spotify|tinder|bumble|hinge|reddit|linkedin)(?:$|[\s,.;!]+(?!'s)))",
                _I),
     "I quit "),
    (re.compile(r"\bI (?:have |'ve )?(?:cancell?ed|ended|quit) my membership (?:at|with|of|to) ", _I),
     "I'm not a member of "),
    (re.compile(r"\bwe (?:don't|do not) (?=live\b)", _I), "I don't "),
    (re.compile(r"\bwe no longer (?=live|have|own\b)", _I), "I no longer "),
    (re.compile(rf"\bwe (?:don't|do not) (?P<v>have|own) (?P<x>(?:(?:the|our|a|any) )?(?:{PET_WORD}|{_HAD}s?)) "
                rf"{ANYMORE}\b", _I),
     r"I don't \g<v> \g<x> anymore"),
    # Pets: "our dog Rex died", "we had to put our cat down"
    (re.compile(rf"^(?:(?:sadly|so|well|update|news)[,:]? )*(?:my|our) (?P<x>{PET_WORD})(?:,? (?P<n>{_NAME}),?)? "
                r"(?:just |recently |sadly |finally )?(?:died|passed away|passed|was put down|had to be put down|"
                r"ran away|was rehomed)\b", _I), r"I don't have my \g<x> \g<n> anymore"),
    (re.compile(rf"(?:\b(?:I|we) |^)(?:just |recently |sadly |finally )?(?:lost|rehomed|gave away|had to "
                rf"(?:rehome|put down)) (?:my|our) (?:(?:two|three|four|both|\d+) )?(?P<x>{PET_WORD})"
                rf"(?:,? (?P<n>{_NAME}))?\b", _I),
     r"I don't have my \g<x> \g<n> anymore"),
    (re.compile(rf"\b(?:I|we) {_HAVE}(?:just |recently |sadly |finally )?(?:had to )?put (?:my|our) (?P<x>{PET_WORD})"
                rf"(?: {_NAME})? (?:down|to sleep)\b", _I), r"I don't have my \g<x> anymore"),
    (re.compile(r"\bI(?:'ve| have)? (?:just |finally )?stopped (?=(?:my|the) (?:[\w-]+ ){0,3}?(?:classes|lessons|"
                r"course|"
                r"therapy|treatment|sessions|pill|pills|medication|meds|tablets|injections|antidepressants|training|volunteering|"
                r"subscription|membership|contract)(?=\s*(?:$|[,.;!]| (?:at|with|for|in|on|because|since|after|last|"
                r"this|a|an|\d+|two|three|and)\b)))", _I), "I quit "),
    # Habits: "I'm done with Twitter", "I cut out dairy", "I'm an ex-smoker", "I came off my meds"
    (re.compile(r"\b(?:I(?:'ve| have)? (?:given up|gave up|quit|stopped|come off|came off|gone off|went off)(?: on)?|"
                r"I'm (?:off|done with)) (?P<x>(?:the|my) [\w-]+(?: [\w-]+)? diet)\b", _I),
     r"I'm not on \g<x> anymore"),
    (re.compile(rf"\bI(?:'m| am) (?:(?:finally|officially|completely) )?done with (?!{_DAYS})(?=being |\w+ing\b|"
                rf"{BARE}|(?-i:[A-Z]))", _I), "I gave up "),
    (re.compile(rf"^done with (?=being |{BARE}|(?-i:[A-Z]))", _I), "I gave up "),
    (re.compile(rf"\bI(?:'ve| have)? (?:given|gave) up on (?=being |{BARE}|(?-i:[A-Z]))", _I), "I gave up "),
    (re.compile(rf"\bI(?:'ve| have)? (?:cut out|ditched|kicked|dropped|binned) (?={BARE}|(?-i:[A-Z]))", _I),
     "I gave up "),
    (re.compile(rf"\bI(?:'ve| have)? cut (?P<x>{BARE}(?: [\w-]+)?) out\b", _I), r"I gave up \g<x>"),
    (re.compile(rf"\bI(?:'ve| have|'m| am)? (?:come off|came off|gone off|went off|off) (?P<x>(?:the |my )?"
                rf"(?:[\w-]+ )?{_MEDS})\b", _I), r"I'm not on \g<x> anymore"),
    (re.compile(rf"\bI(?:'m| am) off (?=(?!(?:to|for|sick|duty|home|tomorrow|next|again|now|there|in|at)\b){BARE})",
                _I), "I gave up "),
    (re.compile(r"(?:\bI(?:'m| am) (?:an? )?|\bas (?:an? )?(?=(?:ex-|former |ex )[\w-]+,? I\b)|^(?:an? )?(?=(?:"
                r"ex-|former |ex )(?!(?:colleague|boss|manager|flatmate|roommate|housemate|friend|neighbou?r|"
                r"teacher|student|employer|landlord|co-?worker|classmate|teammate|team-mate)\b)[\w-]+(?: [\w-]+)?"
                r"(?: here\b| (?:for|at|with) (?:the|my|an?|(?-i:[A-Z]))\b|"
                r",? now\b)))(?:ex-|former |ex )"
                r"(?P<x>(?!(?:wife|husband|girlfriend|boyfriend|partner|fianc)\w*)[\w-]+)\b(?! of\b)"
                r"(?![^.!?]*\bstill\b)", _I),
     r"I'm not a \g<x> anymore"),
    (re.compile(r"^no more (?P<x>[\w -]+?) for me\b(?!.*\b(?:tonight|today|thanks|thank you|please|for now|"
                r"right now|this (?:time|week|evening))\b)", _I), r"I don't do \g<x> anymore"),
    (re.compile(r"\b(?:after (?:like )?[\w ]+ of being (?P<x>[\w-]+)),? I(?:'ve| have)? (?:finally )?(?:stopped|quit)"
                r"\b", _I), r"I stopped being \g<x>,"),
    (re.compile(rf"\bI never (?P<x>(?!(?:stopped|quit|gave)\b)[\w -]+?) {ANYMORE}\b", _I), r"I don't \g<x> anymore"),
    # Subjectless: "Not vegan anymore", "No longer at Google", "Stopped drinking …"
    (re.compile(rf"^not (?P<x>(?:an? )?[\w-]+(?: [\w-]+){{0,5}}?) {ANYMORE}(?=\s*(?:[-–—,.!:;]|$)|\s+(?:since|"
                r"because|after|now)\b)", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"^no longer (?=(?:eat|drink|smoke|vape|live|work|play|use|have|own|do|go|take|need|run|teach|"
                r"study|drive|ride|cycle|train|swim|write|sing|dance|cook|keep|attend|volunteer|coach)\b)", _I),
     "I no longer "),
    (re.compile(r"^no longer (?!(?:eat|drink|smoke|vape|live|work|play|use|have|own|do|go|take|need|run|teach|"
                r"study|drive|ride|cycle|train|swim|write|sing|dance|cook|keep|attend|volunteer|coach)\b)", _I),
     "I'm no longer "),
    (re.compile(r"^(?P<x>[\w-]+) is over for me\b", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"^(?P<x>[\w-]+(?: [\w-]+){0,2}?) (?:is|are) (?:a thing|things) of the past\b(?: for me\b)?", _I),
     r"I gave up \g<x>"),
    (re.compile(r"^(?P<x>\w+ing(?: [\w-]+){0,2}?) used to be (?:my|a big|a huge) (?:thing|hobby|passion|life|jam|"
                r"go-to|whole personality)\b", _I), r"I stopped \g<x>"),
    (re.compile(r"^(?P<x>(?!(?:it|that|this|he|she|they)\b)[\w-]+(?: [\w-]+){0,2}?) used to be (?:my|a big|a huge) "
                r"(?:thing|hobby|passion|life|jam|go-to|whole personality)\b", _I), r"I gave up \g<x>"),
    # "I was on the committee of the club for twenty years but I stepped down"
    (re.compile(r"\bI (?:used to be|was) on (?P<x>(?:the|a|my) [\w:-]+(?: [\w-]+)?)(?: (?:of|at|in) [\w ]+?)?"
                r"(?: for [\w ]+?)?,? (?:but|and) (?:I )?(?:have |'ve )?(?:(?:came|come|went|gone|got) off it|stopped|"
                r"quit|gave (?:it )?up|stepped down|left|resigned)\b", _I),
     r"I'm not on \g<x> anymore"),
    # a learner's "not more" for "not anymore": "I am not more working in the bakery"
    (re.compile(r"\bI(?:'m| am) not more (?P<x>\w+ing\b[^,.;]*?)(?= since\b| for\b|[,.;]|$)", _I),
     r"I'm not \g<x> anymore"),
    # "Stopped drinking …" is the user's news; "Quit using jargon" is an order to the assistant,
    # so a bare "quit" needs a time ("Quit smoking 6 months ago") and no gerund is one of answering.
    (re.compile(r"^quit (?=my (?:job|position|post)\b)", _I), "I quit "),
    (re.compile(rf"{_START}(?:(?:stopped|gave up|given up)|quit(?=.*\b(?:ago|last|since|for good|in (?:19|20)\d\d)\b))"
                r"(?= (?!(?:using|giving|sending|replying|answering|asking|telling|suggesting|recommending|writing|"
                r"adding|putting|calling|saying|talking|apologi[sz]ing|ending|starting)\b)(?:being|\w+ing)\b)", _I),
     r"\g<p>I stopped"),
)


def ended_sentence(sentence: str) -> str:
    """``sentence`` with its whole-sentence ending forms written as the clauses ``CESSATION`` reads."""
    sentence = idiomatic_endings(figurative_endings(sentence))
    for pattern, replacement in SENTENCE_FORMS:
        sentence = pattern.sub(replacement, sentence)
    return sentence.strip()
