"""The HTML report written to a file, as safely as every other output.

The page itself is :func:`mathhammer.views.report_html.report_html`'s; this module only
puts it on disk through :mod:`mathhammer.io.outputs`, so a library caller gets what the
command line's ``--html`` gets: the path checked before the page is built, a regular file
replaced whole (a reader never sees half a page), a symbolic link's target written rather
than the link replaced, ``/dev/null`` or a FIFO written in place, and a read-only file
refused unless ``force``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..rules.registry import RulesetLike
from ..views.report_html import report_html

if TYPE_CHECKING:
    import pandas as pd

    from ..core.dist import Dist
    from ..results.attack import AttackResult

from .outputs import check_output, write_output

__all__ = ["write_html_report"]


def write_html_report(
    frame: pd.DataFrame,
    path: str | os.PathLike[str],
    *,
    title: str = "mathhammer report",
    rules: RulesetLike | None = None,
    metric: str | None = None,
    results: Sequence[AttackResult | Dist | None] | None = None,
    scale: str = "auto",
    force: bool = False,
) -> Path:
    """Write a report as one self-contained HTML file; return where the bytes went.

    The page holds the table (sortable by clicking a header), the loadout x target
    heatmap of ``metric`` and, given the distributions, a small chart of P(at least k)
    in each row (see :func:`~mathhammer.views.report_html.report_html`).

    Parameters
    ----------
    frame : pandas.DataFrame
        A :func:`mathhammer.compare` frame or a report's: one row per pairing, with
        ``loadout`` and ``target`` columns (and ``phase``, if the report has one).
    path : str or path-like
        Where to write: a regular file is replaced whole; a symbolic link's target is
        written; a character device or FIFO is written in place.
    title : str
        The page's title and heading.
    rules : str or Ruleset, optional
        The ruleset, shown under the title and in the heatmap's title.
    metric : str, optional
        The heatmap's column (by default one that means something against every target).
    results : sequence of AttackResult, Dist or None, optional
        The distributions behind the rows, in the frame's row order, for the charts.
    scale : {"auto", "column", "shared"}
        The heatmap's colours: see :func:`~mathhammer.views.heatmap.colour_scale`.
    force : bool
        Replace a read-only file rather than refuse it.

    Returns
    -------
    Path
        The file written: ``path``, or the final target of a symbolic link.

    Raises
    ------
    OptionError
        Before any work, for a folder, a block device or socket, a missing or read-only
        folder, or a read-only file without ``force``: nothing is written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    >>> frame = mh.compare({"guns": [(gun, 5)]}, ["Horde infantry", "Vehicle"])
    >>> results = [mh.attack([(gun, 5)], mh.targets.get(t).unit) for t in frame["target"]]
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> path = write_html_report(frame, folder / "r.html", results=results)
    >>> page = path.read_text(encoding="utf-8")
    >>> page.count('class="spark"'), "wounds lost" in page
    (2, True)
    >>> _ = (folder / "r.html").chmod(0o444)
    >>> write_html_report(frame, folder / "r.html")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: path must be a writable file; got ...
    """
    target = check_output(path, force=force, what="path", hint="pass force=True to replace it")
    page = report_html(frame, title=title, rules=rules, metric=metric, results=results, scale=scale)
    write_output(target, lambda out: out.write(page))
    return target.path
