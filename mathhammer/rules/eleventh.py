"""The 11th-edition attack sequence (docs/rules.md §1) as literal, vectorised checks.

:class:`EleventhEdition` is the ruleset. Its checks are the functions below: each takes
natural die results (an int or a numpy array of ints) and returns categories or booleans
of the same shape, reading the rule's list of conditions top to bottom and stopping at
the first that matches.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

import numpy as np

from ..core.dice import Dice
from ..core.tables import RuleTable
from ..errors import ProfileError, RulesError, field_error
from ..model.abilities import Ability, choose
from ..model.context import Context, Modifiers
from ..model.draft import PoolDraft, Situation
from ..model.profiles import Unit, Weapon
from ..model.standing import Standing
from .base import (
    CRITICAL,
    FACE_ARRAY,
    FAIL,
    SUCCESS,
    CommandReroll,
    PoolChecks,
    RollCheck,
    Ruleset,
    function_key,
    group_saves,
    reroll_mask,
    tabulate,
    tabulated,
)
from .command import command_reroll
from .mixed import MixedRollCheck

T = TypeVar("T")

__all__ = [
    "EleventhEdition",
    "all_critical",
    "command_reroll",
    "hazard_fails",
    "hit_outcome",
    "save_outcome",
    "wound_needed",
    "wound_outcome",
]

#: The natural roll that is a Critical Hit / Critical Wound unless a rule widens it.
CRITICAL_ROLL = 6
#: The outcomes as plain ints, which numpy reads faster than enum members.
_FAIL, _SUCCESS, _CRITICAL = int(FAIL), int(SUCCESS), int(CRITICAL)


def hit_outcome(
    natural: Any,
    skill: int,
    modifier: int = 0,
    critical: int = CRITICAL_ROLL,
    fail_at_most: int = 1,
) -> Any:
    """Categorise hit rolls: FAIL, SUCCESS (a hit) or CRITICAL (a Critical Hit).

    First match: an unmodified 1 fails (1 to ``fail_at_most``: [INDIRECT FIRE] fails
    unmodified 1-5, or 1-3 when spotted); an unmodified roll of ``critical`` or more
    (6 by default) is a Critical Hit; a modified result >= BS/WS hits; else it fails.
    A 5 modified to 6 is a hit, not a Critical Hit.

    ``natural`` holds natural D6 results (1-6). The outcomes are read from
    :data:`_HIT_ROWS`, which the rule as written (:func:`_hit_rule`) filled once over the
    usual parameters; any other parameters are answered by the rule as written.

    Examples
    --------
    >>> hit_outcome(np.arange(1, 7), skill=3).tolist()
    [0, 0, 1, 1, 1, 2]
    >>> int(hit_outcome(5, skill=6, modifier=1))  # a hit, not a crit
    1
    """
    return tabulated(_HIT_ROWS, _hit_rule, natural, skill, modifier, critical, fail_at_most)


def _hit_rule(natural: Any, skill: Any, modifier: Any, critical: Any, fail_at_most: Any) -> Any:
    """:func:`hit_outcome` read literally, top to bottom (it broadcasts over every
    argument; :data:`_HIT_ROWS` holds it evaluated over its usual parameters)."""
    roll = np.asarray(natural)
    modifier = np.clip(modifier, -1, 1)  # the net hit-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= skill, _SUCCESS, _FAIL)  # the first match set last
    out[roll >= critical] = _CRITICAL
    out[roll <= fail_at_most] = _FAIL
    return out


#: :func:`_hit_rule` at every BS/WS 2+..7+, modifier -2..+2, critical roll 2..7 and
#: unmodified failure up to 1..6: rows of outcomes by natural result.
_HIT_ROWS = tabulate(
    _hit_rule,
    {
        "skill": range(2, 8),
        "modifier": range(-2, 3),
        "critical": range(2, 8),
        "fail_at_most": range(1, 7),
    },
)


def _apart_from_the_wound(checks: PoolChecks) -> tuple[Any, ...]:
    """What a pool's checks hold besides its wound roll and the abilities listed as used."""
    return tuple(
        function_key(getattr(checks, f.name))
        for f in dataclasses.fields(checks)
        if f.name not in ("wound", "used")
    )


