"""The map editor's document model, without a window: edits, undo/redo, live problems, saving.

Round trips: every shipped map and scenario file opened in the editor and saved unchanged comes back
byte for byte; a changed file changes only where it was edited (diff-friendly).
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minis.base.sides import Side
from minis.cli import main
from minis.engine.scenario import SCENARIOS_DIR, dump_scenario, load_scenario, shipped_scenarios
from minis.hexgrid import Hex
from minis.mapfile import MAPS_DIR, Configuration, MapDoc, Section, dump, parse_document
from minis.ui.editor.model import (
    EditError,
    Editor,
    Frame,
    add_road,
    add_stream,
    board_of,
    new_map,
    remove_road,
    remove_stream,
)

ROOT = Path(__file__).resolve().parent.parent
MAP_FILES = sorted(MAPS_DIR.rglob("*.toml")) + sorted((SCENARIOS_DIR / "maps").glob("*.toml"))
SCENARIO_FILES = shipped_scenarios()


@attrs.frozen
class Run:
    returncode: int
    stdout: str
    stderr: str


def minis(*args: str, cwd: Path | None = None) -> Run:
    """Run the `minis` command in this process (as the console script would), from `cwd`."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        os.chdir(cwd or ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(here)
    return Run(code, out.getvalue(), err.getvalue())


# --- round trips -----------------------------------------------------------------------------------
def test_the_shipped_files_are_all_there() -> None:
    assert len(MAP_FILES) == 17  # 8 sections, 6 configurations, Breakout, Bombardment, River Crossing
    assert [p.name for p in SCENARIO_FILES] == [
        "air-cover.toml",
        "airborne-drop.toml",
        "assault.toml",
        "bombardment.toml",
        "breakout.toml",
        "river-crossing.toml",
        "standard.toml",
    ]


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_saving_an_unchanged_map_gives_the_same_bytes(path: Path, tmp_path: Path) -> None:
    editor = Editor.open(path)
    assert not editor.modified and editor.problems() == []
    assert editor.document is not None
    assert dump(editor.document) == path.read_text(encoding="utf-8")  # canonical, not only kept text
    copy = tmp_path / path.name
    editor.save(map_path=copy)
    assert copy.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_an_unchanged_scenario_is_written_as_it_was(path: Path) -> None:
    editor = Editor.open(path)
    assert not editor.modified and editor.problems() == []
    assert editor.scenario is not None
    assert dump_scenario(editor.scenario) == path.read_text(encoding="utf-8")
    assert editor.scenario_text() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=lambda p: p.name)
def test_a_scenario_and_its_map_saved_elsewhere_come_back_unchanged(path: Path, tmp_path: Path) -> None:
    editor = Editor.open(path)
    target = tmp_path / path.name
    if editor.document is not None:  # the map goes beside it, under the same relative name
        assert editor.scenario is not None
        (tmp_path / "maps").mkdir()
        editor.save(map_path=tmp_path / str(editor.scenario.map), scenario_path=target)
    else:
        editor.save(scenario_path=target)
    assert target.read_bytes() == path.read_bytes()
    assert load_scenario(target).doc == load_scenario(path).doc


def test_saving_keeps_a_hand_written_layout_when_nothing_changed(tmp_path: Path) -> None:
    messy = tmp_path / "messy.toml"
    messy.write_text('kind = "map"   # my map\nterrain = """\nC C C\n C C\n"""\nroads = [ "a1 a2" ]\n')
    editor = Editor.open(messy)
    written = editor.save()
    assert written == [] and messy.read_text().startswith('kind = "map"   # my map')
    editor.save(map_path=tmp_path / "copy.toml")
    assert (tmp_path / "copy.toml").read_bytes() == messy.read_bytes()


def changed_lines(before: str, after: str) -> list[str]:
    return [
        line
        for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]


def test_a_changed_section_changes_only_where_it_was_edited(tmp_path: Path) -> None:
    path = MAPS_DIR / "sections" / "able-1.toml"
    editor = Editor.open(path)
    board = editor.board
    assert editor.paint(board.parse("C3"), "T")
    assert editor.road(board.parse("E1"), board.parse("E2"))
    editor.save(map_path=tmp_path / "able-1.toml")
    diff = changed_lines(path.read_text(), (tmp_path / "able-1.toml").read_text())
    assert diff == ["-C C C C M C F C", "+C C T C M C F C", '+    "E1 E2",']


