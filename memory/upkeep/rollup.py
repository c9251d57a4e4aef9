"""Step 3: roll old episodes up into weekly, then monthly summaries that cite them.

Episodes older than ``upkeep_rollup_days`` are grouped by ISO week into one
extractive summary per week (sentences copied, never rewritten, so names and
dates stay verbatim); weeks are grouped by the month they start in. A roll-up
carries what the user told, each line once: questions and requests to the
assistant are left out (memory/chatter.py), and a week of small talk only
gets no roll-up. A roll-up
is stored in the episodes namespace, so episodic recall finds it like any
episode, under a deterministic key (``week-2025-W07``, ``month-2025-02``): a
rerun rewrites nothing, and a killed pass never leaves two. It cites what it
sums up (``cites``: episode or week keys) and carries their message ids as
``sources``, so forgetting a message reaches its roll-ups too. The originals
are kept until they expire; weekly roll-ups expire like episodes, monthly ones
stay. Each body line carries the time of the newest source it quotes
(``line_times``), so a retention limit (memory/privacy/retention.py) expires a
roll-up line by line.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from langgraph.store.base import Item

from memory.chatter import told_lines
from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.layers.identifiers import extractive_summary
from memory.upkeep.items import all_items, pause, union
from memory.upkeep.report import StepReport
from stores.namespaces import EPISODES

WEEK_WORDS = 120
MONTH_WORDS = 160
WEIGHTS = {"Assistant": 0.5}


def rollup_step(env: LayerEnv, *, dry_run: bool) -> StepReport:
    """Write the weekly roll-ups that are due, then the monthly ones."""
    report = StepReport("roll-up")
    items = all_items(env, EPISODES)
    stored = {i.key: i.value for i in items if i.value.get("level")}
    cutoff = env.now - timedelta(days=float(env.context.upkeep_rollup_days))
    weeks: dict[str, list[Item]] = {}
    for item in items:
        when = parse_time(item.value.get("time"))
        if not item.value.get("level") and when is not None and _week_end(when) <= cutoff:
            weeks.setdefault(_week_key(when), []).append(item)
    for key, members in sorted(weeks.items()):
        value = _rollup(env, "week", key, members, stored.get(key))
        if value is not None:
            stored[key] = value
            report.add("weekly roll-ups")
            _write(env, key, value, dry_run)
    months: dict[str, list[Item]] = {}
    for key, value in stored.items():
        start = parse_time(value.get("start"))
        if value.get("level") == "week" and start is not None and _month_end(start) + timedelta(days=7) <= cutoff:
            months.setdefault(f"month-{start:%Y-%m}", []).append(Item(value=value, key=key, namespace=(),
                                                                      created_at=env.now, updated_at=env.now))
    for key, members in sorted(months.items()):
        value = _rollup(env, "month", key, members, stored.get(key))
        if value is not None:
            report.add("monthly roll-ups")
            _write(env, key, value, dry_run)
    return report


def _rollup(env: LayerEnv, level: str, key: str, members: list[Item], old: dict[str, Any] | None) -> dict | None:
    """The roll-up of ``members``; None when ``old`` already cites every one of them."""
    cites = sorted(i.key for i in members)
    if old is not None and set(cites) <= set(old.get("cites", ())):
        return None
    members = sorted(members, key=lambda i: (str(i.value.get("time")), i.key))
    texts = [str(i.value["text"]) for i in members]
    if old is not None:  # a late episode joins a week whose first members may have expired since
        texts.insert(0, "\n".join(str(old["text"]).splitlines()[1:]))
        cites = sorted(set(cites) | set(old.get("cites", ())))
    lines = told_once(texts, titled=level == "month")
    if not lines and old is None:
        return None  # small talk only: nothing to carry forward (prune.py lets such episodes go)
    start, end = _period(level, key)
    title = f"Week {key[5:]} ({start:%d %b}–{end - timedelta(days=1):%d %b %Y})" if level == "week" \
        else f"{start:%B %Y}"
    body = extractive_summary(lines, WEEK_WORDS if level == "week" else MONTH_WORDS, WEIGHTS)
    stamps = _line_stamps(members, old, titled=level == "month")
    value_time = max(str(i.value["time"]) for i in members)
    keywords = Counter(w for i in members for w in i.value.get("keywords", ()))
    value: dict[str, Any] = {
        "text": f"{title}:\n{body}",
        "level": level,
        "period": key.split("-", 1)[1],
        "start": start.isoformat(),
        "end": end.isoformat(),
        "time": value_time,
        "importance": max(int(i.value.get("importance", 1)) for i in members),
        "keywords": [w for w, _ in keywords.most_common(8)],
        "thread": "rollup",
        "summarizer": "rollup",
        "cites": cites,
        "sources": union(*(i.value.get("sources", ()) for i in members), (old or {}).get("sources", ())),
        "created_at": env.now.isoformat(),
        "line_times": [_stamp_of(line, stamps, str(value_time)) for line in body.splitlines()],
    }
    if level == "week":
        value["expires_at"] = (end + timedelta(days=float(env.context.episode_ttl_days))).isoformat()
    return value


def _line_stamps(members: list[Item], old: dict[str, Any] | None, titled: bool) -> dict[str, str]:
    """Each told line of the members (and of ``old``), lower-cased, with the newest time it was said."""
    stamps: dict[str, str] = {}
    for value in [*(i.value for i in members), *([old] if old is not None else [])]:
        lines = str(value["text"]).splitlines()[1:] if titled or value is old else str(value["text"]).splitlines()
        times = value.get("line_times") or []
        for n, line in enumerate(told_lines("\n".join(lines)) if not times else lines):
            when = str(times[n]) if n < len(times) else str(value.get("time"))
            stamps[line.lower()] = max(stamps.get(line.lower(), ""), when)
    return stamps


def _stamp_of(line: str, stamps: dict[str, str], newest: str) -> str:
    """The time of the newest told line that ``line`` (a sentence of it, label kept) was cut from."""
    said = line.split(": ", 1)[1].lower() if ": " in line[:22] else line.lower()
    found = [when for told, when in stamps.items() if said in told]
    return max(found) if found else newest


def told_once(texts: list[str], titled: bool = False) -> list[str]:
    """The lines of ``texts`` that tell something, each said once (first time kept).

    Questions and requests are left out (memory/chatter.py); with ``titled``
    each text starts with a week's title, kept only when a line of its week is.
    """
    seen: set[str] = set()
    out: list[str] = []
    for text in texts:
        head, body = (text.split("\n", 1) + [""])[:2] if titled else ("", text)
        fresh = [line for line in told_lines(body) if line.lower() not in seen]
        seen.update(line.lower() for line in fresh)
        out += ([head] if head and fresh else []) + fresh
    return out


def _write(env: LayerEnv, key: str, value: dict[str, Any], dry_run: bool) -> None:
    if not dry_run:
        env.store.put(env.scope.ns(EPISODES), key, value)
        pause()


def _week_start(when: datetime) -> datetime:
    day = when.replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=day.weekday())


def _week_end(when: datetime) -> datetime:
    return _week_start(when) + timedelta(days=7)


def _week_key(when: datetime) -> str:
    year, week, _ = _week_start(when).isocalendar()
    return f"week-{year}-W{week:02d}"


def _month_end(start: datetime) -> datetime:
    first = start.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return (first + timedelta(days=32)).replace(day=1)


def _period(level: str, key: str) -> tuple[datetime, datetime]:
    """The roll-up's [start, end) in UTC, from its key (``week-2025-W07``, ``month-2025-02``)."""
    if level == "week":
        start = datetime.fromisocalendar(int(key[5:9]), int(key[11:13]), 1).replace(tzinfo=UTC)
        return start, start + timedelta(days=7)
    start = datetime(int(key[6:10]), int(key[11:13]), 1, tzinfo=UTC)
    return start, _month_end(start)
