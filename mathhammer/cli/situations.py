"""The situation of the attacks, as every command that attacks takes it: the flags of a
profiles CSV's context columns (``--half-range``, ``--stationary``, ``--charged``,
``--in-cover``) for every unit, and for ``report`` several named situations side by side
(``--situation far --situation close``).

A situation's name is ``far`` (or ``default``: no flag), ``close`` (within half range), or
flags joined by ``+`` (``close+stationary``, ``charged``, ``half_range+in_cover``).

Examples
--------
>>> [parse_situation(s).changes() for s in ("close+stationary", "far")]
[['half_range', 'remained_stationary'], []]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from ..errors import OptionError, field_error
from ..model.context import Context

__all__ = [
    "FLAGS",
    "add_situation_options",
    "base_context",
    "in_situations",
    "parse_situation",
    "situations",
]

#: Each flag: its option and CSV column name, and the Context field it sets.
FLAGS = {
    "half_range": "half_range",
    "stationary": "remained_stationary",
    "charged": "charged",
    "in_cover": "target_in_cover",
}
#: Situations with a name of their own.
NAMED = {"far": (), "default": (), "close": ("half_range",)}
#: The flags each word of a situation's name stands for: a name's, or a flag itself.
_WORDS: dict[str, tuple[str, ...]] = {**NAMED, **{flag: (flag,) for flag in FLAGS}}


def add_situation_options(command: argparse.ArgumentParser, several: bool = False) -> None:
    """The flags of the situation every unit attacks in (and ``--situation`` with
    ``several``)."""
    helps = {
        "half_range": "the targets are within half range ([RAPID FIRE], [MELTA])",
        "stationary": "the attackers remained stationary ([HEAVY])",
        "charged": "the attackers charged this turn ([LANCE])",
        "in_cover": "the targets have the benefit of cover",
    }
    for flag, text in helps.items():
        command.add_argument(f"--{flag.replace('_', '-')}", action="store_true", help=text)
    if several:
        command.add_argument(
            "--situation",
            action="append",
            default=[],
            metavar="NAME",
            help="attack in this situation too, side by side (repeat for each): 'far', "
            "'close' (half range) or flags joined by '+' (close+stationary, charged, in_cover)",
        )


def parse_situation(text: str) -> Context:
    """The context a situation's name describes.

    Raises
    ------
    OptionError
        A name or flag it does not know, with the ones it does.
    """
    words = str(text).strip().lower().replace("-", "_").split("+")
    flags = [flag for word in words for flag in _word_flags(word.strip(), text)]
    return _flagged(FLAGS[f] for f in flags)


def _word_flags(word: str, text: str) -> tuple[str, ...]:
    """The flags one word of the situation ``text`` stands for: a name's, or a flag."""
    if word not in _WORDS:
        known = [*NAMED, *FLAGS]
        raise field_error(
            OptionError, "--situation", f"names or flags of {known}, joined by '+'", text
        )
    return _WORDS[word]


def base_context(args: argparse.Namespace) -> Context | None:
    """The situation the flags give every unit; None when no flag is set."""
    chosen = [field for flag, field in FLAGS.items() if getattr(args, flag, False)]
    return _flagged(chosen) if chosen else None


def _flagged(names: Iterable[str]) -> Context:
    """``Context()`` with these flags set."""
    chosen = set(names)
    return Context(
        half_range="half_range" in chosen,
        remained_stationary="remained_stationary" in chosen,
        charged="charged" in chosen,
        target_in_cover="target_in_cover" in chosen,
    )


def situations(args: argparse.Namespace) -> list[Context | None]:
    """Each situation to report, the flags' on top of each: the flags' alone without
    ``--situation``."""
    base = base_context(args)
    named = getattr(args, "situation", None)
    if not named:  # None (a command without --situation) or none given
        return [base]
    out: list[Context | None] = []
    for text in named:
        context = parse_situation(text)
        out.append(context if base is None else context.combined(base))
    return list(dict.fromkeys(out))


def in_situations(loadouts: list[Any], args: argparse.Namespace) -> list[Any]:
    """Each loadout in each situation, situations side by side for each unit."""
    wanted = situations(args)
    if wanted == [None]:
        return loadouts
    return [x.in_context(s) for x in loadouts for s in wanted]
