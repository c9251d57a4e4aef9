"""The docs stay true to the code: the generated configuration table, links that land, a short README.

The code examples in the same pages run in tests/test_readme_examples.py.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

README = ROOT / "README.md"
PAGES = [README, ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_configuration_table_is_generated_from_context() -> None:
    from docs.gen_config import DOC, rewrite

    committed = DOC.read_text()
    assert rewrite(committed) == committed, "docs/configuration.md is stale: run python -m docs.gen_config"


def test_the_generator_checks_and_rewrites(tmp_path: Path) -> None:
    """``--check`` fails on a stale table; a rewrite makes it pass again."""
    from docs import gen_config

    stale = tmp_path / "configuration.md"
    stale.write_text(f"intro\n{gen_config.BEGIN}\n| old |\n{gen_config.END}\nnotes\n")
    run = [sys.executable, "-c", "import sys, docs.gen_config as g; from pathlib import Path; "
           f"g.DOC = Path({str(stale)!r}); sys.exit(g.main(sys.argv[1:]))"]
    assert subprocess.run([*run, "--check"], cwd=ROOT, capture_output=True).returncode == 1
    assert subprocess.run(run, cwd=ROOT).returncode == 0
    assert subprocess.run([*run, "--check"], cwd=ROOT).returncode == 0
    text = stale.read_text()
    assert text.startswith("intro\n") and text.endswith("notes\n") and "`MEMORY_TOP_K` | `5` | per run" in text
    assert "`MEMORY_DATA_DIR` | `./data` | server only" in text


def test_every_relative_link_lands() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text()):
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, fragment = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif fragment and dest.suffix == ".md" and fragment not in map(anchor, HEADING.findall(dest.read_text())):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, broken


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    assert "make demo" in text and "make test" in text and ".ci/run" in text
    assert "CC BY-NC 4.0" in text  # the LoCoMo attribution stays on the front page
    assert "| R@5" not in text and "p50" not in text  # benchmark tables live in bench/README.md


def test_each_benchmark_section_names_a_command_that_exists() -> None:
    sections = HEADING.findall((ROOT / "bench" / "README.md").read_text())[1:]
    assert sections
    for title in sections:
        modules = re.findall(r"`python -m (bench\.\w+)", title)
        assert modules, f"bench/README.md section {title!r} is not headed by its command"
        for module in modules:
            assert importlib.util.find_spec(module), f"{title!r}: no module {module}"


def test_the_architecture_layout_follows_the_layering_contract() -> None:
    """docs/architecture.md's layout table lists the contract's layers in the contract's order (app/ last)."""
    import tomllib

    contract = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]
    tops = list(dict.fromkeys(layer.split(".")[0].split(" ")[0] for layer in contract["layers"]))
    rows = re.findall(r"^\| `(\w+)/`", (ROOT / "docs" / "architecture.md").read_text(), re.M)
    documented = [r for r in dict.fromkeys(rows) if r in tops]
    assert [t for t in tops if t != "app"] == [r for r in documented if r != "app"], (tops, rows)


def test_the_architecture_layer_table_lists_default_layers_in_order() -> None:
    """docs/architecture.md's layer table names exactly ``default_layers()``, in its order."""
    from memory.layers import default_layers

    text = (ROOT / "docs" / "architecture.md").read_text()
    table = text[text.index("| layer | file | kept in | read | write |"):]
    rows = re.findall(r"^\| ([a-z ]+) \| `", table.split("\n\n")[0], re.M)
    assert rows == [layer.name.replace("_", " ") for layer in default_layers()], rows
    count = {5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}[len(rows)]
    assert f"these {count}, in this order" in text  # the sentence above the table says how many
