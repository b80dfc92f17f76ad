"""A battle as the window plays it: the engine's `Game`, plus undo, the log, saves and autosaves.

Everything the window does to a game goes through `Session.apply`, which hands the action to
`Game.apply` and keeps what the screens need around it:

- the events of every action (for the "what happened" panel) and the log lines in action notation
  (the game's own record: one line per action with the dice it consumed);
- undo: the last actions can be taken back while each of them rolled no dice and left the decision
  with the same player (a move that opened a defensive-fire window asked the other player something;
  a die, once seen, stays rolled). A copy of the game from before such an action is kept
  (`Game.copy`); undoing goes back to it, with the record, so saves stay exact;
- an autosave, written atomically whenever a phase, a turn or the game ends, but only once both
  armies are on the map (`armies_revealed`): a record's header lists both armies' cards, so an
  autosave written during the set-up would let the player who builds or deploys second load it and
  see the other player's secret army.

No arcade here: the session is plain Python, tested without a window.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from minis import record
from minis.base.data import user_folder
from minis.base.errors import MinisError
from minis.base.sides import Side
from minis.engine import actions as A
from minis.engine.events import Event, describe
from minis.game import Game
from minis.rules import obstacles
from minis.state import Phase, Stage
from minis.ui.plain import battle_words, plain

#: The file name of the automatic save, in the saves folder.
AUTOSAVE = "autosave.minis"
#: What a save file is called by default (the extension the file dialogs offer).
SAVE_SUFFIX = ".minis"
#: Events after which the game autosaves: a new phase or turn, the end of deployment, the end.
AUTOSAVE_EVENTS = frozenset({"phase", "turn", "winner"})
#: The stages of the set-up before both armies are on the map (with the set-up phase).
SECRET_STAGES = (
    Stage.MAP_ROLL,
    Stage.CHOOSE_CONFIGURATION,
    Stage.CHOOSE_OBJECTIVE,
    Stage.COIN,
    Stage.CHOOSE_FIRST,
    Stage.CHOOSE_END,
    Stage.DEPLOY,
)


def saves_folder() -> Path:
    """Where saves go: $MINIS_SAVES, else $XDG_DATA_HOME/minis/saves, else ~/.local/share/minis/saves."""
    return user_folder("saves", "MINIS_SAVES")


def armies_revealed(game: Game) -> bool:
    """True once both armies are on the map (after the last deployment's "ready"): from then on both
    players have seen both armies, and a record of the game gives nothing away."""
    state = game.state
    return state.phase is not Phase.SETUP or state.stage not in SECRET_STAGES


@attrs.frozen
class SavedGame:
    """What the Load dialog shows of a save and whether it may list it: `game` is None when the file
    can't be replayed (opening it shows its problems)."""

    game: Game | None
    header: dict[str, object]


#: Each save read, by path, modification time and size: a file written again is read again, and the
#: dialog's listing and its details share one replay.
_SAVED: dict[tuple[Path, int, int], SavedGame] = {}


def saved_game(path: Path) -> SavedGame:
    """The save at `path` replayed once per version of the file (never raises for a bad file)."""
    try:
        status = path.stat()
    except OSError:
        return SavedGame(None, {})
    key = (path, status.st_mtime_ns, status.st_size)
    if key not in _SAVED:
        try:
            saved = record.read_record(path)
            _SAVED[key] = SavedGame(record.replay_record(saved, resume=True), dict(saved.header))
        except (MinisError, ValueError, TypeError, KeyError, OverflowError):
            _SAVED[key] = SavedGame(None, {})
    return _SAVED[key]


def early_autosave(path: Path) -> bool:
    """True for an autosave from before both armies were on the map (older versions wrote one when
    the map was chosen): the Load game dialog leaves it out, since loading it would show the army of
    the player who is not at the screen. A file that can't be replayed is not hidden: opening it
    shows its problems."""
    if path.name != AUTOSAVE:
        return False
    game = saved_game(path).game
    return game is not None and not armies_revealed(game)


@attrs.frozen
class _Undo:
    """What undoing one action restores: the game as it was (a `Game.copy`), and the event count."""

    game: Game
    events: int
    text: str


class Session:
    """One battle being played at the window."""

    def __init__(self, game: Game, *, saves: Path | None = None, autosave: bool = True) -> None:
        self.game = game
        self.saves = saves if saves is not None else saves_folder()
        self.autosave_enabled = autosave
        self.events: list[Event] = []
        #: Events of the last applied action (what the "last" panel shows).
        self.last_events: list[Event] = []
        self.last_action = ""
        self._undo: list[_Undo] = []
        self.autosave_error = ""
        self.autosaves = 0
        self._words: tuple[object, dict[str, str]] = (None, {})

    # --- playing -----------------------------------------------------------------------------------
    def apply(self, action: A.Action | str) -> list[Event]:
        """Do an action through the engine (IllegalAction leaves everything as it was)."""
        game = self.game
        hidden = not armies_revealed(game)
        before = game.copy()
        before_decider, mark = game.decider(), game.dice.used
        events = game.apply(action)
        text = action if isinstance(action, str) else game.format(action)
        undoable = (
            game.dice.used == mark
            and not game.waiting_for_dice()
            and game.decider() is before_decider
            and before_decider is not None
        )
        if undoable:
            self._undo.append(_Undo(before, len(self.events), text))
        else:
            self._undo.clear()
        self.events.extend(events)
        self.last_events = list(events)
        self.last_action = text
        revealing = hidden and armies_revealed(game)  # the last "ready" of deployment
        if self.autosave_enabled and (revealing or any(e.kind in AUTOSAVE_EVENTS for e in events)):
            self.autosave()
        return events

    def legal(self, action: A.Action | str) -> str | None:
        """None if the engine would accept `action` now, else its reason (nothing changes)."""
        return self.game.is_legal(action)

    # --- undo --------------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    def seal(self) -> None:
        """Nothing done so far can be taken back: the computer has acted (a player undoes only their own
        actions since the computer's last one, never the computer's)."""
        self._undo.clear()

    @property
    def undo_text(self) -> str:
        """The action an undo would take back ('' if none)."""
        return self._undo[-1].text if self._undo else ""

    def undo(self) -> str:
        """Take back the last action (see the module docstring for which); returns its text."""
        if not self._undo:
            return ""
        step = self._undo.pop()
        # the action drew no dice, so the game's own dice are exactly where the copy's would be
        step.game.dice = self.game.dice
        self.game = step.game
        del self.events[step.events :]
        self.last_events = []
        self.last_action = ""
        return step.text

    # --- log ---------------------------------------------------------------------------------------
    def log_lines(self) -> list[str]:
        """The game so far in action notation: one line per action, with its dice after a bar."""
        lines = []
        for entry in self.game.record:
            dice = " ".join(str(d) for d in entry.dice)
            action = entry.action if entry.action is not None else "start"
            lines.append(f"{action} | {dice}" if dice else action)
        return lines

    def words(self) -> dict[str, str]:
        """Every id of the battle and its name for players (`plain.battle_words`: units, obstacles,
        cards), worked out again only when the units or the obstacles change (the log asks per line)."""
        state = self.game.state
        key = (
            tuple(state.units),
            tuple(obstacles.names(state)) if state.obstacles or state.obstacles_gone else (),
        )
        if self._words[0] != key:
            self._words = (key, battle_words(state))
        return self._words[1]

    def describe(self, events: Sequence[Event]) -> list[str]:
        names = self.words()
        return [
            plain(describe(event, self.game.label, lambda unit: names.get(unit, unit)), names)  # and notes
            for event in events
        ]

    # --- files -------------------------------------------------------------------------------------
    @property
    def recordable(self) -> bool:
        """Only battles begun from the set-up can be saved (a record replays from the start)."""
        return self.game.header.get("start") != "position"

    def save(self, path: str | Path) -> Path:
        """Save the game atomically (OSError if the file can't be written)."""
        path = Path(path)
        record.save(self.game, path)
        return path

    @property
    def autosave_path(self) -> Path:
        return self.saves / AUTOSAVE

    def autosave(self) -> Path | None:
        """Write the autosave once both armies are on the map (before, it would give one player the
        other's secret army); a failure is remembered for the screen, never raised."""
        if not self.recordable or not armies_revealed(self.game):
            return None
        try:
            self.saves.mkdir(parents=True, exist_ok=True)
            self.save(self.autosave_path)
        except OSError as error:
            self.autosave_error = f"autosave failed: {error.strerror or error}"
            return None
        self.autosave_error = ""
        self.autosaves += 1
        return self.autosave_path

    @classmethod
    def load(cls, path: str | Path, *, saves: Path | None = None) -> Session:
        """Resume a saved game (MinisError with the file's problems if it can't be)."""
        events: list[Event] = []
        game = record.replay_record(record.read_record(path), resume=True, events=events)
        session = cls(game, saves=saves)
        session.events = events
        return session

    # --- facts for the screens ---------------------------------------------------------------------
    @property
    def far_side(self) -> Side | None:
        """The side played on another machine (a network battle's other seat); None at one screen."""
        return None

    @property
    def over(self) -> bool:
        """The battle has ended (by the rules; over the network also by a resignation or a draw)."""
        return self.game.over

    @property
    def result(self) -> tuple[Side | None, str]:
        """The winner (None: a draw) and why, in the rules' words (the victory screen's headline)."""
        return self.game.state.winner, self.winner_reason()

    def losses(self, side: Side) -> list[str]:
        """The ids of the side's destroyed units."""
        return sorted(u.id for u in self.game.state.units.values() if u.side is side and u.removed)

    def points_lost(self, side: Side) -> int:
        return sum(int(u.card.cost) for u in self.game.state.units.values() if u.side is side and u.removed)

    def winner_reason(self) -> str:
        for event in reversed(self.events):
            if event.kind == "winner":
                return event.note
        return ""
