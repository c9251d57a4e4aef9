"""A roll-up under a retention limit loses its old lines one by one, and goes when none is left."""

from __future__ import annotations

from datetime import UTC, datetime

from memory.privacy.retention_summaries import pruned_rollup

MONTH = {
    "text": "February 2025:\nWeek 2025-W06 (03 Feb–09 Feb 2025):\nUser: I adopted a dog.\n"
            "Week 2025-W08 (17 Feb–23 Feb 2025):\nUser: I started pottery.\nUser: The kiln is hot.",
    "level": "month", "start": "2025-02-01T00:00:00+00:00", "time": "2025-02-21T10:00:00+00:00",
    "keywords": ["dog", "pottery", "kiln"],
    "line_times": ["2025-02-09T10:00:00+00:00", "2025-02-04T10:00:00+00:00", "2025-02-23T10:00:00+00:00",
                   "2025-02-18T10:00:00+00:00", "2025-02-21T10:00:00+00:00"],
}


def test_lines_go_with_their_newest_source_and_a_heading_with_its_last_line() -> None:
    pruned = pruned_rollup(MONTH, datetime(2025, 2, 20, tzinfo=UTC))
    assert pruned is not None
    assert pruned["text"] == "February 2025:\nWeek 2025-W08 (17 Feb–23 Feb 2025):\nUser: The kiln is hot."
    assert pruned["keywords"] == ["kiln"] and pruned["time"] == "2025-02-21T10:00:00+00:00"
    assert len(pruned["line_times"]) == 2
    assert pruned_rollup(MONTH, datetime(2025, 2, 1, tzinfo=UTC)) is MONTH  # nothing old: unchanged
    assert pruned_rollup(MONTH, datetime(2025, 3, 1, tzinfo=UTC)) is None  # no line left: deleted


def test_a_roll_up_whose_lines_are_not_all_dated_is_deleted_whole() -> None:
    """Every roll-up is written with ``line_times``; an undated line cannot be shown to be within the limit."""
    undated = {k: v for k, v in MONTH.items() if k != "line_times"}
    assert pruned_rollup(undated, datetime(2025, 2, 10, tzinfo=UTC)) is None
    assert pruned_rollup({**MONTH, "line_times": MONTH["line_times"][:-1]}, datetime(2025, 2, 1, tzinfo=UTC)) is None
