"""Internal: the vectorised Monte Carlo engine, which rolls real dice and shares no code
with the exact engine's steps.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
