"""Rules text -> typed effects: one grammar over the 11th edition's templated phrasing.

A datasheet's abilities, a leader's, a detachment's and an army's rules are read sentence
by sentence into :class:`~mathhammer.model.effects.Effect` values, each with the attacks
it concerns (all, ranged, melee), its conditions and its scope. Both phrasings in the
wild are read:

* the newer one: "This unit's melee attacks have +1 to **hit rolls**.", "Attacks that
  target this unit have -1 **AP**.", "Ranged attacks that target this unit have -1 **D**.",
  "That unit has 5+ **InSv**.", "That unit's ranged attacks have **[ASSAULT]**.";
* the earlier one: "Each time a model in this unit makes an attack that targets a MONSTER
  or VEHICLE unit, add 1 to the Hit roll.", "Each time an attack targets this unit,
  subtract 1 from the Wound roll.", "While this model is leading a unit, melee weapons
  equipped by models in that unit have the [LETHAL HITS] ability.", "Each time an attack
  is allocated to this model, subtract 1 from the Damage characteristic of that attack."

A condition the situation states (charged, remained stationary, half range, the target's
keywords, the Fight or Shooting phase) becomes a :class:`~mathhammer.model.effects.Condition`
read from ``Context``; any other ("riled up", "the Waaagh! is active", "within range of an
objective marker", "once per battle") becomes a named state, applied only when assumed
(``Context(assume=...)``). A sentence the grammar does not read is never guessed at: if it
could change the unit's attacks or the attacks against it, the rule is listed with the
reason (:attr:`RuleReading.reason`); rules that cannot (movement, Battle-shock, auras on
other units) are told apart (:attr:`RuleReading.status`).

Examples
--------
>>> reading = read_rule(AbilityText("Dodge Dis!", "This unit's attacks have +1 to **hit rolls**."))
>>> reading.status, [e.text for e in reading.effects]
('understood', ['+1 to hit'])
>>> reading = read_rule(AbilityText("Might is Right", "While this model is leading a unit, "
...     "each time a model in that unit makes a melee attack, add 1 to the Hit roll."))
>>> [(e.text, e.scope) for e in reading.effects]
[('melee: +1 to hit', 'led')]
>>> reading = read_rule(AbilityText("Bomb Squig", "In your Movement phase, when this unit "
...     "ends a normal move, roll one D6: on a 3+, that enemy unit suffers D3 mortal wounds."))
>>> reading.status
'not relevant'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ...core.caches import register
from ...errors import MathhammerError
from ...model.effects import Condition, Effect
from ...units.parts import AbilityText
from .clauses import matched_kind
from .fields import read_toughness_while
from .grammar import (
    FOLLOW,
    IF_USED,
    OTHERS,
    RELEVANT,
    SELECTED,
    SELECTS,
    Sentence,
    Unread,
    army_subject,
    follow_up,
    read_sentence,
    split_each_time,
)
from .text import clean_rule_text, rule_sentences, rule_source

__all__ = ["STATUSES", "RuleReading", "read_rule", "read_rules"]

#: What a reading found: every sentence that matters read; some read; none read although
#: the rule could change an attack; a rule that changes other units' attacks (an aura, a
#: debuff on an enemy); a rule that cannot change an attack.
STATUSES = ("understood", "partly", "not understood", "other units", "not relevant")


@dataclass(frozen=True)
class RuleReading:
    """What one rule says, typed.

    ``effects`` are the effects read; ``status`` one of :data:`STATUSES`; ``reason`` says
    what was not read and why ("" when all of it was).
    """

    rule: AbilityText
    effects: tuple[Effect, ...] = ()
    status: str = "not relevant"
    reason: str = ""
    unread: tuple[str, ...] = field(default=(), repr=False)

    @property
    def relevant(self) -> bool:
        """True if the rule can change the unit's attacks or the attacks against it."""
        return self.status in ("understood", "partly", "not understood")


