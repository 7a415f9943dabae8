# The loaded network, for other binding modules (the search hands its BLNet to C).
cdef extern from "net/net.h" nogil:
    ctypedef struct BLNet:
        char game[17]
        char config[33]
        int n_in, width, blocks, n_value, n_actions
        int dtype, value_act


cdef class Net:
    cdef BLNet *net
