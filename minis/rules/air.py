"""Aircraft in the ground game (the Contested Skies rules insert; docs/aircraft.md).

Aircraft are never deployed and never move. Each turn, after both movement phases, each player in
turn has a flight phase in which he puts any of his aircraft that may fly on any hex (one aircraft a
hex, whatever the army; aircraft don't count for the stacking of Soldiers and Vehicles). The later rule
sets share one flight phase instead (`RuleSet.aircraft_placement`): the players place one aircraft each
in turn, first player first, every aircraft that may fly (2008), or until each declines (2010). Then each
player in turn has an airstrike phase in which each of his aircraft on the map may make one attack,
then come the two assault phases. At the end of the turn every aircraft leaves the map. A player with
nothing to do in a flight or airstrike phase is skipped, with no decision (so battles without
aircraft play exactly as before).

Placing an aircraft next to (or on) an enemy unit with Antiair, or within 4 hexes of an enemy Ace,
gives that unit a reaction shot: a defensive-fire attack, asked of its player (`Stage.REACTION`), that
disrupts at once. A disrupted aircraft (face up) can't be placed; one disrupted by a reaction shot keeps
its counter through this turn's casualty phase (`GameState.grounded`), so it sits out the next turn too.

Attacks on aircraft use the attacker's vs-Soldier values, at -1 on each die unless the attacker has
Antiair or Ace, never with a cover roll; line of sight to or from an aircraft crosses any terrain
(only smoke blocks it). Bombardment and Top-Mounted Rockets can't attack aircraft; aircraft never fire
defensively at moving units. Hits place Disrupted, then Destroyed (an aircraft is never damaged).
"""

from __future__ import annotations

from minis import abilities
from minis.base.sides import Side
from minis.content.rule_sets import ALTERNATE_WITH_PASS, OWN_PHASE
from minis.dice import Dice
from minis.engine.events import Event
from minis.hexgrid import Hex, distance
from minis.rules.air_attacks import ground, has_antiair, is_ace
from minis.rules.combat import AttackPlan, attack_allowed, plan_attack, resolve_attack
from minis.rules.defensive_fire import may_fire
from minis.state import GameState, Phase, Stage, Unit

#: The word files use for "off the map" where a hex is expected (`at = "off"`: rules tests, scenarios).
OFF_MAP = "off"
#: How far an enemy unit with Antiair sees an aircraft placed to shoot at it (its own hex or next to it).
ANTIAIR_REACH = 1
#: How far an enemy Ace reacts to an aircraft placed near it.
ACE_REACH = 4
#: The flight and airstrike phases, in the order of the turn, each played by the first player, then
#: the second (the sequence of play between the movement and the assault phases).
AIR_PHASES = (Phase.FLIGHT, Phase.AIRSTRIKE)


def in_battle(state: GameState) -> bool:
    """True if some aircraft is still in the battle (flight and airstrike phases can happen)."""
    return any(u.card.is_aircraft and not u.removed for u in state.units.values())


# --- the flight phase ------------------------------------------------------------------------------


def flown_hexes(state: GameState) -> set[Hex]:
    """Hexes with an aircraft over them (one aircraft a hex, both armies together)."""
    return {u.hex for u in state.units.values() if u.hex is not None and u.card.is_aircraft and not u.removed}


def waiting(state: GameState, side: Side) -> list[Unit]:
    """`side`'s aircraft off the map that may be placed now (not destroyed, not disrupted), by id."""
    return sorted(
        (
            u
            for u in state.units.values()
            if u.side is side and u.card.is_aircraft and u.hex is None and not u.removed and not u.disrupted
        ),
        key=lambda u: u.id,
    )


def open_hexes(state: GameState) -> list[Hex]:
    """The hexes an aircraft may be placed on now (any hex of the map without an aircraft), in map order."""
    board = state.battle.board
    if board is None:
        return []
    taken = flown_hexes(state)
    return sorted((h for h in board.hexes if h not in taken), key=lambda h: (h.r, h.q))


def place_problem(state: GameState, unit: Unit, hex_: Hex) -> str | None:
    """Why `unit` can't be placed on `hex_` in this flight phase (None: it may)."""
    if not unit.card.is_aircraft:
        return f"{unit.id} is not an aircraft: only aircraft are placed in the flight phase"
    if state.phase is not Phase.FLIGHT:
        return "aircraft are placed only in their flight phase"
    if unit.removed:
        return f"{unit.id} has been destroyed"
    if unit.hex is not None:
        return f"{unit.id} is already over the map this turn"
    if unit.disrupted:
        return f"{unit.id} is disrupted and can't fly this turn"
    board = state.battle.board
    if board is None or not board.is_playable(hex_):
        return "that hex is not on the battle map"
    if hex_ in flown_hexes(state):
        return "another aircraft is already over that hex (one aircraft a hex)"
    return None


def place(state: GameState, unit: Unit, hex_: Hex, events: list[Event]) -> None:
    """Put `unit` over `hex_`; a reaction window opens if an enemy unit may shoot at it."""
    state.activated.add(unit.id)
    state.update(unit.id, hex=hex_, facing=None, entered=state.next_entry())
    events.append(Event("place", unit.side, unit.id, hexes=(hex_,)))
    if reactors(state, state.units[unit.id]):
        state.reaction = unit.id
        state.stage = Stage.REACTION
    else:
        hand_over(state)


def reacting_to(state: GameState) -> Unit | None:
    """The aircraft whose placement the reaction window under way answers (None: no window)."""
    if state.stage is not Stage.REACTION:
        return None
    unit_id = state.reaction
    return state.units[unit_id] if unit_id is not None else None