#: Core rules as named abilities: their name says it all.
NAMED = (
    (re.compile(r"^(?:feel no(?:t)? pain|fnp):? \(?([2-6])\+\)?$"), "fnp"),
    (re.compile(r"^(?:invulnerable save|insv):? ?\(?([2-6])\+\)?$"), "invuln"),
    (re.compile(r"^stealth$"), "stealth"),
)
#: Rules whose text is a core rule's, or that only govern how a unit is fielded.
CORE = re.compile(
    r'^(?:infiltrators|lone operative(?: \d+")?|scouts(?: \d+")?|deep strike|fights first|leader|'
    r"support|deadly demise(?: [\dd+]+)?|hover|firing deck(?: \d+)?|ignores cover|precision|"
    r"anti|devastating wounds|lethal hits|sustained hits|torrent|blast|cleave|melta|lance|"
    r"heavy|hazardous|indirect fire|twin-linked|rapid fire|assault|pistol|extra attacks|"
    r"feel no pain|invulnerable save|damaged:.*|attached unit|crucible)$"
)


#: "If you do, until the start of your next command phase, the Waaagh! is active for your
#: army and: ...": the effects hold while the Waaagh! is active.
_WAAAGH_CALLED = re.compile(
    r"^(?:until the start of your next command phase,? )?the waaagh!? is active for your army"
    r"(?: and)?,? "
)
#: "If it does, until the end of the phase, this invulnerable save is improved to 4+."
_IMPROVED_SAVE = re.compile(r"^this invulnerable save is improved to ([2-6])\+$")
#: A sentence about the led unit, after one that began "while this model is leading a unit".
_LED_UNIT = re.compile(r"^if that unit\b.*\bmodels in that unit\b")
#: Effects that add up: an "instead" for other targets replaces them there.
_ADDITIVE = frozenset({"hit", "wound", "attacks", "strength", "ap", "damage"})


#: A reading's status by (a sentence not read, an effect read); with neither, whether the
#: rule is about other units.
_STATUS = {(True, True): "partly", (True, False): "not understood", (False, True): "understood"}


def _about_selected(text: str, selected: bool) -> bool:
    """True if a sentence is about a unit selected earlier in the rule (and not this one)."""
    return (
        selected
        and bool(SELECTED.search(text))
        and not re.search(r"\bthis (?:unit|model)\b|\bthe bearer\b", text)
    )


def _instead(effects: list[Effect], found: list[Effect]) -> list[Effect]:
    """The effects before "..., add 2 to the Damage characteristic of that attack instead"
    for a TITANIC target: where that sentence holds, the earlier effect of the same kind does
    not (it gets ``NON-TITANIC``), so the two never add up."""
    out = list(effects)
    for new in found:
        if new.kind in _ADDITIVE:
            out = [_elsewhere(old, new) for old in out]
    return out


def _elsewhere(old: Effect, new: Effect) -> Effect:
    """``old``, kept off the targets of ``new`` when both change the same thing of the same
    attacks (:func:`_instead`)."""
    if (old.kind, old.attacks, old.weapon) != (new.kind, new.attacks, new.weapon):
        return old
    return replace(old, conditions=(*old.conditions, *_other_targets(old, new)))


def _other_targets(old: Effect, new: Effect) -> tuple[Condition, ...]:
    """The ``NON-`` target conditions that keep ``old`` off the targets ``new`` names (those
    ``old`` does not already name)."""
    return tuple(Condition("target", f"NON-{c.value}") for c in new.conditions
                 if c.kind == "target" and "NON-" not in c.value
                 and c not in old.conditions)  # fmt: skip


