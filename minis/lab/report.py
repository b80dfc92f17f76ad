"""`minis lab report`: what each card is worth, estimated from a study's stored games.

The model is a logistic regression of "the Axis won" on the army difference. A card's effect, in
log-odds of winning per copy for whichever side fields it, is split in two: its printed cost at the
exchange rate (log-odds per point, the coefficient of the armies' difference in printed points) and what
it brings beyond its cost (a coefficient per card, on how many copies the Axis army held minus how many
the Allied army held). An intercept measures the Axis side's own advantage (map, scenario, bots) and a
+1/-1 term the advantage of taking the first turn. A draw counts as half a win for each side (a
fractional outcome of 0.5 in the likelihood), so no game is thrown away.

Why the split: a study's armies all cost about the same (100 points a side, say), so one more copy of a
card is always a few points less of others, and the games alone cannot tell "every card is worth its
cost" from "cards are worth nothing": adding the same multiple of its cost to every card's effect changes
no prediction where the armies' points are equal. Only the games whose armies differ in points (a draw
that left 4 points unspent, a side given 120 points) measure what a point is worth. So the rate is
left free, and the penalty pulls each card towards being worth its printed cost, not towards being worth
nothing.

The fit is Newton's method (iteratively reweighted least squares) with an L2 penalty of PENALTY on the
cards' own coefficients only: a Normal(0, 1/PENALTY) prior, small next to thousands of games, that keeps
a card seen in few games near its printed cost and makes the fit exist when a card never changes the
outcome. Intervals come from the inverse of the penalised Hessian: a normal approximation, not exact,
and too narrow where the penalty matters (cards with few games).

A card's fair cost is its effect divided by the exchange rate: its printed cost plus what it brings
beyond it, in points. Its interval (delta method) carries both the card's and the rate's uncertainty.
A study whose armies always cost exactly the same cannot give a rate, and says so.
Only the tables `games` and `study` of the database are read.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

import attrs
import numpy as np
import numpy.typing as npt

from minis.base.atomic import write_atomic
from minis.base.errors import MinisError, Problem, unreadable
from minis.content.card_worth import Measured, table_text
from minis.lab.store import check_database, default_path
from minis.lab.study import load_study

#: L2 penalty on each card's effect (log-odds per copy); see the module's docstring.
PENALTY = 1.0
#: The tiny penalty on the intercept, first-player and points terms: only there so that a study where one
#: side always moves first (both terms then say the same) still gives an invertible Hessian.
FIXED_PENALTY = 1e-6
#: The unpenalised columns before the cards' own: intercept, first player, points difference.
FIXED = 3
#: The column of the points difference: its coefficient is the exchange rate, log-odds per point.
POINTS = 2
#: A card needs this many games before the summary ranks it as over- or under-priced.
MIN_GAMES = 30
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054
#: Pairs of design-matrix entries summed at a time for the Hessian (bounds memory: about 40 bytes each).
PAIR_BUDGET = 2_000_000
#: How many cards of each end the effect plot shows.
PLOT_ENDS = 30

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@attrs.frozen
class CardInfo:
    """What the catalogue says about a card: its name for players and its printed cost (NaN if unknown)."""

    name: str
    cost: float


@attrs.frozen(eq=False)
class Games:
    """The stored games as the fits need them; the army difference is kept sparse (game, card, count)."""

    score: FloatArray  # per game: 1 Axis won, 0 Allies won, 0.5 a draw
    first_axis: npt.NDArray[np.bool_]  # per game: the Axis took the first turn
    configuration: IntArray  # per game
    card_ids: tuple[str, ...]  # the cards that appear in any army, sorted
    rows: IntArray  # sparse army difference, sorted by row, each (row, card) once: game row...
    cols: IntArray  # ...card index...
    counts: FloatArray  # ...Axis copies minus Allied copies
    card_games: IntArray  # per card: the games where it was in either army
    #: The engines that played the games, as the report names them, with their games, most first
    #: ("" names games of a database made before engines were recorded).
    engines: tuple[tuple[str, int], ...] = ()

    @property
    def size(self) -> int:
        return int(self.score.shape[0])


@attrs.frozen
class Estimate:
    """One card's row of the report; lo/hi bound 95% intervals."""

    card_id: str
    name: str
    cost: float
    games: int
    effect: float
    effect_lo: float
    effect_hi: float
    fair: float
    fair_lo: float
    fair_hi: float

    @property
    def overpriced(self) -> float:
        """Printed cost minus fair cost: positive means the card costs more than it brings."""
        return self.cost - self.fair


@attrs.frozen
class Rate:
    """A win rate with its Wilson 95% interval (draws count as half a win)."""

    label: str
    games: int
    wins: float
    rate: float
    lo: float
    hi: float


@attrs.frozen
class Report:
    """Everything the HTML, the CSV files and the summary show."""

    study: str
    games: int
    axis_wins: int
    allies_wins: int
    draws: int
    cards: tuple[Estimate, ...]
    exchange_rate: float  # log-odds per point
    rate_error: float  # its standard error
    axis_edge: tuple[float, float, float]  # intercept, lo, hi (log-odds)
    first_edge: tuple[float, float, float]  # first-player term, lo, hi (log-odds, per side moving first)
    side: Rate
    first_player: Rate
    configurations: tuple[Rate, ...]
    engines: tuple[tuple[str, int], ...] = ()  # as Games.engines

    @property
    def rate_measured(self) -> bool:
        """Whether the games price a point: the exchange rate's interval lies above 0. When it does not,
        a fair cost's interval (the effect over the rate) is unbounded, whatever the delta method says."""
        return self.exchange_rate - Z95 * self.rate_error > 0


