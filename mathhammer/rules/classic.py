"""The classic ruleset ("8.5 - Attack Sequence", docs/rules.md §5) as literal, vectorised checks.

A different game system from the 11th edition: Ballistic Skill is a characteristic
from 1 to 10 read off a chart (not an "N+" threshold), the wound roll depends on
S - T, every unsaved wound removes one wound, and a unit that loses a quarter of its
models takes a Panic Test. Its decisions (docs/rules.md D23-D27) are noted where they apply.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..core.caller import outside_stacklevel
from ..core.dice import parse_dice
from ..errors import RulesError
from ..model.abilities import Linked
from ..model.context import Context, Modifiers, default_modifiers
from ..model.profiles import Unit, Weapon
from ..model.standing import Standing
from .base import (
    FAIL,
    SUCCESS,
    AfterAttackTest,
    PoolChecks,
    RollCheck,
    Ruleset,
    group_saves,
    reroll_mask,
)

__all__ = [
    "BS_CHART",
    "PANIC_EXEMPT",
    "REFUSED_TARGETS",
    "Classic",
    "hit_check",
    "hit_outcome",
    "panic_fails",
    "panic_taken",
    "panic_threshold",
    "save_outcome",
    "takes_panic_tests",
    "wound_needed",
    "wound_outcome",
]

#: Ballistic Skill -> (roll to hit, roll to hit with the compulsory re-roll of a 1).
BS_CHART: dict[int, tuple[int, int | None]] = {
    1: (6, None),
    2: (5, None),
    3: (4, None),
    4: (3, None),
    5: (2, None),
    6: (2, 6),
    7: (2, 5),
    8: (2, 4),
    9: (2, 3),
    10: (2, 2),
}

#: Target types whose wound roll the classic rules defer to a section they do not
#: include (docs/rules.md §5.2, D27).
REFUSED_TARGETS = ("VEHICLE", "KNIGHT", "TITAN", "AIRCRAFT", "FORTIFICATION")
#: Target types that never take Panic Tests from shooting.
PANIC_EXEMPT = ("VEHICLE", "AIRCRAFT", "FORTIFICATION", "KNIGHT", "TITAN")


def hit_outcome(natural: Any, needed: int) -> Any:
    """SUCCESS where the roll is equal to or greater than the chart's number, else FAIL.

    Examples
    --------
    >>> hit_outcome(np.arange(1, 7), needed=BS_CHART[4][0]).tolist()  # BS 4 hits on 3+
    [0, 0, 1, 1, 1, 1]
    """
    return np.where(np.asarray(natural) >= needed, SUCCESS, FAIL)


def hit_check(bs: int, linked: bool) -> RollCheck:
    """The hit roll for a Ballistic Skill, with its re-rolls.

    With BS 6 or more an unmodified 1 must be re-rolled, and the re-roll hits on the
    chart's second number. A special-rule re-roll such as [LINKED] (re-roll every miss)
    takes precedence: the re-roll then hits on the first number. A die is re-rolled at
    most once.

    Examples
    --------
    >>> from mathhammer.exact.steps import category_probabilities
    >>> float(category_probabilities(hit_check(7, linked=False))[1] * 36)  # 30 + 1 * 2
    32.0
    """
    first, second = BS_CHART[bs]
    hits = partial(hit_outcome, needed=first)
    if linked:
        return RollCheck(first=hits, reroll=partial(reroll_mask, policy="failures"))
    if second is not None:
        return RollCheck(
            first=hits,
            reroll=partial(reroll_mask, policy="ones"),
            second=partial(hit_outcome, needed=second),
        )
    return RollCheck(first=hits)


def wound_needed(strength: int, toughness: int) -> int:
    """The wound roll needed by S - T: +2 or more 2+, +1 3+, 0 4+, -1 5+, -2 or less 6+.

    Examples
    --------
    >>> [wound_needed(s, 4) for s in (7, 6, 5, 4, 3, 2, 1)]
    [2, 2, 3, 4, 5, 6, 6]
    """
    return min(6, max(2, 4 - (strength - toughness)))


def wound_outcome(natural: Any, needed: int) -> Any:
    """SUCCESS or FAIL: an unmodified 1 always fails, an unmodified 6 always wounds.

    Examples
    --------
    >>> wound_outcome(np.arange(1, 7), needed=6).tolist()
    [0, 0, 0, 0, 0, 1]
    """
    roll = np.asarray(natural)
    out = np.where(roll >= needed, SUCCESS, FAIL)
    out = np.where(roll == 6, SUCCESS, out)
    return np.where(roll == 1, FAIL, out)


def save_outcome(
    natural: Any, ap: int, save: int, invuln: int | None = None, strict: bool = False
) -> Any:
    """True where the save roll saves.

    The rules text says a roll *higher than* Sv saves. By default (docs/rules.md D23) a
    roll equal to or greater than Sv saves (the same text uses "equal to or greater" for
    hits, and the strict reading makes a 6+ save impossible); ``strict=True`` gives the
    literal reading. There is no natural-1 rule; AP and an invulnerable save apply only if given.

    Examples
    --------
    >>> save_outcome(np.arange(1, 7), ap=0, save=4).tolist()
    [False, False, False, True, True, True]
    >>> save_outcome(np.arange(1, 7), ap=0, save=4, strict=True).tolist()
    [False, False, False, False, True, True]
    """
    roll = np.asarray(natural)
    saved = roll + ap > save if strict else roll + ap >= save
    if invuln is not None:
        saved = saved | ((roll > invuln) if strict else (roll >= invuln))
    return saved


def panic_threshold(models: int) -> int:
    """Models that must be slain for a Panic Test: 25% of the unit, rounded up.

    Examples
    --------
    >>> [panic_threshold(n) for n in (1, 4, 5, 10, 20)]
    [1, 1, 2, 3, 5]
    """
    return math.ceil(models / 4)


def takes_panic_tests(unit: Unit) -> bool:
    """Vehicle, Aircraft, Fortification, Knight and Titan units never take Panic Tests."""
    return not any(unit.has_keyword(k) for k in PANIC_EXEMPT)


def panic_taken(killed: Any, threshold: int, models: int, exempt: bool = False) -> Any:
    """True where a Panic Test is taken: ``threshold`` or more slain, some models left.

    An ``exempt`` unit (see :func:`takes_panic_tests`) never takes one.

    Examples
    --------
    >>> panic_taken(np.arange(11), threshold=panic_threshold(10), models=10).tolist()
    [False, False, False, True, True, True, True, True, True, True, False]
    >>> bool(panic_taken(3, threshold=3, models=10, exempt=True))
    False
    """
    killed = np.asarray(killed)
    return (killed >= threshold) & (killed < models) & (not exempt)


def panic_fails(roll: Any, leadership: int) -> Any:
    """True where a Panic Test (2D6) fails: a roll higher than Ld.

    Examples
    --------
    >>> panic_fails(np.arange(2, 13), leadership=7).sum()  # 8, 9, 10, 11, 12
    np.int64(5)
    """
    return np.asarray(roll) > leadership


def _refuse(message: str) -> RulesError:
    return RulesError(f"rules='classic': {message}")


#: What the ruleset cannot resolve of a target beyond its keywords and saves, each as a
#: test of the target and the reason given.
_UNDEFINED: tuple[tuple[Callable[[Unit], bool], str], ...] = (
    (lambda target: target.leadership is None, "needs leadership= for its Panic Test"),
    (lambda target: target.stealth, "has Stealth, which this ruleset does not define"),
    (
        lambda target: target.worsen_ap != 0,
        "worsens the AP of attacks, which this ruleset does not define",
    ),
    (
        lambda target: target.reroll_saves is not None,
        "re-rolls saves, which this ruleset does not define",
    ),
)


def _warn_ignored(weapon: Weapon) -> None:
    """Warn that the weapon's abilities are not part of this ruleset, where it has some that
    change the attack."""
    ignored = [str(a) for a in weapon.abilities if a.CHANGES_ATTACK]
    if ignored:
        warnings.warn(
            f"rules='classic': weapon {weapon.name!r}: {', '.join(ignored)} are not part "
            "of this ruleset and are ignored",
            UserWarning,
            stacklevel=outside_stacklevel(),
        )


class Classic(Ruleset):
    """The classic ruleset ("8.5 - Attack Sequence"), ``"classic"``.

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> rules = get_ruleset("classic")
    >>> rules.skill_field, int(rules.modified_damage(6, multiply=2))
    ('bs', 1)
    """

    name = "classic"
    description = "the classic ruleset: BS chart 1-10, S-T wound chart, Panic Tests"
    skill_field = "bs"
    context_fields = frozenset({"strict_save", "melee", "single_target"})
    takes_modifiers = False

    def check_weapon(self, weapon: Weapon) -> None:
        if weapon.bs is None:
            raise _refuse(
                f"weapon {weapon.name!r} needs bs=, the Ballistic Skill characteristic from 1 "
                f"to 10; it has skill={weapon.skill}, an 11th-edition 'N+' threshold "
                "(use rules='11e')"
            )
        if not isinstance(weapon.strength, int):
            raise _refuse(
                f"weapon {weapon.name!r} has a random Strength ({weapon.strength}); the "
                "classic profiles print a fixed one"
            )
        if not weapon.damage.is_constant or int(weapon.damage) != 1:
            raise _refuse(
                f"weapon {weapon.name!r} has D{weapon.damage}; every unsaved wound removes one "
                "wound"
            )

    def check_target(self, target: Unit) -> None:
        """Refuse targets this ruleset cannot resolve, before any attack."""
        refused = [k for k in REFUSED_TARGETS if target.has_keyword(k)]
        if refused:
            raise _refuse(
                f"target {target.name!r} is a {refused[0]}: its wound roll is in a section "
                "the rules do not include"
            )
        saves = {(g.save, g.invuln) for g in target.groups}
        if len(saves) > 1:
            raise _refuse(
                f"target {target.name!r} mixes save characteristics {sorted(saves, key=str)}; "
                "the save roll is against the unit's Sv"
            )
        for refused_by, reason in _UNDEFINED:
            if refused_by(target):
                raise _refuse(f"target {target.name!r} {reason}")

    def check_situation(self, context: Context, modifiers: Modifiers) -> None:
        if modifiers != default_modifiers():
            raise _refuse(
                "the classic ruleset defines no modifiers or re-rolls; give modifiers=None"
            )
        super().check_situation(context, modifiers)

    def modified_damage(
        self, damage: Any, multiply: int = 1, add: Any = 0, halve: bool = False, subtract: int = 0
    ) -> Any:
        """Every unsaved wound removes exactly one wound: damage modifiers do not exist here."""
        return np.ones_like(np.asarray(damage))

    def after_attack_tests(self, target: Unit, before: int = 0) -> tuple[AfterAttackTest, ...]:
        """The Panic Test: taken when at least a quarter of the models the unit had before
        the attacks (rounded up) were slain and some remain; failed when 2D6 rolls higher
        than Ld. After ``before`` models fell to earlier units, the quarter is of those
        left, and ``taken`` reads the models this unit slew."""
        models = target.models - before
        taken = partial(
            panic_taken,
            threshold=panic_threshold(models),
            models=models,
            exempt=not takes_panic_tests(target),
        )
        fails = partial(panic_fails, leadership=target.leadership or 0)
        return (AfterAttackTest("panic test", taken, fails, dice=2),)

    def pool_checks(
        self,
        weapon: Weapon,
        target: Unit,
        context: Context,
        modifiers: Modifiers,
        standing: Standing | None = None,
    ) -> PoolChecks:
        """The checks of one pool against one target under the classic ruleset (the
        target's Toughness as it stands when the attacks are declared)."""
        self.check_weapon(weapon)
        assert weapon.bs is not None  # check_weapon refuses a weapon without one
        linked = any(isinstance(a, Linked) for a in weapon.abilities)
        _warn_ignored(weapon)
        toughness = target.toughness if standing is None else standing.toughness
        needed = wound_needed(int(weapon.strength or 1), toughness)
        strict = context.strict_save
        ap = weapon.ap
        return PoolChecks(
            hit=hit_check(weapon.bs, linked),
            wound=RollCheck(first=partial(wound_outcome, needed=needed)),
            saves=partial(group_saves, partial(save_outcome, strict=strict), ap=ap),
            damage=parse_dice(1),
            ap=ap,
            used=("[LINKED]",) if linked else (),
            reads=frozenset({"toughness"}),
        )
