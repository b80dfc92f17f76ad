"""The air rules' own questions of an ability class (Antiair, Antiair Support, Ace), as a mixin.

Kept in a module of its own that the fast build does not compile (minis/base/fast.py): the abilities that
mix it in stay interpreted, and compiled code sees a class of an interpreted module as an ordinary
Python class, so `isinstance(handler, AirRole)` asks Python. Compiled, mypyc would check the exact type,
and no ability class would be an `AirRole` (tests/test_fast_build.py).
"""

from __future__ import annotations

from typing import ClassVar


class AirRole:
    """Mixed into the ability classes whose meaning is one of the air rules' own questions.

    The rules ask `isinstance(handler, AirRole)` of the card's hook objects, so an ability that a rule
    set leaves out or switches off answers nothing.
    """

    #: The unit has Antiair: no -1 against aircraft, a reaction shot at an aircraft placed next to it.
    antiair: ClassVar[bool] = False
    #: The unit has Antiair while a friendly unit with Antiair shares its hex (Antiair Support).
    antiair_support: ClassVar[bool] = False
    #: The unit is an Ace: no -1 against aircraft, a reaction shot at an aircraft placed within 4 hexes.
    ace: ClassVar[bool] = False
