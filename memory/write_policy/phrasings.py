"""Everyday ways of stating the profile facts, read at the level of grammar and lexicon.

The slot patterns (``patterns.py``) read one canonical clause per meaning ("I live
in X", "I'm vegan"). People say the same facts in many other forms: "home is
Glasgow", "I stay in Pune" (Indian English), "I've settled in Porto", "went vegan",
"cut out meat", "I was diagnosed with asthma", "my wife's a nurse", "myself
Rahul". ``REWRITES`` bring such forms to the canonical clause (so grounding still
sees the user's own value words); ``FORMS`` are extra patterns for facts that have
no canonical clause yet (a diet said by what is avoided, a condition, a relation).
Word lists, not sentences: a new condition or food is one word more.
"""

from __future__ import annotations

import re

from memory.write_policy.patterns import DIETS, OCCUPATIONS, Pattern, Rewrite, rewrites, rule
from memory.write_policy.people_words import PET_WORD

_I = re.IGNORECASE
_CAP = r"(?-i:[A-Z])[\w'.&-]*(?: (?-i:[A-Z])[\w'.&-]*){0,3}"  # a capitalised name: "Leeds", "New York", "TCS"
_NUM = r"(?:a|an|one|two|three|four|five|six|\d+)"
# "Hi, I'm Rahul Mehta" at the start of an introduction: a capitalised name, not a nationality ("I'm Polish").
_INTRO = (r"^(?:(?:sir|madam|dear \w+|hi|hello|hey)[,!]?\s+)?(?:I'm|I am) ((?-i:[A-Z])[a-z]+(?: (?-i:[A-Z])[a-z]+)?)"
          r"(?<!ish)(?<!ian)(?<!ese)")
# Pronouns and deictics that start a sentence in capitals but name no place ("This is home").
_NOT_PLACE = r"(?!(?:this|that|it|here|there|which|what|where|home|everything|nothing|family)\b)"

# Foods and drinks a diet is stated by avoiding ("I cut out meat", "no dairy for me").
FOODS = (r"(?:red |processed )?meat|pork|beef|lamb|chicken|poultry|fish|seafood|shellfish|dairy|milk|cheese|eggs?|"
         r"gluten|wheat|sugar|refined sugar|carbs|alcohol|booze|caffeine|coffee|onions?|garlic|nuts|peanuts|soy|"
         r"junk food|fried food|animal products|non[- ]?veg|beef and pork|meat and fish|meat or fish")
# Conditions said with "I have", "diagnosed with", "I suffer from", "I struggle with".
CONDITIONS = (
    r"(?:type [12] |type one |type two )?diabetes|asthma|adhd|add|autism|epilepsy|(?:celiac|coeliac)(?: disease)?|"
    r"migraines?|high blood pressure|low blood pressure|high cholesterol|hypertension|dyslexia|dyspraxia|arthritis|"
    r"(?:rheumatoid |osteo)arthritis|tinnitus|lupus|crohn'?s(?: disease)?|colitis|ibs|pcos|endometriosis|"
    r"an? (?:under|over)active thyroid|hypothyroidism|hyperthyroidism|a thyroid (?:condition|problem)|"
    r"(?:sleep )?apnea|apnoea|insomnia|eczema|psoriasis|fibromyalgia|ms|multiple sclerosis|parkinson'?s|"
    r"anxiety|depression|bipolar(?: disorder)?|ocd|ptsd|anemia|anaemia|scoliosis|glaucoma|cataracts|copd|gout|"
    r"osteoporosis|sciatica|long covid|chronic fatigue(?: syndrome)?|me/cfs|cfs|vertigo|a pacemaker|hearing loss|"
    r"kidney disease|heart disease|a heart condition|a heart murmur|acid reflux|gerd|a hernia|cancer|"
    r"chronic (?:\w+ )?pain|(?:a )?bad (?:back|knees?|hips?|shoulders?|ankles?|neck|wrists?)|back problems|"
    r"knee problems|a (?:\w+ )?(?:condition|disorder|syndrome|disease|deficiency|intolerance|disability)"
)
MEDICATION = (r"insulin|metformin|medication|meds|antidepressants|blood thinners|beta blockers|statins|"
              r"thyroid (?:meds|medication|pills)|levothyroxine|an inhaler|inhalers|dialysis|chemo|the pill|hrt|"
              r"blood pressure (?:meds|medication|pills)|a (?:gluten|dairy)[- ]free diet")
