"""An evaluation learned from the lab's games, not guessed: a position's features and their fitted weights.

`features(state, side)` describes a position for one side in a few numbers, each ours minus theirs
where that makes sense (material, the objective and the turns to reach it, the attacks each side has
lined up and the harm it faces, cover, exposed rears, stacking, counters), most as a share of both
armies' points so that they mean the same at 100 points and at 300. A logistic model (`Model`) turns
them into the chance that the side wins (a draw counting half): its weights are fitted by
`minis lab evaluation` (`minis.lab.evaluation`) to the results of many self-play games and shipped
as `studies/evaluation-table.toml`, read here with every mistake at its FILE:LINE:COL:

```toml
study = "heuristic self-play, computer-built armies, configurations 1-6"
command = "minis lab evaluation --games 600 --seed 1 --out studies/evaluation-table.toml"
games = 600
positions = 9000
penalty = 1.0

[fit]
holdout_log_loss = 0.52

[weights]
material = 6.1
...
```

`Model.leaf` is the search's learned leaf value (`minis.ai.playout`, `EVALUATION = "learned"`): the
win chance on the points scale of a playout's score, a won game being worth both armies' points.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import attrs

from minis.ai.material import unit_worth
from minis.ai.scoring import estimate, expected_harm, sight_for
from minis.ai.threats import clock_for
from minis.base.data import shipped_folder
from minis.base.errors import MinisError, Problem
from minis.base.paths import is_file
from minis.base.sides import Side
from minis.base.tomlfile import TomlSource, read_toml, toml_string
from minis.engine.terms import Hold, ObjectiveFrom, PointsFrom
from minis.hexgrid import distance, is_front
from minis.rules.victory import controller, exited
from minis.state import Counter, GameState, Unit

__all__ = ["FEATURES", "Model", "features", "read_table", "shipped_model", "table_text"]

#: The features, in the order `features` gives them (the table's `[weights]` names them).
FEATURES: tuple[str, ...] = (
    "material",  # what each side's units are still worth (minis.ai.material.unit_worth), ours minus theirs
    "material_late",  # the same, times how near the turn is when points decide
    "objective",  # +1 we control the objective, -1 they do, 0 nobody or both
    "objective_late",  # the same, times how near the turn is when the objective decides
    "objective_near",  # units next to the objective (or on it), ours minus theirs, times that nearness
    "objective_reach",  # turns the enemy's first unit needs to be next to it minus ours (at most 3), / 3
    "objective_reach_late",  # the same, times that nearness
    "offense",  # each unit's best expected harm from where it stands, summed, ours minus theirs
    "threat",  # the expected harm every enemy that sees our units could do them, ours minus theirs
    "rear",  # the part of that harm that hits Vehicles from behind, ours minus theirs
    "cover",  # the points of units in terrain that gives them cover, ours minus theirs
    "close",  # the points of units next to an enemy unit (close assault), ours minus theirs
    "stacked",  # units sharing their hex with another of their side, ours minus theirs, / 10
    "disrupted",  # the points of disrupted units, ours minus theirs
    "damaged",  # the points of damaged Vehicles, ours minus theirs
    "units",  # units still in the battle, ours minus theirs, / 10
)
#: The shipped table's file, in the shipped `studies` folder (beside the card-values table).
SHIPPED_TABLE = "evaluation-table.toml"
TOP_KEYS = ("study", "command", "games", "positions", "penalty", "fit", "weights")
#: The fit's figures a table may carry (log loss, Brier score and accuracy on the training positions,
#: on the holdout games' positions, and the hand-set evaluation's on the same holdout).
FIT_KEYS = (
    *(
        f"{part}_{measure}"
        for part in ("train", "holdout", "baseline_holdout", "baseline_train")
        for measure in ("log_loss", "brier", "accuracy")
    ),
    "baseline_scale",
    "holdout_games",
    "train_games",
    "holdout_positions",
)
#: A weight is a number of log-odds per unit of its feature: anything beyond this is no fit.
MAX_WEIGHT = 1000.0
#: A playout's score counts a won game as both armies' points: the learned leaf keeps that scale.
INTERCEPT = "intercept"


def nearness(state: GameState) -> tuple[float, float]:
    """How near the turns are when the objective and the points decide: 1 / (1 + turns before it), 0
    where the battle has no such condition."""
    objective_turn: int | None = None
    points_turn: int | None = None
    for condition in state.battle.terms.victory:
        if isinstance(condition, ObjectiveFrom | Hold):
            turn = condition.from_turn if isinstance(condition, ObjectiveFrom) else condition.turn
            objective_turn = turn if objective_turn is None else min(objective_turn, turn)
        elif isinstance(condition, PointsFrom):
            points_turn = condition.from_turn
    if state.objective is None:
        objective_turn = None

    def near(turn: int | None) -> float:
        return 0.0 if turn is None else 1.0 / (1 + max(0, turn - state.turn))

    return near(objective_turn), near(points_turn)


def _standing(unit: Unit) -> bool:
    """A unit that stands on the map and can fight or be fought where it is (aircraft leave each turn)."""
    return (
        unit.hex is not None
        and not unit.removed
        and unit.carried_by is None
        and not unit.card.is_aircraft
        and Counter.DESTROYED not in unit.pending
    )


def features(state: GameState, side: Side) -> list[float]:
    """The position's features for `side`, in the order of `FEATURES` (see there).

    One pass over each pair of standing units of the two sides, with the heuristic's own estimate of an
    attack's odds (`scoring.estimate`: the cards' dice at that range, line of sight, facing and cover).
    """
    total = 0.0
    material = 0.0
    gone = exited(state)
    alive = 0
    for unit in state.units.values():
        cost = float(unit.card.cost)
        total += cost
        sign = 1.0 if unit.side is side else -1.0
        material += sign * unit_worth(unit, gone)
        if not unit.removed and Counter.DESTROYED not in unit.pending:
            alive += 1 if unit.side is side else -1
    scale = 1.0 / total if total > 0 else 0.0
    objective_near, points_near = nearness(state)
    objective = state.objective
    holder = controller(state)
    held = 0.0 if holder is None else 1.0 if holder is side else -1.0
    ours = [u for u in state.units.values() if u.side is side and _standing(u)]
    theirs = [u for u in state.units.values() if u.side is not side and _standing(u)]
    values = dict.fromkeys(FEATURES, 0.0)
    values["material"] = material * scale
    values["material_late"] = material * scale * points_near
    values["objective"] = held
    values["objective_late"] = held * objective_near
    values["units"] = alive / 10.0
    board = state.battle.board
    if objective is not None:
        near_count = 0
        reach = [99, 99]
        clocks = {kind: clock_for(state, kind) for kind in (False, True)}  # Soldiers', Vehicles'
        for index, group in enumerate((ours, theirs)):
            for unit in group:
                assert unit.hex is not None
                gap = distance(unit.hex, objective)
                if gap <= 1:
                    near_count += 1 if index == 0 else -1
                # By the objective's clock, as the improved search counts it: movement points over the
                # terrain, two moves a turn (the movement and the assault phase).
                clock = clocks[bool(unit.card.is_vehicle)]
                turns = clock.turns(state, unit) if clock is not None else None
                if turns is not None:
                    reach[index] = min(reach[index], turns)
        values["objective_near"] = near_count * objective_near
        lead = max(-3, min(3, reach[1] - reach[0])) / 3.0
        values["objective_reach"] = lead
        values["objective_reach_late"] = lead * objective_near
    for index, group in enumerate((ours, theirs)):
        sign = 1.0 if index == 0 else -1.0
        hexes: dict[object, int] = {}
        for unit in group:
            hexes[unit.hex] = hexes.get(unit.hex, 0) + 1
            cost = float(unit.card.cost) * scale
            terrain = board.terrain(unit.hex) if board is not None and unit.hex is not None else None
            if terrain is not None and terrain.effects.cover(unit.card.is_vehicle) is not None:
                values["cover"] += sign * cost
            if unit.disrupted:
                values["disrupted"] += sign * cost
            if unit.damaged:
                values["damaged"] += sign * cost
        values["stacked"] += sign * sum(count for count in hexes.values() if count > 1) / 10.0
    if board is not None and ours and theirs:
        sight = sight_for(board)
        best_ours = [0.0] * len(ours)
        best_theirs = [0.0] * len(theirs)
        threat = [0.0, 0.0]
        rear = [0.0, 0.0]
        close = [0.0, 0.0]
        near_ours = [False] * len(ours)
        near_theirs = [False] * len(theirs)
        for i, a in enumerate(ours):
            a_hex = a.hex
            assert a_hex is not None
            for j, b in enumerate(theirs):
                b_hex = b.hex
                assert b_hex is not None
                dist = distance(a_hex, b_hex)
                if dist > 8:
                    continue
                if dist <= 1:
                    near_ours[i] = near_theirs[j] = True
                for index, (attacker, at, target, target_hex) in enumerate(
                    ((a, a_hex, b, b_hex), (b, b_hex, a, a_hex))
                ):
                    odds = estimate(sight, attacker, at, target, target_hex, target.facing, dist=dist)
                    if odds is None:
                        continue
                    harm = expected_harm(odds, target)
                    if index == 0:
                        best_ours[i] = max(best_ours[i], harm)
                    else:
                        best_theirs[j] = max(best_theirs[j], harm)
                    threat[1 - index] += harm  # index 0: our attack, a threat to them
                    facing = target.facing
                    if target.card.is_vehicle and facing is not None and not is_front(target_hex, facing, at):
                        rear[1 - index] += harm
        for i, unit in enumerate(ours):
            if near_ours[i]:
                close[0] += float(unit.card.cost)
        for j, unit in enumerate(theirs):
            if near_theirs[j]:
                close[1] += float(unit.card.cost)
        values["offense"] = (sum(best_ours) - sum(best_theirs)) * scale
        values["threat"] = (threat[0] - threat[1]) * scale
        values["rear"] = (rear[0] - rear[1]) * scale
        values["close"] = (close[0] - close[1]) * scale
    return [values[name] for name in FEATURES]


def army_points(state: GameState) -> float:
    """Both armies' points (every unit's cost): what a playout's score counts a won game as."""
    return float(sum(float(unit.card.cost) for unit in state.units.values()))