def reactors(state: GameState, aircraft: Unit) -> list[Unit]:
    """The enemy units that may shoot at `aircraft` just placed: Antiair next to its hex, Aces within 4
    hexes; each once a phase (the defensive-fire limit), with an attack on it. By id."""
    here = aircraft.hex
    if here is None or aircraft.removed or aircraft.disrupted:
        return []
    found = []
    for unit in state.units.values():
        there = unit.hex
        if there is None or unit.removed or unit.side is aircraft.side or unit.carried_by is not None:
            continue
        reach = distance(here, there)
        if unit.card.is_aircraft:
            if reach > ACE_REACH or not is_ace(state, unit):
                continue
        elif reach > ANTIAIR_REACH or not has_antiair(state, unit):
            continue
        if may_fire(state, unit) and attack_allowed(state, unit, aircraft, defensive=True):
            found.append(unit)
    found.sort(key=lambda u: u.id)
    return found


def react(state: GameState, firer_id: str, dice: Dice, events: list[Event]) -> None:
    """`firer`'s reaction shot at the aircraft just placed; the window stays open for other shooters."""
    aircraft = reacting_to(state)
    assert aircraft is not None
    state.fired[firer_id] = state.fired.get(firer_id, 0) + 1
    plan = plan_attack(state, state.units[firer_id], aircraft, defensive=True)
    if isinstance(plan, AttackPlan):
        result = resolve_attack(state, plan, dice, events)
        if result.hits and state.units[aircraft.id].disrupted:
            ground(state, aircraft.id)
    if not reactors(state, state.units[aircraft.id]):
        close_window(state)


def close_window(state: GameState, events: list[Event] | None = None) -> None:
    """The reacting player holds (or nobody is left to shoot): the flight phase goes on."""
    if events is not None and state.active is not None:
        events.append(Event("hold", state.active.other))
    state.reaction = None
    state.stage = Stage.ACT
    hand_over(state)


def shared_flight(state: GameState) -> bool:
    """True if the rule set has one flight phase for both players, placing in turn (2008 onward)."""
    return state.rules.aircraft_placement != OWN_PHASE


def declined(state: GameState) -> tuple[str, ...]:
    """The sides (values) that have declined to place more aircraft in this shared flight phase."""
    return state.declined


def may_place(state: GameState, side: Side) -> bool:
    """True if `side` may place an aircraft now: one that may fly, an open hex, and (in a shared flight
    phase) no pass of his this turn."""
    return side.value not in declined(state) and bool(waiting(state, side)) and bool(open_hexes(state))


def hand_over(state: GameState) -> None:
    """A placement is over (its reaction window closed): in a shared flight phase the other player places
    next, if he may (else the same player goes on; `sequence` ends the phase when neither may)."""
    active = state.active
    if (
        state.phase is Phase.FLIGHT
        and active is not None
        and shared_flight(state)
        and may_place(state, active.other)
    ):
        state.active = active.other


def pass_problem(state: GameState) -> str | None:
    """Why the active player can't pass in this flight phase (None: he may)."""
    if state.phase is not Phase.FLIGHT or not shared_flight(state):
        return None
    if state.rules.aircraft_placement == ALTERNATE_WITH_PASS or state.active is None:
        return None
    if may_place(state, state.active):
        return (
            "every aircraft that may fly must be placed in this flight phase: place one of yours "
            "(the players take turns, one aircraft at a time)"
        )
    return None


def decline(state: GameState) -> None:
    """The active player passes in a shared flight phase (2010): he places no more aircraft this turn."""
    assert state.active is not None
    if state.active.value not in declined(state):
        state.declined = (*declined(state), state.active.value)


def end_shared_flight(state: GameState) -> None:
    """The shared flight phase is over: the passes made in it are forgotten."""
    state.declined = ()


def grounded(state: GameState) -> tuple[str, ...]:
    """Aircraft disrupted by a reaction shot this turn (they keep the counter through its casualty phase)."""
    return state.grounded


# --- the airstrike phase ---------------------------------------------------------------------------


def strikers(state: GameState, side: Side, new_phase: bool = False) -> list[Unit]:
    """`side`'s aircraft on the map that have not attacked this phase (`new_phase`: the phase about to
    begin, when none has), by id."""
    done = () if new_phase else state.activated
    return sorted(
        (
            u
            for u in state.units.values()
            if u.side is side and u.card.is_aircraft and u.on_map and u.id not in done
        ),
        key=lambda u: u.id,
    )


def has_turn(state: GameState, phase: Phase, side: Side) -> bool:
    """True if `side` has something to do in its `phase` (flight or airstrike); else it is skipped."""
    if phase is Phase.FLIGHT:
        return may_place(state, side)
    enemies = [u for u in state.units.values() if u.side is not side and u.on_map and u.carried_by is None]
    for aircraft in strikers(state, side, new_phase=True):
        if any(attack_allowed(state, aircraft, target) for target in enemies):
            return True
        if abilities.use_actions(state, aircraft):
            return True
    return False


# --- the end of the turn ---------------------------------------------------------------------------


def leave_map(state: GameState, events: list[Event]) -> None:
    """At the end of the turn every aircraft leaves the map (before the victory check)."""
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.card.is_aircraft and unit.hex is not None and not unit.removed:
            state.update(unit.id, hex=None, pending=())
            events.append(Event("land", unit.side, unit.id))
    state.grounded = ()
