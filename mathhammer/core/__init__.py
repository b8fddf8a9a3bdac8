"""Internal: the numerical core under every layer: dice, distributions, binomial rows,
convolution, limits, caches and the tuning constants.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