def test_extending_a_road_edits_its_own_line(tmp_path: Path) -> None:
    path = ROOT / "scenarios" / "maps" / "river-line.toml"
    editor = Editor.open(path)
    board = editor.board
    editor.road(board.parse("E18"), board.parse("D17"))  # on from the road's last hex
    editor.save(map_path=tmp_path / "river.toml")
    diff = changed_lines(path.read_text(), (tmp_path / "river.toml").read_text())
    assert diff == [
        '-    "E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12 E13 E14 E15 E16 E17 E18",',
        '+    "E1 E2 E3 E4 E5 E6 E7 E8 E9 E10 E11 E12 E13 E14 E15 E16 E17 E18 D17",',
    ]


# --- edits ---------------------------------------------------------------------------------------
def small() -> Editor:
    return Editor.new(5, 6, title="Small")


def test_painting_roads_streams_and_the_objective() -> None:
    editor = small()
    b = editor.board
    a1, a2, b2, b1 = (b.parse(x) for x in ("A1", "A2", "B2", "B1"))
    assert editor.paint(a1, "F") and editor.document.terrain[0] == "FCCCCC"
    assert not editor.paint(a1, "F")  # no change, no undo step
    assert editor.road(a1, a2) and editor.road(a2, b2)
    assert editor.document.roads == (("A1", "A2", "B2"),)
    assert editor.stream(a1, b1) and editor.stream(b1, a2)
    assert editor.document.streams == (("A1/B1", "B1/A2"),)
    assert editor.place_objective(b.parse("C3")) and editor.document.objective == "C3"
    board = editor.board
    assert board.has_road(a2, b2) and board.has_stream(b1, a2) and board.objective == b.parse("C3")
    assert len(editor.undo_stack) == 6
    with pytest.raises(EditError, match="neighbouring"):
        editor.road(a1, b.parse("C3"))
    with pytest.raises(EditError, match="unknown terrain"):
        editor.paint(a1, "X")


def test_removing_a_road_link_splits_the_road() -> None:
    frame = Frame(0, {h: "full" for h in new_map_board().hexes})
    board = new_map_board()
    hexes = [board.parse(x) for x in ("A1", "A2", "A3", "A4")]
    roads = (("A1", "A2", "A3", "A4"),)
    assert remove_road(roads, frame, hexes[1], hexes[2]) == (("A1", "A2"), ("A3", "A4"))
    assert remove_road(roads, frame, hexes[0], hexes[1]) == (("A2", "A3", "A4"),)
    assert add_road((), frame, hexes[0], hexes[1]) == (("A1", "A2"),)
    assert add_road((("A2", "A3"),), frame, hexes[1], hexes[0]) == (("A1", "A2", "A3"),)
    streams = (("A1/A2", "A2/B1"),)
    assert remove_stream(streams, frame, hexes[0], hexes[1]) == (("A2/B1",),)
    assert add_stream((), frame, hexes[2], hexes[3]) == (("A3/A4",),)


def new_map_board():  # type: ignore[no-untyped-def]
    return board_of(new_map(4, 5))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5), st.booleans()), max_size=25)
)
def test_random_road_edits_keep_the_documents_links_equal_to_the_links_drawn(
    edits: list[tuple[int, int, int, bool]],
) -> None:
    """Whatever is added and removed, the road list names exactly the links of the board."""
    from minis.hexgrid import FACINGS

    editor = Editor.new(4, 5)
    expected: set[frozenset[Hex]] = set()
    hexes = editor.board.hexes
    for r, n, facing, add in edits:
        row = [h for h in hexes if h.r == r]
        a = row[n % len(row)]
        b = a + FACINGS[facing].value
        if b not in editor.board:
            continue
        editor.road(a, b, add=add)
        (expected.add if add else expected.discard)(frozenset((a, b)))
        assert set(editor.board.roads) == expected
    assert parse_document(dump(editor.document), "x.toml") == editor.document


def test_undo_and_redo_go_back_and_forth_through_strokes() -> None:
    editor = small()
    b = editor.board
    editor.begin()
    for label in ("A1", "A2", "A3"):
        editor.paint(b.parse(label), "T")
    editor.end()
    editor.paint(b.parse("E1"), "H")
    assert editor.document.terrain[0] == "TTTCCC" and editor.modified
    assert editor.undo() and editor.document.terrain[4] == "CCCCCC"
    assert editor.undo() and editor.document.terrain[0] == "CCCCCC" and not editor.modified
    assert not editor.undo()
    assert editor.redo() and editor.document.terrain[0] == "TTTCCC"
    editor.paint(b.parse("B1"), "M")  # a new edit forgets what could be redone
    assert not editor.redo()


