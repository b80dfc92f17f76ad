"""Short names for counters: a few letters per unit, unique in the battle, read at arm's length.

A counter has room for about three and a half letter widths at a size a player reads across the table,
so a card's name is cut down ("Panzer IV Ausf. G" -> "Pz IV", "SS Panzergrenadier" -> "PzGr") and copies
of one card are numbered ("98k", "98k 2"). Names are chosen by their printed width, not their length
("Mill" is narrower than "MMMM"): the widths are those of the UI's bold font, Liberation Sans Bold
(metric-compatible with Arial Bold), in ems.

A pure function of the names: no cards, no engine, no window, so it is tested on any set of names.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence

#: At most this many characters in a short name (copy numbers included).
LIMIT = 8
#: At most this wide, in ems of the bold font (the counter's name plate).
MAX_EM = 3.5

# Advance widths of Liberation Sans Bold in thousandths of an em, for the characters ' ' to '~'.
_ASCII_WIDTHS = (
    "280 330 470 560 560 890 720 240 330 330 390 580 280 330 280 280 560 560 560 560 560 560 560 560 560 "
    "560 330 330 580 580 580 610 980 720 720 720 720 670 610 780 720 280 560 720 610 830 720 780 670 780 "
    "720 670 610 720 670 940 670 670 610 330 280 330 580 560 330 560 610 560 610 560 330 610 610 280 280 "
    "560 280 890 610 610 610 610 390 560 330 610 560 780 560 560 500 390 280 390 580"
)
_WIDTH = {chr(32 + i): int(w) / 1000 for i, w in enumerate(_ASCII_WIDTHS.split())}
#: A character the table doesn't know counts as this wide (wider than any it knows: never too narrow).
_UNKNOWN = 1.0

#: Words a counter leaves out ("Ausf." also takes the variant letter after it).
_DROP = {"ausf", "ausf.", "the", "team", "modello", "model"}
#: Military abbreviations for long words, by lower-case word.
_ABBREVIATIONS = {
    "panzer": "Pz",
    "panzergrenadier": "PzGr",
    "haupsturmfuhrer": "Hstuf",
    "hauptsturmfuhrer": "Hstuf",
    "lieutenant": "Lt",
    "light": "Lt",
    "captain": "Capt",
    "sergeant": "Sgt",
    "machine-gun": "MG",
    "machine": "MG",
    "anti-tank": "AT",
    "antitank": "AT",
    "half-track": "HT",
    "rifleman": "Rifle",
    "pounder": "Pdr",
    "gunner": "Gnr",
    "pioneers": "Pion",
}
#: Words that say little on their own (every army has a "Rifle"): a last resort.
_WEAK = {"rifle", "gun", "mg", "gnr", "capt", "sgt", "lt", "type", "smg", "at"}


def text_em(text: str) -> float:
    """How wide `text` prints in the bold font, in ems (accents count as their letter)."""
    total = 0.0
    for char in text:
        if char not in _WIDTH:
            base = unicodedata.normalize("NFKD", char)[:1]
            total += _WIDTH.get(base, _UNKNOWN)
        else:
            total += _WIDTH[char]
    return total


def _abbreviated(word: str) -> str:
    found = _ABBREVIATIONS.get(word.lower())
    if found is not None:
        return found
    if "-" in word.strip("-"):  # "6-Pounder" -> "6-Pdr"
        return "-".join(_ABBREVIATIONS.get(part.lower(), part) for part in word.split("-"))
    return word


def _words(name: str) -> list[str]:
    """The name's words worth printing, abbreviated."""
    out: list[str] = []
    skip_next = False
    for word in (w.strip("\"'“”()") for w in name.split()):
        lower = word.lower()
        if skip_next and len(word) <= 2:  # "Ausf. G": the variant letter
            skip_next = False
            continue
        skip_next = lower.startswith("ausf")
        if not word or lower in _DROP or (lower == "gun" and out and out[-1] in ("MG", "AT")):
            continue
        out.append(_abbreviated(word))
    # "MG-42 Machine-Gun": the designation already says it
    return [w for i, w in enumerate(out) if not any(w in other for other in out[:i])]


