"""The six faces of a D6 and what a check makes of them: the outcome of a die, tables of a
check over every face, re-roll masks, the weights of a save's faces with its re-roll, and
a group's saves. Both engines and every ruleset read these; they hold no rule of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import IntEnum
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import RulesError, field_error
from ..model.values import best_roll

if TYPE_CHECKING:
    from ..model.profiles import ModelGroup

__all__ = [
    "CRITICAL",
    "FACES",
    "FACE_ARRAY",
    "FAIL",
    "SUCCESS",
    "Outcome",
    "failed_faces",
    "group_saves",
    "improved_save",
    "reroll_mask",
    "save_face_weights",
    "tabulate",
    "tabulated",
]


class Outcome(IntEnum):
    """The result of one hit or wound die."""

    FAIL = 0
    SUCCESS = 1
    #: A critical hit or critical wound; it is also a success.
    CRITICAL = 2


FAIL, SUCCESS, CRITICAL = Outcome.FAIL, Outcome.SUCCESS, Outcome.CRITICAL

#: The faces of a D6.
FACES = (1, 2, 3, 4, 5, 6)
#: The faces of a D6 as a read-only array, for the checks the exact engine applies to them.
FACE_ARRAY = np.arange(1, 7)
FACE_ARRAY.setflags(write=False)


def tabulate(
    rule: Callable[..., Any], domains: dict[str, Sequence[int]]
) -> dict[tuple[Any, ...], np.ndarray]:
    """A check of natural D6 results evaluated once at every combination of its parameters'
    values: ``table[params][natural]`` is ``rule(natural, **params)``, the parameters in
    the order of ``domains``.

    The rule is called once, on the faces and a grid of every combination (its literal
    form must broadcast over its parameters as over its dice). Each row is read-only and
    indexed by the natural result itself (index 0 is not a face and holds 0), so that a
    check reads ``row[natural]``: one indexing, where the literal form makes an array
    operation per line of its rule.

    Examples
    --------
    >>> at_least = lambda natural, needed: natural >= needed
    >>> table = tabulate(at_least, {"needed": [3, 5]})
    >>> table[(5,)][FACE_ARRAY].tolist()
    [False, False, False, False, True, True]
    >>> sorted(table)
    [(3,), (5,)]
    """
    values = [list(v) for v in domains.values()]
    *grids, faces = np.meshgrid(*(np.asarray(v) for v in values), np.arange(7), indexing="ij")
    out = np.array(rule(faces, **dict(zip(domains, grids, strict=True))))
    out[..., 0] = 0
    out.setflags(write=False)
    return dict(zip(product(*values), out.reshape(-1, 7), strict=True))


def tabulated(
    rows: dict[tuple[Any, ...], np.ndarray], rule: Callable[..., Any], natural: Any, *params: Any
) -> Any:
    """``rule(natural, *params)``, read from ``rows`` (made by :func:`tabulate`) where they
    hold those parameters, and from the rule itself otherwise (parameters outside the
    table, or given as arrays). Asked for the six faces (:data:`FACE_ARRAY` itself), a
    row gives its own read-only entries rather than a copy.

    Examples
    --------
    >>> at_least = lambda natural, needed: natural >= needed
    >>> rows = tabulate(at_least, {"needed": [3, 5]})
    >>> tabulated(rows, at_least, FACE_ARRAY, 5).tolist(), bool(tabulated(rows, at_least, 6, 7))
    ([False, False, False, False, True, True], False)
    """
    try:
        row = rows.get(params)
    except TypeError:  # parameters given as arrays
        row = None
    if row is None:
        return rule(natural, *params)
    if natural is FACE_ARRAY:  # the six faces: the row's own entries (read-only), not a copy
        return row[1:]
    return row[natural]


def failed_faces(outcomes: Any) -> int:
    """How many of the six faces' ``outcomes`` (categories or booleans) fail, i.e. are 0.

    Examples
    --------
    >>> failed_faces(np.array([0, 0, 1, 1, 1, 2])), failed_faces(FACE_ARRAY >= 5)
    (2, 4)
    """
    return int(np.asarray(outcomes).tolist().count(0))  # six entries: no array reduction


def reroll_mask(natural: Any, categories: Any, policy: str | None) -> Any:
    """Which dice a re-roll policy re-rolls: ``"ones"`` (natural 1s), ``"failures"``
    (failed results) or ``"non_critical"`` (every result that is not critical).

    Examples
    --------
    >>> faces = np.arange(1, 7)
    >>> cats = np.array([0, 0, 1, 1, 1, 2])
    >>> reroll_mask(faces, cats, "failures").tolist()
    [True, True, False, False, False, False]
    >>> reroll_mask(faces, cats, "non_critical").tolist()
    [True, True, True, True, True, False]
    """
    rerolled = _REROLLED.get(policy) if isinstance(policy, str | None) else None
    if rerolled is None:
        raise field_error(
            RulesError, "re-roll policy", "None, 'ones', 'failures' or 'non_critical'", policy
        )
    return rerolled(np.asarray(natural), np.asarray(categories))


#: Which dice each re-roll policy re-rolls, from their natural results and categories.
_REROLLED: dict[str | None, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    None: lambda natural, categories: np.zeros(categories.shape, dtype=bool),
    "ones": lambda natural, categories: natural == 1,
    "failures": lambda natural, categories: categories == FAIL,
    "non_critical": lambda natural, categories: categories != CRITICAL,
}


def save_face_weights(saved: np.ndarray, policy: str | None) -> np.ndarray:
    """``weights[g, f - 1]``: the chance that one save die shows a natural ``f`` once the
    defender's re-rolls are made, when a model of group ``g`` is current as the dice are
    rolled (docs/rules.md §4.7, D29).

    ``saved[g, f - 1]`` tells whether group ``g`` saves a natural ``f``. With ``"ones"``
    every 1 is rolled again; with ``"failures"`` every die that fails against the current
    group's model is; either way once, before the dice are sorted.

    Examples
    --------
    >>> saved = np.array([[0, 0, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1]], dtype=bool)
    >>> (save_face_weights(saved, "ones") * 36).round(9).tolist()[0]
    [1.0, 7.0, 7.0, 7.0, 7.0, 7.0]
    >>> (save_face_weights(saved, "failures") * 36).round(9).tolist()  # 2 or 4 faces fail
    [[2.0, 2.0, 8.0, 8.0, 8.0, 8.0], [4.0, 4.0, 4.0, 4.0, 10.0, 10.0]]
    """
    uniform = np.full(saved.shape, 1.0 / len(FACES))
    if policy is None:
        return uniform
    if policy == "ones":
        again = np.zeros(saved.shape, dtype=bool)
        again[:, 0] = True
    elif policy == "failures":
        again = ~np.asarray(saved, dtype=bool)
    else:
        raise field_error(RulesError, "save re-roll policy", "None, 'ones' or 'failures'", policy)
    # kept when not re-rolled; a re-rolled die lands on each face with chance 1/6
    rerolled = again.sum(axis=1, keepdims=True) / len(FACES)
    return np.asarray(np.where(again, 0.0, uniform) + uniform * rerolled, dtype=np.float64)


def group_saves(
    check: Callable[..., Any],
    natural: Any,
    group: ModelGroup,
    *,
    ap: int,
    invuln: int | None = None,
    improve: int = 0,
) -> Any:
    """Which natural save rolls save for a model of ``group``: ``check(natural, ap, Sv, InSv)``.

    ``invuln`` is an invulnerable save the pool's rules give every group (the better of it
    and the group's own applies); ``improve`` improves each group's armour save against the
    pool ("+1 Sv against ranged attacks": 4+ becomes 3+, never better than 2+; no armour
    save stays none).

    A ruleset binds its save check and the pool's AP with :func:`functools.partial` to
    make the ``saves`` of :class:`PoolChecks`: a function of the module, unlike a lambda,
    pickles, so a plan can be sent to a worker process.

    Examples
    --------
    >>> from functools import partial
    >>> from mathhammer.model.profiles import ModelGroup
    >>> from mathhammer.rules.eleventh import save_outcome
    >>> saves = partial(group_saves, save_outcome, ap=-1)
    >>> saves(np.arange(1, 7), ModelGroup(5, 4, 3, 1)).tolist()  # Sv3+ at AP -1: 4+
    [False, False, False, True, True, True]
    """
    return check(natural, ap, improved_save(group.save, improve), best_roll(group.invuln, invuln))


def improved_save(save: int, improve: int) -> int:
    """An armour save improved by ``improve`` ("+1 Sv": 4+ becomes 3+), never better than
    2+; no armour save (7) stays none.

    Examples
    --------
    >>> improved_save(4, 1), improved_save(2, 1), improved_save(7, 1), improved_save(5, 0)
    (3, 2, 7, 5)
    """
    if improve and save < 7:
        return max(2, save - improve)
    return save
