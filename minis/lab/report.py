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

from minis.atomic import write_atomic
from minis.card_worth import Measured, table_text
from minis.errors import MinisError, Problem, unreadable
from minis.lab.store import default_path
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
    except duckdb.Error as error:
        raise unreadable(name, f"cannot read the games: {_first_line(error)}") from None
    finally:
        con.close()
    return games, study_name


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


def over_priced(order: Sequence[Estimate], count: int = 10) -> list[Estimate]:
    """The `count` cards of `ranked` that cost the most more than they bring."""
    return [card for card in order if card.overpriced > 0][:count]


def under_priced(order: Sequence[Estimate], count: int = 10) -> list[Estimate]:
    """The `count` cards of `ranked` that bring the most more than they cost."""
    return [card for card in reversed(order) if card.overpriced < 0][:count]


# --- writing -------------------------------------------------------------------------------------------


def _number(value: float, digits: int = 3) -> str:
    return "" if not math.isfinite(value) else f"{value:.{digits}f}"


def write_cards_csv(report: Report, path: Path) -> None:
    """One row per card: id, name, printed cost, games, effect and fair cost with their intervals."""
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


def _effect_plot(cards: Sequence[Estimate]) -> str:
    def draw(axes: Any) -> None:
        names = [card.name for card in cards]
        positions = np.arange(len(cards))
        effects = np.array([card.effect for card in cards])
        below = effects - np.array([card.effect_lo for card in cards])
        above = np.array([card.effect_hi for card in cards]) - effects
        axes.errorbar(effects, positions, xerr=[below, above], fmt="o", markersize=3, capsize=2)
        axes.axvline(0.0, color="grey", linewidth=0.8)
        axes.set_yticks(positions, names, fontsize=7)
        axes.invert_yaxis()
        axes.set_xlabel("effect on winning (log-odds per copy), 95% interval")

    return _png(draw, max(3.0, 0.16 * len(cards) + 1.0))


def _cost_plot(cards: Sequence[Estimate]) -> str:
    def draw(axes: Any) -> None:
        shown = [card for card in cards if math.isfinite(card.fair) and math.isfinite(card.cost)]
        costs = [card.cost for card in shown]
        fair = np.array([card.fair for card in shown])
        below = fair - np.array([card.fair_lo for card in shown])
        above = np.array([card.fair_hi for card in shown]) - fair
        axes.errorbar(costs, fair, yerr=[below, above], fmt="none", alpha=0.3, linewidth=0.8)
        axes.scatter(costs, fair, s=10)
        top = max([*costs, 1.0])
        axes.plot([0.0, top], [0.0, top], color="grey", linewidth=0.8, label="fair = printed")
        axes.set_xlabel("printed cost (points)")
        axes.set_ylabel("fair cost (points)")
        axes.legend()

    return _png(draw, 5.0)


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


def _card_row(card: Estimate) -> str:
    cells = [
        html.escape(card.name),
        _number(card.cost, 1) or "?",
        str(card.games),
        f"{card.effect:+.3f} ({card.effect_lo:+.3f} to {card.effect_hi:+.3f})",
        f"{_number(card.fair, 1)} ({_number(card.fair_lo, 1)} to {_number(card.fair_hi, 1)})"
        if math.isfinite(card.fair)
        else "-",
        f"{card.overpriced:+.1f}" if math.isfinite(card.overpriced) else "-",
    ]
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


_STYLE = """
body { font-family: sans-serif; max-width: 60em; margin: 1em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; }
"""


