"""The ruleset interface: every edition-specific decision, in one typed object.

A :class:`Ruleset` owns the literal tables and checks of a game system: which weapon
characteristic is the skill, the hit, wound and save checks with their re-rolls, Feel No
Pain, the damage modifiers, the allocation order, the hazard roll, the tests a target
takes after an attack (the classic Panic Test), and which context fields mean anything.
Its :meth:`Ruleset.pool_checks` resolves one pool against one target into
:class:`PoolChecks`; both engines read those, and neither shares the other's maths: the
exact engine applies the checks to the six faces, the Monte Carlo to the dice it rolls.

The defaults are neutral (no hazard, no after-attack test, the allocation order of the
11th edition), so a new ruleset overrides only what differs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import cached_property, lru_cache, partial
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..core.caches import register
from ..core.dice import Dice
from ..core.frozen import fast_init
from ..errors import RulesError
from ..model.context import Context, default_context, default_modifiers
from ..model.unit import ModelGroup, group_named
from .faces import (
    CRITICAL,
    FACE_ARRAY,
    FACES,
    FAIL,
    SUCCESS,
    Outcome,
    failed_faces,
    group_saves,
    reroll_mask,
    save_face_weights,
    tabulate,
    tabulated,
)

if TYPE_CHECKING:
    from ..model.context import Modifiers
    from ..model.pools import Pool
    from ..model.profiles import ModelGroup, Unit, Weapon
    from ..model.standing import Standing

__all__ = [
    "CRITICAL",
    "FACES",
    "FACE_ARRAY",
    "FAIL",
    "SUCCESS",
    "AfterAttackTest",
    "AllocationOrder",
    "BoolArray",
    "IntArray",
    "Outcome",
    "PoolChecks",
    "RollCheck",
    "Ruleset",
    "failed_faces",
    "function_key",
    "group_saves",
    "CommandReroll",
    "reroll_mask",
    "save_face_weights",
    "standard_order",
    "tabulate",
    "tabulated",
]

IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]


#: An allocation order: (alive, wounded, character, focus) -> the current group per state.
AllocationOrder = Callable[[BoolArray, BoolArray, BoolArray, "int | None"], IntArray]


def standard_order(
    alive: BoolArray, wounded: BoolArray, character: BoolArray, focus: int | None
) -> IntArray:
    """The 11th-edition allocation order: the group of the current model in each state.

    ``alive[s, g]`` and ``wounded[s, g]`` describe group ``g`` in state ``s`` (a row per
    state, or per Monte Carlo trial); ``character[g]`` marks CHARACTER groups. The
    current model is in the first non-CHARACTER group alive; then wounded CHARACTERs
    come before unwounded ones, each in allocation order; ``focus`` ([PRECISION]) is
    current while it lives; -1 marks a destroyed unit.

    Examples
    --------
    >>> alive = np.array([[True, True, True], [False, True, True], [False, False, False]])
    >>> wounded = np.array([[False, False, False], [False, False, True], [False] * 3])
    >>> character = np.array([False, True, True])
    >>> standard_order(alive, wounded, character, None).tolist()
    [0, 2, -1]
    >>> standard_order(alive, wounded, character, 1).tolist()
    [1, 1, -1]
    """
    tiers = [alive & ~character, alive & character & wounded, alive & character]
    out = np.full(alive.shape[0], -1, dtype=np.int64)
    for tier in reversed(tiers):
        has = tier.any(axis=1)
        out[has] = np.argmax(tier[has], axis=1)
    if focus is not None:
        out[alive[:, focus]] = focus
    return out


def function_key(f: Any) -> Any:
    """A key equal for equal checks: a :func:`functools.partial` (as rulesets build their
    checks) by its function and arguments, anything else by itself.

    Examples
    --------
    >>> from functools import partial
    >>> function_key(partial(max, 1, key=abs)) == function_key(partial(max, 1, key=abs))
    True
    """
    if type(f) is not partial:
        return f
    args = tuple(function_key(a) for a in f.args) if f.args else ()
    keywords = tuple((k, function_key(v)) for k, v in f.keywords.items())
    return (function_key(f.func), args, keywords)


@fast_init
@dataclass(frozen=True)
class RollCheck:
    """How one die of a step is read: the literal check of a roll, and any re-roll.

    ``first(faces)`` categorises natural results; ``reroll(faces, categories)`` selects
    the dice rolled again (at most once); ``second(faces)`` categorises the re-rolls
    (the same check as the first roll unless a rule says otherwise). Every function
    takes numpy arrays of natural results, so the exact engine applies them to the six
    faces and the Monte Carlo to the dice it rolls. Rulesets build them from functions
    of a module bound with :func:`functools.partial`, never lambdas, so that a plan
    pickles.
    """

    first: Callable[[Any], Any]
    reroll: Callable[[Any, Any], Any] | None = None
    second: Callable[[Any], Any] | None = None

    @cached_property
    def key(self) -> Any:
        """A value equal for checks that read the dice alike (each function by
        :func:`function_key`), for caches keyed by value; computed once.

        Examples
        --------
        >>> from functools import partial
        >>> bs = lambda f, skill: np.where(np.asarray(f) >= skill, SUCCESS, FAIL)
        >>> RollCheck(partial(bs, skill=3)).key == RollCheck(partial(bs, skill=3)).key
        True
        """
        return (function_key(self.first), function_key(self.reroll), function_key(self.second))

    def again(self, faces: Any) -> Any:
        """The categories of re-rolled dice."""
        return (self.second or self.first)(faces)

    def probabilities(self) -> np.ndarray:
        """P(fail), P(success), P(critical) of one die: dice the re-roll selects are
        rolled once more and the re-roll's result stands.

        Examples
        --------
        >>> from functools import partial
        >>> bs3 = lambda f: np.where(f == 6, CRITICAL, np.where(f >= 3, SUCCESS, FAIL))
        >>> (RollCheck(bs3).probabilities() * 6).tolist()
        [2.0, 3.0, 1.0]
        >>> ones = RollCheck(bs3, reroll=partial(reroll_mask, policy="ones"))
        >>> (ones.probabilities() * 36).round(6).tolist()  # a 1 is re-rolled
        [8.0, 21.0, 7.0]
        """
        kept, again = self._first_roll()
        if self.reroll is None:
            return kept
        return np.asarray(kept + again * self.rerolled(), dtype=np.float64)

    def success(self) -> float:
        """P(a die succeeds, critically or not), re-roll included; computed once per check
        (its functions are pure functions of the faces, and the check is frozen).

        Examples
        --------
        >>> bs3 = lambda f: np.where(f == 6, CRITICAL, np.where(f >= 3, SUCCESS, FAIL))
        >>> RollCheck(bs3).success()  # 3+ to 6
        0.6666666666666666
        """
        found: float | None = self.__dict__.get("_success")
        if found is not None:  # computed once: the check is frozen, its functions pure
            return found
        if self.reroll is None:  # the faces that do not fail (FAIL is 0)
            found = (len(FACES) - failed_faces(self.first(FACE_ARRAY))) / len(FACES)
        else:
            fail, success, critical = self.probabilities().tolist()
            found = float(success + critical)
        self.__dict__["_success"] = found
        return found

    def kept(self) -> np.ndarray:
        """P(the first roll stands and is a fail, a success, a critical): the dice that
        may still be re-rolled (a die is re-rolled at most once)."""
        return self._first_roll()[0]

    def rerolled(self) -> np.ndarray:
        """P(fail), P(success), P(critical) of a die rolled again."""
        categories = np.asarray(self.again(FACE_ARRAY))
        return np.bincount(categories, minlength=len(Outcome)) / len(FACES)

    def _first_roll(self) -> tuple[np.ndarray, float]:
        """Per category, P(the first roll stands with it); and P(a re-roll)."""
        categories = np.asarray(self.first(FACE_ARRAY))
        if self.reroll is None:
            return np.bincount(categories, minlength=len(Outcome)) / len(FACES), 0.0
        again = np.asarray(self.reroll(FACE_ARRAY, categories), dtype=bool)
        kept = np.bincount(categories[~again], minlength=len(Outcome)) / len(FACES)
        return kept, float(again.mean())


@dataclass(frozen=True)
class CommandReroll:
    """One die of a pool's hit or wound roll, or one damage roll, re-rolled (a command
    re-roll), by a policy both engines follow (docs/rules.md §1.4, D30, D32).

    Only a die whose first roll stands may be re-rolled. A failed die is re-rolled if
    there is one; with ``fish``, when none failed, a non-critical success is re-rolled
    for a critical. ``step`` is ``"hit"``, ``"wound"`` or ``"damage"`` (the first damage
    roll that :func:`~mathhammer.rules.damage_rerolls.damage_rerolls` marks).
    """

    step: str
    fish: bool = False


@fast_init
@dataclass(frozen=True)
class PoolChecks:
    """Every check and switch of one pool against one target, abilities resolved.

    A ruleset builds these; both engines read them. ``hit`` is None when every attack
    hits automatically ([TORRENT]); ``saves(faces, group)`` tells which natural save
    rolls save for a model of ``group``; ``used`` lists the abilities applied, as printed.

    Examples
    --------
    >>> always = RollCheck(first=lambda f: np.full(np.shape(f), SUCCESS))
    >>> checks = PoolChecks(hit=always, wound=always, saves=lambda f, g: np.asarray(f) >= 7,
    ...                     damage=Dice.parse(1))
    >>> checks.devastating, checks.bonus_attacks
    (False, ())
    """

    hit: RollCheck | None
    wound: RollCheck
    saves: Callable[[Any, ModelGroup], Any]
    damage: Dice
    bonus_attacks: tuple[Dice, ...] = ()
    sustained: Dice | None = None
    lethal: bool = False
    devastating: bool = False
    ap: int = 0
    damage_multiply: int = 1
    damage_add: int = 0
    melta: Dice | None = None
    precision_group: int | None = None
    hazardous: bool = False
    used: tuple[str, ...] = ()
    save_reroll: str | None = None
    reroll_one: CommandReroll | None = None
    reroll_damage: str | None = None
    #: What the checks read of the target as it stood when the attacks were declared
    #: (names of :attr:`Standing.FACTS <mathhammer.model.standing.Standing.FACTS>`).
    reads: frozenset[str] = frozenset()
    #: Each weapon's A changed by a rule: set to a value, then multiplied by a fraction
    #: (rounding up), before the bonus attacks are added (:meth:`pool_dice`).
    attacks_set: Dice | None = None
    attacks_scale: tuple[int, int] | None = None
    #: Feel No Pain the target's rules give against this pool's attacks only ("against
    #: PSYCHIC attacks"), each (N, the models it is for: "" for all, "character", or a
    #: name): each group rolls the best of those for it and its own (:meth:`facing`).
    fnp: tuple[tuple[int, str], ...] = ()

    def facing(self, target: Unit) -> Unit:
        """The target as this pool's attacks meet it: each group's Feel No Pain the
        better of its own and the pool's :attr:`fnp` (the target itself without one).

        >>> from mathhammer.model.profiles import Unit
        >>> squad = Unit.of("Squad", 5, 4, 3, 1, fnp=5)
        >>> checks = PoolChecks(None, RollCheck(abs), abs, Dice(1), fnp=((4, ""),))
        >>> checks.facing(squad).groups[0].fnp, PoolChecks(None, RollCheck(abs), abs, Dice(1),
        ...     fnp=((6, ""),)).facing(squad).groups[0].fnp
        (4, 5)
        """
        return _facing(target, self.fnp) if self.fnp else target

    def attacks_of(self, attacks: Dice) -> Dice:
        """A weapon's attacks characteristic as the pool's rules change it.

        >>> PoolChecks(None, RollCheck(abs), abs, Dice(1), attacks_scale=(1, 2)).attacks_of(
        ...     Dice("D6"))
        Dice('D6 (halved)')
        """
        if self.attacks_set is not None:
            attacks = self.attacks_set
        if self.attacks_scale is not None:
            attacks = attacks.scaled(*self.attacks_scale)
        return attacks

    def pool_dice(self, pool: Pool) -> tuple[tuple[Dice, int], ...]:
        """The pool's weapons' attacks characteristics and counts, as its rules change
        them (:attr:`Pool.dice <mathhammer.model.pools.Pool.dice>` when none does)."""
        if self.attacks_set is None and self.attacks_scale is None:
            return pool.dice
        return tuple((self.attacks_of(attacks), n) for attacks, n in pool.dice)


@register
@lru_cache(maxsize=256)
def _facing(target: Unit, fnp: tuple[tuple[int, str], ...]) -> Unit:
    groups = []
    for g in target.groups:
        best = _best_fnp(g, fnp)
        groups.append(g if best == g.fnp else replace(g, fnp=best))
    out = tuple(groups)
    return target if out == target.groups else replace(target, groups=out)


def _best_fnp(group: ModelGroup, fnp: tuple[tuple[int, str], ...]) -> int | None:
    """The better of the group's Feel No Pain and those of ``fnp`` for its models."""
    best = group.fnp
    for value, models in fnp:
        if group_named(models, group) and (best is None or value < best):
            best = value
    return best