# --- reading -------------------------------------------------------------------------------------------


def load_games(db: Path) -> tuple[Games, str]:
    """The games of a study database and the study's name; exit 2 if unreadable, 1 if it holds no games."""
    import duckdb  # here, not at the top: `minis` imports every command at start-up

    name = str(db)
    if not db.is_file():
        raise unreadable(name, "no such file" if not db.exists() else "not a file")
    try:
        con = duckdb.connect(name, read_only=True)
    except duckdb.Error as error:
        raise unreadable(name, f"cannot open it as a lab database: {_first_line(error)}") from None
    try:
        tables = {
            row[0] for row in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
        if "games" not in tables:
            raise MinisError(Problem(name, 0, 0, "this database holds no games table: is it a lab database?"))
        study_name = ""
        if "study" in tables:
            found = con.execute("SELECT name FROM study LIMIT 1").fetchone()
            study_name = str(found[0]) if found else ""
        games = _read_games(con, name)
        games = attrs.evolve(games, engines=_read_engines(con))
    except duckdb.Error as error:
        raise unreadable(name, f"cannot read the games: {_first_line(error)}") from None
    finally:
        con.close()
    return games, study_name


def _read_engines(con: Any) -> tuple[tuple[str, int], ...]:
    """The engines that played the games ("minis 0.1.0, sources 1a2b..."), each with its games."""
    columns = {
        row[0]
        for row in con.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'games'"
        ).fetchall()
    }
    if not {"engine_version", "engine_digest"} <= columns:  # a database of an older minis
        total = con.execute("SELECT count(*) FROM games").fetchone()
        return (("", int(total[0])),) if total else ()
    found = con.execute(
        "SELECT engine_version, engine_digest, count(*) AS n FROM games GROUP BY ALL ORDER BY n DESC, 1, 2"
    ).fetchall()
    return tuple(
        (f"minis {version}, sources {digest}" if version is not None else "", int(count))
        for version, digest, count in found
    )


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def _read_games(con: Any, name: str) -> Games:
    base = con.execute("SELECT game, winner, first, configuration FROM games ORDER BY game").fetchnumpy()
    numbers = np.asarray(base["game"], dtype=np.int64)
    if numbers.size == 0:
        raise MinisError(
            Problem(
                name, 0, 0, "this database holds no games yet", "play some with `minis lab run STUDY.toml`"
            )
        )
    winners = np.asarray(base["winner"], dtype=object)
    score = np.where(winners == "axis", 1.0, np.where(winners == "allies", 0.0, 0.5))
    first_axis = np.asarray(base["first"], dtype=object) == "axis"
    configuration = np.asarray(base["configuration"], dtype=np.int64)
    units = con.execute(
        """
        SELECT game, unit, sum(copies) AS difference, 1 AS present FROM (
            SELECT game, unnest(axis_units) AS unit, 1 AS copies FROM games
            UNION ALL
            SELECT game, unnest(allies_units) AS unit, -1 AS copies FROM games
        ) GROUP BY game, unit ORDER BY game, unit
        """
    ).fetchnumpy()
    unit_ids = np.asarray(units["unit"], dtype=object).astype(str)
    card_ids, cols = np.unique(unit_ids, return_inverse=True)
    rows = np.searchsorted(numbers, np.asarray(units["game"], dtype=np.int64))
    counts = np.asarray(units["difference"], dtype=np.float64)
    card_games = np.bincount(cols, minlength=len(card_ids)).astype(np.int64)
    return Games(
        score=score.astype(np.float64),
        first_axis=np.asarray(first_axis, dtype=np.bool_),
        configuration=configuration,
        card_ids=tuple(str(card) for card in card_ids),
        rows=rows.astype(np.int64),
        cols=cols.astype(np.int64),
        counts=counts,
        card_games=card_games,
    )


# --- estimating ----------------------------------------------------------------------------------------


def _sigmoid(eta: FloatArray) -> FloatArray:
    return np.asarray(0.5 * (1.0 + np.tanh(0.5 * eta)), dtype=np.float64)


