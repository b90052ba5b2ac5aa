"""recommendations.md written out again in plain Python, for scripts/crosscheck.py."""
