"""A third ruleset defined outside the package, for the tests: ``"11e-six-saves"``.

The 11th edition with two changes: an unmodified 6 always saves (so a model with no
save, Sv7, hit at AP -1 now saves on a 6), and a [HAZARDOUS] roll fails on a 1 only.
It is one subclass and one registration, as a ruleset written by a user would be;
importing this module makes ``rules="11e-six-saves"`` usable everywhere a ruleset
name is accepted.

Examples
--------
>>> import numpy as np
>>> from mathhammer.rules import get_ruleset
>>> rules = get_ruleset("11e-six-saves")
>>> rules.save_outcome(np.arange(1, 7), ap=-1, save=7, invuln=None).tolist()
[False, False, False, False, False, True]
>>> rules.hazard_fails(np.arange(1, 7)).tolist()
[True, False, False, False, False, False]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mathhammer.rules import EleventhEdition, register_ruleset

__all__ = ["NAME", "SixSaves"]

#: The name the ruleset is registered under.
NAME = "11e-six-saves"


class SixSaves(EleventhEdition):
    """The 11th edition, but an unmodified 6 always saves and [HAZARDOUS] fails on a 1."""

    name = NAME
    description = "11th edition; an unmodified 6 always saves, [HAZARDOUS] fails on a 1 only"

    def save_outcome(self, natural: Any, ap: int, save: int, invuln: int | None) -> Any:
        """The 11th-edition save check, and an unmodified 6 always saves."""
        roll = np.asarray(natural)
        return np.asarray(super().save_outcome(roll, ap, save, invuln)) | (roll == 6)

    def hazard_fails(self, natural: Any) -> Any:
        """A hazard roll fails on an unmodified 1 only."""
        return np.asarray(natural) == 1


register_ruleset(SixSaves())
