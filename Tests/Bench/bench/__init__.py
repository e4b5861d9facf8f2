"""The driver behind `scripts/bench`: starts vouchd, nginx and PostgreSQL, runs wrk and `vouch-bench`, reads /proc,
and prints every figure as a plain `label: value` line (BENCHMARKS.md explains each)."""
