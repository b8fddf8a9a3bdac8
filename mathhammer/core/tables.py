"""Tables of a rule over its finite parameters, filled as their entries are first asked for.

Some of what the engines read depends only on a rule's parameters, which take a few values
each (a BS of 2+ to 6+, a Feel No Pain of 2+ to 7+): the check objects of a ruleset, the
chance that Feel No Pain stops a wound. Such an entry is made once and kept, like the
outcome rows a ruleset tabulates at import; :func:`mathhammer.clear_caches` leaves these
tables, as they are not caches of attacks. The caller keeps only entries whose parameters
are in the rule's domain; the table's own bound (``max_items``) stops it growing past a
few rulesets' worth whatever it is given.

Examples
--------
>>> table: RuleTable[int, float] = RuleTable(max_items=2, name="example")
>>> table.keep(5, 4 / 6)
>>> table.get(5), table.get(6)
(0.6666666666666666, None)
>>> table.keep(6, 5 / 6); table.keep(7, 1.0)  # past the bound: not kept
>>> len(table), table
(2, RuleTable('example', 2 of 2))
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["RuleTable"]

K = TypeVar("K")
V = TypeVar("V")


class RuleTable(Generic[K, V]):
    """A mapping kept for the process's life, holding at most ``max_items`` entries."""

    def __init__(self, max_items: int, name: str = "") -> None:
        if not isinstance(max_items, int) or max_items < 1:
            raise ValueError(f"max_items must be an integer >= 1; got {max_items!r}")
        self.max_items = max_items
        self.name = name
        self._values: dict[K, V] = {}

    def get(self, key: K) -> V | None:
        """The entry under ``key``, or None."""
        return self._values.get(key)

    def keep(self, key: K, value: V) -> None:
        """Keep ``value`` under ``key`` while the table holds fewer than ``max_items``."""
        if len(self._values) < self.max_items:
            self._values[key] = value

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"RuleTable({self.name!r}, {len(self)} of {self.max_items})"
