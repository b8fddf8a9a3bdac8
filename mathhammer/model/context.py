"""The explicit inputs an attack needs besides the profiles: its context and its modifiers.

:class:`Context` says what happened on the table (within half range, remained
stationary, charged, target in cover, ...); abilities read it. :class:`Modifiers`
holds the buffs and debuffs in play: roll modifiers (the net modifier to a hit or a
wound roll is capped at +/-1), characteristic changes (BS/WS, S, AP, D, which are
not roll modifiers), critical thresholds and re-rolls.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, fields, replace
from functools import cache, partial
from typing import Any

from ..core.dice import Dice
from ..core.frozen import hash_once
from ..errors import ProfileError, field_error
from .fields import check_int, flag_field, is_integer, read_dice

# REROLL_ONE and damage_reroll_below, once defined here, are still importable from here
from .rerolls import REROLL_ONE as REROLL_ONE
from .rerolls import (
    REROLLS,
    check_policy,
    check_reroll_damage,
    check_reroll_one,
    damage_reroll_rank,
    reroll_rank,
)
from .rerolls import damage_reroll_below as damage_reroll_below

__all__ = [
    "CORE_STATES",
    "REROLLS",
    "assumption_name",
    "Context",
    "Modifiers",
    "default_context",
    "default_modifiers",
]


def _flag(owner: Any, name: str) -> None:
    """Check a True/False field (numpy booleans too) and store it as a bool."""
    value = flag_field(type(owner).__name__, name, getattr(owner, name))
    object.__setattr__(owner, name, value)


def _int(owner: Any, name: str, low: int, high: int) -> None:
    """Check an integer field (numpy integers too) and store it as an int."""
    value = check_int(f"{type(owner).__name__}.{name}", getattr(owner, name), low, high)
    object.__setattr__(owner, name, value)


def _choice(owner: Any, name: str, allowed: tuple[str, ...]) -> None:
    """Check a field that takes one of a few words; the error lists them."""
    value = getattr(owner, name)
    if value not in allowed:
        wanted = " or ".join(repr(word) for word in allowed)
        raise field_error(ProfileError, f"{type(owner).__name__}.{name}", wanted, value)


#: Named states the core rules read, assumed like any other: with the Fire Overwatch
#: stratagem, a ranged attack hits only on an unmodified 6 unless a rule of the unit says
#: otherwise (docs/rules.md D45).
CORE_STATES = {"fire overwatch": "the unit shoots with the Fire Overwatch stratagem"}


def assumption_name(text: object) -> str:
    """A named state as users type it: lower case, single spaces, no end punctuation.

    Examples
    --------
    >>> assumption_name("  Riled   Up! ")
    'riled up'
    """
    if not isinstance(text, str):
        raise field_error(ProfileError, "Context.assume", "names (strings)", text)
    name = " ".join(text.replace("\u2019", "'").split()).strip(" .!").lower()
    if not name:
        raise field_error(ProfileError, "Context.assume", "non-empty names", text)
    return name


def _assumed(value: object) -> frozenset[str]:
    """``Context.assume`` read: one name or a collection of names, normalised."""
    if isinstance(value, str):
        value = (value,)
    if not isinstance(value, Iterable):
        raise field_error(
            ProfileError, "Context.assume", "a name or a set of names", value, "e.g. {'riled up'}"
        )
    return frozenset(assumption_name(v) for v in value)


def _group(key: object) -> int | str | None:
    """A group named as :meth:`Unit.group_index` takes it: an index or a label (which
    CHARACTER group of the target it names is checked when the target is known)."""
    if key is None or (isinstance(key, str) and key.strip()):
        return key
    if is_integer(key) and key >= 0:
        return int(key)
    raise field_error(
        ProfileError,
        "Context.precision_group",
        "None, a group's index (an integer >= 0) or its label (a non-empty string)",
        key,
    )


@hash_once
@dataclass(frozen=True)
class Context:
    """What happened on the table, as the abilities need it.

    Parameters
    ----------
    half_range : bool
        The target is within half range ([RAPID FIRE], [MELTA]).
    remained_stationary : bool
        The attacking unit remained stationary ([HEAVY]; [INDIRECT FIRE] with a spotter).
    moved_at_most_3 : bool
        The attacking unit moved no more than 3" ([HEAVY]); implied by ``remained_stationary``.
    set_up_this_turn, engaged : bool
        [HEAVY] needs the unit unengaged and not set up this turn.
    charged : bool
        The attacking unit charged this turn ([LANCE]).
    melee : bool
        Melee attacks: cover does not apply, [CLEAVE] may. Ranged by default.
    single_target : bool
        All the weapon's attacks target one unit ([CLEAVE]).
    target_in_cover : bool
        The target has the benefit of cover (ranged attacks only).
    spotted : bool
        A friendly unit sees the target ([INDIRECT FIRE] hits on 4+ instead of 6+ when
        the attacking unit also remained stationary).
    lethal_hits : {"auto", "roll"}
        11e lets the attacker roll to wound a Critical Hit instead of wounding
        automatically (to fish for Critical Wounds); ``"auto"`` is the default.
    reroll_policy : {"failures", "non_critical"}
        What a granted re-roll ([TWIN-LINKED]) re-rolls: failed results (default) or
        every non-critical result.
    precision_group : int or str, optional
        The CHARACTER group that [PRECISION] makes the current allocation group, by its
        index (from 0) or its label; the first CHARACTER group of the target by default.
    attacker_monster_or_vehicle : bool
        Every model of the attacking unit is a MONSTER or VEHICLE ([HAZARDOUS] deals 3
        mortal wounds instead of 1).
    strict_save : bool
        Classic ruleset only: read the save literally, saved on a roll *higher than* Sv
        (the default saves on a roll equal to or higher than Sv).
    assume : str or set of str
        Named states of the game that no profile records and that the units' rules
        depend on ("riled up", "waaagh", "objective", "once per battle: <rule>"): a
        rule conditional on one applies when it is assumed here (docs/rules.md D37).
        ``"fire overwatch"`` is the core rules' own (:data:`CORE_STATES`): ranged attacks
        then hit only on an unmodified 6, or as a rule of the unit says (D45).

    Examples
    --------
    >>> Context(half_range=True).heavy_eligible
    False
    >>> Context(remained_stationary=True).heavy_eligible
    True
    """

    half_range: bool = False
    remained_stationary: bool = False
    moved_at_most_3: bool = False
    set_up_this_turn: bool = False
    engaged: bool = False
    charged: bool = False
    melee: bool = False
    single_target: bool = True
    target_in_cover: bool = False
    spotted: bool = False
    lethal_hits: str = "auto"
    reroll_policy: str = "failures"
    precision_group: int | str | None = None
    attacker_monster_or_vehicle: bool = False
    strict_save: bool = False
    assume: Collection[str] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "assume", _assumed(self.assume))
        for name in _FLAGS:
            _flag(self, name)
        for name, allowed in _CONTEXT_CHOICES.items():
            _choice(self, name, allowed)
        object.__setattr__(self, "precision_group", _group(self.precision_group))

    @property
    def heavy_eligible(self) -> bool:
        """[HEAVY] applies: unengaged, not set up this turn, moved no more than 3"."""
        moved_little = self.remained_stationary or self.moved_at_most_3
        return moved_little and not self.engaged and not self.set_up_this_turn

    def changes(self) -> list[str]:
        """The fields that differ from ``Context()``: a flag by its name, any other field
        as ``name value``.

        Examples
        --------
        >>> Context(half_range=True, lethal_hits="roll").changes()
        ['half_range', 'lethal_hits roll']
        """
        changed = _changed(self, _CONTEXT_DEFAULTS)
        assumed = changed.pop("assume", ())  # the last field: its states come last
        out = [name if value is True else f"{name} {value}" for name, value in changed.items()]
        return out + [f"assume {state}" for state in sorted(assumed)]

    def combined(self, base: Context | None) -> Context:
        """``base`` with this context's changes on top: each field this context changes
        from ``Context()`` is this context's; every other field is ``base``'s.

        Examples
        --------
        >>> Context(half_range=True).combined(Context(charged=True)).changes()
        ['half_range', 'charged']
        """
        if base is None:
            return self
        changed = _changed(self, _CONTEXT_DEFAULTS)
        if "assume" in changed:  # the states assumed by either
            changed["assume"] = changed["assume"] | base.assume
        return replace(base, **changed) if changed else base


