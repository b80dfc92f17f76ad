"""The historical nationality tables: which nations may share an army, as each edition lists them.

A table is a list of groups; an army keeps a table's limits when one group admits every unit of its
own side (cards of no nation, the depots and obstacles, join any army). The 2005 table's groups do not
overlap; the 2008 and 2010 updates list overlapping groups (the United Kingdom is in several) and admit
some nations only from a year on (the Free Poles and the Free French fought beside the Western Allies
after their countries fell), which a group says with `since`. A nation a table does not list stands
alone in it: the updates list who may fight together and we add no partner they don't name (a single
nation's army always keeps the limits). docs/armies.md has the tables in words; the rule set's
`nationality_table` option names the one a battle plays (`minis.content.rule_sets`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from minis.cards import Nation


@attrs.frozen
class Group:
    """Nations that may share an army; `since` gives some of them an earliest card year in this group."""

    nations: frozenset[Nation]
    since: tuple[tuple[Nation, int], ...] = ()

    def admits(self, nation: Nation, year: int) -> bool:
        """Whether a unit of `nation` from card year `year` may be in an army of this group."""
        return nation in self.nations and year >= dict(self.since).get(nation, 0)

    def earliest(self, nation: Nation) -> int | None:
        return dict(self.since).get(nation)


@attrs.frozen
class Table:
    """One edition's nationality table. `groups` holds the listed groups, then a group of one for each
    nation the edition does not list (it stands alone)."""

    name: str
    groups: tuple[Group, ...]
    #: True where no two groups share a nation and none has a year condition (the 2005 table).
    disjoint: bool

    def nation_sets(self) -> tuple[frozenset[Nation], ...]:
        return tuple(group.nations for group in self.groups)


def _table(name: str, groups: Iterable[Group]) -> Table:
    listed = tuple(groups)
    named = frozenset().union(*(group.nations for group in listed))
    alone = tuple(Group(frozenset({nation})) for nation in Nation if nation not in named)
    seen: set[Nation] = set()
    disjoint = True
    for group in listed:
        if group.since or group.nations & seen:
            disjoint = False
        seen |= group.nations
    return Table(name, listed + alone, disjoint)


def _group(*nations: Nation, since: Mapping[Nation, int] | None = None) -> Group:
    return Group(frozenset(nations), tuple(sorted((since or {}).items(), key=lambda item: item[0].value)))


N = Nation

#: The 2005 table: the rulebook's four groups, the Set II insert's additions (Romania with the Germans,
#: Poland and China alone) and our placing of the later sets' nations (docs/armies.md says why).
TABLE_2005 = _table(
    "2005",
    (
        _group(N.GERMANY, N.ITALY, N.ROMANIA, N.HUNGARY, N.SLOVAKIA, N.CROATIA, N.BULGARIA, N.FINLAND),
        _group(N.SOVIET_UNION),
        _group(N.JAPAN),
        _group(
            N.UNITED_STATES,
            N.UNITED_KINGDOM,
            N.FRANCE,
            N.CANADA,
            N.AUSTRALIA,
            N.NEW_ZEALAND,
            N.SOUTH_AFRICA,
            N.BELGIUM,
            N.GREECE,
        ),
        _group(N.POLAND),
        _group(N.CHINA),
        _group(N.YUGOSLAVIA),
    ),
)

#: The Western Allies and the Commonwealth nations the 2008 update names with them.
_WESTERN = (N.UNITED_STATES, N.UNITED_KINGDOM, N.AUSTRALIA, N.CANADA, N.SOUTH_AFRICA)
#: Free Poland: Polish cards from 1940 on; Free France: French cards from 1941 on.
_FREE = {N.POLAND: 1940, N.FRANCE: 1941}


def _later(axis: tuple[Nation, ...], greece: tuple[Nation, ...]) -> tuple[Group, ...]:
    """The groups of the 2008 update, with the Axis group and Greece's group as an edition has them."""
    return (
        _group(*axis),
        _group(N.SOVIET_UNION),
        _group(N.JAPAN),
        _group(*_WESTERN),
        _group(N.FRANCE, N.BELGIUM, N.UNITED_KINGDOM),
        _group(N.CHINA, N.UNITED_STATES, N.UNITED_KINGDOM),
        _group(N.POLAND),
        _group(N.POLAND, N.FRANCE, *_WESTERN, since=_FREE),
        _group(*greece),
    )


_AXIS_2008 = (N.GERMANY, N.HUNGARY, N.ROMANIA, N.SLOVAKIA, N.ITALY)

#: The 2008 update's table (its limits apply to every army under the 2008 and 2009 sets).
TABLE_2008 = _table("2008", _later(_AXIS_2008, (N.GREECE, N.UNITED_KINGDOM)))
#: The 2010 update's table: Finland joins the Axis group, Australia the Greek one.
TABLE_2010 = _table("2010", _later((*_AXIS_2008, N.FINLAND), (N.GREECE, N.UNITED_KINGDOM, N.AUSTRALIA)))

#: The tables by the name the `nationality_table` option gives.
TABLES: Mapping[str, Table] = {table.name: table for table in (TABLE_2005, TABLE_2008, TABLE_2010)}


def table(name: str) -> Table:
    return TABLES[name]
