"""Special deployment (the catalogue's rule system): units that start off the map and arrive later
(the national Heroes, Paratrooper) and units that may deploy outside their own zone (Partisan,
Gliderborne). The abilities only say which kind of entry they give; the rules of arriving and of the
wider deployment areas are the engine's (`minis.rules.arrivals`)."""

from __future__ import annotations

from minis.ability_rules.counters import Fanatic
from minis.cards import Nation
from minis.engine.ability_api import Ability, ability
from minis.state import Unit

#: How a unit arrives or deploys, as `Ability.special_deployment` answers (`minis.rules.arrivals`).
HERO = "hero"
PARATROOPER = "paratrooper"
EDGE = "edge"
OUTSIDE_ENEMY_ZONE = "outside-enemy-zone"


class _Hero(Fanatic):
    """<Nation> Hero: waits off the map and joins at the start of a friendly movement phase in a hex
    holding a friendly Soldier of its nation; face-up Disrupted counters don't affect it (as Fanatic)."""

    nation: Nation = Nation.GERMANY

    def special_deployment(self, owner: Unit) -> str | None:
        return HERO


@ability("canadian-hero")
class CanadianHero(_Hero):
    nation = Nation.CANADA


@ability("german-hero")
class GermanHero(_Hero):
    nation = Nation.GERMANY


@ability("italian-hero")
class ItalianHero(_Hero):
    nation = Nation.ITALY


@ability("japanese-hero")
class JapaneseHero(_Hero):
    nation = Nation.JAPAN


@ability("soviet-hero")
class SovietHero(_Hero):
    nation = Nation.SOVIET_UNION


@ability("u-k-hero")
class UKHero(_Hero):
    nation = Nation.UNITED_KINGDOM


@ability("u-s-hero")
class USHero(_Hero):
    nation = Nation.UNITED_STATES


@ability("paratrooper")
class Paratrooper(Ability):
    """Paratrooper: waits off the map and lands at the end of a friendly movement phase in a hex with
    no enemy adjacent; it moves no further that phase (it may attack in the assault phase)."""

    def special_deployment(self, owner: Unit) -> str | None:
        return PARATROOPER


@ability("partisan")
class Partisan(Ability):
    """Partisan: may deploy in any empty full hex on the map's edge instead of in its own zone."""

    def special_deployment(self, owner: Unit) -> str | None:
        return EDGE


@ability("gliderborne")
class Gliderborne(Ability):
    """Gliderborne: may deploy in any empty hex of the map outside the opponent's deployment zone."""

    def special_deployment(self, owner: Unit) -> str | None:
        return OUTSIDE_ENEMY_ZONE