HEALTH_STATES = (r"(?:type [12] )?diabetic|pre-?diabetic|insulin[- ]dependent|anaemic|anemic|hypertensive|"
                 r"bipolar|immunocompromised|disabled|neurodivergent|on the spectrum|in recovery|"
                 r"(?:a )?recovering (?:alcoholic|addict)|an amputee|partially sighted|visually impaired|"
                 r"hearing impaired|a wheelchair user|an? (?:type [12] )?(?:diabetic|asthmatic|epileptic|coeliac|"
                 r"celiac)|(?:deaf|blind) in (?:one|my left|my right|both) (?:ear|eye)s?|"
                 r"(?:lactose|gluten|fructose)[- ]intolerant|intolerant to \w+|hard of hearing|deaf|blind|"
                 r"colou?r ?blind(?: (?:red[- ]green|\w+))?|dyslexic|autistic|left[- ]handed|pregnant|"
                 r"\d+ (?:weeks|months) pregnant")
# Relations, with the modifiers people put before them ("my elder brother", "my other half").
RELATIONS = (r"(?:(?:elder|older|younger|little|big|baby|twin|eldest|youngest|oldest|middle|step|half|"
             r"teenage|grown-up|adult|\d+[- ]year[- ]old) )?(?:wife|husband|hubby|partner|spouse|other half|"
             r"better half|missus|sons?|daughters?|kids?|children|toddler|baby|mom|mother|mum|mam|dad|father|"
             r"brothers?|sisters?|siblings?|boyfriend|girlfriend|bf|gf|parents|grandmother|grandfather|grandma|"
             r"grandpa|gran|granny|nan|nana|grandkids|grandchildren|grandsons?|granddaughters?|cousins?|aunt|"
             r"uncle|niece|nephew|fianc[eé]e?|in-laws|(?:mother|father|sister|brother)-in-law|"
             r"step(?:son|daughter|mom|mum|dad|father|mother|sister|brother)|twins|eldest|youngest|oldest|"
             r"dogs?|cats?|puppy|kitten|pups?)")