@attrs.frozen(eq=False)
class _Design:
    """The design matrix (intercept, first player, points, cards) kept sparse: entries sorted by game."""

    rows: IntArray
    cols: IntArray
    values: FloatArray
    starts: IntArray  # per game, where its entries start; one more at the end
    width: int

    @classmethod
    def of(cls, games: Games, costs: FloatArray) -> _Design:
        n = games.size
        every = np.arange(n, dtype=np.int64)
        rows = np.concatenate([every, every, every, games.rows])
        cols = np.concatenate(
            [np.full(n, column, dtype=np.int64) for column in range(FIXED)] + [games.cols + FIXED]
        )
        values = np.concatenate(
            [np.ones(n), np.where(games.first_axis, 1.0, -1.0), points_difference(games, costs), games.counts]
        )
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
        starts = np.searchsorted(rows, np.arange(n + 1, dtype=np.int64)).astype(np.int64)
        return cls(rows, cols[order], values[order], starts, FIXED + len(games.card_ids))

    def times(self, beta: FloatArray) -> FloatArray:
        """X @ beta: each game's log-odds."""
        log_odds = np.bincount(self.rows, self.values * beta[self.cols], minlength=self.starts.size - 1)
        return np.asarray(log_odds, dtype=np.float64)

    def transposed_times(self, vector: FloatArray) -> FloatArray:
        """X.T @ vector."""
        return np.asarray(
            np.bincount(self.cols, self.values * vector[self.rows], minlength=self.width), np.float64
        )

    def gram(self, weights: FloatArray) -> FloatArray:
        """X.T @ diag(weights) @ X, from the pairs of entries of each game, PAIR_BUDGET pairs at a time."""
        width = self.width
        lengths = np.diff(self.starts)
        pairs = np.cumsum(lengths * lengths)
        total = np.zeros(width * width)
        first_game = 0
        while first_game < lengths.size:
            done = pairs[first_game - 1] if first_game else 0
            end = int(np.searchsorted(pairs, done + PAIR_BUDGET, side="right"))
            end = max(end, first_game + 1)  # one game always fits
            entries = np.arange(self.starts[first_game], self.starts[end])
            games = self.rows[entries]
            length = lengths[games]
            a = np.repeat(entries, length)
            offsets = np.arange(a.size) - np.repeat(np.cumsum(length) - length, length)
            b = np.repeat(self.starts[games], length) + offsets
            products = weights[self.rows[a]] * self.values[a] * self.values[b]
            total += np.bincount(self.cols[a] * width + self.cols[b], products, minlength=width * width)
            first_game = end
        return total.reshape(width, width)


def points_difference(games: Games, costs: FloatArray) -> FloatArray:
    """Per game, the Axis army's printed points minus the Allied army's (cards of unknown cost count 0)."""
    known = np.where(np.isfinite(costs), costs, 0.0)
    return np.asarray(
        np.bincount(games.rows, games.counts * known[games.cols], minlength=games.size), np.float64
    )


def fit(
    games: Games, costs: FloatArray, penalty: float = PENALTY, max_steps: int = 100
) -> tuple[FloatArray, FloatArray]:
    """Coefficients (intercept, first player, log-odds per point, one per card: what it brings beyond its
    printed cost) and their approximate covariance; `costs` are the cards' printed costs (NaN: unknown).

    An army holds a dozen cards out of hundreds, so the design matrix is kept sparse and the Hessian
    summed over the pairs of cards within each game: 200,000 games of 470 cards take a few seconds.
    """
    design = _Design.of(games, costs)
    ridge = np.full(design.width, penalty)
    ridge[:FIXED] = FIXED_PENALTY
    beta = np.zeros(design.width)
    hessian = np.diag(ridge)
    for _ in range(max_steps):
        p = _sigmoid(design.times(beta))
        gradient = design.transposed_times(games.score - p) - ridge * beta
        hessian = design.gram(p * (1.0 - p)) + np.diag(ridge)
        step = np.linalg.solve(hessian, gradient)
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    return beta, np.linalg.inv(hessian)


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float, float]:
    """The rate and Wilson score interval of `wins` out of `games` (NaNs when there are no games)."""
    if games <= 0:
        return math.nan, math.nan, math.nan
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return rate, max(0.0, centre - half), min(1.0, centre + half)


def _rate(label: str, wins: float, games: int) -> Rate:
    rate, lo, hi = wilson(wins, games)
    return Rate(label, games, wins, rate, lo, hi)


def catalogue_info() -> dict[str, CardInfo]:
    """Names and printed costs from the shipped catalogue."""
    from minis.cards import card_catalogue

    return {card_id: CardInfo(card.name, float(card.cost)) for card_id, card in card_catalogue().items()}


def estimate(games: Games, info: Mapping[str, CardInfo], study: str = "", penalty: float = PENALTY) -> Report:
    """Every figure of the report from the games; cards missing from `info` show their id and no cost."""
    missing = CardInfo("", math.nan)
    costs = np.array([info.get(card, missing).cost for card in games.card_ids], dtype=np.float64)
    beta, covariance = fit(games, costs, penalty)
    errors = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    rate, rate_error = float(beta[POINTS]), float(errors[POINTS])
    cards = []
    for index, card in enumerate(games.card_ids):
        known = info.get(card, missing)
        column = FIXED + index
        extra, extra_var = float(beta[column]), float(covariance[column, column])
        cross, rate_var = float(covariance[column, POINTS]), float(covariance[POINTS, POINTS])
        cost = known.cost if math.isfinite(known.cost) else 0.0
        # the effect of a copy: its printed points at the rate, and what it brings beyond them
        effect = extra + rate * cost
        error = math.sqrt(max(extra_var + cost * cost * rate_var + 2 * cost * cross, 0.0))
        fair, fair_lo, fair_hi = math.nan, math.nan, math.nan
        if rate > 0 and math.isfinite(known.cost):
            fair = known.cost + extra / rate  # the effect over the rate
            # delta method over (extra, rate): both are uncertain, and the rate may be only loosely known
            fair_var = extra_var / rate**2 + extra**2 * rate_var / rate**4 - 2 * extra * cross / rate**3
            fair_error = math.sqrt(max(fair_var, 0.0))
            fair_lo, fair_hi = fair - Z95 * fair_error, fair + Z95 * fair_error
        cards.append(
            Estimate(
                card_id=card,
                name=known.name or card,
                cost=known.cost,
                games=int(games.card_games[index]),
                effect=effect,
                effect_lo=effect - Z95 * error,
                effect_hi=effect + Z95 * error,
                fair=fair,
                fair_lo=fair_lo,
                fair_hi=fair_hi,
            )
        )
    axis_wins = int(np.sum(games.score == 1.0))
    allies_wins = int(np.sum(games.score == 0.0))
    # The first player's score: the Axis score where the Axis moved first, the Allied score elsewhere.
    first_score = np.where(games.first_axis, games.score, 1.0 - games.score)
    configurations = tuple(
        _rate(_map_label(number), float(games.score[chosen].sum()), int(chosen.sum()))
        for number in sorted({int(value) for value in games.configuration})
        for chosen in [games.configuration == number]
    )
    return Report(
        study=study,
        games=games.size,
        axis_wins=axis_wins,
        allies_wins=allies_wins,
        draws=games.size - axis_wins - allies_wins,
        cards=tuple(cards),
        exchange_rate=rate,
        rate_error=rate_error,
        axis_edge=_term(beta, errors, 0),
        first_edge=_term(beta, errors, 1),
        side=_rate("Axis", float(games.score.sum()), games.size),
        first_player=_rate("first player", float(first_score.sum()), games.size),
        configurations=configurations,
        engines=games.engines,
    )


