# Declarations for the optional compiled build (`python -m ttr_core.accel`): lengths
# and city numbers of the R16 search as C integers (a set of links stays a Python
# int: a network may have more than 64 links). The pure-Python module ignores this
# file.
import cython

@cython.locals(best=Py_ssize_t, total=Py_ssize_t, found=Py_ssize_t)
cpdef Py_ssize_t longest_trail_in(object table, object owned)

@cython.locals(rows=tuple, network_of=list, adjacency=list, networks=list, route=Py_ssize_t,
               a=Py_ssize_t, b=Py_ssize_t, length=Py_ssize_t, at_a=list, at_b=list,
               new=list, large=list, small=list, city=Py_ssize_t)
cpdef tuple _networks(object table, object owned)

@cython.locals(far=Py_ssize_t, far_length=Py_ssize_t, stack=list, city=Py_ssize_t,
               came_from=Py_ssize_t, length=Py_ssize_t, neighbour=Py_ssize_t,
               route_length=Py_ssize_t)
cpdef tuple _farthest(object adjacency, Py_ssize_t start)

@cython.locals(odd=list, ends=list, left=Py_ssize_t, best=Py_ssize_t, index=Py_ssize_t,
               shortest=Py_ssize_t, start=Py_ssize_t, other=Py_ssize_t, ceiling=Py_ssize_t,
               stack=list, city=Py_ssize_t, length=Py_ssize_t, neighbour=Py_ssize_t,
               link_length=Py_ssize_t)
cpdef Py_ssize_t _longest_in_network(object adjacency, list cities, Py_ssize_t total)

@cython.locals(walked=object, bit=object, city=Py_ssize_t, neighbour=Py_ssize_t,
               length=Py_ssize_t, step=Py_ssize_t)
cpdef object _chains_joined(object adjacency, list cities)

@cython.locals(other=Py_ssize_t, length=Py_ssize_t)
cpdef Py_ssize_t _shortest_link(list links, Py_ssize_t city)
