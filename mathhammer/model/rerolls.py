"""The re-roll policies of :class:`~mathhammer.model.context.Modifiers`: their names,
their checks, and which of two re-rolls more.

A die is re-rolled at most once (docs/rules.md §1.4), so a command re-roll of one die
contradicts a re-roll of every failure of the same roll (D30), and of the damage dice (D32).

Examples
--------
>>> check_reroll_one("hit", reroll_hits="failures", reroll_wounds=None, reroll_damage=None)
Traceback (most recent call last):
...
mathhammer.errors.ProfileError: Modifiers.reroll_one='hit' contradicts reroll_hits='failures': ...
>>> max("ones", "failures", key=reroll_rank)
'failures'
"""

from __future__ import annotations

from ..errors import ProfileError, field_error

__all__ = [
    "REROLLS",
    "REROLL_ONE",
    "check_policy",
    "check_reroll_damage",
    "check_reroll_one",
    "damage_reroll_below",
    "damage_reroll_rank",
    "reroll_rank",
]

#: Re-roll policies: natural 1s, failed results, or every non-critical result
#: ("fishing" for critical hits or wounds).
REROLLS = ("ones", "failures", "non_critical")
#: What a command re-roll re-rolls (``Modifiers.reroll_one``): one hit or wound roll of a
#: pool, to raise the expected damage, or (``:at_least``) only ever a failed die.
REROLL_ONE = ("hit", "wound", "hit:at_least", "wound:at_least", "damage")


def check_policy(name: str, value: object) -> None:
    """Check ``Modifiers.reroll_hits`` or ``reroll_wounds``: None or one of :data:`REROLLS`."""
    if value is not None:
        _check_one_of(f"Modifiers.{name}", value, REROLLS)


def _check_one_of(field: str, value: object, names: tuple[str, ...]) -> None:
    """Check that the field (which may also be None) holds one of ``names``."""
    if value not in names:
        raise field_error(ProfileError, field, f"None or one of {list(names)}", value)


def check_reroll_one(
    reroll_one: str, reroll_hits: str | None, reroll_wounds: str | None, reroll_damage: str | None
) -> None:
    """Check ``Modifiers.reroll_one``: one of :data:`REROLL_ONE`, and no die re-rolled twice."""
    _check_one_of("Modifiers.reroll_one", reroll_one, REROLL_ONE)
    _check_once(reroll_one, reroll_hits, reroll_wounds, reroll_damage)


def _check_once(
    reroll_one: str, reroll_hits: str | None, reroll_wounds: str | None, reroll_damage: str | None
) -> None:
    """Check that the command re-roll ``reroll_one`` re-rolls no die that another re-roll
    re-rolls already (D30, D32)."""
    step = reroll_one.split(":")[0]
    every = {"hit": reroll_hits, "wound": reroll_wounds}.get(step)
    if step == "damage" and reroll_damage is not None:
        raise ProfileError(
            f"Modifiers.reroll_one='damage' contradicts reroll_damage={reroll_damage!r}: "
            "the damage dice are re-rolled already, and a die is re-rolled at most once"
        )
    if every in ("failures", "non_critical"):
        raise ProfileError(
            f"Modifiers.reroll_one={reroll_one!r} contradicts "
            f"reroll_{step}s={every!r}: every failed {step} roll is re-rolled already, "
            "and a die is re-rolled at most once"
        )


def check_reroll_damage(reroll_damage: str | None) -> None:
    """Check ``Modifiers.reroll_damage``: None, ``"optimal"`` or one
    :func:`damage_reroll_below` reads."""
    if reroll_damage is not None and damage_reroll_rank(reroll_damage) == 0:  # none it reads
        raise field_error(
            ProfileError,
            "Modifiers.reroll_damage",
            "None, 'ones', 'below:N' (N from 1 to 19) or 'optimal'",
            reroll_damage,
        )


def reroll_rank(policy: str | None) -> int:
    """How much of a roll a re-roll policy re-rolls: -1 for none, else its place in
    :data:`REROLLS`."""
    return -1 if policy is None else REROLLS.index(policy)


def damage_reroll_rank(option: str | None) -> int:
    """How much of the damage a damage re-roll re-rolls: the faces it re-rolls, 20 for
    ``"optimal"``, 0 for none."""
    return 20 if option == "optimal" else damage_reroll_below(option) or 0


def damage_reroll_below(option: str | None) -> int | None:
    """The face at or below which a damage die is re-rolled: 1 for ``"ones"``, N for
    ``"below:N"``; None for None or text that is neither.

    Examples
    --------
    >>> damage_reroll_below("ones"), damage_reroll_below("below:2"), damage_reroll_below("x")
    (1, 2, None)
    """
    if option == "ones":
        return 1
    if isinstance(option, str) and option.startswith("below:"):
        return _face(option.removeprefix("below:"))
    return None


def _face(digits: str) -> int | None:
    """The N of ``"below:N"``: a face from 1 to 19, in the digits 0-9; None otherwise."""
    if digits.isdigit() and digits.isascii() and 1 <= int(digits) <= 19:
        return int(digits)
    return None