@register
@lru_cache(maxsize=2048)
def read_rule(rule: AbilityText, *, scope: str | None = None, army: bool = False) -> RuleReading:
    """Read one rule into typed effects.

    Cached, as its reading is a value: a catalogue prints the same rule on many datasheets
    (1,430 rules of a folder of six factions are 571 different ones).

    Parameters
    ----------
    rule : AbilityText
        The rule's name and text, as printed (HTML and markdown emphasis are ignored).
    scope : {"unit", "model", "led"}, optional
        Who a sentence about "this unit" or "this model" is about, when the caller knows
        better (a detachment rule names friendly units: read them as the unit's own).
    army : bool
        Read it as an army or detachment rule: its subjects name the army's units by
        keywords ("friendly ORKS INFANTRY units", "a BOYZ unit from your army"), kept in
        each effect's ``units`` (:func:`~mathhammer.io.rules_text.army.army_subject`).

    Returns
    -------
    RuleReading
        The effects, the status and the reason for what was not read.

    Examples
    --------
    >>> r = read_rule(AbilityText("Ramshackle", "Ranged attacks that target this unit have "
    ...                           "-1 **D**."))
    >>> [e.text for e in r.effects]
    ['ranged: -1 D to attacks that target it']
    >>> r = read_rule(AbilityText("Tank Hunters", "Each time a model in this unit makes an "
    ...     "attack that targets a MONSTER or VEHICLE unit, add 1 to the Hit roll."))
    >>> [e.text for e in r.effects]
    ['+1 to hit if target MONSTER/VEHICLE']
    >>> r = read_rule(AbilityText("Odd", "Each time this unit is selected to shoot, add 1 "
    ...     "to the Hit roll."))
    >>> r.status, r.reason
    ('not understood',
     "not read: 'each time this unit is selected to shoot, add 1 to the hit roll'")
    """
    name = clean_rule_text(rule.name)
    whole = _named(rule, name) or _whole_rule(rule, name)
    if whole is not None:
        return whole
    # the name printed again before the text
    text = re.sub(rf"^{re.escape(name)}: ", "", clean_rule_text(rule.text))
    reader = _RuleReader(rule_source(rule.name), scope, army)
    for sentence in split_each_time(rule_sentences(text)):
        reader.read(sentence)
    return reader.reading(rule)


def _named(rule: AbilityText, name: str) -> RuleReading | None:
    """The reading of a core rule named as an ability ("Feel No Pain 5+"); None for
    another."""
    named = matched_kind(NAMED, name)
    if named is None:
        return None
    effect = Effect(*named, source=rule_source(rule.name))
    return RuleReading(rule, (effect,), "understood")


def _whole_rule(rule: AbilityText, name: str) -> RuleReading | None:
    """The reading of a rule that is a core rule's text or that only governs how a unit is
    fielded, or that is read whole into the models' fields (D40); None for a rule to read
    sentence by sentence."""
    if CORE.match(re.sub(r"\s*\(.*\)$", "", name)) and not name.startswith("damaged"):
        return RuleReading(rule, (), "not relevant")
    if read_toughness_while(rule) is not None:  # a field of the models (D40), not an effect
        return RuleReading(rule, (), "understood")
    return None


def _about_led(sentence: Sentence, context: Sentence, text: str) -> Sentence:
    """The sentence, about the led unit if the one before it was and it names that unit
    ("... models in that unit have the Feel No Pain 4+ ...")."""
    if context.scope == "led" and _LED_UNIT.search(text):
        sentence.scope = "led"
    return sentence


def _once_per_battle(context: Sentence) -> bool:
    """True if the sentence before a rule's "If it does, ..." is once per battle."""
    return "once per battle" in context.text or any(
        c.value.startswith("once per battle") for c in context.conditions
    )


