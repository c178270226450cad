"""Classic speed: perft nodes/s on 4x4 k=4 and random playouts/s on 3x3, against OpenSpiel.

Run on demand: python benchmarks/classic.py
"""

from __future__ import annotations

import time

import noughts
from _peers import openspiel_perft, openspiel_rollouts_per_second, pyspiel, rate, ratio


def main() -> None:
    print(f"noughts {noughts.__version__}: Classic")

    # perft, 4x4 k=4: ours in C++ (bulk counted) vs OpenSpiel's mnk through its Python API.
    # The same depth for both, so both bulk-count the same share of leaves.
    game = noughts.Classic(4, 4, 4)
    depth = 5
    nodes = noughts.perft(game, depth)
    ours = rate(lambda: noughts.perft(game, depth))
    print(f"perft(4x4 k=4, {depth}) = {nodes:,}: {ours:,.0f} nodes/s")
    theirs = None
    if pyspiel is not None:
        state = pyspiel.load_game("mnk", {"m": 4, "n": 4, "k": 4}).new_initial_state()
        start = time.perf_counter()
        spiel_nodes = openspiel_perft(state, depth)
        theirs = spiel_nodes / (time.perf_counter() - start)
        assert spiel_nodes == nodes, (spiel_nodes, nodes)
        print(f"  OpenSpiel mnk perft({depth}) through pyspiel: {theirs:,.0f} nodes/s")
    print(f"  ratio: {ratio(ours, theirs)}")

    # Random playouts from the empty 3x3 board.
    ttt = noughts.Classic()
    ours = rate(lambda: sum(noughts.random_playouts(ttt, 200_000, seed=1)))
    print(f"random playouts 3x3: {ours:,.0f}/s")
    theirs = openspiel_rollouts_per_second("tic_tac_toe")
    if theirs:
        print(f"  OpenSpiel C++ MCTSBot + RandomRolloutEvaluator(1): {theirs:,.0f} simulations/s")
    print(f"  ratio: {ratio(ours, theirs)}")

    # The larger boards, for the record.
    for rows, cols, k, opts in [
        (4, 4, 4, {}),
        (5, 5, 4, {}),
        (6, 7, 4, {"gravity": True}),
        (3, 3, 3, {"free_choice": True}),
    ]:
        g = noughts.Classic(rows, cols, k, **opts)
        r = rate(lambda: sum(noughts.random_playouts(g, 50_000, seed=2)), 0.5)
        print(f"random playouts {g.to_string().split(' ', 1)[1]:<20} {rows}x{cols}: {r:,.0f}/s")


if __name__ == "__main__":
    main()
