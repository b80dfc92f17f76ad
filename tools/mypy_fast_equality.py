"""A mypy plugin: refuse `==` and `!=` between two values of one attrs class in a compiled module.

mypyc compiles `a == b` of two values of a class it compiles whose body has no `__eq__` as `a is b`
(mypyc 2.4, `LowLevelIRBuilder.translate_eq_cmp`); attrs gives the class its `__eq__` only when the
class is made, where mypyc does not look. So the fast build (docs/engine.md, "The fast build") took two
equal attrs values for unequal: a `FollowUp` made anew never matched the offer it used up, and Strike
and Fade let a unit move again and again after attacking. The pure sources were right and the tests ran
on them; only games on the fast build went wrong. With this plugin mypy (`make test`, `make lint`)
refuses such a comparison in a module of `minis.base.fast.COMPILED`: write `same(a, b)` (`minis.base.fields`,
Python's own comparison) or compare the fields.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from mypy.nodes import CallExpr, NameExpr, TypeInfo
from mypy.plugin import MethodContext, Plugin
from mypy.types import Instance, Type, get_proper_type

#: The methods mypy checks `==` and `!=` with (attrs' plugin for mypy gives an attrs class both).
OPERATORS = {"__eq__": "==", "__ne__": "!="}
#: Where the compiled modules are listed (`COMPILED`), beside this folder.
FAST = Path(__file__).resolve().parent.parent / "minis" / "base" / "fast.py"


def compiled_modules(source: Path = FAST) -> frozenset[str]:
    """`minis.base.fast.COMPILED`, read from the file (a plugin must not import the package it checks)."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        if node.target.id == "COMPILED" and node.value is not None:
            return frozenset(ast.literal_eval(node.value))
    raise RuntimeError(f"{source} lists no COMPILED modules")


def compared_by_value(info: TypeInfo) -> bool:
    """An attrs class whose `__eq__` attrs writes (not `eq=False`, no `__eq__` of the class body's)."""
    if "attrs" not in info.metadata:
        return False
    for base in info.mro[:-1]:
        own = base.names.get("__eq__")
        if own is not None and not own.plugin_generated:
            return False
    for decorator in info.defn.decorators:
        if isinstance(decorator, CallExpr):
            for name, value in zip(decorator.arg_names, decorator.args, strict=True):
                if name == "eq" and isinstance(value, NameExpr) and value.name == "False":
                    return False
    return True


class FastEquality(Plugin):
    """The check, on every `==`/`!=` whose left side is a value of a class of the package."""

    compiled = compiled_modules()

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        package, _, rest = fullname.partition(".")
        operator = OPERATORS.get(rest.rpartition(".")[2])
        if package != "minis" or operator is None:
            return None
        return lambda ctx: self.check(ctx, operator)

    def check(self, ctx: MethodContext, operator: str) -> Type:
        tree = getattr(ctx.api, "tree", None)
        module = getattr(tree, "fullname", "")
        left = get_proper_type(ctx.type)
        right = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
        if (
            module in self.compiled
            and isinstance(left, Instance)
            and isinstance(right, Instance)
            and left.type is right.type
            and left.type.module_name in self.compiled
            and compared_by_value(left.type)
        ):
            ctx.api.fail(
                f"'{operator}' between two {left.type.name} values is 'is' in the fast build (mypyc "
                "does not see the __eq__ attrs adds): write minis.base.fields.same "
                "(tools/mypy_fast_equality.py)",
                ctx.context,
            )
        return ctx.default_return_type


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return FastEquality
