"""Finals: a contest's final tournament among the versions handed in (`finals.play`), its games
kept as the ladder's are (ladder games of kind `final`, `finals.models`, read and written as a
tournament store by `finals.store`), where it stands (`finals.status`), its published results
and export, and the date-driven steps of a contest's life (`finals.lifecycle.advance`: the
deadline hands in, the final closes)."""
