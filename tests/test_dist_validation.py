"""The distribution's and the dice reader's validation gaps (issue 13, point 11).

``Dist.mixture`` with NaN weights returned NaN probabilities, ``Dist.map`` truncated a
function's non-integer values, and ``parse_dice`` read non-ASCII digits and numbers past
Python's digit limit; each is refused now.
"""

from __future__ import annotations

import copy
import math
import pickle
from collections.abc import Callable

import pytest

import mathhammer as mh
from mathhammer.core.dice import Dice, parse_dice
from mathhammer.core.dist import Dist

D3 = Dist.uniform(1, 3)


@pytest.mark.parametrize("weights", [[math.nan, 1.0], [math.nan], [0.5, math.nan, 0.5]])
def test_mixture_refuses_nan_weights(weights: list[float]) -> None:
    with pytest.raises(mh.DistributionError, match="weights must be"):
        Dist.mixture(weights, [D3] * len(weights))


def test_mixture_refuses_infinite_and_negative_weights() -> None:
    for weights in ([math.inf, 0.0], [-0.5, 1.5]):
        with pytest.raises(mh.DistributionError, match="weights must be"):
            Dist.mixture(weights, [D3, D3])


@pytest.mark.parametrize("query", ["pmf", "cdf", "sf", "at_least", "at_most", "ppf"])
def test_queries_refuse_nan(query: str) -> None:
    with pytest.raises(mh.DistributionError, match="must be a number, not NaN"):
        getattr(D3, query)(math.nan)


@pytest.mark.parametrize(
    "func",
    [lambda k: k / 2, lambda k: math.nan, lambda k: "1", lambda k: True],
    ids=["half", "nan", "text", "bool"],
)
def test_map_refuses_what_is_not_an_integer(func: Callable[[int], object]) -> None:
    with pytest.raises(mh.DistributionError, match=r"func\(k\) must be an integer"):
        D3.map(func)  # type: ignore[arg-type]  # refused at run time: the test


def test_map_takes_integers() -> None:
    assert D3.map(lambda k: 2 * k).probabilities.tolist()[2::2] == D3.probabilities.tolist()[1:]
    with pytest.raises(mh.DistributionError, match=r"func\(k\) must be an integer >= 0"):
        D3.map(lambda k: -k)


@pytest.mark.parametrize(
    "again",
    [lambda d: pickle.loads(pickle.dumps(d)), copy.copy, copy.deepcopy],
    ids=["pickle", "copy", "deepcopy"],
)
def test_a_copied_dist_is_read_only(again: Callable[[Dist], Dist]) -> None:
    copied = again(D3)
    assert copied == D3
    with pytest.raises(ValueError, match="read-only"):
        copied.probabilities[0] = 1.0


@pytest.mark.parametrize("text", ["\uff13D6", "D\uff16", "\u0663", "2D6+\u0661"])
def test_parse_dice_reads_only_the_digits_0_to_9(text: str) -> None:
    with pytest.raises(mh.DiceSyntaxError):
        parse_dice(text)


def test_parse_dice_refuses_underscores() -> None:
    with pytest.raises(mh.DiceSyntaxError, match="unexpected '_'"):
        Dice("1_0")


@pytest.mark.parametrize(
    "value", ["9" * 5_000, "D6+" + "9" * 5_000, 10**5_000], ids=["text", "bonus", "int"]
)
def test_parse_dice_refuses_numbers_past_pythons_digit_limit(value: str | int) -> None:
    with pytest.raises(mh.MathhammerError):
        parse_dice(value)
