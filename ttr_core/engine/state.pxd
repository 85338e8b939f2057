# Declarations for the optional compiled build (`python -m ttr_core.accel`): the game
# state as an extension type built on the books' (books.pxd). The pure-Python module
# ignores this file.
from ttr_core.engine.books cimport Books

cdef class GameState(Books):
    # An action applied by the loop on a typed state: a C call.
    cpdef apply(self, object action, object seat=*)
