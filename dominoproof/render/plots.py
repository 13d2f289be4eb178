"""Plots for a rules designer: how often rounds block, and what is left at a block.

* :func:`sweep` computes the figures of a variant (:mod:`dominoproof.stats`) along one
  axis -- the set size (double-N) or the number of players -- under each play policy
  (:mod:`dominoproof.proofs.analysis.policies`): **exact** where the configuration has at most
  ``max_exact_deals`` deals (rational arithmetic over every deal), **sampled** with 95%
  intervals otherwise. :func:`block_figure` draws the probability of a block (R1.1,
  R4.4) against that axis, one line per policy, each sampled point with its interval
  as an error bar and each exact point as a square.
* :func:`residual_distribution` gives the distribution of the pips left in all hands at
  a block (R5.3), exact or sampled (each value's share with its Wilson interval);
  :func:`residual_figure` draws it, one step line per policy with its interval as a
  band.

The configurations along an axis keep the variant's rules and change one number:
:func:`configuration` says how the hand size follows (in proportion to the set when
the set changes, kept when the players change unless the set is too small) and what
else must follow (a lead tile the smaller set lacks becomes its highest double; teams
are dropped when the players change). The plots are drawn by matplotlib, an optional
dependency (the ``plots`` extra: it is large, and only pictures need it);
:func:`~dominoproof.render.scene.require_matplotlib` names the extra when it is missing.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from dominoproof.model.errors import DominoproofError
from dominoproof.model.outcome import outcome
from dominoproof.model.spec import count_deals
from dominoproof.model.state import Ending
from dominoproof.model.tiles import MAX_SET, tile_count
from dominoproof.model.variant import DrawRule, Sizes, Variant
from dominoproof.proofs.analysis import stats
from dominoproof.proofs.analysis.policies import POLICIES, policy_named, policy_rounds
from dominoproof.proofs.analysis.simulate import wilson
from dominoproof.proofs.budgets import PLOT_EXACT_DEALS
from dominoproof.render.scene import require_matplotlib
from dominoproof.render.text import estimate_text, figure

__all__ = [
    "AXES",
    "MAX_EXACT_DEALS",
    "Point",
    "Residuals",
    "bin_width",
    "binned",
    "block_figure",
    "check_axis",
    "configuration",
    "default_values",
    "figure_bytes",
    "residual_distribution",
    "residual_distributions",
    "residual_figure",
    "sweep",
]

T = TypeVar("T")

#: The axes a sweep can follow.
AXES = ("set-size", "players")
#: Configurations with at most this many deals get exact figures; larger ones sampled.
MAX_EXACT_DEALS = PLOT_EXACT_DEALS
#: Line colours and markers per policy (the same in every plot).
_COLOURS = {"random": "#1f77b4", "greedy": "#d62728", "block-seeking": "#2ca02c"}


def configuration(v: Variant, *, set_max: int | None = None,
                  players: int | None = None) -> tuple[Variant, str]:
    """``v`` with the set double-``set_max`` or ``players`` seats, and what changed with it.

    The set: the hand size scaled with the number of tiles (at least 1), then lowered
    until the hands and the set-aside tiles fit. The players: the hand size kept unless
    the hands do not fit, then the largest that does. Every other parameter follows the
    sizes as its own metadata says (:meth:`~dominoproof.model.variant.Variant.resized`:
    a lead tile the set lacks becomes its highest double, teams a table cannot keep are
    dropped, ...). A configuration that cannot be dealt is a located error."""
    n = v.n if set_max is None else set_max
    p = v.players if players is None else players
    t0, t = v.tiles.count, tile_count(n)
    none = v.draw.rule is DrawRule.NONE  # every undealt tile aside ("rest"), R3.1
    k = 0 if none else v.deal.set_aside
    hand = v.deal.hand_size
    if set_max is not None:
        hand = max(1, round(hand * t / t0))
    if p * hand + k > t:
        hand = (t - k) // p
    what = f"double-{n}, {p} players x {hand}"
    if hand < 1:
        raise DominoproofError(f"{v.name}: double-{n} has {t} tiles, too few for {p} "
                               f"players and {k} set aside (allowed: a larger set or fewer "
                               "players)")
    aside = t - p * hand if none else k
    try:
        out, notes = v.resized(Sizes(n, p, hand, aside), source=f"{v.name} ({what})")
    except DominoproofError as e:
        raise DominoproofError(f"{v.name}: {what}: {e}") from None
    if notes:
        what += "; " + "; ".join(notes)
    return out, what


def default_values(v: Variant, axis: str) -> list[int]:
    """The values an axis takes by default: three set sizes either side of the
    variant's (double-2 .. double-18); 2 players up to the most whose hands still fit
    with the variant's hand size (at least the variant's own)."""
    if axis == "set-size":
        return list(range(max(2, v.n - 3), min(MAX_SET, v.n + 3) + 1))
    k = v.deal.set_aside if v.boneyard_size else 0
    most = max(v.players, min(10, (v.tiles.count - k) // v.deal.hand_size))
    return list(range(2, most + 1))


@dataclass(frozen=True)
class Point:
    """One configuration's figures under one policy."""

    axis: str
    value: int
    what: str  #: the configuration, in words
    policy: str
    figures: Any  #: a :class:`dominoproof.proofs.analysis.figures.RoundFigures`
    hand: int = 0  #: the configuration's hand size (the plot's ``H=`` under each value)

    @property
    def exact(self) -> bool:
        return bool(self.figures.exact)


