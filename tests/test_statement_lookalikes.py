"""What reads like a statement but is not the user's (a texted question, a pronoun for a value, a
person "home for the holidays"), and news said inside a question, through the rule extractor."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.layers.base import LoggedMessage
from memory.write_policy.pattern_extractor import PatternFactExtractor

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def user(mid: str, text: str) -> LoggedMessage:
    return LoggedMessage(id=mid, thread="t1", time=T0, role="user", text=text)


@pytest.mark.parametrize(("text", "unwanted"), [
    ("wat temp do i bake sourdough at", "sourdough"),            # a question texted without its "?"
    ("how do i get to the station from here", "station"),
    ("Felix is home for the Christmas vacation.", "lives in"),   # a person back home, not a city
    ("We met in 2019 and she is my partner now.", "is she"),     # a pronoun is no value
])
def test_what_is_not_a_statement_of_the_user_stores_nothing_of_it(text: str, unwanted: str) -> None:
    facts = PatternFactExtractor().extract([user("m1", text)])
    assert not any(unwanted in f.text for f in facts), [f.text for f in facts]


@pytest.mark.parametrize(("text", "wanted"), [
    ("Lisbon is home now.", "Lisbon"),
    ("Did I tell you I stopped eating meat?", "meat"),
    ("stopped taking the pill in jan, what's normal after coming off it?", "pill"),
])
def test_news_inside_a_question_or_a_home_is_still_read(text: str, wanted: str) -> None:
    facts = PatternFactExtractor().extract([user("m1", text)])
    assert any(wanted in f.text for f in facts), [f.text for f in facts]
