"""The allocation-order rules a target unit's groups follow (docs/rules.md §1.6, D4).

:class:`~mathhammer.model.unit.Unit` checks its groups here: a non-CHARACTER group holding
a wounded model goes first, no CHARACTER group precedes a non-CHARACTER group, CHARACTER
groups with a wounded model precede those without, and no two non-CHARACTER groups share
W, Sv and InSv (they would be one group). A broken rule raises
:class:`~mathhammer.errors.AllocationOrderError`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..errors import AllocationOrderError

if TYPE_CHECKING:
    from .unit import ModelGroup

__all__ = ["check_allocation_order"]


def check_allocation_order(groups: Sequence[ModelGroup]) -> None:
    """Check the groups' order against the allocation-order rules (docs/rules.md §1.6, D4),
    and that no two non-CHARACTER groups share W, Sv and InSv."""
    _check_wounded_first(groups)
    _check_characters_last(groups)
    _check_merged(groups)


def _where(groups: Sequence[ModelGroup], i: int) -> str:
    """Group ``i`` as an allocation-order error names it."""
    kind = "CHARACTER" if groups[i].character else "non-CHARACTER"
    return f"{kind} group {groups[i].label!r} at position {i + 1}"


def _wounded_bodies(groups: Sequence[ModelGroup]) -> list[int]:
    """The positions of the non-CHARACTER groups holding a wounded model."""
    return [i for i, g in enumerate(groups) if not g.character and g.wounds_lost]


def _check_wounded_first(groups: Sequence[ModelGroup]) -> None:
    """Check that at most one non-CHARACTER group holds a wounded model, and goes first."""
    wounded_bodies = _wounded_bodies(groups)
    if len(wounded_bodies) > 1:
        raise AllocationOrderError(
            "Unit.groups must hold at most one non-CHARACTER group with a wounded model, "
            f"because such a group must go first; got {len(wounded_bodies)}: "
            + ", ".join(_where(groups, i) for i in wounded_bodies)
        )
    if wounded_bodies and wounded_bodies[0] != 0:
        raise AllocationOrderError(
            "Unit.groups must put a non-CHARACTER group holding a wounded model first; "
            f"got {_where(groups, wounded_bodies[0])}"
        )


def _character_before_body(this: ModelGroup, after: ModelGroup) -> bool:
    """True if a CHARACTER group precedes a non-CHARACTER one."""
    return this.character and not after.character


def _unwounded_first(this: ModelGroup, after: ModelGroup) -> bool:
    """True if an unwounded CHARACTER group precedes a wounded one."""
    return this.character and after.character and not this.wounds_lost and after.wounds_lost > 0


#: The rules on two neighbouring groups: what breaks each, and its message, in which
#: ``{0}`` and ``{1}`` are the two groups as :func:`_where` names them.
_NEIGHBOUR_RULES: tuple[tuple[Callable[[ModelGroup, ModelGroup], bool], str], ...] = (
    (
        _character_before_body,
        "Unit.groups must put every non-CHARACTER group before the CHARACTER groups; "
        "got {0} before {1}",
    ),
    (
        _unwounded_first,
        "Unit.groups must put wounded CHARACTER groups before unwounded ones; "
        "got {0} (unwounded) before {1} (wounded)",
    ),
)


def _check_characters_last(groups: Sequence[ModelGroup]) -> None:
    """Check that the CHARACTER groups come last, the wounded ones first among them."""
    for i, pair in enumerate(itertools.pairwise(groups)):
        for broken, message in _NEIGHBOUR_RULES:
            if broken(*pair):
                raise AllocationOrderError(message.format(_where(groups, i), _where(groups, i + 1)))


def _check_merged(groups: Sequence[ModelGroup]) -> None:
    """Check that no two non-CHARACTER groups share W, Sv and InSv (they are one group)."""
    seen: dict[tuple[int, int, int | None], int] = {}
    for i, g in enumerate(groups):
        if g.character:
            continue
        key = (g.wounds, g.save, g.invuln)
        if key in seen:
            raise AllocationOrderError(
                "Unit.groups must not split models sharing W, Sv and InSv into two groups; "
                f"got {_where(groups, seen[key])} and {_where(groups, i)} "
                "(merge them into one group)"
            )
        seen[key] = i
