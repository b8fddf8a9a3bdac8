"""The model types of one datasheet: profiles, counts, characters, loadouts and points."""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import chain

from ...units.datasheet import MAX_COPIES, AbilityText, ModelProfile, Wargear
from ..defences import UnreadAbility, read_ability
from .composition import Count, best_match, composition, loadout, plain, points, words
from .tables import Row

__all__ = ["model_profiles", "points_brackets", "row_abilities"]

_MODELS_FILE = "Datasheets_models.csv"
_TAG = re.compile(r"<[^>]*>")


#: How a characteristic is written, by whether it is a roll: the suffix it may end in, and
#: the shape its error asks for.
_SHAPES = {False: ("", "a whole number"), True: ("+", "a roll such as '3+'")}


def _number(row: Row, column: str, roll: bool = False) -> int:
    """A characteristic as an int: ``4``, ``3+`` (a roll), ``5*`` (a footnoted value)."""
    suffix, shape = _SHAPES[roll]
    text = row[column].strip().rstrip("*").removesuffix(suffix)
    if not text.isdigit():
        raise ValueError(
            f"{_MODELS_FILE}:{row.line}: column {column!r}: expected {shape}; got {row[column]!r}"
        )
    return int(text)


def _invuln(row: Row) -> tuple[int | None, list[AbilityText]]:
    """The model's invulnerable save, read with its footnote (``inv_sv_descr``)."""
    raw = row["inv_sv"].strip()
    value = None if raw in ("", "-") else _number(row, "inv_sv", roll=True)
    if not _invuln_note(row) and "*" not in raw:
        return value, []
    return _footnoted_invuln(row, value)


def _invuln_note(row: Row) -> str:
    """The footnote of the model's invulnerable save, "" for none or for a note naming the
    very model of the row ("Ibram Gaunt only.", which changes nothing)."""
    note = plain(row.get("inv_sv_descr"))
    if note and words(re.sub(r"\b(?:models?|only)\b", "", note)) == words(row["name"]):
        return ""
    return note


def _footnoted_invuln(row: Row, value: int | None) -> tuple[int | None, list[AbilityText]]:
    """The invulnerable save its footnote gives, and the footnote if it is not understood."""
    name = f"Invulnerable Save ({value}+*)" if value else "Invulnerable Save"
    ability = AbilityText(name, row.get("inv_sv_descr").strip())
    fields, reason, _ = read_ability(ability)
    listed: list[AbilityText] = [UnreadAbility(name, ability.text, reason)] if reason else []
    given = fields.get("invuln")
    return (int(given) if given is not None else None), listed


def _is_character(profile: Row, keywords: Sequence[Row]) -> bool:
    """Whether a keyword row that is about this profile makes it a CHARACTER."""
    return any(
        _applies(row, profile) and row["keyword"].strip().lower() == "character" for row in keywords
    )


def _applies(row: Row, profile: Row) -> bool:
    """Whether a keyword row is about this profile: about all models, or naming it."""
    model = re.sub(r"\s+only$", "", row["model"].strip(), flags=re.IGNORECASE)
    return model.upper() in ("", "ALL MODELS") or words(model) == words(profile["name"])


def _gear_names(gear: Sequence[Wargear]) -> dict[frozenset[str], list[str]]:
    """Wargear names by their words ("Staff of light" and "Staff of light (melee)" share)."""
    out: dict[frozenset[str], list[str]] = {}
    for g in gear:
        base = re.sub(r"\s*\((?:melee|ranged)\)'*$", "", g.name).rstrip("'")
        out.setdefault(words(base), []).append(g.name)
    return out


def _targets(
    who: Sequence[str], counts: Sequence[Count], chosen: Mapping[int, object]
) -> list[int]:
    """The model types a loadout paragraph is about: those it names, or else those without
    a loadout yet (all of them that are left, for a paragraph about every model)."""
    return _named_types(who, counts) or [i for i in range(len(counts)) if i not in chosen]


