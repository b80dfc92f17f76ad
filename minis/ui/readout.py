"""What the battle screen says, as data: the side panel, the hover box, an attack's odds in words,
the dice row and the dialogs' questions (the first player, the end), with the casualty phase's report.

`BattleReadout` reads a `BattleController` (what is selected, the path being built, the stage) and the
game it plays, and changes neither: its buttons (`Choice`) call the controller's actions. The
controller takes the input and hands actions to the engine; this module words what there is to see, so
each can be read (and tested) without the other's details.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from minis.base.grammar import plural, verb
from minis.base.sides import Side
from minis.cards import StatCard
from minis.engine import actions as A
from minis.engine import queries
from minis.engine.events import Event, initiative_outcome
from minis.engine.queries import AttackPreview, percent
from minis.game import Game
from minis.hexgrid import Hex, distance
from minis.rules import air, arrivals
from minis.rules.defensive_fire import window_hex
from minis.rules.movement import cannot_move
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import hexdraw
from minis.ui import obstacles as obstacle_ui
from minis.ui.controller import BattleController, doing, sentence_end
from minis.ui.counters import pending_summary
from minis.ui.plain import of_side, sentence, the, unit_names
from minis.ui.rolls import Roll, rolls
from minis.ui.rulewords import rules_line


@attrs.frozen
class Choice:
    """A button of the panel or of a question: its caption, what it does, a key that also does it
    (a character: "1".."9", "A", ...; the screen maps it to the keyboard) and whether it is enabled."""

    caption: str
    do: Callable[[], object] = attrs.field(eq=False)
    key: str | None = None
    enabled: bool = True


@attrs.frozen
class Listed:
    """A row of the deployment list: the unit, its name, where it is, whether it is selected."""

    unit: str
    name: str
    where: str
    selected: bool


@attrs.frozen
class Panel:
    """What the side panel says, for the screen to lay out."""

    #: The top bar's title and banner ("Axis to decide"), and whose colour the banner takes.
    title: str
    banner: str
    banner_side: Side | None
    #: The panel's heading and whose colour it takes (None: the accent colour).
    heading: str
    heading_side: Side | None
    info: str
    choices: tuple[Choice, ...] = ()
    #: The end-of-step button ("End phase (P)", "Ready (R)", "Hold (H)").
    end_caption: str = "End phase (P)"
    end_shown: bool = False
    end_enabled: bool = True
    undo_enabled: bool = False
    #: The deployment list (shown only while deploying) and the card with its line under the name.
    listing: tuple[Listed, ...] = ()
    card: tuple[StatCard, str] | None = None


@attrs.frozen
class Question:
    """A question the players answer in a dialog: its title, text and answers."""

    title: str
    text: str
    choices: tuple[Choice, ...]


class BattleReadout:
    """The words and buttons of one battle screen, worked out from its controller when asked."""

    def __init__(self, controller: BattleController) -> None:
        self.controller = controller

    @property
    def game(self) -> Game:
        return self.controller.game

    @property
    def state(self) -> GameState:
        return self.controller.state

    @property
    def stage(self) -> Stage:
        return self.controller.stage

    def name(self, unit: Unit) -> str:
        return self.controller.name(unit)

    def label(self, hex_: Hex) -> str:
        return self.controller.label(hex_)

    # --- the panel as data ---------------------------------------------------------------------------
    def panel(self) -> Panel:
        """What the side panel says now, with a hint's reason on top while the hint is shown."""
        found = self._panel()
        if not self.controller.hint_why:
            return found
        return attrs.evolve(found, info=f"Why: {sentence_end(self.controller.hint_why)}\n{found.info}")

    def _panel(self) -> Panel:
        state = self.state
        stage = state.stage
        game = self.game
        decider = game.decider()
        title = "Set-up"
        if state.turn:
            title = f"Turn {state.turn} · {state.phase.value}" + (
                f" · {state.active.title}" if state.active else ""
            )
        title += f" · {rules_line(state.rules)}"  # the rule set the battle is played under
        if decider is not None:
            banner = f"{decider.title} to decide"
        else:
            banner = "game over" if game.over else "waiting for dice"
        base = Panel(
            title=title,
            banner=banner,
            banner_side=decider,
            heading="",
            heading_side=None,
            info="",
            end_shown=stage in (Stage.ACT, Stage.DEPLOY, Stage.DEFENSIVE_FIRE, Stage.REACTION),
            end_caption={
                Stage.DEPLOY: "Ready (R)",
                Stage.DEFENSIVE_FIRE: "Hold (H)",
                Stage.REACTION: "Hold (H)",
            }.get(stage, "End phase (P)"),
            undo_enabled=self.controller.session.can_undo,
            card=self._card(),
        )
        who = decider.title if decider else ""
        if (
            decider in self.controller.elsewhere
        ):  # nothing of the computer's choices (its army to deploy) shows
            info = (
                self.controller.elsewhere_status
                or f"{self.controller.opponent_word.capitalize()} is deciding…"
            )
            return attrs.evolve(
                base,
                heading=f"{who}: {self.controller.opponent_word}'s turn",
                heading_side=decider,
                info=info,
                end_shown=False,
                card=self._card() if stage is not Stage.DEPLOY else None,
            )
        if stage is Stage.DEPLOY:
            return self._deploy_panel(base)
        if stage is Stage.ACT:
            return self._act_panel(base)
        if stage is Stage.DEFENSIVE_FIRE:
            return self._fire_panel(base)
        if stage is Stage.REACTION:
            return self._reaction_panel(base)
        if stage is Stage.PLACE:
            soldier = state.units[state.placing] if state.placing else None
            name = sentence(self.name(soldier)) if soldier else "A Soldier"
            its = "their" if plural(name) else "its"
            info = (
                f"{name} {verb(name, 'gets')} off {its} transport but {verb(name, 'does')} not fit there. "
                "Click one of the highlighted hexes (the nearest where it fits)."
            )
            return attrs.evolve(base, heading=f"{who}: place a Soldier", info=info)
        if stage is Stage.PENALTY:
            return self._penalty_panel(base)
        if stage is Stage.CHOOSE_OBJECTIVE:
            info = "The defender chooses the objective: click a highlighted hex (not next to the map edge)."
            return attrs.evolve(base, heading=f"{who}: the objective", info=info)
        if stage in (Stage.CHOOSE_FIRST, Stage.CHOOSE_END):
            heading = "Set-up" if state.phase is Phase.SETUP else f"Turn {state.turn}: initiative"
            return attrs.evolve(base, heading=heading, info="Answer the question on the right.")
        if game.waiting_for_dice():
            info = "This game uses scripted dice and has run out of them."
            return attrs.evolve(base, heading="Waiting for dice", info=info)
        return attrs.evolve(base, heading="The battle is over" if game.over else "")

    def panel_hover(self) -> tuple[str | None, str | None]:
        """What of the hovered hex `panel()` shows: the target (its odds, the attack button) and the
        hovered unit whose card it shows when no other card is. With `version` it is all the panel
        depends on, so a screen lays the panel out again only when it changes, not on every hex the
        mouse crosses (kept in step with `_card`)."""
        state = self.state
        shows_other = (
            (self.stage is Stage.DEFENSIVE_FIRE and state.move is not None)
            or self.stage is Stage.REACTION
            or (self.controller.selected is not None and self.controller.selected in state.units)
        )
        if shows_other or self.controller.target is not None or self.controller.hover is None:
            return (self.controller.target, None)
        hovered = self._hovered_first()
        return (None, hovered[0].id if hovered else None)

    def _hovered_first(self) -> list[Unit]:
        """The hovered hex's units and aircraft, the one picked in its stack (`chosen`) first."""
        if self.controller.hover is None:
            return []
        units = [*self.state.at(self.controller.hover), *self.controller.aircraft.over(self.controller.hover)]
        return sorted(units, key=lambda u: u.id != self.controller.chosen)

    def counters_of(self, unit: Unit) -> str:
        """What a unit's face-down counters say ("2 face-down counters"), as far as the dice have told."""
        before = (
            self.controller.counters_from.get(unit.id) if self.controller.counters_from is not None else None
        )
        if before is not None and before.pending != unit.pending:
            return pending_summary(attrs.evolve(unit, pending=before.pending))
        return pending_summary(unit)

    def _card(self) -> tuple[StatCard, str] | None:
        """The card the panel shows: the selected unit's, the target's, the mover's in a defensive-fire
        window, else the hovered unit's."""
        state = self.state
        selected = state.units.get(self.controller.selected or "")
        if self.stage is Stage.DEFENSIVE_FIRE and state.move is not None:
            mover = state.units[state.move.unit]
            return mover.card, self.counters_of(mover)
        flying = air.reacting_to(state)
        if flying is not None:  # the aircraft the other player may shoot at
            return flying.card, self.counters_of(flying)
        if selected is not None:
            off = "off the map" if selected.card.is_aircraft else "not deployed"
            where = self.label(selected.hex) if selected.hex is not None else off
            extra = where + (f", facing {selected.facing.name}" if selected.facing else "")
            status = self.counters_of(selected)
            return selected.card, extra + (f" · {status}" if status else "")
        if self.controller.target is not None:
            target = state.units[self.controller.target]
            return target.card, self.counters_of(target)
        hovered = self._hovered_first()
        if not hovered:
            return None
        unit = hovered[0]
        where = self.label(unit.hex) if unit.hex is not None else ""
        status = self.counters_of(unit)
        return unit.card, f"{unit.side.title} · {where}" + (f" · {status}" if status else "")

    def _deploy_panel(self, base: Panel) -> Panel:
        state = self.state
        side = state.deploying
        assert side is not None
        waiting = self.controller.deployment.to_deploy()
        facing = (
            f" It will face {self.controller.facing.name} (Q/E or the wheel turn it)."
            if self.controller.facing
            else ""
        )
        if waiting:
            info = (
                f"Click a hex in the tinted zone to place the selected unit.{facing} "
                f"{len(waiting)} to deploy. Click a placed unit to move it again."
            )
        else:
            info = f"Every unit is placed.{facing} Press R (Ready) to finish, or move units again."
        listing = tuple(
            Listed(
                unit_id,
                self.name(state.units[unit_id]),
                self.label(hex_)
                if (hex_ := state.units[unit_id].hex) is not None
                else "arrives later"
                if arrivals.arrives_later(state, state.units[unit_id])
                else "to deploy",
                unit_id == self.controller.selected,
            )
            for unit_id in self.controller.deployment.listed()
        )
        return attrs.evolve(
            base,
            heading=f"{side.title}: deployment at the {state.ends.get(side, '')} end",
            info=info,
            listing=listing,
            end_enabled=not waiting,
        )

    def _act_panel(self, base: Panel) -> Panel:
        attacks = self.controller.attacks
        ready = self.controller.ready_ids()
        state = self.state
        active = state.active
        assert active is not None
        heading = f"{active.title} {state.phase.value} phase"
        if state.phase is Phase.FLIGHT:
            return self._flight_panel(attrs.evolve(base, heading=heading))
        if state.phase is Phase.AIRSTRIKE:
            return self._airstrike_panel(attrs.evolve(base, heading=heading))
        selected = state.units.get(self.controller.selected or "")
        waiting = self.controller.deployment.waiting_to_arrive() if state.phase is Phase.MOVEMENT else []
        if selected is not None and selected.hex is None and not selected.removed:  # off the map
            places = self.controller.deployment.special_hexes()
            how = "joins" if arrivals.kind(state, selected) == arrivals.HERO else "lands"
            info = (
                f"{sentence(self.name(selected))} {verb(self.name(selected), 'waits')} off the map. "
                f"Click a tinted hex: it {how} there "
                f"({len(places)} {'hex' if len(places) == 1 else 'hexes'} allowed now)."
                if places
                else f"{sentence(self.name(selected))} {verb(self.name(selected), 'waits')} off the map and "
                "can't arrive now."
            )
            return attrs.evolve(base, heading=heading, info=info)
        if selected is None:
            what = "move" if state.phase is Phase.MOVEMENT else "move or attack"
            info = (
                f"Click one of your units to {what} ({len(ready)} may still act; greyed ones have "
                "acted). P ends the phase."
            )
            arrive = tuple(
                Choice(f"Bring in {self.name(u)}", doing(self.controller.select, u.id)) for u in waiting[:6]
            )
            if arrive:
                info += (
                    "\nOff the map, waiting to arrive: a Hero at the start of the phase with a Soldier of"
                    " its nation, a Paratrooper at its end away from the enemy."
                )
            return attrs.evolve(base, heading=heading, info=info, choices=arrive)
        choices: list[Choice] = []
        lines = [f"{sentence(self.name(selected))}: "]
        if self.controller.path:
            info_ = self.controller.path_info or queries.path_info(state, selected.id, self.controller.path)
            self.controller.path_info = info_
            lines = [self.controller.texts.path(info_)]
            if selected.card.is_vehicle and self.controller.facing is not None:
                lines.append(f"Final facing {self.controller.facing.name} (Q/E or the wheel).")
            lines.append("Enter or a click on the last hex moves; right-click takes a step back.")
            choices.append(Choice("Move (Enter)", self.controller.confirm))
        elif self.controller.preview is not None:
            lines = [self.attack_text(self.controller.preview)]
            if isinstance(self.controller.preview, AttackPreview):
                choices.append(
                    Choice(
                        f"Attack {self.name(state.units[self.controller.preview.target])}",
                        self.controller.confirm,
                    )
                )
        else:
            if self.controller.moves:
                rolls = sum(1 for p in self.controller.costs.values() if p.rolls)
                lines[0] += f"{len(self.controller.moves)} hexes in reach (tinted, with their cost"
                lines[0] += "; amber ones need movement rolls)." if rolls else ")."
            else:
                reason = cannot_move(state, selected) or ""
                lines[0] += (
                    f"can't move ({self.controller.plain(reason)})." if reason else "has nowhere to move."
                )
            if attacks:
                lines.append(f"{len(attacks)} enemies in range: hover one for the odds, click to attack.")
            elif state.phase is Phase.ASSAULT:
                lines.append("No enemy it can attack from here.")
            if selected.card.is_vehicle:
                lines.append("Q/E and Enter turn it in place.")
        options = self.game.unit_options(selected.id)
        if options is not None:
            for use in options.uses:  # an ability's own action
                choices.append(Choice(self.controller.texts.use(use), doing(self.controller.act, use)))
            for transport in options.boards:
                choices.append(
                    Choice(
                        f"Board {self.name(state.units[transport])}",
                        doing(self.controller.act, A.BoardTransport(selected.id, transport)),
                    )
                )
            if options.dismount is not None:
                choices.append(
                    Choice("Dismount", doing(self.controller.act, A.Dismount(selected.id, options.dismount)))
                )
            for shore in options.landings:  # from a boat afloat onto the bank next to it (water)
                landing = A.Dismount(selected.id, shore)
                choices.append(
                    Choice(f"Get off onto {self.label(shore)}", doing(self.controller.act, landing))
                )
        return attrs.evolve(base, heading=heading, info="\n".join(lines), choices=tuple(choices))

    def _flight_panel(self, base: Panel) -> Panel:
        """The flight phase: choose an aircraft (the tray, a button, N), then a hex for it to fly over."""
        state = self.state
        selected = state.units.get(self.controller.selected or "")
        ready = [state.units[u] for u in sorted(self.controller.ready_ids())]
        if selected is not None and selected.hex is None:
            name = sentence(self.name(selected))
            info = (
                f"{name} waits off the map. Click any hex without an aircraft: it flies "
                "over it. An enemy unit with Antiair next to that hex, or an enemy Ace within 4 hexes, "
                "may shoot at it as it arrives (a hit disrupts it)."
            )
            return attrs.evolve(base, info=info)
        side = state.active
        grounded = [
            self.name(u)
            for u in state.units.values()
            if u.side is side and u.card.is_aircraft and u.hex is None and u.disrupted and not u.removed
        ]
        info = (
            f"Choose one of your aircraft (the tray beside the map, a button below, or N), then click a hex "
            f"for it to fly over. {len(ready)} may still fly; P ends the phase."
        )
        if grounded:
            info += f"\nGrounded this turn (disrupted): {', '.join(grounded)}."
        choices = tuple(
            Choice(f"Fly {self.name(u)}", doing(self.controller.aircraft.pick, u.id)) for u in ready[:6]
        )
        return attrs.evolve(base, info=info, choices=choices)

    def _airstrike_panel(self, base: Panel) -> Panel:
        """The airstrike phase, like an assault phase: an aircraft over the map, then an enemy to attack
        (its odds shown while the mouse is over it)."""
        attacks = self.controller.attacks
        ready = self.controller.ready_ids()
        state = self.state
        selected = state.units.get(self.controller.selected or "")
        if selected is None or selected.hex is None:
            info = (
                "Click one of your aircraft over the map (the tags at the top of their hexes), then an enemy "
                f"to attack: hover it first for the odds. {len(ready)} may still attack; P ends "
                "the phase."
            )
            return attrs.evolve(base, info=info)
        choices: list[Choice] = []
        if self.controller.preview is not None:
            lines = [self.attack_text(self.controller.preview)]
            if isinstance(self.controller.preview, AttackPreview):
                choices.append(
                    Choice(
                        f"Attack {self.name(state.units[self.controller.preview.target])}",
                        self.controller.confirm,
                    )
                )
        elif attacks:
            lines = [
                f"{sentence(self.name(selected))} over {self.label(selected.hex)}: {len(attacks)} "
                f"{'enemy' if len(attacks) == 1 else 'enemies'} in range (ringed in orange): hover one "
                "for the odds, click to attack."
            ]
        else:
            lines = [
                f"{sentence(self.name(selected))} over {self.label(selected.hex)}: no enemy it can attack "
                "from there."
            ]
        options = self.game.unit_options(selected.id)
        for use in options.uses if options is not None else ():
            choices.append(Choice(self.controller.texts.use(use), doing(self.controller.act, use)))
        return attrs.evolve(base, info="\n".join(lines), choices=tuple(choices))

    def _reaction_panel(self, base: Panel) -> Panel:
        """The other player's answer to an aircraft just placed: a shot from a unit that may take one
        (each with its odds), or hold."""
        state = self.state
        aircraft = air.reacting_to(state)
        assert aircraft is not None and aircraft.hex is not None and state.active is not None
        firer = state.active.other
        options = self.controller.aircraft.reaction_options()
        shooters = [self.name(state.units[p.attacker]) for p in options]
        who = " and ".join(map(the, shooters)) if len(shooters) < 3 else ", ".join(map(the, shooters))
        may = "may" if len(shooters) == 1 else "may each"
        info = (
            f"{of_side(state.active.title, self.name(aircraft))} flies over {self.label(aircraft.hex)}: "
            f"{who} {may} shoot at it. A hit disrupts it, and a disrupted aircraft stays grounded "
            f"through the next turn. {firer.title}: shoot, or hold."
        )
        choices = tuple(
            Choice(
                f"{i + 1}: {self.name(state.units[preview.attacker])} · {preview.dice} dice · "
                f"hit {percent(preview.hit_chance)}",
                doing(self.controller.fire, preview.attacker),
                key=str(i + 1),
            )
            for i, preview in enumerate(options[:8])
        )
        return attrs.evolve(
            base,
            heading=f"{firer.title}: shoot at the aircraft?",
            heading_side=firer,
            info=info,
            choices=choices,
        )

    def _penalty_panel(self, base: Panel) -> Panel:
        """The opponent's choice of the unit that takes an overstacked hex's hit: one button a unit."""
        state = self.state
        penalty = self.controller.penalty
        chooser = self.game.decider()
        assert chooser is not None
        info = (
            f"{penalty.prompt()} (a face-down counter, turned up in the casualty phase). "
            "Click its counter beside the hex, a button or its number."
        )
        choices = tuple(
            Choice(f"{i + 1}: {self.name(unit)}", doing(penalty.choose, unit.id), key=str(i + 1))
            for i, unit in enumerate(penalty.units()[:9])
        )
        hex_ = penalty.where()
        where = self.label(hex_) if hex_ is not None else ""
        owner = state.active.title if state.active else ""
        return attrs.evolve(
            base,
            heading=f"{chooser.title}: the hit for the {owner} in {where}",
            heading_side=chooser,
            info=info,
            choices=choices,
        )

    def _fire_panel(self, base: Panel) -> Panel:
        state = self.state
        move = state.move
        assert move is not None and state.active is not None
        firer = state.active.other
        mover = state.units[move.unit]
        a, b = move.path[move.step], move.path[move.step + 1]
        info = (
            f"{of_side(state.active.title, self.name(mover))} {verb(self.name(mover), 'moves')} "
            f"{self.label(a)} → {self.label(b)} and {verb(self.name(mover), 'is')} in "
            f"{self.label(window_hex(move))}. {firer.title}: fire with one of these (each may fire once this "
            "phase; a hit disrupts it and stops the move), or hold."
        )
        choices = tuple(
            Choice(
                f"{i + 1}: fire {self.name(state.units[preview.attacker])} · {preview.dice} dice · "
                f"hit {percent(preview.hit_chance)}",
                doing(self.controller.fire, preview.attacker),
                key=str(i + 1),
            )
            for i, preview in enumerate(queries.defensive_fire_options(state)[:8])
        )
        return attrs.evolve(
            base, heading=f"{firer.title}: defensive fire?", heading_side=firer, info=info, choices=choices
        )

    def attack_text(self, preview: AttackPreview | str) -> str:
        """An attack's range, dice, defense, cover roll and the odds of 0-3 hits (or why there is none)."""
        if isinstance(preview, str):
            return f"No attack: {self.controller.plain(preview)}"
        target = self.state.units[preview.target]
        band = preview.band.value if preview.band else "no"
        need = 4 - preview.modifier
        side = f" ({preview.facing_side})" if preview.facing_side else ""
        defense = f"defense {preview.defense}"
        if preview.defense != preview.card_defense:
            defense += f" (card {preview.card_defense}{side})"
        else:
            defense += side
        board = self.state.board
        ground = ""
        if board is not None and target.hex is not None:
            ground = f" ({hexdraw.terrain_name(board.terrain(target.hex))})"
        if preview.cover is None:
            cover = "no cover roll"
        elif preview.cover_fixed is not None:
            cover = "cover roll: automatic " + ("success" if preview.cover_fixed else "failure") + ground
        else:
            cover = f"cover roll on {preview.cover - preview.cover_modifier}+{ground}"
        why = "".join(f"\n{m.text}" for m in preview.modifiers)
        why += "".join(f"\n{line}" for line in preview.effects)  # abilities at work, by name
        why += self.spotter_text(preview)
        odds = ", ".join(f"{k} hit{'s' if k != 1 else ''} {percent(p)}" for k, p in enumerate(preview.odds))
        return (
            f"Attack {self.name(target)}: {preview.distance} hex{'es' if preview.distance != 1 else ''}, "
            f"{band} range, {preview.dice} dice hitting on {need}+, {defense}, {cover}.{why}\n{odds}.\n"
            f"{percent(preview.hit_chance)} (on the sight line): at least one hit"
            + (" or destroyed at once." if preview.destroyed else ".")
        )

    def spotter_text(self, preview: AttackPreview) -> str:
        """Indirect fire: whose sight the attack uses and why (the attacker can't see the target)."""
        spotter = self.state.units.get(preview.spotter) if preview.spotter else None
        if spotter is None or spotter.hex is None:
            return ""
        target = self.state.units[preview.target]
        away = distance(spotter.hex, target.hex) if target.hex is not None else 0
        hexes = f"{away} hex{'es' if away != 1 else ''}"
        name = self.name(spotter)
        return f"\nIndirect fire: {name} {verb(name, 'sees')} the target ({hexes} away)."

    def hover_lines(self, hex_: Hex | None = None) -> list[str]:
        """The hover box of `hex_` (default: the hovered hex; none off the map): the hex, its terrain
        and whether it is the objective, then each unit in it from the top of the stack down, by its
        counter's name and its card's."""
        hex_ = self.controller.hover if hex_ is None else hex_
        state = self.state
        board = state.board
        if hex_ is None or board is None or hex_ not in board.hexes:
            return []
        objective = " · the objective" if hex_ == state.objective else ""
        lines = [f"{self.label(hex_)} {hexdraw.terrain_name(board.terrain(hex_))}{objective}"]
        if state.obstacles:
            lines += obstacle_ui.hover_lines(state, hex_)  # obstacles in the hex and on its hexsides
        lines += self.effect_lines(hex_)
        names = self.controller.short_names()
        top = self.controller.selected
        units = [
            u for u in state.units.values() if u.hex == hex_ and not u.removed and not u.card.is_aircraft
        ]
        for unit in sorted(
            units, key=lambda u: (u.carried_by is not None, u.id != top, u.side.value == "axis")
        ):
            short = names.get(unit.id, unit.card.name)
            title = self.name(unit)
            called = title if short == title else f"{short} = {title}"
            facing = f", facing {unit.facing.name}" if unit.facing else ""
            carrier = state.units.get(unit.carried_by or "")
            aboard = f", aboard {names.get(carrier.id, carrier.card.name)}" if carrier else ""
            status = self.counters_of(unit)
            lines.append(f"{unit.side.title}: {called}{facing}{aboard}" + (f" ({status})" if status else ""))
        for plane in self.controller.aircraft.over(hex_):  # above the ground units, as on the map
            short = names.get(plane.id, plane.card.name)
            title = self.name(plane)
            called = title if short == title else f"{short} = {title}"
            status = self.counters_of(plane)
            lines.append(
                f"{plane.side.title} aircraft overhead: {called}" + (f" ({status})" if status else "")
            )
        return lines

    def effect_lines(self, hex_: Hex) -> list[str]:
        """The hover box's line for each effect on `hex_` (smoke in it, a blown bridge on its side),
        as the engine words it (`queries.map_effects`); a bridge names the hex across."""
        lines = []
        for effect in queries.map_effects(self.state):
            if hex_ not in effect.hexes:
                continue
            across = [self.label(h) for h in effect.hexes if h != hex_]
            where = f" to {across[0]}" if across else ""
            lines.append(f"{effect.title}{where}: {effect.text}")
        return lines

    def rolls(self) -> list[Roll]:
        """The last action's dice for the dice row: each die, its success, and the result."""
        names = unit_names(self.state.units.values())
        return rolls(self.controller.session.last_events, lambda unit: names.get(unit, unit))

    # --- questions -----------------------------------------------------------------------------------
    def question(self) -> Question | None:
        """The question the stage asks in a dialog: the first player, or the end (None otherwise)."""
        if self.game.over or self.game.decider() is None or self.controller.elsewhere_decides():
            return None
        found = None
        if self.stage is Stage.CHOOSE_FIRST:
            found = self._first_question()
        if self.stage is Stage.CHOOSE_END:
            found = self._end_question()
        if found is not None and self.controller.hint:  # asked for with H while the question is open
            why = sentence_end(self.controller.hint_why)
            found = attrs.evolve(found, text=f"{found.text}\n\n{self.controller.hint}.\nWhy: {why}")
        return found

    def first_dice(self) -> list[tuple[str, int]]:
        """The dice behind the first-player question, each with its kind ("coin", or "axis"/"allies"
        for an initiative roll), for the dice row."""
        if self.state.phase is Phase.SETUP:
            die = self._coin()[1]
            return [("coin", die)] if die else []
        dice: list[tuple[str, int]] = []
        for event in self._initiative_rolls():
            dice += [("axis" if i < 2 else "allies", d) for i, d in enumerate(event.dice)]
        return dice

    def _coin(self) -> tuple[str, int | None]:
        """What the set-up's automatic start rolled, as a sentence, and the coin flip's die."""
        record = self.game.record
        start = record[0] if record and record[0].action is None else None
        die = start.dice[-1] if start and start.dice else None
        rolled = f"The coin flip die shows {die} (1-3 Axis, 4-6 Allies): " if die else ""
        if start is not None and len(start.dice) == 2 and self.state.configuration is not None:
            rolled = (
                f"The battle map die showed {start.dice[0]}: configuration {self.state.configuration}.\n"
                + rolled
            )
        return rolled, die

    def _initiative_rolls(self) -> list[Event]:
        """This turn's initiative rolls, oldest first (a tie rolls again)."""
        rolls = []
        for event in self.controller.session.events[::-1]:
            if event.kind == "initiative":
                rolls.append(event)
            elif event.kind == "turn":
                break
        return rolls[::-1]

    def _first_question(self) -> Question:
        state = self.state
        chooser = state.chooser
        assert chooser is not None
        if state.phase is Phase.SETUP:
            rolled = self._coin()[0]
            title = "Coin flip"
            text = f"{rolled}the {chooser.title} win the flip.\n\n{chooser.title}: who is the first player?"
        else:
            lines = []
            for event in self._initiative_rolls():
                d = event.dice
                lines.append(
                    f"Axis {d[0]} + {d[1]}, Allies {d[2]} + {d[3]} "
                    f"(totals with commanders {event.note}): {initiative_outcome(event)}"
                )
            title = f"Turn {state.turn}: initiative"
            text = "\n".join(lines) + f"\n\n{chooser.title}: who moves first this turn?"
        choices = (
            Choice("Axis first (A)", doing(self.controller.act, A.First(Side.AXIS)), key="A"),
            Choice("Allies first (L)", doing(self.controller.act, A.First(Side.ALLIES)), key="L"),
        )
        return Question(title, text, choices)

    def _end_question(self) -> Question:
        chooser = self.state.chooser
        assert chooser is not None
        text = (
            f"{chooser.title}: choose the end of the map to deploy at. The tinted hexes are the two "
            "deployment zones: west (left, purple) and east (right, red)."
        )
        if self.state.scenario.value == "assault":
            text = f"{chooser.title} (the defender): choose your end of the map; you deploy in its half."
        choices = (
            Choice("West (W)", doing(self.controller.act, A.End("west")), key="W"),
            Choice("East (E)", doing(self.controller.act, A.End("east")), key="E"),
        )
        return Question("Choose an end", text, choices)

    def casualty_report(self, events: list[Event]) -> tuple[str, str] | None:
        """The casualty phase's summary if `events` hold one: its title and text."""
        start = next((i for i, e in enumerate(events) if e.kind == "phase" and e.note == "casualty"), None)
        if start is None:
            return None
        lines = []
        names = {u.id: self.name(u) for u in self.state.units.values()}
        for event in events[start:]:
            name = sentence(names.get(event.unit or "", event.unit or ""))
            if event.kind == "recover":
                lines.append(f"{name}: the Disrupted counter is removed")
            elif event.kind == "flip":
                lines.append(f"{name}: turns up {event.note}")
            elif event.kind == "removed":
                lines.append(f"{name} {verb(name, 'is')} destroyed and removed")
            elif event.kind == "land":
                lines.append(f"{name} leaves the map")
            elif event.kind == "winner":
                outcome = event.side.title + " win" if event.side else "a draw"
                lines.append(f"The battle ends: {outcome} ({event.note})")
        text = "\n".join(lines) if lines else "No counters to turn up: nothing changes."
        turn = self.state.turn if self.stage is Stage.OVER else self.state.turn - 1
        return f"Casualty phase, end of turn {turn}", text
