"""Ended states read off the dependency parse (``memory/write_policy/ending_parse.py``), in phrasings
written for this reader before it was tuned, and the look-alikes that end nothing."""

from __future__ import annotations

import pytest

from bench.rule_classes_eval import stored_candidates
from memory.write_policy import ending_parse
from memory.write_policy.parse import pipeline


def _ended(text: str) -> list[str]:
    return [" ".join(filter(None, (f.value, f.text, f.negation_of))).lower() for f in stored_candidates(text)
            if f.negation_of is not None]


needs_parse = pytest.mark.skipif(pipeline() is None, reason="no spaCy pipeline")

ENDED = [
    ("My Vespa I have sold to a neighbour.", "vespa"),
    ("We finally sold the caravan last spring.", "caravan"),
    ("Sold my old Corolla to my brother in law.", "corolla"),
    ("I've rehomed both of my rabbits.", "rabbits"),
    ("We rehomed our greyhound Bella in March.", "greyhound"),
    ("I gave away my three cats when I moved in with my gran.", "cats"),
    ("Traded in the Honda for an electric one.", "honda"),
    ("I got rid of my motorbike after the crash.", "motorbike"),
    ("I finally got rid of my Peloton.", "peloton"),
    ("The allotment we gave up in the autumn.", "allotment"),
    ("I have discontinued my evening walks since the injury.", "walks"),
    ("my yoga classes i have stopped since the baby came", "yoga"),
    ("I have finally given up the cigars.", "cigars"),
    ("Gave up the pipe two winters ago.", "pipe"),
    ("I kicked the vaping habit in May.", "vaping"),
    ("I unsubscribed from Spotify premium.", "spotify"),
    ("I deactivated my Twitter account for good.", "twitter"),
    ("We cancelled our Sky package in the summer.", "sky"),
    ("I closed my Monzo account.", "monzo"),
    ("I came off the sertraline in February.", "sertraline"),
    ("I dropped out of my nursing course.", "nursing"),
    ("I resigned from Barclays after eight years.", "barclays"),
    ("I retired from the fire service in 2021.", "fire service"),
    ("I've retired from coaching.", "coach"),
    ("I moved away from Glasgow when I was 30.", "glasgow"),
    ("we moved out of Hackney last year", "hackney"),
    ("Priya and I split up over the summer.", "priya"),
    ("I broke up with Marco a few weeks ago.", "marco"),
    ("I split from my husband in 2022.", "husband"),
    ("i am not vegan any more", "vegan"),
    ("I am no longer a member of the choir.", "choir"),
    ("we dont have the cat anymore", "cat"),
    ("I don't keep chickens any longer.", "chickens"),
    ("I have quit the band.", "band"),
    ("I quit my Saturday job at the garden centre.", "garden centre"),
    ("Quit Facebook back in 2019.", "facebook"),
    ("I stopped my piano lessons last year.", "piano"),
    ("I ditched my gym membership.", "gym"),
    ("We sold our flat in Bristol.", "bristol"),  # the regexes end the address; the parse adds nothing
    ("I have given up my allotment plot.", "allotment"),
    ("Left the Navy in 2015 after twelve years.", "navy"),
    ("I've stopped the running club, my knees can't take it.", "running club"),
]

TRAPS = [
    "I stopped the timer when the pasta was done.",
    "I left my keys on the bus.",
    "I left the party early.",
    "I quit the game halfway because it was boring.",
    "I sold the tickets I didn't need.",
    "My brother sold his car last week.",
    "My sister quit smoking.",
    "Should I sell my car?",
    "Did you sell your car?",
    "I might sell my car next year.",
    "I'm going to quit my job.",
    "I want to give up sugar.",
    "If I quit my job, what happens to my pension?",
    "I'm thinking about quitting the gym.",
    "I never sold my bike.",
    "I didn't quit smoking, I just cut down.",
    "She said I quit too easily.",
    "Sell my car for me on eBay.",
    "Please cancel my appointment tomorrow.",
    "I cancelled the meeting with the landlord.",
    "I deleted my last message by mistake.",
    "I deleted the photo.",
    "I stopped to buy milk on the way home.",
    "I stopped at the petrol station.",
    "I left the office at six.",
    "I gave away the ending of the film, oops.",
    "I gave up on the crossword today.",
    "I closed the window because it was cold.",
    "I dropped my phone in the sink.",
    "I moved the sofa into the spare room.",
    "I broke up the fight between the kids.",
    "We split the bill at dinner.",
    "I came off the motorway at junction 4.",
    "I'm not hungry anymore.",
    "I'm not sure anymore.",
    "My dad doesn't drive anymore.",
    "I almost quit my job last week.",
    "I tried to quit smoking but failed.",
    "\"I quit!\" he shouted.",
    "I sold a few old books at the car boot sale.",
    "I quit for the day, too tired.",
    "I stopped my car at the lights.",
    "I gave my dog a bath.",
    "I retired early to bed last night.",
    "I would never give up chocolate.",
]

# Written after the first round of tuning, as a second check on phrasings the reader had not seen.
ENDED_LATER = [
    ("we've given away our old piano", "piano"),
    ("I have resigned from the council.", "council"),
    ("The gym membership I cancelled in January.", "gym"),
    ("I finally deleted my Tinder profile.", "tinder"),
    ("I quit the church choir.", "choir"),
    ("Rehomed the rabbits before we moved.", "rabbits"),
    ("I've discontinued my blood pressure tablets.", "tablets"),
    ("We don't keep bees anymore.", "bees"),
    ("Broke up with my girlfriend Lena last week.", "girlfriend"),
    ("I unsubscribed from the Guardian.", "guardian"),
]

TRAPS_LATER = [
    "I quit every time it gets hard.", "The one I sold was the blue one.", "Sold!", "We sold out the gig in an hour.",
    "I gave away the answer too soon.", "I dropped my daughter at the station.", "I dropped the class project.",
    "We split the pizza.", "I moved out of the way.", "I left Tom a voicemail.", "Left Tom a message earlier.",
    "I stopped Tom from falling.", "I deleted the app by accident and reinstalled it.",
    "I gave up my Saturday to help.", "My husband and I split the chores.", "I traded in my points for a voucher.",
    "I got rid of the wasps in the loft.", "I came off my bike yesterday.", "I retired the old laptop.",
    "I sold my soul to this project lol", "I cancelled the order from Amazon.", "I resigned myself to it.",
    "we don't have any milk anymore", "I'm not at my desk anymore, text me.", "We gave up our seats for an elderly couple.",
    "I kicked the ball over the fence.", "Gave up on the diet halfway through dinner lol", "Broke up a fight at the pub.",
    "Me and Sarah split the cost.", "Our neighbours sold their caravan.", "We rehomed a kitten from the shelter yesterday.",
    "Left the house at 7 this morning.", "I unsubscribed from that newsletter.", "I deleted my old messages.",
    "We moved away from the window because of the draught.", "I sold him my old textbooks.",
]


@needs_parse
@pytest.mark.parametrize(("text", "word"), ENDED + ENDED_LATER)
def test_a_fresh_phrasing_of_an_ending_ends_it(text: str, word: str) -> None:
    found = _ended(text)
    assert any(word in f for f in found), (text, found)


@needs_parse
@pytest.mark.parametrize("text", TRAPS + TRAPS_LATER)
def test_a_look_alike_ends_nothing(text: str) -> None:
    assert _ended(text) == [], text


def test_without_a_parse_the_reader_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ending_parse, "doc_of", lambda text: None)
    assert ending_parse.parsed_endings("My Vespa I have sold to a neighbour.") == []
