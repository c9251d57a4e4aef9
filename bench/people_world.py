"""The simulated users of ``bench/people_sim.py``: four people over six months, each told through the CLI
(5 and 6, written by an outside hand before they were first run, are in ``bench/people_outside.py``; 7 and 8,
written by a second outside hand and held back, not run before the rules were final, in
``bench/people_outside_b.py``).

Each scenario is one user's sessions (day offset, lines said), the five values that
must be current at the end (a name, a partner, a pet, a child, a job, a city, a diet
after an ended state, a standing instruction; each a regex on one line: a pet's name
counts beside its species, a partner's beside a word that says partner) and the
values that must not be shown as current (an ex, an old diet, a friend's pet, a hypothetical). Scenarios 1 and 2
follow what an outside tester ran (issue 45); 3 and 4 add other species, a child, a
sibling, a break-up and other phrasings. They were written before any rule was tuned
to them, and are not to be edited to fit the rules.

A line that starts with ``!`` is a standing instruction: the simulated user says yes
when the agent asks to save it as a rule (the ``!`` is not said).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

ASK_DAY = 183  # the questions are asked (and the memory read) this many days after the start
# A name is the user's partner, or the user's city, only on a line that says so (not "Marta and I went out").
PARTNER = r"(?=.*\b(partner|girlfriend|boyfriend|wife|husband|dating|seeing|together|relationship|moving in)\b)"
HOME = r"(?=.*\b(live|lives|living|moved|based|home)\b)"


@dataclass(frozen=True)
class Stale:
    """A word that must not be shown as the user's current value; ``unless`` marks a line where it is fine
    (a third party's, a hypothetical's), on top of the ended-state words every line is allowed.
    """

    word: str
    unless: str = ""


@dataclass(frozen=True)
class Tracked:
    """One value that must be current at the end: the question that asks for it, a regex for it, and stale words."""

    slot: str
    question: str
    current: str
    stale: tuple[Stale, ...] = ()


@dataclass(frozen=True)
class Scenario:
    name: str
    user: str
    start: datetime
    sessions: tuple[tuple[int, tuple[str, ...]], ...]
    values: tuple[Tracked, ...] = field(default=())


def _s(*pairs: tuple[int, str | tuple[str, ...]]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple((day, (lines,) if isinstance(lines, str) else lines) for day, lines in pairs)


DANIEL = Scenario(
    name="1 Daniel: new partner, a cat, no longer vegetarian (outside tester's first)",
    user="daniel", start=datetime(2025, 1, 6, 19, 0, tzinfo=UTC),
    sessions=_s(
        (0, ("Hi! I'm Daniel.", "I work as a sound engineer at a radio station.")),
        (3, ("I'm vegetarian, so no meat in any recipe please.", "What can I cook with lentils?")),
        (8, ("My girlfriend Ola and I are going to the mountains this weekend.", "What should I pack for a hike?")),
        (14, "Can you recommend a podcast about music production?"),
        (20, ("My sister Zofia is vegan and she's visiting next week.", "Any dessert ideas without eggs?")),
        (27, "Ola loves jazz, what's a good album to give her?"),
        (35, "Work was exhausting, we had three live shows in a row."),
        (41, ("If I ever get a dog, I'd name him Bigos.", "Is a dog a good idea in a small flat?")),
        (50, "Ola and I broke up. It was mutual, but I'm sad."),
        (56, "I've been cooking a lot of tofu stir-fry lately."),
        (63, "What's the capital of Portugal?"),
        (70, ("I adopted a cat called Pierogi!", "What should I feed a young cat?")),
        (77, "Pierogi knocked a glass off the table again."),
        (85, "My colleague Tomek just got a parrot named Kiwi."),
        (92, "I've stopped being vegetarian, I eat fish and chicken again."),
        (99, "Give me a quick salmon recipe."),
        (106, "I'm seeing someone new, her name is Marta."),
        (113, "Marta and I went to a concert on Saturday."),
        (121, "My friend Kuba is vegetarian, what should I cook for him on Friday?"),
        (128, "The radio station is moving to a new building."),
        (135, "Tell me a joke about cats."),
        (143, "Marta is moving in with me next month."),
        (151, "Pierogi had his vaccinations today."),
        (159, "Would it be weird to get Pierogi a sweater?"),
        (168, "We're planning a trip to Gdansk with Marta."),
        (178, "What's the weather like in Gdansk in winter?"),
    ),
    values=(
        Tracked("name", "What's my name?", r"\bDaniel\b"),
        Tracked("job", "What do I do for a living?", r"sound engineer"),
        Tracked("partner", "Who is my partner?", rf"(?=.*\bMarta\b){PARTNER}", (Stale("Ola", r"broke up|split"),)),
        Tracked("pet", "What's my cat called?", r"(?=.*\bPierogi\b)(?=.*\b(cat|kitten|pet)\b)",
                (Stale("Bigos", r"\bif\b|would|'d"),)),
        Tracked("diet", "What is my diet?", r"\b(fish|chicken|salmon)\b",
                (Stale("vegetarian", r"Kuba|Zofia|friend|sister"), Stale("vegan", r"Zofia|sister"))),
    ),
)

INES = Scenario(
    name="2 Ines: a greeting with her name, a puppy (outside tester's second)",
    user="ines", start=datetime(2025, 2, 3, 18, 30, tzinfo=UTC),
    sessions=_s(
        (0, "Hola! I'm Ines, I live in Valencia and I'm a primary school teacher."),
        (2, "Can you suggest a fun science activity for eight-year-olds?"),
        (6, "I moved here from Madrid three years ago and I still miss the museums."),
        (11, "My brother Pablo is a firefighter in Seville."),
        (17, "What's a good book to read to a class about the sea?"),
        (23, "We got a puppy! His name is Churro."),
        (29, ("Churro chewed my favourite shoes.", "How do I stop a puppy from chewing?")),
        (36, "!From now on, don't use emojis when you answer me."),
        (42, "My best friend Lucía adopted a rabbit called Nube."),
        (50, "Parent-teacher meetings this week, wish me luck."),
        (57, "Should I take Churro to puppy classes?"),
        (64, "If I lived in Barcelona I'd go to the beach every day."),
        (71, "How long should a walk be for a five-month-old dog?"),
        (79, "My school is organising a trip to the aquarium."),
        (86, "Tell me something interesting about octopuses."),
        (93, "My mum thinks I should become a head teacher, but I'm happy in the classroom."),
        (100, "Churro is almost as big as the sofa now."),
        (108, "I'm thinking about learning to surf this summer."),
        (115, "What's a healthy snack for a long school day?"),
        (123, "Summer holidays start soon, no more marking for a while!"),
        (131, "My cousin in Madrid had a baby girl."),
        (139, "Which beaches near Valencia are dog friendly?"),
        (147, "Churro swam in the sea for the first time."),
        (155, "Back to school next week, I'm preparing my classroom."),
        (163, "What's a good way to teach fractions?"),
        (178, "Any ideas for a rainy Sunday with a dog?"),
    ),
    values=(
        Tracked("name", "What's my name?", r"\bInes\b"),
        Tracked("city", "Where do I live?", rf"(?=.*\bValencia\b){HOME}",
                (Stale("Madrid", r"\bfrom\b|cousin|miss"), Stale("Barcelona", r"\bif\b|would|'d"),
                 Stale("Seville", r"Pablo|brother"))),
        Tracked("job", "What's my job?", r"\bteacher\b", (Stale("firefighter", r"Pablo|brother"),)),
        Tracked("pet", "What's my dog called?", r"(?=.*\bChurro\b)(?=.*\b(dog|puppy|pet)\b)",
                (Stale("Nube", r"Lucía|friend"),)),
        Tracked("instruction", "Should you use emojis with me?", r"\bemojis?\b"),
    ),
)

SANDY = Scenario(
    name="3 Sandy: 'call me', a daughter, a rabbit, quit the bank, a move",
    user="sandy", start=datetime(2025, 3, 10, 20, 0, tzinfo=UTC),
    sessions=_s(
        (0, "My name is Alexandra, but please call me Sandy."),
        (3, "I work at a bank as a mortgage advisor."),
        (8, "My daughter Lea starts school in September and she's very excited."),
        (13, "What are good lunchbox ideas for a five-year-old?"),
        (19, "We live in York, close to the city walls."),
        (25, "My brother Jonas just moved to Oslo for a new job."),
        (31, "Lea wants a pet so badly."),
        (38, "We adopted a rabbit, she's called Biscuit."),
        (44, "How often should I clean a rabbit hutch?"),
        (52, "My neighbour's horse, Duchess, escaped into our garden this morning!"),
        (59, "I quit my job at the bank. I couldn't take it anymore."),
        (63, "I'm working as a freelance translator now, German to English."),
        (70, "Lea lost her first tooth!"),
        (77, "Should I register as self-employed straight away?"),
        (85, "Biscuit learned to jump on the sofa."),
        (93, "Is it normal for a rabbit to thump her feet at night?"),
        (110, "We moved to Leeds last week, the flat is full of boxes."),
        (118, "Jonas works at a bank too, funny enough."),
        (126, "Lea's new school in Leeds is lovely."),
        (134, "What's a good German novel for a translator to read?"),
        (142, "I've taken on a big translation project for a publisher."),
        (150, "Lea wants to be a vet when she grows up."),
        (158, "Biscuit needs her claws trimmed, how do I do that?"),
        (166, "Any tips for working from home with a kid around?"),
        (175, "Leeds is growing on me, I like our new neighbourhood."),
    ),
    values=(
        Tracked("name", "What should you call me?", r"\bSandy\b"),
        Tracked("child", "What's my daughter's name?", r"(?=.*\bLea\b)(?=.*\b(daughter|child|kid)\b)"),
        Tracked("pet", "What's my rabbit called?", r"(?=.*\bBiscuit\b)(?=.*\b(rabbit|bunny|pet)\b)",
                (Stale("Duchess", r"neighbou?r"),)),
        Tracked("job", "What do I do for work?", r"\btranslator\b",
                (Stale("mortgage advisor"), Stale("bank", r"Jonas|brother"), Stale("vet", r"\bLea\b|grows up"))),
        Tracked("city", "Which city do I live in?", rf"(?=.*\bLeeds\b){HOME}",
                (Stale("York", r"moved|from"), Stale("Oslo", r"Jonas|brother"))),
    ),
)

PRIYA = Scenario(
    name="4 Priya: 'X here', a parrot, a break-up and someone new, no longer on nights, metric units",
    user="priya", start=datetime(2025, 4, 14, 7, 30, tzinfo=UTC),
    sessions=_s(
        (0, "Hey, Priya here."),
        (2, "I'm a nurse on the night shift at St Mary's."),
        (6, "My boyfriend Raj is cooking dinner tonight, any ideas for dessert?"),
        (11, "!Always use metric units with me, I never know what a cup or a pound is."),
        (16, "I have a parrot called Mango, he says hello to everyone."),
        (22, "My sister Anika has two cats, Salt and Pepper."),
        (28, "How many hours of sleep does a night-shift worker need?"),
        (34, "Mango learned to whistle the Star Wars theme."),
        (41, "Raj and I split up last weekend."),
        (47, "I need a distraction, recommend me a series."),
        (55, "What if I moved to Canada? Would nurses earn more there?"),
        (62, "I no longer work nights, I moved to the day clinic."),
        (69, "It's so nice to sleep at normal hours again."),
        (77, "My colleague Ben just got a horse named Storm."),
        (85, "How far is a 10K run?"),
        (92, "I've started dating someone, he's called Omar."),
        (99, "Omar and I went to see a play."),
        (106, "Mango bit Omar's finger, oops."),
        (113, "What's a good recipe for a date night at home?"),
        (120, "My mum still asks about Raj, it's awkward."),
        (128, "Should I get Mango a bigger cage?"),
        (136, "Omar is taking me to Lisbon for my birthday."),
        (144, "What's the weather in Lisbon in October?"),
        (152, "The day clinic is short-staffed this month."),
        (160, "Mango has started saying Omar's name."),
        (176, "Omar and I have been together for three months now!"),
    ),
    values=(
        Tracked("name", "What's my name?", r"\bPriya\b"),
        Tracked("partner", "Who am I dating?", rf"(?=.*\bOmar\b){PARTNER}", (Stale("Raj", r"split|broke|mum"),)),
        Tracked("pet", "What's my parrot called?", r"(?=.*\bMango\b)(?=.*\b(parrot|bird|pet)\b)",
                (Stale("Salt", r"Anika|sister"), Stale("Storm", r"\bBen\b|colleague"))),
        Tracked("instruction", "Which units should you use with me?", r"\bmetric\b"),
        Tracked("job", "Where do I work?", r"day clinic", (Stale("night shift"), Stale("nights"))),
    ),
)

SCENARIOS: tuple[Scenario, ...] = (DANIEL, INES, SANDY, PRIYA)
