"""The computer at the table, window-free: it decides its side's actions off the window's thread and
hands them to the battle one at a time, at a pace a person can follow.

- It decides only when the game waits for one of its sides (`Game.decider`), and only from
  `minis.ai.bot.view(game, side, seed)`: its side's projection (`minis.engine.projection`: no dice seed, the
  other army only as deployment reveals it) with dice of its own. The projection is made here, on the
  window's thread; the bot works on it in a worker thread
  (`concurrent.futures`), so the window keeps drawing while it thinks (the search bot's playouts run
  in processes of its own).
- Its action is applied by the caller (`tick`'s `apply`: the battle screen's controller, so the
  session's undo, the log, the autosave and the motion all see it as a player's action).
- The pace: after each of its actions, a pause (`PAUSE`, or `FAST_PAUSE` once `fast` is on) and
  whatever motion the screen still plays (`busy`). `paused` stops it between actions (watching the
  computer play itself). Time comes from `clock`, so tests step it (no sleeps).
- A decision made for a position that is gone (a load, an undo) is thrown away, never applied.
- `hint`: what the hard bot would do from a player's own view (its search, capped at `HINT_BUDGET`
  seconds), in plain words, with one line of why (`minis.ai.advice`: a threat it steps out of, a threat
  it strikes first, the objective's clock, or the heuristic's own numbers; never "end the phase" while
  a unit has an attack the heuristic rates useful).
- A save says which sides the computer played and how strongly (the record's `computer` and
  `strength` header keys: `mark`, `recorded`), so a loaded game goes on against the computer.
"""

from __future__ import annotations

import concurrent.futures as cf
import random
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

import attrs

from minis.ai.advice import Advice, advise, advise_choice, scored
from minis.ai.bot import Bot, view
from minis.ai.strength import bot_for
from minis.base.sides import Side
from minis.content.ability_catalogue import ability_name
from minis.engine import actions as A
from minis.game import Game
from minis.ui.plain import the, unit_names
from minis.ui.plain import words as worded

__all__ = [
    "FAST_PAUSE",
    "PAUSE",
    "ComputerPlayer",
    "Hint",
    "InlineExecutor",
    "action_words",
    "mark",
    "recorded",
    "who_plays",
]

#: The most seconds a hint's search may take (the hard bot in the window's process: it must not freeze it).
HINT_BUDGET = 0.8
#: Seconds between two of the computer's actions at the normal pace (motion comes on top).
PAUSE = 0.6
#: The same at the fast pace (F).
FAST_PAUSE = 0.05


class Executor(Protocol):
    """Where the bots think: a `concurrent.futures` executor (`InlineExecutor` in tests)."""

    def submit(self, fn: Callable[[Game], A.Action], game: Game, /) -> cf.Future[A.Action]: ...

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None: ...


class InlineExecutor:
    """Runs each decision at once, on the caller's thread (tests: no threads, no waiting)."""

    def submit(self, fn: Callable[[Game], A.Action], game: Game, /) -> cf.Future[A.Action]:
        future: cf.Future[A.Action] = cf.Future()
        try:
            future.set_result(fn(game))
        except Exception as error:  # handed to the caller as the future's error
            future.set_exception(error)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to stop."""


@attrs.frozen
class Hint:
    """What a bot would do in a player's place: the action, the sentence that says it ("Hint: ...")
    and one line of why, in a player's words."""

    action: A.Action
    text: str
    why: str = ""


@attrs.define
class _Pending:
    """A decision being made: for which position (the game object and its record's length)."""

    key: tuple[int, int]
    side: Side
    future: cf.Future[A.Action]


