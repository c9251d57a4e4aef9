"""bench/people_sim.py: the scorer reads current and stale values the way it says, and one six-month
scenario, played through the real CLI in process, keeps at least 4 of its 5 values current with none stale
(issue 45's bar)."""

from __future__ import annotations

from pathlib import Path

from bench.people_sim import prompt_lines, records, run_scenario, stale_lines
from bench.people_world import DANIEL, Stale


def test_a_stale_word_counts_only_where_it_is_shown_as_current() -> None:
    lines = ["The user is vegetarian.", "The user is no longer vegetarian.", "The user's friend Kuba is vegetarian.",
             "The user stopped being vegetarian."]
    assert stale_lines(Stale("vegetarian", r"Kuba|friend"), lines) == ["The user is vegetarian."]
    assert stale_lines(Stale("night shift"), ["The user works the night-shift."]) == ["The user works the night-shift."]


def test_only_the_current_blocks_of_the_prompt_and_the_current_records_are_read() -> None:
    shown = ('x\n----- system prompt -----\n<memories kind="profile">\n# p\n- "The user is vegan."\n</memories>\n\n'
             '<memories kind="message">\n# m\n- "user: I am vegetarian."\n</memories>\n----- end of prompt -----\n')
    assert prompt_lines(shown) == ['- "The user is vegan."']
    export = {"profile": {"current": [{"text": "The user lives in Leeds.", "value": {}}],
                          "history": [{"text": "The user lives in York.", "value": {}}]},
              "facts": [{"text": "The user's dog is Rex.", "value": {"kind": "person"}}], "rules": [],
              "episodes": [{"text": "York", "value": {}}], "people": [{"text": None, "value": {"name": "Marta"}}]}
    kept, people = records(export)
    assert kept == ["The user lives in Leeds.", "The user's dog is Rex.", "name: Marta"]
    assert people == 2


def test_six_months_of_daniel_keep_four_of_five_values_current_and_none_stale(tmp_path: Path) -> None:
    score = run_scenario(DANIEL, tmp_path)
    missed = [v.tracked.slot for v in score.values if not v.current]
    stale = {w: lines for v in score.values for w, lines in v.stale.items()}
    assert score.current >= 4 and score.stale == 0, f"missed {missed}, stale {stale}"
