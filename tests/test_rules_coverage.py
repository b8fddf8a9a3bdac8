"""How much of the real rules text is understood (docs/rules.md D37, the coverage table).

Every distinct ability (name and text) of the 11th-edition catalogues and roster exports in
``../shared/data`` is read by :func:`mathhammer.io.rules_text.read_rules` and classified:
attack-relevant (understood, partly, not understood) or not (other units' rules, rules that
change no attack). The floors are the counts measured when the table in docs/rules.md was
made: a change that reads less fails here; a change that reads more raises them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.io.rules_text import read_rules
from mathhammer.units.parts import AbilityText

ROSTERS = ("11e_csm_chaos_lords_nr_probhammer.json", "11e_orks_breaka_boyz_nr_probhammer.json")

#: source -> (understood at least, relevant as measured)
FLOORS = {
    "bsdata-11e": (165, 181),
    "bsdata-11e-imperium": (149, 163),
    "rosters": (6, 6),
}


def _abilities(
    shared: Path, catalogues: Callable[[str], mh.io.Catalogue], source: str
) -> list[AbilityText]:
    if source == "rosters":
        sheets = [
            u.datasheet for f in ROSTERS for u in mh.io.read_roster(shared / source / f).units
        ]
    else:
        sheets = list(catalogues(source).datasheets)
    found = {(a.name, a.text): a for sheet in sheets for a in sheet.abilities}
    return list(found.values())


@pytest.mark.parametrize("source", list(FLOORS))
def test_the_share_of_rules_understood_does_not_fall(
    shared_data: Path, shared_catalogue: Callable[[str], mh.io.Catalogue], source: str
) -> None:
    readings = read_rules(_abilities(shared_data, shared_catalogue, source))
    counts = Counter(r.status for r in readings)
    relevant = counts["understood"] + counts["partly"] + counts["not understood"]
    least, measured = FLOORS[source]
    assert counts["understood"] >= least, counts
    assert counts["understood"] / relevant >= least / measured - 1e-9, counts
    # nothing relevant is dropped without its reason
    assert all(r.reason for r in readings if r.status in ("partly", "not understood"))
