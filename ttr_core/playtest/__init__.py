"""Many games: playouts, executors (local, Ray), the tally, findings, the
balance report, comparisons and the ladder.
"""
