"""The network protocol's messages (docs/network.md): JSON objects with a `kind`, one a WebSocket message.

A seat's state message carries the side's projection (`minis.engine.projection`) as a packed game: the state
and header pickled, compressed and base64-encoded. Only a game's state and header go in (never its dice
or record), and the client unpacks it with an unpickler that rebuilds only minis's own classes and two
numpy helpers, so a server cannot make a client run anything else.
"""

from __future__ import annotations

import base64
import copyreg
import io
import json
import pickle
import types
import unicodedata
import zlib
from typing import Any

from minis.dice import Dice
from minis.game import Game
from minis.rules import sequence

__all__ = [
    "CHAT_KEPT",
    "CLIENT_KINDS",
    "MAX_CHAT",
    "MAX_CLIENT_MESSAGE",
    "MAX_SEATS",
    "MAX_SERVER_MESSAGE",
    "OFFERS",
    "ProtocolError",
    "chat_text",
    "decode",
    "encode",
    "pack_game",
    "unpack_game",
]

#: The largest message a client may send (bytes): an army file is far smaller (the server refuses more).
MAX_CLIENT_MESSAGE = 64 * 1024
#: The largest message a client accepts from the server (a packed projection is some 20-40 KB).
MAX_SERVER_MESSAGE = 4 * 1024 * 1024
#: The most a packed game may grow to when unpacked (a projection is about 100 KB).
MAX_UNPACKED = 32 * 1024 * 1024
#: Every kind of message a client may send, and the fields each needs (name: type).
CLIENT_KINDS: dict[str, dict[str, type]] = {
    "new": {},
    "join": {"code": str, "side": str},
    "resume": {"code": str, "token": str},
    "watch": {"code": str},
    "army": {"text": str},
    "decide": {"action": str, "at": int},
    "record": {"code": str},
    "ping": {},
    "chat": {"text": str},
    "offer": {"what": str},
    "answer": {"what": str, "accept": bool},
    "resign": {},
    "seats": {"seats": list},
}
#: What a seat may offer the other (`offer`, `answer`).
OFFERS = ("undo", "draw")
#: The most characters of a chat line, and the lines a battle keeps.
MAX_CHAT = 500
CHAT_KEPT = 500
#: The most seats one `seats` request may ask about.
MAX_SEATS = 100
#: The optional fields of `new`, and their types.
NEW_OPTIONS: dict[str, tuple[type, ...]] = {
    "config": (int, type(None)),
    "rules": (str, type(None)),
    "scenario": (str,),
    "attacker": (str, type(None)),
    "turn_limit": (int, type(None)),
    "scenario_file": (str,),
    "scenario_text": (str,),
    "map_text": (str, type(None)),
}


class ProtocolError(ValueError):
    """A message that is not one of the protocol's, in plain words for the client who sent it."""


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def decode(data: str | bytes) -> dict[str, Any]:
    """A client's message, checked: a JSON object of a known kind with the fields it needs."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message must be UTF-8 JSON text") from None
    try:
        message = json.loads(data)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("a message must be a JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    kind = message.get("kind")
    if not isinstance(kind, str) or kind not in CLIENT_KINDS:
        known = ", ".join(CLIENT_KINDS)
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else "?"
        raise ProtocolError(f"unknown message kind '{shown}' (the kinds: {known})")
    for field, wanted in CLIENT_KINDS[kind].items():
        value = message.get(field)
        if not isinstance(value, wanted) or (isinstance(value, bool) and wanted is not bool):
            raise ProtocolError(f"a '{kind}' message needs '{field}' ({_type_word(wanted)})")
    if kind == "new":
        for field, allowed in NEW_OPTIONS.items():
            if field in message and not (
                isinstance(message[field], allowed) and not isinstance(message[field], bool)
            ):
                raise ProtocolError(f"'{field}' of a 'new' message has the wrong type")
    return message


#: Characters a chat line may not hold besides control characters and lone surrogates: the bidi
#: overrides and isolates, which would make a line read other than it is.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def chat_text(text: str) -> str:
    """A chat line as kept: stripped, 1 to MAX_CHAT characters, on one line, no control characters;
    ProtocolError in plain words otherwise (the window checks a line the same way before sending)."""
    text = text.strip()
    if not text:
        raise ProtocolError("a chat line needs some text")
    if len(text) > MAX_CHAT:
        raise ProtocolError(f"a chat line is at most {MAX_CHAT} characters (this one has {len(text)})")
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in _BIDI for c in text):
        raise ProtocolError("a chat line may not hold control characters (line breaks, tabs and the like)")
    return text


def _type_word(wanted: type) -> str:
    return {str: "text", int: "a whole number", bool: "true or false", list: "a list"}.get(
        wanted, wanted.__name__
    )


# --- a projection on the wire --------------------------------------------------------------------------


def _proxy(table: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    """Rebuilds a read-only table on unpacking (mappingproxy has no pickle support of its own)."""
    return types.MappingProxyType(table)


class _Pickler(pickle.Pickler):
    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[types.MappingProxyType] = lambda table: (_proxy, (dict(table),))


#: What besides minis's own classes a packed game may name (the board's numpy tables, read-only tables).
_ALLOWED_OUTSIDE = frozenset(
    {
        ("numpy", "dtype"),
        ("numpy.core.numeric", "_frombuffer"),
        ("numpy._core.numeric", "_frombuffer"),
        ("builtins", "frozenset"),
        ("builtins", "set"),
        ("builtins", "slice"),
        ("builtins", "complex"),
        ("minis.net.protocol", "_proxy"),
    }
)


class _Unpickler(pickle.Unpickler):
    """Rebuilds only minis's classes and functions (and `_ALLOWED_OUTSIDE`): nothing a server sends can
    name `os.system` or any other callable outside the game."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_OUTSIDE:
            return super().find_class(module, name)
        if (module == "minis" or module.startswith("minis.")) and not name.startswith("__"):
            if module.startswith(("minis.net", "minis.commands", "minis.cli", "minis.ui")):
                raise pickle.UnpicklingError(f"a packed game may not name {module}.{name}")
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"a packed game may not name {module}.{name}")


def pack_game(game: Game) -> str:
    """A game's state and header as text for a JSON message (never its dice or record)."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump((game.state, game.header))
    # Level 1: a fifth of level 6's time for some 10% more bytes (the server packs at every decision).
    return base64.b64encode(zlib.compress(buffer.getvalue(), 1)).decode("ascii")


def unpack_game(text: str, dice: Dice) -> Game:
    """The game `pack_game` packed, with `dice` (the receiver's own); ProtocolError if it is no game."""
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflater = zlib.decompressobj()
        data = inflater.decompress(packed, MAX_UNPACKED)
        if inflater.unconsumed_tail:
            raise ProtocolError("the packed game is too large")
        state, header = _Unpickler(io.BytesIO(data)).load()
    except ProtocolError:
        raise
    except Exception as error:  # whatever a corrupt packing raises: it is no game
        raise ProtocolError(f"the server sent a game that cannot be read ({type(error).__name__})") from None
    if not isinstance(header, dict) or type(state).__name__ != "GameState":
        raise ProtocolError("the server sent something that is no game")
    game = Game.__new__(Game)
    game.state = state
    game.dice = dice
    game.header = header
    game._log = []
    game._record = []
    game.load_board = sequence.default_loader
    game._pending = None
    return game
