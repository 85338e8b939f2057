# Declarations for the optional compiled build (`python -m ttr_core.accel`): the
# shuffle's counters as C integers. The pure-Python module ignores this file.
import cython

@cython.locals(i=Py_ssize_t, count=Py_ssize_t, k=Py_ssize_t, j=Py_ssize_t)
cpdef shuffle(object rng, list items)
