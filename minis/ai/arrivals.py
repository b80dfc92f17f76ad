"""How the computer brings in units that wait off the map (Heroes, Paratroopers: `minis.rules.arrivals`).

Each waiting unit is offered once, at the hex where the position evaluator values it most. A Hero is
worth bringing in at once (it may still move this phase, and it may join only at the start of it), so
its arrival outranks every move. A Paratrooper's landing ends the movement phase, so it is scored just
above passing: the other units make every move worth making first, then it lands.
"""

from __future__ import annotations

import random

from minis.ai.scoring import Evaluator
from minis.engine import actions as A
from minis.game import Game
from minis.rules import arrivals

#: A Hero's arrival: above any move's score.
HERO_SCORE = 50.0
#: A landing: above passing (0), below any move worth making.
LANDING_SCORE = 1e-3


def scored(game: Game, evaluator: Evaluator, rng: random.Random) -> list[tuple[A.Action, float]]:
    """The best arrival of each waiting unit of the player to act, with its score (none: no such units)."""
    state = game.state
    if not arrivals.any_special(state) or state.active is None:
        return []
    found: list[tuple[A.Action, float]] = []
    for unit in arrivals.waiting(state, state.active):
        hexes = arrivals.arrival_hexes(state, unit)
        if not hexes:
            continue
        best = max(hexes, key=lambda h: (evaluator.value(unit, h)[0], -h.r, -h.q))
        base = HERO_SCORE if arrivals.kind(state, unit) == arrivals.HERO else LANDING_SCORE
        found.append((A.Arrive(unit.id, best), base + rng.random() * LANDING_SCORE / 10))
    return found