def wound_needed(strength: int, toughness: int) -> int:
    """The wound roll needed for S against T (the five-rung ladder).

    S >= 2T: 2+; S > T: 3+; S == T: 4+; 2S <= T: 6+; otherwise S < T: 5+. The 6+
    rung is checked before the 5+ rung, so S4 vs T8 is 6+ and S4 vs T7 is 5+.

    Examples
    --------
    >>> [wound_needed(8, 4), wound_needed(7, 4), wound_needed(4, 4), wound_needed(4, 7),
    ...  wound_needed(4, 8)]
    [2, 3, 4, 5, 6]
    """
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def all_critical(natural: Any, outcome: Callable[..., Any], **check: Any) -> Any:
    """``outcome`` (:func:`hit_outcome` or :func:`wound_outcome`) where every success is a
    critical one: "every successful Hit roll scores a Critical Hit" (docs/rules.md D37).

    Examples
    --------
    >>> all_critical(np.arange(1, 7), hit_outcome, skill=4).tolist()
    [0, 0, 0, 2, 2, 2]
    """
    found = np.asarray(outcome(natural, **check))
    return np.where(found == _SUCCESS, _CRITICAL, found)


def wound_outcome(
    natural: Any, needed: int, modifier: int = 0, critical: int = CRITICAL_ROLL
) -> Any:
    """Categorise wound rolls: FAIL, SUCCESS (a wound) or CRITICAL (a Critical Wound).

    First match: a natural 1 fails whatever the modifiers; a natural ``critical``
    or more (6 by default) is a Critical Wound; a modified result >= the needed
    roll wounds; else it fails.

    ``natural`` holds natural D6 results (1-6), read as :func:`hit_outcome`'s are, from
    :data:`_WOUND_ROWS` (:func:`_wound_rule` as written).

    Examples
    --------
    >>> wound_outcome(np.arange(1, 7), needed=5).tolist()
    [0, 0, 0, 0, 1, 2]
    """
    return tabulated(_WOUND_ROWS, _wound_rule, natural, needed, modifier, critical)


def _wound_rule(natural: Any, needed: Any, modifier: Any, critical: Any) -> Any:
    """:func:`wound_outcome` read literally, top to bottom (it broadcasts over every
    argument; :data:`_WOUND_ROWS` holds it evaluated over its usual parameters)."""
    roll = np.asarray(natural)
    modifier = np.clip(modifier, -1, 1)  # the net wound-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= needed, _SUCCESS, _FAIL)  # the first match set last
    out[roll >= critical] = _CRITICAL
    out[roll == 1] = _FAIL
    return out


#: :func:`_wound_rule` at every roll needed 2+..6+, modifier -2..+2 and critical roll
#: 2..7.
_WOUND_ROWS = tabulate(
    _wound_rule,
    {"needed": range(2, 7), "modifier": range(-2, 3), "critical": range(2, 8)},
)


def save_outcome(natural: Any, ap: int, save: int, invuln: int | None = None) -> Any:
    """True where the save roll saves (the attack fails), False where it inflicts damage.

    First match: a natural 1 never saves; with an invulnerable save, a result >= InSv
    saves (AP never modifies it); the result modified by AP >= Sv saves; anything
    else inflicts damage. There is no "6 always saves": a Sv7 (no save) model hit at
    AP -1 fails on every die.

    ``natural`` holds natural D6 results (1-6), read as :func:`hit_outcome`'s are, from
    :data:`_SAVE_ROWS` (:func:`_save_rule` as written).

    Examples
    --------
    >>> save_outcome(np.arange(1, 7), ap=-1, save=3).tolist()  # a 3+ save needs a natural 4
    [False, False, False, True, True, True]
    >>> save_outcome(np.arange(1, 7), ap=-3, save=2, invuln=4).tolist()
    [False, False, False, True, True, True]
    """
    return tabulated(_SAVE_ROWS, _save_rule, natural, ap, save, invuln)