# --- the model -----------------------------------------------------------------------------------------


def sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


@attrs.frozen
class Model:
    """A table as read: the study it comes from, how it was made, the fit's figures, and the weights."""

    study: str
    command: str
    games: int
    positions: int
    penalty: float
    fit: Mapping[str, float]
    weights: Mapping[str, float]

    def logit(self, state: GameState, side: Side) -> float:
        """The log-odds that `side` wins from `state` (a draw counting half)."""
        found = features(state, side)
        return self.weights.get(INTERCEPT, 0.0) + sum(
            self.weights[name] * value for name, value in zip(FEATURES, found, strict=True)
        )

    def chance(self, state: GameState, side: Side) -> float:
        """The chance that `side` wins from `state` (a draw counting half)."""
        return sigmoid(self.logit(state, side))

    def leaf(self, state: GameState, side: Side) -> float:
        """A playout's leaf value on its score's scale: the win chance times both armies' points, from
        minus those points (certainly lost) to plus (certainly won), as `playout.score` counts an end."""
        return army_points(state) * (2.0 * self.chance(state, side) - 1.0)


# --- the table ------------------------------------------------------------------------------------------


def read_table(path: str | Path) -> Model:
    """The table in `path`; MinisError with every mistake at its line and column."""
    source = read_toml(path)
    problems: list[Problem] = []
    model = _read(source, problems)
    if problems or model is None:
        raise MinisError(problems)
    return model


