"""Internal: the model of an attack: weapons, units, pools, abilities, effects, the
situation (context) and the modifiers.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