def _save_rule(natural: Any, ap: Any, save: Any, invuln: Any = None) -> Any:
    """:func:`save_outcome` read literally, top to bottom (it broadcasts over every
    argument; :data:`_SAVE_ROWS` holds it evaluated over its usual parameters)."""
    roll = np.asarray(natural)
    saved = roll + ap >= save
    if invuln is not None:
        saved = saved | (roll >= invuln)
    return saved & (roll != 1)


#: :func:`_save_rule` at every AP -6..0 and Sv 2+..7+, with an invulnerable save of
#: 2+..6+ or none.
_SAVE_ROWS: dict[tuple[Any, ...], np.ndarray] = {
    **{
        (ap, save, None): row
        for (ap, save), row in tabulate(
            _save_rule, {"ap": range(-6, 1), "save": range(2, 8)}
        ).items()
    },
    **tabulate(_save_rule, {"ap": range(-6, 1), "save": range(2, 8), "invuln": range(2, 7)}),
}


def hazard_fails(natural: Any) -> Any:
    """True where a [HAZARDOUS] roll fails: a 1 or 2.

    Examples
    --------
    >>> hazard_fails(np.arange(1, 7)).tolist()
    [True, True, False, False, False, False]
    """
    return np.asarray(natural) <= 2


def _precision_group(target: Unit, context: Context, standing: Standing | None) -> int | None:
    """The CHARACTER group [PRECISION] makes current: the one the context names if it
    stands, else the first CHARACTER group standing; None when no CHARACTER stands
    (docs/rules.md D18, D34)."""
    characters = _characters(target, standing)
    named = _named_character(target, context.precision_group)
    if named in characters:
        return named
    return characters[0] if characters else None  # the one named was destroyed before


def _characters(target: Unit, standing: Standing | None) -> tuple[int, ...]:
    """The CHARACTER groups standing: those of the standing, or every one of the target."""
    if standing is not None:
        return standing.characters
    return tuple(i for i, g in enumerate(target.groups) if g.character)


def _named_character(target: Unit, key: int | str | None) -> int | None:
    """The index of the CHARACTER group ``Context.precision_group`` names, if it names one."""
    if key is None:
        return None
    index = target.group_index(key)
    if not target.groups[index].character:
        raise field_error(
            ProfileError, "Context.precision_group", "a CHARACTER group of the target", key
        )
    return index


def _values(strength: Dice) -> list[tuple[int, float]]:
    """Each value a random Strength takes, and its chance."""
    return [
        (int(value), float(p))
        for value, p in enumerate(strength.dist.probabilities.tolist())
        if p > 0
    ]


def _check_wound_only(weapon: Weapon, checks: list[PoolChecks]) -> None:
    """Check that the checks of a random Strength's values (D42) differ in their wound
    roll only, and have no command re-roll (it is not resolved at a random Strength)."""
    assert isinstance(weapon.strength, Dice)
    if checks[0].reroll_one is not None:
        raise field_error(
            RulesError, f"weapon {weapon.name!r}.strength", "a fixed Strength with a "
            "command re-roll", weapon.strength.text,
            "a command re-roll of a wound roll at a random Strength is not resolved",
        )  # fmt: skip
    same = _apart_from_the_wound(checks[0])
    if any(_apart_from_the_wound(other) != same for other in checks[1:]):
        raise field_error(
            RulesError, f"weapon {weapon.name!r}.strength", "a Strength that changes "
            "the wound roll only", weapon.strength.text,
            "a rule on this weapon depends on its Strength beyond the wound roll",
        )  # fmt: skip


def _used_by_any(each: list[PoolChecks]) -> tuple[str, ...]:
    """The abilities any of the checks lists as used, each once, in the order first listed."""
    return tuple(dict.fromkeys(used for checks in each for used in checks.used))


