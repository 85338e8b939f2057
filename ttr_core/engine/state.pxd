# Declarations for the optional compiled build (`python -m ttr_core.accel`): the game
# state as an extension type built on the books' (books.pxd). The pure-Python module
# ignores this file.
from ttr_core.engine.books cimport Books

cdef class GameState(Books):
    pass
