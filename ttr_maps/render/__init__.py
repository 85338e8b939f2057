"""Drawing a board with matplotlib (PNG, SVG, PDF) and the print-and-play PDF,
from the one board geometry.
"""
