"""The registry of rulesets: the one list of ruleset names.

``attack(..., rules="11e")``, the command line's ``--rules`` choices, the CSV readers and
the error messages all read it. A ruleset defined outside the package is registered
with :func:`register_ruleset` and is then usable by name everywhere.
"""

from __future__ import annotations

from typing import TypeAlias

from ..errors import RulesError, field_error
from .base import Ruleset

__all__ = ["RulesetLike", "get_ruleset", "register_ruleset", "ruleset_names"]

#: A ruleset, as every ``rules=`` that means one takes it: a registered name (any case,
#: ``"11e"``, ``"classic"``) or a :class:`~mathhammer.rules.base.Ruleset` itself.
#: (``Unit(rules=...)`` and ``Detachment(rules=...)`` are a unit's own rules instead.)
RulesetLike: TypeAlias = str | Ruleset

_RULESETS: dict[str, Ruleset] = {}


def _key(name: str) -> str:
    return name.strip().lower()


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    """Make a ruleset usable by its name; refuse a name already taken.

    Examples
    --------
    >>> from mathhammer.rules import EleventhEdition
    >>> register_ruleset(EleventhEdition())
    Traceback (most recent call last):
    ...
    mathhammer.errors.RulesError: ruleset name must be a name not yet registered; got '11e' ...
    """
    if not isinstance(ruleset, Ruleset):
        raise field_error(RulesError, "ruleset", "a Ruleset instance", ruleset)
    _RULESETS[_new_key(ruleset.name)] = ruleset
    return ruleset


def _new_key(name: object) -> str:
    """The registry's key of a ruleset's name, checked: a non-empty string, not yet taken."""
    if not isinstance(name, str) or not name.strip():
        raise field_error(RulesError, "Ruleset.name", "a non-empty string", name)
    if _key(name) in _RULESETS:
        raise field_error(
            RulesError,
            "ruleset name",
            "a name not yet registered",
            name,
            f"registered: {ruleset_names()}",
        )
    return _key(name)


def ruleset_names() -> tuple[str, ...]:
    """The registered names, in the order registered.

    Examples
    --------
    >>> ruleset_names()[:2]
    ('11e', 'classic')
    """
    return tuple(r.name for r in _RULESETS.values())


def get_ruleset(rules: RulesetLike) -> Ruleset:
    """The ruleset called ``rules`` (a registered name, any case), or ``rules`` itself.

    Examples
    --------
    >>> get_ruleset("11E").name
    '11e'
    >>> get_ruleset("9e")
    Traceback (most recent call last):
    ...
    mathhammer.errors.RulesError: rules must be one of ['11e', 'classic'...]; got '9e'
    """
    if type(rules) is str:  # a name as registered, found before an abstract class's check
        found = _RULESETS.get(rules) or _RULESETS.get(_key(rules))
        if found is not None:
            return found
    elif isinstance(rules, Ruleset):
        return rules
    raise field_error(RulesError, "rules", f"one of {list(ruleset_names())}", rules)
