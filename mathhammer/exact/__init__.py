"""Internal: the exact engine: the attack's steps as distributions, then the allocation
chain over the target's model-wound states.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
