"""Every tuning constant of the exact engine, in one place.

Each constant chooses between paths that compute the same numbers (or, for the cuts,
numbers within a mass that is reported with the result), or sets what a cache keeps. None
changes a result beyond its stated cut. Under each, ``row:`` names the row of
``benchmarks/bench_perf.py`` that it serves: the row is slower, or needs more memory, with
the constant moved far either way. docs/architecture.md lists the paths, when each is
taken and the test that pins it; docs/performance.md holds the measurements.
"""

from __future__ import annotations

__all__ = [
    "BAND_ENTRIES",
    "BAND_LIMIT",
    "BAND_STATES",
    "BLAS",
    "BLOCKS_KEPT",
    "CACHE_ENTRIES",
    "CALL_ENTRIES",
    "CHUNK_ENTRIES",
    "CLOSED_ROWS",
    "DAMAGE_CACHE_BYTES",
    "DENSE_LIMIT",
    "HORNER_STEP",
    "LINE_WORK",
    "PRODUCT_SHARE",
    "PYTHON_SUM",
    "ROW_WORK",
    "RUN_WORK",
    "SMALL_ROW",
    "SMALL_TABLE",
    "SQUARING_STATES",
    "STAGES_CACHED",
    "STEP",
    "TABLES_CACHED",
    "TABLE_ROUND",
    "TARGET_WORK",
    "TABLE_SIZE",
    "TRANSITIONS_KEPT",
    "TRIM_MASS",
    "WINDOW_COUNTS",
    "WINDOW_MASS",
]

# ------------------------------------------------------------------ the engine's paths
# A one-group target: the closed form on its line of states (exact/on_line.py, single.py).
#: The most work a target of one group is given by the closed form, in vector entries
#: moved, each array operation counted as :data:`CALL_ENTRIES` more (about 1 ns an entry:
#: two seconds); past it the general engine, with its cost estimates and refusals,
#: computes the attack.
#: row: S1-S6, STRESS, SUSLETH (6-9x, 5x, 5x slower at 0: every one-group attack on the
#: layout).
LINE_WORK = 2_000_000_000

#: Up to this many states the powers of a dense transition are taken by doubling (a few
#: small matrix products, where a step per failed save costs a call each; the squarings'
#: work grows as the cube of the states).
#: row: S2, S3, S4 (1.3x slower at 0); SUSLETH (1.3x slower when every line doubles).
SQUARING_STATES = 96

# A target of several groups: the chain on its layout (exact/on_layout.py, chain.py).
#: Up to this many states the transition matrices are dense (faster for small units).
#: row: S2-S4, STRESS, MIXED640 (1.5-1.8x slower at 0); D2000 (7x slower at 5,000).
DENSE_LIMIT = 320

#: From this many states, a transition that only moves states forward by at most
#: :data:`BAND_LIMIT` is applied band by band (a few vector operations, not a matrix
#: product or a sparse one).
#: row: DWPREC (3.6x slower with no bands).
BAND_STATES = 128

#: The widest band applied band by band.
#: row: DWPREC (3.5x slower at 1).
BAND_LIMIT = 32

#: A dense transition is applied band by band only when its bands, times this, are no
#: more than the work of the dense product (states x entries moved): each band is a few
#: numpy calls (about 1.5 us), a dense product about 0.08 ns per multiply-add (measured
#: from 128 to 1,200 states). A vector then goes through the dense matrix unless the
#: bands are few; a wide stack of distributions goes band by band.
#: row: DWPREC (3.4x slower with dense products only); SUSLETH (2.3x slower at 0).
BAND_ENTRIES = 20_000

# Binomial thinning of counts of dice (core/binomial.py).
#: Up to this size :func:`binomial_thin` multiplies by the table (fast, in BLAS); above it,
#: it runs Horner's scheme (no table: memory grows as n, not n²) unless it thins many
#: columns at once.
#: row: none in time (the rows run alike at 0 and at 100,000); the memory of a pool of
#: up to MAX_POOL_DICE dice, whose table would hold n**2 entries (tests/test_work_limits.py).
TABLE_SIZE = 1024

#: Counts taken at once by a step of Horner's scheme in :func:`binomial_thin`.
#: row: CLIFF (2.2x slower from 592 dice at 1).
HORNER_STEP = 128

#: Rows ``0 .. CLOSED_ROWS - 1`` of a table are the closed form ``C(n, k) p^k q^(n - k)``,
#: row by row (a few array operations for all of them, where the recurrence takes a Python
#: step a row); the rows after them continue by the recurrence.
#: row: not measured apart: it is read when the module is imported.
CLOSED_ROWS = 96

#: Counts below this are thinned by rows made by the closed form for their size (a few
#: array operations; the last few hundred kept) rather than by the table of their ``p``
#: (built with at least 16 rows, and stored by size).
#: row: S3, S5 (1.4x slower at 0), SUSLETH (1.5x).
SMALL_TABLE = 16

