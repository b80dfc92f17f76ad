"""`minis lab report`: estimates recover card values planted in synthetic games; its files hold every card.

The games here are not played: they are drawn from known log-odds effects (win ~ Bernoulli(sigmoid(sum))),
stored in a DuckDB file of the lab's schema, and the report must find the effects again within its intervals.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

import attrs
import duckdb
import numpy as np
import pytest

from minis.base.errors import EXIT_CHECK, EXIT_UNREADABLE, MinisError
from minis.cli import main
from minis.content import card_worth
from minis.lab import report as lab_report
from minis.lab.report import PENALTY, Z95, CardInfo, estimate, fit, load_games, make_report, wilson
from minis.lab.store import GAMES_TABLE, STUDY_TABLE

#: Real catalogue cards (so that the report shows their names), with a planted value each: about 0.04
#: log-odds per printed point, some cards priced well, some badly, one that hurts its own side.
AXIS = {
    "20mm-flak-38": 0.28,
    "70mm-type-92": 0.75,  # under-priced: worth more than its 10 points
    "autoblinda-ab-41": -0.40,  # hurts
    "bf109e-escort": 0.56,
    "cannone-da-75-27-modello-11": 0.24,
    "elite-panzer-iv-ausf-d": 0.30,  # over-priced: 18 points, worth about 8
}
ALLIES = {
    "17-pounder-anti-tank-gun": 0.52,
    "76-2mm-model-1942": 0.36,
    "australian-officer": 0.0,  # worth nothing here
    "bt-5": 0.40,
    "churchill-iii": 1.10,
    "cruiser-mk-iii-a13": 0.36,
}
TRUTH = AXIS | ALLIES
AXIS_EDGE = 0.2
FIRST_EDGE = 0.3


#: The columns of a game, as read_json reads each row of `planted_games`.
COLUMNS = (
    "{game: 'BIGINT', seed: 'BIGINT', configuration: 'INTEGER', first: 'VARCHAR', winner: 'VARCHAR', "
    "turns: 'INTEGER', axis_points: 'INTEGER', allies_points: 'INTEGER', axis_units: 'VARCHAR[]', "
    "allies_units: 'VARCHAR[]', axis_cost: 'INTEGER', allies_cost: 'INTEGER'}"
)

NAMES = tuple(part.split(":")[0].strip(" {") for part in COLUMNS.split(","))

Row = tuple[int, int, int, str, str, int, int, int, list[str], list[str], int, int]


def planted_games(count: int, seed: int, draws: float = 0.0) -> list[Row]:
    """Games whose winner is drawn from TRUTH: armies of 4-6 random cards a side."""
    rng = random.Random(seed)
    rows: list[Row] = []
    for game in range(count):
        axis = rng.choices(list(AXIS), k=rng.randint(4, 6))
        allies = rng.choices(list(ALLIES), k=rng.randint(4, 6))
        first = rng.choice(("axis", "allies"))
        logit = AXIS_EDGE + (FIRST_EDGE if first == "axis" else -FIRST_EDGE)
        logit += sum(TRUTH[card] for card in axis) - sum(TRUTH[card] for card in allies)
        if rng.random() < draws:
            winner = "draw"
        else:
            winner = "axis" if rng.random() < 1 / (1 + math.exp(-logit)) else "allies"
        configuration = 1 + game % 3
        rows.append(
            (game, rng.getrandbits(62), configuration, first, winner, 8, 0, 0, axis, allies, 0.0, 0.0)
        )
    return rows


#: The engine the planted games say played them.
ENGINE = ("0.1.0", "0123456789abcdef")


def write_db(
    path: Path,
    rows: list[Row],
    name: str = "planted truth",
    sha256: str = "x",
    engine: tuple[str, str] | None = ENGINE,
) -> Path:
    con = duckdb.connect(str(path))
    try:
        con.execute(GAMES_TABLE)
        con.execute(STUDY_TABLE)
        con.execute("INSERT INTO study VALUES (?, ?, 'c', 'm', '2005')", [name, sha256])
        if rows:  # through a JSON file: executemany takes seconds for a few thousand rows
            lines = path.with_suffix(".jsonl")
            lines.write_text(
                "".join(json.dumps(dict(zip(NAMES, row, strict=True))) + "\n" for row in rows),
                encoding="utf-8",
            )
            con.execute(
                f"INSERT INTO games BY NAME SELECT * FROM read_json('{lines}', format = 'newline_delimited', "
                f"columns = {COLUMNS})"
            )
            if engine is not None:
                con.execute("UPDATE games SET engine_version = ?, engine_digest = ?", list(engine))
    finally:
        con.close()
    return path


@pytest.fixture(autouse=True, scope="module")
def matplotlib_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Matplotlib keeps a font cache in the home folder: point it at a tmp folder (read at first import)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MPLCONFIGDIR", str(tmp_path_factory.mktemp("matplotlib")))
        yield


def costs() -> dict[str, CardInfo]:
    return lab_report.catalogue_info()


def test_planted_card_values_are_recovered_within_their_intervals(tmp_path: Path) -> None:
    inside = total = 0
    for seed in range(3):
        games, study = load_games(write_db(tmp_path / f"planted{seed}.duckdb", planted_games(3000, seed)))
        report = estimate(games, costs(), study)
        assert study == "planted truth"
        assert {card.card_id for card in report.cards} == set(TRUTH)
        for card in report.cards:
            total += 1
            inside += card.effect_lo <= TRUTH[card.card_id] <= card.effect_hi
            if abs(TRUTH[card.card_id]) >= 0.3:
                assert math.copysign(1, card.effect) == math.copysign(1, TRUTH[card.card_id]), card
            assert card.games > 1000
        # The Axis edge is not checked: with cards of one side only, it is tangled with the average value
        # of the Axis cards (the penalty pulls the cards towards 0 and the edge takes up the rest).
        assert report.first_edge[1] <= FIRST_EDGE <= report.first_edge[2]
        assert 0.02 < report.exchange_rate < 0.06
    assert inside >= 0.9 * total, f"{inside} of {total} planted values inside their 95% intervals"


def test_the_sparse_fit_is_plain_penalised_irls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same fit with a dense design matrix, written out the textbook way; small Hessian chunks."""
    games, _study = load_games(write_db(tmp_path / "planted.duckdb", planted_games(400, 11, draws=0.1)))
    monkeypatch.setattr(lab_report, "PAIR_BUDGET", 500)
    info = costs()
    card_costs = np.array([info[card].cost for card in games.card_ids])
    beta, covariance = fit(games, card_costs)
    x = np.zeros((games.size, 3 + len(games.card_ids)))
    x[:, 0] = 1.0
    x[:, 1] = np.where(games.first_axis, 1.0, -1.0)
    x[games.rows, games.cols + 3] = games.counts
    x[:, 2] = x[:, 3:] @ card_costs  # the armies' difference in printed points
    ridge = np.diag([lab_report.FIXED_PENALTY] * 3 + [PENALTY] * len(games.card_ids))
    expected = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ expected))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + ridge
        expected += np.linalg.solve(hessian, x.T @ (games.score - p) - ridge @ expected)
    assert beta == pytest.approx(expected, abs=1e-8)
    assert covariance == pytest.approx(np.linalg.inv(hessian), rel=1e-6, abs=1e-10)