@dataclass(frozen=True)
class AfterAttackTest:
    """A test the target takes after all of a unit's attacks (the classic Panic Test).

    ``taken(killed)`` says, for each count of models destroyed, whether the test is
    taken; the test rolls ``dice`` D6 and ``fails(total)`` tells which totals fail.
    The exact engine sums these over the faces; the Monte Carlo rolls them.
    """

    name: str
    taken: Callable[[IntArray], BoolArray]
    fails: Callable[[IntArray], BoolArray]
    dice: int = 2


def _changed_outside(context: Context, read: frozenset[str]) -> list[str]:
    """The fields of the context, outside those ``read``, that differ from ``Context()``."""
    default = default_context()
    return [
        f.name
        for f in fields(Context)
        if f.name not in read and getattr(context, f.name) != getattr(default, f.name)
    ]


class Ruleset(ABC):
    """A game system's rules, as both engines need them.

    Subclasses set :attr:`name` and implement :meth:`pool_checks`; everything else has
    a neutral default. Register an instance with
    :func:`mathhammer.rules.register_ruleset` to use it by name.
    """

    #: The name ``attack(..., rules=...)`` accepts.
    name: ClassVar[str] = ""
    #: One line for listings (``mathhammer --rules`` help).
    description: ClassVar[str] = ""
    #: The weapon characteristic this ruleset reads as the skill: ``"skill"`` or ``"bs"``.
    skill_field: ClassVar[str] = "skill"
    #: What the skill characteristic is, for error messages.
    skill_meaning: ClassVar[str] = "BS/WS as N+ from 2 to 6"
    #: The Context fields this ruleset reads; a changed field outside it is refused.
    context_fields: ClassVar[frozenset[str] | None] = None
    #: Whether Modifiers may be given.
    takes_modifiers: ClassVar[bool] = True
    #: Whether a pool's save dice are resolved from the lowest result to the highest,
    #: each against the model current when it is resolved (the 11th edition,
    #: docs/rules.md §1.7); False: one attack at a time in the order the attacks are
    #: made, each against the model it is allocated to (the 10th edition, §8.2).
    sorted_saves: ClassVar[bool] = True

    # ------------------------------------------------------------------ checks of inputs
    def check_weapon(self, weapon: Weapon) -> None:
        """Refuse a weapon this ruleset cannot read (its skill characteristic missing)."""
        if getattr(weapon, self.skill_field) is None:
            given = "bs" if self.skill_field == "skill" else "skill"
            raise RulesError(
                f"rules={self.name!r} needs Weapon({self.skill_field}=...), "
                f"{self.skill_meaning}; weapon {weapon.name!r} has "
                f"{given}={getattr(weapon, given)!r} instead"
            )

    def check_target(self, target: Unit) -> None:  # noqa: B027 (a neutral default, not abstract)
        """Refuse a target this ruleset cannot resolve; every unit by default."""

    def check_situation(self, context: Context, modifiers: Modifiers) -> None:
        """Refuse context fields the ruleset does not read, and unwanted modifiers."""
        if context is default_context() and modifiers is default_modifiers():
            return  # nothing set: every ruleset reads the defaults
        if not self.takes_modifiers and modifiers != default_modifiers():
            raise RulesError(
                f"rules={self.name!r} defines no modifiers or re-rolls; give modifiers=None"
            )
        if self.context_fields is None:
            return
        changed = _changed_outside(context, self.context_fields)
        if changed:
            raise RulesError(
                f"rules={self.name!r}: Context({', '.join(changed)}) has no effect in this "
                "ruleset; leave it out"
            )

    # ------------------------------------------------------------------ one pool
    @abstractmethod
    def pool_checks(
        self,
        weapon: Weapon,
        target: Unit,
        context: Context,
        modifiers: Modifiers,
        standing: Standing | None = None,
    ) -> PoolChecks:
        """Resolve one pool's abilities, context and modifiers into checks.

        ``standing`` is the target as it stands when the attacks are declared, after
        earlier attacks (docs/rules.md D34); None for a target no attack has touched.
        What the rules read of the target's size and make-up (its models, its Toughness,
        its CHARACTERs, the group that takes the next save) is read there.
        """

    def fnp_saves(self, natural: Any, fnp: int) -> Any:
        """True where a Feel No Pain roll prevents the wound: a result >= FNP."""
        return np.asarray(natural) >= fnp

    def modified_damage(
        self,
        damage: Any,
        multiply: int = 1,
        add: Any = 0,
        halve: bool = False,
        subtract: int = 0,
    ) -> Any:
        """The damage of one attack after modifiers: set, multiply, add, halve, subtract.

        ``damage`` is the (already set) Damage value; ``add`` includes [MELTA]'s X;
        fractions round up; only the final result is raised to at least 1.

        Examples
        --------
        >>> from mathhammer.rules import get_ruleset
        >>> rules = get_ruleset("11e")
        >>> rules.modified_damage(np.array([1, 2, 3, 6]), halve=True, subtract=1).tolist()
        [1, 1, 1, 2]
        """
        value = np.asarray(damage) * multiply + np.asarray(add)
        if halve:
            value = -(-value // 2)
        return np.maximum(value - subtract, 1)

    # ------------------------------------------------------------------ allocation
    def current_group(
        self, alive: BoolArray, wounded: BoolArray, character: BoolArray, focus: int | None
    ) -> IntArray:
        """The group of the current model for each row of states (-1: unit destroyed).

        ``alive[s, g]`` and ``wounded[s, g]`` describe group ``g`` in state ``s``;
        ``character[g]`` marks CHARACTER groups. The default is the 11th-edition order,
        :func:`standard_order`.
        """
        return standard_order(alive, wounded, character, focus)

    # ------------------------------------------------------------------ after the attack
    def hazard_fails(self, natural: Any) -> Any:
        """True where a [HAZARDOUS] roll fails; by default it never does."""
        return np.zeros(np.shape(natural), dtype=bool)

    def hazard_wounds(self, context: Context) -> int:
        """Mortal wounds the attacker suffers per failed hazard roll."""
        return 3 if context.attacker_monster_or_vehicle else 1

    def after_attack_tests(self, target: Unit, before: int = 0) -> tuple[AfterAttackTest, ...]:
        """The tests the target takes after a unit's attacks; none by default.

        ``before`` is the models of ``target`` destroyed before this unit's attacks (by
        earlier units of a sequence); a test's ``taken`` then reads the models this unit
        destroyed.
        """
        return ()

    def __repr__(self) -> str:
        return f"<Ruleset {self.name!r}>"
