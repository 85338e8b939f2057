# Declarations for the optional compiled build (`python -m ttr_core.accel`): the game
# loop on a typed state (state.pxd), so that applying an action is a C call. The
# pure-Python module ignores this file.
from ttr_core.engine.state cimport GameState as TypedState

cpdef TypedState run(TypedState state, object players, object on_step=*, bint playout=*)