class ComputerPlayer:
    """The computer's sides of one battle (one side against a player, or both when it plays itself)."""

    def __init__(
        self,
        bots: Mapping[Side, Bot],
        *,
        strength: str = "normal",
        seed: int | None = None,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
        advisor: Bot | None = None,
    ) -> None:
        self.bots = dict(bots)
        self.strength = strength
        self.rng = random.Random(seed)
        self.executor: Executor = executor if executor is not None else cf.ThreadPoolExecutor(1, "computer")
        self.clock = clock
        #: The bot that gives hints (the hard strength, in this process), made on the first hint.
        self.advisor = advisor
        #: The fast pace (F), and a pause between actions (Space, when the computer plays itself).
        self.fast = False
        self.paused = False
        #: What the computer is doing, for the status line ("" when it is not its turn).
        self.status = ""
        #: Every action the computer applied, in order (its own record, for the screen and tests).
        self.played: list[A.Action] = []
        self._pending: _Pending | None = None
        self._ready_at = 0.0

    @property
    def sides(self) -> frozenset[Side]:
        return frozenset(self.bots)

    @property
    def alone(self) -> bool:
        """True when the computer plays both sides (watching it play itself)."""
        return len(self.bots) == 2

    def plays(self, side: Side | None) -> bool:
        return side is not None and side in self.bots

    def thinking(self) -> bool:
        return self._pending is not None

    def toggle_fast(self) -> bool:
        self.fast = not self.fast
        if self.fast:
            self._ready_at = min(self._ready_at, self.clock() + FAST_PAUSE)
        return self.fast

    def toggle_pause(self) -> bool:
        self.paused = not self.paused
        return self.paused

    def tick(self, game: Game, apply: Callable[[A.Action], bool], *, busy: bool = False) -> A.Action | None:
        """Called every frame: start a decision when the game waits for the computer, and apply it
        (through `apply`) once it is made, the pause is over and nothing is `busy` (motion, a dialog).
        Returns the action applied, if any."""
        side = game.decider()
        if game.over or not self.plays(side):
            self._drop()
            self.status = ""
            return None
        assert side is not None
        key = (id(game), len(game.record))
        if self._pending is None or self._pending.key != key:
            self._drop()
            seed = self.rng.randrange(2**63)
            self._pending = _Pending(
                key, side, self.executor.submit(self.bots[side].choose, view(game, side, seed))
            )
        who = self.who(side)
        if self.paused:
            self.status = f"Paused: {who} waits (Space goes on)."
            return None
        future = self._pending.future
        if not future.done() or busy or self.clock() < self._ready_at:
            self.status = f"{who} is thinking…" if not future.done() else f"{who} is about to act…"
            return None
        self._pending = None
        try:
            action = future.result()
        except Exception as error:  # a bot's failure must not end the battle
            action = None
            self.status = f"{who} could not decide ({worded(str(error), game.state)}); it ends its step."
        words = action_words(game, action) if action is not None else ""
        if action is None or not apply(action):
            action = _fallback(game)
            if action is None or not apply(action):
                self.status = f"{who} has no move it may make."
                return None
            words = action_words(game, action)
        self.played.append(action)
        self.status = f"{who}: {words}."
        self._ready_at = self.clock() + (FAST_PAUSE if self.fast else PAUSE)
        return action

    def who(self, side: Side) -> str:
        """ "The computer (Axis)", as the status line names it."""
        return f"The computer ({side.title}, {self.strength})"

    def hint(self, game: Game, side: Side) -> Hint | None:
        """What the hard bot would do in `side`'s place, decided from `side`'s own view (never
        applied); None when the game does not wait for `side`."""
        if game.over or game.decider() is not side:
            return None
        if self.advisor is None:
            self.advisor = bot_for("hard", self.rng.randrange(2**63), workers=0, budget=HINT_BUDGET)
        seen = view(game, side, self.rng.randrange(2**63))
        explain = getattr(self.advisor, "explain", None)
        if callable(explain):  # the hard bot: its searched choice, with the heuristic's numbers for why
            action, candidates, reason = explain(seen)
            if not candidates:  # a decision it does not search: its policy's ranking
                candidates = scored(getattr(self.advisor, "proposer", None), seen) or []
            found = advise_choice(seen, action, candidates, reason) or Advice(action, "")
        else:
            candidates = scored(self.advisor, seen)
            if candidates is None:  # a bot that does not score its candidates: its choice, reasoned
                candidates = [(self.advisor.choose(seen), 0.0)]
            found = advise(seen, candidates) or Advice(candidates[0][0], "")
        names = unit_names(game.state.units.values())
        why = found.words(lambda unit: the(names.get(unit, unit)))
        return Hint(found.action, f"Hint: {action_words(game, found.action)}", why[:1].upper() + why[1:])

    def close(self) -> None:
        """Stop thinking: the worker thread, and the search bot's processes."""
        self._drop()
        self.executor.shutdown(wait=False, cancel_futures=True)
        for bot in self.bots.values():
            close = getattr(bot, "close", None)
            if callable(close):
                close()

    def _drop(self) -> None:
        if self._pending is not None:
            self._pending.future.cancel()
            self._pending = None


