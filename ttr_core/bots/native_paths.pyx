# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The native kernel of the planners' cheapest path (`planning.cheapest_path`): the
same Dijkstra on C arrays, built by the compiled build (`python -m ttr_core.accel`)
and used only when it is there. It is the one piece of the optional native playout
core (issue 39's path to 100x): a fifth of a compiled search-bot play-test went to this
search, four fifths of which is Python objects (boxed costs, a heap of Python
integers) that C arrays do without.

`planning.cheapest_path` is the reference: this kernel must give the very same
path, ties included. It keeps the reference's order by the same means: the heap
holds `cost * cities + city` as one integer (so equal costs pop the lower city
first), a city is pushed again only on a strictly lower cost, stale entries are
skipped on popping, and the search stops when the target is popped.
`tests/bots/test_native_paths.py` compares the two on every bundled map and on
random costs; a map-independent change to the reference must be made here too.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc


cdef class NativeGraph:
    """A board's route graph as C arrays: for city `c`, the entries `first[c]` to
    `first[c + 1] - 1` of `ends` and `routes` are its neighbours and the routes
    that join them, in the order of `BoardGraph.neighbors`."""

    cdef Py_ssize_t cities, entries, num_routes
    cdef long inf
    cdef long *first
    cdef long *ends
    cdef long *routes
    cdef long *route_a
    cdef long *route_b
    # Work space of one search (a graph serves one thread: every game is single-threaded).
    cdef long *dist
    cdef long *via
    cdef long *heap
    cdef long *cost

    def __cinit__(self, neighbors, route_a, route_b, long inf):
        cdef Py_ssize_t city, at = 0
        self.cities = len(neighbors)
        self.entries = sum([len(row) for row in neighbors])
        self.num_routes = len(route_a)
        self.inf = inf
        self.first = <long *>PyMem_Malloc((self.cities + 1) * sizeof(long))
        self.ends = <long *>PyMem_Malloc((self.entries + 1) * sizeof(long))
        self.routes = <long *>PyMem_Malloc((self.entries + 1) * sizeof(long))
        self.route_a = <long *>PyMem_Malloc((self.num_routes + 1) * sizeof(long))
        self.route_b = <long *>PyMem_Malloc((self.num_routes + 1) * sizeof(long))
        self.dist = <long *>PyMem_Malloc((self.cities + 1) * sizeof(long))
        self.via = <long *>PyMem_Malloc((self.cities + 1) * sizeof(long))
        # A push per strict improvement: at most one per entry, plus the source.
        self.heap = <long *>PyMem_Malloc((self.entries + 1) * sizeof(long))
        self.cost = <long *>PyMem_Malloc((self.num_routes + 1) * sizeof(long))
        if not (self.first and self.ends and self.routes and self.route_a and self.route_b
                and self.dist and self.via and self.heap and self.cost):
            raise MemoryError()
        for city in range(self.cities):
            self.first[city] = at
            for other, route in neighbors[city]:
                self.ends[at] = other
                self.routes[at] = route
                at += 1
        self.first[self.cities] = at
        for city in range(self.num_routes):
            self.route_a[city] = route_a[city]
            self.route_b[city] = route_b[city]

    def __dealloc__(self):
        PyMem_Free(self.first)
        PyMem_Free(self.ends)
        PyMem_Free(self.routes)
        PyMem_Free(self.route_a)
        PyMem_Free(self.route_b)
        PyMem_Free(self.dist)
        PyMem_Free(self.via)
        PyMem_Free(self.heap)
        PyMem_Free(self.cost)

    cpdef tuple cheapest_path(self, object costs, Py_ssize_t source, Py_ssize_t target):
        """`planning.cheapest_path(graph, costs, source, target)`: (cost, routes of
        one cheapest path, target first), (INF, []) when none exists."""
        cdef Py_ssize_t n = self.cities, size, pos, child, city, other, at
        cdef long d, nd, key, moved, route
        cdef long *dist = self.dist
        cdef long *via = self.via
        cdef long *heap = self.heap
        cdef long *cost = self.cost
        if not (0 <= source < n and 0 <= target < n):
            raise IndexError(f"no city {source} or {target} on a board of {n}")
        if len(costs) != self.num_routes:
            raise ValueError(f"{len(costs)} costs for {self.num_routes} routes")
        if source == target:
            return 0, []
        for at in range(self.num_routes):
            cost[at] = costs[at]
        for city in range(n):
            dist[city] = self.inf
            via[city] = -1
        dist[source] = 0
        heap[0] = source
        size = 1
        while size:
            key = heap[0]  # pop the least key: the last entry sifted down from the root
            size -= 1
            if size:
                moved = heap[size]
                pos = 0
                while True:
                    child = 2 * pos + 1
                    if child >= size:
                        break
                    if child + 1 < size and heap[child + 1] < heap[child]:
                        child += 1
                    if heap[child] >= moved:
                        break
                    heap[pos] = heap[child]
                    pos = child
                heap[pos] = moved
            d = key // n
            city = key % n
            if city == target:
                break
            if d > dist[city]:
                continue  # a stale entry: the city was reached cheaper since
            for at in range(self.first[city], self.first[city + 1]):
                other = self.ends[at]
                nd = d + cost[self.routes[at]]
                if nd < dist[other]:
                    dist[other] = nd
                    via[other] = self.routes[at]
                    key = nd * n + other  # push: sift up from the end
                    pos = size
                    size += 1
                    while pos:
                        child = (pos - 1) >> 1
                        if heap[child] <= key:
                            break
                        heap[pos] = heap[child]
                        pos = child
                    heap[pos] = key
        if dist[target] >= self.inf:
            return self.inf, []
        path = []
        city = target
        while city != source:
            route = via[city]
            path.append(route)
            city = self.route_a[route] if self.route_b[route] == city else self.route_b[route]
        return dist[target], path