def report_html(report: Report, min_games: int = MIN_GAMES) -> str:
    """The self-contained page: the balance tables, the plots (PNG inside the page) and every card."""
    title = f"Balance lab: {report.study}" if report.study else "Balance lab"
    by_effect = sorted(report.cards, key=lambda card: (-card.effect, card.card_id))
    ends = by_effect if len(by_effect) <= 2 * PLOT_ENDS else by_effect[:PLOT_ENDS] + by_effect[-PLOT_ENDS:]
    order = ranked(report, min_games)
    axis, axis_lo, axis_hi = report.axis_edge
    first, first_lo, first_hi = report.first_edge
    parts = [
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>",
        f"<p>{report.games} games: the Axis won {report.axis_wins}, the Allies {report.allies_wins}, "
        f"{report.draws} draws (a draw counts as half a win for each side).</p>",
        "<h2>Sides and maps</h2>",
        "<table><tr><th></th><th>games</th><th>win rate</th><th>95% interval</th></tr>",
        *(_rate_row(rate) for _kind, rate in _rates(report)),
        "</table>",
        f"<p>With the armies taken into account, the Axis side itself is worth {axis:+.3f} log-odds "
        f"({axis_lo:+.3f} to {axis_hi:+.3f}), and moving first {first:+.3f} "
        f"({first_lo:+.3f} to {first_hi:+.3f}). The first of these is tangled with the average value of the "
        "Axis cards (most cards serve one side only): read the side balance from the win rates above.</p>",
        f"<img alt='Axis win rate per map configuration' src='{_configuration_plot(report.configurations)}'>",
        "<h2>What each card is worth</h2>",
        "<p>A card's effect is how much one more copy in an army changes that side's log-odds of winning. "
        f"One point of printed cost is worth {_number(report.exchange_rate, 4) or 'nothing measurable'} "
        f"(plus or minus {_number(Z95 * report.rate_error, 4) or '?'}) log-odds on average over all cards; "
        "a card's fair cost is its effect at that rate. Intervals are approximate 95% intervals; "
        "a card whose fair-cost interval holds its printed cost may well be priced right.</p>",
        f"<img alt='effect per card' src='{_effect_plot(ends)}'>",
        f"<img alt='fair cost against printed cost' src='{_cost_plot(report.cards)}'>",
        f"<h2>Most over-priced (at least {min_games} games)</h2>",
        _card_table(over_priced(order)),
        f"<h2>Most under-priced (at least {min_games} games)</h2>",
        _card_table(under_priced(order)),
        "<h2>Every card</h2>",
        _card_table(sorted(report.cards, key=lambda card: (card.name, card.card_id))),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _card_table(cards: Sequence[Estimate]) -> str:
    head = (
        "<table><tr><th>card</th><th>printed cost</th><th>games</th><th>effect (95%)</th>"
        "<th>fair cost (95%)</th><th>over-priced by</th></tr>"
    )
    return head + "".join(_card_row(card) for card in cards) + "</table>"


def summary(report: Report, min_games: int = MIN_GAMES) -> str:
    """The short text for the terminal: balance, then the 10 most over- and under-priced cards."""
    side = report.side
    lines = [
        f"{report.games} games: Axis {_percent(side.rate)} ({_percent(side.lo)} to {_percent(side.hi)}), "
        f"first player {_percent(report.first_player.rate)}",
        f"one point is worth {_number(report.exchange_rate, 4) or '?'} log-odds "
        f"(plus or minus {_number(Z95 * report.rate_error, 4) or '?'})",
    ]
    if not report.exchange_rate - Z95 * report.rate_error > 0:
        lines.append(
            "the games can't yet tell dear cards from cheap ones: fair costs mean little; play more games, "
            "or give the armies a range of points (points = [80, 120])"
        )
    order = ranked(report, min_games)
    if not order:
        if any(card.games >= min_games for card in report.cards):
            lines.append("no card has a fair cost: no card is ranked")
        else:
            lines.append(f"no card has {min_games} games yet: no card is ranked")
        return "\n".join(lines) + "\n"
    for title, cards in (
        ("most over-priced", over_priced(order)),
        ("most under-priced", under_priced(order)),
    ):
        lines.append(f"{title} (printed cost, fair cost, 95% interval):")
        lines += [
            f"  {card.name}: {card.cost:g} vs {card.fair:.1f} ({card.fair_lo:.1f} to {card.fair_hi:.1f})"
            + ("" if card.fair_lo > card.cost or card.fair_hi < card.cost else ", not sure")
            for card in cards
        ]
    return "\n".join(lines) + "\n"


def make_report(
    db: Path,
    out_dir: Path,
    stdout: TextIO,
    info: Mapping[str, CardInfo] | None = None,
    min_games: int = MIN_GAMES,
) -> Report:
    """Read the database, write report.html, cards.csv and balance.csv into `out_dir`, print the summary."""
    games, study = load_games(db)
    report = estimate(games, catalogue_info() if info is None else info, study)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_cards_csv(report, out_dir / "cards.csv")
        write_balance_csv(report, out_dir / "balance.csv")
        (out_dir / "report.html").write_text(report_html(report, min_games), encoding="utf-8")
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
    """The card-values table of `minis.card_worth` (what the computer builds its armies with), atomically."""
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
    stored = stored_sha256(database)
    if stored and stored != study.sha256:
        print(
            f"{study_path}:0:0: warning: this study was changed after the games in {database} were played: "
            "the report shows the games of the old text",
            file=stderr or sys.stderr,
        )
    made = make_report(database, out or default_out(study_path), stdout)
    if table is not None:
        write_table(made, study_path, table)
        stdout.write(f"wrote {table}\n")
    return 0