def _changed(owner: Context | Modifiers, defaults: dict[str, Any]) -> dict[str, Any]:
    """The fields whose values differ from the defaults, by name, in the order of the
    defaults (the order of the fields)."""
    values = {name: getattr(owner, name) for name in defaults}
    return {name: value for name, value in values.items() if value != defaults[name]}


@hash_once
@dataclass(frozen=True, init=False)
class Modifiers:
    """Buffs and debuffs on the attacks.

    Parameters
    ----------
    hit, wound : int
        Roll modifiers; the net modifier of each roll, abilities included, is capped
        at +/-1.
    skill : int
        A change to the BS/WS threshold: ``+1`` worsens 3+ to 4+ (as cover does),
        ``-1`` improves it. The result stays within 2+..6+.
    strength, ap : int
        Added to S (minimum 1) and to AP (``ap=-1`` improves AP by one; AP stays <= 0).
    damage_set : int, str or Dice, optional
        Sets the Damage characteristic (applied first); stored as a
        :class:`~mathhammer.core.dice.Dice`.
    damage_multiply : int
        Multiplies damage (after setting).
    damage_add : int
        Added to damage (after multiplying); [MELTA] adds here too.
    critical_hit, critical_wound : int
        The unmodified roll from which a hit or wound is critical (6 by default; 5
        means 5+).
    reroll_hits, reroll_wounds : {"ones", "failures", "non_critical"}, optional
        Re-rolls of the hit and wound rolls. A die is re-rolled at most once.
    reroll_damage : {"ones", "below:N", "optimal"}, optional
        Re-roll the damage dice of every attack showing 1 (``"ones"``) or N or less
        (``"below:2"``), each die once; or (``"optimal"``) each attack's damage roll when a
        new roll is expected to take more wounds from the model it strikes, its wounds left
        in view (docs/rules.md D31).
    reroll_one : {"hit", "wound", "hit:at_least", "wound:at_least", "damage"}, optional
        A command re-roll: one hit, wound or damage roll of each pool re-rolled. ``"hit"``
        re-rolls a failed die, or, when none failed and a critical is worth more than it
        risks, a non-critical success (to raise the expected damage); ``"hit:at_least"``
        only ever a failed die (the most likely to reach any number of hits). It
        contradicts a re-roll of every failure of the same roll (docs/rules.md §1.4, D30).
        ``"damage"`` re-rolls the first damage roll that a new roll would beat against the
        model it strikes (D32); it contradicts ``reroll_damage``.

    Examples
    --------
    >>> Modifiers(hit=1, reroll_wounds="ones").reroll_wounds
    'ones'
    """

    hit: int
    wound: int
    skill: int
    strength: int
    ap: int
    damage_set: Dice | None
    damage_multiply: int
    damage_add: int
    critical_hit: int
    critical_wound: int
    reroll_hits: str | None
    reroll_wounds: str | None
    reroll_damage: str | None
    reroll_one: str | None

    def __init__(
        self,
        hit: int = 0,
        wound: int = 0,
        skill: int = 0,
        strength: int = 0,
        ap: int = 0,
        damage_set: Dice | int | str | None = None,
        damage_multiply: int = 1,
        damage_add: int = 0,
        critical_hit: int = 6,
        critical_wound: int = 6,
        reroll_hits: str | None = None,
        reroll_wounds: str | None = None,
        reroll_damage: str | None = None,
        reroll_one: str | None = None,
    ) -> None:
        # store the arguments as given; the checks below validate and convert them
        values = dict(locals())
        del values["self"]
        for name, value in values.items():
            object.__setattr__(self, name, value)
        for name, (low, high) in _INT_RANGES.items():
            _int(self, name, low, high)
        _check_rerolls(self)
        if damage_set is not None:
            object.__setattr__(self, "damage_set", _damage_set(damage_set))

    def changes(self) -> list[str]:
        """The fields that differ from ``Modifiers()``, as ``name value`` (a signed number
        for the roll and characteristic changes).

        Examples
        --------
        >>> Modifiers(hit=1, ap=-1, reroll_wounds="ones").changes()
        ['hit +1', 'ap -1', 'reroll_wounds ones']
        """
        changed = _changed(self, _MODIFIER_DEFAULTS)
        return [
            f"{name} {value:+d}" if name in _SUMMED else f"{name} {value}"
            for name, value in changed.items()
        ]

    def combined(self, base: Modifiers | None) -> Modifiers:
        """Both buffs at once: roll modifiers and changes to characteristics add up
        (the rules still cap each roll's net modifier at +/-1), multipliers multiply, the
        lower critical threshold and the wider re-roll apply, and this one's damage set
        (if any) replaces ``base``'s.

        Examples
        --------
        >>> buff = Modifiers(hit=1, reroll_hits="ones")
        >>> buff.combined(Modifiers(ap=-1, reroll_hits="failures")).changes()
        ['hit +1', 'ap -1', 'reroll_hits failures']
        """
        if base is None:
            return self
        return Modifiers(
            **{
                name: combine(getattr(self, name), getattr(base, name))
                for name, combine in _COMBINE.items()
            }
        )


