"""attrs' `field` and `Factory` typed `Any`, for the class bodies of the compiled fast build, and `same`,
the comparison of two attrs values that the fast build compiles faithfully.

mypyc (the fast build, minis/base/fast.py) compiles `cache: dict[...] = attrs.Factory(dict)` in a class body
as a call that returns a `dict`, as the type checker's attrs stubs type it, and checks the value at
import: it is attrs' factory (or `attrs.field`'s definition), not a dict, and the import fails. These
return the very same definitions, typed `Any`; attrs reads them as before. (The type checker then
takes such a field for one with a default, which it is, and does not check the default's type.)

mypyc compiles `a == b` and `a != b` of two values of one attrs class it compiles as `a is b`: attrs adds
`__eq__` when the class is made, where mypyc does not look. `same(a, b)` is Python's own comparison;
`make lint` and `make test` refuse the bare operators there (tools/mypy_fast_equality.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs


def field(**options: Any) -> Any:
    """`attrs.field(**options)`."""
    return attrs.field(**options)


def factory(make: Callable[..., object], takes_self: bool = False) -> Any:
    """`attrs.Factory(make, takes_self)`."""
    return attrs.Factory(make, takes_self=True) if takes_self else attrs.Factory(make)


def same(a: object, b: object) -> bool:
    """`a == b` as Python compares (the class's own `__eq__`), in a compiled module too."""
    return a == b
