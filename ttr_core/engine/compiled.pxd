# Declarations for the optional compiled build (`python -m ttr_core.accel`): the board's
# tables as fields of an extension type, the base of the `Board` dataclass (which
# keeps its other fields and its cached tables in its dictionary). Code that declares a
# board as `BoardTables` reads these as C struct members. The pure-Python module
# ignores this file.
cdef class BoardTables:
    cdef public tuple route_a
    cdef public tuple route_b
    cdef public tuple route_length
    cdef public tuple route_color
    cdef public tuple route_tunnel
    cdef public tuple route_ferry
    cdef public tuple route_siblings
    cdef public tuple ticket_a
    cdef public tuple ticket_b
    cdef public tuple ticket_value
    cdef public tuple ticket_long
    cdef public tuple claim_options
