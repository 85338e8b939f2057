# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# counts of the hot claim listing as C integers. The pure-Python module ignores this
# file.
import cython
from ttr_core.engine.books cimport Books as TypedBooks
from ttr_core.engine.compiled cimport BoardTables
from ttr_core.engine.open_routes cimport is_open_to

@cython.locals(low=Py_ssize_t)
cpdef (Py_ssize_t, Py_ssize_t) locomotive_range(Py_ssize_t length, Py_ssize_t have,
                                               Py_ssize_t locos, Py_ssize_t min_locos)

@cython.locals(locos=Py_ssize_t, have=Py_ssize_t, low=Py_ssize_t, high=Py_ssize_t,
               c=Py_ssize_t, shapes=list)
cpdef list payment_shapes(Py_ssize_t length, Py_ssize_t color, object hand,
                          Py_ssize_t min_locos=*)

@cython.locals(actions=list, locos=Py_ssize_t, first=Py_ssize_t, end=Py_ssize_t,
               have=Py_ssize_t, limit=Py_ssize_t, length=Py_ssize_t, ferry=Py_ssize_t,
               low=Py_ssize_t, high=Py_ssize_t, color=Py_ssize_t, route=Py_ssize_t,
               c=Py_ssize_t, shapes=list, claim_options=tuple, options=tuple, paid=tuple,
               routes=tuple)
cpdef list claim_actions(BoardTables board, object hand, object open_groups, Py_ssize_t wagons,
                         bint ferries, list into=*, bint plain_route_locomotives=*)

# The claim itself (R9-R11) on typed books: their methods as C calls.
cpdef claim(TypedBooks books, Py_ssize_t seat, object action)
cpdef Py_ssize_t check_claim(TypedBooks books, Py_ssize_t seat, object action) except? -1
cpdef _check_payment(TypedBooks books, Py_ssize_t seat, Py_ssize_t route, object payment, object name)
