"""The game server: one asyncio process holding many battles, the referee of every decision.

Each battle runs the engine. A seat's decision is checked by the engine (an illegal one gets the
engine's reason, and nothing changes), stored in SQLite in one transaction, and only then is every
seat sent its side's projection (`minis.engine.projection`) and every spectator what is public. The dice
are the server's, from a seed no message carries. A client's mistake (a bad message, a wrong token,
a decision out of turn, a flood, silence) gets a plain error or a closed connection, never a traceback
in the log, and touches no other battle.
"""

from __future__ import annotations

import asyncio
import copy
import hmac
import logging
import random
import secrets
import sqlite3
import time
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from minis.army import Army, locate, parse_army, rule_problems, wrong_side
from minis.base.errors import MinisError, Problem, problem_lines
from minis.base.sides import Side
from minis.cards import card_catalogue
from minis.content import rule_sets
from minis.dice import Dice
from minis.engine.projection import hidden_obstacles, hidden_units, project
from minis.game import Game
from minis.net.protocol import (
    CHAT_KEPT,
    MAX_CLIENT_MESSAGE,
    MAX_SEATS,
    OFFERS,
    ProtocolError,
    chat_text,
    decode,
    encode,
    pack_game,
)
from minis.net.store import Store
from minis.record import record_text
from minis.rules.errors import IllegalAction
from minis.state import BattleKind

if TYPE_CHECKING:
    from minis.engine.scenario import Scenario

__all__ = ["SERVE_OPTIONS", "GameServer", "Limits", "scenario_plan"]

log = logging.getLogger("minis.net.server")

#: The options `websockets.serve` is given: the message size limit, a short queue of messages read
#: ahead, pings to find a vanished client, and a short wait for a closing handshake (a flooding client
#: has messages queued before its closing frame, which the server no longer reads).
SERVE_OPTIONS: dict[str, Any] = {
    "max_size": MAX_CLIENT_MESSAGE,
    "max_queue": 16,
    "ping_interval": 20,
    "ping_timeout": 20,
    "close_timeout": 2,
}

#: How a seat ended a battle (a state's `ended`; None there: the rules ended it, or it goes on).
RESIGNED, DRAW_AGREED = "resigned", "draw agreed"
#: The longest scenario file name a `new` message may give (it names the file's problems).
MAX_FILE_NAME = 300

#: Letters of an invitation or spectator code: no 0/O or 1/I/L to misread (31 letters, 10 of them: 49 bits).
CODE_LETTERS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10


@attrs.frozen
class Limits:
    """What one connection may do: its first message within `first_message` seconds, at most `burst`
    messages at once and `rate` a second after that (a fast bot decides some 50 times a second during
    deployment; a flood sends thousands), and `battles` battles made."""

    first_message: float = 10.0
    rate: float = 100.0
    burst: float = 200.0
    battles: int = 20
    send_timeout: float = 10.0


@attrs.define
class Seat:
    token: str
    army: str | None = None
    #: The joining client's own secret: the same client joining again (its answer lost with a crash)
    #: gets the seat's token again.
    nonce: str | None = None


@attrs.define(eq=False)
class Table:
    """A battle on the server: its settings, seats, the game once both armies are in, who listens."""

    number: int
    code: str
    spectate: str
    settings: dict[str, Any]
    seed: int
    seats: dict[Side, Seat] = attrs.field(factory=dict)
    game: Game | None = None
    at: int = 0  # record entries so far: the number a decision must name (`decide`'s `at`)
    listeners: dict[Side | None, set[Connection]] = attrs.field(factory=dict)
    #: A scenario file's battle: the scenario, parsed from the settings' text (None: the rulebook's).
    plan: Scenario | None = None
    #: Who made each record entry (None: the game's automatic start): an undo takes back only the
    #: asker's own last decision. Rebuilt by the replay when the battle is loaded.
    deciders: list[Side | None] = attrs.field(factory=list)
    #: Offers waiting for the other seat's answer ("undo", "draw": the side that made it). Not stored.
    offers: dict[str, Side] = attrs.field(factory=dict)
    #: How a seat ended the battle ("resigned", "draw agreed") and the winner; None while it goes on.
    result: tuple[str, Side | None] | None = None
    #: The chat's kept lines, oldest first (as stored).
    chat: list[dict[str, Any]] = attrs.field(factory=list)


