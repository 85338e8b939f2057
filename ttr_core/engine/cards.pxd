# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# shuffle's counters as C integers, and the piles as an extension type whose methods
# the moves and the playouts call as C functions (on the books' typed `cards`). The
# pure-Python module ignores this file.
import cython

@cython.locals(i=Py_ssize_t, count=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t)
cpdef shuffle(object rng, list items)

cdef class CardPiles:
    cdef public list deck
    cdef public list discard
    cdef public Py_ssize_t limit
    cdef public list market
    cdef public object rng

    cpdef bint can_draw(self)
    cpdef object draw(self)
    cpdef _reshuffle(self)
    cpdef throw(self, object cards)
    cpdef refill_market(self)
    cpdef object take(self, Py_ssize_t slot)
    cpdef Py_ssize_t reset_market_while_needed(self) except? -1
    cpdef bint second_card_exists(self, bint locomotive_ends_draw=*)