def check_axis(axis: str, values: Sequence[int]) -> None:
    if axis not in AXES:
        raise DominoproofError(f"--by {axis}: no such axis (allowed: {', '.join(AXES)}, "
                               "residuals)")
    lo, hi = (0, MAX_SET) if axis == "set-size" else (2, 10)
    for x in values:
        if not lo <= x <= hi:
            raise DominoproofError(f"--values {x}: out of range for {axis} (allowed: "
                                   f"{lo}..{hi})")


def sweep(v: Variant, axis: str, values: Sequence[int], policies: Sequence[str], *,
          rounds: int = 2000, seed: int = 0, max_exact_deals: int = MAX_EXACT_DEALS,
          progress: Callable[[str], None] | None = None) -> list[Point]:
    """The figures of ``v`` at each value of ``axis`` under each policy. Every
    configuration is built (and any bad one reported) before any is computed."""
    check_axis(axis, values)
    pols = [policy_named(p) for p in policies]
    configs = [(x, *configuration(v, **{"set_max" if axis == "set-size" else "players": x}))
               for x in values]
    out = []
    for x, cv, what in configs:
        graph = exact_graph(cv, max_exact_deals)
        for pol in pols:
            if progress is not None:
                progress(f"{what}: {pol.name}")
            fig = (stats.figures_on_graph(graph, pol) if graph is not None
                   else stats.sampled_figures(cv, pol, rounds, seed))
            out.append(Point(axis, x, what, pol.name, fig, cv.deal.hand_size))
    return out


@dataclass(frozen=True)
class Residuals:
    """The distribution of the pips left in all hands at a block (R5.3) under a policy:
    per residual, its probability given a block, and an interval (sampled)."""

    policy: str
    method: str  #: "exact" or "sampled"
    blocked: float | None  #: the probability of a block
    shares: tuple[tuple[int, float, float, float], ...]  #: (residual, p, low, high)
    n: int | None  #: sampled: the blocked rounds the shares rest on

    @property
    def mean(self) -> float | None:
        """The mean residual at a block (None: no round blocks)."""
        return sum(r * p for r, p, _low, _high in self.shares) if self.shares else None


def residual_distribution(v: Variant, policy: str, *, rounds: int = 2000, seed: int = 0,
                          max_exact_deals: int = MAX_EXACT_DEALS,
                          graph: Any = None) -> Residuals:
    """The distribution of the residual at a block: exact over every deal when there
    are at most ``max_exact_deals`` (``graph``: a search to reuse), else measured on
    ``rounds`` rounds from ``seed`` with 95% Wilson intervals."""
    pol = policy_named(policy)
    if graph is None:
        graph = exact_graph(v, max_exact_deals)
    if graph is not None:
        _deals, finals, _length = stats.terminal_masses(graph, pol)
        mass: dict[int, Fraction] = {}
        for i, m in finals:
            res = graph.scorer(graph.variant, graph.state(i))
            if res is not None and res.termination is Ending.BLOCKED:
                r = sum(res.residuals)
                mass[r] = mass.get(r, Fraction(0)) + m
        total = sum(mass.values(), Fraction(0))
        shares = tuple((r, float(m / total), float(m / total), float(m / total))
                       for r, m in _every(mass, Fraction(0))) if total else ()
        return Residuals(pol.name, "exact", float(total), shares, None)
    counts: dict[int, int] = {}
    played = 0
    for final, _moves in policy_rounds(v, pol, rounds, seed):
        played += 1
        res = outcome(v, final)
        if res is not None and res.termination is Ending.BLOCKED:
            r = sum(res.residuals)
            counts[r] = counts.get(r, 0) + 1
    b = sum(counts.values())
    shares = tuple((r, k / b, *wilson(k, b)) for r, k in _every(counts, 0))  # 95%
    return Residuals(pol.name, "sampled", b / played if played else None, shares, b)


