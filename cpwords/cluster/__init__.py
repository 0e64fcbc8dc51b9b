"""Running a spec's big task in shards on a cluster: the runner, its checkpoint, the worker side.

The kinds say how their tasks split (:class:`~cpwords.engines.shards.Sharding`, named by the
``shards`` reference of each descriptor); this package holds no per-kind code and starts no
process itself. The runner (:mod:`.runner`) plans every spec's shards, resumes from the
checkpoint (:mod:`.checkpoint`), runs the rest on an executor of the execution layer
(:mod:`cpwords.engines.parallel`: this process, local worker processes or Dask), splits the
shards that run too long and combines the partial results exactly. What a worker does with a
task is :mod:`.worker`; what identifies a run (the checkpoint's key) is :mod:`.identity`.

The public entry points are :func:`cpwords.solve` (``cluster=``, ``checkpoint=``) and
:func:`cpwords.api.solve_batch`.
"""
