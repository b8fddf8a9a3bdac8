"""Weapon ability text as datasheets print it -> normalised ability tokens.

``"[ASSAULT], [HEAVY]"``, ``"assault, heavy"`` and ``"<a href=...>Assault</a>"`` all
read as the tokens ``("ASSAULT", "HEAVY")``. Abilities that only govern which
weapons may be selected (ASSAULT, PISTOL, ...) do not change the attack maths.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable

__all__ = ["NO_EFFECT", "UnsupportedAbilityWarning", "split_abilities", "unsupported_tokens"]

#: Abilities with no effect on the attack maths (weapon-selection rules only).
NO_EFFECT = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "PSYCHIC", "ONE SHOT"})

_TAG = re.compile(r"<[^>]*>")
_SEPARATORS = re.compile(r"[,.;\n]")


class UnsupportedAbilityWarning(UserWarning):
    """An ability token that the engine does not apply to the attack maths."""


def split_abilities(text: str | Iterable[str]) -> tuple[str, ...]:
    """Split ability text into normalised tokens (upper case, no brackets, no HTML).

    Examples
    --------
    >>> split_abilities("[ASSAULT], [heavy]")
    ('ASSAULT', 'HEAVY')
    >>> split_abilities("<a href='x'>Pistol</a>. Assault")
    ('PISTOL', 'ASSAULT')
    >>> split_abilities("")
    ()
    """
    if isinstance(text, str):
        parts: Iterable[str] = _SEPARATORS.split(_TAG.sub("", text))
    else:
        parts = (_TAG.sub("", str(t)) for t in text)
    tokens = []
    for part in parts:
        token = " ".join(part.replace("[", " ").replace("]", " ").split()).upper()
        if token:
            tokens.append(token)
    return tuple(tokens)


def unsupported_tokens(tokens: Iterable[str]) -> tuple[str, ...]:
    """The tokens that change the attack maths but are not applied by the engine."""
    return tuple(t for t in tokens if t not in NO_EFFECT)


def warn_unsupported(weapon_name: str, tokens: Iterable[str]) -> None:
    """Warn once per call about abilities that the engine ignores."""
    missing = unsupported_tokens(tokens)
    if missing:
        warnings.warn(
            f"weapon {weapon_name!r}: abilities {', '.join(missing)} are not applied "
            "to the attack maths and are ignored",
            UnsupportedAbilityWarning,
            stacklevel=3,
        )
