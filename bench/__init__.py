"""Benchmarks: figures measured side by side in one run, printed as tables; never pass/fail."""
