"""Named states a list's rules depend on, and a situation that assumes some of them.

A unit's rules may hold only in a state of the game that no profile records: "riled up",
"the Waaagh! is active", "within range of an objective marker", an ability used once per
battle (docs/rules.md D37). Such a rule applies only when the situation assumes the state
(``Context(assume={...})``). :func:`named_states` lists the states the rules of some
loadouts and targets mention; :func:`check_assumed` refuses a name none of them mentions
(a typo would otherwise change nothing, silently), with the closest one as a suggestion
(the core rules' states, :data:`~mathhammer.model.context.CORE_STATES`, are always known);
:func:`assuming` gives each loadout the situation that assumes them.

Examples
--------
>>> import mathhammer as mh
>>> from mathhammer.model.effects import Condition, Effect, arm
>>> choppa = mh.Weapon("Choppa", 3, 3, 5, -1, 1, melee=True)
>>> riled = Effect("hit", 1, "melee", (Condition("assumed", "riled up"),), source="Waaagh!")
>>> boyz = mh.Loadout("Boyz", [(arm(choppa, [riled]), 10)])
>>> sorted(named_states([boyz]))
['riled up']
>>> check_assumed(["Riled Up"], [boyz])
frozenset({'riled up'})
>>> [x.context.assume for x in assuming([boyz], {"riled up"})]
[frozenset({'riled up'})]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ..core.suggest import closest
from ..errors import OptionError, field_error
from ..model.context import CORE_STATES, Context, assumption_name
from ..model.effects import EffectRule
from .loadout import Loadout

__all__ = ["assuming", "check_assumed", "named_states"]


def _rules(loadouts: Iterable[Loadout]) -> Iterator[EffectRule]:
    """The unit rules on the weapons of each loadout and of each of its options."""
    for loadout in loadouts:
        for option in (loadout, *getattr(loadout, "options", ())):
            for weapon, _ in option.weapon_counts:
                yield from _effect_rules(weapon.abilities)


def named_states(loadouts: Iterable[Loadout] = (), targets: Iterable[Any] = ()) -> frozenset[str]:
    """The named states the rules of ``loadouts`` (on their weapons) and of ``targets``
    (:class:`~mathhammer.Target` or :class:`~mathhammer.Unit`: their ``rules``) mention."""
    rules = [*_rules(loadouts), *_target_rules(targets)]
    return frozenset(
        c.value for rule in rules for c in rule.effect.conditions if c.kind == "assumed"
    )


def _target_rules(targets: Iterable[Any]) -> Iterator[EffectRule]:
    """The unit rules of each :class:`~mathhammer.Target` or :class:`~mathhammer.Unit`."""
    for target in targets:
        unit = getattr(target, "unit", target)
        yield from _effect_rules(getattr(unit, "rules", ()))


def _effect_rules(items: Iterable[object]) -> Iterator[EffectRule]:
    """The unit rules (:class:`~mathhammer.model.effects.EffectRule`) among a weapon's
    abilities or a unit's rules."""
    return (item for item in items if isinstance(item, EffectRule))


def check_assumed(
    names: Iterable[str],
    loadouts: Iterable[Loadout] = (),
    targets: Iterable[Any] = (),
    *,
    option: str = "--assume",
) -> frozenset[str]:
    """``names`` as states (:func:`~mathhammer.model.context.assumption_name`), each one a
    state the rules of ``loadouts`` or ``targets`` mention.

    Raises
    ------
    OptionError
        A name no rule mentions, with the closest one mentioned, or the list of them.

    Examples
    --------
    >>> check_assumed(["waagh"], [])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: --assume must be a state the rules of the units mention
    (they mention none); got 'waagh'
    """
    mentioned = named_states(loadouts, targets)
    known = mentioned | set(CORE_STATES)  # the core rules' own are always known
    out = set()
    for given in names:
        name = assumption_name(given)
        if name not in known:
            raise _unmentioned(option, given, _hint(name, known, mentioned), mentioned)
        out.add(name)
    return frozenset(out)


def _unmentioned(option: str, given: str, hint: str, mentioned: frozenset[str]) -> OptionError:
    """The error for a state ``given`` to ``option`` that no rule mentions."""
    wanted = "a state the rules of the units mention"
    if not mentioned:
        wanted += " (they mention none)"
    return field_error(OptionError, option, wanted, given, hint)


def _hint(name: str, known: frozenset[str], mentioned: frozenset[str]) -> str:
    """What to say of a state no rule mentions: the closest known one, or those the rules
    mention (nothing when they mention none)."""
    close = closest(name, known)
    if close is not None:
        return f"did you mean {close!r}?"
    if mentioned:
        return "the rules mention: " + ", ".join(repr(k) for k in sorted(mentioned))
    return ""


def assuming(loadouts: Sequence[Loadout], names: Iterable[str]) -> list[Loadout]:
    """Each loadout in a situation that assumes ``names`` as well as its own."""
    states = frozenset(names)
    if not states:
        return list(loadouts)
    return [x.in_context(Context(assume=states)) for x in loadouts]
