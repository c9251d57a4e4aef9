"""What a forget or delete-user did, in one line for the user and as counts for callers.

Kept apart from memory/privacy/forget.py so the operation stays readable; the chat,
the CLI, the MCP tool and the UI all print or count this report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

THREADS_KEPT = (
    "Conversation threads were not searched from here and may still hold it; "
    "run /forget in the chat or `memory-agent forget` to delete those threads too."
)


@dataclass
class ForgetReport:
    """What was deleted, and what lost only a part: store keys per kind, memory-file edits, threads, scrubbing."""

    action: str
    deleted: dict[str, list[str]] = field(default_factory=dict)
    cut: dict[str, list[str]] = field(default_factory=dict)  # kept, less the part that named the words
    files: dict[str, int] = field(default_factory=dict)  # path -> lines removed, -1 = whole file
    threads: list[str] = field(default_factory=list)
    scrubbed: list[str] = field(default_factory=list)
    threads_kept: bool = False  # no checkpointer was given, so conversations were not searched

    def counts(self) -> dict[str, int]:
        out = {kind: len(keys) for kind, keys in self.deleted.items() if keys}
        out.update({f"{kind} (part)": len(keys) for kind, keys in self.cut.items() if keys})
        if self.files:
            out["memory_files"] = len(self.files)
        if self.threads:
            out["threads"] = len(self.threads)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "counts": self.counts(), "deleted": self.deleted, "cut": self.cut,
                "files": self.files, "threads": self.threads, "scrubbed": self.scrubbed,
                "threads_kept": self.threads_kept}

    def __str__(self) -> str:
        counts = self.counts()
        whole = ", ".join(f"{n} {kind}" for kind, n in counts.items() if not kind.endswith(" (part)"))
        part = ", ".join(f"{len(keys)} {kind}" for kind, keys in self.cut.items() if keys)
        if not counts:
            line = f"{self.action}: nothing matched, nothing deleted."
        else:
            done = [f"deleted {whole}" if whole else "", f"cut the part from {part}" if part else ""]
            line = f"{self.action}: " + "; ".join(d for d in done if d) + "."
        return line + (f" {THREADS_KEPT}" if self.threads_kept else "")


