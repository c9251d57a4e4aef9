"""The ``memory`` tool for function calling: a LangChain wrapper over ``MemoryFiles``.

Malformed arguments, refused paths and writes the gate refuses (memory off,
too large) come back to the model as ``Error: ...`` strings (it can correct
itself); nothing stored changes on an error.
"""

from __future__ import annotations

import os
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field, ValidationError

from core.prompts import MEMORY_FILE_TOOL
from memory.tools.memory_file_args import ARGS, Command
from memory.tools.memory_files import DEFAULT_MAX_FILE_BYTES, MemoryFileError, MemoryFiles
from memory.write_policy.gate import MemoryGate


class MemoryFileArgs(BaseModel):
    """Arguments of the ``memory`` tool (which ones apply depends on ``command``)."""

    command: Command = Field(description="view | create | str_replace | insert | delete | rename")
    path: str | None = Field(None, description="A path under /memories, e.g. /memories/notes.md")
    view_range: list[int] | None = Field(None, description="view: [first_line, last_line], 1-based; -1 = to the end")
    file_text: str | None = Field(None, description="create: the whole file content")
    old_str: str | None = Field(None, description="str_replace: exact text that occurs once in the file")
    new_str: str | None = Field(None, description="str_replace: replacement text (empty deletes old_str)")
    insert_line: int | None = Field(None, description="insert: line number after which to insert (0 = top)")
    insert_text: str | None = Field(None, description="insert: text to insert")
    old_path: str | None = Field(None, description="rename: existing path")
    new_path: str | None = Field(None, description="rename: new path")


def _validation_message(err: ValidationError) -> str:
    parts = []
    for e in err.errors():
        field = ".".join(str(x) for x in e["loc"])
        if field == "command":
            parts.append(f"unknown command {e.get('input')!r}; expected one of {', '.join(ARGS)}")
        else:
            parts.append(f"{field}: {e['msg']}")
    return "Error: invalid arguments: " + "; ".join(parts)


def memory_file_tool(
    data_dir: str | os.PathLike[str], gate: MemoryGate, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
) -> BaseTool:
    """The ``memory`` tool for function calling, bound to ``gate``'s user folder.

    It takes the user's ``MemoryGate`` (``env.store``), not a bare scope, so the
    model's file writes follow the same rules as every long-term write.
    """
    if not isinstance(gate, MemoryGate):
        raise TypeError(f"memory_file_tool needs the user's MemoryGate (env.store), got {type(gate).__name__}")
    files = MemoryFiles(data_dir, gate.scope, max_file_bytes=max_file_bytes, gate=gate)

    def run(command: str, **args: Any) -> str:
        try:
            return files.execute(command, **args)
        except MemoryFileError as err:
            return f"Error: {err}"

    return StructuredTool.from_function(
        func=run,
        name="memory",
        description=MEMORY_FILE_TOOL,
        args_schema=MemoryFileArgs,
        handle_validation_error=_validation_message,
    )
