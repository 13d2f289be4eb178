"""dominoproof.proofs: the round as a transition system, checked by search and by Z3."""
