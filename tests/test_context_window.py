"""A model server with a small context window never kills the chat (issue 25, section 5).

Fast tests drive `memory-agent chat` against a stub OpenAI-compatible server that
counts each request like a server would and answers as llama-cpp-python's does when
it is over the window (HTTP 400, "This model's maximum context length is N
tokens..."). The slow test reproduces the issue's three turns on llama-cpp-python's
real server with a small ``n_ctx``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_run import cli_env, export, run_cli

WINDOW = 1900
REPLY = "Noted, thank you."


class WindowStub:
    """``/v1/chat/completions`` that refuses a request over ``window`` tokens (counted as about four
    characters of messages and tools a token, plus the reply limit); ``/v1/models`` that reports the
    window only when asked to; HTTP 500 for a message that says "boom".
    """

    def __init__(self, window: int, report: bool) -> None:
        self.window, self.report = window, report
        self.requests: list[dict[str, Any]] = []
        self.refused = 0
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                entry = {"id": "stub", "object": "model", **({"max_model_len": stub.window} if stub.report else {})}
                self._send(200, {"object": "list", "data": [entry]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body)
                self._send(*stub.answer(body))

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "boom" in str(body["messages"][-1].get("content")):
            return 500, {"error": {"message": "the model crashed", "type": "internal_server_error"}}
        prompt = (len(json.dumps(body["messages"])) + len(json.dumps(body.get("tools") or []))) // 4
        reply = int(body.get("max_tokens") or body.get("max_completion_tokens") or 0)
        if prompt + reply > self.window:
            self.refused += 1
            message = (f"This model's maximum context length is {self.window} tokens. However, you requested "
                       f"{prompt + reply} tokens ({prompt} in the messages, {reply} in the completion). "
                       "Please reduce the length of the messages or completion.")
            return 400, {"error": {"message": message, "type": "invalid_request_error", "param": "messages",
                                   "code": "context_length_exceeded"}}
        return 200, {"id": "c", "object": "chat.completion", "created": 0, "model": "stub",
                     "choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY},
                                  "finish_reason": "stop"}],
                     "usage": {"prompt_tokens": prompt, "completion_tokens": 4, "total_tokens": prompt + 4}}

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def stub() -> Iterator[Any]:
    started: list[WindowStub] = []

    def start(report: bool = False) -> WindowStub:
        started.append(WindowStub(WINDOW, report))
        return started[-1]

    yield start
    for server in started:
        server.close()


TOPICS = ("river walks in Lyon", "sourdough baking", "the cello lessons", "my allotment tomatoes")


def _long(n: int) -> str:
    """A ~1,600-character message (about 400 tokens) about one topic."""
    return f"Let me tell you about {TOPICS[n]}. " + f"It is turn {n} and I am still talking about {TOPICS[n]}. " * 28


def _chat(data: Path, url: str, lines: list[str], *flags: str) -> Any:
    env = {**cli_env(OPENAI_BASE_URL=url, OPENAI_API_KEY="unused")}
    said = "".join(f"{line}\n" for line in lines) + "/quit\n"
    return run_cli(data, "--chat-model", "openai:stub", "--embedding-model", "hash:64", *flags, "chat",
                   "--user", "ana", "--thread", "t", stdin=said, env=env)


def _replies(out: str) -> list[str]:
    return [line.removeprefix("you> ").removeprefix("agent> ") for line in out.splitlines() if "agent> " in line]


def test_a_request_over_the_window_is_trimmed_and_retried_once_then_the_window_is_known(
    stub: Any, tmp_path: Path
) -> None:
    server = stub()
    done = _chat(tmp_path / "data", server.url, [_long(n) for n in range(4)])
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert _replies(done.stdout) == [REPLY] * 4, done.stdout[-2000:]
    assert server.refused == 1  # turn 3 taught the window; turn 4 was fitted from the start
    last = server.requests[-1]["messages"]
    assert sum(m["role"] == "user" for m in last) < 4  # older turns trimmed
    assert export(tmp_path / "data", "ana")["messages"]["total"] == 8


@pytest.mark.parametrize("told", ["reported by the server", "set"])
def test_a_known_window_fits_every_request_before_it_is_sent(stub: Any, tmp_path: Path, told: str) -> None:
    server = stub(report=told == "reported by the server")
    flags = () if told != "set" else ("--set", f"context_window_tokens={WINDOW}")
    done = _chat(tmp_path / "data", server.url, [_long(n) for n in range(4)], *flags)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _replies(done.stdout) == [REPLY] * 4, done.stdout[-2000:]
    assert server.refused == 0 and len(server.requests) == 4


def test_a_server_error_is_one_line_the_chat_goes_on_and_the_message_is_logged(stub: Any, tmp_path: Path) -> None:
    server = stub()
    done = _chat(tmp_path / "data", server.url, ["I keep bees in Lyon.", "Tell me a story, boom.", "Thanks!"])
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    replies = _replies(done.stdout)
    assert replies[0] == REPLY and replies[2] == REPLY, replies
    assert replies[1].startswith("(The chat model failed: ") and "Your message is kept" in replies[1]
    logged = export(tmp_path / "data", "ana")["messages"]
    assert logged["total"] == 5  # three user messages, two replies; the failure line is not a message


@pytest.mark.slow
def test_the_issue_three_turns_on_a_llama_cpp_server_with_a_small_window(llama_server: Any, tmp_path: Path) -> None:
    """The README's tool-call setup (chatml-function-calling) on a 1,024-token window: before the
    fix the first turn's second tool round was over it, and the chat died on a traceback."""
    url = llama_server("smollm-1k", chat_format="chatml-function-calling", n_ctx=1024)
    said = ["Hi, I'm Ana and I'm vegetarian. Please remember that.", "What do you remember about me?",
            "Search your memory for my diet."]
    env = cli_env(OPENAI_BASE_URL=url, OPENAI_API_KEY="unused", MEMORY_MAX_NEW_TOKENS="60")
    done = run_cli(tmp_path / "data", "--chat-model", "openai:smollm-1k", "--embedding-model", "hash:64", "chat",
                   "--user", "ana", "--thread", "t", stdin="".join(f"{s}\n" for s in said) + "/quit\n", env=env,
                   timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    replies = _replies(done.stdout)
    assert len([r for r in replies if r.strip()]) >= 3, done.stdout[-3000:]
    assert not any("context window" in r or "chat model failed" in r for r in replies), done.stdout[-3000:]
    kept = export(tmp_path / "data", "ana")
    assert any("vegetarian" in p["text"] for p in kept["profile"]["current"])
    assert kept["messages"]["total"] == 4  # two turns answered by the model; the memory listing is not logged
