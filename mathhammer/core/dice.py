"""Dice expressions as datasheets print them: ``"3"``, ``"D3"``, ``"2D6"``, ``"D6+1"``, ``"2D3+2"``.

A :class:`Dice` keeps its source text for display and gives its exact
distribution as a :class:`~mathhammer.core.dist.Dist`. The Monte Carlo rolls the
same expression face by face from ``count``, ``sides`` and ``bonus``. An expression has at
most :data:`~mathhammer.core.limits.MAX_DICE` dice and its value is at most
:data:`~mathhammer.core.limits.MAX_VALUE`: far beyond any datasheet, and refused before any
number is read or any distribution built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..errors import DiceSyntaxError, LimitError, ProfileError, field_error
from .dist import Dist
from .frozen import HASHED, hash_once
from .limits import MAX_DICE, MAX_SIDES, MAX_VALUE, check_limit

__all__ = ["MAX_SIDES", "Dice", "RerolledDice", "ScaledDice", "parse_dice"]

# ASCII digits only: "\d" would read "٣" or "３" as a number
_TOKEN = re.compile(r"\s*(?:([0-9]+)?\s*[dD]\s*([0-9]+)|([0-9]+))\s*")
_BONUS = re.compile(r"\+\s*([0-9]+)\s*")
#: More digits than MAX_VALUE has are refused unread (Python reads 5,000 digits slowly,
#: and refuses more than 4,300).
_DIGITS = len(str(MAX_VALUE))
_HINT = "no characteristic comes near it: check the expression"


@hash_once
@dataclass(frozen=True, eq=True, init=False)
class Dice:
    """A dice expression ``count`` D ``sides`` + ``bonus`` (``sides == 0`` for a constant).

    ``Dice("D6+1")`` reads the expression as :func:`parse_dice` does, and that is also
    its repr. Equality ignores the spelling: ``Dice("d6+1") == Dice("D6 + 1")``.

    Examples
    --------
    >>> d = Dice("2D3+2")
    >>> d
    Dice('2D3+2')
    >>> d.text, d.min, d.max, d.mean
    ('2D3+2', 4, 8, 6.0)
    >>> Dice(3).dist.probabilities.tolist()
    [0.0, 0.0, 0.0, 1.0]
    """

    count: int
    sides: int
    bonus: int
    text: str = field(compare=False)
    hashed = HASHED  # the value as a part of a cache key (core.frozen.HASHED)

    def __init__(self, expression: str | int | Dice) -> None:
        read = parse_dice(expression)
        for name in ("count", "sides", "bonus", "text"):
            object.__setattr__(self, name, getattr(read, name))

    @classmethod
    def _of(cls, count: int, sides: int, bonus: int, text: str) -> Dice:
        dice = cls.__new__(cls)
        for name, value in (("count", count), ("sides", sides), ("bonus", bonus), ("text", text)):
            object.__setattr__(dice, name, value)
        return dice

    @staticmethod
    def parse(value: str | int | Dice) -> Dice:
        """Read an int or a dice expression; see :func:`parse_dice`."""
        return parse_dice(value)

    @cached_property
    def is_constant(self) -> bool:
        """True when no die is rolled."""
        return self.count == 0 or self.sides == 0

    @cached_property
    def min(self) -> int:
        """The smallest possible value."""
        return self.bonus if self.is_constant else self.count + self.bonus

    @cached_property
    def max(self) -> int:
        """The largest possible value."""
        return self.bonus if self.is_constant else self.count * self.sides + self.bonus

    @cached_property
    def mean(self) -> float:
        """The expected value."""
        return self.bonus if self.is_constant else self.count * (self.sides + 1) / 2 + self.bonus

    @cached_property
    def dist(self) -> Dist:
        """The exact distribution of the expression's value."""
        if self.is_constant:
            return Dist.constant(self.bonus)
        return Dist.uniform(1, self.sides).repeat(self.count) + self.bonus

    def roll(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Roll the expression ``size`` times, die by die."""
        if self.is_constant:
            return np.full(size, self.bonus, dtype=np.int64)
        shape = (size,) if isinstance(size, int) else tuple(size)
        faces = rng.integers(1, self.sides + 1, size=(*shape, self.count))
        return np.asarray(faces.sum(axis=-1) + self.bonus, dtype=np.int64)

    def rerolled(self, below: int) -> Dice:
        """The same dice with each die showing ``below`` or less rolled again, once (a
        damage re-roll: ``below=1`` re-rolls the 1s); a constant has no die to re-roll.

        Examples
        --------
        >>> d = Dice("D6").rerolled(1)
        >>> d.text, round(d.mean, 4), d.dist.probabilities[1:].round(4).tolist()
        ('D6 (re-roll 1s)', 3.9167, [0.0278, 0.1944, 0.1944, 0.1944, 0.1944, 0.1944])
        """
        if self.is_constant or below < 1:
            return self
        return RerolledDice._rerolled(self, min(below, self.sides))

    def scaled(self, numerator: int, denominator: int = 1) -> Dice:
        """The value multiplied by ``numerator / denominator``, a fraction rounded up: a
        characteristic doubled, tripled or halved by a rule. A constant stays a constant.

        Examples
        --------
        >>> Dice(5).scaled(1, 2), Dice(3).scaled(2)
        (Dice('3'), Dice('6'))
        >>> d = Dice("D6").scaled(1, 2)
        >>> d.text, d.min, d.max, (d.dist.probabilities * 6).round(12).tolist()
        ('D6 (halved)', 1, 3, [0.0, 2.0, 2.0, 2.0])
        """
        _check_factor("numerator", numerator)
        _check_factor("denominator", denominator)
        if numerator == denominator:
            return self
        if self.is_constant:
            value = -(-self.bonus * numerator // denominator)
            check_limit(f"largest value of {self.text!r} scaled", value, MAX_VALUE, _HINT)
            return Dice._of(0, 0, value, str(value))
        return ScaledDice._scaled(self, numerator, denominator)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Dice({self.text!r})"

    def __int__(self) -> int:
        if not self.is_constant:
            raise TypeError(f"{self.text!r} is random; it has no single integer value")
        return self.bonus


def _check_factor(name: str, value: int) -> None:
    """Check the numerator or the denominator of :meth:`Dice.scaled`: an integer >= 1."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise field_error(ProfileError, f"Dice.scaled {name}", "an integer >= 1", value)


def parse_dice(value: str | int | Dice) -> Dice:
    """Read a dice expression: an integer, or ``[N]D<sides>[+M]``.

    Parameters
    ----------
    value : str or int or Dice
        ``3``, ``"3"``, ``"D3"``, ``"D6"``, ``"2D6"``, ``"D6+1"``, ``"2D3+2"``, ``"D3+3"``.
        Case and spaces do not matter.

    Raises
    ------
    DiceSyntaxError
        Naming the text and the position of the first character that cannot be read.

    Examples
    --------
    >>> parse_dice("D6+1").dist.mean()
    4.5
    >>> parse_dice("2D")
    Traceback (most recent call last):
    ...
    mathhammer.errors.DiceSyntaxError: cannot read dice expression '2D' at position 2: ...
    """
    if isinstance(value, Dice):
        return value
    if isinstance(value, bool):
        raise field_error(ProfileError, "dice", "an integer or a dice expression", value)
    if isinstance(value, int | np.integer):
        return _constant(value)
    if not isinstance(value, str):
        raise field_error(ProfileError, "dice", "an integer or a dice expression", value)
    return _parse_text(value)


def _constant(value: int | np.integer) -> Dice:
    """An integer as a constant dice expression, checked: from 0 to :data:`MAX_VALUE`."""
    if value < 0:
        raise field_error(ProfileError, "dice", "an integer >= 0", value)
    check_limit("dice value", int(value), MAX_VALUE, _HINT)
    return Dice._of(0, 0, int(value), str(int(value)))


def _parse_text(text: str) -> Dice:
    """A dice expression read from text: a number, or ``[N]D<sides>[+M]``."""
    if not text.strip():
        raise DiceSyntaxError(text, 0, "the expression is empty")
    m = _TOKEN.match(text)
    if m is None:
        pos = len(text) - len(text.lstrip())
        raise DiceSyntaxError(text, pos, f"unexpected {text[pos]!r}")
    count_s, sides_s, const_s = m.groups()
    if const_s is not None:
        return _parse_number(text, const_s, m.end())
    count = _number(text, count_s, "number of dice") if count_s is not None else 1
    check_limit(f"number of dice in {text!r}", count, MAX_DICE, _HINT)
    sides = _number(text, sides_s)
    if count < 1:
        raise DiceSyntaxError(text, m.start(1), "the number of dice must be at least 1")
    if not 2 <= sides <= MAX_SIDES:
        raise DiceSyntaxError(
            text, m.start(2), f"a die must have between 2 and {MAX_SIDES} sides; got {sides}"
        )
    bonus = _bonus(text, m.end())
    check_limit(f"largest value of {text!r}", count * sides + bonus, MAX_VALUE, _HINT)
    canonical = f"{count if count > 1 else ''}D{sides}" + (f"+{bonus}" if bonus else "")
    return Dice._of(count, sides, bonus, canonical)


def _parse_number(text: str, digits: str, pos: int) -> Dice:
    """A constant written as text: its ``digits``, read up to ``pos``, end the text."""
    if pos < len(text) and text[pos] in "dD":
        raise DiceSyntaxError(text, pos + 1, "expected the number of sides after 'D'")
    if pos != len(text):
        raise DiceSyntaxError(text, pos, f"unexpected {text[pos]!r} after a number")
    return Dice._of(0, 0, _number(text, digits), text.strip().upper())


def _bonus(text: str, pos: int) -> int:
    """The ``+M`` that may follow the dice of an expression at ``pos``, and end it (0 if
    nothing follows)."""
    if pos == len(text):
        return 0
    b = _BONUS.match(text, pos)
    if b is None:
        raise DiceSyntaxError(text, pos, f"unexpected {text[pos]!r}; only '+N' may follow")
    bonus = _number(text, b.group(1))
    if b.end() != len(text):
        raise DiceSyntaxError(text, b.end(), f"unexpected {text[b.end()]!r}")
    return bonus


def _number(text: str, digits: str, what: str = "value") -> int:
    """A run of digits of ``text`` as an int; refused unread past :data:`MAX_VALUE`'s length."""
    if len(digits) > _DIGITS:
        field = f"{what} in {text[:40]!r}"
        shown = int(digits) if len(digits) <= 40 else f"a number of {len(digits)} digits"
        raise field_error(LimitError, field, f"at most {MAX_VALUE}", shown, _HINT)
    return int(digits)


@dataclass(frozen=True, eq=True, init=False)
class RerolledDice(Dice):
    """Dice whose dice showing :attr:`reroll_below` or less are rolled again, once each:
    what :meth:`Dice.rerolled` makes. Both engines read it as they read any Dice: its
    exact :attr:`dist` and its :meth:`roll`, die by die."""

    reroll_below: int

    @classmethod
    def _rerolled(cls, dice: Dice, below: int) -> RerolledDice:
        made = cls.__new__(cls)
        which = "1s" if below == 1 else f"1-{below}"
        text = f"{dice.text} (re-roll {which})"
        for name, value in (
            ("count", dice.count),
            ("sides", dice.sides),
            ("bonus", dice.bonus),
            ("text", text),
            ("reroll_below", below),
        ):
            object.__setattr__(made, name, value)
        return made

    @property
    def mean(self) -> float:
        return float(self.dist.mean())

    @cached_property
    def dist(self) -> Dist:
        """Each die: a face above the threshold stays; one at or below it is rolled again."""
        sides, below = self.sides, self.reroll_below
        die = np.full(sides + 1, below / sides / sides)
        die[0] = 0.0
        die[below + 1 :] += 1.0 / sides
        return Dist._trusted(die).repeat(self.count) + self.bonus

    def roll(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Roll ``size`` times, die by die, each low die rolled again once."""
        shape = (size,) if isinstance(size, int) else tuple(size)
        faces = rng.integers(1, self.sides + 1, size=(*shape, self.count))
        again = faces <= self.reroll_below
        if again.any():
            faces[again] = rng.integers(1, self.sides + 1, size=int(again.sum()))
        return np.asarray(faces.sum(axis=-1) + self.bonus, dtype=np.int64)

    def __repr__(self) -> str:
        return f"Dice({self.text!r})"


_SCALE_TEXT = {(2, 1): "doubled", (3, 1): "tripled", (1, 2): "halved"}


@dataclass(frozen=True, eq=True, init=False)
class ScaledDice(Dice):
    """Dice whose value is multiplied by :attr:`numerator` / :attr:`denominator` and
    rounded up: what :meth:`Dice.scaled` makes of a random characteristic. Both engines
    read it as any Dice: its exact :attr:`dist` and its :meth:`roll`."""

    numerator: int
    denominator: int

    @classmethod
    def _scaled(cls, dice: Dice, numerator: int, denominator: int) -> ScaledDice:
        if isinstance(dice, ScaledDice):  # two changes make one
            numerator *= dice.numerator
            denominator *= dice.denominator
        if isinstance(dice, RerolledDice):
            raise field_error(ProfileError, "Dice.scaled", "dice not re-rolled", dice.text)
        made = cls.__new__(cls)
        plain = f"{dice.count if dice.count > 1 else ''}D{dice.sides}" + (
            f"+{dice.bonus}" if dice.bonus else ""
        )
        how = _SCALE_TEXT.get((numerator, denominator), f"x{numerator}/{denominator}")
        check_limit(
            f"largest value of {plain!r} scaled",
            -(-(dice.count * dice.sides + dice.bonus) * numerator // denominator),
            MAX_VALUE,
            _HINT,
        )
        for name, value in (
            ("count", dice.count),
            ("sides", dice.sides),
            ("bonus", dice.bonus),
            ("text", f"{plain} ({how})"),
            ("numerator", numerator),
            ("denominator", denominator),
        ):
            object.__setattr__(made, name, value)
        return made

    def _of_value(self, value: int) -> int:
        return -(-value * self.numerator // self.denominator)

    @cached_property
    def min(self) -> int:
        return self._of_value(self.count + self.bonus)

    @cached_property
    def max(self) -> int:
        return self._of_value(self.count * self.sides + self.bonus)

    @cached_property
    def mean(self) -> float:
        return float(self.dist.mean())

    @cached_property
    def dist(self) -> Dist:
        """The unscaled value's distribution, each value scaled and rounded up."""
        plain = Dist.uniform(1, self.sides).repeat(self.count) + self.bonus
        return plain.map(self._of_value)

    def roll(self, rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
        """Roll ``size`` times, die by die, then scale each total (rounding up)."""
        shape = (size,) if isinstance(size, int) else tuple(size)
        faces = rng.integers(1, self.sides + 1, size=(*shape, self.count))
        total = faces.sum(axis=-1) + self.bonus
        return np.asarray(-(-total * self.numerator // self.denominator), dtype=np.int64)

    def rerolled(self, below: int) -> Dice:
        raise field_error(ProfileError, "Dice.rerolled", "dice not scaled", self.text)

    def __repr__(self) -> str:
        return f"Dice({self.text!r})"
