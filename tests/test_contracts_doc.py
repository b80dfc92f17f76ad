"""The project holds its own contracts (issue 36): `docs/contracts.md` states each one under its own
heading, the code, tests and docs cite it (or another page of ours) and never a design file that a clone
of the repository does not have, and only the tests that check against outside references read the
folder beside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from minis.rulestest import run_file

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "contracts.md"

#: Each contract and the anchor of its section in docs/contracts.md.
CONTRACTS = {
    "hex labels": "hex-labels",
    "line of sight": "line-of-sight",
    "maps": "maps",
    "dice order": "dice-order",
    "action notation": "action-notation",
    "rules-test files": "rules-test-files",
    "rule sets in files": "rule-sets-in-files",
    "card ids": "card-ids",
    "army files": "army-files",
    "unit ids": "unit-ids",
    "record and save files": "record-and-save-files",
    "command line": "command-line",
    "exit codes and messages": "exit-codes-and-messages",
    "module names": "module-names",
}

#: The tests that check our files against the outside references beside the repository
#: (`../shared/reference/`): they skip when it is absent, as in a user's clone.
REFERENCE_CHECKERS = {
    "tests/test_ability_catalogue_families.py",
    "tests/test_cards_files.py",
    "tests/test_maps_reference.py",
}

#: A citation of the outside design file: `DESIGN.md`, `DESIGN section 6`, `DESIGN action notation`.
DESIGN_CITATION = re.compile(r"\bDESIGN\b(?!_)")
#: A path into the folder beside the repository in code: `... / "shared" / ...`, `Path("../shared/...")`.
SHARED_PATH = re.compile(r"""/\s*["']shared["']|Path\(["'][^"']*shared""")
#: A citation of one of our pages with an anchor: `docs/contracts.md#dice-order`, `(engine.md#rules-tests)`.
PAGE_ANCHOR = re.compile(r"(?:docs/|\()([a-z-]+)\.md#([a-z0-9-]+)")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside code blocks, where `#` starts a comment)."""
    found: set[str] = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := re.match(r"#{1,6} (.+)", line)):
            found.add(slug(match.group(1)))
    return found


def files(*folders: str, suffixes: tuple[str, ...] = (".py", ".md", ".toml")) -> list[Path]:
    return sorted(
        path
        for folder in folders
        for path in (ROOT / folder).rglob("*")
        if path.suffix in suffixes and path.is_file() and "screenshots" not in path.parts
    )


def test_the_page_has_a_section_for_every_contract() -> None:
    assert DOC.is_file(), "docs/contracts.md holds the contracts"
    have = anchors(DOC)
    missing = {name: anchor for name, anchor in CONTRACTS.items() if anchor not in have}
    assert not missing, f"docs/contracts.md has no section for: {missing}"


@pytest.mark.parametrize("anchor", sorted(CONTRACTS.values()))
def test_the_index_table_links_every_section(anchor: str) -> None:
    assert f"](#{anchor})" in DOC.read_text(encoding="utf-8")


def test_the_example_rules_test_passes(tmp_path: Path) -> None:
    """The page's rules-test example is a real test, so every key it shows means what it says."""
    found = re.search(r"## Rules-test files\n.*?```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/contracts.md shows an example rules test"
    path = tmp_path / "example.toml"
    path.write_text(found.group(1), encoding="utf-8")
    outcome = run_file(path)
    assert outcome.passed, outcome.reason
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(found.group(1).replace('at = "B2"', 'at = "B1"'), encoding="utf-8")
    assert "sherman is in B2, expected B1" in run_file(wrong).reason


def test_nothing_cites_the_outside_design_file() -> None:
    citing = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [*files("minis", "tests", "docs", "tools", "benchmarks"), ROOT / "README.md"]
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if DESIGN_CITATION.search(line)
    ]
    assert not citing, "cite docs/contracts.md (or another page of ours) instead:\n" + "\n".join(citing)


def test_only_the_reference_checkers_read_the_folder_beside_the_repository() -> None:
    readers = {
        str(path.relative_to(ROOT))
        for path in files("minis", "tests", suffixes=(".py",))
        if path != Path(__file__).resolve() and SHARED_PATH.search(path.read_text(encoding="utf-8"))
    }
    assert readers == REFERENCE_CHECKERS


def test_every_cited_anchor_of_our_pages_exists() -> None:
    """A citation `docs/contracts.md#dice-order` in code, tests or docs points at a heading that is there."""
    pages = {path.stem: anchors(path) for path in (ROOT / "docs").glob("*.md")}
    broken = [
        f"{path.relative_to(ROOT)}: {page}.md#{anchor}"
        for path in [*files("minis", "tests", "docs"), ROOT / "README.md"]
        for page, anchor in PAGE_ANCHOR.findall(path.read_text(encoding="utf-8"))
        if page in pages and anchor not in pages[page]
    ]
    assert not broken, "no such heading:\n" + "\n".join(broken)
