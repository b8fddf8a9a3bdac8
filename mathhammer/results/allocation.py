"""What each allocation group lost, read off the wounds the whole unit lost.

Models are destroyed one after another in allocation order, only the current model is
wounded, and damage beyond its wounds is lost; so, unless [PRECISION] made a CHARACTER
current while its bodyguard lived, the wounds a unit lost fix those of every group: the
first group takes the first wounds up to all it has, the next group the following ones,
and so on (the unit's groups are in allocation order: see
:class:`~mathhammer.model.profiles.Unit`). The result containers use this to give each
:class:`~mathhammer.results.attack.GroupResult` its wounds lost when an engine did not
record them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..core.dist import Dist
from ..model.profiles import Unit

__all__ = ["in_allocation_order", "line_positions", "wounds_lost_by_group"]


def in_allocation_order(abilities: Sequence[str]) -> bool:
    """Whether attacks with these abilities (as printed) use the groups up in order.

    Only [PRECISION] may wound a CHARACTER out of order, and a pool lists it among its
    abilities only against a target that has a CHARACTER.

    Examples
    --------
    >>> in_allocation_order(["[LETHAL HITS]"]), in_allocation_order(["[PRECISION]"])
    (True, False)
    """
    return not any(a == "[PRECISION]" or a.startswith("[PRECISION:") for a in abilities)


def line_positions(unit: Unit, lost: NDArray[np.int64]) -> NDArray[np.int64]:
    """``positions[i, g]``: the wounds group ``g`` lost when the unit lost ``lost[i]``.

    The groups are used up in order; a group's first model may start wounded, so it
    has ``count * wounds - wounds_lost`` wounds to lose.

    Examples
    --------
    >>> from mathhammer.model.profiles import ModelGroup, Unit
    >>> unit = Unit("Led", [ModelGroup(2, 4, 3, 2), ModelGroup(1, 4, 2, 3, character=True)])
    >>> line_positions(unit, np.arange(8)).tolist()
    [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0], [4, 1], [4, 2], [4, 3]]
    """
    sizes = np.array([g.count * g.wounds - g.wounds_lost for g in unit.groups], dtype=np.int64)
    before = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return np.asarray(np.clip(lost[:, None] - before, 0, sizes), dtype=np.int64)


def wounds_lost_by_group(unit: Unit, damage: Dist) -> tuple[Dist, ...]:
    """The wounds each group lost, from the unit's wounds lost, groups used up in order.

    Parameters
    ----------
    unit : Unit
        The target, its groups in allocation order.
    damage : Dist
        The wounds the unit lost.

    Examples
    --------
    Two W2 bodyguards and a W3 CHARACTER: 5 wounds lost are 4 on the bodyguard and 1
    on the CHARACTER.

    >>> from mathhammer.model.profiles import ModelGroup, Unit
    >>> unit = Unit("Led", [ModelGroup(2, 4, 3, 2), ModelGroup(1, 4, 2, 3, character=True)])
    >>> body, boss = wounds_lost_by_group(unit, Dist([0.5, 0, 0, 0, 0, 0.5]))
    >>> body.probabilities.tolist(), boss.probabilities.tolist()
    ([0.5, 0.0, 0.0, 0.0, 0.5], [0.5, 0.5, 0.0, 0.0])
    """
    lost = np.arange(damage.n + 1, dtype=np.int64)
    positions = line_positions(unit, lost)
    out = []
    for g, group in enumerate(unit.groups):
        size = group.count * group.wounds - group.wounds_lost
        counts = np.bincount(positions[:, g], weights=damage.probabilities, minlength=size + 1)
        out.append(Dist._trusted(counts.astype(np.float64)))
    return tuple(out)
