"""What a game is (R1-R17, D1-D7, E1-E5): the bookkeeping (`books`), the state built
on it, one module per action family (`moves`), the one legal-action dispatcher,
views, results, records, the one game loop, and a builder of positions.
"""
