"""Ended states said in regional idiom, as a past set against now, or as the reason for a request
(``memory/write_policy/ending_idioms.py``), and the look-alikes that end nothing."""

from __future__ import annotations

import pytest

from bench.rule_classes_eval import stored_candidates


def _ended(text: str) -> list[str]:
    return [" ".join(filter(None, (f.value, f.negation_of))).lower() for f in stored_candidates(text)
            if f.negation_of is not None]


@pytest.mark.parametrize(("text", "word"), [
    ("I packed in my job at the council last month.", "council"),
    ("I jacked in the gym, it was too expensive.", "gym"),
    ("Chucked the fags in January, feeling great.", "fags"),
    ("I've knocked the booze on the head.", "booze"),
    ("I'm off the cigarettes now.", "cigarettes"),
    ("I handed in my resignation at Barclays on Friday.", "barclays"),
    ("I stepped down as treasurer.", "treasurer"),
    ("I left teaching after 15 years.", "teach"),
    ("I've lapsed as a Catholic.", "catholic"),
    ("I'm no more in Bangalore, I shifted to Pune.", "bangalore"),
    ("We relocated from Lagos to Abuja last year.", "lagos"),
    ("We've left Melbourne and moved to Perth.", "melbourne"),
    ("I was at Deloitte until March.", "deloitte"),
    ("I was a smoker until 2019.", "smoker"),
    ("I was a teacher, now I'm in sales.", "teacher"),
    ("used to be a nurse but now i work in IT", "nurse"),
    ("I used to live in Manchester but now I live in Bristol.", "manchester"),
    ("I'm retired now, I used to be an engineer.", "engineer"),
    ("Since I don't drive anymore, what's the best way to get to Leeds?", "drive"),
    ("i stoped eating meat last year", "meat"),
    ("Used to smoke but quit 5 years ago.", "smoke"),
    ("Was a vegetarian for years, not anymore.", "vegetarian"),
    ("I don't stay in Abuja again, I relocated to Lagos.", "abuja"),
    ("I closed my Etsy shop.", "shop"),
    ("I'm not in Mumbai anymore.", "mumbai"),
    ("we had to rehome our cat Biscuit when we moved, so no pets now", "biscuit"),
    ("Sold my horse Duchess in the spring.", "duchess"),
    ("Since I'm not at university anymore I can't get the discount, any other deals?", "university"),
    ("used to live in dubai but moved back to kerala last year", "dubai"),
    ("not playing netball anymore since I did my ACL, what else can I do?", "netball"),
    ("quit caffeine completely in september, headaches are gone", "caffeine"),
    ("I was living in Nairobi until 2021.", "nairobi"),
    ("I used to be on insulin, but now I manage with diet.", "insulin"),
    ("I used to be married, now I'm divorced.", "married"),
    ("ok so basically I don't eat meat anymore and I need some high protein dinner ideas", "meat"),
    ("I gave up my car last year.", "car"),
    ("I've stopped my antidepressants.", "antidepressants"),
    ("My gym membership I have cancelled, too pricey.", "gym membership"),
    ("Spotify I deleted last week, I listen to the radio now.", "spotify"),
    ("I don sell my car, we use Bolt now.", "car"),
    ("I am not more in the university of Lagos, I moved to Unilag.", "lagos"),
    ("I'm no more in relationship with Kemi.", "kemi"),
    ("After six years in Leeds we relocated to York.", "leeds"),
    ("Finished my apprenticeship in June so no longer a trainee.", "trainee"),
    ("I graduated so no longer a student.", "student"),
    ("moved out of hackney in may, loving the quiet", "hackney"),
    ("Did I tell you I gave up coffee?", "coffee"),
    ("stopped taking my iron tablets in march, do I need a blood test?", "iron tablets"),
    ("We downsized and sold the caravan.", "caravan"),
    ("my bakery is closed now, I work from home", "bakery"),
    ("dropped out of college last spring", "college"),
    ("I used to volunteer at the animal shelter on Saturdays but stopped when I changed jobs.", "animal shelter"),
    ("sam and i split up last month", "sam"),
    ("I cancelled spotify, was paying too much", "spotify"),
    ("I cancelled my subscription to The Times.", "times"),
    ("I stopped eating meat after the first lockdown.", "meat"),
])
def test_an_idiomatic_or_contrasted_ending_is_a_negation(text: str, word: str) -> None:
    ended = _ended(text)
    assert ended and any(word in e for e in ended), ended


@pytest.mark.parametrize("text", [
    "I packed my bags for the trip.",
    "My brother packed in his job.",
    "I'm thinking of jacking in the gym.",
    "I was a bit tired, now I'm fine.",
    "I was at the gym until 8.",
    "I was in London until Tuesday.",
    "If I don't drive anymore, what should I do?",
    "Since my mum doesn't drive anymore, what's the best taxi app?",
    "I knocked my head on the door.",
    "I'm off the phone now.",
    "I handed in my essay.",
    "I'm going to hand in my notice next week.",
    "I left teaching materials on the desk.",
    "We relocated the office to the second floor.",
    "I used to be scared of dogs but now I love them.",
    "I used to go there a lot, now not so much.",
    "I haven't had a drink since Friday.",
    "I'm no more than 5 minutes away.",
    "She used to be a nurse but now she works in IT.",
    "I chucked the drink at him.",
    "We left Paris and moved to the hotel.",
    "I used to drink tea as a kid, now I drink it every day.",
    "I closed my shop early today.",
    "I don't want to do that again.",
    "Quit using jargon in your answers.",
    "I was living in Nairobi until I was 5.",
    "I used to be on the phone all day, now I'm not.",
    "My dad used to be a chef, now he's retired.",
    "ok so basically if I don't eat meat anymore will I lose weight",
    "I'm not going anymore, what should I tell them?",
    "Abeg, I don tire for this traffic.",
    "Tom I deleted from my contacts.",
    "My essay I have finished, can you check it?",
    "Did I tell you I might move to Leeds?",
    "Did you know my sister stopped smoking?",
    "After a week in Rome we moved to a different hotel.",
    "my dog and i broke up the fight",
    "My business is over the moon with the results.",
    "so no longer a problem, thanks",
    "It rained so no longer a problem.",
    "I traded in my old phone for a new one.",
    # one-off acts, pauses, hedges and errands that look like endings
    "I left my bike outside the shop",
    "I quit Twitter for a week",
    "I ditched the plan to go to Spain",
    "I've left the washing out",
    "I closed the account for my mum",
    "I stopped taking notes after the first lecture",
    "I don't think I'm vegan anymore, not sure",
])
def test_a_look_alike_of_an_idiom_ends_nothing(text: str) -> None:
    assert _ended(text) == []
