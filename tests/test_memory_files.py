"""The /memories file tool: confinement, text-only files, atomic edits, recovery."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from memory.privacy.consent import set_memory_enabled
from memory.tools.memory_file_tool import memory_file_tool
from memory.tools.memory_files import MemoryFileError, MemoryFiles, user_memory_dir
from memory.write_policy.gate import MemoryGate
from stores.namespaces import UserScope

ALICE, BOB = UserScope("alice"), UserScope("bob")
STORE = InMemoryStore()  # holds only the memory switch here


def gate(scope: UserScope) -> MemoryGate:
    return MemoryGate(STORE, scope)


@pytest.fixture
def files(tmp_path: Path) -> MemoryFiles:
    return MemoryFiles(tmp_path, ALICE, max_file_bytes=1024, max_total_bytes=4096)


def call(tool, **args) -> str:
    return tool.invoke({"name": "memory", "args": args, "id": "call-1", "type": "tool_call"}).content


def test_root_comes_from_config(tmp_path: Path) -> None:
    assert MemoryFiles(tmp_path, ALICE).root == tmp_path / "memories" / "alice"
    assert user_memory_dir(tmp_path, BOB) == tmp_path / "memories" / "bob"


def test_create_view_edit_insert_rename_delete(files: MemoryFiles) -> None:
    assert files.view("/memories") == "/memories is empty"
    assert files.create("/memories/notes/food.md", "likes tea\nvegetarian\n") == "Created /memories/notes/food.md (2 lines)"
    assert files.view("/memories/notes/food.md") == "     1\tlikes tea\n     2\tvegetarian"
    assert files.view("/memories/notes/food.md", [2, -1]) == "     2\tvegetarian"
    files.str_replace("/memories/notes/food.md", "tea", "green tea")
    files.insert("/memories/notes/food.md", 0, "# Food")
    files.insert("/memories/notes/food.md", 3, "no nuts")
    assert (files.root / "notes/food.md").read_text() == "# Food\nlikes green tea\nvegetarian\nno nuts\n"
    assert files.view("/memories") == "/memories: 1 file(s)\n      42  /memories/notes/food.md"
    files.rename("/memories/notes/food.md", "/memories/diet.md")
    assert not (files.root / "notes/food.md").exists()
    assert files.delete("/memories/diet.md") == "Deleted /memories/diet.md"
    assert list(files.iter_files()) == []


def test_a_new_instance_recovers_what_was_written(tmp_path: Path) -> None:
    MemoryFiles(tmp_path, ALICE).create("/memories/a.md", "persisted\n")
    again = MemoryFiles(tmp_path, ALICE)
    assert again.view("/memories/a.md") == "     1\tpersisted"
    assert [v for v, _ in again.iter_files()] == ["/memories/a.md"]


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/memories/../secrets.txt", "contains '..'"),
        ("/memories/a/../../x", "contains '..'"),
        ("/memories/./../x", "contains '..'"),
        ("/etc/passwd", "must start with /memories/"),
        ("/memoriesX/a.md", "must start with /memories/"),
        ("memories/a.md", "must start with /memories/"),
        ("/memories/a\x00.md", "NUL byte"),
        ("/memories/" + "n" * 256, "longer than 255 bytes"),
        ("/memories/" + "é" * 128, "longer than 255 bytes"),  # 256 bytes in UTF-8
        ("/memories/" + "/".join(["d" * 200] * 6), "the limit is 1024"),
        ("/memories\\..\\x", "backslashes are not allowed"),
        ("/memories/.hidden", "reserved"),
        ("/memories/a\nb", "control character"),
    ],
)
def test_untrusted_paths_are_refused(files: MemoryFiles, path: str, message: str) -> None:
    with pytest.raises(MemoryFileError, match=message.replace("(", r"\(")):
        files.create(path, "x")
    assert not files.root.exists() or list(files.iter_files()) == []


def test_non_string_path_is_refused(files: MemoryFiles) -> None:
    with pytest.raises(MemoryFileError, match="path must be a string, got int"):
        files.view(42)  # type: ignore[arg-type]


def test_symlinks_leaving_the_root_are_refused(files: MemoryFiles, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("do not touch\n")
    files.create("/memories/ok.md", "fine\n")
    os.symlink(outside, files.root / "escape")
    os.symlink(outside / "target.txt", files.root / "link.md")
    attempts = [
        lambda: files.view("/memories/escape/target.txt"),
        lambda: files.create("/memories/escape/new.md", "x"),
        lambda: files.str_replace("/memories/link.md", "do not", "did"),
        lambda: files.insert("/memories/link.md", 0, "x"),
        lambda: files.delete("/memories/link.md"),
        lambda: files.delete("/memories/escape"),
        lambda: files.rename("/memories/ok.md", "/memories/escape/ok.md"),
        lambda: files.view("/memories/escape"),
    ]
    for attempt in attempts:
        with pytest.raises(MemoryFileError, match="outside the memory directory through a symbolic link"):
            attempt()
    assert sorted(p.name for p in outside.iterdir()) == ["target.txt"]
    assert (outside / "target.txt").read_text() == "do not touch\n"
    assert [v for v, _ in files.iter_files()] == ["/memories/ok.md"]  # links are not listed


def test_symlink_inside_the_root_is_followed(files: MemoryFiles) -> None:
    files.create("/memories/real.md", "inside\n")
    os.symlink(files.root / "real.md", files.root / "alias.md")
    assert files.view("/memories/alias.md") == "     1\tinside"


def test_oversized_and_non_text_content_is_refused_and_nothing_is_lost(files: MemoryFiles) -> None:
    files.create("/memories/keep.md", "original\n")
    with pytest.raises(MemoryFileError, match="content is 2000 bytes; the limit per file is 1024 bytes"):
        files.create("/memories/keep.md", "x" * 2000)
    with pytest.raises(MemoryFileError, match="not valid UTF-8"):
        files.create("/memories/keep.md", "bad \ud800 surrogate")
    with pytest.raises(MemoryFileError, match="NUL bytes"):
        files.create("/memories/keep.md", "a\x00b")
    with pytest.raises(MemoryFileError, match="limit per file"):
        files.str_replace("/memories/keep.md", "original", "y" * 1500)
    assert (files.root / "keep.md").read_text() == "original\n"
    assert sorted(p.name for p in files.root.iterdir()) == ["keep.md"]  # no temp files left


def test_total_quota(files: MemoryFiles) -> None:
    for i in range(4):
        files.create(f"/memories/f{i}.md", "z" * 1000)
    with pytest.raises(MemoryFileError, match="limit is 4096"):
        files.create("/memories/f4.md", "z" * 1000)
    files.create("/memories/f0.md", "small")  # overwriting frees the old size


def test_non_utf8_and_oversized_files_on_disk(files: MemoryFiles) -> None:
    files.root.mkdir(parents=True)
    (files.root / "blob.bin").write_bytes(b"\xff\xfe\x00binary")
    (files.root / "huge.md").write_text("h" * 5000)
    with pytest.raises(MemoryFileError, match="not UTF-8 text"):
        files.view("/memories/blob.bin")
    with pytest.raises(MemoryFileError, match="not UTF-8 text"):
        files.str_replace("/memories/blob.bin", "binary", "x")
    with pytest.raises(MemoryFileError, match="is 5000 bytes; files over 1024 bytes are not read"):
        files.view("/memories/huge.md")
    assert (files.root / "blob.bin").read_bytes() == b"\xff\xfe\x00binary"


def test_edit_errors_leave_the_file_unchanged(files: MemoryFiles) -> None:
    files.create("/memories/n.md", "a\nb\na\n")
    with pytest.raises(MemoryFileError, match=r"occurs 2 times in /memories/n.md \(lines 1, 3\)"):
        files.str_replace("/memories/n.md", "a", "c")
    with pytest.raises(MemoryFileError, match="was not found"):
        files.str_replace("/memories/n.md", "zzz", "c")
    with pytest.raises(MemoryFileError, match="between 0 and 3"):
        files.insert("/memories/n.md", 7, "x")
    with pytest.raises(MemoryFileError, match="outside the file's lines 1..3"):
        files.view("/memories/n.md", [2, 9])
    files.create("/memories/m.md", "m")
    with pytest.raises(MemoryFileError, match="already exists"):
        files.rename("/memories/m.md", "/memories/n.md")
    with pytest.raises(MemoryFileError, match="refusing to delete /memories itself"):
        files.delete("/memories")
    with pytest.raises(MemoryFileError, match="does not exist"):
        files.view("/memories/missing.md")
    assert (files.root / "n.md").read_text() == "a\nb\na\n"


def test_tool_reports_malformed_calls_clearly(tmp_path: Path) -> None:
    tool = memory_file_tool(tmp_path, gate(ALICE))
    assert call(tool, command="explode", path="/memories/a") == (
        "Error: invalid arguments: unknown command 'explode'; expected one of "
        "view, create, str_replace, insert, delete, rename"
    )
    assert call(tool, command="create", path="/memories/a.md") == "Error: command 'create' needs 'file_text'"
    assert call(tool, command="view", path="/memories", file_text="x") == "Error: command 'view' does not take 'file_text'"
    assert call(tool, command="insert", path="/memories/a.md", insert_line="two", insert_text="x").startswith(
        "Error: invalid arguments: insert_line:"
    )
    assert call(tool, command="view", path="/memories/../../etc/passwd").startswith("Error: path")
    assert set(tool.args) >= {"command", "path", "file_text", "old_str", "new_str", "insert_line", "view_range"}
    assert not any("user" in name for name in tool.args)


def test_tool_never_shows_another_users_files(tmp_path: Path) -> None:
    bob = memory_file_tool(tmp_path, gate(BOB))
    alice = memory_file_tool(tmp_path, gate(ALICE))
    assert call(bob, command="create", path="/memories/diary.md", file_text="bob's secret plan\n").startswith("Created")
    outputs = [
        call(alice, command="view", path="/memories"),
        call(alice, command="view", path="/memories/diary.md"),
        call(alice, command="view", path="/memories/../bob/diary.md"),
        call(alice, command="view", path="/memories/../../memories/bob/diary.md"),
    ]
    assert outputs[0] == "/memories is empty"
    assert all("secret plan" not in out for out in outputs)
    assert call(bob, command="view", path="/memories/diary.md") == "     1\tbob's secret plan"


def test_tool_needs_the_write_gate_not_a_bare_scope(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="MemoryGate"):
        memory_file_tool(tmp_path, ALICE)  # type: ignore[arg-type]


def test_tool_writes_pass_the_gate_consent_secrets_size(tmp_path: Path) -> None:
    store = InMemoryStore()
    tool = memory_file_tool(tmp_path, MemoryGate(store, ALICE), max_file_bytes=200_000)
    assert call(tool, command="create", path="/memories/a.md", file_text="wifi password is hunter2-Blue!\n").startswith("Created")
    on_disk = (user_memory_dir(tmp_path, ALICE) / "a.md").read_text()
    assert "hunter2" not in on_disk and "[REDACTED:password]" in on_disk
    assert call(tool, command="insert", path="/memories/a.md", insert_line=1, insert_text="x" * 10).startswith("Inserted")
    assert "the limit is" in call(tool, command="create", path="/memories/big.md", file_text="y" * 70_000)
    assert not (user_memory_dir(tmp_path, ALICE) / "big.md").exists()

    set_memory_enabled(store, ALICE, False)
    off = memory_file_tool(tmp_path, MemoryGate(store, ALICE))
    before = on_disk = (user_memory_dir(tmp_path, ALICE) / "a.md").read_text()
    for args in ({"command": "create", "path": "/memories/b.md", "file_text": "I hate cilantro\n"},
                 {"command": "insert", "path": "/memories/a.md", "insert_line": 0, "insert_text": "cilantro"},
                 {"command": "str_replace", "path": "/memories/a.md", "old_str": "wifi", "new_str": "cilantro"},
                 {"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/c.md"}):
        assert call(off, **args) == "Error: long-term memory is off for this user; nothing was saved"
    assert (user_memory_dir(tmp_path, ALICE) / "a.md").read_text() == before == on_disk
    assert sorted(p.name for p in user_memory_dir(tmp_path, ALICE).iterdir()) == ["a.md"]
    assert call(off, command="delete", path="/memories/a.md") == "Deleted /memories/a.md"  # deleting always works
