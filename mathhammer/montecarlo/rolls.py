"""Rolling real dice for every trial at once: faces, re-rolls, sums, damage, Feel No Pain.

Each function takes the generator of one block of trials and per-trial counts, rolls a
rectangular array of faces and masks the dice a trial does not have, so that every trial
of the block is rolled in one numpy call. The ruleset's literal checks read the faces,
through their tables over the six faces (:mod:`~mathhammer.montecarlo.tables`). Dice
whose faces are not read again (a roll without re-rolls) are read through their table
as they are rolled (:func:`rolled_read`): the table composed with the faces of the
random bytes, the same bytes drawn and the same values read.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from ..core.dice import Dice
from ..model.profiles import Unit
from ..rules.base import (
    CRITICAL,
    FAIL,
    SUCCESS,
    CommandReroll,
    PoolChecks,
    RollCheck,
    Ruleset,
)
from ..rules.damage_rerolls import damage_rerolls
from ..rules.mixed import MixedRollCheck
from .tables import (
    count_pairs,
    faces_table,
    lookup,
    most_dice,
    pair_table,
    prefix_mask,
    row_sums,
)

__all__ = [
    "categorise",
    "count_rolled",
    "d6",
    "damage_roll",
    "defended_damage",
    "feel_no_pain",
    "roll_sum",
    "rolled",
    "rolled_read",
]


#: A random byte's face: ``b % 6 + 1`` for the 252 bytes below ``6 * 42``, each face from
#: 42 of them, and 0 (rolled again) for the last four.
_FACE_OF_BYTE = bytes(b % 6 + 1 if b < 252 else 0 for b in range(256))


def d6(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """D6 faces (int8) of the given shape, each uniform over 1-6 and independent.

    A face per random byte (:data:`_FACE_OF_BYTE`): a byte that does not divide evenly by
    six is rolled again, so the faces are exactly uniform; about 2.5 times quicker than
    ``rng.integers(1, 7, dtype=np.int8)``, whose bounded draw spends more per die.

    Examples
    --------
    >>> faces = d6(np.random.default_rng(1), (2, 3))
    >>> faces.shape, faces.dtype, bool(((faces >= 1) & (faces <= 6)).all())
    ((2, 3), dtype('int8'), True)
    """
    faces = _read_bytes(rng, int(np.prod(shape)), _FACE_OF_BYTE, again=0)
    return faces.view(np.int8).reshape(shape)


#: The code of a byte that :data:`_FACE_OF_BYTE` rolls again, in a table of
#: :func:`_codes_of_bytes` (which holds no other entry of it).
_AGAIN = 255


def _read_bytes(
    rng: np.random.Generator, size: int, codes: bytes, again: int = _AGAIN
) -> np.ndarray:
    """``size`` dice (uint8), each a random byte translated by ``codes``; a byte that
    translates to ``again`` (0 in :data:`_FACE_OF_BYTE`, :data:`_AGAIN` in a table of
    :func:`_codes_of_bytes`) is rolled again, from the bytes that follow, in order: the
    same bytes whatever the table, so that a table read as the dice are rolled reads
    the dice :func:`d6` rolls."""
    out = np.frombuffer(bytearray(rng.bytes(size)).translate(codes), dtype=np.uint8)
    redo = np.flatnonzero(out == again)
    if redo.size:
        out[redo] = _read_bytes(rng, redo.size, codes, again)
    return out


def _codes_of_bytes(table: np.ndarray) -> bytes | None:
    """A random byte's entry of ``table`` (indexed by the face it rolls, as
    :func:`~mathhammer.montecarlo.tables.lookup` reads it), :data:`_AGAIN` for a byte
    rolled again; None for a table that is not whole numbers from 0 to 254 with no die
    (entry 0) at 0."""
    if len(table) != 7 or table[0] != 0 or table.min() < 0 or table.max() >= _AGAIN:
        return None
    codes = table.astype(np.uint8)
    if not np.array_equal(codes, table):
        return None
    faces = np.frombuffer(_FACE_OF_BYTE, dtype=np.uint8)
    return np.where(faces > 0, codes[faces], _AGAIN).astype(np.uint8).tobytes()


def rolled(rng: np.random.Generator, counts: np.ndarray) -> np.ndarray:
    """Roll ``counts[t]`` D6 for each trial: a rectangle of faces (one numpy call), with
    :data:`~mathhammer.montecarlo.tables.NO_DIE` where a trial has no die.

    Examples
    --------
    >>> faces = rolled(np.random.default_rng(1), np.array([3, 0, 1]))
    >>> faces.shape, (faces > 0).sum(axis=1).tolist()
    ((3, 3), [3, 0, 1])
    """
    width = most_dice(counts)
    faces = d6(rng, (counts.size, width))
    faces *= prefix_mask(counts, width)  # NO_DIE is 0
    return faces


def rolled_read(rng: np.random.Generator, counts: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``lookup(table, rolled(rng, counts))``: the same dice, from the same random bytes,
    each read through ``table`` as it is rolled (one translation of the bytes, where
    rolling then reading makes two and a copy), where the faces themselves are not
    needed again.

    Examples
    --------
    >>> table = np.array([0, 0, 0, 1, 1, 1, 2], dtype=np.float32)
    >>> counts = np.array([3, 0, 5])
    >>> read = rolled_read(np.random.default_rng(1), counts, table)
    >>> read.dtype, np.array_equal(read, lookup(table, rolled(np.random.default_rng(1), counts)))
    (dtype('float32'), True)
    """
    codes = _codes_of_bytes(table)
    if codes is None:
        return lookup(table, rolled(rng, counts))
    width = most_dice(counts)
    read = _read_bytes(rng, counts.size * width, codes).reshape(counts.size, width)
    read *= prefix_mask(counts, width).view(np.uint8)  # no die reads entry 0, which is 0
    return read.astype(table.dtype)