def _map_label(number: int) -> str:
    """How the report names a map: a configuration's number, or a scenario's own map (stored as 0)."""
    return f"configuration {number}" if number else "the scenario's own map"


def _term(beta: FloatArray, errors: FloatArray, index: int) -> tuple[float, float, float]:
    value, error = float(beta[index]), float(errors[index])
    return value, value - Z95 * error, value + Z95 * error


def ranked(report: Report, min_games: int = MIN_GAMES) -> list[Estimate]:
    """Cards with enough games and a fair cost, most over-priced first."""
    usable = [card for card in report.cards if card.games >= min_games and math.isfinite(card.overpriced)]
    return sorted(usable, key=lambda card: (-card.overpriced, card.card_id))


#: What the games say of a card's price (`verdict`).
UNDER, OVER, UNSURE, FEW = "under-priced", "over-priced", "can't tell", "too few games"


def verdict(card: Estimate, report: Report, min_games: int = MIN_GAMES) -> str:
    """UNDER or OVER when the card's fair-cost interval lies wholly above or below its printed cost, FEW
    under `min_games` games, else UNSURE (the interval holds the printed cost, or the games price no
    point at all: then every interval is unbounded)."""
    if card.games < min_games:
        return FEW
    if not (report.rate_measured and math.isfinite(card.fair) and math.isfinite(card.cost)):
        return UNSURE
    if card.fair_lo > card.cost:
        return UNDER
    if card.fair_hi < card.cost:
        return OVER
    return UNSURE


def over_priced(report: Report, min_games: int = MIN_GAMES) -> list[Estimate]:
    """The cards the games tell are worth less than their printed cost, by most points first."""
    told = [card for card in report.cards if verdict(card, report, min_games) == OVER]
    return sorted(told, key=lambda card: (-card.overpriced, card.card_id))


def under_priced(report: Report, min_games: int = MIN_GAMES) -> list[Estimate]:
    """The cards the games tell are worth more than their printed cost, by most points first."""
    told = [card for card in report.cards if verdict(card, report, min_games) == UNDER]
    return sorted(told, key=lambda card: (card.overpriced, card.card_id))


def untold(report: Report, min_games: int = MIN_GAMES) -> tuple[int, int]:
    """How many cards of at least `min_games` games could not be told from their printed cost, and how
    many have fewer games."""
    verdicts = [verdict(card, report, min_games) for card in report.cards]
    return verdicts.count(UNSURE), verdicts.count(FEW)


def warnings(report: Report, min_games: int = MIN_GAMES) -> list[str]:
    """What the reader must know before the figures: the same lines on the terminal and the page."""
    found: list[str] = []
    if not report.rate_measured:
        found.append(
            "the games can't yet tell dear cards from cheap ones: fair costs mean little; play more games, "
            "or give the armies a range of points (points = [80, 120])"
        )
    if not any(card.games >= min_games for card in report.cards):
        found.append(f"no card has {min_games} games yet: no card is ranked")
    elif not any(math.isfinite(card.fair) for card in report.cards):
        found.append("no card has a fair cost: no card is ranked")
    engines = report.engines
    if len(engines) > 1:
        parts = [f"{count} by {name or 'an engine not recorded (an older minis)'}" for name, count in engines]
        found.append(
            f"this study's games were played by {len(engines)} different engines ({'; '.join(parts)}): "
            "the figures mix them; play the study again into a new database (--db) to compare like with like"
        )
    elif engines and not engines[0][0]:
        found.append(
            "the engine that played these games was not recorded (a database of an older minis): "
            "games added now will say which one played them"
        )
    return found


# --- writing -------------------------------------------------------------------------------------------


def _number(value: float, digits: int = 3) -> str:
    return "" if not math.isfinite(value) else f"{value:.{digits}f}"


