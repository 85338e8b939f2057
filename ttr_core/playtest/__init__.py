"""Many games: playout → executors (local, Ray) → tally → findings → a typed
BalanceReport (report.py, with stats.py for its intervals and tests), shown by html
and folder, compared by compare; the ladder rates bots over the same machinery.
"""