def budget_games(count: int, seed: int, low: int, high: int) -> list[Row]:
    """Games like a study's: each army of random cards bought until the next would pass its points,
    drawn from `low` to `high`; the winner drawn from FAIR at RATE log-odds a point."""
    rng = random.Random(seed)
    info = costs()
    rows: list[Row] = []
    for game in range(count):
        armies = []
        for pool in (AXIS, ALLIES):
            budget, army = rng.randint(low, high), []
            while True:
                fits = [card for card in pool if info[card].cost <= budget]
                if not fits:
                    break
                army.append(rng.choice(fits))
                budget -= int(info[army[-1]].cost)
            armies.append(army)
        logit = RATE * (sum(FAIR[card] for card in armies[0]) - sum(FAIR[card] for card in armies[1]))
        winner = "axis" if rng.random() < 1 / (1 + math.exp(-logit)) else "allies"
        spent = [int(sum(info[card].cost for card in army)) for army in armies]
        rows.append((game, game, 1, "axis", winner, 8, 0, 0, armies[0], armies[1], spent[0], spent[1]))
    return rows


#: Planted fair costs in points for `budget_games`: most cards at their printed cost, three not.
FAIR = {card: lab_report.catalogue_info()[card].cost for card in TRUTH} | {
    "autoblinda-ab-41": 2.0,  # costs 8
    "churchill-iii": 45.0,  # costs 31
    "bt-5": 4.0,  # costs 12
}
RATE = 0.04