def mark(game: Game, sides: Iterable[Side], strength: str) -> None:
    """Write the computer's sides and strength into the game's header, so its saves and autosaves say
    them (`recorded` reads them back when the save is loaded)."""
    chosen = set(sides)
    game.header["computer"] = [side.value for side in Side if side in chosen]
    game.header["strength"] = strength


def recorded(header: Mapping[str, object]) -> tuple[frozenset[Side], str] | None:
    """The computer's sides and strength a record's header names (None: a game of two players, or a
    save from before the header said so). `minis.record` has checked the values."""
    computer = header.get("computer")
    if not isinstance(computer, list) or not computer:
        return None
    strength = header.get("strength")
    return frozenset(Side(str(side)) for side in computer), strength if isinstance(
        strength, str
    ) else "normal"


def who_plays(header: Mapping[str, object]) -> str:
    """A save's opponent in a player's words: "against the computer (normal)", "the computer plays
    both (hard)", or "" for two players."""
    found = recorded(header)
    if found is None:
        return ""
    sides, strength = found
    return (
        f"the computer plays both ({strength})" if len(sides) == 2 else f"against the computer ({strength})"
    )


def _fallback(game: Game) -> A.Action | None:
    """An action the engine accepts when the bot's was refused: ending the step if it may, else the
    first legal one."""
    legal = game.legal_actions()
    for action in legal:
        if isinstance(action, A.Pass | A.Ready | A.Hold):
            return action
    return legal[0] if legal else None


def action_words(game: Game, action: A.Action) -> str:
    """An action as a player says it ("move the Panzer IV Ausf. G to F7"), with card names, never ids."""
    names = unit_names(game.state.units.values())

    def name(unit_id: str) -> str:
        return the(names.get(unit_id, unit_id))

    label = game.label
    match action:
        case A.Move(unit=unit, path=path):
            return f"move {name(unit)} to {label(path[-1])}" if path else f"turn {name(unit)}"
        case A.Face(unit=unit, facing=facing):
            return f"turn {name(unit)} to face {facing.name}"
        case A.Attack(unit=unit, target=target):
            return f"attack {name(target)} with {name(unit)}"
        case A.Fire(unit=unit, at=at):
            return f"fire with {name(unit)} at {label(at)}"
        case A.Hold():
            return "hold fire"
        case A.BoardTransport(unit=unit, transport=transport):
            return f"board {name(transport)} with {name(unit)}"
        case A.Dismount(unit=unit, hex=hex_):
            return f"dismount {name(unit)} at {label(hex_)}"
        case A.Pass():
            return "end the phase"
        case A.First(side=side):
            return f"the {side.title} go first"
        case A.Configuration(number=number):
            return f"battle map {number}"
        case A.Objective(hex=hex_):
            return f"the objective at {label(hex_)}"
        case A.End(end=end):
            return f"deploy at the {end} end"
        case A.Deploy(unit=unit, hex=hex_, across=across) if across is not None:
            return f"lay {name(unit)} between {label(hex_)} and {label(across)}"
        case A.Deploy(unit=unit, hex=hex_):
            return f"deploy {name(unit)} at {label(hex_)}"
        case A.Arrive(unit=unit, hex=hex_):
            return f"bring {name(unit)} in at {label(hex_)}"
        case A.Place(unit=unit, hex=hex_):
            return f"fly {name(unit)} over {label(hex_)}"
        case A.Ready():
            return "ready: deployment done"
        case A.Use(unit=unit, ability=ability, args=args) if len(args) == 1 and args[0] in names:
            return f"use {ability_name(ability)} with {name(unit)} on {name(args[0])}"
        case A.Use(unit=unit, ability=ability):
            return f"use {ability_name(ability)} with {name(unit)}"
        case A.Penalty(unit=unit):
            return f"give the hit to {name(unit)}"
    return game.format(action)
