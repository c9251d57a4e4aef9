"""Retake the memory page's pictures in docs/images/ from realistic chats, in headless chromium.

    .venv/bin/python docs/screenshots.py

Real ``memory-agent chat`` sessions (scripted chat model, hash embeddings) fill
a temporary data dir, ``memory-agent ui`` serves it, and Debian's chromium
(``apt-get install -y chromium chromium-driver``) takes the pictures. The
browser tests use test payloads (an XSS canary); the docs must not show them.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.cli_run import FAST, run_cli  # noqa: E402
from tests.ui_browser import chromium, ui_server  # noqa: E402

IMAGES = ROOT / "docs" / "images"
SESSIONS = [
    ("2026-03-01T10:00:00", "t1", ["I live in Paris.", "I am vegetarian.", "My sister is called Anna.",
                                   "I am allergic to peanuts.", "/end"]),
    ("2026-03-05T10:00:00", "t2", ["I moved to Berlin, I live in Berlin now.", "My favourite colour is teal.", "/end"]),
]
PICTURES = {"profile": "/", "why-this-answer": "/why?q=What+is+my+sister+called%3F", "upkeep": "/upkeep"}


def _cli(data: Path, *args: str, stdin: str | None = None) -> None:
    done = run_cli(data, *FAST, *args, stdin=stdin)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])


def main() -> int:
    """Fill a data dir, serve it, and save each picture over the old one."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        for when, thread, lines in SESSIONS:
            _cli(data, "--now", when, "chat", "--user", "alice", "--thread", thread, stdin="\n".join(lines) + "\n")
        for day in ("2026-03-02", "2026-03-07"):
            _cli(data, "--now", f"{day}T12:00:00", "upkeep", "--user", "alice", "--no-progress")
        downloads = Path(tmp) / "downloads"
        downloads.mkdir()
        with ui_server(data, "alice") as url, chromium(downloads) as web:
            for name, path in PICTURES.items():
                web.get(url + path)
                web.save_screenshot(str(IMAGES / f"{name}.png"))
                print(IMAGES / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