def test_armies_of_equal_points_cannot_price_a_point_and_the_report_says_so(tmp_path: Path) -> None:
    """Armies of one budget hold the same points whatever they hold: no rate, no fair costs, said plainly;
    the same games with budgets from 60 to 140 recover the rate and the misprices."""
    games, study = load_games(write_db(tmp_path / "equal.duckdb", budget_games(4000, 3, 100, 100)))
    report = estimate(games, costs(), study)
    assert not report.exchange_rate - Z95 * report.rate_error > 0.01
    assert "warning: the games can't yet tell dear cards from cheap ones" in lab_report.summary(report)
    unpriced = attrs.evolve(report, cards=tuple(attrs.evolve(c, fair=math.nan) for c in report.cards))
    assert "no card has a fair cost: no card is ranked" in lab_report.summary(unpriced)
    games, study = load_games(write_db(tmp_path / "spread.duckdb", budget_games(4000, 3, 60, 140)))
    report = estimate(games, costs(), study)
    assert (
        report.exchange_rate - Z95 * report.rate_error
        <= RATE
        <= report.exchange_rate + Z95 * report.rate_error
    )
    by_id = {card.card_id: card for card in report.cards}
    for card, fair in (("autoblinda-ab-41", 2.0), ("churchill-iii", 45.0), ("bt-5", 4.0)):
        assert by_id[card].fair_lo <= fair <= by_id[card].fair_hi, by_id[card]
        assert abs(by_id[card].fair - fair) < abs(by_id[card].fair - by_id[card].cost), by_id[card]
    order = [card.card_id for card in lab_report.ranked(report)]
    assert set(order[:2]) == {"bt-5", "autoblinda-ab-41"} and order[-1] == "churchill-iii"


def test_fair_cost_ranks_the_planted_misprices(tmp_path: Path) -> None:
    games, study = load_games(write_db(tmp_path / "planted.duckdb", planted_games(4000, 7)))
    report = estimate(games, costs(), study)
    order = [card.card_id for card in lab_report.ranked(report)]
    assert order[0] == "autoblinda-ab-41"  # costs 8 and hurts: the most over-priced
    assert order.index("elite-panzer-iv-ausf-d") < order.index("70mm-type-92")
    under = order[::-1][:3]
    assert "70mm-type-92" in under
    by_id = {card.card_id: card for card in report.cards}
    churchill = by_id["churchill-iii"]
    assert churchill.fair_lo <= churchill.fair <= churchill.fair_hi
    assert churchill.fair == pytest.approx(churchill.effect / report.exchange_rate)