def _check_rerolls(modifiers: Modifiers) -> None:
    """Check the re-roll fields of Modifiers, each one and against each other."""
    for name in ("reroll_hits", "reroll_wounds"):
        check_policy(name, getattr(modifiers, name))
    if modifiers.reroll_one is not None:
        check_reroll_one(
            modifiers.reroll_one,
            modifiers.reroll_hits,
            modifiers.reroll_wounds,
            modifiers.reroll_damage,
        )
    check_reroll_damage(modifiers.reroll_damage)


def _unless_none(value: Any, base: Any) -> Any:
    """``value``, or ``base`` where ``value`` is None: the one set replaces the other."""
    return base if value is None else value


#: The fields of Modifiers that add up when two buffs combine.
_SUMMED = ("hit", "wound", "skill", "strength", "ap", "damage_add")
#: The range of each integer field of Modifiers.
_INT_RANGES = {
    **dict.fromkeys(_SUMMED, (-20, 20)),
    "damage_multiply": (1, 10),
    "critical_hit": (2, 6),
    "critical_wound": (2, 6),
}
#: Each field's value in ``Modifiers()``.
_MODIFIER_DEFAULTS: dict[str, Any] = {
    "hit": 0, "wound": 0, "skill": 0, "strength": 0, "ap": 0, "damage_set": None,
    "damage_multiply": 1, "damage_add": 0, "critical_hit": 6, "critical_wound": 6,
    "reroll_hits": None, "reroll_wounds": None, "reroll_damage": None, "reroll_one": None,
}  # fmt: skip
#: How each field of Modifiers combines with ``base``'s in :meth:`Modifiers.combined`.
_COMBINE: dict[str, Callable[[Any, Any], Any]] = {
    **dict.fromkeys(_SUMMED, operator.add),
    "damage_set": _unless_none,
    "damage_multiply": operator.mul,
    "critical_hit": min,
    "critical_wound": min,
    "reroll_hits": partial(max, key=reroll_rank),
    "reroll_wounds": partial(max, key=reroll_rank),
    "reroll_damage": partial(max, key=damage_reroll_rank),
    "reroll_one": _unless_none,
}
#: The Context flags (True/False fields), in the order of the fields.
_FLAGS = tuple(f.name for f in fields(Context) if isinstance(f.default, bool))
#: The Context fields that take one of a few words, and the words.
_CONTEXT_CHOICES = {"lethal_hits": ("auto", "roll"), "reroll_policy": ("failures", "non_critical")}
#: Each field's value in ``Context()``.
_CONTEXT_DEFAULTS: dict[str, Any] = {
    f.name: frozenset() if f.name == "assume" else f.default for f in fields(Context)
}


