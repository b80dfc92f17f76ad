"""The moves a plain look at the position calls for, so the search can always weigh them (issue 35).

The heuristic ranks every action by how its unit stands against the enemy where the enemy is now. A
Tiger in a forest beside the objective with two bazookas a hex off rates every move of its own below
passing, and the search, which plays out only the heuristic's best few, never tried moving it. Here,
beside the heuristic's best, for the side to act:

- **leave**: each unit in danger (`threats.Threats`: enemies that can move and attack it next turn,
  Close Assault in its own hex included) gets its best move away: the hex where the heuristic's value
  less the danger is best, if the danger there is less;
- **counter-attack** (assault phase): for each serious threat (an enemy whose best attack next turn
  harms one of ours by `SERIOUS` points or more), the best attack on it the heuristic scored;
- **the objective's clock**: while the objective decides within `CLOCK_TURNS` turns and the side does
  not hold it alone, the units that can still be next to it in time get the move that brings them
  nearest (in moves, `threats.Clock`), the latest starters first;
- **cover**: while the side holds the objective with a single unit, the best move that puts a second
  unit next to it.

Each is an action the engine lists (`Game.unit_options`). The search plays them out like the others
and takes one only when its playouts say so.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from minis.ai.scoring import Evaluator, worth
from minis.ai.threats import Threats, clock_for, turns_left
from minis.base.sides import Side
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, direction_to, distance
from minis.rules.victory import controller
from minis.state import Phase, Stage, Unit

__all__ = ["CLOCK_TURNS", "DANGER", "SERIOUS", "Reason", "plain_look", "reason_for"]

#: A unit is in danger when the enemy can do it this much harm next turn (points), or a tenth of its worth.
DANGER = 2.0
#: An enemy is a serious threat when its best attack next turn harms one of ours by this much (points).
SERIOUS = 3.0
#: How much of the danger counts against a hex when choosing where to leave to (as the heuristic's RISK).
CARE = 0.6
#: The objective's clock counts from this many turns before it decides (this one included).
CLOCK_TURNS = 3

Scored = tuple[A.Action, float]


@attrs.frozen
class Reason:
    """Why a plain look calls for an action (the hint says it): `kind` is "leave" (`unit` out of reach of
    `enemies`), "counter" (an attack on `enemies[0]`, which threatens `unit`) or "clock" (`unit` heads
    for the objective: `turns` turns away, `left` turns left)."""

    kind: str
    unit: str
    enemies: tuple[str, ...] = ()
    turns: int = 0
    left: int = 0


def _face(unit: Unit, path: Sequence[Hex], facing: object) -> object:
    """A Vehicle's facing at the end of a move: the hex value's, else the last step's direction."""
    if not unit.card.is_vehicle:
        return None
    if facing is not None:
        return facing
    before = path[-2] if len(path) > 1 else unit.hex
    assert before is not None
    return direction_to(before, path[-1])


def plain_look(
    game: Game, scored: Sequence[Scored], threats: Threats | None = None
) -> list[tuple[A.Action, Reason]]:
    """The moves a plain look calls for (the module's text), most pressing first, each with its reason;
    [] outside the movement and assault phases."""
    state = game.state
    side = game.decider()
    if side is None or state.stage is not Stage.ACT or state.phase not in (Phase.MOVEMENT, Phase.ASSAULT):
        return []
    if state.battle.board is None:
        return []
    threats = threats if threats is not None else Threats(state, side)
    evaluator = Evaluator.shared(state, side)
    ready = [state.units[uid] for uid in game.ready_units()]
    ready = [u for u in ready if u.hex is not None and not u.card.is_aircraft and u.carried_by is None]
    found: list[tuple[float, A.Action, Reason]] = []  # (priority, action, why)
    serious: dict[str, tuple[float, str]] = {}  # enemy: its worst harm next turn, and to whom
    for unit in ready:
        assert unit.hex is not None
        here = threats.against(unit, unit.hex)
        for enemy, _, value in here:
            if value > serious.get(enemy.id, (0.0, ""))[0]:
                serious[enemy.id] = (value, unit.id)
        danger = threats.danger(unit, unit.hex)
        if danger >= min(DANGER, 0.1 * worth(unit)) and danger > 0.0:
            move = _leave(game, evaluator, threats, unit, danger)
            if move is not None:
                enemies = tuple(e.id for e, _, _ in here)
                found.append((move[1], move[0], Reason("leave", unit.id, enemies)))
    if state.phase is Phase.ASSAULT:
        for enemy_id, (value, victim) in serious.items():
            if value < SERIOUS:
                continue
            attack = next((a for a, _ in scored if isinstance(a, A.Attack) and a.target == enemy_id), None)
            if attack is not None:
                found.append((value, attack, Reason("counter", victim, (enemy_id,))))
    found.extend(_clock_moves(game, side, ready, evaluator))
    found.sort(key=lambda item: -item[0])
    chosen: list[tuple[A.Action, Reason]] = []
    for _, action, why in found:
        if all(action != other for other, _ in chosen):
            chosen.append((action, why))
    return chosen


