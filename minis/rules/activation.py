"""Extra actions within one unit's activation (rulebook, Extra or Additional Actions).

Some abilities let a unit do more after its normal action in its assault phase: attack again (Double
Shot, All Guns Blazing, Additional Hull-Mounted Cannon, Banzai Charge) or move after attacking (Strike
and Fade). The rulebook says such extra actions are completed as part of activating that unit and
can't be saved. So after a unit's normal action the engine asks the abilities for the follow-ups it
earned (`FollowUp`), keeps them here as the current activation, and drops them as soon as the player
does anything else (another unit's action, or passing). Each follow-up is used at most once.

The bookkeeping lives in `GameState.activation` and `GameState.notes`, tagged with the phase, so it goes
stale by itself when the phase ends. Also kept here: which units moved and which attacked in the current
phase (Fighting Platform needs to know whether its transport moved).
"""

from __future__ import annotations

from minis import abilities
from minis.base.fields import same
from minis.hexgrid import Hex
from minis.rules.flags import add_this_phase, phase_key, this_phase
from minis.state import Activation as Activation
from minis.state import FollowUp, GameState

MOVED = "moved"
ATTACKED = "attacked"


def current(state: GameState) -> Activation | None:
    found = state.activation
    if found is not None and found.phase == phase_key(state) and found.offers:
        return found
    return None


def offers(state: GameState, unit_id: str) -> tuple[FollowUp, ...]:
    """The follow-ups `unit_id` may still take now (empty unless its activation is the current one)."""
    found = current(state)
    return found.offers if found is not None and found.unit == unit_id else ()


def has_offer(state: GameState, unit_id: str, ability_id: str, kind: str) -> bool:
    return any(f.ability == ability_id and f.kind == kind for f in offers(state, unit_id))


def acting_unit(state: GameState) -> str | None:
    """The unit with follow-ups left, if any."""
    found = current(state)
    return found.unit if found is not None else None


def clear(state: GameState) -> None:
    """Another action was taken: the follow-ups are lost (they can't be saved)."""
    state.activation = None


def record(state: GameState, unit_id: str, done: str) -> None:
    """Note that a unit moved ("move", turning included) or attacked ("attack") this phase."""
    add_this_phase(state, MOVED if done == "move" else ATTACKED, unit_id)


def moved(state: GameState, unit_id: str) -> bool:
    return unit_id in this_phase(state, MOVED)


def attacked(state: GameState, unit_id: str) -> bool:
    return unit_id in this_phase(state, ATTACKED)


def after_action(
    state: GameState, unit_id: str, done: str, path: tuple[Hex, ...] = (), used: FollowUp | None = None
) -> None:
    """After a unit's action: record it; a normal action opens the follow-ups its abilities grant, a
    follow-up uses up its offer (the others stay for the same activation). An extra move (Strike and
    Fade) comes after the unit's attacks: once it is made, the extra attacks not taken are lost."""
    record(state, unit_id, done)
    if used is not None:
        fade = used.kind in ("move", "face")  # a move or turn after attacking ends the extra attacks
        left = tuple(
            f for f in offers(state, unit_id) if not same(f, used) and not (fade and f.kind == "attack")
        )
        state.activation = Activation(phase_key(state), unit_id, left)
        return
    unit = state.units[unit_id]
    earned = abilities.follow_ups(state, unit, done, path) if unit.on_map else ()
    if earned:
        state.activation = Activation(phase_key(state), unit_id, tuple(dict.fromkeys(earned)))
    else:  # no extra actions: the same as an activation with none left (`current` ignores those)
        state.activation = None