def test_resizing_keeps_features_and_reports_the_ones_off_the_map() -> None:
    editor = small()
    b = editor.board
    editor.place_objective(b.parse("E3"))
    editor.road(b.parse("D2"), b.parse("E2"))
    assert editor.problems() == []
    editor.resize(rows=-1, columns=2)
    assert editor.document.terrain == ("CCCCCCCC", "CCCCCCC", "CCCCCCCC", "CCCCCCC")
    messages = [p.message for p in editor.problems()]
    assert messages == ["there is no hex E2 on this map", "the objective E3 is off this map"]
    text = editor.map_text()
    assert text is not None
    with pytest.raises(Exception) as raised:
        parse_document(text, "untitled.toml")
    assert [str(p) for p in raised.value.problems] == [str(p) for p in editor.problems()]  # type: ignore[attr-defined]
    assert editor.tidy() and editor.problems() == []
    assert editor.document.roads == () and editor.document.objective is None
    with pytest.raises(EditError):
        editor.resize(rows=-10)


def test_tidy_cuts_listed_zones_to_the_map() -> None:
    editor = Editor.new(4, 14)
    b = editor.board
    editor.place_objective(b.parse("B7"))
    editor.zone("east", b.parse("A14"), add=False)  # the east zone is now listed hex by hex
    assert editor.scenario is not None
    assert editor.scenario.force("allies").zone == ("A10-A13", "B9-B13", "C10-C14", "D9-D13")
    editor.resize(columns=-2)
    assert [p.message for p in editor.problems()] == [
        "zone of [allies]: A13 is off the map: row A runs from A1 to A12",
        "zone of [allies]: B13 is off the map: row B runs from B1 to B11",
        "zone of [allies]: C14 is off the map: row C runs from C1 to C12",
        "zone of [allies]: D13 is off the map: row D runs from D1 to D11",
    ]
    editor.tidy()
    assert editor.problems() == []
    assert editor.scenario.force("allies").zone == 3  # what is left is the last three hexes of each row


def test_live_problems_are_those_of_minis_map_check(tmp_path: Path) -> None:
    editor = small()
    b = editor.board
    editor.place_objective(b.parse("E6"))
    editor.resize(columns=-1)
    path = tmp_path / "broken.toml"
    editor.save(map_path=path)
    result = minis("map", "check", str(path))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [str(p) for p in editor.problems()]
    assert editor.problem_hexes() == set()  # E6 is not on the map any more: nothing to mark


def test_zones_make_a_scenario_and_fix_the_ends(tmp_path: Path) -> None:
    editor = Editor.new(6, 14, title="Ridge")
    b = editor.board
    assert editor.scenario is None
    assert editor.zones()["west"] == b.deployment_zone("west")
    assert editor.zone("west", b.parse("A6"))
    scenario = editor.scenario
    assert scenario is not None and scenario.title == "Ridge"
    assert scenario.force("axis").end == "west" and scenario.force("allies").end == "east"
    assert editor.zones()["west"] == b.deployment_zone("west") | {b.parse("A6")}
    assert len(editor.undo_stack) == 1  # the scenario and the first zone hex are one step
    assert editor.zone("east", b.parse("A6"))  # a hex moves from one zone to the other
    assert b.parse("A6") not in editor.zones()["west"] and b.parse("A6") in editor.zones()["east"]
    editor.zone("east", b.parse("A6"), add=False)
    assert editor.scenario.force("axis").zone == 5 and editor.scenario.force("allies").zone == 5
    assert editor.cycle_victory() == "second player holds the objective until turn 10"
    editor.place_objective(b.parse("C7"))
    paths = editor.save(map_path=tmp_path / "ridge.toml")
    assert paths == [tmp_path / "ridge.toml", tmp_path / "ridge-scenario.toml"]
    scenario = load_scenario(tmp_path / "ridge-scenario.toml")
    assert scenario.board is not None and scenario.board.label(scenario.board.objective) == "C7"
    assert [c.kind for c in scenario.doc.victory] == ["hold"]


