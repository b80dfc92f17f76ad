"""A battle in progress, for pictures (`minis play --demo --screenshot PATH`) and for the benchmark.

The position is played, not invented: two armies are set up on configuration 1 through the engine's
own actions (with seeded dice, so it is the same every time), a turn is played with simple choices
(move toward the enemy, attack the first target the engine allows, hold defensive fire), and the game
stops in the second turn's assault phase, when the map shows face-up counters from the first turn and
face-down ones from this one. Nothing here decides a rule: every choice is taken from the engine's
legal actions.
"""

from __future__ import annotations

from minis.army import Army
from minis.base.sides import Side
from minis.dice import Dice
from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import Hex, distance
from minis.state import Phase, Stage

#: The rulebook's sample armies (as in armies/*.toml), 100 points each.
AXIS = (
    "panzer-iv-ausf-g",
    "panzer-iii-ausf-f",
    "sig-33",
    "pak-38-anti-tank-gun",
    "mg-42-machine-gun-team",
    "wehrmacht-expert-sniper",
    "ss-haupsturmfuhrer",
    "pioneers",
    "mauser-kar-98k",
    "mauser-kar-98k",
)
ALLIES = (
    "m4a1-sherman",
    "6-pounder-anti-tank-gun",
    "red-devil-captain",
    "bazooka",
    "m1-garand-rifle",
    "vickers-machine-gun-team",
    "kv-1",
    "m3-stuart",
)
#: Larger armies (15 units each, the most an army may have) for the frame-time benchmark.
AXIS_LARGE = (*AXIS, "sd-kfz-222", "mauser-kar-98k", "ss-panzergrenadier", "light-mortar", "kubelwagon-v")
ALLIES_LARGE = (
    *ALLIES,
    "m1-garand-rifle",
    "bar-gunner",
    "sten-smg",
    "bren-machine-gunner",
    "jeep",
    "m3-half-track",
    "smle-no-4-rifleman",
)

SEED = 2


def _front(end: str, hex_: Hex, game: Game) -> int:
    """How far toward the enemy a hex is (larger is further forward), for a side at `end`."""
    x = 2 * hex_.q + hex_.r
    return x if end == "west" else -x


def demo_game(*, large: bool = False, seed: int = SEED, stop: str = "assault") -> Game:
    """The demonstration battle (see the module docstring). `stop`: 'deployed' or 'assault'."""
    axis = Army("Demo Axis", Side.AXIS, units=AXIS_LARGE if large else AXIS)
    allies = Army("Demo Allies", Side.ALLIES, units=ALLIES_LARGE if large else ALLIES)
    game = Game.new(axis, allies, configuration=1, dice=Dice(seed=seed))
    _setup(game)
    if stop == "deployed":
        return game
    _play_until(game, turn=2, phase=Phase.ASSAULT, attacks=2)
    return game


def _setup(game: Game) -> None:
    while game.state.stage is not Stage.INITIATIVE and game.decider() is not None:
        state = game.state
        side = game.decider()
        assert side is not None
        if state.stage is Stage.CHOOSE_FIRST:
            game.apply(A.First(side))
        elif state.stage is Stage.CHOOSE_END:
            game.apply(A.End("west" if side is Side.AXIS else "east"))
        elif state.stage is Stage.DEPLOY:
            waiting = game.ready_units()
            if not waiting:
                game.apply(A.Ready())
                continue
            unit_id = waiting[0]
            end = state.ends[side]
            options = [a for a in game.legal_actions(unit_id) if isinstance(a, A.Deploy)]
            centre_row = 5
            best = max(
                options,
                key=lambda a: (
                    _front(end, a.hex, game) - 2 * abs(a.hex.r - centre_row) - len(state.at(a.hex)) * 3,
                    -a.hex.r,
                ),
            )
            game.apply(A.Deploy(unit_id, best.hex, None))
        else:
            break


#: Attacks each side makes in an assault phase on the way (a few: the demo wants a battle, not a rout).
ATTACKS_PER_PHASE = 2


def _play_until(game: Game, *, turn: int, phase: Phase, attacks: int) -> None:
    """Play simply until the given turn's phase, then make `attacks` attacks in it."""
    made: dict[tuple[int, object], int] = {}
    for _ in range(2000):
        state = game.state
        if game.over or game.decider() is None:
            return
        if state.turn == turn and state.phase is phase and state.stage is Stage.ACT:
            attacked = 0
            for unit_id in game.ready_units():
                if attacked >= attacks:
                    break
                targets = [a for a in game.legal_actions(unit_id) if isinstance(a, A.Attack)]
                if targets:
                    game.apply(targets[0])
                    attacked += 1
                    if game.state.stage is not Stage.ACT:
                        _answer(game)
            return
        _step(game, made)


def _answer(game: Game) -> None:
    while game.state.stage is Stage.DEFENSIVE_FIRE:
        game.apply(A.Hold())


def _step(game: Game, made: dict[tuple[int, object], int]) -> None:
    state = game.state
    side = game.decider()
    assert side is not None
    enemy = [u.hex for u in state.on_map(side.other) if u.hex is not None]
    if state.stage is Stage.CHOOSE_FIRST:
        game.apply(A.First(side))
    elif state.stage is Stage.DEFENSIVE_FIRE:
        game.apply(A.Hold())
    elif state.stage is Stage.ACT:
        for unit_id in game.ready_units():
            if state.phase is Phase.ASSAULT:
                key = (state.turn, side)
                if made.get(key, 0) >= ATTACKS_PER_PHASE:
                    break
                targets = [a for a in game.legal_actions(unit_id) if isinstance(a, A.Attack)]
                if targets:
                    made[key] = made.get(key, 0) + 1
                    game.apply(targets[0])
                    return
                continue
            options = game.unit_options(unit_id)
            if options is None or not options.moves:
                continue
            end = state.ends[side]
            here = state.units[unit_id].hex
            assert here is not None

            def score(
                hex_: Hex, here: Hex = here, end: str = end, enemy: list[Hex] = enemy
            ) -> tuple[int, int]:
                near = min((distance(hex_, e) for e in enemy), default=99)
                return (min(_front(end, hex_, game) - _front(end, here, game), 4), -abs(near - 4))

            target = max(options.moves, key=score)
            if score(target)[0] <= 0:
                continue
            game.apply(A.Move(unit_id, options.moves[target]))
            return
        game.apply(A.Pass())
    elif state.stage is Stage.PLACE:
        game.apply(game.legal_actions()[0])
    else:
        game.apply(game.legal_actions()[0])
