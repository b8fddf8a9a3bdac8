"""The sizes mathhammer accepts, in one place.

Every size that drives memory or work is checked before anything is allocated: a size
beyond its limit raises a :class:`~mathhammer.errors.LimitError` that names the size,
its limit and the value, with the remedy as its hint. The limits are set so that
anything accepted finishes in seconds with well under a gigabyte (the figures at each
limit's edge are measured in ``benchmarks/README.md``).

Dice expressions and distributions (both engines; no datasheet comes near them):

====================  ===========  =========================================================
limit                 value        what it bounds
====================  ===========  =========================================================
MAX_DICE              100          dice in one expression (``"100D6"``)
MAX_SIDES             20           sides of a die (``"D66"`` is a typo)
MAX_VALUE             1,000,000    the largest value of an expression (``"D6+1000000"``)
MAX_DIST_SIZE         10,000,000   the largest value of a distribution the library builds
MAX_BINOMIAL_N        20,000       ``Dist.binomial(n)`` and ``Dist.thin`` (work grows as n²)
MAX_DIST_WORK         2e9          operations of one ``repeat``, ``compound`` or ``+``
====================  ===========  =========================================================

The exact engine (:func:`mathhammer.attack`); beyond these, :func:`mathhammer.simulate`
estimates the attack by Monte Carlo:

====================  ===========  =========================================================
MAX_POOL_DICE         5,000        attack dice of one pool (bonus attacks included)
MAX_POOL_HITS         15,000       hits of one pool: dice x (1 + [SUSTAINED HITS] X)
MAX_UNIT_WOUNDS       10,000       wounds of the target unit
MAX_STATES            200,000      model-wound states of the target ([PRECISION])
MAX_DAMAGE            1,000        Damage of one attack: D (or the damage set) x multiplier
                                   + added damage + [MELTA] X, at their largest
MAX_MORTAL_WOUNDS     100,000      mortal wounds of one step (``MortalWounds(n)``)
MAX_TABLE             20,000,000   entries of the largest table a pool needs (160 MB)
MAX_WORK              3e9          estimated operations of one pool (a few seconds)
====================  ===========  =========================================================

The searches that attack many times (the defender's orders of the groups, the orders of
the pools, the splits of a melee weapon, the assignments of declarations to targets) are
estimated before their first attack, as the attacks they make times each one's work:

====================  ===========  =========================================================
MAX_SEARCH_WORK       5e9          estimated operations of one search (at most about 12 s)
====================  ===========  =========================================================

The Monte Carlo (:func:`mathhammer.simulate`) keeps counts, not trials, so its memory
does not grow with the trials; it refuses only what would exhaust memory or never end:

====================  ===========  =========================================================
MAX_TRIALS            10**7        trials of one simulation
MAX_TRIAL_DICE        1,000,000    dice one trial rolls at once (a stage of a pool)
BLOCK_DICE            10,000,000   dice rolled at once by a block of trials: a pool of more
                                   than 200 dice is simulated in blocks of fewer than
                                   50,000 trials (about 26 bytes a die: 260 MB)
====================  ===========  =========================================================

Examples
--------
>>> check_limit("attack dice of pool 'Gun x6000'", 6000, MAX_POOL_DICE, SIMULATE_HINT)
Traceback (most recent call last):
...
mathhammer.errors.LimitError: attack dice of pool 'Gun x6000' must be at most 5000; got 6000 ...
"""

from __future__ import annotations

from ..errors import LimitError, field_error

__all__ = [
    "BLOCK_DICE",
    "MAX_BINOMIAL_N",
    "MAX_DAMAGE",
    "MAX_DICE",
    "MAX_DIST_SIZE",
    "MAX_DIST_WORK",
    "MAX_MORTAL_WOUNDS",
    "MAX_POOL_DICE",
    "MAX_POOL_HITS",
    "MAX_SEARCH_WORK",
    "MAX_SIDES",
    "MAX_STATES",
    "MAX_TABLE",
    "MAX_TRIALS",
    "MAX_TRIAL_DICE",
    "MAX_UNIT_WOUNDS",
    "MAX_VALUE",
    "MAX_WORK",
    "SIMULATE_HINT",
    "check_limit",
    "printable",
    "shorten",
]

