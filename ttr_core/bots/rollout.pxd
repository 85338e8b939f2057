# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# playout player as an extension type, so that its methods read their own fields
# from the object itself rather than from a dictionary, and its state's fields too
# (the state is the extension type of state.pxd). The pure-Python module ignores
# this file.
import cython
from ttr_core.bots.planning cimport (best_payment, color_needs, draw_for_needs,
                                     longest_claimable, plan_network, refreshed_plan,
                                     route_costs)
from ttr_core.engine.compiled cimport BoardTables
from ttr_core.engine.open_routes cimport can_claim_route
from ttr_core.engine.state cimport GameState

cdef class RolloutPlayer:
    cdef public GameState state
    cdef public Py_ssize_t seat
    cdef public object graph
    cdef public object _plan
    cdef public object _plan_tickets
    cdef public object _checked
    cdef public object _counted
    cdef public object _tickets_mark
    cdef public object _open_tickets
    cdef public Py_ssize_t last_turn

    # The methods a playout calls on itself, as C calls (no look-up by name).
    cpdef RolloutPlayer bound_to(self, GameState state)
    cpdef object decide(self, object state, Py_ssize_t seat)
    cpdef object turn(self)
    cpdef object targets(self, object plan)
    cpdef tuple needs(self, object targets)
    @cython.locals(color=Py_ssize_t, held=Py_ssize_t, hand=list, ferry=Py_ssize_t,
                   board=BoardTables)
    cpdef object _claim(self, Py_ssize_t route, object needs, bint final_round)
    cpdef list costs(self)
    cpdef object plan(self)
    cpdef tuple open_tickets(self)
    cpdef object keep(self, object decision)
