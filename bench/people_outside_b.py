"""Scenarios 7 and 8 of ``bench/people_sim.py``, written by a second outside hand and held back.

They were written by a helper that read no rule code, no rule data and no earlier results, and were
committed before they were ever run: they are held back for one measurement once the rules are final, and
like 1-6 they are not to be edited to fit the rules. They add what 1-6 do not: a widower who writes in
formal business English and starts seeing someone, a son leaving for university, a career change through
an evening course, a standing instruction that replaces an earlier one ("thorough, detailed answers", then
"under 100 words"), a colleague's divorce, a narrator in a novel; and a user who texts tersely with typos,
a boyfriend who becomes a fiancé, a short-lived keto diet, a coeliac diagnosis, a move abroad for work, a
kitten adopted and named a few days later (after a rejected name), a hypothetical cat name, a friend's new
job abroad and a quote on a print. Filler sessions (letters, spreadsheets, recipes, language) sit in
between. The shape (Scenario, Tracked, Stale, ``!`` for a standing instruction) is
``bench/people_world.py``'s.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bench.people_world import HOME, PARTNER, Scenario, Stale, Tracked, _s

AUGUSTIN = Scenario(
    name="7 Augustin: formal widower starts seeing someone, son to university, accountant retrains, 100 words",
    user="augustin", start=datetime(2025, 8, 18, 9, 0, tzinfo=UTC),
    sessions=_s(
        (0, ("Good morning. Allow me to introduce myself: Augustin Farrow, of Edinburgh.",
             "I intend to use this service for correspondence and household matters.")),
        (2, "By way of background, I am a chartered accountant with a shipping firm in Leith, and have been for "
            "twenty-six years."),
        (4, "!I would be grateful if you would give me thorough, detailed answers; I prefer to understand a matter "
            "fully."),
        (7, "My wife, Hanne, passed away three years ago this October. The house has been very quiet since."),
        (10, ("My son Felix leaves for university in Aberdeen next week; he is to read marine biology.",
              "Kindly suggest what a first-year student ought to take with him.")),
        (13, "Could you draft a short, formal letter to the council regarding a missed bin collection?"),
        (17, "Felix has gone. I drove him up to Aberdeen on Saturday and the house is quieter still."),
        (21, "My daughter Astrid, who lives in Bergen, rang this evening to ask how I am coping."),
        (26, "What is the correct spreadsheet formula to add twenty per cent VAT to a figure in cell B2?"),
        (31, ("A former colleague, Duncan, tells me that he and his wife Isobel are divorcing, and that their son "
              "Magnus is taking it badly.", "How might I best support him?")),
        (36, "I have joined a community choir on Tuesday evenings, at my daughter's suggestion."),
        (41, "I have enrolled in an evening course in furniture restoration at the college. It begins next month."),
        (47, "I am reading The Remains of the Day. The narrator, Stevens, is a butler who cannot bring himself to "
             "say what he feels; I found it rather close to home."),
        (53, "What is the best method for removing white water rings from a varnished oak table?"),
        (59, "I have, somewhat to my own surprise, begun seeing someone. Her name is Colette; we met at the choir."),
        (64, "Felix telephoned last night. He has found his feet in Aberdeen and has joined the sailing club."),
        (70, "I have handed in my notice at the shipping firm. After twenty-six years of ledgers, I find I would "
             "rather work with my hands."),
        (76, ("Colette is a cellist with a chamber orchestra.",
              "Could you recommend a recording of the Elgar cello concerto for her?")),
        (83, "!From now on, please keep your answers under 100 words. I read them on my telephone and long replies "
             "tire me."),
        (90, "Is it 'fewer' or 'less' when one refers to a number of chairs?"),
        (97, "The course tutor has said that my French polishing is the best in the group. I confess I was pleased."),
        (104, "Kindly provide a recipe for cullen skink for four people."),
        (112, "I am now working as a furniture restorer, in a small workshop in Portobello. It suits me far better "
              "than accountancy ever did."),
        (120, "Felix is home for the Christmas vacation and has met Colette for the first time. It went well."),
        (127, "Colette and I have decided to make things official; she is my partner, and both of my children "
              "approve."),
        (135, "On what would have been Hanne's birthday I walked in the Botanic Garden, where we used to go together."),
        (142, "What finish would you recommend for a Georgian mahogany bureau that a client has brought in?"),
        (150, "Duncan's divorce was finalised this week; I took him out for a dram."),
        (158, "Colette and I are going to Vienna in May for a concert. What should we not miss?"),
        (166, "How long should I allow for shellac to harden between coats in a cold workshop?"),
        (175, "Colette has suggested we spend Easter with Astrid in Bergen. Is the crossing by ferry practical?"),
    ),
    values=(
        Tracked("name", "What is my name?", r"\bAugustin\b",
                (Stale("Stevens", r"novel|narrator|butler|book|Remains|Ishiguro|character|reading"),)),
        Tracked("partner", "Who is my partner?", rf"(?=.*\bColette\b)(?:{PARTNER}|(?=.*\b(couple|official)\b))",
                (Stale("Hanne", r"late|passed|died|death|widow|lost|memory|would have been|birthday"),
                 Stale("Isobel", r"Duncan|colleague|divorc"))),
        Tracked("child", "What is my son's name?", r"(?=.*\bFelix\b)(?=.*\b(son|child|children)\b)",
                (Stale("Magnus", r"Duncan|colleague|Isobel"),)),
        Tracked("job", "What do I do for a living?", r"\brestorer\b",
                (Stale("accountant", r"Duncan|colleague"), Stale("shipping firm", r"Duncan|colleague|notice|left"),
                 Stale("cellist", r"Colette|orchestra"))),
        Tracked("instruction", "How long should your answers to me be?", r"\b(100|one hundred|a hundred)\s+words\b",
                (Stale("thorough"), Stale("detailed answers"))),
    ),
)

NIAMH = Scenario(
    name="8 Niamh: terse typos, boyfriend to fiancé, keto then coeliac, moves abroad for work, kitten named later",
    user="niamh", start=datetime(2025, 1, 13, 22, 0, tzinfo=UTC),
    sessions=_s(
        (0, "hiya. im niamh btw, 27, live in bristol w my bf callum"),
        (2, "wat temp do i bake sourdough at"),
        (5, "on keto rn, day 4, dying for toast lol"),
        (9, "excel q: how do i make a dropdown list in a cell"),
        (13, "quit keto. felt awful n grumpy all week, carbs r back"),
        (18, "if we ever get a cat im calling it noodle. non negotiable"),
        (23, "my sis orla's bf declan is a chef, he did a pop up last nite, so good"),
        (28, "whats a nice bday present for my mum, shes into gardening"),
        (33, "my mate tash is doing paleo now, wont shut up abt it"),
        (38, "been so bloated n tired for weeks, gp did bloods today"),
        (44, "results back. im coeliac 😩 so gluten free from now on, forever. cant believe it"),
        (49, "gluten free pancake recipe pls, simple one"),
        (55, "big news, got offered a job in copenhagen!! ux lead at a fintech. callum says go for it"),
        (61, "ran into my ex ryan at the station. awkward af"),
        (66, "how cold is copenhagen in april"),
        (72, "tash got a job in dubai too, everyone leaving bristol lol"),
        (79, "omg callum propsed on the harbourside!!! were engaged 💍😭"),
        (85, "how do u say thank you in danish"),
        (92, "moved to copenhagen last wk!! flat in norrebro, boxes everywhere"),
        (98, "got a print for the flat that says 'paris is always a good idea' lol callum hates it"),
        (104, "we got a kitten!! tabby, tiny, no name yet. ideas?"),
        (108, "callum wanted to call her mochi, vetoed. weve named the kitten sesame 🐱"),
        (115, "is it ok for sesame to eat a bit of tuna"),
        (121, "gluten free bakeries in copenhagen? i miss proper bread"),
        (128, "hows best to learn danish fast, is duolingo enough"),
        (135, "declan n orla split up, shes staying w mum in bristol for a bit"),
        (142, "wedding venue ideas in bristol? want it back home for the fam"),
        (149, "sesame climbed the curtains again, how do i stop her"),
        (156, "fiance callum is making gluten free lasagne tonight, hes a keeper"),
        (163, "pls write a short msg to my team saying im off fri"),
        (170, "sesame had her jabs today, vet says shes healthy"),
        (177, "whats a good gluten free cake for a engagement party"),
    ),
    values=(
        Tracked("name", "whats my name", r"\bNiamh\b", (Stale("Orla", r"\bsis\b|sister|Declan"),)),
        Tracked("partner", "who am i engaged to",
                rf"(?=.*\bCallum\b)(?:{PARTNER}|(?=.*\b(fianc\w*|engaged|engagement|proposed|propsed)\b))",
                (Stale("Ryan", r"ran into|station"), Stale("Declan", r"Orla|\bsis\b|sister|chef|split"))),
        Tracked("pet", "whats my kitten called", r"(?=.*\bSesame\b)(?=.*\b(cat|kitten|pet|tabby)\b)",
                (Stale("Noodle", r"\bif\b|\bever\b|would|'d|calling it"),
                 Stale("Mochi", r"wanted|vetoed|suggest|instead|rather"))),
        Tracked("diet", "is there anything i cant eat",
                r"gluten[- ]?free|coeliac|celiac|\b(avoid\w*|no|without|cannot|can't|cant)\s+(eat\s+)?gluten",
                (Stale("keto", r"quit|dropped|gave up|stopped|felt awful"), Stale("paleo", r"Tash|mate|friend"))),
        Tracked("city", "where do i live", rf"(?=.*\bCopenhagen\b){HOME}",
                (Stale("Bristol", r"\bfrom\b|\bleft\b|leaving|\bmum\b|mother|back home|wedding|Orla|\bsis\b|"
                                  r"sister|visit|family|\bfam\b"),
                 Stale("Dubai", r"Tash|mate|friend"), Stale("Paris", r"quote|print|poster|idea|says"))),
    ),
)

SCENARIOS: tuple[Scenario, ...] = (AUGUSTIN, NIAMH)
