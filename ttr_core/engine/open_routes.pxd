# Declarations for the optional compiled build (`python -m ttr_core.accel`): whether a
# route is open to a seat (R9, R11), asked for every candidate claim of every bot,
# as C functions on C integers. The pure-Python module ignores this file.
import cython
from ttr_core.engine.compiled cimport BoardTables

@cython.locals(sibling=Py_ssize_t, holder=Py_ssize_t)
cpdef bint is_open_to(BoardTables board, Py_ssize_t route, Py_ssize_t seat, object owner,
                      Py_ssize_t num_players, Py_ssize_t double_routes_from) except -1

cpdef bint can_claim_route(BoardTables board, Py_ssize_t route, Py_ssize_t seat, object owner,
                           Py_ssize_t num_players, Py_ssize_t wagons,
                           Py_ssize_t double_routes_from) except -1
