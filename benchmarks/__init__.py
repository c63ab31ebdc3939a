"""Benchmarks for sniff_rules; not part of the installed package."""