REWRITES: tuple[Rewrite, ...] = rewrites(
    (
        # Chat spellings without apostrophes.
        (r"\b(do|can|did|does|have|is|are|was)nt\b", r"\1n't"),
        (r"\bive\b", "I've"),
        # Fragments with the speaker's subject unsaid: "cut out meat two years ago", "turned 52 in March".
        (r"^(?=(?:just |recently )?(?:cut out|gave up|stopped eating|went (?:vegan|vegetarian)|moved to|"
         r"relocated to|settled in|turned \d))", "I "),
        (r"\bme and my \w+,? (?=got (?:married|engaged))", "we "),
        (r"^(?=(?:a )?(?:bad|dodgy) (?:back|knees?|hips?|shoulders?)\b|chronic \w+ pain\b)", "I have "),
        (r"^growing up in (" + _CAP + r"),?", r"I grew up in \1,"),
        (r"^pronouns(?: are|:)", "my pronouns are"),
        (r"^(?:my )?(?:birthday|bday)(?:'s| is)(?: on)?\b", "my birthday is"),
        (r"^as an? (muslim|christian|catholic|jew|hindu|buddhist|sikh|atheist|vegan|vegetarian|"
         r"(?-i:[A-Z])[a-z]+(?:ish|ian|ese|an))\b,?", r"I'm a \1,"),
        (r"\b(?:me and my|my) (\w+) and (?:me|I),? (?=have|own|live|got)", "we "),
        (r"\bmy (\w+) and I got (married|engaged)\b", r"I got \2"),
        (r"\bI(?:'ve| have) had (?=(?:" + CONDITIONS + r")\b)", "I have "),
        (r"\bI(?:'ve| have) been (?:doing|on|following|eating) (?:a |an )?(?=(?:" + DIETS
         + r"|low[- ]carb|mediterranean)\b)", "I follow "),
        (r"\bI work (?:remote(?:ly)?|full[- ]time|part[- ]time|from home) (for|at)\b", r"I work \1"),
        (r"\bI(?:'m| am)? work(?:ing)? (?:in|at) (?:an? |the )(?-i:[a-z ]+?) as (?:an? )?(?=(?:[\w-]+ ){0,2}(?:"
         + OCCUPATIONS + r")\b)", "I work as a "),
        (r"(?:^|,\s*)(" + _CAP + r") born and (?:raised|bred)\b", r", I grew up in \1"),
        # Place: settled, stay (Indian English), home is X, X is home, based out of, X-based, currently living in X.
        (r"\b(I|we)(?:'ve| have)? (?:now |since )?settled(?: down)? (?:in|at)\b", r"\1 live in"),
        (r"\bI (?:stay|reside|am residing|'m residing) (?:in|at)\b", "I live in"),
        (r"\bI(?:'ve| have) been (?:staying|living) in (" + _CAP + r")(?= since| for)", r"I live in \1"),
        # "I'm staying in Pune since 5 years" is a home, "I'm living in Paris for a few days" a visit (visiting()).
        (r"\bI(?:'m| am) staying in (" + _CAP + r")(?= since| for)", r"I'm living in \1"),
        (r"\b(?:I(?:'ve| have)|we(?:'ve| have)|^) ?been (?:living|based) in\b", "I live in"),
        (r"\bwe(?:'ve| have) been (?:living|based) in\b", "we live in"),
        (r"^(?:my |our )?home(?: base)?(?: for (?:me|us)| these days| now| nowadays)? (?:is|'s) (?:now )?(?:in )?"
         + _NOT_PLACE, "I live in "),
        # "Lisbon is home now" (bare "home" must end there: "Felix is home for the holidays" is a person back home)
        (r"^" + _NOT_PLACE + r"(" + _CAP + r") (?:is|has been|'s) (?:(?:my |our )home\b|home(?=\s*(?:$|[.,;!]|now\b|"
         r"for (?:me|us)\b|to (?:me|us)\b)))(?: now| for me| for us)?", r"I live in \1"),
        (r"\b(I|we) call (" + _CAP + r") home\b", r"\1 live in \2"),
        (r"\bI(?:'m| am) (?:located|situated) in\b", "I'm based in"),
        (r"\bbased out of\b", "based in"),
        (r"\bI(?:'m| am) (" + _CAP + r")-based\b", r"I'm based in \1"),
        # "Currently in Lisbon" alone is as often a trip as a home: only a verb of residence says where one lives.
        (r"^(?:currently|presently|now) (?:living|based|residing) in (?=(?-i:[A-Z]))", "I live in "),
        (r"\b(I|we)(?:'ve| have) (?=(?:just |recently )?(?:moved|relocated)\b)", r"\1 "),
        (r"\b(moved|relocated)(?: back| out| over| down| up| here| away)? to\b", r"\1 to"),
        (r"\b(moved|relocated) from (?:[\w'-]+ ){1,3}?to\b", r"\1 to"),
        # Origin.
        (r"\bI hail from\b", "I'm from"),
        (r"\bI(?:'m| am) a native of\b", "I'm from"),
        (r"^(?:I was )?born and (?:raised|brought up|bred) in\b", "I grew up in"),
        (r"\b(?:I was )?born and (?:brought up|bred) in\b", "grew up in"),
        (r"^(" + _CAP + r") born and (?:raised|bred)\b", r"I grew up in \1"),
        (r"^(?:grew up|raised) in\b", "I grew up in"),
        (r"\bmy native (?:place|town|village|city)\b", "my hometown"),
        # Name and age.
        (r"^myself (?=(?-i:[A-Z])[a-z]+\b)", "my name is "),
        (_INTRO + r",? (?=\d|from (?-i:[A-Z])|an? \w+ from\b)", r"my name is \1, I'm "),
        (_INTRO + r", (?=working|living|based|a |an )", r"my name is \1, "),
        (r"\bI'm (\d{1,3}), ((?:[\w-]+ ){0,3}(?:" + OCCUPATIONS + r"))\b", r"I'm \1, I'm a \2"),
        (r"\bI (?:just |recently )?turned (\d{1,3})\b", r"I'm \1"),
        (r"\bI(?:'m| am) an? (\d{1,3})[- ](?:years?|yrs?|yo)[- ]old\b", r"I'm \1, I'm a"),
        (r"^(?:an? )?(\d{1,3})[- ]?(?:years?|yrs?)[- ]old\b,?", r"I'm \1, I'm a"),
        (r"\bI(?:'m| am) (\d{1,3}) (?:yrs|y/o|y\.o\.?|yrs old|years of age)\b", r"I'm \1"),
        (r"^(?:age|aged) (\d{1,3})\b", r"I'm \1"),
        (r"\bmy (?:bday|b-day|birthday)(?: is|'s)? (?:falls )?on\b", "my birthday is"),
        (r"^my bday\b", "my birthday"),
        # Work.
        (r"^by (?:profession|trade)[, ]+", ""),
        (r"\bI(?:'m| am)? work(?:ing)? (?:in|at|for|with) (" + _CAP + r") as (?:an? )?", r"I work at \1, I work as a "),
        (r"\b(I'm an? (?:[\w-]+ ){0,3}(?:" + OCCUPATIONS + r")) (?:at|with|for) (" + _CAP + r")",
         r"\1, I work at \2"),
        (r"\bI(?:'m| am) employed (?:at|by|with)\b", "I work at"),
        (r"\b(I(?:'m| am)? work(?:ing)? as (?:an? )?(?:[\w-]+ ){0,3}(?:" + OCCUPATIONS + r")) (?:at|with|for) ("
         + _CAP + r")", r"\1, I work at \2"),
        (r"\bmy (?:job title|title|role|position|designation|job profile)(?: is|'s)\b", "my job is"),
        (r"\bI(?:'m| am)? freelanc(?:e|ing) as\b", "I work as"),
        (r"\bI(?:'m| am) self employed\b", "I'm self-employed"),
        (r"\bI (?:have |'ve )?(?:just |recently )?retired\b(?= from| in (?:19|20)| last| a | \w+ years|[,.!]|$)",
         "I'm retired"),
        (r"\bI'm retired from [\w ]+?(?=$|[,.!]| in (?:19|20)| last| a | \w+ years)", "I'm retired"),
        # Diet: became, went, pure veg (Indian English).
        (r"\bI(?:'ve| have)? (?:just )?(?:went|gone|turned|became|become|switched to being|converted to being) "
         r"(?=(?:" + DIETS + r"|pescatarian|pure veg\w*)\b)(?!.*\bfor (?:a|one|two) (?:week|month)s?\b)", "I'm "),
        # Family: I've a son, I am having two kids, mother of three.
        (r"\bI've (?=" + _NUM + r" )", "I have "),
        (r"\bI(?:'m| am) having (?=" + _NUM + r" (?:[\w-]+ ){0,2}" + RELATIONS + r"\b)", "I have "),
        (r"^(?:an? )?((?:proud |single |busy |working |full[- ]time )*(?:mum|mom|mother|dad|father|parent|"
         r"grandma|grandpa|grandmother|grandfather) of\b)", r"I'm a \1"),
        (r"\bmy (" + RELATIONS + r")'s (?=(?:a|an|\d+|from|originally|in|at|called|named|also|retired|"
         r"twelve|\w+teen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\w*)\b|(?-i:[A-Z]))", r"my \1 is "),
    )
)


