# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# planners' Dijkstra with C integers for cities, routes and costs. The pure-Python
# module ignores this file.
import cython

@cython.locals(n=Py_ssize_t, dist=list, via=list, heap=list, d=Py_ssize_t, city=Py_ssize_t,
               other=Py_ssize_t, route=Py_ssize_t, nd=Py_ssize_t,
               key=Py_ssize_t)
cpdef tuple _dijkstra(object graph, object costs, Py_ssize_t source, Py_ssize_t target=*)

@cython.locals(closes_sibling=bint, costs=list, holder=Py_ssize_t, length=Py_ssize_t,
               route=Py_ssize_t, sibling=Py_ssize_t, other=Py_ssize_t)
cpdef list route_costs(object board, object owners, Py_ssize_t seat, Py_ssize_t num_players,
                       Py_ssize_t wagons, Py_ssize_t double_routes_from)
