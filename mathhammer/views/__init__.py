"""Internal: the views of results: plots, heatmaps and the single-file HTML pages.

The public names are those of :mod:`mathhammer`; the modules here may change without notice.
"""
