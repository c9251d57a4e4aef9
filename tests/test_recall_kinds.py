"""A search ranks the profile by relevance, and one memory has one kind on every surface.

Through the real MCP transport (a `memory-agent mcp` process on stdio), the real CLI and the
export: "what is my job?" finds the job among six profile slots and a rule, and the job's
``kind`` reads the same in MCP ``recall``, ``what_do_you_remember``, CLI ``recall``, and
``memories --json``. A kind outside the vocabulary is one line naming the valid ones.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from memory.kinds import KINDS
from tests.support.cli_run import run_cli
from tests.support.mcp_client import MODELS, call, fails, stdio_session

PROFILE = ("My name is Dana. I live in Lisbon. I'm vegetarian. I work as a nurse. "
           "I work at St Mary's Hospital. I'm allergic to peanuts.")
JOB = "The user works as a nurse."
RULE = "Answer in French."


def _by_text(rows: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return next(r for r in rows if r["text"] == text)


def _cli_recall(data: Path, query: str, *flags: str) -> tuple[int, list[dict[str, Any]], str]:
    queries = data.parent / "q.jsonl"
    queries.write_text(json.dumps({"id": "q", "query": query}) + "\n", encoding="utf-8")
    done = run_cli(data, *MODELS, "recall", "--user", "dana", "--k", "5", *flags, str(queries))
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return done.returncode, (rows[0]["results"] if rows else []), done.stderr


def test_the_job_comes_first_and_keeps_its_kind_everywhere(tmp_path: Path) -> None:
    data = tmp_path / "data"
    seen: dict[str, Any] = {}

    async def go() -> None:
        async with stdio_session(data, "dana") as s:
            stored = (await call(s, "remember", text=PROFILE))["stored"]
            assert len(stored) == 6 and {r["kind"] for r in stored} == {"profile"}
            asked = await call(s, "log_turn", role="user", text="From now on, answer in French.")
            assert (await call(s, "confirm_rule", confirm=asked["rules_to_confirm"][0]["confirm"]))["saved"]

            job = (await call(s, "recall", query="what is my job?", k=5))["results"]
            assert len(job) == 5 and JOB in [r["text"] for r in job[:2]], job
            assert all(r["kind"] != "rule" for r in job)  # a rule about something else crowds nothing out
            seen["mcp recall"] = _by_text(job, JOB)["kind"]
            how = (await call(s, "recall", query="how should you answer me?", k=5))["results"]
            assert how[0]["text"] == RULE and how[0]["kind"] == "rule"  # a rule the question is about comes
            rules = (await call(s, "recall", query="what is my job?", kinds=["rule"]))["results"]
            assert [(r["kind"], r["text"]) for r in rules] == [("rule", RULE)]  # asked for by kind: listed
            only = (await call(s, "recall", query="what is my job?", kinds=["profile"], k=2))["results"]
            assert {r["kind"] for r in only} == {"profile"} and JOB in [r["text"] for r in only]

            page = await call(s, "what_do_you_remember")
            seen["mcp what_do_you_remember"] = _by_text(page["items"], JOB)["kind"]
            assert _by_text(page["items"], RULE)["kind"] == "rule"
            assert {i["kind"] for i in page["items"]} <= set(KINDS)

            error = await fails(s, "recall", query="x", kinds=["facts"])
            assert "\n" not in error.strip() and "'facts'" in error and all(k in error for k in KINDS)

    asyncio.run(go())
    code, results, _ = _cli_recall(data, "what is my job?")
    assert code == 0 and JOB in [r["text"] for r in results[:2]]
    seen["cli recall"] = _by_text(results, JOB)["kind"]
    listed = run_cli(data, *MODELS, "memories", "--user", "dana", "--json")
    export = json.loads(listed.stdout)
    seen["export"] = _by_text(export["profile"]["current"], JOB)["kind"]
    assert _by_text(export["rules"], RULE)["kind"] == "rule"
    assert set(seen.values()) == {"profile"}, seen

    code, results, err = _cli_recall(data, "what is my job?", "--kind", "facts")
    assert code == 2 and results == [] and len(err.strip().splitlines()) == 1
    assert "unknown kind 'facts'" in err and all(k in err for k in KINDS)