@dataclass
class _RuleReader:
    """The sentences of one rule, read in order: what they gave so far, and the context the
    next one is read in."""

    source: str
    scope: str | None
    army: bool
    effects: list[Effect] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    others: bool = False
    selected: bool = False  # a sentence selected another unit: "that unit" is that one
    context: Sentence | None = None
    choice: str | None = None  # the attacks of a choice's options ("melee", "", ...)

    def read(self, text: str) -> None:
        """Read one sentence of the rule: a roll's result, a choice, or a sentence of the
        grammar."""
        if not (self._rolled(text) or self._chosen(text)):
            self._read_grammar(text)

    def _read_grammar(self, text: str) -> None:
        """Read a sentence of the grammar (of an army rule: one that names the army's units);
        note it if it is not read."""
        sentence = self._sentence(text)
        try:
            if self.army and not army_subject(sentence):
                self._no_army_units(text)
                return
            found = self._effects(sentence, text)
        except (Unread, MathhammerError) as error:
            self._unread(text, error)
            return
        self._found(text, found)

    def reading(self, rule: AbilityText) -> RuleReading:
        """What the rule says, once every sentence is read."""
        effects = tuple(dict.fromkeys(self.effects))
        fallback = "other units" if self.others else "not relevant"
        status = _STATUS.get((bool(self.unread), bool(effects)), fallback)
        reason = "; ".join(dict.fromkeys(self.reasons))  # "" unless a sentence is unread
        return RuleReading(rule, effects, status, reason, tuple(self.unread))

    def _sentence(self, text: str) -> Sentence:
        """A sentence of the rule to read, in the scope the caller gave; after a sentence that
        selects another unit, "that unit" is that one."""
        sentence = Sentence(text, self.source, selected=self.selected)
        self.selected = self.selected or bool(SELECTS.search(text))
        if self.scope is not None:
            sentence.scope = self.scope
        return sentence

    def _miss(self, text: str, reason: str) -> None:
        """List a sentence not read, with the reason."""
        self.unread.append(text)
        self.reasons.append(reason)

    def _unread(self, text: str, error: Exception) -> None:
        """Note a sentence the grammar could not read (unless it is an army rule's sentence
        that changes no attack: "friendly STORMBOYZ units have BATTLELINE")."""
        if self.army and not RELEVANT.search(text):
            return
        self._not_read(text, str(error))

    def _not_read(self, text: str, reason: str) -> None:
        """Note a sentence not read: a rule for other units, or else listed with the reason."""
        if OTHERS.search(text) or _about_selected(text, self.selected):
            self.others = True
        else:
            self._miss(text, reason)

    def _rolled(self, text: str) -> bool:
        """True if the sentence is a result of a roll on a table (read into the effects, or
        listed)."""
        return self._take(text, _table(text, self.source), "a result of a roll")

    def _chosen(self, text: str) -> bool:
        """True if the sentence is a choice or one of its options (read into the effects, or
        listed)."""
        chosen = _choice(text, self.source, self.choice)
        if chosen is not None and chosen[0] != _NOT_READ:
            self.choice = chosen[0]
        return self._take(text, chosen, "an option of a choice")

    def _take(self, text: str, found: tuple[str, list[Effect]] | None, what: str) -> bool:
        """Add the effects of a roll's result or a choice (:func:`_table`, :func:`_choice`),
        or list it if it is not read in full; False if the sentence is neither."""
        if found is None:
            return False
        kind, effects = found
        if kind == _NOT_READ:
            self._miss(text, f"{what} not read: '{text}'")
        self.effects.extend(effects)
        return True

    def _no_army_units(self, text: str) -> None:
        """Note an army rule's sentence that names no units of the army."""
        if OTHERS.search(text):
            self.others = True
        elif RELEVANT.search(text):
            self._miss(text, f"names no units of the army: '{text}'")

    def _effects(self, sentence: Sentence, text: str) -> list[Effect] | None:
        """The effects of a sentence, in the context of the one before when it follows it
        up ("If ..., ... instead", "If it does, ..."). Raises Unread."""
        context = self.context
        if context is None:
            return self._own(sentence)
        follow = FOLLOW.match(text)
        if follow and context.side:
            return follow_up(context.follow(text), follow)
        used = IF_USED.match(text)
        if used:
            return self._used(text[used.end() :], context)
        return self._own(_about_led(sentence, context, text))

    def _own(self, sentence: Sentence) -> list[Effect] | None:
        """The effects of a sentence read on its own: the context of the sentence after it."""
        found = read_sentence(sentence)
        self.context = sentence
        return found

    def _used(self, rest: str, context: Sentence) -> list[Effect] | None:
        """The effects of using the rule just described ("If it does, until the end of the
        phase, ..."), once per battle or each time it is used."""
        once_used, rest = self._use_state(rest, context)
        improved = _IMPROVED_SAVE.match(rest)
        if improved:
            return self._improved(int(improved[1]), once_used, rest)
        sentence = Sentence(rest, self.source, once_used, context.attacks, context.scope)
        return read_sentence(sentence)

    def _use_state(self, rest: str, context: Sentence) -> tuple[list[Condition], str]:
        """The state that using the rule puts its effects under (once per battle, or each
        time it is used), and the rest of the sentence."""
        waaagh = _WAAAGH_CALLED.match(rest)
        if waaagh:  # the Waaagh! called: its named state, whoever called it
            return [Condition("assumed", "waaagh")], rest[waaagh.end() :]
        once = _once_per_battle(context)
        name = f"once per battle: {self.source}" if once else f"used: {self.source}"
        return [Condition("assumed", name)], rest

    def _improved(self, value: int, once_used: list[Condition], rest: str) -> list[Effect]:
        """The invulnerable saves read so far, improved while the rule is used."""
        found = [replace(e, value=value, conditions=(*e.conditions, *once_used))
                 for e in self.effects if e.kind == "invuln"]  # fmt: skip
        if not found:
            raise Unread(f"an effect '{rest}'")
        return found

    def _found(self, text: str, found: list[Effect] | None) -> None:
        """Add the effects of a sentence; note one that gave none although it could change an
        attack."""
        if found is None:
            if RELEVANT.search(text):
                self._not_read(text, f"not read: '{text}'")
            return
        if text.endswith(" instead"):
            self.effects = _instead(self.effects, found)
        self.effects.extend(found)


