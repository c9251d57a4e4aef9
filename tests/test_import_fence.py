"""An import writes under the user's fence, like a turn: a forget running in another process holds it off.

A process holding the user's lock exclusive (what ``memory-agent forget`` holds) looks
for the imported word in the data dir just before it lets go. Without the fence the
import wrote during the forget, and the forget could not have deleted what it wrote.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.cli import main
from stores.namespaces import UserScope
from tests.support import ROOT

HOLDER = """
import sys, time
from pathlib import Path
from stores.user_fence import user_fence
data, label, word = Path(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
with user_fence(data, label, exclusive=True):
    print("held", flush=True)
    time.sleep(4.0)
    seen = [str(p) for p in data.rglob("*") if p.is_file() and word in p.read_bytes()]
    print(len(seen), flush=True)
"""


def test_an_import_waits_for_a_forget_holding_the_users_fence(tmp_path: Path) -> None:
    data, word = tmp_path / "data", "Quillfeather"
    data.mkdir()
    lines = tmp_path / "chat.jsonl"
    lines.write_text(json.dumps({"thread": "t", "id": "m1", "time": "2026-01-05T09:00:00Z", "role": "user",
                                 "text": f"My cat is called {word}."}) + "\n")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(data), UserScope("u1").label, word],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    assert holder.stdout.readline().strip() == "held"
    rc = main(["--data-dir", str(data), "--chat-model", "scripted", "--embedding-model", "hash:64",
               "import", "--user", "u1", "--no-progress", str(lines)])
    seen_while_held = holder.stdout.readline().strip()
    holder.wait(timeout=60)
    assert rc == 0
    assert seen_while_held == "0", "the import wrote while another process held the user's fence"
    assert any(word.encode() in p.read_bytes() for p in data.rglob("*") if p.is_file())