def shipped_path() -> Path:
    return shipped_folder("studies") / SHIPPED_TABLE


@functools.cache
def shipped_model() -> Model | None:
    """The shipped table's model (read once a process); None when no table ships."""
    path = shipped_path()
    return read_table(path) if is_file(path) else None


def table_text(model: Model, comments: Iterable[str] = ()) -> str:
    """A table's text: `comments` first (each a `# ` line), then the study, the fit and the weights."""
    out = [f"# {comment}".rstrip() for comment in comments]
    out += [
        f"study = {toml_string(model.study)}",
        f"command = {toml_string(model.command)}",
        f"games = {model.games}",
        f"positions = {model.positions}",
        f"penalty = {_number(model.penalty)}",
        "",
        "[fit]",
    ]
    out += [f"{key} = {_number(model.fit[key])}" for key in FIT_KEYS if key in model.fit]
    out += ["", "[weights]"]
    names = ([INTERCEPT] if INTERCEPT in model.weights else []) + list(FEATURES)
    out += [f"{name} = {_number(model.weights[name])}" for name in names]
    return "\n".join(out) + "\n"


def _number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return repr(round(float(value), 6))


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _real(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _read(source: TomlSource, out: list[Problem]) -> Model | None:
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            out.append(source.problem((key,), f"unknown key '{key}'", source.hints(key, TOP_KEYS)))
    study, command = data.get("study"), data.get("command", "")
    if not isinstance(study, str):
        out.append(source.problem(("study",), "the table needs 'study', the name of its study, in quotes"))
    if not isinstance(command, str):
        out.append(source.problem(("command",), "'command' is the command that made the table, in quotes"))
    for key in ("games", "positions"):
        if not _whole(data.get(key)):
            message = f"the table needs '{key}', the fit's {key}, a whole number of at least 0"
            out.append(source.problem((key,) if key in data else (), message))
    penalty = data.get("penalty", 0.0)
    if not _real(penalty) or penalty < 0:
        out.append(source.problem(("penalty",), "'penalty' must be a number of at least 0"))
    fit = _numbers(source, out, "fit", data.get("fit", {}), FIT_KEYS, required=())
    weights = _numbers(source, out, "weights", data.get("weights"), (INTERCEPT, *FEATURES), required=FEATURES)
    if out or fit is None or weights is None:
        return None
    assert isinstance(study, str) and isinstance(command, str)
    return Model(study, command, int(data["games"]), int(data["positions"]), float(penalty), fit, weights)


def _numbers(
    source: TomlSource,
    out: list[Problem],
    table: str,
    value: object,
    known: Sequence[str],
    required: Sequence[str],
) -> dict[str, float] | None:
    """A table of named numbers (`[fit]`, `[weights]`): unknown names, missing ones, non-numbers and
    numbers out of range each reported where they are."""
    if not isinstance(value, dict):
        out.append(
            source.problem(
                (table,) if table in source.data else (), f"the table needs [{table}], a table of numbers"
            )
        )
        return None
    found = len(out)
    numbers: dict[str, float] = {}
    for name, number in value.items():
        where = (table, name)
        if name not in known:
            kind = "feature" if table == "weights" else "figure"
            out.append(source.problem(where, f"unknown {kind} '{name}'", source.hints(name, known)))
        elif not _real(number):
            out.append(source.problem(where, f"'{name}' must be a number, not {number!r}"))
        elif table == "weights" and abs(number) > MAX_WEIGHT:
            message = f"'{name}' must be a weight from {-MAX_WEIGHT:g} to {MAX_WEIGHT:g}, not {number}"
            out.append(source.problem(where, message))
        else:
            numbers[name] = float(number)
    for name in required:
        if name not in value:
            out.append(source.problem((table,), f"[{table}] has no '{name}': every feature needs a weight"))
    return numbers if len(out) == found else None
