"""What a game is (R1-R17, D1-D7, E1-E5): the state, its bookkeeping, the moves,
the one legal-action dispatcher, views, results, records and the one game loop.
"""
