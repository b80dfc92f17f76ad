"""Short names for counters: a few letters per unit, unique in the battle, read at arm's length.

A counter has room for about three letter widths at a size a player reads across the table,
so a card's name is cut down ("Panzer IV Ausf. G" -> "Pz IV", "SS Panzergrenadier" -> "PzGr") and copies
of one card are numbered ("98k", "98k 2"). Names are chosen by their printed width, not their length
("Mill" is narrower than "MMMM"): the widths are those of the UI's bold font, Liberation Sans Bold
(metric-compatible with Arial Bold), in ems.

A short name must read as the unit (`readable`): never a lone number or Roman numeral ("III", "109"),
never a word cut through a model number ("M13/.") or through one part of a compound ("Panz." for
Panzerfaust: "Faust"). A name that fits `FULL_EM` is printed at the full size; a more telling one up to
`MAX_EM` ("StuG III", "Schreck") is printed a little smaller (`scale`), before a word is cut ("Vick.").

A pure function of the names: no cards, no engine, no window, so it is tested on any set of names.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence

#: At most this many characters in a short name (copy numbers included).
LIMIT = 10
#: At most this wide, in ems of the bold font, at the name's full size: the counter's name plate inside
#: its rim (49 of the counter's 53 world units, less the three pixels the glyphs may round up to).
FULL_EM = 3.1
#: At most this wide at all: a name between FULL_EM and MAX_EM is printed smaller to fit (`scale`).
MAX_EM = 4.3

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
_DROP = {"ausf", "ausf.", "the", "of", "team", "modello", "model"}
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
    "fallschirmjager": "FJ",
    "fallshirmjager": "FJ",
    "oberleutnant": "Oblt",
    "leutnant": "Lt",
    "hauptmann": "Hptm",
    "headquarters": "HQ",
    "infantrymen": "Inf",
    "infantryman": "Inf",
    "cavalrymen": "Cav",
    "jagdpanzer": "JgPz",
    "panzerjager": "PzJg",
    "sturmpanzer": "StuPz",
    "jagdpanther": "JgPanth",
    "jagdtiger": "JgTiger",
    "engineer": "Engr",
    "engineers": "Engrs",
    "crocodile": "Croc",
    "observer": "FO",
    "partisans": "Partisan",
    "thompson": "Tommy",
}
#: Whole names better known by another ("King Tiger" is the Tiger II).
_ALIASES = {"king tiger": "Tiger II", "elephant": "Elefant", "concealed foreward observer": "FO"}
#: Words that say little on their own (every army has a "Rifle", and many an "Elite" unit): a last resort.
_WEAK = {
    "rifle",
    "gun",
    "mg",
    "gnr",
    "capt",
    "sgt",
    "lt",
    "type",
    "smg",
    "at",
    "elite",
    "veteran",
    "expert",
    "determined",
    "grizzled",
    "disciplined",
    "heroic",
    "fearless",
    "brave",
    "mk",
    "mk.",
    "no.",
}
#: The first part of a compound name, shortened so the telling part shows ("Panzerfaust" -> "Pz Faust").
_PREFIXES = {"panzer": "Pz"}
#: A Roman numeral (a model's mark: "III").
_ROMAN = re.compile(r"[IVX]+")
#: A model's mark alone says nothing ("Mk. 2").
_MARKS = {"mk", "mk.", "no", "no.", "model", "type"}


def _numbered(word: str) -> bool:
    """A word that is only a number, a Roman numeral, a variant letter or a mark ("109", "47/32", "III",
    "E", "Mk.")."""
    bare = word.strip(".")
    return (
        not any(c.isalpha() for c in bare)
        or bool(_ROMAN.fullmatch(bare))
        or (len(bare) == 1 and bare.isalpha())
        or word.lower() in _MARKS
    )


def readable(short: str) -> bool:
    """Whether a short name reads as a unit (a copy's number aside): not only numbers and marks, no word
    cut through a model number or after a hyphen or slash, no cut shorter than three letters."""
    words = short.split()
    if len(words) > 1 and words[-1].isdigit():
        words = words[:-1]  # a copy's number
    if not words or all(_numbered(w) for w in words):
        return False
    for word in words:
        if word.endswith(".") and word.lower() not in _MARKS and len(word) > 1:
            cut = word[:-1]
            if not cut.isalpha() or len(cut) < 3:
                return False
    return True


def scale(short: str) -> float:
    """The size a short name is printed at, as a share of the full size: 1 up to FULL_EM, less above
    (never under three quarters: MAX_EM)."""
    width = text_em(short)
    return 1.0 if width <= FULL_EM else FULL_EM / width


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


def _split(word: str) -> list[str]:
    """A compound word whose first part is a common one, in two: "Panzerfaust" -> "Pz", "Faust"."""
    lower = word.lower()
    if lower in _ABBREVIATIONS:
        return [word]
    for prefix, short in _PREFIXES.items():
        rest = word[len(prefix) :]
        if lower.startswith(prefix) and len(rest) >= 4 and rest.isalpha():
            return [short, rest[0].upper() + rest[1:]]
    return [word]


def _variant(name: str) -> str:
    """The model's variant letter ("Panzer IV Ausf. G" -> "G"), or ""."""
    found = re.search(r"\bAusf\.?\s*(\w{1,2})\b", name)
    return found.group(1) if found else ""


def _unquoted(word: str) -> str:
    """A word without its quotes, and without brackets round it ("(F)") or left open ("38(t)" stays)."""
    word = word.strip("\"'“”")
    if word.startswith("(") and word.endswith(")"):
        return word[1:-1]
    if word.count("(") != word.count(")"):
        return word.strip("()")
    return word


def _words(name: str) -> list[str]:
    """The name's words worth printing, abbreviated."""
    out: list[str] = []
    skip_next = False
    name = _ALIASES.get(name.lower(), name)
    for word in (_unquoted(w) for w in name.split()):
        lower = word.lower()
        if skip_next and len(word) <= 2:  # "Ausf. G": the variant letter
            skip_next = False
            continue
        skip_next = lower in ("ausf", "ausf.")
        if lower.startswith("ausf"):  # "Ausf.F2": the variant (`_variant`)
            continue
        if not word or lower in _DROP or (lower == "gun" and out and out[-1] in ("MG", "AT")):
            continue
        out.extend(_abbreviated(part) for part in _split(word))
    # "MG-42 Machine-Gun": the designation already says it ("Me" is no part of "Messerschmitt")
    return [w for i, w in enumerate(out) if not any(w in re.split(r"[-/ ]", other) for other in out[:i])]


def _designation(word: str) -> bool:
    """A model number ("98k", "M13/40", "KV-1"): the most telling word, if it is not too short."""
    return len(word) >= 3 and any(c.isdigit() for c in word)


def _candidates(name: str) -> Iterator[str]:
    """Short names for one card's name, the most telling first (no word cut short: see `_cuts`)."""
    yield from _head(name)
    yield from _rest(name)


def _head(name: str) -> Iterator[str]:
    """The first of `_candidates`: the whole name, its model and numbers, its leading or last words."""
    words = _words(name)
    if words:
        yield " ".join(words)
    yield from (w for w in words if _designation(w))
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(words)]
    variant = _variant(name)
    if variant:  # another card of the same model: "Pz IV G"
        yield from (f"{base} {variant}" for base in (" ".join(words), *pairs))
    yield from (f"{a} {b}" for a, b in itertools.pairwise(words) if _numbered(b))  # "StuG III"
    yield from (p for p in pairs if any(c.isdigit() for c in p))  # "92 MG", "Kfz 222"
    for count in range(len(words) - 1, 1, -1):  # the leading words: "PaK 38"
        yield " ".join(words[:count])
    strong = _strong(words)
    if strong and words[-1] == strong[-1]:
        yield words[-1]  # the last word often names the kind: "Sniper", "Mortar"


