"""Every budget of dominoproof, each stated once with why it has its value.

A budget bounds work, never meaning: a search or a check that reaches one stops and says
so (UNKNOWN, "partial", the budget named), and no verdict is drawn from what it did not
see. What the values were measured on is in the docs (``docs/ARCHITECTURE.md``,
"Budgets"; ``docs/KERNEL.md``, "The budgets, measured"), not here.

A Z3 check is bounded first by Z3's *resource limit* (``rlimit``): a count of the solver's
elementary steps, the same on a quiet and on a loaded machine, so the same seed and
inputs give the same verdict however busy the machine is. The wall clock is only an
outer safety net against a check that would run for hours; each budget that runs out
is named in the verdict (:data:`RESOURCE_LIMIT`, :data:`WALL_CLOCK`). Zero is never
"no limit" (it is to Z3): both budgets must be positive.
"""

from __future__ import annotations

# ---------------------------------------------------------------------------
# Z3
# ---------------------------------------------------------------------------

DEFAULT_SEED = 0
#: Z3's resource limit per check: about 20 times the largest count one check of
#: ``dominoproof verify`` uses (``scripts/calibrate-rlimit``), so no check of the
#: presets comes near it and a check that does is news.
DEFAULT_RLIMIT = 200_000_000
#: The wall-clock safety net per check: four times what a check spending the whole
#: resource limit takes at the slowest rate measured, so only a machine overloaded many
#: times over reaches it (and the verdict then says so).
DEFAULT_TIMEOUT_MS = 600_000
#: The optimiser that makes a counterexample to induction small gets this share (1/10) of
#: the resource limit: its model is only an illustration, kept even when the optimum is
#: not reached (``proofs/z3/induction.py``).
CTI_MINIMISE_SHARE = 10
#: The longest rounds (termination's bound) over which the witness table bounds the
#: residual by unrolling every round: beyond it one query takes more than a minute
#: (``proofs/z3/witness_bounds.py``).
WITNESS_EVERY_ROUND = 60

#: The two budgets a check can exhaust, as a verdict's reason names them.
RESOURCE_LIMIT = "resource limit"
WALL_CLOCK = "wall-clock safety net"


