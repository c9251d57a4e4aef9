"""Six months of eight users told through the real CLI: are names, partners, pets, ended states and
standing instructions current at the end, and is no old value shown as current?

Each session of a scenario (bench/people_world.py: 1-4; bench/people_outside.py: 5 and 6, written by an
outside hand before they were first run; bench/people_outside_b.py: 7 and 8, written by a second outside
hand and held back, not run before the rules were final) is one ``memory-agent --now T chat``
run in this process (tests/support/cli.py), its lines typed on stdin and ``/end`` last;
the user answers a rule review with yes only after a standing instruction. On the last
day the memory is read with ``memories --json`` (profile, facts, rules and any other
kind of record, people included when that layer exists), and each tracked value's
question is asked in a new thread, its system prompt read with ``/prompt``.

A value counts as current when a current record holds it (not a profile history, an
episode or a message) and the prompt for its question shows it in a current block
(profile, rule, fact or any block but episodes, messages, summaries and the dated
history). A stale value counts when a current record or that prompt's current blocks
show it on a line that does not mark it as ended ("no longer", "broke up", ...) or as
someone else's (each stale word's ``unless``).

    python -m bench.people_sim [--scenario N] [--show] [--upkeep-every DAYS] [--embedding hash:384]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench.people_outside import SCENARIOS as OUTSIDE
from bench.people_outside_b import SCENARIOS as HELD_BACK
from bench.people_world import ASK_DAY, Scenario, Stale, Tracked
from bench.people_world import SCENARIOS as WORLD
from tests.support.cli import main_on

SCENARIOS: tuple[Scenario, ...] = (*WORLD, *OUTSIDE, *HELD_BACK)
RESULTS = Path(__file__).resolve().parent / "results" / "people_sim.md"
BLOCK = re.compile(r'<memories kind="(\w+)">\n# [^\n]*\n(.*?)\n</memories>', re.DOTALL)
NOT_CURRENT = {"episode", "message", "summary", "history", "knowledge", "task"}
SEEN_KINDS = {"user_id", "exported_at", "memory_enabled", "profile", "facts", "episodes", "rules", "tasks",
              "memory_files", "messages", "threads"}
ENDED = re.compile(r"\b(no longer|not|never|stop(s|ped)?|quit(s|ted)?|used to|formerly|former|ex|broke up|"
                   r"split up|anymore|any more|until|previously)\b|n't\b", re.IGNORECASE)
REVIEW = "[y/N] "
ASKED = "is that still right"  # upkeep's review question asks about a value; it does not show it as current


class UserAtKeyboard(io.StringIO):
    """One session's stdin: the lines, then ``/end``; a review question is answered from what was just said."""

    def __init__(self, lines: list[str], out: io.StringIO) -> None:
        super().__init__()
        self._lines, self._out, self._instruction = list(lines), out, False

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]  # noqa: ARG002
        if self._out.getvalue().endswith(REVIEW):
            return "y\n" if self._instruction else "n\n"
        if not self._lines:
            return ""
        line = self._lines.pop(0)
        self._instruction = line.startswith("!")
        return line.removeprefix("!") + "\n"


@dataclass
class Cli:
    """``memory-agent`` on one data dir, scripted chat model, a given embedding, no MEMORY_* from outside."""

    data: Path
    embedding: str
    env: dict[str, str] = field(default_factory=lambda: {k: v for k, v in os.environ.items()
                                                         if not k.startswith("MEMORY_")})

    def __call__(self, now: datetime, *args: str, lines: list[str] | None = None) -> str:
        out, err = io.StringIO(), io.StringIO()
        argv = ["--data-dir", str(self.data), "--chat-model", "scripted", "--embedding-model", self.embedding,
                "--now", now.isoformat(), *args]
        code = main_on(argv, UserAtKeyboard(lines or [], out), out, err, env=self.env, cwd=self.data)
        if code != 0:
            raise RuntimeError(f"memory-agent {' '.join(args[:1])} exited {code}: {err.getvalue()[-800:]}")
        return out.getvalue()


def _text(entry: dict[str, Any]) -> str:
    value = entry.get("value") or {}
    if entry.get("text"):
        return str(entry["text"])
    return "; ".join(f"{k}: {v}" for k, v in value.items() if isinstance(v, str) and not k.endswith("_at"))


def records(export: dict[str, Any]) -> tuple[list[str], int]:
    """Every current record's text (profile, facts, rules, and kinds this bench does not know, e.g. people),
    and how many of them are people records (a fact of kind "person" or an item of a people kind).
    """
    entries = [*export["profile"]["current"], *export["facts"], *export["rules"]]
    people = sum((e.get("value") or {}).get("kind") == "person" for e in export["facts"])
    for key, items in export.items():
        if key not in SEEN_KINDS and isinstance(items, list) and all(isinstance(i, dict) for i in items):
            entries += items
            people += len(items) if "peop" in key or "person" in key else 0
    return [_text(e) for e in entries], people


