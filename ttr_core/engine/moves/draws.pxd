# Declarations for the optional compiled build (`python -m ttr_core.accel`): the card
# draws (R7, R8) on typed books, their methods and fields read as C calls and struct
# members. The pure-Python module ignores this file.
from ttr_core.engine.books cimport Books as TypedBooks

cpdef draw_first_card(TypedBooks books, Py_ssize_t seat, object action)
cpdef draw_second_card(TypedBooks books, Py_ssize_t seat, object decision, object action)
cpdef _draw_from_deck(TypedBooks books, Py_ssize_t seat)
cpdef object _check_market_slot(TypedBooks books, object action)
cpdef object _take_market_card(TypedBooks books, Py_ssize_t seat, Py_ssize_t slot)
