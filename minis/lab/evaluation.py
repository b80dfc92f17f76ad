"""The evaluation study: self-play positions and their results, and the logistic model fitted to them.

`minis lab evaluation --games N --seed S --out FILE` plays N games of the frozen heuristic on both sides
(computer-built Standard armies of 100 points from printed costs, configurations 1-6 in turn, every seed
from S and the game's number as the lab's studies draw them: `runner.game_seed`), notes at the end of
every turn the position's features (`minis.ai.learned.features`, for the Axis: they are the Allies' with
the sign changed) with the hand-set evaluation of the same position, then the game's result. It fits an
L2-penalised logistic regression of the Axis's result (a draw half) on the features, without an
intercept (a position and its mirror have opposite features and results), and writes the table the
search's learned leaf reads (`learned.table_text`).

Games are split whole: every fifth game (number % 5 == 4) is held out and never fitted. The penalty is
chosen by 4-fold cross-validation over the other games (folds of whole games too); the holdout then
measures the chosen model, and the hand-set evaluation as a one-weight logistic model (its value over
both armies' points, times a fitted scale) on the same positions. Games play in a pool of processes
(`--workers`) or on a Dask scheduler (`--scheduler`), as `minis lab run` does: the same games whatever
the workers, so the same table for a seed.
"""

from __future__ import annotations

import concurrent.futures
import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from minis.ai import learned, playout
from minis.ai.army_maker import make_army
from minis.ai.bot import play_out
from minis.ai.registry import make_bot
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.dice import Dice
from minis.game import Game
from minis.lab.runner import executor, game_seed
from minis.mapfile import load_configuration
from minis.state import Stage

FloatArray = npt.NDArray[np.float64]

#: The penalties tried (on the sum of squared weights of features scaled to unit spread).
PENALTIES = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
#: Games a task; the hand-set evaluation's weight of the units' placing (the search's own `LEAF`).
BATCH = 10
HAND_LEAF = 0.25
CONFIGURATIONS = (1, 2, 3, 4, 5, 6)
TURN_LIMIT = 30
POINTS = 100


class Position(NamedTuple):
    """One sampled position: its game, turn, the Axis's features, the hand-set value over both armies'
    points (for the Axis), and the Axis's result (1 won, 0.5 draw, 0 lost)."""

    game: int
    turn: int
    features: tuple[float, ...]
    hand: float
    result: float


def play_sampled(
    number: int, seed: int, bots: tuple[str, str] = ("heuristic", "heuristic")
) -> list[Position]:
    """Game `number` of the study of `seed`, played from its own seed; its positions at each turn's end."""
    rng = random.Random(game_seed(seed, number))
    dice_seed, view_seed, axis_seed, allies_seed, axis_army, allies_army = (
        rng.randrange(2**63) for _ in range(6)
    )
    cards = card_catalogue()
    armies = {
        side: make_army(cards, side, POINTS, rng=random.Random(army_seed), worth={})
        for side, army_seed in ((Side.AXIS, axis_army), (Side.ALLIES, allies_army))
    }
    game = Game.new(
        armies[Side.AXIS],
        armies[Side.ALLIES],
        configuration=CONFIGURATIONS[number % len(CONFIGURATIONS)],
        dice=Dice(seed=dice_seed),
        turn_limit=TURN_LIMIT,
        load_board=load_configuration,
    )
    players = {
        Side.AXIS: make_bot(bots[0], axis_seed, workers=0, playouts=8),
        Side.ALLIES: make_bot(bots[1], allies_seed, workers=0, playouts=8),
    }
    seen: list[tuple[int, tuple[float, ...], float]] = []
    last = [game.state.turn]

    def note(game: Game) -> None:  # a new turn: the last one's end (its casualty phase done)
        state = game.state
        if state.turn != last[0] and state.stage is not Stage.OVER:
            last[0] = state.turn
            total = learned.army_points(state) or 1.0
            hand = playout.leaf_value(state, Side.AXIS, HAND_LEAF, "hand") / total
            seen.append((state.turn, tuple(learned.features(state, Side.AXIS)), hand))

    play_out(game, players, seeds=random.Random(view_seed), after=note)
    winner = game.state.winner
    result = 0.5 if winner is None else 1.0 if winner is Side.AXIS else 0.0
    return [Position(number, turn, found, hand, result) for turn, found, hand in seen]


def play_batch(spec: tuple[tuple[int, ...], int, tuple[str, str]]) -> list[Position]:
    """A task: some games of the study (top-level, so it pickles by name for a pool or Dask)."""
    numbers, seed, bots = spec
    return [position for number in numbers for position in play_sampled(number, seed, bots)]


def play_study(
    games: int,
    seed: int,
    workers: int = 0,
    scheduler: str | None = None,
    bots: tuple[str, str] = ("heuristic", "heuristic"),
    progress: Callable[[int], None] | None = None,
) -> list[Position]:
    """Every game's positions, in the order of the games (whatever order the workers finish in)."""
    specs = [(tuple(range(start, min(games, start + BATCH))), seed, bots) for start in range(0, games, BATCH)]
    found: list[Position] = []

    def done(rows: list[Position]) -> None:
        found.extend(rows)
        if progress is not None:
            progress(len({row.game for row in rows}))

    with executor(workers, scheduler) as where:
        if where is None:
            for spec in specs:
                done(play_batch(spec))
        else:
            futures = [where.submit(play_batch, spec) for spec in specs]
            for future in concurrent.futures.as_completed(futures):
                done(future.result())
    return sorted(found, key=lambda row: (row.game, row.turn))


