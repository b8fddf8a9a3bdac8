"""The bundled target suite under the classic rules: every target has a Leadership.

The classic Panic Test passes on 2D6 <= Ld, so a target without Ld is refused; the
suite's targets carry one, and only those the classic rules cannot resolve for other
reasons (vehicles; a unit whose models have different saves) are refused.
"""

from __future__ import annotations

import mathhammer as mh
from mathhammer import Weapon
from mathhammer.results.columns import ALL_COLUMNS
from mathhammer.rules import get_ruleset


def test_every_standard_target_has_a_leadership_for_the_classic_rules() -> None:
    classic = get_ruleset("classic")
    lasgun = Weapon("Lasgun", 1, bs=3, strength=3)
    refused = []
    for target in mh.targets.STANDARD:
        assert target.unit.leadership in range(6, 10), target.name
        try:
            classic.check_target(target.unit)
        except mh.RulesError as error:
            assert "leadership" not in str(error)
            refused.append(target.name)
            continue
        res = mh.attack([(lasgun, 20)], target.unit, rules="classic")
        assert res.p_panic_test is not None
    # only those the classic rules cannot resolve: vehicles, and the CHARACTER-led unit
    # whose Leader has a save of his own
    assert refused == ["Vehicle", "Super-heavy vehicle", "Character-led unit"]
    frame = mh.compare({"lasguns": [(lasgun, 20)]}, mh.targets.STANDARD[:6], rules="classic")
    assert frame.p_panic_test.notna().all()
    assert list(frame.columns) == [c for c in ALL_COLUMNS if c in frame.columns]
