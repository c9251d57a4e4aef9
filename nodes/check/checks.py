"""The ``Check``: one recalled memory a reply is tested against, shared by memories.py and rules.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Check:
    """One memory a reply is tested against.

    ``find`` returns the offending items in a reply (empty: it complies);
    ``reminder`` restates the memory for a retry; ``flag`` says in one clause
    where a reply still conflicts ("this suggests chicken, but you are vegetarian").
    """

    label: str
    memory: str
    find: Callable[[str], list[str]]
    reminder: str
    flag: Callable[[list[str]], str]
    kind: str = "food"
    meta: dict[str, Any] = field(default_factory=dict)