@attrs.define(eq=False)
class Connection:
    ws: ServerConnection
    table: Table | None = None
    side: Side | None = None
    watching: bool = False
    allowance: float = 0.0
    checked: float = 0.0
    made: int = 0
    #: Held while a message is sent, so the connection's messages go out in the order they were made
    #: (two decisions in a row broadcast two states: the older must not arrive last).
    sending: asyncio.Lock = attrs.field(factory=asyncio.Lock)


class GameServer:
    """The battles and the protocol's handling; `handler` is given to `websockets.serve`."""

    def __init__(self, store: Store, seed: int | None = None, limits: Limits | None = None) -> None:
        self.store = store
        self.seed = seed
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.spectating: dict[str, Table] = {}
        #: The latest decisions' timings (seconds from a decision received to its result sent), and of
        #: the server's own work in them (checked, applied, stored, every message made: before sending).
        self.timings: deque[float] = deque(maxlen=100_000)
        self.work_timings: deque[float] = deque(maxlen=100_000)
        self._deciding: float | None = None
        #: Connections being closed for reading nothing (kept until closed: a task needs an owner).
        self._closing: set[asyncio.Task[None]] = set()

    # --- start-up ---------------------------------------------------------------------------------

    def load(self, only: int | None = None) -> int:
        """Rebuild every stored battle (or battle number `only`) by replaying its record with its own
        seed; the battles loaded. A battle that does not replay is logged and left out."""
        loaded = 0
        for row in self.store.battles(only):
            table = Table(row.number, row.code, row.spectate, row.settings, row.seed)
            for side_name, (token, army, nonce) in row.seats.items():
                table.seats[Side(side_name)] = Seat(token, army, nonce)
            if row.result is not None:
                ended, winner = row.result
                table.result = (ended, Side(winner) if winner else None)
            table.chat = row.chat
            try:
                table.plan = scenario_plan(table.settings)
                if all(seat.army is not None for seat in table.seats.values()) and len(table.seats) == 2:
                    table.game, table.deciders = self._replayed(table, row.entries)
                    table.at = len(row.entries)
            except (ValueError, IllegalAction, MinisError) as error:
                log.error("battle %s does not replay (%s): left out", row.number, error)
                continue
            old = self.tables.get(table.code)
            if old is not None:  # a battle loaded again (its decision could not be stored): same listeners
                table.listeners = old.listeners
                for conns in old.listeners.values():
                    for conn in conns:
                        conn.table = table
            self.tables[table.code] = table
            self.spectating[table.spectate] = table
            loaded += 1
        return loaded

    def _replayed(self, table: Table, entries: list[Any]) -> tuple[Game, list[Side | None]]:
        """The battle's game made again and `entries` applied with its own seed (a load, an undo),
        and who made each entry; ValueError if the dice rolled are not the entries' dice."""
        game = self._new_game(table)
        deciders: list[Side | None] = [None] * len(game.record)
        for entry in entries[len(game.record) :]:
            if entry.action is None:
                raise ValueError("an automatic step in the middle of the record")
            deciders.append(game.decider())
            game.apply(entry.action)
        if game.record != list(entries):
            raise ValueError("the replay rolled other dice than the record")
        return game, deciders

    # --- connections ------------------------------------------------------------------------------

    async def handler(self, ws: ServerConnection) -> None:
        """One connection from its first message to its end (a client's mistake never raises out)."""
        conn = Connection(ws, allowance=self.limits.burst, checked=time.monotonic())
        try:
            try:
                first = await asyncio.wait_for(ws.recv(), self.limits.first_message)
            except TimeoutError:
                await ws.close(1008, "no message in time")
                return
            await self._handle(conn, first)
            async for data in ws:
                if not self._allowed(conn):
                    await self._send(conn, {"kind": "error", "message": "too many messages: slow down"})
                    await ws.close(1008, "too many messages")
                    return
                await self._handle(conn, data)
        except ConnectionClosed:
            pass
        finally:
            self._leave(conn)

    def _allowed(self, conn: Connection) -> bool:
        """The connection's token bucket: `burst` messages, refilled at `rate` a second."""
        now = time.monotonic()
        conn.allowance = min(self.limits.burst, conn.allowance + (now - conn.checked) * self.limits.rate)
        conn.checked = now
        if conn.allowance < 1:
            return False
        conn.allowance -= 1
        return True

    def _leave(self, conn: Connection) -> None:
        if conn.table is not None:
            key = None if conn.watching else conn.side
            conn.table.listeners.get(key, set()).discard(conn)

    async def _handle(self, conn: Connection, data: str | bytes) -> None:
        started = time.perf_counter()
        kind = "?"
        try:
            message = decode(data)
            kind = message["kind"]
            self._deciding = started if kind == "decide" else None
            await getattr(self, f"_on_{kind}")(conn, message)
        except ProtocolError as error:
            await self._send(conn, {"kind": "error", "about": kind, "message": str(error)})
        if kind == "decide":
            self.timings.append(time.perf_counter() - started)

    async def _send(self, conn: Connection, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else encode(message)
        try:
            async with conn.sending, asyncio.timeout(self.limits.send_timeout):
                await conn.ws.send(text)  # no task of its own (as `wait_for` makes): no turn to wait for
        except ConnectionClosed:
            self._leave(conn)
        except TimeoutError:  # a client that reads nothing: closed, so that it reconnects and resumes
            self._leave(conn)
            closing = asyncio.get_running_loop().create_task(conn.ws.close(1011, "not reading: too slow"))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    # --- the messages -----------------------------------------------------------------------------

    async def _on_ping(self, conn: Connection, message: dict[str, Any]) -> None:
        await self._send(conn, {"kind": "pong"})

    async def _on_new(self, conn: Connection, message: dict[str, Any]) -> None:
        if conn.made >= self.limits.battles:
            raise ProtocolError(f"a connection may make at most {self.limits.battles} battles")
        settings = _settings(message)
        settings["dice"] = "keyed"  # dice from a keyed hash (`minis.dice.KeyedFaces`); older battles: none
        plan = scenario_plan(settings)
        number = self.store.next_number()
        if self.seed is not None:  # the test-only seed: each battle's dice from it and its number
            seed = random.Random(f"{self.seed}:{number}").getrandbits(128)
        else:
            seed = secrets.randbits(128)
        code, spectate = self._code(), self._code()
        number = self.store.new_battle(code, spectate, settings, seed)
        table = Table(number, code, spectate, settings, seed, plan=plan)
        self.tables[code] = table
        self.spectating[spectate] = table
        conn.made += 1
        log.info("battle %s made", number)
        await self._send(conn, {"kind": "created", "code": code, "spectate": spectate})

    def _code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
            if code not in self.tables and code not in self.spectating and not self.store.code_taken(code):
                return code

    def _table(self, code: str, spectators: bool = False) -> Table:
        table = self.tables.get(code) or (self.spectating.get(code) if spectators else None)
        if table is None:
            raise ProtocolError("no battle has that code")
        return table

    def _bound(self, conn: Connection) -> tuple[Table, Side]:
        if conn.watching:
            raise ProtocolError("a spectator watches: only the two players chat, offer, answer or decide")
        if conn.table is None or conn.side is None:
            raise ProtocolError("join a battle (or resume your seat) first")
        return conn.table, conn.side

    def _bind(self, conn: Connection, table: Table, side: Side | None) -> None:
        if conn.table is not None:
            raise ProtocolError("this connection already has a seat or watches a battle")
        conn.table, conn.side, conn.watching = table, side, side is None
        table.listeners.setdefault(side, set()).add(conn)

    async def _on_join(self, conn: Connection, message: dict[str, Any]) -> None:
        table = self._table(message["code"])
        side = _side(message["side"])
        if conn.table is not None:
            raise ProtocolError("this connection already has a seat or watches a battle")
        nonce = message.get("nonce")
        if nonce is not None and (not isinstance(nonce, str) or not 16 <= len(nonce) <= 64):
            raise ProtocolError("a join's 'nonce' is text of 16 to 64 characters")
        seat = table.seats.get(side)
        if seat is not None:
            if (
                nonce is None
                or seat.nonce is None
                or not hmac.compare_digest(nonce.encode(), seat.nonce.encode())
            ):
                raise ProtocolError(f"the {side.title} seat is taken (resume it with its token)")
            token = seat.token  # the same client again: its first answer was lost
        else:
            token = secrets.token_hex(16)
            self.store.take_seat(table.number, side.value, token, nonce)
            table.seats[side] = Seat(token, nonce=nonce)
        self._bind(conn, table, side)
        log.info("battle %s: the %s seat is taken", table.number, side.value)
        await self._send(conn, {"kind": "seat", "code": table.code, "side": side.value, "token": token})
        await self._send(conn, self._state(table, side, history=True))
        await self._send(conn, {"kind": "chat", "lines": table.chat})

    async def _on_resume(self, conn: Connection, message: dict[str, Any]) -> None:
        table = self._table(message["code"])
        given = message["token"].encode("utf-8", "replace")
        found = None
        for side, seat in table.seats.items():
            if hmac.compare_digest(given, seat.token.encode()):
                found = side
        if found is None:
            raise ProtocolError("that token holds no seat of this battle")
        self._bind(conn, table, found)
        await self._send(
            conn, {"kind": "seat", "code": table.code, "side": found.value, "token": message["token"]}
        )
        await self._send(conn, self._state(table, found, history=True))
        await self._send(conn, {"kind": "chat", "lines": table.chat})

    async def _on_watch(self, conn: Connection, message: dict[str, Any]) -> None:
        table = self._table(message["code"], spectators=True)
        self._bind(conn, table, None)
        await self._send(conn, self._state(table, None, history=True))
        await self._send(conn, {"kind": "chat", "lines": table.chat})

    async def _on_army(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side = self._bound(conn)
        if table.game is not None:
            raise ProtocolError("the battle has begun: the armies are set")
        army = _checked_army(message["text"], side, table)
        seat = table.seats[side]
        other = table.seats.get(side.other)
        entries: list[Any] = []
        if other is not None and other.army is not None:
            seat.army = message["text"]
            try:
                game = self._new_game(table, {side: army})
            except (ValueError, MinisError) as error:
                seat.army = None
                raise ProtocolError(str(error)) from None
            entries = list(enumerate(game.record))
            try:
                self.store.set_army(table.number, side.value, message["text"], entries)
            except sqlite3.Error:
                seat.army = None
                log.exception("battle %s: the army could not be stored", table.number)
                raise ProtocolError("the server could not store the army: try again") from None
            table.game, table.at = game, len(entries)
            table.deciders = [None] * len(entries)
            log.info("battle %s begins", table.number)
        else:
            self.store.set_army(table.number, side.value, message["text"], [])
            seat.army = message["text"]
        await self._send(conn, {"kind": "army-accepted", "side": side.value, "name": army.name})
        await self._broadcast(table)

    async def _on_decide(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side = self._bound(conn)
        game = table.game
        if game is None:
            raise ProtocolError("the battle has not begun: both armies are needed first")
        if game.over or table.result is not None:
            raise ProtocolError("the battle is over")
        if message["at"] != table.at:
            await self._send(
                conn,
                {
                    "kind": "error",
                    "about": "decide",
                    "stale": True,
                    "at": table.at,
                    "message": f"the battle has moved on: it is at {table.at}, not {message['at']}",
                },
            )
            return
        decider = game.decider()
        if decider is not side:
            who = decider.title if decider is not None else "nobody"
            raise ProtocolError(f"it is not your decision: {who} decides now")
        action = message["action"]
        mark = game.dice.mark()
        try:
            game.apply(action)
        except IllegalAction as error:
            raise ProtocolError(f"'{action[:200]}' is not allowed: {error.reason}") from None
        except Exception:
            game.dice.restore(mark)  # an engine fault: the game is as it was (logged: the server's bug)
            log.exception("battle %s: the engine failed on '%s'", table.number, action[:200])
            raise ProtocolError("the server could not apply that decision (its fault, not yours)") from None
        record = game.record
        entries = list(enumerate(record))[table.at :]
        try:
            self.store.add_entries(table.number, entries)  # stored before anyone is told
        except sqlite3.Error:
            log.exception(
                "battle %s: the decision could not be stored; the battle is loaded again", table.number
            )
            self.load(table.number)  # back to what is stored: the decision was not made
            raise ProtocolError(
                "the server could not store that decision, so it was not made: try again"
            ) from None
        since, table.at = table.at, len(record)
        table.deciders += [side] + [None] * (table.at - since - 1)
        table.offers.clear()  # an accepted decision answers every offer: the position they were about is gone
        await self._broadcast(table, since, side)

    async def _on_record(self, conn: Connection, message: dict[str, Any]) -> None:
        table = self._table(message["code"], spectators=True)
        if table.game is None or not (table.game.over or table.result is not None):
            raise ProtocolError("the battle is not over yet: its record is given once it is")
        game = table.game
        if table.result is not None:  # a seat ended it: the record says how (docs/contracts.md)
            game = copy.copy(game)
            ended, winner = table.result
            game.header = {**game.header, "ended": ended}
            if winner is not None:
                game.header["winner"] = winner.value
        await self._send(conn, {"kind": "record", "text": record_text(game)})

    async def _on_chat(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side = self._bound(conn)
        text, when = chat_text(message["text"]), time.time()
        line: dict[str, Any] = {"side": side.value, "text": text, "time": when}
        try:
            self.store.add_chat(table.number, side.value, text, when, CHAT_KEPT)
        except sqlite3.Error:
            log.exception("battle %s: a chat line could not be stored", table.number)
            raise ProtocolError("the server could not store that line: try again") from None
        table.chat.append(line)
        del table.chat[:-CHAT_KEPT]
        said = encode({"kind": "chat", "lines": [line]})
        await asyncio.gather(
            *(self._send(c, said) for conns in table.listeners.values() for c in list(conns))
        )

    def _playing(self, conn: Connection) -> tuple[Table, Side, Game]:
        """A seat's battle that has begun and goes on (offers, answers, resigning)."""
        table, side = self._bound(conn)
        if table.game is None:
            raise ProtocolError("the battle has not begun: both armies are needed first")
        if table.game.over or table.result is not None:
            raise ProtocolError("the battle is over")
        return table, side, table.game

    async def _on_offer(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side, game = self._playing(conn)
        what = _what(message)
        asker = table.offers.get(what)
        if asker is side:
            raise ProtocolError(f"you have offered that already: the {side.other.title} player answers")
        if asker is not None:
            raise ProtocolError(f"the {asker.title} player offers that already: answer it")
        if what == "undo":
            problem = _undo_problem(table, game, side)
            if problem:
                raise ProtocolError(problem)
        table.offers[what] = side
        await self._broadcast(table)

    async def _on_answer(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side, game = self._playing(conn)
        what = _what(message)
        asker = table.offers.get(what)
        if asker is None:
            raise ProtocolError(
                "nobody offers a draw" if what == "draw" else "nobody asks to take a decision back"
            )
        if asker is side:
            raise ProtocolError(f"the {side.other.title} player answers your offer, not you")
        del table.offers[what]
        if not message["accept"]:
            await self._broadcast(table)
            return
        if what == "draw":
            await self._end(table, DRAW_AGREED, None)
            return
        # checked again (every decision clears the offers, so it still holds), then made
        problem = _undo_problem(table, game, asker)
        at = table.at - 1
        try:
            if problem:
                raise ProtocolError(problem)
            replayed, deciders = self._replayed(table, game.record[:at])
            self.store.remove_last_entry(table.number, at)
        except (ProtocolError, ValueError, IllegalAction, MinisError, sqlite3.Error) as error:
            await self._broadcast(table)  # the offer is gone: everyone sees it so
            if isinstance(error, ProtocolError):
                raise
            log.exception("battle %s: the undo could not be made", table.number)
            raise ProtocolError("the server could not take that decision back: it stands") from None
        table.game, table.deciders, table.at = replayed, deciders, at
        table.offers.clear()
        log.info("battle %s: the %s player took back a decision", table.number, asker.value)
        await self._broadcast(table, at, taken_back=True)

    async def _on_resign(self, conn: Connection, message: dict[str, Any]) -> None:
        table, side, _ = self._playing(conn)
        await self._end(table, RESIGNED, side.other)

    async def _end(self, table: Table, ended: str, winner: Side | None) -> None:
        """A seat ended the battle (resigned, a draw agreed): stored, then everyone told."""
        try:
            self.store.set_result(table.number, ended, winner.value if winner is not None else None)
        except sqlite3.Error:
            log.exception("battle %s: the result could not be stored", table.number)
            raise ProtocolError("the server could not store that: try again") from None
        table.result = (ended, winner)
        table.offers.clear()
        log.info("battle %s: %s", table.number, ended)
        await self._broadcast(table)

    async def _on_seats(self, conn: Connection, message: dict[str, Any]) -> None:
        items = message["seats"]
        if len(items) > MAX_SEATS:
            raise ProtocolError(f"ask about at most {MAX_SEATS} seats at once")
        for item in items:
            if not (
                isinstance(item, dict)
                and isinstance(item.get("code"), str)
                and isinstance(item.get("token"), str)
            ):
                raise ProtocolError('each of \'seats\' is {"code": CODE, "token": TOKEN}')
        await self._send(
            conn, {"kind": "seats", "seats": [self._seat_status(i["code"], i["token"]) for i in items]}
        )

    def _seat_status(self, code: str, token: str) -> dict[str, Any]:
        """One seat's battle in short (the window's "your move" list), for the holder of its token."""
        table = self.tables.get(code)
        if table is None:
            return {"code": code, "error": "no battle has that code"}
        given = token.encode("utf-8", "replace")
        found = None
        for side, seat in table.seats.items():
            if hmac.compare_digest(given, seat.token.encode()):
                found = side
        if found is None:
            return {"code": code, "error": "that token holds no seat of this battle"}
        facts = self._facts(table)
        return {
            "code": table.code,
            "side": found.value,
            "started": facts["started"],
            "decider": facts.get("decider"),
            "over": facts.get("over", False),
            "winner": facts.get("winner"),
            "ended": facts.get("ended"),
            "turn": facts.get("turn"),
            "at": facts["at"],
            "armies": facts["armies"],
            "seats": facts["seats"],
        }

    # --- states -----------------------------------------------------------------------------------

    def _new_game(self, table: Table, armies: dict[Side, Army] | None = None) -> Game:
        settings = table.settings
        fielded = dict(armies or {})
        for side, seat in table.seats.items():
            if side not in fielded:
                assert seat.army is not None
                fielded[side] = parse_army(seat.army, f"{side.value} army")
        attacker = Side(settings["attacker"]) if settings.get("attacker") else None
        if table.plan is not None:
            from minis.engine.scenario import start_game

            game = start_game(
                table.plan,
                fielded[Side.AXIS],
                fielded[Side.ALLIES],
                attacker=attacker,
                dice=Dice(seed=table.seed, keyed=settings.get("dice") == "keyed"),
            )
            # the file as the client named it (a shipped one by its name): what `minis replay` looks for
            game.header["scenario_file"] = settings["scenario_file"]
            game.header.pop("seed", None)
            return game
        game = Game.new(
            fielded[Side.AXIS],
            fielded[Side.ALLIES],
            scenario=BattleKind(settings.get("scenario", "standard")),
            attacker=attacker,
            configuration=settings.get("config"),
            dice=Dice(seed=table.seed, keyed=settings.get("dice") == "keyed"),
            turn_limit=settings.get("turn_limit"),
            rules=_rules(settings),
        )
        game.header.pop("seed", None)  # the seed lives in the store alone: no record or message has it
        return game

    def _state(
        self,
        table: Table,
        side: Side | None,
        *,
        since: int | None = None,
        decided_by: Side | None = None,
        history: bool = False,
        taken_back: bool = False,
        public: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """What a seat (`side`) or a spectator (None) is sent: the public facts, the projection, and
        the record's entries it may see (`entries`): those from `since` on (a decision's), or with
        `history` all of them (a seat joined or resumed). `taken_back`: an undo made `at` smaller.
        Once nothing is hidden every side's projection is the public one, packed once into `public`
        (a broadcast's: the position it packs is the one it sends)."""
        state: dict[str, Any] = {
            "kind": "state",
            "code": table.code if side is not None else None,
            "side": side.value if side is not None else None,
            **self._facts(table),
        }
        if history:  # a seat joined or resumed: what battle this is (its settings are public)
            state["settings"] = table.settings
        game = table.game
        if game is None:
            return state
        if taken_back:
            state["taken_back"] = True
        nothing_hidden = not any(hidden_units(game.state, s) or hidden_obstacles(game.state, s) for s in Side)
        if "undo" in table.offers:  # the decision it would take back, to whoever may see it
            shown = nothing_hidden or side is table.offers["undo"]
            state["undo_action"] = game.record[-1].action if shown else "a set-up decision (still hidden)"
        if nothing_hidden:  # one projection for all: packed once a broadcast
            public = {} if public is None else public
            if "game" not in public:
                public["game"] = pack_game(project(game, Side.AXIS, Dice(seed=0)))
            state["game"] = public["game"]
        elif side is not None:
            state["game"] = pack_game(project(game, side, Dice(seed=0)))
        start = 0 if history else since
        if start is not None:
            state["entries"] = _entries_seen(game, start, side, nothing_hidden, decided_by)
        return state

    def _facts(self, table: Table) -> dict[str, Any]:
        """What anyone may know of a battle: the seats and armies in, and once it has begun whose
        decision it is, whether and how it ended, and the offers waiting for an answer."""
        facts: dict[str, Any] = {
            "at": table.at,
            "armies": {s.value: s in table.seats and table.seats[s].army is not None for s in Side},
            "seats": {s.value: s in table.seats for s in Side},
            "started": table.game is not None,
        }
        game = table.game
        if game is None:
            return facts
        decider = game.decider()
        winner = table.result[1] if table.result is not None else game.winner
        over = game.over or table.result is not None
        facts.update(
            turn=game.state.turn,
            phase=game.state.phase.value,
            stage=game.state.stage.value,
            decider=decider.value if decider is not None and not over else None,
            over=over,
            winner=winner.value if winner is not None else None,
            ended=table.result[0] if table.result is not None else None,
            offers={what: s.value if (s := table.offers.get(what)) else None for what in OFFERS},
        )
        return facts

    async def _broadcast(
        self,
        table: Table,
        since: int | None = None,
        decided_by: Side | None = None,
        taken_back: bool = False,
    ) -> None:
        """Every seat's and spectator's new state (with a decision's entries from `since`, made by
        `decided_by`)."""
        sends = []
        public: dict[str, str] = {}
        for key, conns in list(table.listeners.items()):
            if conns:
                text = encode(
                    self._state(
                        table, key, since=since, decided_by=decided_by, taken_back=taken_back, public=public
                    )
                )
                sends += [self._send(conn, text) for conn in list(conns)]
        if self._deciding is not None:  # no await since the decision came in: all of it the server's
            self.work_timings.append(time.perf_counter() - self._deciding)
            self._deciding = None
        await asyncio.gather(*sends)


def _entries_seen(
    game: Game, start: int, side: Side | None, nothing_hidden: bool, decided_by: Side | None
) -> list[list[Any]]:
    """The record's entries from `start` that `side` (None: a spectator) may see, as `[at, action,
    dice]`: every one once nothing of either army is hidden (from then on the whole record is what both
    players saw), before that only a seat's own decision (the other's set-up decisions would name what
    is still secret: the seat sees their result in its projection)."""
    if not (nothing_hidden or (side is not None and side is decided_by and start > 0)):
        return []
    entries = game.record[start:]
    return [[at, entry.action, list(entry.dice)] for at, entry in enumerate(entries, start)]


def _side(value: str) -> Side:
    try:
        return Side(value)
    except ValueError:
        raise ProtocolError("the side is 'axis' or 'allies'") from None


def _rules(settings: dict[str, Any]) -> rule_sets.RuleSet | None:
    name = settings.get("rules")
    return rule_sets.named(name) if name is not None else None


def _what(message: dict[str, Any]) -> str:
    what: str = message["what"]
    if what not in OFFERS:
        raise ProtocolError("'what' is 'undo' or 'draw'")
    return what


def _undo_problem(table: Table, game: Game, side: Side) -> str:
    """Why `side` may not take back the battle's last decision ('' if it may): only its own, and only
    one that rolled no dice and left the decision with it (the window's rule at one screen)."""
    if not table.deciders or len(table.deciders) != table.at or table.deciders[-1] is not side:
        return "only your own last decision can be taken back, while it is the battle's last"
    if game.record[-1].dice:
        return "that decision rolled dice: it stands"
    if game.decider() is not side:
        return "that decision asked the other player something: it stands"
    return ""


def _file_settings(message: dict[str, Any]) -> dict[str, Any]:
    """A scenario file's battle: the file's name and text (and its map file's), checked later by
    `_plan`; the file sets the map, the rule set and the turns, so `config`, `rules` and `turn_limit`
    are refused with it."""
    for key in ("config", "rules", "turn_limit"):
        if message.get(key) is not None:
            raise ProtocolError(f"a scenario file sets the battle's map, rules and turns: leave '{key}' out")
    name, text = message.get("scenario_file"), message.get("scenario_text")
    if not isinstance(name, str) or not isinstance(text, str):
        raise ProtocolError("a scenario file's battle needs 'scenario_file' (its name) and 'scenario_text'")
    if not 1 <= len(name) <= MAX_FILE_NAME or any(not c.isprintable() for c in name):
        raise ProtocolError(f"'scenario_file' is a file name of 1 to {MAX_FILE_NAME} printable characters")
    attacker = message.get("attacker")
    if attacker is not None:
        _side(attacker)
    return {
        "config": None,
        "rules": None,
        "scenario": "file",
        "attacker": attacker,
        "turn_limit": None,
        "scenario_file": name,
        "scenario_text": text,
        "map_text": message.get("map_text"),
    }


def scenario_plan(settings: dict[str, Any]) -> Scenario | None:
    """The scenario of a scenario file's battle (None for the rulebook's), checked as `minis edit
    --check` checks it; ProtocolError with its problems as `FILE:LINE:COL: message` lines. The server
    never reads a file a client names: a map file comes as the message's `map_text`."""
    if settings.get("scenario") != "file":
        return None
    from minis.engine.scenario import parse_scenario_doc, scenario_from_text
    from minis.mapfile import map_board, parse_document
    from minis.mapfile.documents import MapDoc
    from minis.mapfile.syntax import parse_toml

    name, text, map_text = settings["scenario_file"], settings["scenario_text"], settings.get("map_text")
    try:
        doc = parse_scenario_doc(text, name)  # its form first: a broken one names no map to read
        board = None
        if doc.map_file is not None:
            map_name = str(Path(name).parent / doc.map_file)
            if map_text is None:
                raise ProtocolError(f"{name}: the scenario's map file {doc.map_file} is needed as 'map_text'")
            kind = parse_toml(map_text, map_name).get("kind")
            if kind != "map":
                raise MinisError(
                    Problem(map_name, 1, 1, 'a battle on a server takes a map file (kind = "map") as its map')
                )
            document = parse_document(map_text, map_name, expected="map")
            assert isinstance(document, MapDoc)
            board = map_board(document, source=map_name)
        elif map_text is not None:
            raise ProtocolError(f"{name}: the scenario names no map file: leave 'map_text' out")
        plan = scenario_from_text(text, name, board=board)
    except MinisError as error:
        raise ProtocolError("\n".join(problem_lines(error.problems))) from None
    attacker = settings.get("attacker")
    if plan.is_attack:
        fixed = plan.attacker_side
        if attacker is not None and fixed is not None and attacker != fixed.value:
            raise ProtocolError(f"{name}: the scenario's attacker is the {fixed.title}")
        settings["attacker"] = fixed.value if fixed is not None else attacker or Side.AXIS.value
    elif attacker is not None:
        raise ProtocolError(f"{name}: the scenario fixes the sides: it has no attacker to choose")
    return plan


def _settings(message: dict[str, Any]) -> dict[str, Any]:
    """A new battle's settings from a `new` message, each checked."""
    if message.get("scenario") == "file":
        return _file_settings(message)
    config = message.get("config")
    if config is not None and config not in range(1, 7):
        raise ProtocolError("'config' is a battle map configuration from 1 to 6")
    rules = message.get("rules")
    if rules is not None and rules not in rule_sets.NAMED:
        raise ProtocolError(f"unknown rule set '{rules[:40]}' (the rule sets: {', '.join(rule_sets.NAMED)})")
    scenario = message.get("scenario", "standard")
    if scenario not in ("standard", "assault"):
        raise ProtocolError("'scenario' is 'standard', 'assault' or 'file' (with 'scenario_text')")
    attacker = message.get("attacker")
    if attacker is not None:
        _side(attacker)
    if scenario == "assault" and attacker is None:
        attacker = Side.AXIS.value
    if scenario == "standard":
        attacker = None
    turn_limit = message.get("turn_limit")
    if turn_limit is not None and turn_limit not in range(1, 1001):
        raise ProtocolError("'turn_limit' is a number of turns from 1 to 1000")
    return {
        "config": config,
        "rules": rules,
        "scenario": scenario,
        "attacker": attacker,
        "turn_limit": turn_limit,
    }


def _checked_army(text: str, side: Side, table: Table) -> Army:
    """The army of an army file's text, checked by the army-building rules of the battle's rule set
    (a scenario file's battle: by the scenario's limits for the side, as at one screen)."""
    try:
        army = parse_army(text, "army")
    except MinisError as error:
        raise ProtocolError("\n".join(problem_lines(error.problems))) from None
    if table.plan is not None:
        attacker = table.settings.get("attacker")
        found = table.plan.army_rule_problems(
            army, card_catalogue(), side=side, attacker=Side(attacker) if attacker else None
        )
    else:
        found = wrong_side(army, side) + rule_problems(army, card_catalogue(), rules=_rules(table.settings))
    problems = locate(army, found)
    if problems:
        raise ProtocolError("\n".join(problem_lines(problems)))
    return army


def seats_free(tables: Iterable[Table]) -> int:
    """How many seats of these battles are still free (the server's log line at start-up)."""
    return sum(2 - len(table.seats) for table in tables)
