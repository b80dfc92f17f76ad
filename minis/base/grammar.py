"""Verbs that agree with a unit's name: "Soviet Grenadiers move", "the Panzer IV Ausf. G moves".

Many Soldier cards are named in the plural ("Soviet Grenadiers", "BEF infantrymen", "Rangers"); a
sentence that names one as its subject takes a plural verb. `plural` tells such a name (or the id made
from it, "soviet-grenadiers#2") from a singular one ("Char B1-Bis", "Headquarters", "Sd Kfz 303
"Goliath""), and `verb` puts a verb in the form the subject needs. The log's lines (`minis.engine.events`)
and the window's wording of the engine's reasons (`minis.ui.plain`) use them.
"""

from __future__ import annotations

import re

__all__ = ["VERBS", "plural", "verb"]

#: Names that end in -s but read as one thing.
SINGULAR = frozenset({"headquarters", "bis"})
#: Verbs whose plural is not the singular less its -s (or -es).
IRREGULAR = {
    "is": "are",
    "has": "have",
    "was": "were",
    "does": "do",
    "isn't": "aren't",
    "hasn't": "haven't",
    "doesn't": "don't",
    "wasn't": "weren't",
}
#: The third-person verbs the engine's sentences put after a unit's name (what `plain` agrees).
VERBS = frozenset(
    {
        *IRREGULAR,
        "arrives",
        "attacks",
        "belongs",
        "boards",
        "carries",
        "deploys",
        "dismounts",
        "faces",
        "fires",
        "flies",
        "gets",
        "guides",
        "joins",
        "lands",
        "leaves",
        "lies",
        "moves",
        "needs",
        "reaches",
        "retraces",
        "sees",
        "sets",
        "stands",
        "stays",
        "stops",
        "takes",
        "turns",
        "uses",
        "waits",
    }
)

_WORD = re.compile(r"[^A-Za-z0-9]+")


def plural(name: str) -> bool:
    """True for a name of many ("Soviet Grenadiers", "Cavalrymen", "the second Rangers", the id
    "soviet-grenadiers#2"): its last word ends in -s (not -ss, -us) or in -men. A last word with a
    figure ("T-26 Series 1933", "3" Gun M5") names a model: one thing."""
    words = _WORD.split(name.partition("#")[0].strip(" \"'.,:;"))
    word = words[-1].lower() if words else ""
    if not word.isalpha() or word in SINGULAR or word.endswith(("ss", "us")):
        return False
    return word.endswith("men") or (word.endswith("s") and len(word) > 2)


def verb(subject: str, singular: str) -> str:
    """`singular` ("moves", "is", "has") as the subject needs it ("move", "are", "have")."""
    if not plural(subject):
        return singular
    if singular in IRREGULAR:
        return IRREGULAR[singular]
    if singular.endswith("ies") and len(singular) > 4:
        return singular[:-3] + "y"  # carries -> carry, flies -> fly
    if singular.endswith(("ches", "shes", "sses", "xes")):
        return singular[:-2]  # reaches -> reach
    if singular.endswith("s"):
        return singular[:-1]
    return singular
