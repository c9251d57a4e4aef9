"""`memory-agent demo`: two sessions in two processes, memory carried by the long-term store.

Session 1 states durable facts and a preference, then ends (consolidation).
Session 2 runs in a new process on a new thread, so nothing can come from
thread history: whatever it knows came through the long-term store. Its answer
passes the answer check (nodes/check/): it respects the diet and the allergy,
or ends with a "Memory check:" line that says plainly where it does not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from app.flags import context_from
from app.runtime import MemoryAgent

SESSION_1 = [
    "Hi! My name is Ana Costa.",
    "I'm vegetarian and I'm allergic to peanuts.",
    "I live in Lisbon and I work as a nurse.",
    "Please keep your answers short.",
]
SESSION_2 = "Can you suggest a dinner recipe for me tonight?"


def _banner(text: str) -> None:
    print(f"\n{'=' * 72}\n{text}\n{'=' * 72}", flush=True)


def _session_1(agent: MemoryAgent) -> None:
    thread = "demo-session-1"
    for text in SESSION_1:
        print(f"\nuser> {text}")
        result = agent.say(text, thread)
        while result.interrupt:
            print(
                f"[rule review] {result.interrupt.get('action', 'add')}: "
                f"{result.interrupt.get('rule')!r} -> approved (demo)"
            )
            result = agent.resume(thread, True)
        print(f"agent> {result.reply}")
    agent.end_session(thread)
    from memory.privacy.export import export_user

    data = export_user(agent.store, agent.env().scope, agent.data_dir)
    _banner("Stored in long-term memory after session 1")
    sections = (
        ("profile", data["profile"]["current"]),
        ("fact", data["facts"]),
        ("episode", data["episodes"]),
        ("rule", data["rules"]),
    )
    for kind, items in sections:
        for item in items:
            label = f"{kind}:{item['key']}" if kind == "profile" else kind
            print(
                f"  [{label:20}] {json.dumps(item['text'], ensure_ascii=False)[:150]}"
                f"  (sources: {len(item['sources'])} message(s))"
            )
    print(f"  [message log         ] {data['messages']['total']} message(s)")


def _session_2(agent: MemoryAgent) -> None:
    thread = "demo-session-2"
    print(f"\nuser> {SESSION_2}")
    result = agent.say(SESSION_2, thread)
    _banner("Recalled for session 2 (new process, new thread)")
    for item in result.recalled:
        print(f"  [{item['kind']:8}] score={item['score']:.2f}  {item['text'].replace(chr(10), ' / ')}")
    _banner("Assembled system prompt")
    print(result.system_prompt)
    _banner("Answer")
    print(f"agent> {result.reply}")
    from app.chat_repl import render_answer_check

    _banner("Answer checked against memory (diet, allergy, rules)")
    print(render_answer_check(agent.state(thread).get("answer_check") or {}).split("\n", 1)[1])
    _plain_words(agent)


PLAIN_WORDS = ["What do you remember about me?", "Forget that I live in Lisbon."]


def _plain_words(agent: MemoryAgent) -> None:
    """Memory commands in plain words (nodes/commands.py): no slash, the same on every model."""
    _banner("Memory commands in plain words")
    for text in PLAIN_WORDS:
        print(f"\nuser> {text}")
        result = agent.say(text, "demo-commands")
        while result.interrupt:  # a forget asks first; the demo answers yes
            print(f"[confirm] {result.interrupt.get('question')}")
            for line in result.interrupt.get("preview") or []:
                print(f"  - {line}")
            print("[y/N] y (demo)")
            result = agent.resume("demo-commands", True)
        print(f"agent> {result.reply}")


def run_demo(args: argparse.Namespace) -> int:
    """Run one demo session, or both as separate processes to show memory surviving a restart."""
    from models.endpoint import check_chat_endpoint

    ctx = context_from(args)
    if args.session:
        with MemoryAgent(ctx) as agent:
            (_session_1 if args.session == 1 else _session_2)(agent)
        return 0
    check_chat_endpoint(ctx.chat_model, ctx.max_new_tokens)  # once, before two processes would each fail
    base = [sys.executable, "-m", "app.cli"]
    for flag, value in (
        ("--data-dir", args.data_dir),
        ("--chat-model", args.chat_model),
        ("--embedding-model", args.embedding_model),
    ):
        if value:
            base += [flag, value]
    subprocess.run(base + ["delete-user", args.user], check=True, stdout=subprocess.DEVNULL)
    for n in (1, 2):
        _banner(f"Session {n} (process {n})")
        done = subprocess.run(base + ["demo", "--user", args.user, "--session", str(n)])
        if done.returncode:
            return done.returncode
    return 0
