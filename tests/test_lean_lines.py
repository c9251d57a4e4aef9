"""The lean memory block, line by line: an episode is shown without the lines the prompt already
says, and nothing is shown that only asks (a past question holds no answer)."""

from __future__ import annotations

from memory.prompt import select_within_budget


def item(kind: str, text: str, score: float, sources: tuple[str, ...] = (), key: str = "k") -> dict:
    return {"kind": kind, "text": text, "score": score, "sources": list(sources), "key": key, "meta": {}}


BERLIN = item("profile", "The user lives in Berlin.", 1.0, ("p1",), "location")


def shown(*recalled: dict) -> list[str]:
    return [k["text"] for k in select_within_budget(list(recalled), 800)]


def test_an_episode_is_shown_without_the_line_the_profile_says() -> None:
    episode = item("episode", "User: I won a pub quiz with my colleagues.\nUser: I live in Berlin now.", 0.9,
                   ("m1", "m2"), "e1")
    assert shown(BERLIN, episode) == ["User: I won a pub quiz with my colleagues."]


def test_a_line_another_line_says_in_full_is_shown_once() -> None:
    rollup = item("episode", "January 2025:\nWeek 2025-W02 (06 Jan–12 Jan 2025):\nUser: I live in Paris.\n"
                  "Week 2025-W04 (20 Jan–26 Jan 2025):\nUser: I live in Paris, near the canal.", 0.9, ("m1", "m2"))
    assert shown(rollup) == ["January 2025:\nWeek 2025-W04 (20 Jan–26 Jan 2025):\nUser: I live in Paris, near the canal."]


def test_a_line_shown_in_one_episode_is_not_shown_again_in_another() -> None:
    week = item("episode", "Week 2025-W22 (26 May–01 Jun 2025):\nUser: I repainted the bathroom turquoise.", 0.9,
                ("m9",), "w22")
    month = item("episode", "May 2025:\nWeek 2025-W22 (26 May–01 Jun 2025):\nUser: I repainted the bathroom "
                 "turquoise.\nWeek 2025-W21 (19 May–25 May 2025):\nUser: I went hiking in the Harz.", 0.8,
                 ("m1", "m0"), "may")
    assert shown(week, month) == [week["text"], "May 2025:\nWeek 2025-W21 (19 May–25 May 2025):\n"
                                                "User: I went hiking in the Harz."]


def test_a_rollup_whose_only_line_the_profile_says_is_not_shown_as_a_bare_title() -> None:
    rollup = item("episode", "Week 2025-W25 (16 Jun–22 Jun 2025):\nUser: I live in Berlin now.", 0.9, ("m1",))
    assert shown(BERLIN, rollup) == []


def test_an_episode_left_with_only_requests_is_not_shown() -> None:
    episode = item("episode", "User: I live in Berlin now.\nUser: Can you recommend a film?", 0.9, ("m1",), "e1")
    small_talk = item("episode", "User: Tell me a joke.\nUser: What day is it?", 0.8, ("m2",), "e2")
    told = item("episode", "User: I adopted a kitten called Miso.\nUser: What should I feed her?", 0.7,
                ("m3",), "e3")
    assert shown(BERLIN, episode, small_talk, told) == [told["text"]]


def test_a_past_message_that_only_asks_is_not_shown_one_that_also_tells_is() -> None:
    asked = item("message", "[23 June 2025] user: Where did I live before?", 0.9, ("m1",), "m1")
    told = item("message", "[2 May 2025] user: I moved to Berlin in May. Any tips for the U-Bahn?", 0.8,
                ("m2",), "m2")
    assert shown(asked, told) == [told["text"]]
