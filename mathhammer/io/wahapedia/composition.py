"""What a unit is made of, from the export's text: model counts, points and loadouts.

The export describes a unit in prose: ``Datasheets_unit_composition.csv`` has lines such as
``1 Boss Nob``, ``9-19 Boyz``, ``OR`` between alternatives and ``1 Runtherd and 10
Gretchin``; ``Datasheets_models_cost.csv`` prices sizes (``10 models``, ``1 Spanner and 4
Burna Boyz``, ``+55`` for an extra model); the datasheet's ``loadout`` says in HTML who is
equipped with what. Names in one file are matched to names in another by their words,
singular and in lower case ("Boyz" is the "BOY" profile).

Examples
--------
>>> [(m.name, m.low, m.high, m.default) for m in composition(["1 Boss Nob", "9-19 Boyz"])]
[('Boss Nob', 1, 1, 1), ('Boyz', 9, 19, 9)]
>>> [(m.name, m.low, m.high, m.default) for m in composition(
...     ["1 Runtherd and 10 Gretchin", "OR", "2 Runtherds and 20 Gretchin"])]
[('Runtherd', 1, 2, 1), ('Gretchin', 10, 20, 10)]
>>> words("Boss Nob\\u2019s Boyz") == words("BOSS NOB'S BOY")
True
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Count", "best_match", "composition", "loadout", "points", "words"]

_TAG = re.compile(r"<[^>]*>")
_SEPARATOR = re.compile(r"^(?:or|one of the following):?$", re.IGNORECASE)
_CAP = re.compile(r"models maximum|maximum of \d+ models", re.IGNORECASE)
_COUNT = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?\s+(.+)$")
_PARTS = re.compile(r"(?:,\s*|\s+and\s+)(?=\d)")


def plain(text: str) -> str:
    """Text without HTML, with plain hyphens, apostrophes and spaces."""
    text = html.unescape(_TAG.sub("", text))
    for odd, even in (("\u2011", "-"), ("\u2019", "'"), ("\xa0", " ")):
        text = text.replace(odd, even)
    return " ".join(text.split())


def _singular(word: str) -> str:
    for suffix, repl in (("ies", "y"), ("es", "e"), ("s", ""), ("z", "")):
        if len(word) > 3 and word.endswith(suffix):
            return word[: -len(suffix)] + repl
    return word


def words(name: str) -> frozenset[str]:
    """The words of a name, singular and in lower case, for matching across files."""
    text = re.sub(r"['\u2019]s\b", "", plain(name).lower())
    return frozenset(_singular(w) for w in re.findall(r"[a-z0-9]+", text))


def best_match(name: str, candidates: Sequence[str]) -> int | None:
    """The index of the candidate sharing most words with ``name`` (None if none shares any);
    ties go to the candidate whose spelling is closest."""
    mine = words(name)
    scores = [_shared(mine, words(c)) for c in candidates]
    best = max(scores, default=0.0)
    if best == 0:
        return None
    return _closest(name, candidates, [i for i, s in enumerate(scores) if s == best])


def _shared(mine: frozenset[str], theirs: frozenset[str]) -> float:
    """The share of their words two names have in common, from 0 to 1."""
    return len(mine & theirs) / len(mine | theirs or {""})


def _closest(name: str, candidates: Sequence[str], tied: list[int]) -> int:
    """Of the candidates at the indices ``tied``, the one whose spelling is closest to
    ``name``."""
    close = difflib.get_close_matches(name.lower(), [candidates[i].lower() for i in tied], 1, 0.0)
    return next(i for i in tied if candidates[i].lower() == close[0])


@dataclass(frozen=True)
class Count:
    """One model type of a unit: how few, how many, and how many at the default size."""

    name: str
    low: int
    high: int
    default: int


def _alternatives(lines: Iterable[str]) -> list[list[str]]:
    """The composition lines grouped into the alternatives a unit may take."""
    groups: list[list[str]] = [[]]
    each_alone = False
    for line in _plain_lines(lines):
        if _SEPARATOR.match(line):
            each_alone |= line.lower().startswith("one of")
            groups.append([])
        elif each_alone:  # after "one of the following:" each line is an alternative
            groups.append([line])
        else:
            groups[-1].append(line)
    return list(filter(None, groups))


def _plain_lines(lines: Iterable[str]) -> list[str]:
    """The composition lines as plain text, without a cap on the total: the counts already
    bound the unit."""
    plain_lines = (plain(raw).strip().rstrip(".") for raw in lines)
    return [line for line in plain_lines if line and not _CAP.search(line)]


def composition(lines: Sequence[str]) -> list[Count]:
    """The model types of a unit from its composition lines (empty if none can be read).

    Across alternatives a type takes its fewest and most models; the default size is the
    first alternative's.
    """
    counts: dict[str, Count] = {}
    for number, group in enumerate(_alternatives(lines)):
        _count_alternative(counts, group, first=number == 0)
    return list(counts.values())


def _count_alternative(counts: dict[str, Count], group: Sequence[str], *, first: bool) -> None:
    """Count the model types of one alternative into ``counts``; a type it leaves out may
    have none."""
    seen = {_count(counts, name, low, high, first=first) for name, low, high in _counted(group)}
    for key in counts.keys() - seen:
        known = counts[key]
        counts[key] = Count(known.name, 0, known.high, known.default)


def _counted(group: Sequence[str]) -> list[tuple[str, int, int]]:
    """(name, fewest, most) of each model type the lines of one alternative count."""
    out = []
    for line in group:
        for part in _PARTS.split(re.sub(r"\s*\([^)]*\)", "", line)):
            out += _part_count(part)
    return out


def _part_count(part: str) -> list[tuple[str, int, int]]:
    """(name, fewest, most) of a part of a line such as "9-19 Boyz"; none if it counts no
    models."""
    found = _COUNT.match(part.strip())
    if not found:
        return []
    low = int(found[1])
    name = re.split(r"\s+[\u2013-]\s+", found[3])[0].strip()
    return [(name, low, int(found[2] or low))]


def _count(counts: dict[str, Count], name: str, low: int, high: int, *, first: bool) -> str:
    """Count a model type of an alternative into ``counts`` (by the words of its name): its
    key there."""
    key = next((k for k in counts if words(k) == words(name)), name)
    fewest = low if first else 0  # a type first named in a later alternative may have none
    known = counts.get(key, Count(name, fewest, high, fewest))
    default = low if first else known.default
    counts[key] = Count(known.name, min(known.low, low), max(known.high, high), default)
    return key


def points(description: str) -> int | None:
    """How many models a priced size has ("10 models", "1 Spanner and 4 Burna Boyz");
    None for an extra that adds to another size ("Attack Bike")."""
    found = re.findall(r"(?:^|,\s*|\s+and\s+)(\d+)\s+\S", plain(description))
    return sum(int(n) for n in found) if found else None


_EVERYONE = re.compile(r"^(?:this|every|each|all) (?:model|unit)s?\b")
_EQUIPPED = re.compile(r"^(.*?)\s+(?:is|are)(?: both)? equipped with:?\s*(.*)$", re.IGNORECASE)


def _items(text: str) -> list[tuple[int, str]]:
    """ "2 rokkit pistols; choppa." -> [(2, 'rokkit pistols'), (1, 'choppa')]."""
    listed = re.split(r"\.\s*(?=[A-Z*])", text, maxsplit=1)[0]  # prose may follow the list
    gear = []
    for item in re.split(r"[;,]", listed.rstrip(".")):
        count, name = _item(item)
        if name.lower() not in ("", "nothing"):
            gear.append((count, name.strip()))
    return gear


def _item(item: str) -> tuple[int, str]:
    """ "2 rokkit pistols" -> (2, 'rokkit pistols'); an item without a number is one."""
    counted = re.match(r"^(\d+)\s+(.+)$", item.strip())
    return (int(counted[1]), counted[2]) if counted else (1, item.strip())


def _who(text: str) -> tuple[str, ...]:
    """The model types a loadout paragraph names; none for every model."""
    if _EVERYONE.match(text.lower()):
        return ()
    names = []
    for part in re.split(r",\s*|\s+and\s+", text):
        part = re.sub(r"^(?:the|every|each|a|an|one|\d+)\s+(?:other\s+)?", "", part, flags=re.I)
        names.append(re.sub(r"\s+models?$", "", part.strip()))
    return tuple(filter(None, names))


def loadout(text: str) -> list[tuple[tuple[str, ...], list[tuple[int, str]]]]:
    """Who is equipped with what: (model types, [(count, item), ...]) per paragraph of a
    loadout; no model types means every model.

    Examples
    --------
    >>> loadout("<b>The Boss Nob and every Boy are equipped with:</b> 2 sluggas; choppa."
    ...         "<br><br><b>Each Tankbusta is equipped with:</b> rokkit launcha.")
    [(('Boss Nob', 'Boy'), [(2, 'sluggas'), (1, 'choppa')]),
     (('Tankbusta',), [(1, 'rokkit launcha')])]
    >>> loadout("This model is equipped with: nothing.")
    [((), [])]
    """
    out = []
    for paragraph in re.split(r"<br\s*/?>|\n", text):
        found = _EQUIPPED.match(plain(paragraph))
        if found:  # else a designer's note, not a loadout
            out.append((_who(found[1]), _items(found[2])))
    return out
