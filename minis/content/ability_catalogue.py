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
    #: The rule system the ability needs that the engine does not have yet (None: it plays now).
    needs: str | None = None

    def label(self, number: int | None) -> str:
        """The ability as a card prints it: 'Close Assault 7', 'Commander: Initiative +2', 'Blast'."""
        return self.name if number is None else f"{self.name} {self.prefix}{number}"

    def describe(self, number: int | None) -> str:
        """The one-line description with the number filled in."""
        return self.template.replace("{n}", "?" if number is None else str(number))


#: The rule systems some catalogue abilities need and the engine does not have yet (issues to come).
AIRCRAFT = "aircraft"
INDIRECT_FIRE = "indirect fire and spotters"
SPECIAL_DEPLOYMENT = "special deployment"
OBSTACLES = "obstacles and fortifications"
WATER = "water"
RULE_SYSTEMS = (AIRCRAFT, INDIRECT_FIRE, SPECIAL_DEPLOYMENT, OBSTACLES, WATER)


def _ability(
    name: str,
    hook: str,
    template: str,
    *,
    number: bool = False,
    commander: bool = False,
    prefix: str = "",
    needs: str | None = None,
) -> AbilityInfo:
    return AbilityInfo(slug(name), name, number, hook, template, commander, prefix, needs)