#: A pool's hit and wound checks, and its saves, by their parameters and ruleset, where
#: the parameters are those the rules' tables hold (:data:`_HIT_ROWS`, :data:`_WOUND_ROWS`,
#: AP 0 to -6): one check object for the same parameters, whose chances it computes once
#: (see :meth:`~mathhammer.rules.base.RollCheck.success`).
_CHECKS: RuleTable[tuple[Any, ...], Any] = RuleTable(max_items=65_536, name="11e checks")
#: The re-roll policies of a check in :data:`_CHECKS` (:func:`reroll_mask`'s).
_POLICIES = frozenset({None, "ones", "failures", "non_critical"})


def _kept(key: tuple[Any, ...], check: T, tabulated: bool) -> T:
    """``check``, kept in :data:`_CHECKS` under ``key`` where its parameters are those the
    rules' tables hold (``tabulated``)."""
    if tabulated:
        _CHECKS.keep(key, check)
    return check


def _reroll(policy: str | None) -> Callable[[Any, Any], Any] | None:
    """The re-roll of a :class:`RollCheck` under ``policy`` (see :func:`reroll_mask`)."""
    return None if policy is None else partial(reroll_mask, policy=policy)


def _roll_check(first: Callable[..., Any], every: bool, policy: str | None) -> RollCheck:
    """The check of a roll whose outcomes ``first`` gives, every success a critical one
    where ``every``, re-rolled under ``policy``."""
    if every:
        first = partial(all_critical, outcome=first)
    return RollCheck(first=first, reroll=_reroll(policy))


def _skill(skill: int, draft: PoolDraft, cover: bool = True) -> int:
    """The pool's BS/WS after characteristic changes, not roll modifiers: outside the +/-1
    cap, within 2+..6+ (the bounds by conditionals: a builtin min or max costs a call on
    this path); ``cover``: the benefit of cover worsens it (the 11th edition's, D20)."""
    change = draft.skill_change + (1 if cover and draft.in_cover else 0)
    if "skill" in draft.ignores and change > 0:  # worsening changes ignored (D37)
        change = 0
    skill = skill + change
    return 2 if skill < 2 else 6 if skill > 6 else skill


def _net_modifier(modifier: int, penalties_ignored: bool) -> int:
    """A roll's net modifier, capped at +/-1; a penalty ignored where a rule says so (the
    bonuses kept)."""
    modifier = -1 if modifier < -1 else 1 if modifier > 1 else modifier
    return 0 if penalties_ignored and modifier < 0 else modifier


def _applied(abilities: Iterable[Ability], draft: PoolDraft, situation: Situation) -> list[str]:
    """Apply each ability effective in the situation to the pool's draft: those applied, as
    printed."""
    used = []
    for ability in abilities:
        if ability.effective(situation):
            ability.apply(draft, situation)
            used.append(str(ability))
    return used