def exact_graph(v: Variant, max_exact_deals: int) -> Any:
    """Every round of ``v`` searched once (the exact figures of every policy read it), or
    None: too many deals, or a budget ran out."""
    if count_deals(v, True) > max_exact_deals:
        return None
    try:
        return stats.search_graph(v, free_draw=True, max_deals=max_exact_deals)
    except stats.FiguresUnknown:
        return None


def residual_distributions(v: Variant, policies: Sequence[str], *, rounds: int = 2000,
                           seed: int = 0, max_exact_deals: int = MAX_EXACT_DEALS
                           ) -> list[Residuals]:
    """:func:`residual_distribution` under each policy (one search serves them all)."""
    graph = exact_graph(v, max_exact_deals)
    return [residual_distribution(v, p, rounds=rounds, seed=seed, graph=graph,
                                  max_exact_deals=max_exact_deals) for p in policies]


def _every(counts: dict[int, T], zero: T) -> list[tuple[int, T]]:
    """Every residual from the least to the greatest seen, those not seen as ``zero``."""
    if not counts:
        return []
    return [(r, counts.get(r, zero)) for r in range(min(counts), max(counts) + 1)]


# ---------------------------------------------------------------------------
# Drawing (matplotlib)
# ---------------------------------------------------------------------------


def block_figure(points: Sequence[Point], title: str) -> Any:
    """P(block) against the axis of ``points``, one line per policy: sampled points with
    their 95% interval as error bars, exact points as squares."""
    plt = require_matplotlib("plots")
    fig, ax = plt.subplots(figsize=(7.2, 5.2), dpi=100)
    axis = points[0].axis if points else "set-size"
    names = list(dict.fromkeys(p.policy for p in points))
    values = [p.value for p in points]
    step = min(0.08, 0.02 * (max(values) - min(values))) if values else 0.0
    for k, name in enumerate(names):
        mine = [p for p in points if p.policy == name]
        # each policy a little aside (a dodge of 2% of the axis, at most 0.08), so that
        # equal figures and overlapping intervals of two policies both show
        dodge = (k - (len(names) - 1) / 2) * step
        where = [p.value + dodge for p in mine]
        ys = [p.figures.blocked.value for p in mine]
        colour = _COLOURS.get(name, "#555555")
        ax.plot(where, ys, "-", color=colour, alpha=0.6, linewidth=1.5)
        samp = [p for p in mine if not p.exact and p.figures.blocked.low is not None]
        if samp:
            ax.errorbar([p.value + dodge for p in samp],
                        [p.figures.blocked.value for p in samp],
                        yerr=[[p.figures.blocked.value - p.figures.blocked.low for p in samp],
                              [p.figures.blocked.high - p.figures.blocked.value
                               for p in samp]],
                        fmt="o", color=colour, capsize=4, markersize=5,
                        label=f"{name} (sampled, 95% interval)")
        ex = [p for p in mine if p.exact]
        if ex:
            ax.plot([p.value + dodge for p in ex], [p.figures.blocked.value for p in ex], "s",
                    color=colour, markersize=7, label=f"{name} (exact)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_ylabel("P(the round ends blocked)  R1.1, R4.4")
    ax.set_xlabel("the set: double-N" if axis == "set-size" else "players")
    xs = sorted({p.value for p in points})
    ax.set_xticks(xs)
    hands = {p.value: p.hand for p in points}  # the hand size, never the notes after it
    ax.set_xticklabels([f"{x}\nH={hands[x]}" for x in xs], fontsize=8)
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=11)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2,
              frameon=False)  # below the axes: never over a point
    fig.tight_layout()
    return fig