def _damage_set(value: Dice | int | str) -> Dice:
    """``Modifiers.damage_set`` read as dice of at least 1."""
    dice = read_dice(value, "Modifiers.damage_set")
    if dice.min < 1:
        raise field_error(ProfileError, "Modifiers.damage_set", "at least 1", dice.text)
    return dice


@cache
def default_context() -> Context:
    """``Context()``, made once: contexts are immutable, and a default one is asked for on
    every attack."""
    return Context()


@cache
def default_modifiers() -> Modifiers:
    """``Modifiers()``, made once (see :func:`default_context`)."""
    return Modifiers()


def _digits(text: str) -> int | None:
    """A whole number written in digits; None for any other text."""
    return int(text) if text.isdigit() else None


def _digits_or_text(text: str) -> int | str:
    """A whole number written in digits, or else the text as it is."""
    return int(text) if text.isdigit() else text


#: The fields a buff's text may set with ``name=value`` (the numbers of Modifiers that add
#: up take ``+N``/``-N``): whose field it is (``"set"``: Modifiers', ``"context"``:
#: Context's), and how its value is read (None: not a value the field takes).
_BUFF_PAIRS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "damage_set": ("set", str),
    "damage_multiply": ("set", _digits),
    "critical_hit": ("set", _digits),
    "critical_wound": ("set", _digits),
    "reroll_hits": ("set", str),
    "reroll_wounds": ("set", str),
    "reroll_damage": ("set", str),
    "reroll_one": ("set", str),
    "lethal_hits": ("context", _digits_or_text),
    "reroll_policy": ("context", _digits_or_text),
    "precision_group": ("context", _digits_or_text),
}


