"""Game analysis: every decision of a recorded game valued by the strongest engine at hand
(the best move, the points the played one lost, a label), as `replay analyse` prints it and the
viewer draws it. The engine is behind one function (`engine.value_moves`)."""
