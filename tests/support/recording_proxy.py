"""A pass-through HTTP proxy that records what an OpenAI-compatible client asked and what came back.

The real server (llama.cpp's) answers; the proxy only forwards, so a test can see that a request of a
given kind was made (a forced function call for structured output) and read the model's raw answer.
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class RecordingProxy:
    """Forwards ``/v1/...`` to ``upstream`` (a base URL ending in /v1); ``exchanges`` holds (request, response) JSON."""

    def __init__(self, upstream: str) -> None:
        self.exchanges: list[tuple[dict[str, Any], dict[str, Any]]] = []
        proxy = self
        root = upstream.removesuffix("/v1")

        class Handler(BaseHTTPRequestHandler):
            def _forward(self, body: bytes | None) -> None:
                request = urllib.request.Request(root + self.path, data=body, method=self.command,
                                                 headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=300) as resp:
                        status, answer = resp.status, resp.read()
                except urllib.error.HTTPError as err:
                    status, answer = err.code, err.read()
                if body:
                    try:
                        proxy.exchanges.append((json.loads(body), json.loads(answer)))
                    except json.JSONDecodeError:
                        proxy.exchanges.append((json.loads(body), {"unreadable": answer.decode(errors="replace")}))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self._forward(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

            def do_GET(self) -> None:  # noqa: N802
                self._forward(None)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/v1"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def structured(self, schema: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The exchanges that forced a call of the function named ``schema`` (structured output)."""
        return [(q, a) for q, a in self.exchanges
                if (q.get("tool_choice") or {}).get("function", {}).get("name") == schema]

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()
