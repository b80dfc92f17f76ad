"""The special abilities a stat card may name: id, display name, number, hook tag and a short description.

Card files are checked against this list, so a misspelt ability is refused instead of silently doing
nothing. The rules hooks live elsewhere (`minis.abilities`), keyed by the same ids. Descriptions are our
own one-line summaries, not card text; `{n}` stands for the ability's number.
"""

from __future__ import annotations

import re

import attrs

#: The kinds of rule an ability changes; the abilities module hooks in at these points.
HOOK_TAGS = (
    "attack-dice",
    "cover-roll",
    "defense",
    "speed/movement",
    "defensive-fire",
    "initiative/commander",
    "transport",
    "extra-attack",
    "targeting",
    "other",
)


def slug(text: str) -> str:
    """Lower case, every run of characters other than a-z and 0-9 turned into one hyphen, trimmed."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@attrs.frozen
class AbilityInfo:
    """One known ability. `prefix` is written before the number on a card (`+` in 'Initiative +2')."""

    id: str
    name: str
    takes_number: bool
    hook: str
    template: str
    commander: bool = False
    prefix: str = ""

    def label(self, number: int | None) -> str:
        """The ability as a card prints it: 'Close Assault 7', 'Commander: Initiative +2', 'Blast'."""
        return self.name if number is None else f"{self.name} {self.prefix}{number}"

    def describe(self, number: int | None) -> str:
        """The one-line description with the number filled in."""
        return self.template.replace("{n}", "?" if number is None else str(number))


def _ability(
    name: str, hook: str, template: str, *, number: bool = False, commander: bool = False, prefix: str = ""
) -> AbilityInfo:
    return AbilityInfo(slug(name), name, number, hook, template, commander, prefix)


_ALL = (
    _ability(
        "Additional Hull-Mounted Cannon",
        "extra-attack",
        "After its attack in its assault phase it may fire its hull gun at a Vehicle in its front arc "
        "(12, 10 or 8 dice at short, medium or long range).",
    ),
    _ability(
        "All Guns Blazing",
        "extra-attack",
        "After it attacks in its assault phase it may attack a Soldier once more.",
    ),
    _ability(
        "Antiair",
        "targeting",
        "Shoots at aircraft without a penalty and may fire defensively at adjacent aircraft "
        "(there are no aircraft in these rules).",
    ),
    _ability(
        "Banzai Charge",
        "initiative/commander",
        "In the assault phase a friendly non-Artillery Soldier next to it (or itself) may step into an "
        "enemy's hex and then attack a unit there with +1 on each die.",
        commander=True,
    ),
    _ability(
        "Blast",
        "extra-attack",
        "Each attack is rolled separately against every unit in the target hex that can be attacked, "
        "friends included, even when firing defensively.",
    ),
    _ability(
        "Bombardment", "cover-roll", "Units it attacks never get a cover roll; it can't attack aircraft."
    ),
    _ability(
        "Bravery Enforcement",
        "initiative/commander",
        "Disrupted friendly Soldiers next to it (itself included) attack without the disruption penalty.",
        commander=True,
    ),
    _ability(
        "Bridge Demolition",
        "other",
        "Instead of moving or attacking in its assault phase it may try to blow up a bridge in its hex "
        "(4 or more); the road is then broken and crossing that stream needs a movement roll.",
    ),
    _ability(
        "Close Assault",
        "attack-dice",
        "Against a Vehicle in its own hex it may roll {n} dice, and that Vehicle gets no cover roll.",
        number=True,
    ),
    _ability(
        "Command Dependent",
        "speed/movement",
        "In the movement phase it may move (or board or dismount) only when it starts next to a "
        "friendly Commander.",
    ),
    _ability(
        "Commander: Initiative",
        "initiative/commander",
        "While not disrupted it adds {n} to its side's initiative roll (only the army's best bonus counts).",
        number=True,
        commander=True,
        prefix="+",
    ),
    _ability(
        "Coordinated Fire", "attack-dice", "One extra attack die while it is next to a friendly Commander."
    ),
    _ability(
        "Covering Fire",
        "defensive-fire",
        "Soldiers it attacks can't make defensive-fire attacks for the rest of the turn.",
    ),
    _ability("Crack Shot", "attack-dice", "+1 on each of its attack dice."),
    _ability(
        "Double Shot",
        "extra-attack",
        "It attacks twice in its assault phase, and rolls two attacks when it fires defensively.",
    ),
    _ability(
        "Enhanced Range",
        "targeting",
        "Its long range reaches out to {n} hexes against any target.",
        number=True,
    ),
    _ability(
        "Exert Will",
        "initiative/commander",
        "When its side's movement phase begins, friendly Soldiers next to it (itself included) lose "
        "their Disrupted counters.",
        commander=True,
    ),
    _ability(
        "Exposed Transport",
        "transport",
        "Carries one non-Artillery Soldier, and enemies may still attack that Soldier (a Blast too).",
    ),
    _ability(
        "Extended Range",
        "targeting",
        "Against Vehicles its long range reaches out to {n} hexes.",
        number=True,
    ),
    _ability("Fanatic", "other", "Face-up Disrupted counters on it have no effect."),
    _ability(
        "Fighting Platform",
        "transport",
        "A non-Artillery Soldier riding it may fire defensively, and may attack when the vehicle "
        "has not moved that phase (the vehicle then stays put).",
    ),
    _ability("Fixed Howitzer", "targeting", "It can attack only targets in its front arc."),
    _ability(
        "Flanking Attack", "attack-dice", "One extra attack die when it attacks a Vehicle's rear defense."
    ),
    _ability(
        "Forest Camouflage",
        "cover-roll",
        "In a forest hex its cover rolls against long-range attacks succeed without a roll.",
    ),
    _ability("Gun Transport", "transport", "Carries one Soldier, which may be Artillery that is not Large."),
    _ability("Gung Ho", "defensive-fire", "+1 on each die of its defensive-fire attacks."),
    _ability(
        "Hand to Hand",
        "attack-dice",
        "Against a Soldier in its own hex it may roll {n} dice, and that Soldier gets no cover roll.",
        number=True,
    ),
    _ability(
        "Headshot",
        "other",
        "Once a game, instead of a normal attack on a Vehicle, it rolls 6 dice: "
        "3 or more successes disrupt it at once.",
    ),
    _ability("Heavy Armor", "defense", "The first Damaged counter it would get in a game is ignored."),
    _ability("High Gear", "speed/movement", "+{n} speed for a move made entirely along a road.", number=True),
    _ability(
        "Highly Flammable",
        "other",
        "When it gets a Damaged counter, roll a die: on 3 or more it is destroyed at once.",
    ),
    _ability("Inaccurate", "attack-dice", "-{n} on each of its attack dice.", number=True),
    _ability("Large", "other", "It counts as a Vehicle for stacking."),
    _ability("Large Silhouette", "cover-roll", "-1 on its own cover rolls."),
    _ability(
        "Light Artillery", "transport", "This Artillery may ride on a Vehicle that transports Soldiers."
    ),
    _ability("Limited Range", "targeting", "It can't attack targets more than {n} hexes away.", number=True),
    _ability("Open Back", "defense", "Attacks on its rear defense may use the attacker's anti-Soldier dice."),
    _ability(
        "Overlapping Fire", "defensive-fire", "This Vehicle may fire defensively at moving Soldiers too."
    ),
    _ability(
        "Overrun",
        "other",
        "Once a phase, as it enters a hex, it may disrupt one enemy Soldier there at once.",
    ),
    _ability(
        "Pinpointer",
        "cover-roll",
        "Units attacked by friendly Soldiers next to it (itself included) get -1 on their cover rolls.",
        commander=True,
    ),
    _ability("Poor Suspension", "speed/movement", "It can enter a hill hex only along a road."),
    _ability("Prone to Breakdown", "speed/movement", "It can't move while damaged."),
    _ability(
        "Relocate",
        "speed/movement",
        "In its assault phase it may move with speed {n} instead of attacking.",
        number=True,
    ),
    _ability("Ruthless", "attack-dice", "+1 on each attack die against disrupted or damaged targets."),
    _ability("Seasoned Crew", "cover-roll", "Units it attacks get -1 on their cover rolls."),
    _ability(
        "Shrapnel", "attack-dice", "Against Soldiers each of its successes counts {n} times.", number=True
    ),
    _ability("Sideskirts", "defense", "+1 front and rear defense against attackers that have Close Assault."),
    _ability(
        "Smoke Screen",
        "other",
        "Once a game, in its movement phase (after its move or instead of it), it fills its hex "
        "with smoke that blocks line of sight until the turn ends.",
    ),
    _ability(
        "Stars & Stripes", "attack-dice", "One extra attack die while it is next to a friendly Commander."
    ),
    _ability(
        "Strike and Fade",
        "speed/movement",
        "After it attacks in its assault phase it may still move, with speed {n}; then it attacks no more.",
        number=True,
    ),
    _ability(
        "Superior Armor",
        "defense",
        "An attack scores two hits on it only when its successes beat the defense by {n} or more.",
        number=True,
    ),
    _ability(
        "Superior Camouflage",
        "targeting",
        "While it has cover, enemies can't attack it at medium or long range.",
    ),
    _ability(
        "Superior Frontal Armor",
        "defense",
        "An attack on its front scores two hits only when its successes beat the defense by {n} or more.",
        number=True,
    ),
    _ability(
        "Suppressive Fire",
        "defensive-fire",
        "No limit on the defensive-fire attacks it makes in a phase (still one per provocation).",
    ),
    _ability("Surprise Fire", "attack-dice", "One extra attack die when it attacks from a forest hex."),
    _ability("Tall Silhouette", "cover-roll", "Its cover rolls always fail."),
    _ability(
        "Tally-Ho!",
        "initiative/commander",
        "Friendly non-Artillery Soldiers (itself included) that start their movement-phase move "
        "next to it get +1 speed.",
        commander=True,
    ),
    _ability(
        "Transport",
        "transport",
        "Carries one non-Artillery Soldier, which can't act and can't be targeted while aboard.",
    ),
    _ability("Trench Crossing", "speed/movement", "It crosses streams without a movement roll."),
    _ability("Undermanned", "other", "It can't attack while disrupted."),
    _ability("Urban Combat", "cover-roll", "+1 on its cover rolls in a town hex."),
    _ability(
        "Vanguard",
        "speed/movement",
        "After both armies deploy, before turn 1, it may make one move at speed 4.",
    ),
    _ability(
        "Weak Suspension",
        "speed/movement",
        "It must pass a movement roll to enter a hill hex, unless it moves along a road.",
    ),
)

#: Every known ability by id.
ABILITIES: dict[str, AbilityInfo] = {ability.id: ability for ability in _ALL}

_LABEL = re.compile(r"^(?P<name>.*?)\s*(?P<prefix>\+?)(?P<number>[0-9]{1,6})$")


def find_ability(name: str) -> AbilityInfo | None:
    """The ability with this name (any case and punctuation: 'tally ho' finds Tally-Ho!), or None."""
    return ABILITIES.get(slug(name))


def split_label(text: str) -> tuple[str, int | None]:
    """Split a card's ability text into name and number: 'Close Assault 7' -> ('Close Assault', 7).

    'Commander: Initiative +2' gives 2; 'Blast' gives ('Blast', None). A name that is itself a known
    ability is never split, so a name ending in a digit stays whole.
    """
    text = " ".join(text.split())
    if find_ability(text):
        return text, None
    match = _LABEL.match(text)
    if match and match.group("name"):
        return match.group("name"), int(match.group("number"))
    return text, None