def check_budget(rlimit: int, timeout_ms: int) -> None:
    """Both budgets must be positive integers: zero would mean *no limit* to Z3."""
    for name, v in (("rlimit", rlimit), ("timeout_ms", timeout_ms)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be a positive integer, not {v!r}")


# ---------------------------------------------------------------------------
# The exhaustive search (proofs/search/)
# ---------------------------------------------------------------------------

#: Expansions between two looks at the clock, on either backend (and steps of the exact
#: figures' dynamic programme, nodes of the witness search): often enough that a time
#: budget is overrun by a fraction of a second, rarely enough that reading the clock
#: costs nothing measurable.
CLOCK_EVERY = 1 << 10
#: The kernel's expansions per call when there is no time budget: large, so that the
#: calls back into Python cost nothing, small enough to grow the arrays between calls.
CHUNK_UNTIMED = 1 << 16
#: :meth:`SearchResult.to_networkx` builds graphs of at most this many transitions: a
#: networkx graph costs about a kilobyte a transition, and it is for small graphs only
#: (pictures, the tests' cross-checks of the array analyses).
NX_LIMIT = 20_000
#: Above this many initial states, ``feasibility`` calls a configuration infeasible: one
#: search per deal, each at least a few states, is already beyond a search in memory.
FEASIBLE_DEALS = 2_000_000

# -- the plans of verify (proofs/search/plans.py) --------------------------------------
#: Every-deal searches are planned up to this many deals on the Python path: every deal
#: of the 2-player presets' analogues (with tiles set aside too) and of the 3-player
#: pool's fits.
PLAN_DEALS = 30_000
#: On the compiled kernel, up to this many deals: the 4-player analogues' deals too, each
#: such search tried within :data:`PLAN_STATES`.
PLAN_DEALS_KERNEL = 120_000
#: A search of every deal beyond :data:`PLAN_DEALS` stops at this many states and gives
#: way to sampled deals (the plan's ``fallback``): the budget of verify's search of one
#: preset, a few seconds to search and judge on the kernel.
PLAN_STATES = 1_500_000
#: On the compiled kernel, the set a 2-player analogue without a boneyard is searched on
#: first: every deal of the block game's on double-4 fits :data:`PLAN_STATES`, while
#: with a boneyard every draw order of double-4 does not (a draw game starts at the
#: small set, and is searched on double-4 as well where its deals are few enough).
LARGER_SET = 4
#: On the compiled kernel, the budget of a 2-player draw game's search of every deal of
#: double-4 in every draw order: the draw presets' rules fit with room for rules that
#: add states (fouls, a bonus) in the memory of a laptop.
PLAN_STATES_LARGER_DRAW = 16_000_000
#: Seeded deals searched when every deal is out of reach.
SEEDS = 10
#: Candidate deals explored for the corners they reach (beyond the seeded ones).
CANDIDATES = 300
#: Further deals looked at (not explored) for a lead case no candidate has.
LEAD_SCAN = 5_000
#: The states a candidate deal is explored to for the corners it reaches: the small
#: configurations' deals are a few thousand states, so this only stops a runaway.
CORNER_STATES = 50_000

# ---------------------------------------------------------------------------
# Elsewhere: the figures, the cross-check, the app's defaults
# ---------------------------------------------------------------------------
# Stated here once; a module that gives one its own name reads it from here.

#: ``stats --exact`` refuses a configuration of more deals (``--max-deals``): an exact
#: run holds every deal's graph, and beyond this the sampled figures are the way.
#: (``proofs/analysis/stats.py``'s ``MAX_EXACT_DEALS``.) Not :data:`PLOT_EXACT_DEALS`.
STATS_EXACT_DEALS = 250_000
#: The exact run's state budget (``--max-states``): beyond it the answer is UNKNOWN.
#: (``proofs/analysis/stats.py``'s ``DEFAULT_MAX_STATES``.)
STATS_EXACT_STATES = 3_000_000
#: A plot or a report computes a configuration's figures exactly when it has at most this
#: many deals, and samples it otherwise: a plot has one configuration per point, so each
#: must be quick. A choice per configuration, not a refusal as :data:`STATS_EXACT_DEALS`
#: is. (``dominoproof/render/plots.py``'s ``MAX_EXACT_DEALS``, and the ``--max-exact-deals``
#: default of ``plot`` and ``report``.)
PLOT_EXACT_DEALS = 5_000
#: States of the small search on which the engine and the Z3 relation are compared per
#: variant in ``verify`` and ``report`` (``--crosscheck``): each comparison is a Z3 query.
CROSSCHECK_STATES = 40
#: ``verify``'s self-test draws this many variants from the whole parameter space
#: (proofs/space.py) and compares the readings on each, on at most ``SPACE_STATES``
#: states of one deal's search: each state is a Z3 query, so 24 variants of at most 120
#: states keep the check within the time of one preset's job
SPACE_VARIANTS = 24
SPACE_STATES = 120
#: ... and the first initial state of each case of the lead rule reached among this many
#: initial states of the search (reading a state back is cheap: the scan takes well
#: under a second on the largest small search's 120,000 deals)
CROSSCHECK_ROOTS = 200_000
#: ``crosscheck``'s own search stops after this many states (``--max-states``).
CROSSCHECK_MAX_STATES = 200_000
#: ``crosscheck`` replays at most this many witness traces (``--replays``).
CROSSCHECK_REPLAYS = 200
#: The conformance suite's reachable states per configuration (``reachable``'s
#: ``limit``): an exact comparison of every state, within memory.
REACHABLE_STATES = 1_000_000
#: ``explore``'s state budget (``--max-states``).
EXPLORE_MAX_STATES = 5_000_000
#: Below this many deals ``explore --all-deals`` runs in one process: a pool costs more
#: than it saves (``dominoproof/commands/explore.py``'s ``POOL_FROM``).
EXPLORE_POOL_FROM = 20_000
#: ``verify``'s search of one init its plan gives no state budget of its own (a deal, or
#: every deal of a configuration the plan found within reach) stops at this many states
#: or after this many seconds, whichever comes first (UNKNOWN, saying so): room for the
#: searches the plans choose, within a laptop's memory and a verify of minutes.
VERIFY_SEARCH_STATES = 2_000_000
VERIFY_SEARCH_SECONDS = 120
#: ``verify``'s search of a fault's demo configuration stops at this many states
#: (``dominoproof/verify.py``): a fault's counterexample is short, its graph small.
FAULT_STATES = 2_000_000
#: ``repair``'s candidates judged at most (``--max-candidates``): every single change of
#: a preset is a few dozen candidates, so this leaves room for the most promising pairs.
#: A budget that runs out is reported with the candidates not judged (exit 3).
REPAIR_CANDIDATES = 100
#: ``repair``'s time for one candidate's searches (``--candidate-seconds``): a candidate
#: whose graph is much larger than the variant's (an opening double that takes five tiles
#: instead of none) stops there, its properties UNKNOWN -- judged, not a repair -- instead
#: of holding up every other candidate for minutes. Several times a Mexican Train
#: candidate's time on two idle cores (docs/DESIGNER.md), so a loaded machine still leaves
#: it room; the few candidates confirmed on the whole catalogue have verify's own budgets.
REPAIR_CANDIDATE_SECONDS = 180
#: ``repair``'s wall-clock safety net (``--max-seconds``): no candidate starts after it.
#: Two hours: a hundred candidates of the largest presets at about a minute each on two
#: cores.
REPAIR_SECONDS = 7200
#: ``repair`` confirms at most this many of its best candidates on the whole catalogue
#: (each a second search, and the statistics): enough for a short list to choose from.
REPAIR_CONFIRM = 6
#: An integer parameter whose range has at most this many values is tried at every one
#: (``layout.double_takes``, ``lead.player``); a larger range (a penalty, a rounding) has
#: no small set of values to try.
REPAIR_RANGE = 10
#: The rounds behind ``repair``'s statistics (uniformly random, a fixed seed): a block
#: probability to about +-0.02 at 95%, in seconds on the kernel.
REPAIR_ROUNDS = 2_000
#: The share of a witness question's time budget its search takes, by the question's
#: sense (Z3 runs beside it for the whole budget): a maximum's Z3 side starts from the
#: play-outs' best, and a question of existence is settled by the first round found.
#: (``proofs/analysis/witness_table.py``'s ``SEARCH_SHARE``.)
WITNESS_SEARCH_SHARE = {"min": 0.5, "max": 0.3, "exists": 0.25}


# ---------------------------------------------------------------------------
# Z3
# ---------------------------------------------------------------------------

#: Houdini's joint query (every lemma at once after one step) gets 1/this of the
#: resource limit: when it runs out, one query per lemma with the whole limit still
#: decides, so the joint query only needs enough to settle the easy steps at once.
HOUDINI_JOINT_SHARE = 5
#: Houdini re-checks the surviving lemmas with one query over all actions together up
#: to double-this (double-9, 55 tiles); above it that query is slower than the checks
#: per action it repeats, so those alone decide.
HOUDINI_TOGETHER_MAX_N = 9
#: A bounded search's default depth (moves): enough for the counterexamples of every
#: fault's demo variant, whose rounds are short.
BMC_DEPTH = 12
#: A bounded search's default wall-clock budget (seconds), checked between depths: a
#: verify of minutes, with room for the deepest query of the presets.
BMC_SECONDS = 60.0
#: The largest termination bound (moves) a bounded search may exhaust to prove a
#: property that induction does not: one query over every round up to it stays within
#: the resource limit; beyond it the proof is left NOT_INDUCTIVE.
EXHAUST_LIMIT = 40
#: ``prove --explain`` explains at most this many counterexamples to induction, each a
#: query of its own: enough to see the pattern, few enough to read.
EXPLAIN_CTIS = 12
