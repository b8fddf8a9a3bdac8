"""Internal: whole units: loadouts, datasheets, detachments, targets, durability,
comparisons and the targeting plans.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