def _designation(word: str) -> bool:
    """A model number ("98k", "M13/40", "KV-1"): the most telling word, if it is not too short."""
    return len(word) >= 3 and any(c.isdigit() for c in word)


def _candidates(name: str) -> Iterator[str]:
    """Short names for one card's name, the most telling first."""
    words = _words(name)
    if words:
        yield " ".join(words)
    if len(words) == 2 and len(words[0]) > 4:  # "Crusader II" -> "Crus II"
        yield f"{words[0][:4]} {words[1]}"
    yield from (w for w in words if _designation(w))
    for count in range(len(words) - 1, 1, -1):  # the leading words: "PaK 38"
        yield " ".join(words[:count])
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(words)]
    yield from (p for p in pairs if any(c.isdigit() for c in p))  # "92 MG"
    strong = [w for w in words if len(w) >= 3 and w.lower() not in _WEAK]
    if strong and words[-1] == strong[-1]:
        yield words[-1]  # the last word often names the kind: "Sniper", "Mortar"
    yield from sorted(strong, key=len, reverse=True)
    yield from (w for w in words if len(w) >= 3 and w.lower() in _WEAK)
    yield from (part for w in words for part in w.split("-") if len(part) >= 3)  # "Mosin"
    for word in (*reversed(words), *words):  # a cut word: "Vick."
        for cut in (4, 5, 3):
            if cut < len(word) - 1:
                yield word[:cut] + "."
    yield from (w for w in words if w.lower() in _WEAK)  # "MG"
    letters = re.sub(r"\s+", "", name) or "?"
    for cut in range(min(LIMIT, len(letters)), 0, -1):
        yield letters[:cut]


def _codes() -> Iterator[str]:
    """A, B, ..., Z, AA, AB, ...: marks that tell apart different cards whose names cut down alike."""
    width = 1
    while True:
        for n in range(26**width):
            code = ""
            for _ in range(width):
                n, digit = divmod(n, 26)
                code = chr(65 + digit) + code
            yield code
        width += 1


def _fits(labels: Sequence[str], limit: int, max_em: float) -> bool:
    return all(len(label) <= limit and text_em(label) <= max_em for label in labels)


def _labels(base: str, copies: int) -> list[str]:
    return [base] + [f"{base} {n}" for n in range(2, copies + 1)]


def short_names(names: Sequence[str], *, limit: int = LIMIT, max_em: float = MAX_EM) -> list[str]:
    """A short name per entry of `names` (card names, one per unit), unique among them all.

    Equal names are copies of one card: the first keeps the short name, the others get " 2", " 3", ...
    in their order. Each result has at most `limit` characters and prints at most `max_em` wide
    (always for a battle's units: up to 30 of them, up to 15 copies of a card).
    """
    copies: dict[str, int] = {}
    for name in names:
        copies[name] = copies.get(name, 0) + 1
    taken: set[str] = set()
    chosen: dict[str, list[str]] = {}
    for name, count in copies.items():
        labels = next(
            (
                found
                for base in _candidates(name)
                if _fits(found := _labels(base, count), limit, max_em) and not taken.intersection(found)
            ),
            None,
        )
        if labels is None:  # every cut is another card's: a letter marks this one
            stem = re.sub(r"\s+", "", name)[:limit] or "?"
            for code in _codes():
                cut = len(stem)
                while cut > 0 and not _fits(_labels(stem[:cut] + code, count), limit, max_em):
                    cut -= 1
                labels = _labels(stem[:cut] + code, count)
                if len(labels[-1]) <= limit and not taken.intersection(labels):
                    break
        assert labels is not None
        taken.update(labels)
        chosen[name] = labels
    seen: dict[str, int] = {}
    out = []
    for name in names:
        out.append(chosen[name][seen.get(name, 0)])
        seen[name] = seen.get(name, 0) + 1
    return out