def _named_types(who: Sequence[str], counts: Sequence[Count]) -> list[int]:
    """The model types a loadout paragraph names, as found among the unit's."""
    names = [c.name for c in counts]
    return [i for w in who if (i := best_match(w, names)) is not None]


def _loadouts(text: str, counts: Sequence[Count], gear: Sequence[Wargear]) -> list[list[str]]:
    """The default wargear of each model type, from the datasheet's loadout text."""
    names = _gear_names(gear)
    chosen: dict[int, list[str]] = {}
    for who, items in loadout(text):
        carried = _numbered(_wargear_of(items, names))
        for i in _targets(who, counts, chosen):
            chosen.setdefault(i, carried)  # the first paragraph naming a model type is its loadout
    return [chosen.get(i, []) for i in range(len(counts))]


def _wargear_of(
    items: Sequence[tuple[int, str]], names: Mapping[frozenset[str], list[str]]
) -> list[tuple[int, str]]:
    """The wargear (by name, with its count) of the items of a loadout paragraph."""
    return [(count, n) for count, item in items for n in names.get(words(item), [])]


def _numbered(carried: Sequence[tuple[int, str]]) -> list[str]:
    """Wargear names, a piece carried several times named once per copy ("Lascannon #2");
    a ``ValueError`` (the datasheet skipped) past :data:`MAX_COPIES` copies of one piece."""
    totals: Counter[str] = Counter()
    for count, name in carried:
        totals[name] += count
    name, most = max(totals.items(), key=lambda item: item[1], default=("", 0))
    if most > MAX_COPIES:
        raise ValueError(f"its loadout names {most} copies of {name!r}: at most {MAX_COPIES}")
    out: list[str] = []
    copies: Counter[str] = Counter()
    for count, name in carried:
        for _ in range(count):
            copies[name] += 1  # the name itself, then "name #2", "name #3"
            out.append(f"{name} #{copies[name]}" if copies[name] > 1 else name)
    return out


def _copies(gear: Sequence[Wargear], carried: Sequence[Sequence[str]]) -> list[Wargear]:
    """The wargear plus a piece per extra copy a model carries: a model's weapons need
    distinct names, and each copy attacks on its own ([BLAST] and [RAPID FIRE] count per
    weapon)."""
    by_name = {g.name: g for g in gear}
    extra = {
        name: Wargear(name, by_name[name.rsplit(" #", 1)[0]].profiles)
        for name in chain.from_iterable(carried)
        if name not in by_name
    }
    return [*gear, *extra.values()]


def _profile(row: Row, count: Count, keywords: Sequence[Row], **fields: object) -> ModelProfile:
    """One model type: the characteristics of its profile row, the counts of its type."""
    return ModelProfile(
        count.name,
        toughness=_number(row, "T"),
        save=_number(row, "Sv", roll=True),
        wounds=_number(row, "W"),
        character=_is_character(row, keywords),
        min_count=count.low,
        max_count=count.high,
        default_count=count.default,
        leadership=_number(row, "Ld", roll=True),
        oc=_number(row, "OC"),
        movement=row["M"].strip(),
        **fields,  # type: ignore[arg-type]
    )


def _unnamed(names: Sequence[str], matched: Sequence[int | None]) -> int:
    """The profile row of a model type no row is named after: "OTHER MODELS", else the
    first row no other type took, else the first."""
    for i, name in enumerate(names):
        if "other" in words(name):
            return i
    return next((i for i in range(len(names)) if i not in matched), 0)


def _footnotes(row: Row) -> tuple[int | None, list[AbilityText]]:
    """The invulnerable save of a profile row, and the footnotes of its characteristics
    that are not understood."""
    invuln, listed = _invuln(row)
    if "*" in row["T"]:
        note = f"Toughness {row['T'].strip()}"
        listed.append(UnreadAbility(note, "", "a footnoted Toughness: see the datasheet"))
    return invuln, listed


