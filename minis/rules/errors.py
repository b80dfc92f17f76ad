"""The error the engine raises for an action the rules do not allow."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse; `reason` says why in words a player understands.

    The game's state is unchanged when this is raised from `Game.apply`.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
