"""Precision and recall counts shared by the labelled-set benchmarks."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Counts:
    """True/false positives and misses; ``errors`` names each miss and false match."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
