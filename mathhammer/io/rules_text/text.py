"""The words of a rule: text cleaned and cut into sentences, a rule's display name, and
the record of a rule not (fully) read.

Examples
--------
>>> rule_sentences(clean_rule_text("This unit's attacks have +1 to <b>hit</b> rolls.<br>"
...                                 "- It can **run**."))
["this unit's attacks have +1 to hit rolls", 'it can run']
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache

from ...core.caches import register
from ...units.parts import AbilityText

__all__ = ["UnreadAbility", "clean_rule_text", "rule_sentences", "rule_source"]


@dataclass(frozen=True)
class UnreadAbility(AbilityText):
    """An ability that could change an attack, not (fully) read or applied.

    ``reason`` says why: the condition it depends on, an effect the engine cannot
    express, or a phrasing that is not recognised.
    """

    reason: str = ""


_MARKUP = re.compile(r"<[^>]*>|\*\*|\^\^|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)")
_SPACES = str.maketrans(
    {"\xa0": " ", "\u2011": "-", "\u2013": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"',
     "\u201d": '"'}
)  # fmt: skip


@register
@lru_cache(maxsize=4096)
def clean_rule_text(text: str) -> str:
    """Text without HTML, markdown emphasis, odd spaces and curly quotes, in lower case.

    Cached: a catalogue prints the same rules on many datasheets (the 7,500 texts of a
    folder of six factions are 1,000 different ones).

    Examples
    --------
    >>> clean_rule_text("This unit's attacks have +1 to **hit rolls**.")
    "this unit's attacks have +1 to hit rolls."
    """
    text = re.sub(r"<br\s*/?>", "\n", text, flags=re.IGNORECASE)
    text = html.unescape(_MARKUP.sub("", text)).translate(_SPACES)
    # a line break inside a sentence (an export's wrapped text) is a space
    text = re.sub(r"(?<=[^\s.:!?])[ \t]*\n(?![ \t]*(?:[-\u25a0\u25aa\u2022*]|\d+\.|\n))", " ", text)
    return re.sub(r"[ \t]+", " ", text).strip().lower()


_BULLET = re.compile(r"^(?:-+|[\u25a0\u25aa\u2022*]|\d+\.)\s*")
_INLINE_BULLET = re.compile(r"\s+-\s+(?=[a-z+\-\[])")
_INLINE_HEADER = re.compile(r"[:.]\s+-\s+")


def rule_sentences(text: str) -> list[str]:
    """The sentences of cleaned text; a bulleted line carries the header it belongs to.

    Examples
    --------
    >>> rule_sentences("while a unit is riled up:\\n- that unit has 5+ insv.\\n- it can run.")
    ['while a unit is riled up, that unit has 5+ insv', 'while a unit is riled up, it can run']
    """
    out: list[str] = []
    header = ""
    for raw in _lines(text):
        line, header = _under_header(raw, header)
        out.extend(_sentences(line))  # none for a header's own line ("")
    return out


def _lines(text: str) -> list[str]:
    """The lines of text that are not blank, stripped, bullets run into one line split."""
    lines: list[str] = []
    for line in text.split("\n"):
        # bullets run into one line by an export: "... can: - re-roll ... - become ..."
        # (after a header only: "reaper chain-cleaver - strike profile" is a name)
        if _INLINE_HEADER.search(line):
            line = _INLINE_BULLET.sub("\n- ", line)
        lines.extend(line.split("\n"))
    return [line.strip() for line in lines if line.strip()]


def _under_header(line: str, header: str) -> tuple[str, str]:
    """A line with the header it belongs to ("" for a header), and the header of the
    lines after it."""
    if _BULLET.match(line):
        body = _BULLET.sub("", line)
        if body.endswith(":"):  # a nested header under a bullet
            return "", f"{header} {body}".strip()
        return (f"{header[:-1]}, {body}" if header.endswith(":") else body), header
    if line.endswith(":"):
        return "", line
    return line, ""


def _sentences(line: str) -> list[str]:
    """The sentences of one line, without notes and full stops (none empty)."""
    line = re.sub(r"\s*\(note [^)]*\)", "", line)
    sentences = (s.rstrip(".").strip() for s in re.split(r"(?<=\.)\s+", line))
    return [s for s in sentences if s]


def rule_source(name: str) -> str:
    """A rule's name for display: no markup, no "(Aura)" or use limits in brackets."""
    text = html.unescape(_MARKUP.sub("", name)).translate(_SPACES)
    return " ".join(text.split())
