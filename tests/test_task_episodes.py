"""Task episodes through the real graph: recorded, recalled over the floor and not under it,
per user, judged by the user's verdict, and in export and forget like every memory.

Turns run in-process on ``MemoryAgent`` (its real store: FAISS + SQLite, or Postgres with
the ``backend`` fixture), hash embeddings and a scripted chat model.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

import pytest

from app.runtime import MemoryAgent
from core.context import Context
from memory.tasks.rules import approach_of, is_task, verdict
from models.scripted_chat import ScriptedChatModel
from stores.namespaces import TASK_POOL, TASKS, UserScope
from tests.support import ROOT
from tests.support import cli as in_process
from tests.support.backends import BackendUnderTest
from tests.support.chat_driver import cli_env

LETTER = "Write a cover letter for a barista job at a cafe."
LETTER_AGAIN = "Write a cover letter for a barista job at a bakery."
TRIP = "Plan a 3-day trip to Rome."
REPLY = "Here is the approach:\n1. Open with the cafe's name\n2. Show latte art experience\n3. Close warmly"


def agent(ctx: Context, *replies: str, **changes: Any) -> MemoryAgent:
    model = ScriptedChatModel(responses=list(replies) or ["Done."])
    return MemoryAgent(replace(ctx, **changes), chat_model=model)


def episodes(a: MemoryAgent, user: str = "alice") -> list[Any]:
    return a.store.search(UserScope(user).ns(TASKS), limit=50)


def test_the_rules_tell_tasks_verdicts_and_approaches() -> None:
    assert [is_task(t) for t in (LETTER, "Can you plan a trip to Rome?", "Help me fix this SQL query: select 1",
                                 "How do I set up a cron job?")] == [True] * 4
    assert [is_task(t) for t in ("What is the capital of Peru?", "I moved to Berlin.", "Hi!",
                                 "Please remember that I am vegan.")] == [False] * 4
    assert [verdict(t) for t in ("Thanks, that worked!", "That didn't work.", "thanks, but that's wrong", "ok")] == [
        1.0, 0.0, 0.0, None]
    assert approach_of(REPLY) == "Open with the cafe's name; Show latte art experience; Close warmly"


def test_a_task_is_recorded_with_its_outcome_cost_and_score(ctx: Context) -> None:
    with agent(ctx, REPLY) as a:
        a.say(LETTER, "t1")
        [ep] = episodes(a)
    v = ep.value
    assert v["task"] == LETTER and v["approach"].startswith("Open with the cafe's name")
    assert (v["outcome"], v["quality"], v["quality_from"]) == ("success", 0.7, "answer_check")
    assert v["tokens"] > 0 and v["duration_s"] is not None and v["duration_s"] >= 0
    assert len(v["sources"]) == 2 and ep.key == v["sources"][0]


def test_small_talk_and_questions_record_nothing(ctx: Context) -> None:
    with agent(ctx, "Paris.", "Hello!") as a:
        a.say("What is the capital of France?", "t1")
        a.say("Hi there!", "t1")
        assert episodes(a) == []


def test_the_users_verdict_replaces_the_checks_score(ctx: Context) -> None:
    with agent(ctx, REPLY, "Glad to help.", "Here is a plan: see the Forum first.", "Sorry.") as a:
        a.say(LETTER, "t1")
        a.say("Thanks, that worked perfectly!", "t1")
        a.say(TRIP, "t1")
        a.say("That didn't work, the museums were closed.", "t1")
        by_task = {e.value["task"]: e.value for e in episodes(a)}
    assert (by_task[LETTER]["outcome"], by_task[LETTER]["quality"], by_task[LETTER]["quality_from"]) == (
        "success", 1.0, "feedback")
    assert by_task[LETTER]["notes"] == "Thanks, that worked perfectly!"
    assert (by_task[TRIP]["outcome"], by_task[TRIP]["quality"]) == ("failure", 0.0)


def test_a_similar_task_recalls_the_success_over_the_floor_as_an_example(ctx: Context) -> None:
    with agent(ctx, REPLY, "Glad to help.", "Sure.") as a:
        a.say(LETTER, "t1")
        a.say("Thanks, that worked!", "t1")
        out = a.say(LETTER_AGAIN, "t2")
    [task] = [r for r in out.recalled if r["kind"] == "task"]
    assert task["text"] == LETTER and task["score"] >= ctx.task_floor
    block = out.system_prompt.split('<examples kind="tasks">', 1)[1].split("</examples>", 1)[0]
    assert "the approach that worked" in block and "Show latte art experience" in block


def test_a_task_under_the_floor_is_not_recalled(ctx: Context) -> None:
    with agent(ctx, REPLY, "Sure.", "Sure.") as a:
        a.say(LETTER, "t1")
        out = a.say(TRIP, "t2")  # a task, but nothing like the letter (hash cosine ~0.3)
        assert not [r for r in out.recalled if r["kind"] == "task"] and "<examples" not in out.system_prompt
    with agent(ctx, "Sure.", task_floor=0.99) as a:  # the same pair above a floor it does not reach
        out = a.say(LETTER_AGAIN, "t3")
        assert not [r for r in out.recalled if r["kind"] == "task"]


def test_a_failure_shows_as_what_did_not_work_only_when_no_success_does(ctx: Context) -> None:
    with agent(ctx, REPLY, "Sorry.", "Sure.", "Great.", "Sure.") as a:
        a.say(LETTER, "t1")
        a.say("That didn't work.", "t1")
        out = a.say(LETTER_AGAIN, "t2")
        assert "What did not work on similar tasks before" in out.system_prompt
        a.say("Thanks, perfect!", "t2")  # now a success exists for the same kind of task
        out = a.say("Write a cover letter for a barista job at a diner.", "t3")
    titles = out.system_prompt.split('<examples kind="tasks">', 1)[1].split("</examples>", 1)[0]
    assert "the approach that worked" in titles and "did not work" not in titles
    assert all(r["meta"]["outcome"] == "success" for r in out.recalled if r["kind"] == "task")


def test_episodes_are_per_user(ctx: Context) -> None:
    with agent(ctx, REPLY, "Sure.") as a:
        a.say(LETTER, "t1")
        bob = a.for_user("bob")
        out = bob.say(LETTER_AGAIN, "t1")
        assert not [r for r in out.recalled if r["kind"] == "task"]
        assert len(episodes(a, "alice")) == 1 and len(episodes(a, "bob")) == 1


def _operator(ctx: Context, action: str, user: str) -> str:
    cmd = [sys.executable, "-m", "app.cli", "--data-dir", ctx.data_dir, "--embedding-model", "hash:384",
           "knowledge", action, user]
    done = in_process.run(cmd, capture_output=True, text=True, cwd=ROOT, env=cli_env(0), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_shared_pool_is_the_operators_to_fill_and_to_switch_on(ctx: Context) -> None:
    from memory.write_policy.gate import KnowledgeReadOnly, MemoryGate

    with agent(ctx, REPLY, "Sure.") as a:
        a.say(LETTER, "t1")
        with pytest.raises(KnowledgeReadOnly):
            MemoryGate(a.store, UserScope("alice")).put(TASK_POOL, "x", {"task": "planted", "sources": ["m"]})
    assert "shared 1 successful task episode(s) of alice" in _operator(ctx, "share-tasks", "alice")
    with agent(ctx, "Sure.", "Sure.", user_id="bob") as b:
        [pooled] = b.store.search(TASK_POOL, limit=5)
        assert set(pooled.value) == {"task", "approach", "outcome", "quality", "notes", "sources"}
        assert not [r for r in b.say(LETTER_AGAIN, "t1").recalled if r["kind"] == "task"]  # pool off
    with agent(ctx, "Sure.", user_id="bob", task_pool=True) as b:
        tasks = [r for r in b.say(LETTER_AGAIN, "t2").recalled if r["kind"] == "task"]
        assert [(t["text"], t["meta"]["pool"]) for t in tasks] == [(LETTER_AGAIN, False), (LETTER, True)]
    assert "removed 1 task episode(s) of alice" in _operator(ctx, "unshare-tasks", "alice")
    with agent(ctx, user_id="bob") as b:
        assert b.store.search(TASK_POOL, limit=5) == []


def test_episodes_are_in_the_export_and_gone_after_forget(ctx: Context, backend: BackendUnderTest) -> None:
    from memory.privacy.export import export_user, render_memories

    with agent(ctx, REPLY) as a:
        a.say("Write a cover letter for a barista job at Zorblax Coffee.", "t1")
        export = export_user(a.store, UserScope("alice"), a.data_dir)
        [task] = export["tasks"]
        assert "Zorblax" in task["value"]["task"] and "Tasks I helped with" in render_memories(export)
        report = a.forget("Zorblax")
        assert report.deleted.get(TASKS)
        assert episodes(a) == [] and export_user(a.store, UserScope("alice"), a.data_dir)["tasks"] == []
        assert backend.files_containing(a.data_dir, b"zorblax coffee") == []


def test_a_capable_model_rewrites_approach_and_notes_at_session_end(ctx: Context) -> None:
    from memory.layers.base import LoggedMessage
    from memory.layers.task_episodes import TaskEpisodeLayer

    with agent(ctx, REPLY) as a:
        a.say(LETTER, "t1")
        [ep] = episodes(a)
        rewrite = ScriptedChatModel(responses=['{"approach": "Name the cafe, show latte art, close warmly.", '
                                               '"notes": "Keep it under a page."}'])
        env = replace(a.env(chat_model=rewrite), context=replace(a.context, chat_tools="on"))
        asked = LoggedMessage(id=ep.key, thread="t1", time=env.now, role="user", text=LETTER)
        TaskEpisodeLayer().on_session_end(replace(env, context=replace(a.context, chat_tools="off")), [asked])
        assert episodes(a)[0].value["approach"] == ep.value["approach"]  # the embedded path: rules' text stays
        TaskEpisodeLayer().on_session_end(env, [asked])
        v = episodes(a)[0].value
    assert (v["approach"], v["notes"], v["written_by"]) == (
        "Name the cafe, show latte art, close warmly.", "Keep it under a page.", "model")
