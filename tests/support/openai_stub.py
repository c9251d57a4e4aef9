"""A scripted OpenAI-compatible server (stdlib HTTP): exactly the replies a test needs, streamed or not.

It answers ``/v1/chat/completions`` from a script of ``completion`` bodies and
records every request. A request with ``"stream": true`` (what ``ChatOpenAI``
sends when a LangGraph run streams ``messages``) gets the same body as
server-sent events, a word of the reply per chunk, as a real server streams.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(content: str | None = None, calls: list[tuple[str, str]] = ()) -> dict[str, Any]:
    """A chat.completion body; ``calls`` are (tool name, raw arguments string)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"call_{i}_{name}", "type": "function", "function": {"name": name, "arguments": args}}
            for i, (name, args) in enumerate(calls)
        ]
    return {
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": "stub",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def stream_events(body: dict[str, Any]) -> list[bytes]:
    """``body`` as chat.completion.chunk events: a word of content each, tool calls whole, then [DONE]."""
    choice = body["choices"][0]
    message = choice["message"]

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        data = {"id": body["id"], "object": "chat.completion.chunk", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        return f"data: {json.dumps(data)}\n\n".encode()

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": word}) for word in re.findall(r"\S+\s*", message.get("content") or "")]
    calls = [{"index": i, **call} for i, call in enumerate(message.get("tool_calls") or [])]
    if calls:
        events.append(chunk({"tool_calls": calls}))
    events.append(chunk({}, choice["finish_reason"]))
    return [*events, b"data: [DONE]\n\n"]


class StubServer:
    """Answers /v1/chat/completions from a script, recording every request body."""

    def __init__(self, script: list[dict[str, Any]]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(request)
                body = stub.script.pop(0) if stub.script else completion("Done.")
                if request.get("stream"):
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()  # HTTP/1.0: the body ends when the connection closes
                    for event in stream_events(body):
                        self.wfile.write(event)
                        self.wfile.flush()
                    return
                raw = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()
