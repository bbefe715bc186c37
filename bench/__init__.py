"""Benchmarks: ``make bench`` (``python -m bench.run``) rewrites BENCHMARKS.md."""