#: A choice among options: "select one of the following abilities ...", "select one of the
#: Ka'tah stances below".
_CHOICE = re.compile(r"\bselect one of (?:the following|the [\w' ]+ (?:below|above))\b")
#: An option of a choice, named: "dacatarai stance: melee weapons ... have [sustained hits 1]"
#: (or "dacatarai stance melee weapons ...").
_OPTION = re.compile(r"^(?:■ )?(?P<option>[a-z][\w' -]{1,40}?(?:: | stance(?= )))\s*(?P<rest>.+)$")


#: An option naming the model's weapon bare: "direct grace: fidelity has the [precision]
#: ability".
_BARE_WEAPON = re.compile(
    r"^(?!this |that |its |models? |each |the )(?P<weapon>[a-z][\w' -]{1,40}?) has (?=the \[)"
)

#: What :func:`_choice` gives for a choice (or an option of one) it could not read in full.
_NOT_READ = "not read"


def _choice(text: str, source: str, choice: str | None) -> tuple[str, list[Effect]] | None:
    """A choice the player makes as its options, each under the named state of that option
    (``"<rule>: <option>"``, assumed with ``Context(assume=...)``, docs/rules.md D37). The
    sentence offering the choice may list the options as bracketed abilities, or hold one
    named option after it ("..., direct grace: ..."), or only open the choice for the named
    options that follow. :data:`_NOT_READ` for a choice or an option not read in full
    (listed, never dropped); None for any other sentence."""
    lead = _CHOICE.search(text)
    if lead is None:
        return None if choice is None else _option(text, source, choice)
    return _offered(text[lead.end() :].strip(), source, _choice_attacks(text))


def _offered(rest: str, source: str, kind: str) -> tuple[str, list[Effect]]:
    """The options the sentence offering a choice holds after its lead: none (the named
    options follow), bracketed abilities, or one named option."""
    if not rest:
        return kind, []  # the named options follow
    listed = re.fullmatch(r"[^:\[]*[:,] (?:■ ?)?\[[^\]]+\](?: (?:■ ?)?\[[^\]]+\])*", rest)
    if listed:  # at least one bracketed ability
        return _listed(re.findall(r"\[([^\]]+)\]", rest), source, kind)
    return _one_option(rest, source, kind)


def _choice_attacks(text: str) -> str:
    """The attacks the options of a choice are for: "melee", "ranged" or "" (all)."""
    if "melee weapons" in text:
        return "melee"
    return "ranged" if "ranged weapons" in text else ""


def _listed(tokens: list[str], source: str, kind: str) -> tuple[str, list[Effect]]:
    """The options of a choice listed as bracketed weapon abilities, each under its state
    (:data:`_NOT_READ` if one is not a weapon ability)."""
    options = []
    for token in tokens:
        state = Condition("assumed", f"{source}: {token}")
        try:
            options.append(Effect("ability", token, kind or None, (state,), source))
        except MathhammerError:
            return _NOT_READ, []  # not a weapon ability
    return kind, options


