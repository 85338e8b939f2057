# Declarations for the optional compiled build (`python -m ttr_core.accel`): the books
# as an extension type, so that their methods (and the state's, state.pxd) read the
# fields from the object itself rather than from a dictionary. Every field of
# `FIELDS` is declared here. The pure-Python module ignores this file.
import cython
from ttr_core.engine.cards cimport CardPiles
from ttr_core.engine.compiled cimport BoardTables
from ttr_core.engine.connectivity cimport Connectivity

cdef class Books:
    cdef public object map
    cdef public BoardTables board
    cdef public object rule_set
    cdef public Py_ssize_t num_players
    cdef public object seed
    cdef public object rng
    cdef public CardPiles cards
    cdef public object ticket_deck
    cdef public object long_ticket_deck
    cdef public object out_of_game_tickets
    cdef public object hands
    cdef public object tickets
    cdef public object wagons
    cdef public object route_points
    cdef public object status
    cdef public object owner
    cdef public object networks
    cdef public object station_owner
    cdef public object stations_left
    cdef public object phase
    cdef public object first_player
    cdef public object current
    cdef public object pending
    cdef public object setup_returns
    cdef public object passed
    cdef public object final_queue
    cdef public object end_reason
    cdef public object history
    cdef public object tunnel_reveals
    cdef public Py_ssize_t turns
    cdef public object _ticket_views
    cdef public object _snapshot
    cdef public object _open_groups
    cdef public object _open_snapshots
    cdef public object _public_log

    # The methods the moves and the playouts call most, as C calls on a typed
    # books (no look-up by name; a Python subclass may still override them).
    cpdef object decision_for(self, Py_ssize_t seat)
    cpdef list claimed_routes(self, Py_ssize_t seat)
    @cython.locals(network=Connectivity)
    cpdef bint is_ticket_complete(self, Py_ssize_t seat, Py_ssize_t ticket)
    cpdef discard(self, object cards)
    cpdef pay(self, Py_ssize_t seat, object payment)
    @cython.locals(network=Connectivity)
    cpdef take_route(self, Py_ssize_t seat, Py_ssize_t route)
    cpdef end_turn(self, Py_ssize_t seat, bint passed=*)
    cpdef bint everyone_passed(self)
    cpdef pass_turn_on(self, Py_ssize_t seat)
    @cython.locals(k=Py_ssize_t, candidate=Py_ssize_t)
    cpdef Py_ssize_t next_active_after(self, Py_ssize_t seat)
