"""The battle map's layers: what the screen draws over the terrain, and what the pointer points at.

The battle screen keeps one `BattleLayers`. It builds the map's groups (`BattleMap.set_group`) from the
game and the controller's selection, path, target and hover, each rebuilt only when what it shows
changes; it answers what the pointer stands for where a stack is spread out beside its hex, and where
the hover box goes so it hides the fewest counters. It is apart from the screen because it is most of
the drawing and none of the screen's life or input: the screen lays out its panel, routes the input
and asks this for the map's picture.

The groups, in their drawing order: `effects` (smoke, blown bridges), `under` (the tints, a unit's
reach and its costs, obstacles), `counters`, `effects-over` (a blown bridge's cross), `motion` (the
last action's moment, `minis.ui.motion`), `over` (the selection, the path, who may fire), `hover`
(what follows the pointer: its outline, an attack's line and odds, a ghost) and `fan` (the hovered
stack spread out beside its hex).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Protocol

import attrs

from minis.board import ZONE_DEPTH
from minis.engine import actions as A
from minis.engine import queries
from minis.engine.queries import AttackPreview, percent
from minis.hexgrid import Facing, Hex, direction_to
from minis.rules import air, setup
from minis.rules.zones import zone_hexes
from minis.state import GameState, Phase, Stage, Unit
from minis.ui import effects as effect_ui
from minis.ui import hexdraw
from minis.ui import obstacles as obstacle_ui
from minis.ui.battlemap import BattleMap
from minis.ui.controller import BattleController
from minis.ui.counters import (
    AIR_HALF_HEIGHT,
    AIR_HALF_WIDTH,
    HALF_HEIGHT,
    HALF_WIDTH,
    Slot,
    TextSpec,
    air_slot,
    air_tag,
    aircraft_over,
    counter_mesh,
    fan_box,
    fan_mesh,
    fan_unit_at,
    units_mesh,
)
from minis.ui.hexdraw import Mesh
from minis.ui.motion import Frame
from minis.ui.session import Session
from minis.ui.widgets import Box, Dialog

REACH: hexdraw.Colour = (120, 230, 120, 80)
REACH_ROLL: hexdraw.Colour = (250, 190, 60, 110)
LEGAL: hexdraw.Colour = (120, 230, 120, 95)
ZONE_TINT: dict[str, hexdraw.Colour] = {"west": (140, 90, 240, 70), "east": (236, 70, 70, 70)}
PATH: hexdraw.Colour = (255, 255, 255, 235)
PATH_EDGE: hexdraw.Colour = (20, 20, 20, 200)
DANGER: hexdraw.Colour = (224, 40, 32, 255)
HOVER: hexdraw.Colour = (255, 255, 255, 255)
SELECT: hexdraw.Colour = (255, 236, 90, 255)
TARGET_OK: hexdraw.Colour = (60, 210, 80, 255)
TARGET_NO: hexdraw.Colour = (230, 50, 40, 255)
#: Indirect fire: the spotter's sight line to the target and its hex.
SPOTTER_LINE: hexdraw.Colour = (90, 200, 255, 255)
MOVER: hexdraw.Colour = (230, 50, 40, 255)
SHOOTER: hexdraw.Colour = (255, 214, 40, 255)
TARGET_RANGE: hexdraw.Colour = (240, 120, 40, 255)
TEXT_ON_MAP: hexdraw.Colour = (16, 16, 16, 255)
#: How solid the ghost of a unit being placed or moved is (a share of a counter's opacity).
GHOST = 0.5
FLASH_FILL: hexdraw.Colour = (255, 236, 140, 110)
FLASH_RING: hexdraw.Colour = (255, 70, 40, 255)
MISS_BACK: hexdraw.Colour = (20, 20, 20, 215)
MISS_TEXT: hexdraw.Colour = (255, 255, 255, 255)
#: How far above its hex an aircraft's tag starts gliding down (and climbs to when it leaves).
AIR_GLIDE = 1.6 * hexdraw.SIZE

#: The hover group's marks kept built, by what they show (`BattleLayers._update_hover`).
KEPT_HOVER_MARKS = 64
#: The map's groups, in their drawing order.
GROUPS = (
    "effects",  # smoke and blown bridges: over the terrain, under the tints and counters
    "under",
    "counters",
    "effects-over",  # a blown bridge's cross: seen beside the counters at the bridge
    "motion",
    "over",
    "hover",
    "fan",
)


def _outline(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour, width: float = 3.0, scale: float = 0.93) -> None:
    mesh.outline(hexdraw.corners(*hexdraw.centre(hex_), scale), width, colour)


def _tint(mesh: Mesh, hex_: Hex, colour: hexdraw.Colour) -> None:
    mesh.polygon(hexdraw.corners(*hexdraw.centre(hex_)), colour)


def _faded(colour: hexdraw.Colour, share: float) -> hexdraw.Colour:
    return (colour[0], colour[1], colour[2], round(colour[3] * max(0.0, min(1.0, share))))


def _add_faded(mesh: Mesh, part: Mesh, texts: list[TextSpec], share: float) -> list[TextSpec]:
    """`part` added to `mesh` and `texts` returned, each made `share` as solid (a ghost, a unit leaving)."""
    mesh.points += part.points
    mesh.colours += [_faded(colour, share) for colour in part.colours]
    return [attrs.evolve(text, colour=_faded(text.colour, share)) for text in texts]


def ghost_mesh(unit: Unit, hex_: Hex, facing: Facing | None, name: str) -> tuple[Mesh, list[TextSpec]]:
    """Where a unit would go, facing the chosen way: its counter (an aircraft's tag), translucent."""
    part, mesh = Mesh(), Mesh()
    if unit.card.is_aircraft:
        texts = air_tag(part, unit, air_slot(hex_), name)
        return mesh, _add_faded(mesh, part, texts, GHOST)
    texts = counter_mesh(part, unit, Slot(*hexdraw.centre(hex_)), name, facing=facing)
    return mesh, _add_faded(mesh, part, texts, GHOST)


def motion_mesh(state: GameState, frame: Frame, names: Mapping[str, str]) -> tuple[Mesh, list[TextSpec]]:
    """A moment of motion (`minis.ui.motion.Frame`): sliding units between two hexes of their path, a
    hit's flash, a miss's mark, a destroyed unit fading and shrinking where it stood."""
    mesh = Mesh()
    texts: list[TextSpec] = []
    for unit_id, a, b, along in frame.slides:
        unit = state.units[unit_id]
        (ax, ay), (bx, by) = hexdraw.centre(a), hexdraw.centre(b)
        at = Slot(ax + (bx - ax) * along, ay + (by - ay) * along)
        facing = direction_to(a, b) if unit.card.is_vehicle else None
        texts += counter_mesh(mesh, unit, at, names.get(unit_id, unit.card.name), facing=facing)
    for mark, along in frame.marks:
        x, y = hexdraw.centre(mark.hex)
        fade = min(1.0, 2.5 * (1.0 - along))  # solid for most of its time, then fading out
        if mark.kind == "leave":
            unit = state.units[mark.unit]
            part = Mesh()
            shown = counter_mesh(part, unit, Slot(x, y, 1.0 - 0.7 * along), names.get(mark.unit, ""))
            texts += _add_faded(mesh, part, shown, 1.0 - along)
        elif mark.kind in ("fly", "land"):  # an aircraft gliding down onto its hex, or climbing away
            unit = state.units[mark.unit]
            share = along if mark.kind == "fly" else 1.0 - along
            slot = air_slot(mark.hex)
            part = Mesh()
            shown = air_tag(
                part, unit, Slot(slot.x, slot.y + AIR_GLIDE * (1.0 - share)), names.get(mark.unit, "")
            )
            texts += _add_faded(mesh, part, shown, share)
        elif mark.kind == "hit":
            mesh.polygon(hexdraw.corners(x, y, 0.95), _faded(FLASH_FILL, 1.0 - along))
            mesh.outline(hexdraw.corners(x, y, 0.85 + 0.3 * along), 5.0, _faded(FLASH_RING, fade))
        else:  # a miss: a mark over the target's counter, rising a little
            cy = y + 0.62 * hexdraw.SIZE + 8.0 * along
            mesh.polygon(
                [(x - 22, cy - 9), (x + 22, cy - 9), (x + 22, cy + 9), (x - 22, cy + 9)],
                _faded(MISS_BACK, fade),
            )
            texts.append(TextSpec("Miss", x, cy, 13.0, _faded(MISS_TEXT, fade), bold=True))
    return mesh, texts


def _before_the_dice(state: GameState, units_before: Mapping[str, Unit]) -> GameState:
    """The state with each unit's face-down counters as they were before the last action (while its
    dice tumble, the hits are the dice's to tell)."""
    shown = state.clone()
    for unit_id, before in units_before.items():
        unit = shown.units.get(unit_id)
        if unit is not None and unit.pending != before.pending:
            shown.units[unit_id] = attrs.evolve(unit, pending=before.pending)
    return shown


class Covered(Protocol):
    """What the layers ask of the battle screen: the dialog over the map, if any (no stack spreads out
    under a dialog). `minis.ui.battle.BattleScreen` is one; naming it here would make the two modules
    import each other."""

    @property
    def dialog(self) -> Dialog | None: ...


class BattleLayers:
    """The map's groups over the terrain, built from the game and the controller; what the pointer
    points at in a stack spread out (`pointing`, the map's own question); where the hover box goes."""

    def __init__(
        self, screen: Covered, session: Session, controller: BattleController, map_: BattleMap
    ) -> None:
        self.screen = screen
        self.session = session
        self.controller = controller
        self.map = map_
        #: The drawing of the map's effects (smoke, blown bridges), rebuilt only when they change.
        self.effects = effect_ui.picture(())
        #: The hex whose stack is spread out now (None: none).
        self.fan_hex: Hex | None = None
        #: What each group was last built for (a group is built again only when its key changes).
        self._layers_version: object = None
        self._counters_key: object = None
        self._under_key: object = None
        self._fan_key: object = None
        self._hover_key: object = None
        self._motion_key: object = None
        #: The counters' boxes on screen for the hover box, with what they were worked out for.
        self._spots: tuple[Hashable, list[tuple[float, float, float, float]]] = (None, [])
        for group in GROUPS:
            map_.set_group(group, None, [], [])
        map_.pointing = self.pointing  # a stack spread out stays open under the pointer

    @property
    def state(self) -> GameState:
        return self.session.game.state

    def update(self, frame: Frame | None, units_before: Mapping[str, Unit]) -> None:
        """The map's layers: `effects` (smoke, blown bridges), `under`, `counters`, `motion` (`frame`: the
        moment of motion shown, its sliding units left out of `counters`) and `over` in the kept picture;
        `hover` (what follows the mouse: its outline, an attack's line and odds, the deployment ghost)
        drawn over it. While the dice of the last action tumble, the counters show the face-down
        counters of `units_before` (the units before it): the hits are the dice's to tell."""
        self._update_hover()
        self._update_fan()
        self._update_motion(frame)
        moving = frame.moving if frame is not None else frozenset()
        tumbling = frame is not None and frame.tumble is not None
        version = (self.controller.version, self.map.cursor_shown, moving, tumbling)
        if self._layers_version == version:
            return
        self._layers_version = version
        state = self.state
        if state.board is None:
            return
        over = Mesh()  # outlines, paths, marks
        texts: list[TextSpec] = []
        stage = state.stage
        selected = state.units.get(self.controller.selected or "")
        under_key = (
            self.controller.board_version,
            stage,
            self.controller.selected,
            state.deploying,
            state.objective,
        )
        effects = tuple(queries.map_effects(state))
        if effects != self.effects.effects:
            self.effects = effect_ui.picture(effects)
        self.map.set_group("effects", effects, [(self.effects.mesh, True)], [])
        self.map.set_group("effects-over", effects, [(self.effects.over, True)], [])
        if under_key != self._under_key:
            self._under_key = under_key
            layers = [(self._tints(), True)]
            if state.obstacles:
                layers.append((obstacle_ui.mesh(state), True))  # obstacles (minis.ui.obstacles)
            self.map.set_group("under", under_key, layers, self._cost_texts())
        if selected is not None and selected.hex is not None:
            _outline(over, selected.hex, SELECT, 3.5, 0.95)
        if self.controller.path and selected is not None and selected.hex is not None:
            points = [hexdraw.centre(h) for h in (selected.hex, *self.controller.path)]
            over.polyline(points, 7, PATH_EDGE)
            over.polyline(points, 4, PATH)
            for p in points[1:]:
                over.disc(p, 5, PATH, 10)
            end = points[-1]
            over.disc(end, 8, PATH_EDGE, 12)
            over.disc(end, 6, SELECT, 12)
            info = self.controller.path_info
            if info is not None and info.problem is None:
                for step in info.steps:
                    if step.shooters:
                        x, y = hexdraw.centre(step.end)
                        mark = (x + 0.45 * hexdraw.SIZE, y + 0.3 * hexdraw.SIZE)
                        over.disc(mark, 9, (20, 20, 20, 255), 12)
                        over.disc(mark, 7.5, DANGER, 12)
                        texts.append(TextSpec("!", mark[0], mark[1], 12, (255, 255, 255, 255), bold=True))
        if stage is Stage.DEFENSIVE_FIRE and state.move is not None:
            mover = state.units[state.move.unit]
            if mover.hex is not None:
                _outline(over, mover.hex, MOVER, 4, 0.95)
                for preview in queries.defensive_fire_options(state):
                    shooter = state.units[preview.attacker]
                    if shooter.hex is not None:
                        _outline(over, shooter.hex, SHOOTER, 3.5, 0.9)
                        a, b = hexdraw.centre(shooter.hex), hexdraw.centre(mover.hex)
                        over.line(a, b, 3, SHOOTER)
        crowded = self.controller.penalty.where()
        if crowded is not None:  # the hex over the limit whose hit the other player chooses
            _outline(over, crowded, MOVER, 4, 0.95)
        flying = air.reacting_to(state) if stage is Stage.REACTION else None
        if flying is not None and flying.hex is not None:  # who may shoot at the aircraft just placed
            _outline(over, flying.hex, MOVER, 4, 0.95)
            for preview in self.controller.aircraft.reaction_options():
                shooter = state.units[preview.attacker]
                if shooter.hex is not None:
                    _outline(over, shooter.hex, SHOOTER, 3.5, 0.9)
                    over.line(hexdraw.centre(shooter.hex), hexdraw.centre(flying.hex), 3, SHOOTER)
        # the counters, with previews of a facing being chosen (rebuilt only when they change)
        acted = (
            frozenset(state.activated)
            if stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK, Stage.REACTION)
            else frozenset()
        )
        preview_facing: dict[str, Facing] = {}
        if (
            selected is not None
            and selected.card.is_vehicle
            and self.controller.facing is not None
            and not self.controller.path
        ):
            preview_facing[selected.id] = self.controller.facing
        facings = tuple(sorted((k, f.name) for k, f in preview_facing.items()))
        counters_key = (
            self.controller.board_version,
            acted,
            facings,
            self.controller.selected,
            moving,
            tumbling,
        )
        if counters_key != self._counters_key:
            self._counters_key = counters_key
            counters, counter_texts, _ = units_mesh(
                _before_the_dice(state, units_before) if tumbling else state,
                acted=acted,
                hidden=moving,
                facing=preview_facing,
                top=self.controller.selected,
                names=self.controller.short_names(),
            )
            self.map.set_group("counters", counters_key, [(counters, False)], counter_texts)
        ghost = Mesh()
        if (
            self.controller.path
            and selected is not None
            and selected.card.is_vehicle
            and self.controller.facing is not None
        ):
            ghost, ghost_texts = self._ghost(selected, self.controller.path[-1])
            texts += ghost_texts
        self.map.set_group("over", version, [(over, True), (ghost, True)], texts)

    def _update_motion(self, frame: Frame | None) -> None:
        """The `motion` group: what the last action did, for a moment (nothing once it is over)."""
        key = (frame, self.controller.board_version)
        if key == self._motion_key:
            return
        self._motion_key = key
        mesh, texts = Mesh(), list[TextSpec]()
        if frame is not None and self.state.board is not None:
            mesh, texts = motion_mesh(self.state, frame, self.controller.short_names())
        self.map.set_group("motion", frame, [(mesh, True)], texts)

    def _update_fan(self) -> None:
        """The `fan` group: the hovered hex's stack spread out whole beside it, names and all."""
        hover = self.map.hover
        pinned = self.controller.penalty.where() if not self.controller.elsewhere_decides() else None
        if pinned is not None:
            hover = pinned  # the overstacked hex's counters stay spread out, to be clicked
        if hover is not None and len(self.state.at(hover)) < 2:
            hover = None  # no stack to spread out: crossing such hexes leaves the group as it is
        place = self.fan_place(hover) if hover is not None else None
        chosen = self.controller.target or self.controller.chosen
        key = (self.controller.version, hover, self.screen.dialog is None, place, chosen)
        if key == self._fan_key:
            return
        self._fan_key = key
        mesh, texts = Mesh(), list[TextSpec]()
        board = self.state.board
        self.fan_hex = None
        if hover is not None and place is not None and board is not None and self.screen.dialog is None:
            self.fan_hex = hover
            acted = (
                self.state.activated
                if self.state.stage in (Stage.ACT, Stage.DEFENSIVE_FIRE, Stage.WALK)
                else ()
            )
            mesh, texts = fan_mesh(
                self.state,
                hover,
                acted=acted,
                names=self.controller.short_names(),
                top=self.controller.selected,
                below=place[0],
                shift=place[1],
                chosen=chosen,
            )
        self.map.set_group("fan", key, [(mesh, True)], texts, dynamic=True)

    def fan_below(self, hex_: Hex) -> bool:
        """Whether a stack spread out from `hex_` goes under it (no room above: see `fan_place`)."""
        return self.fan_place(hex_)[0]

    def fan_place(self, hex_: Hex) -> tuple[bool, float]:
        """Where a stack spread out from `hex_` goes: under it when there is no room above (the map's top
        row, or the top of the map's view), and how far sideways (world units) to stay whole inside the
        map's view at its left or right edge."""
        board = self.state.board
        assert board is not None
        count = max(2, len(self.state.at(hex_)))
        left, bottom = self.map.screen_to_world(self.map.box.left, self.map.box.bottom)
        right, top = self.map.screen_to_world(self.map.box.right, self.map.box.top)
        margin = 3.0
        above = fan_box(hex_, count)
        below = hexdraw.centre(hex_)[1] + 2.6 * hexdraw.SIZE > hexdraw.map_edge(board).top or (
            above[3] > top - margin and fan_box(hex_, count, below=True)[1] >= bottom + margin
        )
        box_left, _, box_right, _ = fan_box(hex_, count, below=below)
        shift = 0.0
        if box_left < left + margin:
            shift = left + margin - box_left
        elif box_right > right - margin:
            shift = max(right - margin - box_right, left + margin - box_left)
        return below, round(shift, 1)

    def pointing(self, x: float, y: float, hex_: Hex | None) -> Hex | None:
        """What the pointer points at: over the stack spread out beside a hex (or the hex itself, the
        one area), that hex, so the stack stays open while the pointer moves onto it; a spread-out
        counter under the pointer is the unit picked in the stack (the target, its odds, its card)."""
        fan = self.fan_hex
        if fan is None or self.screen.dialog is not None or self.state.board is None:
            return hex_
        if not self.map.box.contains(x, y) or len(self.state.at(fan)) < 2:
            return hex_
        below, shift = self.fan_place(fan)
        wx, wy = self.map.screen_to_world(x, y)
        left, bottom, right, top = fan_box(fan, len(self.state.at(fan)), below=below, shift=shift)
        if not (left <= wx <= right and bottom <= wy <= top):
            return hex_
        unit = fan_unit_at(self.state, fan, wx, wy, top=self.controller.selected, below=below, shift=shift)
        if unit is not None:
            if self.map.hover != fan:
                self.controller.hover_at(fan)  # the hex first: choosing keeps to its stack
            self.controller.choose(unit.id)
        return fan

    def penalty_counter_at(self, x: float, y: float) -> Unit | None:
        """The unit whose counter, spread out beside the overstacked hex, is at screen point (x, y)."""
        hex_ = self.controller.penalty.where()
        if hex_ is None or self.state.board is None or not self.map.box.contains(x, y):
            return None
        wx, wy = self.map.screen_to_world(x, y)
        below, shift = self.fan_place(hex_)
        return fan_unit_at(self.state, hex_, wx, wy, top=self.controller.selected, below=below, shift=shift)

    def _update_hover(self) -> None:
        """The `hover` group: the hovered hex's outline, the attack line with its odds, the ghost of a
        unit being deployed (rebuilt only when one of them changes: the key names what is drawn)."""
        state = self.state
        selected = state.units.get(self.controller.selected or "")
        hover = self.map.hover
        aimed = state.units.get(self.controller.target or "")
        preview = self.controller.preview
        aim = None
        if aimed is not None and selected is not None:
            odds = percent(preview.hit_chance) if isinstance(preview, AttackPreview) else None
            spotter = preview.spotter if isinstance(preview, AttackPreview) else ""
            aim = (selected.hex, aimed.hex, odds, spotter)
        placing = (
            state.stage is Stage.DEPLOY or (state.stage is Stage.ACT and state.phase is Phase.FLIGHT)
        ) and (selected is not None and selected.hex is None)
        ghost_key = (self.controller.version, hover) if placing and hover is not None else None
        key = (aim, None if self.map.cursor_shown else hover, ghost_key)
        if key == self._hover_key:
            return
        self._hover_key = key
        if self.map.show_kept("hover", key):
            return  # the mouse back over a hex: its marks were built before
        marks = Mesh()
        texts: list[TextSpec] = []
        if self.controller.target is not None and selected is not None and selected.hex is not None:
            target = state.units[self.controller.target]
            if target.hex is not None:
                ok = isinstance(self.controller.preview, AttackPreview)
                colour = TARGET_OK if ok else TARGET_NO
                a, b = hexdraw.centre(selected.hex), hexdraw.centre(target.hex)
                eye_hex = self.spotter_hex()
                if eye_hex is not None:  # indirect fire: the sight line used is the spotter's
                    eye = hexdraw.centre(eye_hex)
                    marks.line(eye, b, 6, (20, 20, 20, 220))
                    marks.line(eye, b, 3.5, SPOTTER_LINE)
                    _outline(marks, eye_hex, SPOTTER_LINE, 3.0, 0.86)
                marks.line(a, b, 6, (20, 20, 20, 220))
                marks.line(a, b, 3.5, colour)
                _outline(marks, target.hex, colour, 3.5, 0.92)
                if ok:
                    assert isinstance(self.controller.preview, AttackPreview)
                    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    texts.append(
                        TextSpec(
                            f"{percent(self.controller.preview.hit_chance)}",
                            mid[0],
                            mid[1] + 9,
                            13,
                            (255, 255, 255, 255),
                            bold=True,
                        )
                    )
        if self.map.hover is not None and not self.map.cursor_shown:  # the keyboard cursor marks it instead
            _outline(marks, self.map.hover, HOVER, 2.2, 0.96)
        ghost = Mesh()
        if (
            placing and selected is not None and self.map.hover is not None
        ):  # a unit deployed, an aircraft flown
            ghost, ghost_texts = self._ghost(selected, self.map.hover)
            texts += ghost_texts
        self.map.set_group(
            "hover", key, [(marks, True), (ghost, True)], texts, dynamic=True, keep=KEPT_HOVER_MARKS
        )

    def spotter_hex(self) -> Hex | None:
        """Indirect fire: the hex of the friendly unit whose sight the previewed attack uses."""
        preview = self.controller.preview
        if not isinstance(preview, AttackPreview) or not preview.spotter:
            return None
        spotter = self.state.units.get(preview.spotter)
        return spotter.hex if spotter is not None else None

    def _tints(self) -> Mesh:
        """Hexes tinted under the counters: a deployment zone, the ends, legal hexes, a unit's reach."""
        state = self.state
        board = state.board
        assert board is not None
        under = Mesh()
        stage = state.stage
        if stage is Stage.DEPLOY and state.deploying is not None:
            colour = ZONE_TINT.get(state.ends.get(state.deploying, "west"), LEGAL)
            for hex_ in setup.zone(state, state.deploying):
                _tint(under, hex_, colour)
            for hex_ in self.controller.deployment.special_hexes():  # a Partisan's edge, a Gliderborne's area
                _tint(under, hex_, LEGAL)
        elif stage is Stage.CHOOSE_END:  # the chooser's zone at either end (an Assault defender's: a half)
            chooser = self.session.game.decider()
            zone = state.battle.terms.side(chooser).zone if chooser is not None else ZONE_DEPTH
            for end in ("west", "east"):
                for hex_ in zone_hexes(board, zone, end):
                    _tint(under, hex_, ZONE_TINT[end])
        elif stage in (Stage.CHOOSE_OBJECTIVE, Stage.PLACE):
            for action in self.session.game.legal_actions():
                if isinstance(action, A.Objective | A.Dismount):
                    _tint(under, action.hex, LEGAL)
        elif stage is Stage.ACT and self.controller.selected is not None:
            for hex_, info in self.controller.costs.items():
                _tint(under, hex_, REACH_ROLL if info.rolls else REACH)
            # where a waiting Hero or Paratrooper may arrive
            for hex_ in self.controller.deployment.special_hexes():
                _tint(under, hex_, LEGAL)
        if stage is Stage.ACT:
            # units that may still act: a thin ring; the selected unit's targets: an orange one
            for unit in state.units.values():
                if (
                    self.controller.is_ready(unit)
                    and unit.hex is not None
                    and unit.id != self.controller.selected
                ):
                    _outline(under, unit.hex, (255, 255, 255, 150), 1.6, 0.97)
            for target in self.controller.attacks if self.controller.selected is not None else ():
                target_hex = state.units[target].hex
                if target_hex is not None:
                    _outline(under, target_hex, TARGET_RANGE, 2.4, 0.9)
        return under

    def _cost_texts(self) -> list[TextSpec]:
        """The cost of each reachable hex (at its top) and the chance of its movement rolls (at its foot)."""
        if self.state.stage is not Stage.ACT or self.controller.selected is None:
            return []
        texts = []
        size = hexdraw.SIZE
        for hex_, info in self.controller.costs.items():
            x, y = hexdraw.centre(hex_)
            texts.append(TextSpec(str(info.cost), x, y + 0.62 * size, 0.34 * size, TEXT_ON_MAP, bold=True))
            if info.rolls:
                texts.append(
                    TextSpec(percent(info.roll_odds), x, y - 0.66 * size, 0.3 * size, TEXT_ON_MAP, bold=True)
                )
        return texts

    def _ghost(self, unit: Unit, hex_: Hex) -> tuple[Mesh, list[TextSpec]]:
        """Where a unit would go, facing the chosen way (a Vehicle's): its counter, translucent."""
        facing = self.controller.facing if unit.card.is_vehicle else None
        return ghost_mesh(unit, hex_, facing, self.controller.short_names().get(unit.id, unit.card.name))

    def hover_box(self, width: float, height: float) -> Box:
        """Where the hover box goes: the corner of the map that hides the fewest counters (never the
        hovered hex or a stack spread out from it), the top corners first."""
        area = self.map.box
        hover = self.map.hover
        counters = self.counter_spots()
        covers_hover: tuple[float, float, float, float] | None = None
        if hover is not None:
            x, y = hexdraw.centre(hover)
            reach = 4.2 * hexdraw.SIZE  # the hex, and a stack spread out above or below it
            (l_, b_), (r_, t_) = (
                self.map.world_to_screen(x - reach, y - reach),
                self.map.world_to_screen(x + reach, y + reach),
            )
            covers_hover = (l_, b_, r_, t_)
        m = 6
        corners = [
            Box(area.left + m, area.top - height - m, width, height),
            Box(area.right - width - m, area.top - height - m, width, height),
            Box(area.left + m, area.bottom + m, width, height),
            Box(area.right - width - m, area.bottom + m, width, height),
        ]

        def over(box: Box, spot: tuple[float, float, float, float]) -> bool:
            l_, b_, r_, t_ = spot
            return l_ < box.right and r_ > box.left and b_ < box.top and t_ > box.bottom

        def hidden(box: Box) -> int:
            """Counters the box would hide; the hovered hex counts as a hundred (never hide it)."""
            hides_hover = covers_hover is not None and over(box, covers_hover)
            return sum(1 for spot in counters if over(box, spot)) + (100 if hides_hover else 0)

        best = min(corners, key=hidden)  # the first of the least hidden
        return Box(round(best.left), round(best.bottom), round(best.width), round(best.height))

    def counter_spots(self) -> list[tuple[float, float, float, float]]:
        """The counters' boxes on screen (left, bottom, right, top), kept while the board and the view
        stay as they are (the hover box asks on every frame the mouse moves)."""
        key = (self.controller.board_version, self.map.look())
        if self._spots[0] != key:
            spots = []
            for hex_ in self.state.occupancy():
                x, y = hexdraw.centre(hex_)
                (l_, b_) = self.map.world_to_screen(x - HALF_WIDTH, y - HALF_HEIGHT)
                (r_, t_) = self.map.world_to_screen(x + HALF_WIDTH, y + HALF_HEIGHT)
                spots.append((l_, b_, r_, t_))
            for plane in aircraft_over(self.state):  # an aircraft's tag at the top of its hex
                assert plane.hex is not None
                slot = air_slot(plane.hex)
                (l_, b_) = self.map.world_to_screen(slot.x - AIR_HALF_WIDTH, slot.y - AIR_HALF_HEIGHT)
                (r_, t_) = self.map.world_to_screen(slot.x + AIR_HALF_WIDTH, slot.y + AIR_HALF_HEIGHT)
                spots.append((l_, b_, r_, t_))
            self._spots = (key, spots)
        return self._spots[1]
