"""Internal: characteristic names as the data sets spell them.

The 11th-edition BSData files print a model's save as ``Sv``, the 10th-edition ones as
``SV``, older ones as ``Save``; a hand-made file may write ``Toughness`` or ``save``. The
readers look every characteristic up by one name, the one :data:`SPELLINGS` gives.
"""

from __future__ import annotations

__all__ = ["SPELLINGS", "characteristic_name"]

#: The names of the characteristics read, by their spellings in the data sets (lower case,
#: without spaces): 10th-edition BSData spells the save ``SV``, older files ``Save``.
SPELLINGS = {
    **dict.fromkeys(("m", "move", "movement"), "M"),
    **dict.fromkeys(("t", "toughness"), "T"),
    **dict.fromkeys(("sv", "save", "armoursave", "armorsave"), "Sv"),
    **dict.fromkeys(("w", "wounds"), "W"),
    **dict.fromkeys(("ld", "leadership"), "LD"),
    **dict.fromkeys(("oc", "objectivecontrol"), "OC"),
    **dict.fromkeys(("insv", "invsv", "invuln", "invulnerablesave"), "InSv"),
    **dict.fromkeys(("a", "attacks"), "A"),
    **dict.fromkeys(("bs", "ballisticskill"), "BS"),
    **dict.fromkeys(("ws", "weaponskill"), "WS"),
    **dict.fromkeys(("s", "strength"), "S"),
    **dict.fromkeys(("ap", "armourpenetration", "armorpenetration"), "AP"),
    **dict.fromkeys(("d", "damage"), "D"),
    "range": "Range",
    "keywords": "Keywords",
}


def characteristic_name(name: str) -> str:
    """A characteristic's name as :data:`SPELLINGS` gives it; any other name as it is.

    Examples
    --------
    >>> [characteristic_name(n) for n in ("SV", "Save", "sv", "Ld", "Range", "Keywords")]
    ['Sv', 'Sv', 'Sv', 'LD', 'Range', 'Keywords']
    >>> characteristic_name("Description")
    'Description'
    """
    return SPELLINGS.get("".join(name.split()).lower(), name)
