# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# union-find as an extension type with C integers for cities. The pure-Python
# module ignores this file.
import cython

cdef class Connectivity:
    cdef public list parent

    @cython.locals(parent=list)
    cpdef Py_ssize_t find(self, Py_ssize_t city)

    @cython.locals(root_a=Py_ssize_t, root_b=Py_ssize_t)
    cpdef join(self, Py_ssize_t a, Py_ssize_t b)

    cpdef bint connected(self, Py_ssize_t a, Py_ssize_t b)