def prompt_lines(output: str) -> list[str]:
    """The lines of the current blocks of the system prompt that ``/prompt`` printed."""
    prompt = output.split("----- system prompt -----", 1)[-1].split("----- end of prompt -----", 1)[0]
    return [line for kind, body in BLOCK.findall(prompt) if kind not in NOT_CURRENT for line in body.splitlines()]


def stale_lines(stale: Stale, lines: list[str]) -> list[str]:
    """The lines that show ``stale.word`` as current: not ended, not someone else's."""
    word = re.compile(r"\b" + re.escape(stale.word).replace(r"\ ", "[- ]") + r"\b", re.IGNORECASE)
    return [line for line in lines if word.search(line) and not ENDED.search(line) and ASKED not in line
            and not (stale.unless and re.search(stale.unless, line, re.IGNORECASE))]


@dataclass
class ValueScore:
    tracked: Tracked
    stored: bool
    shown: bool
    stale: dict[str, list[str]]

    @property
    def current(self) -> bool:
        return self.stored and self.shown


@dataclass
class ScenarioScore:
    scenario: Scenario
    values: list[ValueScore]
    records: list[str]
    people: int

    @property
    def current(self) -> int:
        return sum(v.current for v in self.values)

    @property
    def stale(self) -> int:
        return sum(len(v.stale) for v in self.values)

    def line(self) -> str:
        return f"{self.scenario.name}: current {self.current}/{len(self.values)}, stale {self.stale}"


def run_scenario(scenario: Scenario, root: Path, embedding: str = "hash:384", upkeep_every: int = 0) -> ScenarioScore:
    """Play ``scenario`` into a fresh data dir under ``root`` through the CLI, then score what is remembered."""
    data = root / scenario.user
    data.mkdir(parents=True)
    cli = Cli(data, embedding)
    user = ("--user", scenario.user)
    next_upkeep = upkeep_every
    for n, (day, lines) in enumerate(scenario.sessions):
        while upkeep_every and next_upkeep <= day:
            cli(scenario.start + timedelta(days=next_upkeep), "upkeep", *user, "--no-progress")
            next_upkeep += upkeep_every
        cli(scenario.start + timedelta(days=day), "chat", *user, "--thread", f"s{n:02d}", lines=[*lines, "/end"])
    end = scenario.start + timedelta(days=ASK_DAY)
    kept, people = records(json.loads(cli(end, "memories", *user, "--json")))
    values = []
    for tracked in scenario.values:
        shown = prompt_lines(cli(end, "chat", *user, "--thread", f"ask-{tracked.slot}",
                                 lines=[tracked.question, "/prompt", "/quit"]))
        found = {s.word: stale_lines(s, kept + shown) for s in tracked.stale}
        values.append(ValueScore(tracked, stored=any(re.search(tracked.current, t, re.IGNORECASE) for t in kept),
                                 shown=any(re.search(tracked.current, t, re.IGNORECASE) for t in shown),
                                 stale={w: lines for w, lines in found.items() if lines}))
    return ScenarioScore(scenario, values, kept, people)


def details(score: ScenarioScore) -> str:
    """Per value: kept, shown, stale lines; then every current record."""
    rows = [f"  people records: {score.people}"]
    for v in score.values:
        rows.append(f"  {v.tracked.slot:<12} {'OK  ' if v.current else 'MISS'} kept={'y' if v.stored else 'n'} "
                    f"in prompt={'y' if v.shown else 'n'}  ({v.tracked.question})")
        rows += [f"    STALE {word!r}: {line}" for word, lines in v.stale.items() for line in lines]
    rows.append("  current records:")
    rows += [f"    - {t}" for t in score.records]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Run the scenarios and print per scenario "current k/5, stale s" and the total."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", type=int, choices=range(1, len(SCENARIOS) + 1), help="run only this one (1-8)")
    p.add_argument("--show", action="store_true", help="per value: kept, in the prompt, stale lines; every record")
    p.add_argument("--upkeep-every", type=int, default=0, metavar="DAYS",
                   help="run upkeep every DAYS (default: never); its review questions go unanswered")
    p.add_argument("--embedding", default="hash:384", help="'hash:384' (default) or 'local' (MiniLM)")
    args = p.parse_args(argv)
    chosen = [SCENARIOS[args.scenario - 1]] if args.scenario else list(SCENARIOS)
    scores, out = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in chosen:
            scores.append(run_scenario(scenario, Path(tmp), args.embedding, args.upkeep_every))
            out.append(scores[-1].line())
            if args.show:
                out.append(details(scores[-1]))
            print(out[-1] if not args.show else "\n".join(out[-2:]), flush=True)
    total = (f"total: current {sum(s.current for s in scores)}/{sum(len(s.values) for s in scores)}, "
             f"stale {sum(s.stale for s in scores)}")
    print(total)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(f"# People simulation ({args.embedding}, upkeep every {args.upkeep_every or 'never'})\n\n"
                       + "\n".join(out) + f"\n{total}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