def parse_buff(text: str, field: str = "modifiers") -> tuple[Modifiers | None, Context | None]:
    """A buff written as text: items separated by ``;``. ``hit+1``, ``ap-1``,
    ``strength+2`` ... change a number of :class:`Modifiers` by that much;
    ``reroll_hits=ones``, ``critical_hit=5``, ``damage_set=D3`` ... set one; a
    :class:`Context` flag by its name (``half_range``, ``charged``) sets it, and
    ``lethal_hits=roll`` sets that field. Empty text is no buff.

    Examples
    --------
    >>> mods, context = parse_buff("hit+1; reroll_wounds=ones; half_range")
    >>> mods.changes(), context.changes()
    (['hit +1', 'reroll_wounds ones'], ['half_range'])
    >>> parse_buff("hit+x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: modifiers must be items such as hit+1, ...; got 'hit+x'
    """
    numbers, context = _buff_fields(text, field)
    try:
        modifiers = Modifiers(**numbers) if numbers else None
        made = Context(**context) if context else None
    except ProfileError as exc:
        raise exc.prefixed(field) from None
    return modifiers, made


#: What a buff's text is made of, for its error.
_BUFF_ITEMS = "items such as hit+1, reroll_hits=ones or half_range, separated by ';'"


def _buff_fields(text: str, field: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of Modifiers and of Context that a buff's text sets, by name."""
    numbers: dict[str, Any] = {}
    context: dict[str, Any] = {}
    into = {"step": numbers, "set": numbers, "context": context}
    for item in filter(None, (part.strip() for part in text.split(";"))):  # non-empty items
        found = _buff_item(item)
        if found is None:
            raise field_error(ProfileError, field, _BUFF_ITEMS, item)
        where, name, value = found
        if where == "step":  # the steps of one number add up
            value += numbers.get(name, 0)
        into[where][name] = value
    return numbers, context


def _buff_item(item: str) -> tuple[str, str, Any] | None:
    """One item of a buff's text read: ``("step", name, N)`` for a number changed by N,
    ``("set", name, value)`` for a field of Modifiers set, ``("context", name, value)`` for
    a field of Context; None if it reads as none of these."""
    import re

    step = re.fullmatch(r"([a-z_]+)\s*([+-]\s*\d{1,2})", item)
    if step and step[1] in _SUMMED:
        return "step", step[1], int(step[2].replace(" ", ""))
    pair = re.fullmatch(r"([a-z_]+)\s*=\s*(\S+)", item)
    if pair is None:  # a flag by its name, or nothing known
        return ("context", item, True) if item in _FLAGS else None
    return _buff_pair(pair[1], pair[2])


def _buff_pair(name: str, value: str) -> tuple[str, str, Any] | None:
    """A ``name=value`` item of a buff's text read, as :func:`_buff_item` reads one."""
    known = _BUFF_PAIRS.get(name)
    if known is None:
        return None
    where, read = known
    read_value = read(value)
    return None if read_value is None else (where, name, read_value)