def test_a_section_paints_its_half_hexes_and_a_configuration_its_sections_only() -> None:
    editor = Editor.open(MAPS_DIR / "sections" / "baker-2.toml")
    assert isinstance(editor.document, Section)
    north = sorted((h for h in editor.board.half_hexes if h.r < 0), key=lambda h: h.q)
    editor.paint(north[1], "F")  # the corner quarter-hex is north[0]
    assert editor.document.north[0] == "F"
    with pytest.raises(EditError, match="no objective"):
        editor.place_objective(editor.board.parse("C3"))
    with pytest.raises(EditError, match="fixed size"):
        editor.resize(rows=1)
    editor = Editor.open(MAPS_DIR / "configurations" / "3-high-ground.toml")
    assert isinstance(editor.document, Configuration)
    with pytest.raises(EditError, match="terrain belongs to the sections"):
        editor.paint(editor.board.parse("C3"), "F")
    board = editor.board
    road = next(iter(board.roads))
    with pytest.raises(EditError, match="belongs to a section"):
        editor.road(*road, add=False)
    a, c = board.parse("K2"), board.parse("K3")
    editor.road(a, c)
    assert editor.document.roads == (("K2", "K3"),) and editor.problems() == []
    editor.place_objective(board.parse("F9"))
    assert editor.document.objective == "F9"


def test_a_scenario_made_on_a_configuration_is_not_saved_among_the_configurations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    editor = Editor.open(MAPS_DIR / "configurations" / "5-hill-107.toml")
    editor.zone("west", editor.board.parse("A6"))
    assert editor.scenario is not None and editor.scenario.map == 5
    assert editor.save() == [Path("5-hill-107-scenario.toml")]  # the configuration did not change
    scenario = load_scenario(tmp_path / "5-hill-107-scenario.toml")
    assert scenario.configuration == 5 and editor.board.parse("A6") in scenario.zone(
        scenario.board, Side.AXIS, "west"
    )
    assert sorted(p.name for p in (MAPS_DIR / "configurations").glob("5-*")) == ["5-hill-107.toml"]


def test_a_scenario_on_a_numbered_configuration_edits_its_own_objective_and_zones(tmp_path: Path) -> None:
    path = tmp_path / "hill.toml"
    path.write_text(
        'kind = "scenario"\ntitle = "Hill"\nmap = 5\n\n[axis]\npoints = 100\nzone = 5\n\n'
        '[allies]\npoints = 100\nzone = 5\n\n[[victory]]\nkind = "objective"\nfrom_turn = 7\n'
    )
    editor = Editor.open(path)
    assert editor.document is None and editor.kind == "scenario"
    b = editor.board
    editor.place_objective(b.parse("F9"))
    assert editor.scenario.objective == "F9"
    with pytest.raises(EditError, match="shared with other scenarios"):
        editor.paint(b.parse("F9"), "T")
    editor.save()
    assert 'objective = "F9"' in path.read_text()
    assert load_scenario(path).objective_hex(b) == b.parse("F9")


def test_map_new_writes_a_map_that_map_check_accepts(tmp_path: Path) -> None:
    result = minis(
        "map", "new", "--rows", "7", "--cols", "12", "--title", "Plain", "plain.toml", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "wrote plain.toml (7 rows, 81 hexes)"
    document = parse_document((tmp_path / "plain.toml").read_text(), "plain.toml")
    assert isinstance(document, MapDoc) and document.title == "Plain"
    assert document.terrain == ("C" * 12, "C" * 11) * 3 + ("C" * 12,)
    check = minis("map", "check", "plain.toml", cwd=tmp_path)
    assert check.returncode == 0 and check.stdout.startswith("OK plain.toml (map: 81 hexes")
    again = minis("map", "new", "--rows", "7", "--cols", "12", "plain.toml", cwd=tmp_path)
    assert again.returncode == 2 and "exists already" in again.stderr
    bad = minis("map", "new", "--rows", "0", "--cols", "12", "zero.toml", cwd=tmp_path)
    assert bad.returncode == 1 and bad.stderr.strip() == "zero.toml:0:0: a map has 1 to 100 rows, not 0"
    assert not (tmp_path / "zero.toml").exists()


def test_saves_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while writing leaves the old file whole and no temporary file behind."""
    path = tmp_path / "map.toml"
    editor = Editor.new(3, 4)
    editor.save(map_path=path)
    before = path.read_bytes()
    editor.paint(editor.board.parse("A1"), "F")

    def broken(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(Exception, match="No space left"):
        editor.save()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.toml"]
    assert editor.modified