def _strong(words: list[str]) -> list[str]:
    """The words that tell a unit apart (not "Rifle", not "Elite", not a number)."""
    return [w for w in words if len(w) >= 3 and w.lower() not in _WEAK and not _numbered(w)]


def _rest(name: str) -> Iterator[str]:
    """The rest of `_candidates`: single words, the longest first, then the weak ones."""
    words = _words(name)
    strong = _strong(words)
    variant = _variant(name)
    if len(words) == 2 and len(words[0]) > 4 and _numbered(words[1]):  # "Crusader II" -> "Crus II"
        yield f"{words[0][:4]} {words[1]}"
    yield from sorted(strong, key=len, reverse=True)
    if variant:  # "StuG G"
        yield from (f"{base} {variant}" for base in strong)
    yield from (f"{a} {b}" for a, b in itertools.pairwise(strong))
    yield from (w for w in words if len(w) >= 3 and w.lower() in _WEAK)
    yield from (part for w in words for part in w.split("-") if len(part) >= 3)  # "Mosin"
    yield from (w for w in words if w.lower() in _WEAK)  # "MG"


def _cuts(name: str) -> Iterator[str]:
    """The last resorts: a word cut short ("Vick."), or the name's first letters."""
    words = _words(name)
    for word in (*reversed(words), *words):
        for cut in (4, 5, 3):
            if cut < len(word) - 1 and word.isalpha():
                yield word[:cut] + "."
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

    def first(bases: Iterator[str], width: float, count: int) -> list[str] | None:
        return next(
            (
                found
                for base in bases
                if readable(base)
                and _fits(found := _labels(base, count), limit, width)
                and not taken.intersection(found)
            ),
            None,
        )

    for name, count in copies.items():
        # a name at the full size that keeps the model's numbers ("Pz IV", "Mortar"), else the most
        # telling one that fits printed smaller ("StuG III", "Kfz 222", "Schreck"), else a word cut short
        numbers = [w for w in _words(name) if _numbered(w) and len(w.strip(".")) > 1]
        whole = (
            c
            for c in _head(name)
            if all(n in c.split() for n in numbers)
            and not all(w in _WEAK or _numbered(w) for w in c.lower().split())
        )
        labels = (
            first(whole, min(FULL_EM, max_em), count)
            or first(_candidates(name), max_em, count)
            or first(_cuts(name), max_em, count)
        )
        if labels is None:
            labels = next(
                (
                    found
                    for base in _cuts(name)
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