def _leave(
    game: Game, evaluator: Evaluator, threats: Threats, unit: Unit, danger: float
) -> tuple[A.Action, float] | None:
    """The unit's best move out of danger and how much danger it leaves behind (None: no better hex)."""
    options = game.unit_options(unit.id, with_attacks=False)
    if options is None or not options.moves:
        return None
    assert unit.hex is not None
    here = evaluator.value(unit, unit.hex)[0] - CARE * danger
    best: tuple[float, Hex, object, float] | None = None
    for dest in options.moves:
        value, facing = evaluator.value(unit, dest)
        there = threats.danger(unit, dest, facing)
        total = value - CARE * there
        if there < danger and (best is None or total > best[0]):
            best = (total, dest, facing, there)
    if best is None or best[0] <= here - worth(unit):  # nothing sensible: leave it to the heuristic
        return None
    path = tuple(options.moves[best[1]])
    face = _face(unit, path, best[2])
    return A.Move(unit.id, path, face), danger - best[3]  # type: ignore[arg-type]


def _clock_moves(
    game: Game, side: Side, ready: Sequence[Unit], evaluator: Evaluator
) -> list[tuple[float, A.Action, Reason]]:
    """Moves toward the objective for the units that can still be next to it in time (the clock)."""
    state = game.state
    left = turns_left(state)
    if left is None or left < 1 or left > CLOCK_TURNS or state.objective is None:
        return []
    holder = controller(state)
    holding = [u for u in state.on_map(side) if u.hex is not None and distance(u.hex, state.objective) <= 1]
    if holder is side and len(holding) > 1:
        return []
    found: list[tuple[float, A.Action, Reason]] = []
    for unit in ready:
        clock = clock_for(state, bool(unit.card.is_vehicle))
        if clock is None:
            return []
        assert unit.hex is not None
        turns = clock.turns(state, unit)
        if turns is None or turns > left or clock.moves(state, unit) == 0:
            continue
        options = game.unit_options(unit.id, with_attacks=False)
        if options is None or not options.moves:
            continue
        now = clock.moves(state, unit)
        best: tuple[int, float, Hex, object] | None = None
        for dest in options.moves:
            moves = clock.moves(state, unit, dest)
            if moves is None or now is None or moves >= now:
                continue
            value, facing = evaluator.value(unit, dest)
            if best is None or (moves, -value) < (best[0], -best[1]):
                best = (moves, value, dest, facing)
        if best is None:
            continue
        path = tuple(options.moves[best[2]])
        # The latest starters first: a unit whose turns are all it has left cannot wait.
        priority = 10.0 * (turns / left) + (5.0 if holder is not side else 0.0)
        move = A.Move(unit.id, path, _face(unit, path, best[3]))  # type: ignore[arg-type]
        found.append((priority, move, Reason("clock", unit.id, turns=turns, left=left)))
    return found


def reason_for(game: Game, action: A.Action) -> Reason | None:
    """The plain look's reason for an action chosen another way (the heuristic ranked it): a move out of
    the reach of enemies that could attack the unit next turn, an attack on a serious threat, or a move
    toward the objective that its clock calls for; None if it is none of these."""
    state = game.state
    side = game.decider()
    if side is None or state.stage is not Stage.ACT or state.battle.board is None:
        return None
    unit = state.units.get(getattr(action, "unit", ""))
    if unit is None or unit.hex is None:
        return None
    threats = Threats(state, side)
    if isinstance(action, A.Attack):
        target = state.units.get(action.target)
        for mine in state.on_map(side):
            if target is None or mine.hex is None or not _counts(mine):
                continue
            value = next((v for e, _, v in threats.against(mine, mine.hex) if e.id == target.id), 0.0)
            if value >= SERIOUS:
                return Reason("counter", mine.id, (target.id,))
        return None
    if not isinstance(action, A.Move) or not action.path:
        return None
    dest = action.path[-1]
    here = threats.against(unit, unit.hex)
    before = threats.danger(unit, unit.hex)
    after = threats.danger(unit, dest, action.face)
    if before >= min(DANGER, 0.1 * worth(unit)) and before - after >= 0.5 * before:
        return Reason("leave", unit.id, tuple(e.id for e, _, _ in here))
    left = turns_left(state)
    clock = clock_for(state, bool(unit.card.is_vehicle))
    if left is None or clock is None or not 1 <= left <= CLOCK_TURNS:
        return None
    now, then = clock.moves(state, unit), clock.moves(state, unit, dest)
    turns = clock.turns(state, unit)
    if now is None or then is None or turns is None or then >= now or turns > left:
        return None
    return Reason("clock", unit.id, turns=turns, left=left)


def _counts(unit: Unit) -> bool:
    return not unit.card.is_aircraft and unit.carried_by is None