FORMS: tuple[Pattern, ...] = (
    rule(r"^i'm (?:happily |newly |recently |just )?(?P<v>married|engaged|divorced|separated|widowed)"
       r"(?: (?:to|with|for|since|and) .*|,.*)?$", "family", key="relationship_status", template="The user is {v}."),
    rule(rf"^i'm (?:a |an )?(?:strict |strictly |fully )?(?P<v>{DIETS})(?: (?:\w+ ){{1,2}}(?:years?|months?) ago)?"
       r"(?:,.*| (?:since|for|and|so|but|because) .*)$",
       "diet", key="diet", template="The user is {v}."),
    rule(r"^i'm an? (?P<v>widow|widower)$", "family", key="relationship_status", template="The user is {a_v}."),
    rule(rf"^i (?:only |strictly |mostly )?(?:eat|keep|follow|stick to|do) (?:only |strictly )?(?:a |an )?"
       rf"(?P<v>{DIETS}|pure veg\w*|eggetarian|jain|low[- ]carb)(?: diet| food| meat| meals)?(?: only)?"
       r"(?: since .*| for .*|,.*)?$", "diet", key="diet",
       template="The user follows a {v} diet."),
    rule(r"^i'm (?:an? )?(?:strict |strictly |pure |fully |mostly )?(?P<v>pure veg(?:etarian)?|veg|eggetarian|"
       r"non[- ]?veg(?:etarian)?|jain|teetotal|teetotaller|teetotaler|pescatarian|carnivore)$", "diet", key="diet",
       template="The user is {v}."),
    rule(rf"^i (?:(?:have )?(?:completely |totally )?(?:cut out|gave up|given up|quit|stopped eating|stopped "
       rf"drinking|avoid|steer clear of|stay away from|can't have|can't do|don't do|don't touch|never touch|"
       rf"don't take|don't consume|never eat)|'ve (?:cut out|given up|stopped eating)) (?P<v>(?:{FOODS})\b.*)$",
       "diet"),
    rule(rf"^(?P<v>no (?:{FOODS}) (?:for me|at all|ever|whatsoever))\b", "diet"),
    rule(rf"^i'm (?P<v>off (?:{FOODS}))\b", "diet"),
    rule(r"^i (?:do|practice|practise|follow) (?P<v>intermittent fasting\b.*)$", "diet"),
    rule(rf"^i (?:have|'ve got|got) (?P<v>{CONDITIONS})\b", "health", importance=8),
    rule(r"^i (?:was|got|'ve been|have been|am|'m) (?:\w+ )?(?P<v>diagnosed with .+)$", "health", importance=8),
    rule(r"^i (?:suffer|'ve suffered|have suffered) (?P<v>from .+)$", "health", importance=8),
    rule(rf"^i (?:struggle|deal|live|cope) (?P<v>with (?:{CONDITIONS})\b.*)$", "health", importance=8),
    rule(rf"^i'm (?P<v>on (?:{MEDICATION})\b.*)$", "health", importance=7),
    rule(rf"^i (?:take|need|use) (?P<v>(?:{MEDICATION}|a wheelchair|a cane|a walking stick|hearing aids?)\b.*)$",
       "health", importance=7),
    rule(r"^i (?:wear|use) (?P<v>hearing aids?|a hearing aid|a wheelchair|a cochlear implant|an insulin pump|"
       r"a cgm|a prosthetic\b.*)$", "health", importance=7),
    rule(rf"^i'm (?:actually |also |really |severely |profoundly )?"
       rf"(?P<v>(?:{HEALTH_STATES})(?: in (?:one|my left|my right|both|my) (?:ear|eye)s?)?)"
       r"(?:$|[,;]| so\b| and\b| which\b| but\b| since\b)", "health", importance=7),
    rule(r"^i'm (?:an? )?(?:(?:practising|practicing|devout|observant|non-practising|proud) )?(?P<v>muslim|christian|"
       r"catholic|protestant|jewish|jew|hindu|buddhist|sikh|atheist|agnostic|mormon|quaker|pagan)\b", "identity"),
    rule(r"^(?:i|we) (?:just |recently )?(?:got|adopted|rescued|have|own) (?:a|an|another|two|three|\d+) "
         r"(?:[\w-]+ ){0,3}"
       rf"(?P<v>{PET_WORD}|rescue)\b", "family"),  # "a rescue" is a pet only after "adopted", "got"
    rule(r"^(?:we're|we are) (?P<v>a family of (?:three|four|five|six|seven|\d+))\b", "family"),
    rule(rf"^my (?P<v>{RELATIONS})(?: (?-i:[A-Z])[\w'-]+)?(?:'s name)? (?:is|are|lives|live|works|work|has|have) "
       r"(?!(?:sick|ill|tired|sad|upset|angry|late|busy|away|here|home|asleep|hungry|coming|visiting|waiting|out|"
       r"not|being|going)\b).+$", "family"),
    rule(rf"^(?:strictly |strict |pure )?(?P<v>{DIETS}|pure veg\w*)(?: only)?(?: for me| here| btw| fyi| myself)\b",
       "diet", key="diet", template="The user is {v}."),
    rule(rf"^(?P<v>{DIETS}) only\b", "diet", key="diet", template="The user follows a {v} diet."),
    rule(rf"^(?:i|we) live with (?:my|our) (?P<v>{RELATIONS})\b", "family"),
    rule(rf"^our (?P<v>{RELATIONS}) (?:is|are|lives|works|goes|attends|has|turned) "
       r"(?!(?:sick|ill|tired|sad|upset|late|busy|away|here|home|asleep|coming|visiting|out|not|being|going)\b).+$",
       "family"),
    rule(rf"^(?:i'm|i am) (?:an? )?(?P<v>(?:proud |single |busy |working |full[- ]time )*(?:mum|mom|mam|mama|"
       rf"papa|grandma|grandpa|foster (?:mom|mum|parent|dad)|step(?:mom|mum|dad|parent)|parent|mother|father|dad) "
       rf"(?:of|to) (?:{_NUM}|twins|\w+ (?:boys|girls|kids))\b.*)$", "family"),
    rule(r"^(?:my \w+ and i|we)(?:'ve| have) been (?P<v>(?:together|married|dating)\b.*)$", "family"),
)
