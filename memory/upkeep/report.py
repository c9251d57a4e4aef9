"""What an upkeep pass did, step by step, with counts a person can read."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class StepReport:
    """One step's counts (``{"facts merged": 2}``) and a note (why it was skipped)."""

    name: str
    counts: dict[str, int] = field(default_factory=dict)
    note: str = ""

    def add(self, what: str, n: int = 1) -> None:
        """Count ``n`` more of ``what`` (zero counts are left out of the report)."""
        if n:
            self.counts[what] = self.counts.get(what, 0) + n

    @property
    def changed(self) -> int:
        """How many changes the step made (or, in a dry run, would make)."""
        return sum(self.counts.values())

    def __str__(self) -> str:
        counts = ", ".join(f"{k} {v}" for k, v in self.counts.items())
        if not counts:
            return f"{self.name}: {self.note or 'nothing to do'}"
        return f"{self.name}: {counts}" + (f" ({self.note})" if self.note else "")


@dataclass
class UpkeepReport:
    """A whole pass: the user, the clock it ran at, and each step's report."""

    user_id: str
    now: str
    dry_run: bool
    steps: list[StepReport] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def changed(self) -> int:
        """Changes over all steps: 0 means the pass found memory already kept up."""
        return sum(s.changed for s in self.steps)

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (the consolidator graph's output)."""
        return {**asdict(self), "changed": self.changed}

    def __str__(self) -> str:
        head = f"upkeep for {self.user_id!r} at {self.now}" + (" (dry run: nothing written)" if self.dry_run else "")
        return "\n".join([head, *(f"  {s}" for s in self.steps), f"  {self.changed} change(s) in {self.seconds:.2f}s"])
