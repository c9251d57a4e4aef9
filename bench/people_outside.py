"""Scenarios 5 and 6 of ``bench/people_sim.py``, written by an outside hand (issue 45: "Outside scenarios
with other people, pets and phrasings are checked too").

They were written by a helper that read no rule code and no rule data, and committed before they were
first run; like 1-4 they are not to be edited to fit the rules. They add people, pets and phrasings the
first four do not: a divorce then remarriage, a dog that dies and a new one, "laid off", "Lisbon was home
until June", a film quote that says "My name is ...", a grandparent, an in-law, a step-son, a tortoise, a
friend's horse, a habit given up ("gave up", "kicked it"), "please always", a hypothetical baby name, and
one user who writes in lowercase texting style in non-native English. Filler sessions (recipes, code,
travel) sit in between. The shape (Scenario, Tracked, Stale, ``!`` for a standing instruction) is
``bench/people_world.py``'s.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bench.people_world import HOME, PARTNER, Scenario, Stale, Tracked, _s

KOFI = Scenario(
    name="5 Kofi: divorce then remarriage, a dog dies and a greyhound, laid off, 'Lisbon was home until June'",
    user="kofi", start=datetime(2025, 2, 3, 19, 0, tzinfo=UTC),
    sessions=_s(
        (0, ("Evening! The name's Kofi.", "Can you help me plan cheap dinners for the week?")),
        (2, "I live in Lisbon, up the hill near Alfama."),
        (5, "I work at a warehouse near the airport, mostly driving the forklift."),
        (9, "My wife Abena wants to repaint the kitchen. What colour goes with oak cabinets?"),
        (13, "Our dog Bruno is getting old, he sleeps most of the day now. He's a boxer."),
        (18, "How do I reverse a list in Python?"),
        (22, "My sister Ama is a pharmacist in Accra, she sends her love."),
        (28, "Abena and I are getting divorced. Twelve years, and it's over."),
        (33, "What's a simple recipe for jollof rice?"),
        (39, "My mate Stephen's dog Rocky chased a cyclist today, total chaos."),
        (45, "We had to put Bruno down yesterday. He was thirteen."),
        (51, ("My grandad turns ninety next week, he retired from the railways before I was born.",
              "What's a nice present for him?")),
        (58, "Got laid off from the warehouse on Friday. Twenty of us gone in one morning."),
        (64, "Write me a short cover letter opening for a driving job."),
        (71, "Watched The Princess Bride again tonight. \"Hello. My name is Inigo Montoya. You killed my father. "
             "Prepare to die.\" Still brilliant."),
        (78, "Good news, I got a job as a bus driver in Porto! I start in June."),
        (85, "Met a lovely woman at my cousin's wedding, Efua. We've been on three dates."),
        (92, "Train or bus from Lisbon to Porto, which is faster?"),
        (99, "Efua cooked for me tonight, best groundnut soup I've ever had."),
        (106, "Any tips for packing up a flat in one weekend?"),
        (120, "First week on the buses done. The route along the river is my favourite."),
        (128, "We adopted a greyhound from the rescue, she's called Juno."),
        (135, "Lisbon was home until June, but I'm settled in Porto now, the flat is near the river."),
        (141, "Juno is scared of the stairs, how can I help her?"),
        (148, "My colleague Rui lent me his bike for the weekend."),
        (155, "Efua and I got married on Saturday! Small ceremony, just family."),
        (162, "How do I write a for loop in bash?"),
        (169, "Juno ran on the beach at Matosinhos today, she was so fast."),
        (176, "My wife's mother is visiting from Kumasi, any ideas for a day out in Porto?"),
    ),
    values=(
        Tracked("name", "What's my name?", r"\bKofi\b",
                (Stale("Inigo", r"film|movie|quote|Princess Bride|watched"),)),
        Tracked("partner", "Who is my wife?", rf"(?=.*\bEfua\b)(?:{PARTNER}|(?=.*\bmarried\b))",
                (Stale("Abena", r"divorc"),)),
        Tracked("pet", "What's my dog called?", r"(?=.*\bJuno\b)(?=.*\b(dog|greyhound|pet)\b)",
                (Stale("Bruno", r"put down|died|dead|passed away|\blate\b"), Stale("Rocky", r"Stephen|mate|friend"))),
        Tracked("job", "What's my job?", r"bus driver",
                (Stale("warehouse", r"laid off"), Stale("forklift", r"laid off"),
                 Stale("pharmacist", r"\bAma\b|sister"), Stale("railways?", r"grandad|grandfather|retired"))),
        Tracked("city", "Where do I live?", rf"(?=.*\bPorto\b){HOME}",
                (Stale("Lisbon", r"\bfrom\b|\bwas\b|\bleft\b"), Stale("Accra", r"\bAma\b|sister"),
                 Stale("Kumasi", r"mother|visiting|in-law"))),
    ),
)

MEI = Scenario(
    name="6 Mei: texting style, a step-son, a tortoise, gave up smoking, 'please always' bullet points",
    user="mei", start=datetime(2025, 6, 2, 21, 0, tzinfo=UTC),
    sessions=_s(
        (0, "hey its mei 👋 new here, my english not perfect sorry"),
        (3, "i live in rotterdam with my partner lars and his son noah, noah is 9"),
        (7, "how long i boil egg for soft? like runny inside"),
        (11, "i smoke like 10 cigarettes a day, i know its bad dont judge me 😅"),
        (16, "!please always answer me in bullet points, long paragraphs r hard to read for me"),
        (21, "we got a tortoise!! her name is Pancake, noah choose the name"),
        (26, "what salad a tortoise can eat?"),
        (31, "my sister Lin is a lawyer in Taipei, she works sooo much"),
        (37, "whats the quickest way from rotterdam to paris by train"),
        (43, "noah have football tournament saturday, what snack i pack for him"),
        (49, "lars mother is staying with us this week, she is nice but she cleans everything 🙃"),
        (55, "gave up smoking!! 5 days no cigarette, feeling crazy"),
        (61, "how to fix 'module not found' error in python, i try learn coding"),
        (67, "if me and lars ever have baby girl we call her Mila, cute no?"),
        (74, "pancake ate a strawberry and now she is red everywhere lol"),
        (81, "my stepson noah started year 6 today, he was nervous"),
        (88, "noahs friend Sem has a horse called Bliksem, we visited the stable"),
        (95, "one month no cigarettes 💪 i think i kicked it for real"),
        (103, "recipe for dumplings with pork and cabbage pls"),
        (110, "my colleague Femke says hi to pancake lol she loves tortoises"),
        (118, "does a tortoise sleep in winter? pancake is so slow lately"),
        (126, "lars handed in his notice, he start new job in january"),
        (134, "noah wants to be a pilot now, last month it was a chef 😂"),
        (142, "any idea for christmas present for a boy who loves football"),
        (150, "still not smoking, 3 months now. the money i save is crazy"),
        (158, "we set up a cold box for pancake to hibernate, is 5 degrees ok?"),
        (166, "noah teach me dutch words every evening, my dutch is getting better"),
        (174, "how do i say happy new year in dutch"),
    ),
    values=(
        Tracked("name", "whats my name?", r"\bMei\b", (Stale("Lin", r"sister|Taipei|lawyer"),)),
        Tracked("child", "what is my stepson called?",
                r"(?=.*\bNoah\b)(?=.*\b(stepson|step-son|son|child|kid|boy)\b)",
                (Stale("Mila", r"\bif\b|\bever\b|would|'d|someday|one day"),)),
        Tracked("pet", "what's my tortoise called?", r"(?=.*\bPancake\b)(?=.*\b(tortoise|pet)\b)",
                (Stale("Bliksem", r"\bSem\b|friend|stable"),)),
        Tracked("habit", "do i still smoke?",
                r"(?=.*\b(smok\w*|cigarettes?)\b)(?=.*(gave up|given up|kicked|quit|stopped|no longer|non-?smoker|"
                r"\bnot\b|n't|\bno\b))",
                (Stale("smokes", r"gave up|given up|kicked"), Stale("smoker", r"non-?smoker|gave up|kicked"),
                 Stale("cigarettes a day", r"gave up|given up|kicked"))),
        Tracked("instruction", "how should you format your answers for me?", r"\bbullet"),
    ),
)

SCENARIOS: tuple[Scenario, ...] = (KOFI, MEI)