def write_cards_csv(report: Report, path: Path, min_games: int = MIN_GAMES) -> None:
    """One row per card: id, name, printed cost, games, effect and fair cost with their intervals, and the
    verdict the page gives (under-priced, over-priced, can't tell, too few games)."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(
            [
                "card",
                "name",
                "cost",
                "games",
                "effect",
                "effect_lo",
                "effect_hi",
                "fair_cost",
                "fair_lo",
                "fair_hi",
                "verdict",
            ]
        )
        for card in sorted(report.cards, key=lambda card: card.card_id):
            writer.writerow(
                [
                    card.card_id,
                    card.name,
                    _number(card.cost, 1),
                    card.games,
                    _number(card.effect, 4),
                    _number(card.effect_lo, 4),
                    _number(card.effect_hi, 4),
                    _number(card.fair, 2),
                    _number(card.fair_lo, 2),
                    _number(card.fair_hi, 2),
                    verdict(card, report, min_games),
                ]
            )


def _rates(report: Report) -> list[tuple[str, Rate]]:
    return [("side", report.side), ("first player", report.first_player)] + [
        ("configuration", rate) for rate in report.configurations
    ]


def write_balance_csv(report: Report, path: Path) -> None:
    """Side, first-player and per-configuration win rates with their Wilson intervals."""
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["kind", "label", "games", "wins", "rate", "lo", "hi"])
        for kind, rate in _rates(report):
            wins = f"{rate.wins:g}"
            writer.writerow(
                [
                    kind,
                    rate.label,
                    rate.games,
                    wins,
                    _number(rate.rate, 4),
                    _number(rate.lo, 4),
                    _number(rate.hi, 4),
                ]
            )


def _png(draw: Callable[[Any], None], height: float) -> str:
    """A plot drawn on a fresh Agg figure, as a data: URL (no pyplot: no global state, no window)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8.0, height), dpi=96, layout="constrained")
    draw(figure.add_subplot())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _configuration_plot(rates: Sequence[Rate]) -> str:
    def draw(axes: Any) -> None:
        positions = np.arange(len(rates))
        values = np.array([rate.rate for rate in rates])
        # a rate of 0 or 1 may lie a rounding error outside its own interval: no negative bar
        below = np.maximum(values - np.array([rate.lo for rate in rates]), 0.0)
        above = np.maximum(np.array([rate.hi for rate in rates]) - values, 0.0)
        axes.bar(positions, values, yerr=[below, above], capsize=3)
        axes.axhline(0.5, color="grey", linewidth=0.8)
        axes.set_xticks(
            positions,
            [
                rate.label.removeprefix("configuration ").replace("the scenario's own map", "own")
                for rate in rates
            ],
        )
        axes.set_xlabel("map configuration")
        axes.set_ylabel("Axis win rate, 95% interval")
        axes.set_ylim(0.0, 1.0)

    return _png(draw, 3.5)


def _percent(value: float) -> str:
    return "-" if not math.isfinite(value) else f"{100 * value:.1f}%"


def _rate_row(rate: Rate) -> str:
    return (
        f"<tr><td>{html.escape(rate.label)}</td><td>{rate.games}</td><td>{_percent(rate.rate)}</td>"
        f"<td>{_percent(rate.lo)} to {_percent(rate.hi)}</td></tr>"
    )


def _gap(card: Estimate, over: bool) -> str:
    """How far the card's worth is from its printed cost, in points with its interval, positive."""
    if over:
        value, lo, hi = card.cost - card.fair, card.cost - card.fair_hi, card.cost - card.fair_lo
    else:
        value, lo, hi = card.fair - card.cost, card.fair_lo - card.cost, card.fair_hi - card.cost
    return f"{_points(value)} <small>({_points(lo)} to {_points(hi)})</small>"


def _worth_cell(card: Estimate, report: Report) -> str:
    if not (report.rate_measured and math.isfinite(card.fair)):
        return "<span class='dim'>unbounded: the games price no point</span>"
    return f"{_points(card.fair_lo)} to {_points(card.fair_hi)} <small>({_points(card.fair)})</small>"


def _priced_table(cards: Sequence[Estimate], over: bool, shown: int = 30) -> str:
    """The cards the games tell are over- (or under-) priced, by most points first."""
    if not cards:
        return "<p class='dim'>None that the games can tell.</p>"
    gap = "over-priced by" if over else "under-priced by"
    rows = [
        f"<tr><td>{html.escape(card.name)}</td><td>{card.cost:g}</td>"
        f"<td>{_points(card.fair_lo)} to {_points(card.fair_hi)} <small>({_points(card.fair)})</small></td>"
        f"<td>{_gap(card, over)}</td><td>{card.games}</td></tr>"
        for card in cards[:shown]
    ]
    more = (
        f"<p class='dim'>And {len(cards) - shown} more: see every card below.</p>"
        if len(cards) > shown
        else ""
    )
    return (
        f"<table><tr><th>card</th><th>printed cost</th><th>worth, points (95%)</th><th>{gap}, points</th>"
        f"<th>games</th></tr>{''.join(rows)}</table>{more}"
    )


def _every_card_table(report: Report, min_games: int) -> str:
    rows = []
    for card in sorted(report.cards, key=lambda card: (card.name, card.card_id)):
        said = verdict(card, report, min_games)
        rows.append(
            f"<tr class='{_CLASS[said]}'><td>{html.escape(card.name)}</td>"
            f"<td>{_number(card.cost, 0) or '?'}</td>"
            f"<td>{_worth_cell(card, report)}</td><td>{said}</td><td>{card.games}</td>"
            f"<td>{card.effect:+.3f} <small>({card.effect_lo:+.3f} to {card.effect_hi:+.3f})</small></td>"
            "</tr>"
        )
    return (
        "<table><tr><th>card</th><th>printed cost</th><th>worth, points (95%)</th><th>the games say</th>"
        "<th>games</th><th>effect, log-odds (95%)</th></tr>" + "".join(rows) + "</table>"
    )


