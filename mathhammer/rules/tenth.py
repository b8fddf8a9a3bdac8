"""The 10th-edition attack sequence (docs/rules.md §8): the 11th edition's checks, with
the 10th edition's saves, cover, Stealth, abilities and damage modifiers.

The two editions share the hit, wound and save rolls (an unmodified 6 is a critical
success, an unmodified 1 fails, hit and wound modifiers are capped at +/-1, the wound
table, AP never touches an invulnerable save). What the 10th edition does otherwise:

- saves are made one attack at a time, each against the model its attack is allocated to
  (:attr:`~mathhammer.rules.base.Ruleset.sorted_saves` is False), not sorted;
- the benefit of cover is +1 to the armour saving throw (not to an invulnerable save), none
  for a model with Sv 3+ or better against AP 0; Stealth is -1 to the hit roll of a ranged
  attack;
- [HEAVY] needs the unit to have remained stationary; [INDIRECT FIRE] is -1 to hit, an
  unmodified 1-3 fails and the target has the benefit of cover; [CLEAVE] does not exist;
  [LETHAL HITS] always wounds automatically;
- a failed [HAZARDOUS] test is a 1 and costs 3 mortal wounds;
- damage modifiers: set, then divide, multiply, add, subtract, fractions rounded up at
  the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from functools import partial
from typing import Any

import numpy as np

from ..model.abilities import Ability, Cleave, Heavy, IndirectFire, Torrent
from ..model.context import Context
from ..model.draft import PoolDraft, Situation
from ..model.profiles import ModelGroup
from .eleventh import _CHECKS, EleventhEdition, _applied, _kept, _skill
from .faces import group_saves, improved_save

__all__ = ["ELEVENTH_ONLY", "TenthEdition", "cover_saves"]

#: The Context fields the 10th edition does not read: [HEAVY]'s 11th-edition conditions,
#: the spotter of [INDIRECT FIRE], the choice to roll a [LETHAL HITS] wound, [CLEAVE]'s
#: single target, and the size of the [HAZARDOUS] wounds (always 3).
ELEVENTH_ONLY = frozenset(
    {
        "moved_at_most_3",
        "set_up_this_turn",
        "engaged",
        "spotted",
        "lethal_hits",
        "single_target",
        "attacker_monster_or_vehicle",
    }
)


@dataclass(frozen=True)
class _Heavy(Heavy):
    """[HEAVY] in the 10th edition: +1 to hit if the unit remained stationary."""

    def effective(self, situation: Situation) -> bool:
        return not situation.melee and situation.context.remained_stationary


@dataclass(frozen=True)
class _IndirectFire(IndirectFire):
    """[INDIRECT FIRE] in the 10th edition, at a target none of whose models is visible
    (the reason to fire it so): -1 to hit, an unmodified 1-3 fails, the target has the
    benefit of cover."""

    def effective(self, situation: Situation) -> bool:
        return not situation.melee and not situation.has(Torrent)

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.hit_modifier -= 1
        draft.hit_fails_at_most = max(draft.hit_fails_at_most, 3)
        draft.cover = True


@dataclass(frozen=True)
class _Cleave(Cleave):
    """[CLEAVE] is not a 10th-edition ability: no effect."""

    def effective(self, situation: Situation) -> bool:
        return False


#: The abilities the 10th edition words otherwise: their classes by the 11th edition's.
_TENTH: dict[type[Ability], type[Ability]] = {
    Heavy: _Heavy,
    IndirectFire: _IndirectFire,
    Cleave: _Cleave,
}


def _in_the_edition(ability: Ability) -> Ability:
    """``ability`` as the 10th edition words it (the same fields, the edition's effect)."""
    kind = _TENTH.get(type(ability))
    if kind is None:
        return ability
    return kind(**{f.name: getattr(ability, f.name) for f in fields(ability)})


def cover_saves(
    check: Callable[..., Any],
    natural: Any,
    group: ModelGroup,
    *,
    ap: int,
    invuln: int | None = None,
    improve: int = 0,
    cover: bool = False,
) -> Any:
    """:func:`~mathhammer.rules.faces.group_saves` with the 10th edition's benefit of cover:
    +1 to the armour saving throw (an invulnerable save is not modified), except for a
    model whose Sv is 3+ or better against an attack of AP 0.

    Examples
    --------
    >>> from mathhammer.rules.eleventh import save_outcome
    >>> faces = np.arange(1, 7)
    >>> cover_saves(save_outcome, faces, ModelGroup(5, 4, 4, 1), ap=0, cover=True).tolist()
    [False, False, True, True, True, True]
    >>> cover_saves(save_outcome, faces, ModelGroup(5, 4, 3, 1), ap=0, cover=True).tolist()
    [False, False, True, True, True, True]
    >>> cover_saves(save_outcome, faces, ModelGroup(5, 4, 2, 1), ap=-2, cover=True).tolist()
    [False, False, True, True, True, True]
    """
    save = improved_save(group.save, improve)
    bonus = 1 if cover and not (save <= 3 and ap == 0) else 0
    return group_saves(check, natural, group, ap=ap + bonus, invuln=invuln, improve=improve)


class TenthEdition(EleventhEdition):
    """The 10th-edition attack sequence (``"10e"``): the rules most lists in the wild, the
    10th-edition rosters and the Wahapedia export are written for.

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> rules = get_ruleset("10e")
    >>> rules.name, rules.sorted_saves
    ('10e', False)
    >>> int(rules.modified_damage(5, add=2, halve=True))  # 5 / 2 + 2 = 4.5, rounded up
    5
    """

    name = "10e"
    description = "Warhammer 40,000, 10th edition"
    sorted_saves = False
    context_fields = frozenset(
        f for f in Context.__dataclass_fields__ if f != "strict_save" and f not in ELEVENTH_ONLY
    )

    def _situation_rules(self, draft: PoolDraft, situation: Situation) -> None:
        """Cover from the context only, and Stealth -1 to the hit roll of a ranged attack."""
        ranged = not situation.melee
        draft.cover = ranged and situation.context.target_in_cover
        if ranged and situation.target.stealth:
            draft.hit_modifier -= 1

    def _applied(
        self, abilities: Iterable[Ability], draft: PoolDraft, situation: Situation
    ) -> list[str]:
        return _applied([_in_the_edition(a) for a in abilities], draft, situation)

    def _skill(self, skill: int, draft: PoolDraft) -> int:
        """The pool's BS/WS after characteristic changes; cover does not change it."""
        return _skill(skill, draft, cover=False)

    def _pool_saves(self, ap: int, draft: PoolDraft) -> Callable[..., Any]:
        """The saves of the pool: :func:`cover_saves` of this ruleset's check."""
        cover, invuln, improve = draft.in_cover, draft.invuln, draft.save_improve
        key = ("saves", self, ap, invuln, improve, cover)
        found: Callable[..., Any] | None = _CHECKS.get(key)
        if found is not None:
            return found
        saves = partial(
            cover_saves, self.save_outcome, ap=ap, invuln=invuln, improve=improve, cover=cover
        )
        return _kept(key, saves, -6 <= ap <= 0)

    def modified_damage(
        self,
        damage: Any,
        multiply: int = 1,
        add: Any = 0,
        halve: bool = False,
        subtract: int = 0,
    ) -> Any:
        """The damage of one attack after modifiers, as the 10th edition orders them: the
        (already set) value divided, multiplied, added to, subtracted from, and the
        fraction rounded up at the end; at least 1.

        Examples
        --------
        >>> from mathhammer.rules import get_ruleset
        >>> get_ruleset("10e").modified_damage(np.array([1, 2, 3, 6]), halve=True, add=1).tolist()
        [2, 2, 3, 4]
        """
        value = np.asarray(damage) * multiply
        bonus = np.asarray(add) - subtract
        if halve:  # (d / 2) m + a - s, rounded up: (d m + 2 (a - s)) / 2, rounded up
            return np.maximum(-(-(value + 2 * bonus) // 2), 1)
        return np.maximum(value + bonus, 1)

    def hazard_fails(self, natural: Any) -> Any:
        """True where a [HAZARDOUS] test fails: a 1."""
        return np.asarray(natural) == 1

    def hazard_wounds(self, context: Context) -> int:
        """A failed [HAZARDOUS] test costs the unit 3 mortal wounds."""
        return 3
