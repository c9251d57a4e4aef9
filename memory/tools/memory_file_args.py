"""The ``memory`` tool's commands and the checks on their arguments, all of which come from the model.

Kept apart from ``memory_files`` so the file operations read as what they do to the folder,
and the tool wrapper can name the commands without the file code.
"""

from __future__ import annotations

from typing import Any, Literal

from memory.tools.memory_paths import MemoryFileError

Command = Literal["view", "create", "str_replace", "insert", "delete", "rename"]
# command -> (required arguments, optional arguments)
ARGS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "view": (("path",), ("view_range",)),
    "create": (("path", "file_text"), ()),
    "str_replace": (("path", "old_str"), ("new_str",)),
    "insert": (("path", "insert_line", "insert_text"), ()),
    "delete": (("path",), ()),
    "rename": (("old_path", "new_path"), ()),
}


def checked_args(command: str, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments ``command`` takes, with None dropped; refuses an unknown command, a missing or an extra one."""
    if command not in ARGS:
        raise MemoryFileError(f"unknown command {command!r}; expected one of {', '.join(ARGS)}")
    required, optional = ARGS[command]
    given = {k: v for k, v in args.items() if v is not None}
    missing = [k for k in required if k not in given]
    if missing:
        raise MemoryFileError(f"command {command!r} needs {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(given) - set(required) - set(optional))
    if extra:
        raise MemoryFileError(f"command {command!r} does not take {', '.join(repr(k) for k in extra)}")
    return given


def check_view_range(view_range: Any, n: int) -> tuple[int, int]:
    """The 1-based (first, last) lines ``view_range`` asks of a file of ``n`` lines; -1 as end means the last."""
    if (
        not isinstance(view_range, (list, tuple))
        or len(view_range) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in view_range)
    ):
        raise MemoryFileError(f"view_range must be two integers [start, end], got {view_range!r}")
    first, last = view_range[0], n if view_range[1] == -1 else view_range[1]
    if not 1 <= first <= last <= n:
        raise MemoryFileError(
            f"view_range {list(view_range)} is outside the file's lines 1..{n} (use -1 as end for 'to the end')"
        )
    return first, last


def need_str(name: str, value: Any) -> None:
    """Refuse a non-string where text is needed: JSON arguments can hold any type."""
    if not isinstance(value, str):
        raise MemoryFileError(f"{name} must be a string, got {type(value).__name__}")
