"""Two readings of the rules that answer differently: an internal defect, named.

The rules are read more than once on purpose (the specification, the engine, the compiled
kernel, the Z3 relation, ...). Where two of them answer differently on one state -- a
move one enables and the other does not, another successor, another terminal verdict --
one of them is wrong, and nothing can be concluded about the variant from either.
:class:`ReadingsDisagree` names the two readings, the state and what differs (the move,
where there is one); every command reports it as an internal disagreement with exit
code 1, never as a crashed check or a verdict about the variant.
"""

from __future__ import annotations

from dominoproof.model.moves import Move
from dominoproof.model.state import State

__all__ = ["ReadingsDisagree", "state_text"]


def state_text(s: State) -> str:
    """``s`` on one line, as :meth:`State.describe` shows it."""
    return "[" + "; ".join(line.strip() for line in s.describe().splitlines()) + "]"


class ReadingsDisagree(AssertionError):
    """``first`` and ``second`` (readings, by name: "kernel", "specification", ...) answer
    differently on ``state`` (``at``: its id in a search, where known), at ``move`` where
    they differ on one; ``what`` says how. A defect of the tool, never bad input: not a
    :class:`~dominoproof.model.errors.DominoproofError` (those are the user's)."""

    def __init__(self, first: str, second: str, what: str, *, state: State | None = None,
                 at: int | None = None, move: Move | None = None) -> None:
        self.first, self.second, self.what = first, second, what
        self.state, self.at, self.move = state, at, move
        on = f" on {state_text(state)}" if state is not None else ""
        by = f" at the move {move}" if move is not None else ""
        super().__init__(f"internal disagreement: {first} vs {second}{on}{by}: {what}")
