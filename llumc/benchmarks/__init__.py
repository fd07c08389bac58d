"""Benchmark scripts (run by Makefile targets, never by the tests)."""