def _one_option(rest: str, source: str, kind: str) -> tuple[str, list[Effect]]:
    """The one named option after the choice ("... abilities to be active..., X: ...")
    (:data:`_NOT_READ` if there is none, or it is not read in full)."""
    one = re.match(r"^[^,]*, (?P<option>.+)$", rest)
    found = None if one is None else _option(one["option"], source, kind)
    return (_NOT_READ, []) if found is None else found


#: A roll on a table, one result per sentence: "roll one d6: ..., 1-2: [sustained hits 1]",
#: "you can roll one d6, on a 3-4, until the end of the phase, add 1 to ...".
_TABLE = re.compile(
    r"^(?P<lead>.*?\broll (?:one|a) d6\b.*?)[:,] (?:on an? )?(?P<roll>[1-6](?:-[1-6]|\+)?)[:,] "
    r"(?P<rest>.+)$"
)
#: The roll itself in the lead, and the results it refers to.
_ROLLED = re.compile(r"(?:at the start of [^,:]+, )?(?:you can )?roll (?:one|a) d6[:,] "
                     r"(?:until the [^,]+, )?")  # fmt: skip
_RESULT = re.compile(r"the abilit(?:y|ies) below that corresponds? (?:with|to) that roll")


def _table(text: str, source: str) -> tuple[str, list[Effect]] | None:
    """One result of a roll on a table, under the named state of that result
    (``"<rule>: 1-2"``): the roll is made before the attacks, so the player attacks knowing
    it (docs/rules.md D37). :data:`_NOT_READ` for a result not read; None for any other
    sentence."""
    row = _TABLE.match(text)
    if row is None or SELECTS.search(row["lead"]) or OTHERS.search(row["lead"]):
        return None  # a roll for another unit
    state = Condition("assumed", f"{source}: {row['roll']}")
    return _read_result(_result(row), source, state)


def _read_result(rest: str, source: str, state: Condition) -> tuple[str, list[Effect]]:
    """The effects of what a result of a roll says, under its state (:data:`_NOT_READ` if
    not read in full)."""
    found = _read_alone(Sentence(rest, source, [state]))
    if found is None and not RELEVANT.search(rest):
        return "", []  # a result that changes no attack ("this unit suffers d3 mortal wounds")
    return ("", found) if found else (_NOT_READ, [])


def _result(row: re.Match[str]) -> str:
    """What a result of a roll says; for a result that is only abilities, the lead that
    gives them ("... the ability below that corresponds to that roll")."""
    rest = row["rest"]
    if re.fullmatch(r"(?:\[[^\]]+\]\s*)+", rest):
        return _RESULT.sub(rest, _ROLLED.sub("", row["lead"]))
    return rest


def _option(text: str, source: str, choice: str) -> tuple[str, list[Effect]] | None:
    """One named option of a choice, read in full under its state (:data:`_NOT_READ` if it
    is not); None for a sentence that names no option."""
    option = _OPTION.match(text)
    if option is None:
        return None
    name = option["option"].rstrip(": ").strip()
    state = Condition("assumed", f"{source}: {name}")
    rest = _BARE_WEAPON.sub(r"this model's \g<weapon> has ", option["rest"])
    rest = re.sub(r" instead of \[[^\]]+\]$", "", rest)  # the better of two is kept anyway
    found = _read_alone(Sentence(rest, source, [state], choice or None))
    return (choice, found) if found else (_NOT_READ, [])


def _read_alone(sentence: Sentence) -> list[Effect] | None:
    """The effects of a result of a roll or an option of a choice, a sentence read on its
    own; none ([]) when the grammar cannot read it: either way, it is not read in full."""
    try:
        return read_sentence(sentence)
    except (Unread, MathhammerError):
        return []


def read_rules(
    rules: Iterable[AbilityText], *, scope: str | None = None, army: bool = False
) -> tuple[RuleReading, ...]:
    """Read several rules (:func:`read_rule`), in order.

    Examples
    --------
    >>> found = read_rules([AbilityText("Feel No Pain 5+"), AbilityText("Scouts 6\\"")])
    >>> [(r.rule.name, r.status) for r in found]
    [('Feel No Pain 5+', 'understood'), ('Scouts 6"', 'not relevant')]
    """
    return tuple(read_rule(r, scope=scope, army=army) for r in rules)
