"""Where things are on a board: projection, board geometry (the one source of
positions for every renderer), label placement and the board layout.
"""