_ALL = (
    _ability(
        "Ace",
        "targeting",
        "It attacks aircraft without the -1 per die, and may fire at an enemy aircraft placed within 4 hexes "
        "of it.",
    ),
    _ability(
        "Additional Hull-Mounted Cannon",
        "extra-attack",
        "After its attack in its assault phase it may fire its hull gun at a Vehicle in its front arc "
        "(12, 10 or 8 dice at short, medium or long range).",
    ),
    _ability(
        "Aggression",
        "speed/movement",
        "In its assault phase a move of at most {n} hexes (or a turn) may be followed by an attack.",
        number=True,
    ),
    _ability(
        "Agility",
        "targeting",
        "When it attacks an aircraft, its short range is 0-2 hexes and its medium range 3-5.",
    ),
    _ability(
        "Aircraft",
        "other",
        "Flies over any hex in its flight phase, attacks in its airstrike phase, leaves the map at the end "
        "of the turn.",
    ),
    _ability(
        "All Guns Blazing",
        "extra-attack",
        "After it attacks in its assault phase it may attack a Soldier once more.",
    ),
    _ability(
        "Amphibious",
        "speed/movement",
        "Streams never call for a movement roll, and it may go into water hexes at twice the usual cost.",
    ),
    _ability(
        "Angriff",
        "initiative/commander",
        "In the assault phase a friendly non-Artillery Soldier next to it (or itself) that is not disrupted "
        "may step into a neighbouring enemy's hex and then attack a unit there with +1 on each die.",
        commander=True,
    ),
    _ability(
        "Antiair",
        "targeting",
        "No -1 on its dice against aircraft; it may shoot at an enemy aircraft placed in or next to its hex.",
    ),
    _ability(
        "Antiair Support",
        "targeting",
        "It counts as having Antiair while a friendly unit with Antiair is in its hex.",
    ),
    _ability(
        "Armor-Piercing Rounds",
        "attack-dice",
        "Once a game it may say so before attacking a Vehicle; that attack then turns two hits into three.",
    ),
    _ability(
        "AVRE",
        "speed/movement",
        "Obstacles don't hinder it, and each Obstacle on a hexside it crosses or in a hex it enters goes.",
    ),
    _ability(
        "Awareness", "defensive-fire", "It may fire defensively at enemy Soldiers entering its own hex."
    ),
    _ability(
        "Backblast",
        "cover-roll",
        "Once it has attacked (defensive fire too), its cover rolls fail until the turn ends.",
    ),
    _ability(
        "Banzai Charge",
        "initiative/commander",
        "In the assault phase a friendly non-Artillery Soldier next to it (or itself) may step into an "
        "enemy's hex and then attack a unit there with +1 on each die.",
        commander=True,
    ),
    _ability(
        "Barbed Wire",
        "other",
        "An Obstacle placed on a hexside: a Soldier crossing that hexside must first pass a movement roll "
        "(Vehicles cross freely).",
    ),
    _ability(
        "Battlefield Awareness",
        "defensive-fire",
        "It may fire defensively at an enemy Vehicle about to leave a neighbouring hex, before the Vehicle "
        "goes.",
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
        "Bombs",
        "attack-dice",
        "Once a game its attack may instead hit a Soldier or Vehicle in its own hex with 12 dice (8 against "
        "a Vehicle).",
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
        "(4 or more); the road is then broken and crossing that stream needs a movement roll. The same "
        "roll clears the Obstacles in its hex.",
    ),
    _ability(
        "Brushcutters",
        "speed/movement",
        "It enters forest hexes without a movement roll (still at the forest's movement cost).",
    ),
    _ability(
        "Camouflaged",
        "targeting",
        "Until the first time it moves or attacks (defensive fire too), enemies can't attack it at medium "
        "or long range.",
    ),
    _ability(
        "Canadian Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly Canadian Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "Charge",
        "speed/movement",
        "It may move while disrupted, each hex it enters nearer to the closest enemy Soldier.",
    ),
    _ability(
        "Chatting on the Radio",
        "targeting",
        "Once it has moved or turned in its own assault phase it is no Spotter for the rest of that phase.",
    ),
    _ability(
        "Close Assault",
        "attack-dice",
        "Against a Vehicle in its own hex it may roll {n} dice, and that Vehicle gets no cover roll.",
        number=True,
    ),
    _ability("Collapsible Screen", "other", "No attacks from a water hex."),
    _ability(
        "Command Awareness",
        "initiative/commander",
        "Friendly Vehicles up to 2 hexes away have Awareness (they may fire at Soldiers entering their hex).",
        commander=True,
    ),
    _ability(
        "Command Dependent",
        "speed/movement",
        "In the movement phase it may move (or board or dismount) only when it starts next to a "
        "friendly Commander.",
    ),
    _ability(
        "Command Leadership",
        "initiative/commander",
        "Friendly Vehicles up to 2 hexes away roll one extra attack die in their own assault phase (not for "
        "defensive fire).",
        commander=True,
    ),
    _ability(
        "Command Quick Reactions",
        "initiative/commander",
        "Friendly Vehicles up to 2 hexes away may turn to a new facing after they attack in their assault "
        "phase (not while disrupted); the turn ends their extra attacks.",
        commander=True,
    ),
    _ability(
        "Command Ruthless",
        "initiative/commander",
        "Friendly Vehicles up to 2 hexes away have Ruthless (+1 a die against disrupted or damaged targets).",
        commander=True,
    ),
    _ability("Commander Hunter", "attack-dice", "It rolls 2 more attack dice against Commanders."),
    _ability(
        "Commander: Initiative",
        "initiative/commander",
        "While not disrupted it adds {n} to its side's initiative roll (only the army's best bonus counts).",
        number=True,
        commander=True,
        prefix="+",
    ),
    _ability(
        "Concealed",
        "targeting",
        "While it has cover, enemies can't attack it at long range.",
    ),
    _ability(
        "Coordinated Fire", "attack-dice", "One extra attack die while it is next to a friendly Commander."
    ),
    _ability(
        "Coordinated Fire (C. A.)",
        "attack-dice",
        "Once it has attacked a unit this turn, friendly Soldiers next to it (itself included) add one die "
        "to their attacks on that unit.",
        commander=True,
    ),
    _ability(
        "Courage",
        "speed/movement",
        "It may move while disrupted, each hex it enters nearer to the closest enemy unit.",
    ),
    _ability(
        "Covering Fire",
        "defensive-fire",
        "Soldiers it attacks can't make defensive-fire attacks for the rest of the turn.",
    ),
    _ability("Crack Shot", "attack-dice", "+1 on each of its attack dice."),
    _ability(
        "Defensive Preparation",
        "defense",
        "Friendly Artillery next to it gets +1 front and rear defense.",
        commander=True,
    ),
    _ability(
        "Demolitions",
        "other",
        "Once in its movement or assault phase it may try to clear an Obstacle in its hex or on a "
        "hexside of it, and then does nothing more that phase: a die roll of 4 or more removes it.",
    ),
    _ability(
        "Determined Charge",
        "speed/movement",
        "Disrupted by defensive fire during a move, it still finishes that move.",
    ),
    _ability(
        "Dismounted Attack",
        "targeting",
        "While no enemy Soldier is in its hex or next to it, it may fire its short-range dice at a Vehicle "
        "2 hexes away.",
    ),
    _ability(
        "Dispersal",
        "defense",
        "Against Blast attackers, friendly Soldiers next to it (itself included) get +1 front and rear "
        "defense.",
        commander=True,
    ),
    _ability(
        "Double Shot",
        "extra-attack",
        "It attacks twice in its assault phase, and rolls two attacks when it fires defensively.",
    ),
    _ability("Dug In", "speed/movement", "It never moves, and no transport can carry it."),
    _ability(
        "Elan",
        "defense",
        "Friendly Soldiers next to it (itself included) get +1 front and rear defense against "
        "defensive-fire attacks.",
        commander=True,
    ),
    _ability("Elusive", "defense", "+1 front and rear defense in forest and marsh hexes."),
    _ability(
        "Endurance",
        "other",
        "When a Destroyed counter on it turns face up, a die roll of 5 or 6 throws that counter away.",
    ),
    _ability(
        "Enhanced Range",
        "targeting",
        "Its long range reaches out to {n} hexes against any target.",
        number=True,
    ),
    _ability(
        "Entrenched", "defense", "+1 front and rear defense until the first time it moves (then never again)."
    ),
    _ability(
        "Excellent Suspension", "speed/movement", "Hill hexes cost it no more to enter than clear ones."
    ),
    _ability(
        "Exert Will",
        "initiative/commander",
        "When its side's movement phase begins, friendly Soldiers next to it (itself included) lose "
        "their Disrupted counters.",
        commander=True,
    ),
    _ability(
        "Experienced Recon",
        "targeting",
        "Camouflaged and Superior Camouflage don't stop its attacks at medium range (long range stays shut).",
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
    _ability(
        "Extra Fuel",
        "speed/movement",
        "Every friendly Vehicle with a printed speed of 3 or more gets +1 speed (two of these don't add up).",
    ),
    _ability(
        "Extra Hull-Mounted Cannon",
        "extra-attack",
        "After its attack in its assault phase it may fire its hull gun at a Soldier or Vehicle in its "
        "front arc (8, 7 or 5 dice at short, medium or long range).",
    ),
    _ability(
        "Extra Machine Guns",
        "extra-attack",
        "After its attack in its assault phase it may attack once more, at a Soldier.",
    ),
    _ability("Fanatic", "other", "Face-up Disrupted counters on it have no effect."),
    _ability(
        "Fearless",
        "defense",
        "Friendly Soldiers next to it (itself included) get +1 front and rear defense against "
        "defensive-fire attacks.",
        commander=True,
    ),
    _ability(
        "Fighting Platform",
        "transport",
        "A non-Artillery Soldier riding it may fire defensively, and may attack when the vehicle "
        "has not moved that phase (the vehicle then stays put).",
    ),
    _ability(
        "Fire Hazard",
        "other",
        "Each Damaged counter it gets is followed by a die roll; a 5 or 6 destroys it outright.",
    ),
    _ability(
        "Firepower",
        "extra-attack",
        "Once it has moved or attacked in its assault phase, it may also attack a unit in its own hex.",
    ),
    _ability(
        "Fixed Gun",
        "targeting",
        "It may fire at Vehicles (defensive fire too) only inside its front arc; Soldiers it may attack in "
        "any direction.",
    ),
    _ability("Fixed Howitzer", "targeting", "It can attack only targets in its front arc."),
    _ability(
        "Fixed Rear Gun",
        "targeting",
        "It may fire at Vehicles (defensive fire too) only in its rear arc, the hexes straight beside it "
        "included; Soldiers in any direction.",
    ),
    _ability(
        "Flamethrower",
        "cover-roll",
        "Short-range targets lose their cover roll, and three or more 6s in such an attack in its assault "
        "phase destroy the target at once.",
    ),
    _ability(
        "Flammable",
        "other",
        "Each attack made on it, hit or miss, is followed by a die roll; a 5 or 6 destroys it outright.",
    ),
    _ability(
        "Flanking Attack", "attack-dice", "One extra attack die when it attacks a Vehicle's rear defense."
    ),
    _ability(
        "Forest Camouflage",
        "cover-roll",
        "In a forest hex its cover rolls against long-range attacks succeed without a roll.",
    ),
    _ability(
        "Fortification",
        "other",
        "This card is an Obstacle: set up before the armies, taking turns, never next to the objective, "
        "and it doesn't count for stacking.",
    ),
    _ability(
        "Fury",
        "attack-dice",
        "{n} extra attack dice if any enemy unit was destroyed during the previous turn.",
        number=True,
    ),
    _ability(
        "German Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly German Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "Gliderborne",
        "other",
        "It may be set up in any empty hex of the map outside the opponent's deployment zone.",
    ),
    _ability(
        "Green",
        "other",
        "A Disrupted counter comes off it in the casualty phase only on a die roll of 4 or more.",
    ),
    _ability("Guard Crew", "attack-dice", "In every attack it rolls one of its failed 1s again."),
    _ability("Gun Crew Hunter", "attack-dice", "It rolls 2 more attack dice against Artillery."),
    _ability("Gun Shield", "defense", "+1 front and rear defense against attacks by Soldiers at long range."),
    _ability("Gun Transport", "transport", "Carries one Soldier, which may be Artillery that is not Large."),
    _ability("Gung Ho", "defensive-fire", "+1 on each die of its defensive-fire attacks."),
    _ability(
        "Hand to Hand",
        "attack-dice",
        "Against a Soldier in its own hex it may roll {n} dice, and that Soldier gets no cover roll.",
        number=True,
    ),
    _ability(
        "Hard Charger",
        "other",
        "Face-up Disrupted counters come off it when its side's movement phase ends.",
    ),
    _ability("Hard to Spot", "cover-roll", "Its cover rolls get +1."),
    _ability(
        "Hardened Veteran",
        "other",
        "It may move while disrupted, and once a turn one of its failed attack dice is rolled again where "
        "one more success would add a hit.",
    ),
    _ability(
        "HE Round",
        "attack-dice",
        "Once a game its attack on an enemy Soldier 2 or more hexes away may be a single 15-die shot.",
    ),
    _ability(
        "Headshot",
        "other",
        "Once a game, instead of a normal attack on a Vehicle, it rolls 6 dice: "
        "3 or more successes disrupt it at once.",
    ),
    _ability("Heavy Armor", "defense", "The first Damaged counter it would get in a game is ignored."),
    _ability(
        "Heavy Rifle",
        "speed/movement",
        "Speed 0; starting its move in the hex of or next to a friendly Soldier of printed speed 1, its "
        "speed is 1.",
    ),
    _ability(
        "Heavy Transport", "transport", "Carries two Soldiers, Artillery of any size and number included."
    ),
    _ability("High Gear", "speed/movement", "+{n} speed for a move made entirely along a road.", number=True),
    _ability(
        "Highly Flammable",
        "other",
        "When it gets a Damaged counter, roll a die: on 3 or more it is destroyed at once.",
    ),
    _ability(
        "Hull-Mounted Flamethrower",
        "cover-roll",
        "Flamethrower against targets in its front arc: at short range no cover roll, and three or more 6s "
        "in its assault phase destroy the target at once; targets behind it are attacked normally.",
    ),
    _ability(
        "Improved Accuracy",
        "targeting",
        "For friendly Soldiers next to it (itself included) medium range runs from 2 to 6 hexes.",
        commander=True,
    ),
    _ability(
        "Improved Indirect Fire",
        "targeting",
        "Indirect fire that may also be guided by a friendly U.S. Commander that sees the enemy Soldier "
        "from 4 hexes or less.",
    ),
    _ability(
        "Improvisation",
        "other",
        "When a Soldier or Vehicle is destroyed in its hex it may use that unit's attack values until it "
        "leaves the hex.",
    ),
    _ability("Inaccurate", "attack-dice", "-{n} on each of its attack dice.", number=True),
    _ability(
        "Indirect Fire",
        "targeting",
        "It may attack an enemy Soldier out of its own sight if a friendly Spotter sees that Soldier from "
        "8 hexes or less (ranges still count).",
    ),
    _ability(
        "Intimidation",
        "attack-dice",
        "Each attack die of an enemy Soldier next to it gets -1.",
        commander=True,
    ),
    _ability(
        "Italian Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly Italian Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "Japanese Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly Japanese Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "Jet",
        "attack-dice",
        "It can't attack Soldiers in forest, town or marsh hexes; against aircraft each 6 it rolls counts "
        "twice.",
    ),
    _ability(
        "Lack of Determination",
        "other",
        "It is destroyed at once whenever it has a face-up Disrupted counter.",
    ),
    _ability("Large", "other", "It counts as a Vehicle for stacking."),
    _ability("Large Silhouette", "cover-roll", "-1 on its own cover rolls."),
    _ability(
        "Large Transport", "transport", "Carries two Soldiers, and one of them may be Artillery of any size."
    ),
    _ability(
        "Lead the Way",
        "other",
        "Once a turn it rolls a failed movement roll again, or one failed attack die where one more success "
        "would add a hit.",
    ),
    _ability(
        "Light Artillery", "transport", "This Artillery may ride on a Vehicle that transports Soldiers."
    ),
    _ability(
        "Light Towing",
        "transport",
        "Carries one unit that has Light Artillery (and nothing else), boarding and getting off as with "
        "Transport.",
    ),
    _ability("Limited Ammo", "defensive-fire", "It never fires defensively."),
    _ability(
        "Limited Covering Fire",
        "defensive-fire",
        "Soldiers it attacks at short range can't make defensive-fire attacks for the rest of the turn.",
    ),
    _ability("Limited Range", "targeting", "It can't attack targets more than {n} hexes away.", number=True),
    _ability(
        "Low Silhouette", "cover-roll", "In a hex with no cover it still gets a cover roll, which needs a 6."
    ),
    _ability(
        "Mechanized Tactics",
        "transport",
        "Having boarded this movement phase, it may still get off once its transport has moved that phase.",
    ),
    _ability(
        "Minefield",
        "other",
        "An Obstacle in a hex: a unit that stops there or moves out rolls a die and is disrupted at once "
        "on 1, 2 or 3 (moving out, its move ends in the minefield).",
    ),
    _ability("Mobility", "defense", "+1 front and rear defense against defensive-fire attacks."),
    _ability("Mountaineering", "speed/movement", "Its movement rolls get +1."),
    _ability(
        "Multiturreted",
        "extra-attack",
        "It may attack twice in its assault phase: one target inside its front arc and one outside it.",
    ),
    _ability(
        "No Turret",
        "targeting",
        "It may fire at Vehicles (defensive fire too) only inside its front arc; Soldiers it may attack in "
        "any direction.",
    ),
    _ability("Open Back", "defense", "Attacks on its rear defense may use the attacker's anti-Soldier dice."),
    _ability(
        "Open Crew",
        "attack-dice",
        "-1 on each attack die whenever an enemy Soldier (not aboard a transport) is 2 hexes away or closer.",
    ),
    _ability(
        "Open-exposed Crew",
        "defense",
        "Attacks on it from any side may use the attacker's anti-Soldier dice.",
    ),
    _ability(
        "Organization",
        "initiative/commander",
        "Once a turn, when its side loses the initiative roll, the side rolls its two dice again.",
    ),
    _ability(
        "Overheat",
        "other",
        "An attack of its that ends with three or more 1s disrupts it at once, and that counter stays "
        "through the next casualty phase.",
    ),
    _ability(
        "Overlapping Fire", "defensive-fire", "This Vehicle may fire defensively at moving Soldiers too."
    ),
    _ability(
        "Overrun",
        "other",
        "Once a phase, as it enters a hex, it may disrupt one enemy Soldier there at once.",
    ),
    _ability(
        "Paratrooper",
        "other",
        "Waits off the map and lands in a friendly movement phase in a hex with no enemy in it or next to "
        "it, which ends that phase for its side; it moves no further, but may attack in the assault phase.",
    ),
    _ability(
        "Paratrooper Commander",
        "attack-dice",
        "Friendly Paratroopers next to it (itself included: subtype Paratrooper or the Paratrooper ability) "
        "roll one extra attack die.",
        commander=True,
    ),
    _ability(
        "Partisan",
        "other",
        "It may be set up in any empty hex on the map's edge instead of in its own deployment zone.",
    ),
    _ability(
        "Pillbox",
        "cover-roll",
        "An Obstacle holding a single Soldier, which counts as in cover anywhere, with +1 on cover rolls.",
    ),
    _ability(
        "Pinpointer",
        "cover-roll",
        "Units attacked by friendly Soldiers next to it (itself included) get -1 on their cover rolls.",
        commander=True,
    ),
    _ability(
        "Plentiful Ammo",
        "attack-dice",
        "Every attack by a friendly unit, anywhere on the map, rolls each of its failed 1s again once.",
    ),
    _ability("Poor Suspension", "speed/movement", "It can enter a hill hex only along a road."),
    _ability("Prone to Breakdown", "speed/movement", "It can't move while damaged."),
    _ability("Quick Swivel", "defensive-fire", "Its defensive-fire attacks roll one die more."),
    _ability(
        "Rapid Fire",
        "extra-attack",
        "After its attack in its assault phase it may attack once more; if that attack shows any 1 it is "
        "disrupted at once, and that counter stays through the next casualty phase.",
    ),
    _ability(
        "Recon",
        "initiative/commander",
        "+1 on its side's initiative roll while it can see at least one enemy unit, on top of the best "
        "commander bonus; several Recon units still add 1.",
    ),
    _ability(
        "Relocate",
        "speed/movement",
        "In its assault phase it may move with speed {n} instead of attacking.",
        number=True,
    ),
    _ability(
        "Remote Control",
        "other",
        "Instead of a normal attack in its assault phase it may gamble: roll two dice against the range to "
        "an enemy Soldier or Vehicle, and only if both are higher does it roll 8 dice (Soldier) or 12 "
        "(Vehicle).",
    ),
    _ability(
        "Robust",
        "speed/movement",
        "+1 on its movement rolls; while disrupted it may still move (or turn), at speed 1.",
    ),
    _ability(
        "Rocket Salvo",
        "other",
        "Once a game, instead of a normal attack, it rolls 10 dice at every Soldier and 5 at every Vehicle "
        "in or next to the target's hex, friends included.",
    ),
    _ability(
        "Rockets",
        "attack-dice",
        "Once a game its attack may instead be {n} dice against a Soldier or Vehicle within 4 hexes.",
        number=True,
    ),
    _ability("Ruthless", "attack-dice", "+1 on each attack die against disrupted or damaged targets."),
    _ability("Seasoned Crew", "cover-roll", "Units it attacks get -1 on their cover rolls."),
    _ability(
        "Shock Troop",
        "attack-dice",
        "+1 on each die of the first attack it makes in the game (a defensive-fire attack can be that first "
        "one).",
    ),
    _ability(
        "Shrapnel", "attack-dice", "Against Soldiers each of its successes counts {n} times.", number=True
    ),
    _ability("Sideskirts", "defense", "+1 front and rear defense against attackers that have Close Assault."),
    _ability(
        "Sirens",
        "attack-dice",
        "Its attacks on Soldiers score one success more, which can only disrupt, never destroy.",
    ),
    _ability("Slow", "defense", "Enemy aircraft get +1 on each die when they attack it."),
    _ability(
        "Smoke Screen",
        "other",
        "Once a game, in its movement phase (after its move or instead of it), it fills its hex "
        "with smoke that blocks line of sight until the turn ends.",
    ),
    _ability(
        "Soviet Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly Soviet Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "Speed Boost",
        "other",
        "Once a game its attack on an aircraft takes effect at once, not in the casualty phase.",
    ),
    _ability(
        "Spotter",
        "targeting",
        "It guides friendly Indirect Fire at enemy Soldiers it sees within 8 hexes; friendly aircraft roll "
        "one extra die against enemies it sees within 8 hexes.",
    ),
    _ability("SS Determination", "speed/movement", "Disruption doesn't stop it moving."),
    _ability(
        "SS Hunter",
        "attack-dice",
        "It rolls 2 more attack dice against SS units (SS in the card's name or in one of its abilities' "
        "names).",
    ),
    _ability(
        "Stalwart",
        "defensive-fire",
        "Defensive fire by friendly Soldiers next to it (itself included) gets +1 on each die.",
        commander=True,
    ),
    _ability(
        "Stars & Stripes", "attack-dice", "One extra attack die while it is next to a friendly Commander."
    ),
    _ability("Steady Firing", "attack-dice", "It rolls 2 dice more when it attacks a Soldier."),
    _ability(
        "Steely Resolve",
        "defense",
        "An attack scores two hits on it only when its successes beat the defense by {n} or more.",
        number=True,
    ),
    _ability(
        "Strafe",
        "extra-attack",
        "After attacking a Soldier it may also attack another enemy Soldier next to that Soldier's hex.",
    ),
    _ability(
        "Strike and Fade",
        "speed/movement",
        "After it attacks in its assault phase it may still move, with speed {n}; then it attacks no more.",
        number=True,
    ),
    _ability("Subtle", "cover-roll", "Against attacks from long range its cover rolls get +1."),
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
        "Superior Optics",
        "targeting",
        "On a hill, its own attacks may see past one hex of blocking terrain.",
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
    _ability("Tank Hunter", "attack-dice", "Its dice against Vehicles get +1 each."),
    _ability(
        "Tank Obstacle",
        "speed/movement",
        "An Obstacle in a hex: a Vehicle gets in only by passing a movement roll (if not, it stays out).",
    ),
    _ability(
        "Tenacity",
        "attack-dice",
        "Friendly Soldiers next to it (itself included) roll one extra attack die against units in their "
        "own hex.",
        commander=True,
    ),
    _ability(
        "Terrain Expert",
        "defense",
        "Friendly Soldiers next to it (itself included) get +1 front and rear defense against long-range "
        "attacks (5 hexes or more).",
        commander=True,
    ),
    _ability("Thin Wheels", "speed/movement", "Streams and marshes are open to it only by road."),
    _ability(
        "Tides of War",
        "attack-dice",
        "Friendly Soldiers next to it (itself included) roll one extra attack die if any enemy unit was "
        "destroyed during the previous turn.",
        commander=True,
    ),
    _ability(
        "Top-Mounted Rockets",
        "cover-roll",
        "Units it attacks get no cover roll and it can't attack aircraft; once a game, instead of a normal "
        "attack, it rolls 8 dice at every Soldier and 4 at every Vehicle in or next to the target's hex, "
        "friends included.",
    ),
    _ability(
        "Transport",
        "transport",
        "Carries one non-Artillery Soldier, which can't act and can't be targeted while aboard.",
    ),
    _ability("Trench Crossing", "speed/movement", "It crosses streams without a movement roll."),
    _ability("Turret Lock", "other", "No attacks (defensive fire included) from a hill hex."),
    _ability(
        "U.K. Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly U.K. Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability(
        "U.S. Hero",
        "other",
        "Waits off the map and may join at the start of any friendly movement phase in a hex holding a "
        "friendly U.S. Soldier; face-up Disrupted counters don't affect it.",
    ),
    _ability("Undermanned", "other", "It can't attack while disrupted."),
    _ability(
        "Unreliable",
        "other",
        "Face-up Disrupted counters stay on it in the casualty phase, so once disrupted it stays disrupted.",
    ),
    _ability("Urban Combat", "cover-roll", "+1 on its cover rolls in a town hex."),
    _ability(
        "Vanguard",
        "speed/movement",
        "After both armies deploy, before turn 1, it may make one move at speed 4.",
    ),
    _ability("Vast Experience", "attack-dice", "A 6 on its dice scores two successes."),
    _ability(
        "Veteran Crew",
        "other",
        "While disrupted it may still move and attacks without the -1 per die; it still loses 1 defense "
        "and can't fire defensively.",
    ),
    _ability(
        "Veteran Guard",
        "attack-dice",
        "In every attack it rolls up to two of its failed 1s again; it also has Veteran Crew.",
    ),
    _ability(
        "Water Craft",
        "speed/movement",
        "Water hexes are the only ones it can enter, and they cost it what clear hexes do.",
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


def ability_name(ability: str) -> str:
    """An ability as its card prints it ("Smoke Screen"), from its id ("smoke-screen") in an action or
    an event (an id no card has is made readable all the same)."""
    info = ABILITIES.get(ability)
    return info.name if info is not None else ability.replace("-", " ").capitalize()


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