def model_profiles(
    rows: Sequence[Row],
    lines: Sequence[str],
    keywords: Sequence[Row],
    loadout_text: str,
    gear: Sequence[Wargear],
) -> tuple[list[ModelProfile], list[Wargear], list[AbilityText]]:
    """The model types of a datasheet, its wargear (with the copies a loadout carries), and
    the footnotes of their characteristics that are not understood.

    Every model type may take any of the datasheet's wargear: the export says who carries
    what only in the prose of its wargear options.
    """
    counts = _counts(rows, lines)
    carried = _loadouts(loadout_text, counts, gear)
    gear = _copies(gear, carried)
    profiles, unread = _profiles(rows, counts, carried, keywords, tuple(g.name for g in gear))
    return profiles, gear, unread


def _counts(rows: Sequence[Row], lines: Sequence[str]) -> list[Count]:
    """The model types of the composition lines; else one of each profile row."""
    if not rows:
        raise ValueError(f"{_MODELS_FILE}: the datasheet has no model profile")
    return composition(lines) or [Count(plain(r["name"]), 1, 1, 1) for r in rows]


def _profiles(
    rows: Sequence[Row],
    counts: Sequence[Count],
    carried: Sequence[Sequence[str]],
    keywords: Sequence[Row],
    options: tuple[str, ...],
) -> tuple[list[ModelProfile], list[AbilityText]]:
    """A profile per model type, from the profile row named after it (else
    :func:`_unnamed`), and the footnotes of the rows that are not understood."""
    profiles: list[ModelProfile] = []
    unread: dict[AbilityText, None] = {}  # each footnote once, in order
    for count, weapons, row in zip(counts, carried, _profile_rows(rows, counts), strict=True):
        invuln, listed = _footnotes(row)
        unread.update(dict.fromkeys(listed))
        profiles.append(
            _profile(row, count, keywords, invuln=invuln, weapons=tuple(weapons), options=options)
        )
    return profiles, list(unread)


def _profile_rows(rows: Sequence[Row], counts: Sequence[Count]) -> list[Row]:
    """The profile row of each model type: the one named after it, else :func:`_unnamed`."""
    names = [r["name"] for r in rows]
    matched = [best_match(c.name, names) for c in counts]
    unnamed = _unnamed(names, matched)
    return [rows[unnamed if i is None else i] for i in matched]


def points_brackets(rows: Sequence[Row]) -> tuple[list[tuple[int, int]], list[tuple[str, Row]]]:
    """(models, points) brackets, and the priced lines that are not one (with why)."""
    brackets: dict[int, int] = {}
    skipped = []
    for row in rows:
        size, cost = points(row["description"]), row["cost"].strip()
        if size is None or not cost.isdigit():
            skipped.append(
                (f"an extra cost is not a points bracket: {row['description']!r} {cost!r}", row)
            )
        elif size in brackets:
            skipped.append(
                (
                    f"a second price for {size} models ({plain(row['description'])}): "
                    f"the first, {brackets[size]}, is kept",
                    row,
                )
            )
        else:
            brackets[size] = int(cost)
    return sorted(brackets.items()), skipped


def row_abilities(
    rows: Sequence[Row], texts: Mapping[str, tuple[str, str]]
) -> tuple[list[AbilityText], list[AbilityText]]:
    """A datasheet's abilities from ``Datasheets_abilities.csv``: (the unit's, its wargear's).

    A core or faction ability is a reference (``ability_id``) into ``Abilities.csv`` with a
    ``parameter`` ("Feel No Pain" and "5+"); the others carry their own name and text.
    """
    unit: list[AbilityText] = []
    wargear: list[AbilityText] = []
    for row in rows:
        name, text = _row_ability(row, texts)
        if name:
            kind = wargear if "wargear" in row.get("type").lower() else unit
            kind.append(AbilityText(name, text))
    return unit, wargear


def _row_ability(row: Row, texts: Mapping[str, tuple[str, str]]) -> tuple[str, str]:
    """The name (with its parameter) and text of an ability row: its own, else those of the
    shared ability it refers to."""
    shared = texts.get(row["ability_id"].strip())
    name, text = shared if shared and not row["name"].strip() else (row["name"], row["description"])
    name = " ".join(html.unescape(_TAG.sub("", name)).split() + row.get("parameter").split())
    return name, text.strip()