def test_html_and_csv_hold_every_card(tmp_path: Path) -> None:
    db = write_db(tmp_path / "games.duckdb", planted_games(600, 3, draws=0.1))
    out = tmp_path / "out"
    stdout = io.StringIO()
    report = make_report(db, out, stdout, min_games=30)
    assert report.draws > 0 and report.games == 600
    page = (out / "report.html").read_text(encoding="utf-8")
    info = costs()
    for card in TRUTH:
        assert info[card].name in page
    assert page.count("data:image/png;base64,") == 1  # the map configurations
    assert page.count("<svg") == 1  # worth against printed cost
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")  # self-contained
    assert "https://" not in page
    with (out / "cards.csv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert {row["card"] for row in rows} == set(TRUTH)
    assert {row["name"] for row in rows} == {info[card].name for card in TRUTH}
    assert all(float(row["effect_lo"]) <= float(row["effect"]) <= float(row["effect_hi"]) for row in rows)
    with (out / "balance.csv").open(encoding="utf-8") as file:
        balance = list(csv.DictReader(file))
    assert [row["kind"] for row in balance] == ["side", "first player"] + ["configuration"] * 3
    assert sum(int(row["games"]) for row in balance if row["kind"] == "configuration") == 600
    text = stdout.getvalue()
    assert "most over-priced" in text and "most under-priced" in text
    over, under = text.split("most over-priced")[1].split("most under-priced")
    # the terminal names exactly the cards the CSV calls over- and under-priced
    for row in rows:
        assert (row["name"] in over) == (row["verdict"] == "over-priced"), row
        assert (row["name"] in under.split("could not be told")[0]) == (row["verdict"] == "under-priced"), row


def test_draws_count_as_half_a_win() -> None:
    rate, lo, hi = wilson(5.0, 10)
    assert rate == 0.5 and lo == pytest.approx(1 - hi)
    assert wilson(0.0, 0)[0] != wilson(0.0, 0)[0]  # NaN: no games, no rate


def test_wilson_interval_matches_the_textbook_figure() -> None:
    rate, lo, hi = wilson(81.0, 263)  # Wilson (1927) style example: 81/263 -> about 0.2553 to 0.3662
    assert rate == pytest.approx(0.30798, abs=1e-4)
    assert lo == pytest.approx(0.2553, abs=5e-4) and hi == pytest.approx(0.3662, abs=5e-4)


def test_an_empty_database_says_so_plainly(tmp_path: Path) -> None:
    db = write_db(tmp_path / "empty.duckdb", [])
    with pytest.raises(MinisError) as caught:
        make_report(db, tmp_path / "out", io.StringIO())
    assert caught.value.exit_code == EXIT_CHECK
    assert str(caught.value).startswith(f"{db}:0:0: this database holds no games yet")
    assert not (tmp_path / "out").exists()


def test_a_missing_or_broken_file_is_unreadable(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.duckdb"
    with pytest.raises(MinisError) as caught:
        make_report(missing, tmp_path / "out", io.StringIO())
    assert caught.value.exit_code == EXIT_UNREADABLE
    assert str(caught.value) == f"{missing}:0:0: no such file"
    broken = tmp_path / "broken.duckdb"
    broken.write_text("not a database\n")
    with pytest.raises(MinisError) as caught:
        make_report(broken, tmp_path / "out", io.StringIO())
    assert caught.value.exit_code == EXIT_UNREADABLE
    assert str(caught.value).startswith(f"{broken}:0:0: this is not a DuckDB database (some other file)")


def test_a_database_without_games_table_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.duckdb"
    duckdb.connect(str(db)).close()
    with pytest.raises(MinisError) as caught:
        load_games(db)
    assert caught.value.exit_code == EXIT_CHECK
    assert "no games table" in str(caught.value)


STUDY = """name = "planted truth"
bots = ["random", "random"]
rules = "2005"
games = 600
seed = 1
"""


def test_the_command_writes_beside_the_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "planted.toml"
    study.write_text(STUDY, encoding="utf-8")
    sha256 = hashlib.sha256(STUDY.encode()).hexdigest()
    write_db(tmp_path / "planted.duckdb", planted_games(600, 5), sha256=sha256)
    assert main(["lab", "report", str(study)]) == 0
    assert sorted(path.name for path in (tmp_path / "planted-report").iterdir()) == [
        "balance.csv",
        "cards.csv",
        "report.html",
    ]
    captured = capsys.readouterr()
    assert "most over-priced" in captured.out and captured.err == ""
    study.write_text(STUDY.replace("games = 600", "games = 700"), encoding="utf-8")
    assert main(["lab", "report", str(study)]) == 0
    assert capsys.readouterr().err.startswith(f"{study}:0:0: warning: this study was changed after the games")


def test_the_command_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    study = tmp_path / "planted.toml"
    study.write_text(STUDY, encoding="utf-8")
    assert main(["lab", "report", str(study)]) == EXIT_UNREADABLE
    assert capsys.readouterr().err == f"{tmp_path / 'planted.duckdb'}:0:0: no such file\n"
    write_db(tmp_path / "empty.duckdb", [])
    out = tmp_path / "out"
    assert main(["lab", "report", str(study), "--db", str(tmp_path / "empty.duckdb"), "--out", str(out)]) == 1
    error = capsys.readouterr().err
    assert "this database holds no games yet" in error and "minis lab run" in error
    assert not out.exists()
    assert main(["lab", "report", str(tmp_path / "nowhere.toml")]) == EXIT_UNREADABLE
    assert capsys.readouterr().err.startswith(f"{tmp_path / 'nowhere.toml'}:")


def test_the_table_option_writes_the_card_values_the_computer_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    study = tmp_path / "planted.toml"
    study.write_text(STUDY, encoding="utf-8")
    write_db(
        tmp_path / "planted.duckdb",
        planted_games(3000, 11),
        sha256=hashlib.sha256(STUDY.encode()).hexdigest(),
    )
    table = tmp_path / "values.toml"
    assert main(["lab", "report", str(study), "--table", str(table)]) == 0
    assert f"wrote {table}" in capsys.readouterr().out
    read = card_worth.read_table(table)
    assert read.study == "planted truth" and read.games == 3000
    assert set(read.cards) == set(TRUTH)
    report = estimate(load_games(tmp_path / "planted.duckdb")[0], costs())
    for card in report.cards:  # the table holds the report's own figures (to two decimals)
        line = read.cards[card.card_id]
        assert (line.cost, line.games) == (card.cost, card.games)
        assert line.fair == pytest.approx(card.fair, abs=0.006)
        assert (line.low, line.high) == (
            pytest.approx(card.fair_lo, abs=0.006),
            pytest.approx(card.fair_hi, abs=0.006),
        )
    worth = read.worth()  # each measured worth lies between the printed cost and the fair cost
    for card, value in worth.items():
        line = read.cards[card]
        assert min(line.cost, line.fair) - 1e-9 <= value <= max(line.cost, line.fair) + 1e-9


def test_a_map_rate_of_one_still_draws() -> None:
    """A rate of exactly 1 whose Wilson bound came out a rounding error below it (a scenario's games)."""
    rates = (
        lab_report.Rate("the scenario's own map", 12, 12.0, 1.0, 0.757, 0.9999999999999999),
        lab_report.Rate("configuration 2", 10, 0.0, 0.0, 1e-17, 0.28),
    )
    assert lab_report._configuration_plot(rates).startswith("data:image/png;base64,")


def _section(page: str, heading: str) -> str:
    """The page from a heading to the next."""
    return page.split(f"<h2>{heading}")[1].split("<h2>")[0]


def test_the_page_says_in_points_which_cards_are_mispriced_and_how_sure(tmp_path: Path) -> None:
    """Armies of 60 to 140 points price a point: the planted misprices are told, in points with their
    intervals, each table only with the cards whose interval leaves out the printed cost, all positive."""
    games, study = load_games(write_db(tmp_path / "spread.duckdb", budget_games(4000, 3, 60, 140)))
    fitted = estimate(games, costs(), study)
    # the games tell the two planted cheap cards; a Churchill III worth 38 to 52 points stands for a card
    # they tell is under-priced (4000 games leave its interval wide)
    report = attrs.evolve(
        fitted,
        cards=tuple(
            attrs.evolve(card, fair=45.0, fair_lo=38.0, fair_hi=52.0)
            if card.card_id == "churchill-iii"
            else card
            for card in fitted.cards
        ),
    )
    assert report.rate_measured
    page = lab_report.report_html(report)
    assert "class='warnings'" not in page  # nothing to warn of
    under, over = _section(page, "Under-priced"), _section(page, "Over-priced")
    assert "<td>Churchill III</td><td>28</td><td>38 to 52 <small>(45)</small></td>" in under
    assert "<td>17 <small>(10 to 24)</small></td>" in under  # under-priced by, in points: positive
    bt5 = next(card for card in report.cards if card.name == "BT-5")  # costs 10, planted at 4 points
    worth = f"{bt5.fair_lo:.1f} to {bt5.fair_hi:.1f} <small>({bt5.fair:.1f})</small>"
    assert f"<td>BT-5</td><td>10</td><td>{worth}</td>" in over and "Autoblinda AB 41" in over
    for table, told in ((under, lab_report.UNDER), (over, lab_report.OVER)):
        named = {card.name for card in report.cards if f"<td>{card.name}</td>" in table}
        assert named == {card.name for card in report.cards if lab_report.verdict(card, report) == told}
        gaps = [cell.split("</td>")[0] for cell in table.split("<td>")[4::5]]
        assert len(gaps) == len(named) and all(gap[0].isdigit() and gap[:4] != "0.0 " for gap in gaps), gaps
    unsure, few = lab_report.untold(report)
    assert unsure == len(report.cards) - 3 and few == 0
    assert f"{unsure} cards with at least 30 games could not be told apart from their printed cost" in page
    plot = page.split("<svg")[1].split("</svg>")[0]
    assert plot.count("<circle") == len(report.cards) + 4  # a dot a card, four in the legend
    assert "Churchill III: worth 38 to 52 points (45); printed 28" in plot
    assert "log-odds" not in page.split("<h2>Every card")[0]
    out = tmp_path / "cards.csv"
    lab_report.write_cards_csv(report, out)
    with out.open(encoding="utf-8") as file:
        verdicts = {row["name"]: row["verdict"] for row in csv.DictReader(file)}
    assert verdicts["Churchill III"] == "under-priced" and verdicts["BT-5"] == "over-priced"
    assert list(verdicts.values()).count("can't tell") == unsure


def test_every_warning_of_the_terminal_heads_the_page(tmp_path: Path) -> None:
    """Armies of equal points: the terminal's warnings stand at the top of the page, no card is told."""
    db = write_db(tmp_path / "equal.duckdb", budget_games(4000, 3, 100, 100))
    out = tmp_path / "out"
    stdout = io.StringIO()
    report = make_report(db, out, stdout, notes=["this study was changed after its games were played"])
    page = (out / "report.html").read_text(encoding="utf-8")
    box = page.split("class='warnings'")[1].split("</div>")[0]
    assert page.index("class='warnings'") < page.index("<h2>")
    assert "This study was changed after its games were played." in box
    for line in stdout.getvalue().splitlines():
        if line.startswith("warning: "):
            text = line.removeprefix("warning: ")
            assert html.escape(text[0].upper() + text[1:]) in box, text
    assert "can&#x27;t yet tell dear cards from cheap ones" in box
    assert "None that the games can tell" in _section(page, "Under-priced")
    assert "None that the games can tell" in _section(page, "Over-priced")
    assert f"{len(report.cards)} cards with at least 30 games could not be told" in page
    assert "No plot: the games price no point" in page and "Each dot is a card" not in page


def test_the_report_says_when_different_engines_played_a_study(tmp_path: Path) -> None:
    rows = planted_games(600, 5)
    db = write_db(tmp_path / "mixed.duckdb", rows)
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE games SET engine_digest = 'fedcba9876543210' WHERE game >= 400")
    games, _study = load_games(db)
    assert games.engines == (
        ("minis 0.1.0, sources 0123456789abcdef", 400),
        ("minis 0.1.0, sources fedcba9876543210", 200),
    )
    report = estimate(games, costs())
    said = lab_report.summary(report)
    assert "warning: this study's games were played by 2 different engines" in said
    assert (
        "400 by minis 0.1.0, sources 0123456789abcdef; 200 by minis 0.1.0, sources fedcba9876543210" in said
    )
    one = estimate(load_games(write_db(tmp_path / "one.duckdb", rows))[0], costs())
    assert "engine" not in lab_report.summary(one)


def test_a_database_of_an_older_minis_opens_and_says_its_engine_is_unknown(tmp_path: Path) -> None:
    """A database made before engines were recorded: the report reads it, `lab run` adds the columns."""
    db = tmp_path / "old.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(GAMES_TABLE.split("engine_version")[0].rstrip().rstrip(",") + "\n)")
        con.execute(STUDY_TABLE)
        con.execute("INSERT INTO study VALUES ('old', 'x', 'c', 'm', '2005')")
    with duckdb.connect(str(db)) as con:
        lines = tmp_path / "rows.jsonl"
        lines.write_text(
            "".join(json.dumps(dict(zip(NAMES, row, strict=True))) + "\n" for row in planted_games(300, 2))
        )
        con.execute(
            f"INSERT INTO games SELECT * FROM read_json('{lines}', format = 'newline_delimited', "
            f"columns = {COLUMNS})"
        )
        assert "engine_version" not in {row[0] for row in con.execute("DESCRIBE games").fetchall()}
    games, _study = load_games(db)
    assert games.engines == (("", 300),)
    assert "the engine that played these games was not recorded" in lab_report.summary(
        estimate(games, costs())
    )
