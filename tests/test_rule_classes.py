"""Issue 45 classes on the embedded rules, in process: names in greetings and short forms, ended
states that end a slot value, and standing instructions that become proposed rules; each with
the traps that must store nothing (moods, nationalities, other people, questions, quotes, one-offs)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memory.layers.base import LoggedMessage
from memory.layers.procedural import CUSTOM, detect_feedback
from memory.write_policy.base import CandidateFact
from memory.write_policy.grounding import ground
from memory.write_policy.pattern_extractor import PatternFactExtractor

EXTRACTOR = PatternFactExtractor()


def _msg(text: str) -> LoggedMessage:
    return LoggedMessage(id="m1", thread="t", time=datetime(2026, 1, 1, tzinfo=UTC), role="user", text=text)


def _stored(text: str) -> list[CandidateFact]:
    return ground(EXTRACTOR.extract([_msg(text)]), [_msg(text)])


def _write_rows(folder: Path, rows: list[dict[str, object]]) -> Path:
    path = folder / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _names(text: str) -> list[str]:
    return [f.value or "" for f in _stored(text) if f.key in ("name", "preferred_name")]


@pytest.mark.parametrize(("text", "name"), [
    ("I'm Marta.", "Marta"),
    ("Hola! I'm Ines, I live in Valencia and I'm a primary school teacher.", "Ines"),
    ("Olá, I'm João, I'm writing from Porto.", "João"),
    ("Hiya, Callum here, 31, chef in Leeds", "Callum"),
    ("heyy im bella lol", "Bella"),
    ("My friends call me Bea, so you can too.", "Bea"),
    ("hello!! my name is Fatima :)", "Fatima"),
])
def test_a_name_in_a_greeting_or_short_form_is_stored(text: str, name: str) -> None:
    assert _names(text) == [name]


@pytest.mark.parametrize("text", [
    "I'm not Marta, she's my sister.", "I'm exhausted.", "I'm Marta's husband, she set this up for me.",
    "I'm Spanish, from Sevilla.", "I'm Fine, thanks, and you?", "If I had a daughter I'd name her Iris.",
    "She said 'I'm Rosa, the new manager' and walked off.", "hey im bored lol",
])
def test_what_is_not_the_users_name_stores_no_name(text: str) -> None:
    assert _names(text) == []


@pytest.mark.parametrize(("text", "names"), [
    ("My name is Alexandra, but please call me Sandy.", ["Alexandra", "Sandy"]),
    ("My name is Robert but everyone calls me Bob.", ["Robert", "Bob"]),
    ("I'm Alexandra, you can call me Sandy.", ["Alexandra", "Sandy"]),
    ("Everyone calls me Sandy.", ["Sandy"]),
])
def test_a_name_then_the_name_to_use_stores_both(text: str, names: list[str]) -> None:
    assert _names(text) == names


@pytest.mark.parametrize("text", [
    "My name is Alexandra, but don't call me Sandy.", "My name is Alexandra, but call me tomorrow.",
    "Her name is Alexandra, but everyone calls her Sandy.", "If my name were Alexandra, you could call me Sandy.",
    "Can you call me Sandy?",
])
def test_a_call_me_that_is_not_the_users_preferred_name_stores_none(text: str) -> None:
    assert [f.value for f in _stored(text) if f.key == "preferred_name"] == []


@pytest.mark.parametrize(("text", "key", "value"), [
    ("I've stopped being vegetarian, I eat fish and chicken again.", "diet", "vegetarian"),
    ("I'm not pescatarian any more, back to eating everything.", "diet", "pescatarian"),
    ("I quit my job at Deloitte last week.", "employer", "Deloitte"),
    ("I left my job as a nurse.", "occupation", "nurse"),
    ("I no longer smoke.", None, "smoke"),
    ("I've stopped running since my knee surgery.", None, "running"),
    ("I used to be a nurse but not anymore.", "occupation", "nurse"),
    ("Haven't been vegan since 2021, I eat everything now.", "diet", "vegan"),
    ("I moved out of Leeds in 2020.", "location", "Leeds"),
    ("The pescatarian phase is over.", "diet", "pescatarian"),
    ("I retired from teaching.", None, "teaching"),
    ("I stopped being a smoker.", None, "smoker"),
])
def test_an_ended_state_is_a_negation(text: str, key: str | None, value: str) -> None:
    ended = [(f.key, f.value) for f in _stored(text) if f.negation_of is not None]
    assert ended == [(key, value)]


@pytest.mark.parametrize("text", [
    "If I were vegetarian I'd miss bacon too much.", "My sister stopped being vegan.",
    "Should I stop being vegetarian?", "I stopped at the shop on the way home.", "I'm not hungry anymore, thanks.",
    "I never stopped being vegetarian, people just assume.", "I quit the game halfway because it crashed.",
    "I haven't eaten meat since 2019.", "I stopped the timer, carry on.", "I left the party at midnight.",
    "I no longer remember her address.", "My brother and his wife split up.", "No more cake for me tonight, thanks.",
])
def test_what_did_not_end_for_the_user_ends_nothing(text: str) -> None:
    assert [f.text for f in _stored(text) if f.negation_of is not None] == []


@pytest.mark.parametrize(("text", "key", "value"), [
    ("I gave up meat two years ago.", None, "meat"),
    ("Honestly I'm done with Instagram.", None, "Instagram"),
    ("I'm an ex-smoker.", None, "smoker"),
    ("My drinking days are behind me.", None, "drinking"),
    ("Gluten is a thing of the past for me.", None, "Gluten"),
    ("I'm not on metformin anymore.", None, "on metformin"),
    ("I stopped going to the gym.", None, "going to the gym"),
    ("Tom and I broke up in June.", None, "with Tom"),
    ("I worked at Amazon until 2020, then went freelance.", "employer", "Amazon"),
    ("I lived in Rome till last year.", "location", "Rome"),
    ("I was laid off from my job as a chef.", "occupation", "chef"),
    ("I moved to Lisbon from Porto in August.", "location", "Porto"),
    ("Cardiff is no longer home, we moved to Bristol.", "location", "Cardiff"),
])
def test_an_ending_said_another_way_is_a_negation(text: str, key: str | None, value: str) -> None:
    """Classes of phrasing, not rows: each is brought to a clause the ending table reads (ending_forms.py)."""
    ended = [(f.key, f.value) for f in _stored(text) if f.negation_of is not None]
    assert ended == [(key, value)]


@pytest.mark.parametrize(("text", "values"), [
    ("Deleted Snapchat and quit Reddit.", ["Snapchat", "Reddit"]),
    ("I cancelled my gym membership last week.", ["have my gym membership"]),
    ("Our cat Mittens passed away last month.", ["have my cat Mittens"]),
])
def test_things_had_and_two_endings_in_one_clause(text: str, values: list[str]) -> None:
    assert [f.value for f in _stored(text) if f.negation_of is not None] == values


@pytest.mark.parametrize("text", [
    "I'm done with the dishes, now what?", "I gave up my seat on the bus.", "I left my phone on the bus.",
    "I quit the app and restarted it.", "I stopped laughing.", "I don't need the recipe anymore, thanks.",
    "I don't want to be a lawyer anymore.", "We moved to Leeds from London for a week.", "Tom and I split a pizza.",
    "I cancelled Christmas this year lol", "My subscription was cancelled by mistake.", "I'm off to Spain next week.",
    "My husband retired from the army last year.", "I'm not on the phone anymore.", "pausing my gym membership",
])
def test_moments_wishes_visits_and_others_end_nothing(text: str) -> None:
    assert [f.text for f in _stored(text) if f.negation_of is not None] == []


@pytest.mark.parametrize(("text", "rule"), [
    ("Don't use exclamation marks in your replies.", "Don't use exclamation marks in your replies."),
    ("Stop using exclamation marks.", "Stop using exclamation marks."),
    ("Always answer in British English.", "Always answer in British English."),
    ("Never suggest recipes with mushrooms.", "Never suggest recipes with mushrooms."),
    ("Never recommend anything with peanuts — I'm allergic.", "Never recommend anything with peanuts."),
    ("I'd like you to always address me formally.", "Always address me formally."),
    ("OK new rule: no more than three suggestions at a time.", "No more than three suggestions at a time."),
])
def test_a_standing_instruction_is_a_proposed_rule(text: str, rule: str) -> None:
    assert [(f.topic, f.rule) for f in detect_feedback(_msg(text))] == [(CUSTOM, rule)]


@pytest.mark.parametrize("text", [
    "Don't make it too long this time.", "Don't forget to remind me about the dentist tomorrow.",
    "My boss always says 'never use exclamation marks in emails'.", "Why do you never use emojis?",
    "I never eat mushrooms.", "Never mind, I figured it out.", "Stop the timer.", "Don't worry about it.",
])
def test_a_question_quote_habit_or_one_off_is_no_rule(text: str) -> None:
    assert detect_feedback(_msg(text)) == []


def test_the_eval_scores_one_batch_by_its_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bench.rule_classes_eval import main

    rows = [{"id": f"rc-{n:03d}", "text": t, "class": "ended", "split": "heldout", "expect": e}
            for n, t, e in [(1, "I no longer smoke.", [{"ends": "smoke"}]), (2, "My sister stopped being vegan.", []),
                            (3, "I'm not vegan anymore.", [{"ends": "vegan"}])]]
    path = _write_rows(tmp_path, rows)
    main(["--set", str(path), "--from-id", "2"])
    assert "ids 2..end (2 messages)" in capsys.readouterr().out
    main(["--set", str(path), "--to-id", "1", "--split", "heldout"])
    out = capsys.readouterr().out
    assert "ids 0..1 (1 messages)" in out and "tp 1 fp 0 fn 0  (1 messages, 0 traps)" in out