#: The colour class of each verdict, on the page and in the plot.
_CLASS = {UNDER: "under", OVER: "over", UNSURE: "unsure", FEW: "few"}
_COLOUR = {UNDER: "#1a7f37", OVER: "#cf222e", UNSURE: "#8c959f", FEW: "#d0d7de"}

_STYLE = """
body { font-family: sans-serif; max-width: 64em; margin: 1em auto; padding: 0 1em; color: #1f2328; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #d0d7de; padding: 0.2em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
small, .dim { color: #656d76; }
.warnings { background: #fff8c5; border: 1px solid #d4a72c; padding: 0.5em 1em; border-radius: 6px; }
.warnings li { margin: 0.3em 0; }
tr.under td:nth-child(4) { color: #1a7f37; font-weight: bold; }
tr.over td:nth-child(4) { color: #cf222e; font-weight: bold; }
img, svg { max-width: 100%; height: auto; }
"""


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round numbers (1, 2 or 5 times a power of ten apart) from `low` to `high`."""
    span = max(high - low, 1e-9)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(power * factor for factor in (1, 2, 5, 10) if power * factor >= raw)
    first = math.ceil(low / step) * step
    return [first + index * step for index in range(int((high - first) / step + 1e-9) + 1)]


def cost_plot(report: Report, min_games: int = MIN_GAMES) -> str:
    """Fair cost against printed cost, each card with its 95% interval, as inline SVG: a dot above the
    diagonal is worth more than it costs; coloured where the games can tell. Intervals that leave the
    plot are cut at its edge (an open end)."""
    shown = [card for card in report.cards if math.isfinite(card.fair) and math.isfinite(card.cost)]
    width, height, left, right, top, bottom = 760, 520, 64, 20, 16, 52
    if not shown or not report.rate_measured:
        return (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='80' role='img'>"
            "<text x='10' y='45' font-size='15' fill='#656d76'>No plot: the games price no point, so no card "
            "has a fair cost with a bounded interval.</text></svg>"
        )
    top_cost = max(card.cost for card in shown)
    x_high = top_cost * 1.05
    fair_high = max(card.fair for card in shown)
    y_high = min(max(top_cost, fair_high) * 1.08, 2.5 * top_cost)
    y_low = max(min(0.0, min(card.fair for card in shown) * 1.08), -0.5 * top_cost)

    def x(value: float) -> float:
        return left + (width - left - right) * value / x_high

    def y(value: float) -> float:
        clipped = min(max(value, y_low), y_high)
        return top + (height - top - bottom) * (y_high - clipped) / (y_high - y_low)

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' width='{width}' "
        f"height='{height}' role='img' aria-label='fair cost against printed cost' font-size='12'>",
        f"<rect x='{left}' y='{top}' width='{width - left - right}' height='{height - top - bottom}' "
        "fill='white' stroke='#d0d7de'/>",
    ]
    for tick in _ticks(0.0, x_high):
        parts.append(
            f"<line x1='{x(tick):.1f}' x2='{x(tick):.1f}' y1='{top}' y2='{height - bottom}' "
            "stroke='#eaeef2'/>"
            f"<text x='{x(tick):.1f}' y='{height - bottom + 16}' text-anchor='middle'>{tick:g}</text>"
        )
    for tick in _ticks(y_low, y_high):
        parts.append(
            f"<line x1='{left}' x2='{width - right}' y1='{y(tick):.1f}' y2='{y(tick):.1f}' stroke='#eaeef2'/>"
            f"<text x='{left - 6}' y='{y(tick) + 4:.1f}' text-anchor='end'>{tick:g}</text>"
        )
    diagonal = min(x_high, y_high)
    parts.append(
        f"<line x1='{x(max(0.0, y_low)):.1f}' y1='{y(max(0.0, y_low)):.1f}' x2='{x(diagonal):.1f}' "
        f"y2='{y(diagonal):.1f}' stroke='#57606a' stroke-dasharray='5 4'/>"
        f"<text x='{x(diagonal) - 4:.1f}' y='{y(diagonal) + 14:.1f}' text-anchor='end' fill='#57606a'>"
        "worth = printed cost</text>"
    )
    order = {FEW: 0, UNSURE: 1, OVER: 2, UNDER: 2}  # the told cards drawn last, on top
    for card in sorted(shown, key=lambda card: order[verdict(card, report, min_games)]):
        said = verdict(card, report, min_games)
        colour = _COLOUR[said]
        cx = x(card.cost)
        tip = html.escape(f"{card.name}: {_worth(card)}, {card.games} games ({said})")
        cut = "".join(
            f"<line x1='{cx - 3:.1f}' x2='{cx + 3:.1f}' y1='{y(end):.1f}' y2='{y(end):.1f}' "
            f"stroke='{colour}'/>"
            for end in (card.fair_lo, card.fair_hi)
            if y_low <= end <= y_high
        )
        parts.append(
            f"<g><title>{tip}</title><line x1='{cx:.1f}' x2='{cx:.1f}' y1='{y(card.fair_lo):.1f}' "
            f"y2='{y(card.fair_hi):.1f}' stroke='{colour}' stroke-width='1.2' opacity='0.7'/>{cut}"
            f"<circle cx='{cx:.1f}' cy='{y(card.fair):.1f}' r='3.5' fill='{colour}'/></g>"
        )
    told = sorted(
        (card for card in shown if verdict(card, report, min_games) in (UNDER, OVER)),
        key=lambda card: -abs(card.fair - card.cost),
    )[:12]
    for card in told:  # the clearest misprices named beside their dots
        parts.append(
            f"<text x='{x(card.cost) + 6:.1f}' y='{y(card.fair) - 5:.1f}' "
            f"fill='{_COLOUR[verdict(card, report, min_games)]}'>"
            f"{html.escape(card.name)}</text>"
        )
    legend_y = top + 14
    for index, (said, label) in enumerate(
        (
            (UNDER, "under-priced: worth more than its cost"),
            (OVER, "over-priced: worth less"),
            (UNSURE, "the games can't tell"),
            (FEW, f"fewer than {min_games} games"),
        )
    ):
        ly = legend_y + 16 * index
        parts.append(
            f"<circle cx='{left + 14}' cy='{ly - 4}' r='4' fill='{_COLOUR[said]}'/>"
            f"<text x='{left + 24}' y='{ly}'>{label}</text>"
        )
    parts += [
        f"<text x='{(left + width - right) / 2}' y='{height - 12}' text-anchor='middle' font-size='13'>"
        "printed cost, points</text>",
        f"<text transform='translate(16 {(top + height - bottom) / 2}) rotate(-90)' text-anchor='middle' "
        "font-size='13'>worth (fair cost), points, 95% interval</text>",
        "</svg>",
    ]
    return "".join(parts)


def report_html(report: Report, min_games: int = MIN_GAMES, notes: Sequence[str] = ()) -> str:
    """The self-contained page: warnings first, then which cards are under- and over-priced in points
    with their intervals, the plot of worth against printed cost (inline SVG), the side balance and
    every card. `notes`: warnings from outside the games (a study changed since they were played)."""
    title = f"Balance lab: {report.study}" if report.study else "Balance lab"
    said = [*notes, *warnings(report, min_games)]
    unsure, few = untold(report, min_games)
    axis, axis_lo, axis_hi = report.axis_edge
    first, first_lo, first_hi = report.first_edge
    told_line = _untold_line(unsure, few, min_games)
    plot = cost_plot(report, min_games)
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        (
            "<div class='warnings'><strong>Read this first</strong><ul>"
            + "".join(f"<li>{html.escape(line[0].upper() + line[1:])}.</li>" for line in said)
            + "</ul></div>"
        )
        if said
        else "",
        f"<p>{report.games} games: the Axis won {report.axis_wins}, the Allies {report.allies_wins}, "
        f"{report.draws} draws.</p>",
        "<p>A card's <b>worth</b> is what one more copy of it did for its side's chances, in points: "
        "printed points at the rate these games put on a point. Every figure has its 95% interval; a card "
        "is called under- or over-priced only when its whole interval lies above or below its printed "
        f"cost. Only cards in at least {min_games} games are judged.</p>",
        "<h2>Under-priced: worth more than they cost</h2>",
        _priced_table(under_priced(report, min_games), over=False),
        "<h2>Over-priced: worth less than they cost</h2>",
        _priced_table(over_priced(report, min_games), over=True),
        f"<p>{html.escape(told_line[0].upper() + told_line[1:])}.</p>",
        "<h2>Worth against printed cost</h2>",
        plot,
        "<p class='dim'>Each dot is a card, its bar the 95% interval of its worth; above the dashed line a "
        "card is worth more than it costs. Hover over a dot for the card.</p>"
        if "<circle" in plot
        else "",
        "<h2>Sides and maps</h2>",
        "<table><tr><th></th><th>games</th><th>win rate</th><th>95% interval</th></tr>",
        *(_rate_row(rate) for _kind, rate in _rates(report)),
        "</table><p class='dim'>A draw counts as half a win for each side.</p>",
        f"<img alt='Axis win rate per map configuration' src='{_configuration_plot(report.configurations)}'>",
        "<h2>Every card</h2>",
        _every_card_table(report, min_games),
        "<h2>The model</h2>",
        "<p>One model is fitted to all games at once: whether the Axis won, against the copies of each card "
        "in the Axis army less those in the Allied army, the armies' difference in printed points, and "
        "terms for the Axis side and for moving first. A card's effect (last column above) is in log-odds "
        "of winning per copy; one point of printed cost is worth "
        f"{_number(report.exchange_rate, 4) or '?'} log-odds (plus or minus "
        f"{_number(Z95 * report.rate_error, 4) or '?'}), and a card's worth is its effect at that rate. "
        f"The Axis side itself is worth {axis:+.3f} log-odds ({axis_lo:+.3f} to {axis_hi:+.3f}) and moving "
        f"first {first:+.3f} ({first_lo:+.3f} to {first_hi:+.3f}); the first of these is tangled with the "
        "average value of the Axis cards, so read the side balance from the win rates. "
        + (
            "Games played by: "
            + "; ".join(
                f"{html.escape(name or 'an engine not recorded')} ({count})" for name, count in report.engines
            )
            + "."
            if report.engines
            else ""
        )
        + "</p>",
        "</body></html>",
    ]
    return "\n".join(part for part in parts if part) + "\n"


def summary(report: Report, min_games: int = MIN_GAMES) -> str:
    """The short text for the terminal: balance, warnings, then the cards the games tell are over- and
    under-priced (at most 10 each), in points with their intervals."""
    side = report.side
    lines = [
        f"{report.games} games: Axis {_percent(side.rate)} ({_percent(side.lo)} to {_percent(side.hi)}), "
        f"first player {_percent(report.first_player.rate)}",
        f"one point is worth {_number(report.exchange_rate, 4) or '?'} log-odds "
        f"(plus or minus {_number(Z95 * report.rate_error, 4) or '?'})",
    ]
    lines += [f"warning: {line}" for line in warnings(report, min_games)]
    unsure, few = untold(report, min_games)
    for title, cards in (
        ("most over-priced", over_priced(report, min_games)),
        ("most under-priced", under_priced(report, min_games)),
    ):
        if cards:
            lines.append(f"{title} (printed cost; fair cost with its 95% interval):")
            lines += [f"  {card.name}: {_worth(card)}" for card in cards[:10]]
        else:
            lines.append(f"{title}: none that the games can tell")
    lines.append(_untold_line(unsure, few, min_games))
    return "\n".join(lines) + "\n"


def _points(value: float) -> str:
    """Points as a player reads them: whole above 10, one decimal below."""
    return f"{value:.0f}" if abs(value) >= 10 else f"{value:.1f}"


def _worth(card: Estimate) -> str:
    """ "worth 85 to 109 points (97); printed 68"."""
    return (
        f"worth {_points(card.fair_lo)} to {_points(card.fair_hi)} points ({_points(card.fair)}); "
        f"printed {card.cost:g}"
    )


def _untold_line(unsure: int, few: int, min_games: int) -> str:
    line = (
        f"{unsure} card{'s' if unsure != 1 else ''} with at least {min_games} games could not be told "
        "apart from {their} printed cost"
    ).format(their="their" if unsure != 1 else "its")
    if few:
        line += f"; {few} had fewer games"
    return line


def make_report(
    db: Path,
    out_dir: Path,
    stdout: TextIO,
    info: Mapping[str, CardInfo] | None = None,
    min_games: int = MIN_GAMES,
    notes: Sequence[str] = (),
) -> Report:
    """Read the database, write report.html, cards.csv and balance.csv into `out_dir`, print the summary;
    `notes` are warnings the page shows beside the games' own (the terminal has had them already)."""
    check_database(db, new=False)
    games, study = load_games(db)
    report = estimate(games, catalogue_info() if info is None else info, study)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_cards_csv(report, out_dir / "cards.csv", min_games)
        write_balance_csv(report, out_dir / "balance.csv")
        (out_dir / "report.html").write_text(report_html(report, min_games, notes), encoding="utf-8")
    except OSError as error:
        raise unreadable(str(out_dir), f"cannot write the report: {error.strerror or error}") from None
    stdout.write(summary(report, min_games))
    stdout.write(f"wrote {out_dir / 'report.html'}, {out_dir / 'cards.csv'} and {out_dir / 'balance.csv'}\n")
    return report


