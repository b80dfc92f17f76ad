"""The two sides of a battle. Every army, unit and decision belongs to one of them."""

from __future__ import annotations

import enum


class Side(enum.Enum):
    AXIS = "axis"
    ALLIES = "allies"

    @property
    def other(self) -> Side:
        return Side.ALLIES if self is Side.AXIS else Side.AXIS

    @property
    def title(self) -> str:
        """How the side is named to players: 'Axis' or 'Allies'."""
        return "Axis" if self is Side.AXIS else "Allies"

    @classmethod
    def parse(cls, text: str) -> Side:
        """`axis` or `allies` (any case); raises ValueError otherwise."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"unknown side '{text}' (axis or allies)") from None