class EleventhEdition(Ruleset):
    """The 11th-edition attack sequence (the default ruleset, ``"11e"``).

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> rules = get_ruleset("11e")
    >>> rules.name, rules.skill_field
    ('11e', 'skill')
    >>> int(rules.modified_damage(3, multiply=2, add=1, halve=True))  # ceil(7 / 2)
    4
    """

    name = "11e"
    description = "Warhammer 40,000, 11th edition (the default)"
    skill_field = "skill"
    context_fields = frozenset(f for f in Context.__dataclass_fields__ if f != "strict_save")

    def hit_outcome(
        self, natural: Any, skill: int, modifier: int, critical: int, fails_at_most: int
    ) -> Any:
        """The hit check (see :func:`hit_outcome`)."""
        return hit_outcome(natural, skill, modifier, critical, fails_at_most)

    def wound_needed(self, strength: int, toughness: int) -> int:
        """The wound table (see :func:`wound_needed`)."""
        return wound_needed(strength, toughness)

    def wound_outcome(self, natural: Any, needed: int, modifier: int, critical: int) -> Any:
        """The wound check (see :func:`wound_outcome`)."""
        return wound_outcome(natural, needed, modifier, critical)

    def save_outcome(self, natural: Any, ap: int, save: int, invuln: int | None) -> Any:
        """The save check (see :func:`save_outcome`)."""
        return save_outcome(natural, ap, save, invuln)

    def hazard_fails(self, natural: Any) -> Any:
        return hazard_fails(natural)

    def pool_checks(
        self,
        weapon: Weapon,
        target: Unit,
        context: Context,
        modifiers: Modifiers,
        standing: Standing | None = None,
    ) -> PoolChecks:
        """Resolve a pool's abilities, context and modifiers into thresholds and switches.

        Duplicated abilities are resolved to the best instance that applies against the
        target; each effective ability edits the pool's draft; ``used`` lists them as
        printed. The target's size and make-up are read as it stands (``standing``:
        docs/rules.md D34). A random Strength is rolled for each attack: the wound roll is
        the mixture of the wound rolls at each Strength (D42).
        """
        if isinstance(weapon.strength, Dice):
            return self._random_strength(weapon, target, context, modifiers, standing)
        self.check_weapon(weapon)
        assert weapon.skill is not None  # check_weapon refuses a weapon without one
        melee = context.melee or weapon.melee  # a melee weapon is melee whatever the context
        chosen = choose(weapon.abilities, target.keywords)
        reads = {"toughness"}  # the wound roll's
        situation = Situation(context, target, melee, chosen, standing, reads)
        draft = PoolDraft.start(weapon, modifiers, situation)
        self._situation_rules(draft, situation)
        # the weapon's abilities, then the target's own rules on the attacks against it
        used = self._applied(chosen, draft, situation) + _applied(target.rules, draft, situation)
        if draft.precision:
            reads.add("characters")
        if draft.reroll_one is not None:
            reads.add("current")  # the group whose save values a command re-roll
        return self._checks(
            weapon.skill, draft, target, context, tuple(used), standing, frozenset(reads)
        )

    def _checks(
        self,
        skill: int,
        draft: PoolDraft,
        target: Unit,
        context: Context,
        used: tuple[str, ...],
        standing: Standing | None,
        reads: frozenset[str] = frozenset(),
    ) -> PoolChecks:
        ap = draft.ap + target.worsen_ap  # AP worsened by the target's defence, to 0 at most
        ap = ap if ap < 0 else 0  # a conditional, not min(): a call on every pool
        assert draft.damage is not None  # PoolDraft.start sets it
        hit = None if draft.hits_automatically else self._hit_check(skill, draft)
        toughness = target.toughness if standing is None else standing.toughness
        wound = self._wound_check(draft, toughness)
        saves = self._pool_saves(ap, draft)
        focus = _precision_group(target, context, standing) if draft.precision else None
        return PoolChecks(
            hit=hit,
            wound=wound,
            saves=saves,
            damage=draft.damage,
            bonus_attacks=tuple(draft.bonus_attacks),
            attacks_set=draft.attacks_set,
            attacks_scale=draft.attacks_scale,
            fnp=draft.fnp,
            sustained=draft.sustained,
            lethal=draft.lethal,
            devastating=draft.devastating,
            ap=ap,
            damage_multiply=draft.damage_multiply,
            damage_add=draft.damage_add,
            melta=draft.melta,
            precision_group=focus,
            hazardous=draft.hazardous,
            used=used,
            save_reroll=target.reroll_saves,
            reroll_damage=draft.reroll_damage,
            reroll_one=None
            if draft.reroll_one is None
            else self._command(draft, hit, wound, saves, target, focus, standing),
            reads=reads,
        )

    def _random_strength(
        self,
        weapon: Weapon,
        target: Unit,
        context: Context,
        modifiers: Modifiers,
        standing: Standing | None,
    ) -> PoolChecks:
        """The checks of a weapon whose Strength is rolled for each attack (D42): those at
        each Strength, which may differ in their wound roll only, the wound roll their
        mixture by the Strength's distribution."""
        assert isinstance(weapon.strength, Dice)
        values = _values(weapon.strength)
        each = [
            self.pool_checks(weapon.replace(strength=value), target, context, modifiers, standing)
            for value, _ in values
        ]
        _check_wound_only(weapon, each)
        wound = MixedRollCheck.of(
            [(p, checks.wound) for (_, p), checks in zip(values, each, strict=True)]
        )
        return dataclasses.replace(each[0], wound=wound, used=_used_by_any(each))

    def _command(
        self,
        draft: PoolDraft,
        hit: RollCheck | None,
        wound: RollCheck,
        saves: Callable[..., Any],
        target: Unit,
        focus: int | None,
        standing: Standing | None,
    ) -> CommandReroll | None:
        """:func:`command_reroll` valued at the save of the group that takes the pool's
        first save: the [PRECISION] group, or the current group as the target stands."""
        if focus is not None:
            group = target.groups[focus]
        else:
            group = target.groups[0] if standing is None else standing.saving
        return command_reroll(draft, hit, wound, saves(FACE_ARRAY, group), target.reroll_saves)

    def _situation_rules(self, draft: PoolDraft, situation: Situation) -> None:
        """What the core rules change in the pool's draft before its abilities apply: in
        the 11th edition nothing (cover and Stealth are read by :func:`_skill`)."""

    def _applied(
        self, abilities: Iterable[Ability], draft: PoolDraft, situation: Situation
    ) -> list[str]:
        """Apply the weapon's abilities effective in the situation: those applied."""
        return _applied(abilities, draft, situation)

    def _skill(self, skill: int, draft: PoolDraft) -> int:
        """The pool's BS/WS after characteristic changes (cover worsens it: D20)."""
        return _skill(skill, draft)

    def _hit_check(self, skill: int, draft: PoolDraft) -> RollCheck:
        skill = self._skill(skill, draft)
        modifier = _net_modifier(draft.hit_modifier, "hit" in draft.ignores)
        if draft.hit_on is not None:  # an unmodified roll of N+ hits, whatever BS/WS (D45)
            skill, modifier = draft.hit_on, 0
        critical, fails = draft.critical_hit, draft.hit_fails_at_most
        every, policy = draft.all_hits_critical, draft.reroll_hits
        key = ("hit", self, skill, modifier, critical, fails, policy, every)
        found: RollCheck | None = _CHECKS.get(key)  # found again on almost every call (S1)
        if found is not None:
            return found
        first = partial(
            self.hit_outcome, skill=skill, modifier=modifier, critical=critical, fails_at_most=fails
        )
        tabulated = (skill, modifier, critical, fails) in _HIT_ROWS and policy in _POLICIES
        return _kept(key, _roll_check(first, every, policy), tabulated)

    def _wound_check(self, draft: PoolDraft, toughness: int) -> RollCheck:
        needed = self.wound_needed(draft.strength, toughness)
        modifier = _net_modifier(draft.wound_modifier, "wound" in draft.ignores)
        critical, every = draft.critical_wound, draft.all_wounds_critical
        policy = draft.reroll_wounds
        key = ("wound", self, needed, modifier, critical, policy, every)
        found: RollCheck | None = _CHECKS.get(key)
        if found is not None:
            return found
        first = partial(self.wound_outcome, needed=needed, modifier=modifier, critical=critical)
        tabulated = (needed, modifier, critical) in _WOUND_ROWS and policy in _POLICIES
        return _kept(key, _roll_check(first, every, policy), tabulated)

    def _pool_saves(self, ap: int, draft: PoolDraft) -> Callable[..., Any]:
        """The saves of the pool whose draft is ``draft``, at ``ap``."""
        return self._saves(ap, draft.invuln, draft.save_improve)

    def _saves(self, ap: int, invuln: int | None = None, improve: int = 0) -> Callable[..., Any]:
        """The saves of a pool at ``ap``: :func:`group_saves` of this ruleset's check
        (with the invulnerable save the target's rules give against the pool, if any, and
        the armour save they improve)."""
        key = ("saves", self, ap, invuln, improve)
        found: Callable[..., Any] | None = _CHECKS.get(key)
        if found is not None:
            return found
        saves = partial(group_saves, self.save_outcome, ap=ap, invuln=invuln, improve=improve)
        return _kept(key, saves, -6 <= ap <= 0)
