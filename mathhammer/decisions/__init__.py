"""Internal: the decisions made before the exact engine runs: which of a weapon's duplicated
abilities applies (:mod:`.choices`), the order the pools resolve in (:mod:`.order`), the
order of the defender's allocation groups (:mod:`.defender`); and :func:`.attack.attack`,
which composes them over the engine, and :func:`.sequence.sequence` of attacks.

Each decision takes the run it scores (:data:`.runs.Run`: a request in, a result out) and
gives a run that makes the decision first: no decision calls the entry point that
composed it.

Its public names are reached through :mod:`mathhammer`; the modules here may change without notice.
"""