# --- the fit --------------------------------------------------------------------------------------------


def fit_logistic(x: FloatArray, y: FloatArray, penalty: float, iterations: int = 50) -> FloatArray:
    """The weights of an L2-penalised logistic regression without intercept (Newton's method, IRLS):
    minimises the log loss summed over rows plus penalty / 2 times the squared weights. `y` may be
    fractional (a draw counts half a win)."""
    columns = x.shape[1]
    weights = np.zeros(columns)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty * weights
        curvature = (x * (p * (1 - p))[:, None]).T @ x + penalty * np.eye(columns)
        step = np.linalg.solve(curvature, gradient)
        weights -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return weights


def figures(p: FloatArray, y: FloatArray) -> dict[str, float]:
    """Log loss, Brier score and accuracy (a draw is right at any chance: it counts half either way)."""
    clipped = np.clip(p, 1e-12, 1 - 1e-12)
    log_loss = -np.mean(y * np.log(clipped) + (1 - y) * np.log(1 - clipped))
    brier = np.mean((p - y) ** 2)
    right = np.where(y == 0.5, 0.5, ((p > 0.5) == (y > 0.5)).astype(float))
    return {"log_loss": float(log_loss), "brier": float(brier), "accuracy": float(np.mean(right))}


class Fit(NamedTuple):
    weights: dict[str, float]
    penalty: float
    figures: dict[str, float]


def fit(positions: Sequence[Position], penalties: Sequence[float] = PENALTIES) -> Fit:
    """The model of the module's docstring: penalty by cross-validation, figures on the holdout."""
    x = np.array([row.features for row in positions], dtype=float)
    y = np.array([row.result for row in positions], dtype=float)
    hand = np.array([[row.hand] for row in positions], dtype=float)
    games = np.array([row.game for row in positions])
    held = games % 5 == 4
    train = ~held
    spread = x[train].std(axis=0) if train.any() else np.ones(x.shape[1])
    spread[spread < 1e-9] = 1.0  # a feature that never varies gets weight 0 from the penalty anyway
    scaled = x / spread
    folds = (games // 5) % 4
    best: tuple[float, float] | None = None
    for penalty in penalties:
        loss = 0.0
        for fold in range(4):
            fitting, checking = train & (folds != fold), train & (folds == fold)
            if not fitting.any() or not checking.any():
                continue
            weights = fit_logistic(scaled[fitting], y[fitting], penalty)
            p = 1.0 / (1.0 + np.exp(-(scaled[checking] @ weights)))
            loss += figures(p, y[checking])["log_loss"] * int(checking.sum())
        if best is None or loss < best[0] - 1e-12:
            best = (loss, penalty)
    assert best is not None
    penalty = best[1]
    weights = fit_logistic(scaled[train], y[train], penalty) / spread
    scale = fit_logistic(hand[train], y[train], 0.0)
    out: dict[str, float] = {}
    for part, mask in (("train", train), ("holdout", held)):
        if mask.any():
            for key, value in figures(1.0 / (1.0 + np.exp(-(x[mask] @ weights))), y[mask]).items():
                out[f"{part}_{key}"] = value
            for key, value in figures(1.0 / (1.0 + np.exp(-(hand[mask] @ scale))), y[mask]).items():
                out[f"baseline_{part}_{key}"] = value
    out["baseline_scale"] = float(scale[0])
    out["train_games"] = len(set(games[train].tolist()))
    out["holdout_games"] = len(set(games[held].tolist()))
    out["holdout_positions"] = int(held.sum())
    named = {name: float(value) for name, value in zip(learned.FEATURES, weights, strict=True)}
    return Fit(named, penalty, out)


def evaluation_model(positions: Sequence[Position], games: int, seed: int, command: str) -> learned.Model:
    """The table's model from a study's positions."""
    found = fit(positions)
    return learned.Model(
        study=f"heuristic self-play, computer-built 100-point armies, configurations 1-6, seed {seed}",
        command=command,
        games=games,
        positions=len(positions),
        penalty=found.penalty,
        fit={key: value for key, value in found.figures.items() if math.isfinite(value)},
        weights=found.weights,
    )


def comments(model: learned.Model, seed: int) -> list[str]:
    """The table's opening comment lines: what it is and how it was made."""
    return [
        "The search's learned leaf evaluation (minis.ai.learned): logistic weights of a position's features,",
        f"fitted to {model.positions} turn-end positions of {model.games} self-play games of the heuristic",
        f"(armies from army_maker seeds of games 0-{model.games - 1} of seed {seed};",
        "every fifth game held out).",
        f"Written by `{model.command}` (docs/lab.md, docs/ai.md).",
    ]