def roll_sum(rng: np.random.Generator, dice: Dice, counts: np.ndarray) -> np.ndarray:
    """The sum of ``counts[t]`` independent rolls of a dice expression, per trial."""
    width = most_dice(counts)
    if width == 0:
        return np.zeros(counts.size, dtype=np.int64)
    rolls = dice.roll(rng, (counts.size, width))
    summed: np.ndarray = np.where(np.arange(width) < counts[:, None], rolls, 0).sum(axis=1)
    return summed


def count_rolled(rng: np.random.Generator, counts: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``count_where(rolled(rng, counts), table)``: each trial's dice whose entry of the
    boolean ``table`` is true, the dice read as they are rolled (:func:`rolled_read`).

    Examples
    --------
    >>> from mathhammer.montecarlo.tables import count_where
    >>> fails = faces_table(lambda f: np.asarray(f) <= 2, bool)
    >>> counts = np.array([4, 0, 9])
    >>> np.array_equal(count_rolled(np.random.default_rng(5), counts, fails),
    ...                count_where(rolled(np.random.default_rng(5), counts), fails))
    True
    """
    return row_sums(rolled_read(rng, counts, np.asarray(table, dtype=np.float32)))


def categorise(
    rng: np.random.Generator,
    counts: np.ndarray,
    check: RollCheck,
    command: CommandReroll | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Roll, re-roll what the check selects (once), and count successes and criticals.

    The check is read through its table over the six faces
    (:mod:`~mathhammer.montecarlo.tables`); the re-rolls are rolled, for the whole
    rectangle of dice, only when some die is re-rolled. A ``command`` re-roll then rolls
    one more die for each trial its policy picks a die of (:func:`_command`).
    """
    if isinstance(check, MixedRollCheck):  # each die's check chosen by a roll (D42)
        return _mixed(rng, counts, check)
    first = faces_table(check.first)
    if check.reroll is None and command is None:  # the faces are not read again
        table, scale = pair_table(first, most_dice(counts))
        return count_pairs(rolled_read(rng, counts, table), scale)
    faces = rolled(rng, counts)
    table, scale = pair_table(first, faces.shape[1])
    values = lookup(table, faces)
    again = None
    if check.reroll is not None:
        again = lookup(faces_table(partial(_selected, check.reroll, first[1:]), bool), faces)
        values = _rerolled(rng, check, faces, values, again)
    successes, criticals = count_pairs(values, scale)
    if command is None:
        return successes, criticals
    stands = faces > 0 if again is None else (faces > 0) & ~again
    return _command(rng, check, command, lookup(first, faces), stands, successes, criticals)


def _rerolled(
    rng: np.random.Generator,
    check: RollCheck,
    faces: np.ndarray,
    values: np.ndarray,
    again: np.ndarray,
) -> np.ndarray:
    """``values`` (each die's entry of the pair table) with the dice ``again`` selects
    rolled once more and read by the check of re-rolled dice; no die is rolled when none
    is selected."""
    if not again.any():
        return values
    rerolled = d6(rng, faces.shape)
    second, _ = pair_table(faces_table(check.again), faces.shape[1])
    return np.where(again, lookup(second, rerolled), values)


def _mixed(
    rng: np.random.Generator, counts: np.ndarray, check: MixedRollCheck
) -> tuple[np.ndarray, np.ndarray]:
    """A roll made first for each die (a random Strength) picks its check: the dice of
    each trial shared among the checks as those rolls fall (a multinomial draw), each
    share rolled and read by its own check."""
    weights = np.array([w for w, _ in check.components])
    shares = rng.multinomial(counts.astype(np.int64), weights / weights.sum())
    successes = np.zeros(counts.shape, dtype=np.int64)
    criticals = np.zeros(counts.shape, dtype=np.int64)
    for k, (_, part) in enumerate(check.components):
        share = shares[..., k]
        if share.any():
            s, c = categorise(rng, share, part)
            successes += s
            criticals += c
    return successes, criticals


def _command(
    rng: np.random.Generator,
    check: RollCheck,
    command: CommandReroll,
    first: np.ndarray,
    stands: np.ndarray,
    successes: np.ndarray,
    criticals: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The command re-roll of each trial: a die whose first roll stands and failed, or
    (``fish``) when there is none, one that succeeded but not critically, is rolled
    again and counted as it lands (docs/rules.md D30)."""
    failed = (stands & (first == FAIL)).any(axis=1)
    taken = np.zeros(failed.shape, dtype=bool)
    if command.fish:
        taken = ~failed & (stands & (first == SUCCESS)).any(axis=1)
    picked = failed | taken
    lands = np.take(faces_table(check.again), d6(rng, picked.shape))
    successes = successes - taken + (picked & (lands == SUCCESS))
    criticals = criticals + (picked & (lands == CRITICAL))
    return successes, criticals


def _selected(reroll: Callable[[Any, Any], Any], categories: np.ndarray, faces: Any) -> Any:
    """The dice a re-roll selects among ``faces`` of the given categories."""
    return reroll(faces, categories)


def _fnp_saves(ruleset: Ruleset, fnp: int, faces: Any) -> Any:
    return ruleset.fnp_saves(faces, fnp)


def damage_roll(
    rng: np.random.Generator, checks: PoolChecks, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Roll the attacker's D and [MELTA] X: the (d, add) to pass to ``modified_damage``."""
    d = checks.damage.roll(rng, size)
    add = np.full(size, checks.damage_add)
    if checks.melta is not None:
        add = add + checks.melta.roll(rng, size)
    return d, add


def rerolled_damage(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    unit: Unit,
    groups: np.ndarray,
    left: np.ndarray,
    rolled: np.ndarray,
    add: np.ndarray,
    mortal: bool = False,
    command: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """With ``reroll_damage="optimal"``, each damage roll (``rolled``, ``add``:
    :func:`damage_roll`) that the decision table marks for a model of its group with
    ``left`` wounds left, rolled again (docs/rules.md D31); otherwise ``rolled``.

    With a command re-roll of one damage roll (``command``: the trials rolling and every
    trial's flag of its re-roll used), the first roll the table marks in each trial whose
    re-roll is unused, and the flag set (D32). The rolls of one call are one per trial."""
    if rolled.size == 0 or (checks.reroll_damage != "optimal" and command is None):
        return rolled
    again = _worth_rerolling(ruleset, checks, unit, groups, left, rolled, add, mortal)
    if command is not None:
        _unused_commands(again, *command)
    if not again.any():
        return rolled
    return np.where(again, checks.damage.roll(rng, rolled.size), rolled)


def _unused_commands(again: np.ndarray, trials: np.ndarray, used: np.ndarray) -> None:
    """The command re-roll of one damage roll: of the rolls marked ``again`` (one per trial
    of ``trials``), only those of a trial whose re-roll is unused, and it is used now
    (``used``: every trial's flag; D32)."""
    again &= ~used[trials]
    used[trials[again]] = True


def _worth_rerolling(
    ruleset: Ruleset,
    checks: PoolChecks,
    unit: Unit,
    groups: np.ndarray,
    left: np.ndarray,
    rolled: np.ndarray,
    add: np.ndarray,
    mortal: bool,
) -> np.ndarray:
    """Each damage roll the decision table of its group marks to roll again, against a
    model with ``left`` wounds left (docs/rules.md D31)."""
    x = add - checks.damage_add  # the [MELTA] roll, kept
    again = np.zeros(rolled.shape, dtype=bool)
    for gi, g in enumerate(unit.groups):
        here = groups == gi
        if here.any():
            table = damage_rerolls(
                ruleset, checks.damage, checks.melta, checks.damage_multiply,
                checks.damage_add, g, mortal,
            )  # fmt: skip
            again[here] = table[left[here], rolled[here], x[here]]
    return again


def defended_damage(
    ruleset: Ruleset,
    checks: PoolChecks,
    unit: Unit,
    groups: np.ndarray,
    rolled: np.ndarray,
    add: np.ndarray,
    mortal: bool = False,
) -> np.ndarray:
    """Each rolled Damage (``rolled``, ``add``: :func:`damage_roll`) as the group it strikes
    takes it: the attacker's multiplier and additions, then the group's halving and
    reduction; for mortal wounds only where the group's rule says so (``reduce_mortal``)."""
    d = np.asarray(ruleset.modified_damage(rolled, checks.damage_multiply, add), dtype=np.int64)
    for gi, g in enumerate(unit.groups):
        here = groups == gi
        if (g.reduce_mortal or not mortal) and here.any():
            d[here] = ruleset.modified_damage(
                rolled[here], checks.damage_multiply, add[here], g.halve_damage, g.damage_reduction
            )
    return d


def feel_no_pain(
    rng: np.random.Generator,
    ruleset: Ruleset,
    unit: Unit,
    group: np.ndarray,
    wounds: np.ndarray,
    mortal: bool = False,
) -> np.ndarray:
    """Roll Feel No Pain for each wound (mortal wounds: the group's FNP against them);
    return the wounds not prevented."""
    out = wounds.copy()
    for gi, g in enumerate(unit.groups):
        fnp = g.feel_no_pain(mortal)
        if fnp is None:
            continue
        here = np.flatnonzero(group == gi)
        if here.size == 0:
            continue
        saves = faces_table(partial(_fnp_saves, ruleset, fnp), bool)
        out[here] -= count_rolled(rng, wounds[here], saves)
    return out