#: At most this many bars in a residual plot: beyond it the residuals are binned.
RESIDUAL_BINS = 30
_NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)


def bin_width(dists: Sequence[Residuals], most: int = RESIDUAL_BINS) -> int:
    """The width (pips) of a residual plot's bins: 1 while every residual from the least
    to the greatest seen fits in ``most`` bins, else the least nice width (2, 5, 10, 20,
    25, 50, ...) that makes them fit."""
    seen = [s[0] for d in dists for s in d.shares]
    if not seen:
        return 1
    span = max(seen) - min(seen) + 1
    return next((w for w in _NICE_WIDTHS if -(-span // w) <= most), _NICE_WIDTHS[-1])


def binned(d: Residuals, width: int) -> list[tuple[int, float, float, float]]:
    """``d``'s shares summed over bins of ``width`` pips, each as (the bin's first
    residual, share, low, high): exact shares summed; sampled ones recounted (a share
    times the blocked rounds) with the bin's own 95% Wilson interval."""
    if width == 1:
        return list(d.shares)
    bins: dict[int, float] = {}
    for r, p, _low, _high in d.shares:
        bins[r - r % width] = bins.get(r - r % width, 0.0) + p
    out = []
    for start in range(min(bins), max(bins) + 1, width):
        p = bins.get(start, 0.0)
        low, high = (p, p) if d.method == "exact" or not d.n else wilson(round(p * d.n), d.n)
        out.append((start, p, low, high))
    return out


def residual_figure(dists: Sequence[Residuals], title: str) -> Any:
    """The residual at a block, one step line per policy, its interval as a band, and
    its mean as a dashed line. Where the residuals spread over more than
    :data:`RESIDUAL_BINS` values (a large set: double-12's run to hundreds of pips), they
    are binned (:func:`bin_width`), so that the lines stay apart and readable."""
    plt = require_matplotlib("plots")
    fig, ax = plt.subplots(figsize=(7.2, 4.6), dpi=100)
    width = bin_width(dists)
    for d in dists:
        if not d.shares:
            continue
        colour = _COLOURS.get(d.policy, "#555555")
        shares = binned(d, width)
        xs = [s[0] + (width - 1) / 2 for s in shares]  # each bin at its middle
        ys = [s[1] for s in shares]
        mean = d.mean or 0.0
        how = "exact" if d.method == "exact" else f"sampled, {d.n:,} blocks, 95% band"
        ax.step(xs, ys, where="mid", color=colour, linewidth=1.8,
                label=f"{d.policy} ({how}); mean {mean:.1f} (dashed)")
        if d.method != "exact":
            ax.fill_between(xs, [s[2] for s in shares], [s[3] for s in shares],
                            step="mid", color=colour, alpha=0.15, linewidth=0)
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1, alpha=0.8)
    per = "" if width == 1 else f" (bins of {width} pips)"
    ax.set_xlabel(f"pips left in all hands at the block{per}  R5.3")
    ax.set_ylabel("share of blocked rounds" + (", per bin" if width > 1 else ""))
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.set_title(title, fontsize=11)
    if any(d.shares for d in dists):
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=1,
                  frameon=False)  # below the axes: never over a line
    else:
        ax.text(0.5, 0.5, "no round blocks", transform=ax.transAxes, ha="center")
    fig.tight_layout()
    return fig


def figure_bytes(fig: Any, fmt: str, close: bool = True) -> bytes:
    """A figure as ``png`` or ``svg`` bytes (the SVG's fonts drawn as paths, so it is
    self-contained), then closed unless ``close`` is false."""
    plt = require_matplotlib("plots")
    import matplotlib  # optional (the plots extra): present once require_matplotlib passed

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "dominoproof"}):
        fig.savefig(buf, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
    if close:
        plt.close(fig)
    return buf.getvalue()


def policies_or_all(names: Sequence[str]) -> list[str]:
    """The policies named, or every policy."""
    return [policy_named(n).name for n in names] if names else list(POLICIES)


def interval_text(e: Any) -> str:
    """A probability's value and interval in words (for the text a plot command prints:
    P(block))."""
    if e.value is None or e.is_exact or e.low is None:
        return figure(e.value, probability=True) + (" (exact)" if e.is_exact else "")
    return estimate_text(e.value, e.low, e.high, probability=True)