def default_out(study: Path) -> Path:
    """Where the report goes unless told otherwise: a folder `STUDY-report` beside the study file."""
    return study.with_name(f"{study.stem}-report")


def stored_sha256(db: Path) -> str:
    """The sha256 of the study text the database's games were played from ('' if it can't be told)."""
    import duckdb

    if not db.is_file():
        return ""
    try:
        with duckdb.connect(str(db), read_only=True) as con:
            found = con.execute("SELECT sha256 FROM study LIMIT 1").fetchone()
    except duckdb.Error:
        return ""  # make_report says what is wrong with the file
    return str(found[0]) if found else ""


def write_table(report: Report, study_path: Path, path: Path) -> None:
    """The card-values table of `minis.content.card_worth` (what the computer builds its armies with),
    atomically."""
    lines = [
        (card.card_id, Measured(card.cost, card.games, card.fair, card.fair_lo, card.fair_hi))
        for card in report.cards
        if math.isfinite(card.cost)
    ]
    comments = (
        f"Card values measured by the balance lab from the {report.games} games of {study_path.name}:",
        "each card's printed cost, the games it was in, its fair cost in points and the 95% interval.",
        f"Written by `minis lab report {study_path.name} --table {path.name}` (docs/lab.md).",
    )
    try:
        write_atomic(path, table_text(report.study, report.games, lines, comments))
    except OSError as error:
        raise unreadable(str(path), f"cannot write the table: {error.strerror or error}") from None


def report_command(
    study_path: Path,
    db: Path | None,
    out: Path | None,
    stdout: TextIO,
    stderr: TextIO | None = None,
    table: Path | None = None,
) -> int:
    """`minis lab report STUDY.toml [--db FILE] [--out DIR] [--table FILE]`; the study is read (and
    checked) first.

    A study edited since its games were played is reported anyway (the games are what they are), with a
    warning: the figures are those of the old text.
    """
    study = load_study(study_path)
    database = db or default_path(study_path)
    check_database(database, new=False)  # before DuckDB sees it
    stored = stored_sha256(database)
    notes = []
    if stored and stored != study.sha256:
        note = (
            "this study was changed after its games were played: the report shows the games of the old text"
        )
        notes.append(note)
        print(
            f"{study_path}:0:0: warning: this study was changed after the games in {database} were played: "
            "the report shows the games of the old text",
            file=stderr or sys.stderr,
        )
    made = make_report(database, out or default_out(study_path), stdout, notes=notes)
    if table is not None:
        write_table(made, study_path, table)
        stdout.write(f"wrote {table}\n")
    return 0
