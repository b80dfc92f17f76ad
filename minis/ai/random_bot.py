"""A bot that plays random legal actions: the baseline opponent, and the engine's fuzz tester.

It picks a random ready unit first and then one of that unit's actions (listing every unit's moves
at every decision would cost far more than the game itself); it passes with a small chance per
decision and whenever no unit has anything left to do. Aircraft fly over a random open hex, strike a
random target they may attack and answer enemy placements with reaction shots; those decisions only
come up in battles with aircraft, so the draws of other battles are unchanged.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TypeVar

from mypy_extensions import mypyc_attr

from minis.engine import actions as A
from minis.game import Game
from minis.hexgrid import FACINGS, Hex
from minis.rules import air, arrivals, obstacles, setup
from minis.rules.combat import reachable_enemies
from minis.state import Phase, Stage, Unit

T = TypeVar("T")

#: Random picks of a deployment hex before the bot lists the allowed ones.
DEPLOY_TRIES = 8


@mypyc_attr(allow_interpreted_subclasses=True)  # bots built on it stay interpreted
class RandomBot:
    """Random legal play. `pass_chance` is the chance of ending the phase at each decision."""

    name = "random"

    def __init__(
        self,
        seed: int | None = None,
        pass_chance: float = 0.1,
        fire_chance: float = 0.6,
        attack_chance: float = 0.6,
    ) -> None:
        self.rng = random.Random(seed)
        self.pass_chance = pass_chance
        self.fire_chance = fire_chance
        self.attack_chance = attack_chance
        #: The last deployment zone asked about, and its hexes in a fixed order (row, then column).
        self._zone: tuple[frozenset[Hex] | None, tuple[Hex, ...]] = (None, ())

    def choose(self, game: Game) -> A.Action:
        stage = game.state.stage
        if stage is Stage.ACT:
            return self._act(game)
        if stage is Stage.DEPLOY and game.state.obstacles and obstacles.placing(game.state):
            return pick(self.rng, game.legal_actions())  # obstacles first: any legal placement
        if stage is Stage.DEPLOY:
            waiting = game.ready_units()
            if waiting:
                unit = game.state.units[pick(self.rng, waiting)]
                hex_ = self._deploy_hex(game, unit)
                if hex_ is not None:
                    face = pick(self.rng, FACINGS) if unit.card.is_vehicle else None
                    return A.Deploy(unit.id, hex_, face)
            options = game.legal_actions()
            ready = [a for a in options if isinstance(a, A.Ready)]
            if ready and self.rng.random() < 0.8:
                return ready[0]
            return pick(self.rng, options)
        if stage is Stage.REACTION:  # an enemy aircraft was just placed near a unit that may shoot at it
            return self._react(game)
        options = game.legal_actions()
        if stage is Stage.DEFENSIVE_FIRE:
            fire = [a for a in options if isinstance(a, A.Fire)]
            if fire and self.rng.random() < self.fire_chance:
                return pick(self.rng, fire)
            return A.Hold()
        return pick(self.rng, options)

    def _deploy_hex(self, game: Game, unit: Unit) -> Hex | None:
        """A random hex of the zone where the unit may deploy, each such hex equally likely (None: none).

        Random picks until one is allowed (most are: a zone is large and mostly open), then, if the
        zone turns out crowded, the allowed hexes are listed and one is chosen.
        """
        state = game.state
        area = setup.zone(state, unit.side)
        extra = arrivals.extra_area(state, unit) if arrivals.any_special(state) else frozenset()
        if extra:  # a Partisan or Gliderborne may also deploy outside its zone
            area = area | extra
        if self._zone[0] is not area:  # the same zone object while a side deploys: sort it once
            self._zone = (area, tuple(sorted(area, key=lambda h: (h.r, h.q))))
        hexes = self._zone[1]
        if not hexes:
            return None
        for _ in range(DEPLOY_TRIES):
            hex_ = hexes[below(self.rng, len(hexes))]
            if setup.deploy_problem(state, unit, hex_) is None:
                return hex_
        allowed = [h for h in hexes if setup.deploy_problem(state, unit, h) is None]
        return pick(self.rng, allowed) if allowed else None

    def _act(self, game: Game) -> A.Action:
        phase = game.state.phase
        if phase is Phase.FLIGHT or phase is Phase.AIRSTRIKE:  # never asked in a battle without aircraft
            return self._air(game)
        arrival = self._arrival(game)
        if arrival is not None:
            return arrival
        if self.rng.random() < self.pass_chance:
            return A.Pass()
        units = game.ready_units()
        assault = game.state.phase is Phase.ASSAULT
        while units:
            unit = units.pop(below(self.rng, len(units)))
            if assault and self.rng.random() < self.attack_chance:
                attack = self._attack(game, unit)
                if attack is not None:
                    return attack
            options = game.unit_options(unit, with_attacks=False)
            choices = options.choices if options is not None else 0  # (a property: asked once)
            if options is None or not choices:
                if assault:
                    attack = self._attack(game, unit)
                    if attack is not None:
                        return attack
                continue
            chosen = below(self.rng, choices)
            if chosen < len(options.moves):
                path = next(itertools.islice(options.moves.values(), chosen, None))
                face = pick(self.rng, FACINGS) if options.vehicle else None
                return A.Move(unit, path, face)
            chosen -= len(options.moves)
            rest: list[A.Action] = [A.Face(unit, f) for f in options.faces]
            rest += [A.BoardTransport(unit, t) for t in options.boards]
            if options.dismount is not None:
                rest.append(A.Dismount(unit, options.dismount))
            rest += list(options.uses)
            rest += [A.Dismount(unit, h) for h in options.landings]  # ashore from a boat (water)
            return rest[chosen]
        return A.Pass()

    def _air(self, game: Game) -> A.Action:
        """The flight phase: a random aircraft that may fly over a random hex without one; the airstrike
        phase: a random aircraft's attack on a random target it may attack (else its ability's action).
        Both pass with `pass_chance` at each decision, and when nothing is left to do; never in a flight
        phase where the rule set wants every aircraft placed (2008: no draw for it then)."""
        flight = game.state.phase is Phase.FLIGHT
        if (not flight or air.pass_problem(game.state) is None) and self.rng.random() < self.pass_chance:
            return A.Pass()
        units = game.ready_units()
        while units:
            unit = units.pop(below(self.rng, len(units)))
            if flight:
                hexes = air.open_hexes(game.state)
                if hexes:
                    return A.Place(unit, hexes[below(self.rng, len(hexes))])
                continue
            if unit not in game.state.activated:
                attack = self._attack(game, unit)
                if attack is not None:
                    return attack
            options = game.legal_actions(unit)  # an extra attack, or an ability's own action
            if options:
                return options[below(self.rng, len(options))]
        return A.Pass()

    def _react(self, game: Game) -> A.Action:
        """A reaction shot at the aircraft just placed, with `fire_chance` (by a random unit that may)."""
        fire = [a for a in game.legal_actions() if isinstance(a, A.Fire)]
        if fire and self.rng.random() < self.fire_chance:
            return pick(self.rng, fire)
        return A.Hold()

    def _arrival(self, game: Game) -> A.Action | None:
        """Half the time, a random arrival of a unit waiting off the map (Heroes, Paratroopers), if one
        may arrive now. No draw at all in a battle without such units, so other games play as before."""
        state = game.state
        if not arrivals.any_special(state) or state.phase is not Phase.MOVEMENT:
            return None
        options = arrivals.arrive_actions(state)
        if not options or self.rng.random() < 0.5:
            return None
        return options[below(self.rng, len(options))]

    def _attack(self, game: Game, unit: str) -> A.Action | None:
        """An attack on a random enemy the unit may attack, if there is one (each equally likely).

        Enemies are drawn at random without replacement until one may be attacked. `may_reach` (no
        attack at that range, no ability that could give one) is a cheap pre-test that never rules out
        an allowed attack, so it thins the draw first; an extra attack (the unit has acted) skips it,
        as listing does.
        """
        state = game.state
        attacker = state.units[unit]
        side = attacker.side
        quick = attacker.hex is not None and unit not in state.activated
        if quick:
            candidates = reachable_enemies(state, attacker)  # `may_reach` for every enemy on the map
        else:
            candidates = [u for u in state.units.values() if u.side is not side and u.on_map]
        while candidates:
            index = below(self.rng, len(candidates))
            target = candidates[index]
            if game.can_attack(unit, target.id):
                return A.Attack(unit, target.id)
            candidates[index] = candidates[-1]
            candidates.pop()
        return None


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)`, drawn as CPython draws it (`getrandbits` of n's bit length until the number is
    below n): the very same numbers, made in compiled code in the fast build (the bot draws dozens a
    playout, and `random`'s own methods are interpreted Python)."""
    if n <= 0:
        raise ValueError(f"empty range for below({n})")
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice(items)`: the same draw (`below`)."""
    if not items:
        raise IndexError("cannot pick from an empty sequence")
    return items[below(rng, len(items))]


def play(game: Game, bots: dict[object, RandomBot] | RandomBot, max_actions: int = 100_000) -> Game:
    """Let bots play `game` to its end (a bot per side, or one bot for both)."""
    for _ in range(max_actions):
        side = game.decider()
        if side is None:
            break
        bot = bots if isinstance(bots, RandomBot) else bots[side]
        game.apply(bot.choose(game))
    return game
