"""Drawing a board with matplotlib (PNG, SVG, PDF) and the print-and-play PDF, from
the one board geometry: `overlay` (what goes on top), `figure` (figures, fonts,
formats, saving), `draw`, `legend`, `palette` (the colours) and `pdf`.
"""