# ---------------------------------------------------------------- dice and distributions
#: Dice in one expression: ``"100D6"`` is the most.
MAX_DICE = 100
#: Sides of a die: more are almost certainly a typo ("D66" is not a D6).
MAX_SIDES = 20
#: The largest value of a dice expression or an integer characteristic.
MAX_VALUE = 1_000_000
#: The largest value of a distribution the library builds (80 MB of probabilities).
MAX_DIST_SIZE = 10_000_000
#: The largest ``n`` of ``Dist.binomial`` and of a thinned distribution (n² operations).
MAX_BINOMIAL_N = 20_000
#: Operations of one convolution, ``repeat`` or ``compound`` of distributions.
MAX_DIST_WORK = 2_000_000_000

# ---------------------------------------------------------------- the exact engine
#: Attack dice of one pool, bonus attacks included.
MAX_POOL_DICE = 5000
#: Hits of one pool: its attack dice times (1 + the most extra hits a [SUSTAINED HITS] scores).
MAX_POOL_HITS = 15000
#: Wounds of the target unit.
MAX_UNIT_WOUNDS = 10000
#: Model-wound states of the target unit (a CHARACTER that [PRECISION] reaches multiplies them).
MAX_STATES = 200_000
#: Damage of one attack at its largest, before the defender's modifiers.
MAX_DAMAGE = 1000
#: Mortal wounds of one step.
MAX_MORTAL_WOUNDS = 100_000
#: Entries of the largest table one pool needs (8 bytes each).
MAX_TABLE = 20_000_000
#: Estimated operations of one pool (see :mod:`mathhammer.exact.cost`).
MAX_WORK = 3_000_000_000
#: Estimated operations of one search: the attacks it makes, each at its estimated work.
MAX_SEARCH_WORK = 5_000_000_000

# ---------------------------------------------------------------- the Monte Carlo
#: Trials of one simulation.
MAX_TRIALS = 10**7
#: Dice one trial rolls at once.
MAX_TRIAL_DICE = 1_000_000
#: Dice a block of trials rolls at once: sets the block size of large pools.
BLOCK_DICE = 10_000_000

#: The remedy for a size beyond the exact engine's limits.
SIMULATE_HINT = "use mathhammer.simulate for larger attacks"


def check_limit(field: str, value: int, limit: int, hint: str = "") -> None:
    """Raise a :class:`~mathhammer.errors.LimitError` if ``value`` is above ``limit``.

    The message reads ``"<field> must be at most <limit>; got <value> (<hint>)"``; a value
    too long to print (Python refuses to print an integer of more than 4,300 digits) is
    described by its number of digits.

    Examples
    --------
    >>> check_limit("dice", 3, MAX_DICE)
    >>> check_limit("dice", 10**5000, MAX_DICE)
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: dice must be at most 100; got 'an integer of 5001 digits'
    """
    if value <= limit:
        return
    raise field_error(LimitError, field, f"at most {limit}", printable(value), hint)


def printable(value: int) -> int | str:
    """``value`` itself, or its number of digits when it is too long to print (a message
    shows at most 120 characters, and Python refuses to print 4,300 digits).

    Examples
    --------
    >>> printable(12), printable(10**400)
    (12, 'an integer of 401 digits')
    """
    if abs(value).bit_length() <= 300:
        return value
    digits = int(abs(value).bit_length() * 0.30102999566398) + 1  # log10(2): exact or one over
    if 10 ** (digits - 1) > abs(value):
        digits -= 1
    return f"an integer of {digits} digits"


def shorten(label: str, width: int = 60) -> str:
    """A label cut to ``width`` characters, so that a message about a pool of thousands
    of weapons stays one short line.

    Examples
    --------
    >>> shorten("Bolt rifle x10")
    'Bolt rifle x10'
    >>> shorten(" + ".join(["Gun"] * 100), 20)
    'Gun + Gun + Gun +...'
    """
    return label if len(label) <= width else label[: width - 3] + "..."