#: Up to this many dice a row's products are taken in Python floats (the same products, in
#: the same order): a few array operations cost more than the loop.
#: row: S1, S6 (1.2x slower at 0).
SMALL_ROW = 64

#: Up to this many entries a pmf's tail is summed in Python floats
#: (:func:`~mathhammer.core.sums.ordered_sum`, the same total as numpy's), past it by one
#: numpy call: a loop of eight running sums costs as much as the call at about 32.
#: row: S6 (1.2x slower at 0); S5, a tail of about 100 failed saves (1 % more machine
#: instructions at 128: 600 k against 594 k a cold call, valgrind).
PYTHON_SUM = 32

# ------------------------------------------------------------------ the cost model
# The units the cost estimates count in, to choose a path and to refuse the too large.
#: The cost of one array operation, as entries moved (its fixed overhead: a few µs).
#: row: S3 (1.25x slower at 0).
CALL_ENTRIES = 2_000

#: A product of two small matrices is counted as moving ``n**3 / 3`` entries: a blocked
#: BLAS product makes three to four multiply-adds in the time a vector product moves an
#: entry (96 states: 27 us a square, 1.3 us a row times the matrix; 41 states: 2.6 and
#: 0.5 us; 21 states: 0.7 and 0.3 us), the fewer the smaller the matrices.
#: row: weak: S2, SUSLETH 1.2x slower at 1 (within the machine's noise).
PRODUCT_SHARE = 3

#: Work of one multiply-add of a matrix product, in element operations.
#: row: the cost estimates' unit, not a path: the refusals of tests/test_work_limits.py.
BLAS = 1 / 16

#: Work of one Python-level step of a loop (a few numpy calls), in element operations.
#: row: the cost estimates' unit, not a path: the refusals of tests/test_work_limits.py.
STEP = 4000

#: Work of running one step (a pool or mortal wounds) beyond its arrays: planning, checks,
#: the result's distributions (about 100 us), in element operations.
#: row: the cost estimates' unit, not a path: the search refusals of tests/test_search_limits.py.
RUN_WORK = 30_000

#: Work of one row of a search's table (a split's results gathered and scored), about
#: 20 us, in element operations.
#: row: the cost estimates' unit, not a path: the search refusals of tests/test_search_limits.py.
ROW_WORK = 8_000

#: Work of a first attack on a target (a defender's order of the groups is a new target):
#: its layout, its transitions and its checks, about 3.5 ms, in element operations.
#: row: the cost estimates' unit, not a path: the search refusals of tests/test_search_limits.py.
TARGET_WORK = 1_500_000

#: Entries of the vectors ``state @ T**j`` multiplied at once (see chain.factored_series).
#: row: DWPREC-mem (the memory held while a joint is multiplied).
CHUNK_ENTRIES = 1_000_000

# ------------------------------------------------------------------ the cuts
# Mass of negligible probability the chain cuts; the mass cut is reported (``trimmed``).
#: The most probability mass cut from the top of one count of dice (:func:`trim_counts`).
#: row: D2000 (2.7x slower at 0).
TRIM_MASS = 1e-18

#: The mass :func:`split_windows` cuts, at most, from each end of the counts a split takes
#: and from each tail of the dice a block takes of a count (relative to the count's mass):
#: a split cuts at most four times this, ``TRIM_MASS / 4``.
#: row: MIXED640 (1.6x slower at 0).
WINDOW_MASS = TRIM_MASS / 16

#: Counts of dice up to which a split keeps every term (:func:`split_windows`).
#: row: MIXED640 (1.7x slower with no windows).
WINDOW_COUNTS = 128

# ------------------------------------------------------------------ what caches keep
#: The transitions a line keeps (for its last damage pmfs).
#: row: none measured (no row changed at 0): a candidate for removal.
TRANSITIONS_KEPT = 8

#: The most bytes of damage matrices a layout keeps for the pools that follow (a layout is
#: shared by the attacks on its target: :meth:`Layout.of`).
#: row: weak: BATCH-compare's pairs, DWPREC 1.2x slower at 0 (near the noise).
DAMAGE_CACHE_BYTES = 2 * 2**20

#: The most save-block transitions a layout keeps (for the pools that follow on it).
#: row: none measured (no row changed at 0): a candidate for removal.
BLOCKS_KEPT = 16

#: A pool's stages are cached when they hold at most this many entries (2 MB).
#: row: none measured (no row changed at 0): a candidate for removal.
STAGES_CACHED = 250_000

#: Tables up to this size are cached, so they cost nothing to build again.
#: row: none measured (the cost model's estimate of a cached table).
TABLES_CACHED = 256

#: Entries the cached tables hold at most, all ``p`` together (8 bytes each: 256 MB). A
#: table of 2,000 dice has 4 million; one larger than the budget is built and not kept.
#: row: the memory of BATCH rows and sweeps (the tables kept, all p together).
CACHE_ENTRIES = 32_000_000

#: Tables are built with a multiple of this many rows, so that nearby sizes share one.
#: row: not measured apart (nearby sizes share one table).
TABLE_ROUND = 16
