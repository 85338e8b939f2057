# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# planners' Dijkstra with C integers for cities, routes and costs. The pure-Python
# module ignores this file.
import cython
from ttr_core.engine.compiled cimport BoardTables
from ttr_core.engine.moves.claims cimport payment_shapes
from ttr_core.engine.open_routes cimport can_claim_route

@cython.locals(n=Py_ssize_t, dist=list, via=list, heap=list, d=Py_ssize_t, city=Py_ssize_t,
               other=Py_ssize_t, route=Py_ssize_t, nd=Py_ssize_t,
               key=Py_ssize_t)
cpdef tuple _dijkstra(object graph, object costs, Py_ssize_t source, Py_ssize_t target=*)

@cython.locals(closes_sibling=bint, costs=list, holder=Py_ssize_t, length=Py_ssize_t,
               route=Py_ssize_t, sibling=Py_ssize_t, other=Py_ssize_t, lengths=tuple)
cpdef list route_costs(BoardTables board, object owners, Py_ssize_t seat, Py_ssize_t num_players,
                       Py_ssize_t wagons, Py_ssize_t double_routes_from)

@cython.locals(route=Py_ssize_t)
cpdef object refreshed_plan(object plan, BoardTables board, object owners, Py_ssize_t seat,
                            Py_ssize_t num_players, Py_ssize_t wagons,
                            Py_ssize_t double_routes_from)

@cython.locals(route=Py_ssize_t, found=list)
cpdef list longest_claimable(object graph, object owners, Py_ssize_t seat,
                             Py_ssize_t num_players, Py_ssize_t wagons,
                             Py_ssize_t double_routes_from, object limit=*)

@cython.locals(needs=list, gray=Py_ssize_t, route=Py_ssize_t, color=Py_ssize_t, tunnel=tuple,
               colors=tuple, lengths=tuple,
               length=Py_ssize_t)
cpdef tuple color_needs(BoardTables board, object routes, Py_ssize_t tunnel_reserve=*)

@cython.locals(length=Py_ssize_t, color=Py_ssize_t)
cpdef object best_payment(BoardTables board, Py_ssize_t route, object hand, object needs=*,
                          Py_ssize_t min_locos=*, bint plain_route_locomotives=*)

@cython.locals(best_color=Py_ssize_t, c=Py_ssize_t, fewest=Py_ssize_t, need=Py_ssize_t)
cpdef object _cheapest(object options, Py_ssize_t length, Py_ssize_t color, object hand,
                       object needs, Py_ssize_t min_locos=*)

@cython.locals(best_slot=Py_ssize_t, best_score=Py_ssize_t, most_held=Py_ssize_t,
               slot=Py_ssize_t, missing=Py_ssize_t, score=Py_ssize_t)
cpdef object draw_for_needs(object market, object hand, object needs, Py_ssize_t gray,
                            bint second, bint can_draw_deck)

@cython.locals(city=Py_ssize_t, route=Py_ssize_t, path=list)
cpdef tuple cheapest_path(object graph, object costs, Py_ssize_t source, Py_ssize_t target)

@cython.locals(board=BoardTables, working=list, planned=list, kept=list, lost=list, spent=Py_ssize_t,
               cost=Py_ssize_t, route=Py_ssize_t)
cpdef object plan_network(object graph, object costs, object tickets, Py_ssize_t wagons)
