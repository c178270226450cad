"""Trains the Ultimate evaluation network that MCTS uses in place of rollouts (docs/mcts.md).

Four steps, each reproducible from its seed:

  selfplay  games of noughts' MCTS against itself; every searched position is kept with
            the search's value and the game's result, from the mover's view
  label     (optional) the exact value of the later positions of each game, where the
            proof-number search proves it within a limit a position (--seconds, or --nodes
            for labels that are the same on any machine)
  train     a one-hidden-layer network (features -> hidden, clipped ReLU -> tanh) fitted
            to a mix of the two (a proved win or loss instead, where label proved one),
            on all eight symmetric images of each position, for one rule set (--rules) or
            both, optionally starting from another network (--init: a file of train's, or
            a network of the shipped header, HEADER.hpp:seed or HEADER.hpp:codingame; a
            wider network keeps its units and adds fresh ones)
  export    the two rule sets' networks as a C++ header, cpp/include/noughts/ultimate_eval_weights.hpp

  python scripts/train_ultimate_eval.py selfplay --games 6000 --iterations 1000 --out /tmp/uttt.npz
  python scripts/train_ultimate_eval.py selfplay --games 6000 --iterations 1000 --tiebreak --out /tmp/uttt_tb.npz
  python scripts/train_ultimate_eval.py label --data /tmp/uttt_tb.npz --out /tmp/uttt_tb_labelled.npz --nodes 600000
  python scripts/train_ultimate_eval.py train --data /tmp/uttt.npz /tmp/uttt_tb.npz --out /tmp/both.npz
  python scripts/train_ultimate_eval.py train --data /tmp/uttt.npz --rules seed --init /tmp/both.npz --out /tmp/seed.npz
  python scripts/train_ultimate_eval.py train --data /tmp/uttt_tb_labelled.npz --rules codingame --init /tmp/both.npz \
      --out /tmp/codingame.npz
  python scripts/train_ultimate_eval.py export --net /tmp/seed.npz --tiebreak-net /tmp/codingame.npz

Each rule set has its own network (the seeds' rules, where a full big board with no line is
a draw, and CodinGame's board-count scoring): the same position is worth different things
under the two. Both can start from one network trained on all positions, since most of what
makes a position good (threats on small boards and on the big one) is common to both.

The features are the engine's own (Ultimate._eval_features, cpp/src/ultimate_eval.cpp,
what evaluate() reads; tests/test_ultimate_eval.py checks them against the docs): the mover's
and the opponent's marks (81 each), the boards
each has won (9 each), the drawn boards (9), the board the mover is sent to (9, or 1
for a free move), and for each open board (9 each) whether the mover has two in a line with
the third cell empty, whether the opponent has, whether the mover can still make a line
there (some line holds none of the opponent's marks), and whether the opponent can.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

import noughts
import numpy as np
from noughts import Ultimate

N_FEATURES = Ultimate._EVAL_FEATURES
RULES = {"seed": 0, "codingame": 1}  # the networks' order in the header: Ultimate(tiebreak=False), then True
HIDDEN = 64
UNPROVEN = 2  # label's mark of a position whose value it did not prove
HEADER = Path(__file__).resolve().parents[1] / "cpp/include/noughts/ultimate_eval_weights.hpp"


# ---- positions as arrays ----------------------------------------------------------------


def encode(game: Ultimate) -> tuple[list[int], list[int], int, int]:
    """X's and O's 9-bit masks per board, the forced board (-1 free) and the mover (0 X, 1 O)."""
    xs, os = game.board_marks()
    forced = game.forced_board
    return list(xs), list(os), -1 if forced is None else forced, int(game.to_move)


def features(xs: np.ndarray, os: np.ndarray, forced: np.ndarray, mover: np.ndarray) -> np.ndarray:
    """The network's input for each position (rows), from the mover's view, as uint8 0/1: the
    engine's own features (Ultimate._eval_features, what evaluate() reads)."""
    own = np.where(mover[:, None] == 0, xs, os).astype(np.uint16)
    opp = np.where(mover[:, None] == 0, os, xs).astype(np.uint16)
    return Ultimate._eval_features(own, opp, forced.astype(np.int8))


def symmetric_arrays(xs: np.ndarray, os: np.ndarray, forced: np.ndarray, s: int) -> tuple[np.ndarray, ...]:
    """The positions' images under symmetry s, taken from the engine's own symmetric()."""
    perm = _cell_maps()[s]
    mx = np.zeros_like(xs)
    mo = np.zeros_like(os)
    for b in range(9):
        for c in range(9):
            mx[:, perm[b]] |= ((xs[:, b] >> c) & 1) << perm[c]
            mo[:, perm[b]] |= ((os[:, b] >> c) & 1) << perm[c]
    f = np.where(forced < 0, -1, np.array(perm)[np.maximum(forced, 0)])
    return mx, mo, f


def _cell_maps() -> list[list[int]]:
    """perm[s][i]: the image of board (or cell) i under symmetry s, read off the engine."""
    maps = []
    for s in range(8):
        perm = []
        for i in range(9):
            g = Ultimate()
            g.play(i * 9 + i)  # board i, cell i: its image is board j, cell j
            xs, _ = g.symmetric(s).board_marks()
            j = next(b for b in range(9) if xs[b])
            perm.append(j)
        maps.append(perm)
    return maps


# ---- self-play --------------------------------------------------------------------------


def selfplay(games: int, iterations: int, seed: int, out: Path, tiebreak: bool) -> None:
    rng = random.Random(seed)
    rows_x, rows_o, rows_f, rows_m, values, results = [], [], [], [], [], []
    t0 = time.monotonic()
    for i in range(games):
        game = Ultimate(tiebreak=tiebreak)
        mcts = noughts.MCTS(seed=rng.getrandbits(63))
        for _ in range(rng.randrange(0, 7)):  # a random opening, for variety
            game.play(rng.choice(game.legal_actions()))
            if game.is_over():
                break
        start = len(rows_m)
        while not game.is_over():
            r = mcts.search(game, iterations=iterations)
            xs, os, forced, mover = encode(game)
            rows_x.append(xs)
            rows_o.append(os)
            rows_f.append(forced)
            rows_m.append(mover)
            values.append(r.value)
            move = r.best_move.id if rng.random() > 0.05 else rng.choice(game.legal_actions())
            game.play(move)
        winner = game.winner
        for k in range(start, len(rows_m)):
            results.append(0.0 if winner is None else (1.0 if int(winner) == rows_m[k] else -1.0))
        if (i + 1) % 100 == 0:
            rate = (time.monotonic() - t0) / (i + 1)
            print(f"{i + 1} games, {len(rows_m)} positions, {rate:.2f} s a game", flush=True)
            _save(out, rows_x, rows_o, rows_f, rows_m, values, results, tiebreak)
    _save(out, rows_x, rows_o, rows_f, rows_m, values, results, tiebreak)


def _save(
    out: Path, xs: list, os: list, forced: list, mover: list, values: list, results: list, tiebreak: bool
) -> None:
    np.savez_compressed(
        out,
        tiebreak=np.full(len(mover), tiebreak, np.uint8),
        xs=np.array(xs, np.uint16),
        os=np.array(os, np.uint16),
        forced=np.array(forced, np.int8),
        mover=np.array(mover, np.uint8),
        value=np.array(values, np.float32),
        result=np.array(results, np.float32),
    )


# ---- exact labels -----------------------------------------------------------------------


def position_string(xs: np.ndarray, os: np.ndarray, forced: int, tiebreak: bool) -> str:
    """The position string (docs/positions.md) of one position of the arrays."""
    rows = []
    for r in range(9):
        row = ""
        for col in range(9):
            b, c = 3 * (r // 3) + col // 3, 3 * (r % 3) + col % 3
            row += "x" if xs[b] >> c & 1 else "o" if os[b] >> c & 1 else "."
        rows.append(row)
    return "/".join(rows) + (" -" if forced < 0 else f" {forced}") + (" tiebreak" if tiebreak else "")


def marks(d: dict[str, np.ndarray]) -> np.ndarray:
    """The number of marks on the board of each position of a self-play file's arrays."""
    return sum(np.unpackbits(d[side].view(np.uint8), axis=1).sum(1) for side in ("xs", "os")).astype(int)


def game_starts(plies: np.ndarray) -> list[int]:
    """Where each game of a self-play file starts (a game's positions are consecutive, each one
    mark deeper than the last), then the number of positions."""
    n = len(plies)
    return [0] + [i for i in range(1, n) if plies[i] != plies[i - 1] + 1] + [n]


def label(
    data: Path, out: Path, seconds: float | None, from_ply: int, nodes: int | None = None, games: int | None = None
) -> None:
    """The self-play file with each position's exact value where the proof-number search
    proves it within `seconds` (or, reproducibly on any machine, within `nodes` nodes):
    `proven` is +1, 0 or -1 for the mover, or 2 (not proved). With `games`, only the first
    `games` games are labelled (the others' positions stay unproved).

    Each game is walked from its end back: a late position is proved quickly and an earlier
    one seldom is once a later one was not, so a game's walk stops at its first failure. The
    search values of the middle game are an 8,000-iteration search's guess; the exact values
    teach the network the forced wins that the search finds only a few plies later (train
    decides how to use them)."""
    d = dict(np.load(data))
    n = len(d["mover"])
    plies = marks(d)
    proven = np.full(n, UNPROVEN, np.int8)
    starts = game_starts(plies)
    t0, proved, tried = time.monotonic(), 0, 0
    # One table for the whole walk: what a later position's proof left in it is most of an
    # earlier one's.
    prover = noughts.Prover(tt_mb=256)
    for g, (a, b) in enumerate(list(zip(starts, starts[1:]))[:games]):
        for i in range(b - 1, a - 1, -1):
            if plies[i] < from_ply:
                break
            game = Ultimate.from_string(
                position_string(d["xs"][i], d["os"][i], int(d["forced"][i]), bool(d["tiebreak"][i]))
            )
            tried += 1
            solution = prover.prove(game, max_seconds=None if nodes else seconds, max_nodes=nodes)
            if solution is None:
                break
            proven[i] = solution.value
            proved += 1
        if (g + 1) % 50 == 0:
            print(f"{g + 1} games, {proved} of {tried} positions proved, {time.monotonic() - t0:.0f} s", flush=True)
            np.savez_compressed(out, proven=proven, **d)
    np.savez_compressed(out, proven=proven, **d)
    print(f"{proved} of {tried} positions proved", flush=True)


# ---- training ---------------------------------------------------------------------------


def load_network(path: Path) -> dict[str, np.ndarray]:
    """A network's weights: a file written by train, or one rule set's network in the weights
    header, as header.hpp:seed or header.hpp:codingame (the shipped networks, whose data need
    not be at hand)."""
    name, _, rules = str(path).rpartition(":")
    if name.endswith(".hpp") and rules in RULES:
        text = Path(name).read_text()

        def floats(array: str) -> np.ndarray:
            body = re.search(array + r"\b[^=]*=\s*(\{.*?\});\n", text, re.S)
            if body is None:
                raise SystemExit(f"train: no {array} in {name}")
            return np.array(re.findall(r"-?[\d.]+(?:e[-+]?\d+)?(?=f)", body.group(1)), np.float32)

        rule_sets, hidden = (int(re.search(rf"{k} = (\d+);", text).group(1)) for k in ("kRuleSets", "kHidden"))
        r = RULES[rules]
        return {
            "w1": floats("kInput").reshape(rule_sets, -1, hidden)[r],
            "b1": floats("kHiddenBias").reshape(rule_sets, hidden)[r],
            "w2": floats("kOutput").reshape(rule_sets, hidden)[r],
            "b2": floats("kOutputBias")[r : r + 1],
        }
    return {k: v.astype(np.float32) for k, v in np.load(path).items()}


def widened(start: dict[str, np.ndarray], fresh: list[np.ndarray]) -> list[np.ndarray]:
    """The start network's weights in the shapes of `fresh` (a new network's): a wider network
    keeps the start's units and adds fresh ones whose output weights are zero, so that it
    computes what the start did until training moves them."""
    w1, b1, w2, b2 = (start[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))
    hidden = fresh[0].shape[1]
    if w1.shape[0] != fresh[0].shape[0] or w1.shape[1] > hidden:
        raise SystemExit(f"train: cannot start a {fresh[0].shape} network from a {w1.shape} one")
    k = w1.shape[1]
    return [
        np.concatenate([w1, fresh[0][:, k:] * 0.5], axis=1),
        np.concatenate([b1, fresh[1][k:]]),
        np.concatenate([w2, np.zeros(hidden - k, np.float32)]),
        b2.reshape(1),
    ]


def load(paths: list[Path], held_out: float, rules: str | None) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """All files' positions of the rule set (all of them for None), and a mask of those held
    out for validation: the last games of each file (positions of one game are contiguous, so
    a cut by index keeps whole games apart, but one), so that every rule set and generation
    is validated, not only the last."""
    parts = [dict(np.load(p)) for p in paths]
    masks = []
    for p in parts:
        n = len(p["mover"])
        p.setdefault("tiebreak", np.zeros(n, np.uint8))
        p.setdefault("proven", np.full(n, UNPROVEN, np.int8))  # exact values from label
        masks.append(np.arange(n) >= int((1 - held_out) * n))
    d, held = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, np.concatenate(masks)
    if rules is not None:
        keep = d["tiebreak"] == RULES[rules]
        if not keep.any():
            raise SystemExit(f"train: no position of the rule set {rules!r} in {', '.join(map(str, paths))}")
        d, held = {k: v[keep] for k, v in d.items()}, held[keep]
    return d, held


def train(
    data_paths: list[Path],
    out: Path,
    epochs: int,
    seed: int,
    mix: float,
    hidden: int,
    rules: str | None,
    init: Path | None,
    lr: float = 1e-3,
    draw_weight: float = 0.5,
) -> None:
    d, held = load(data_paths, 0.05, rules)
    n = len(d["mover"])
    target = (mix * d["value"] + (1 - mix) * d["result"]).astype(np.float32)
    # A proved win or loss is the target itself; a proved draw moves the target toward 0 by
    # draw_weight, since how often a drawn position is won against a fallible opponent is
    # what the search's value also measures.
    proven = d["proven"]
    decided = (proven == 1) | (proven == -1)
    target[decided] = proven[decided]
    target[proven == 0] *= 1 - draw_weight
    xs, os, forced, mover = d["xs"].astype(np.int64), d["os"].astype(np.int64), d["forced"].astype(np.int64), d["mover"]
    images = [symmetric_arrays(xs, os, forced, s) for s in range(8)]
    # 0/1 features as bytes (a quarter of the memory of floats), made floats a batch at a time.
    inputs = np.concatenate([features(mx, mo, f, mover) for mx, mo, f in images])
    targets = np.tile(target, 8)
    rng = np.random.default_rng(seed)
    val_idx = np.flatnonzero(held)  # the held-out games as played (their images add nothing)
    train_idx = np.concatenate([np.flatnonzero(~held) + k * n for k in range(8)])
    train_sample = rng.choice(train_idx, min(200_000, len(train_idx)), replace=False)
    w1 = (rng.standard_normal((N_FEATURES, hidden)) * np.sqrt(1 / 30)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = (rng.standard_normal(hidden) * np.sqrt(1 / hidden)).astype(np.float32)
    b2 = np.float32(0)
    params = [w1, b1, w2, np.array([b2], np.float32)]
    if init is not None:  # fine-tuning: another network's weights as the start
        params = widened(load_network(init), params)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, step = 0.9, 0.999, 1e-8, 0
    batch = 1024

    def forward(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        pre = x.astype(np.float32) @ params[0] + params[1]
        h = np.clip(pre, 0, 1)
        y = np.tanh(h @ params[2] + params[3][0])
        return pre, h, y

    best_mse, best = float("inf"), params
    if init is not None:  # the start's error on the held-out games, for comparison
        _, _, y0 = forward(inputs[val_idx])
        best_mse = float(np.mean((y0 - targets[val_idx]) ** 2))
        best = [p.copy() for p in params]
        exact = proven[val_idx] != UNPROVEN
        on_exact = f", proved values {np.mean(((y0 - targets[val_idx]) ** 2)[exact]):.4f}" if exact.any() else ""
        print(f"start: validation mse {best_mse:.4f}{on_exact}", flush=True)
    for epoch in range(epochs):
        order = rng.permutation(train_idx)
        for start in range(0, len(order), batch):
            idx = order[start : start + batch]
            x, t = inputs[idx], targets[idx]
            pre, h, y = forward(x)
            dy = (y - t) * (1 - y * y) * (2 / len(idx))
            g_w2 = h.T @ dy
            g_b2 = np.array([dy.sum()], np.float32)
            dh = np.outer(dy, params[2]) * ((pre > 0) & (pre < 1))
            g_w1 = x.T.astype(np.float32) @ dh
            g_b1 = dh.sum(0)
            step += 1
            for k, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                mh = m[k] / (1 - beta1**step)
                vh = v[k] / (1 - beta2**step)
                params[k] -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        lr *= 0.8
        _, _, yv = forward(inputs[val_idx])
        _, _, yt = forward(inputs[train_sample])
        errors = (yv - targets[val_idx]) ** 2
        val_mse = float(np.mean(errors))
        by_rules = ", ".join(
            f"{name} {np.mean(errors[d['tiebreak'][val_idx] == flag]):.4f}"
            for name, flag in (("seed rules", 0), ("CodinGame's scoring", 1))
            if np.any(d["tiebreak"][val_idx] == flag)
        )
        exact = proven[val_idx] != UNPROVEN
        if exact.any():
            by_rules += f"; proved values {np.mean(errors[exact]):.4f} on {exact.mean():.0%} of them"
        print(
            f"epoch {epoch + 1}: train mse {np.mean((yt - targets[train_sample]) ** 2):.4f}, "
            f"validation mse {val_mse:.4f} ({by_rules}; "
            f"predicting 0: {np.mean(targets[val_idx] ** 2):.4f})",
            flush=True,
        )
        if val_mse < best_mse:  # the weights of the best epoch on the held-out games are kept
            best_mse, best = val_mse, [p.copy() for p in params]
    np.savez(out, w1=best[0], b1=best[1], w2=best[2], b2=best[3])


# ---- export -----------------------------------------------------------------------------


def export(net_paths: list[Path], header: Path, command: str, recipe: list[str]) -> None:
    nets = [load_network(p) for p in net_paths]
    shapes = {net["w1"].shape for net in nets}
    if len(shapes) != 1:
        raise SystemExit(f"export: the networks have different shapes {sorted(shapes)}")
    w1 = nets[0]["w1"]

    def literal(v: float) -> str:
        text = f"{float(v):.7g}"
        return (text if "." in text or "e" in text else text + ".0") + "f"

    def row(values: np.ndarray) -> str:
        return ", ".join(literal(v) for v in values)

    steps = recipe or [command]
    lines = [
        "// Generated by scripts/train_ultimate_eval.py: do not edit. Reproduce with",
        *[f"//   {step}" for step in steps],
        "// (see the script's docstring for the whole pipeline).",
        "#pragma once",
        "",
        "namespace noughts::ultimate_eval_weights {",
        "",
        "// One network per rule set: [0] the seeds' rules, [1] CodinGame's board-count scoring.",
        f"inline constexpr int kRuleSets = {len(nets)};",
        f"inline constexpr int kFeatures = {w1.shape[0]};",
        f"inline constexpr int kHidden = {w1.shape[1]};",
        "// kInput[r][f]: the hidden layer's weights of feature f in rule set r's network.",
        "alignas(64) inline constexpr float kInput[kRuleSets][kFeatures][kHidden] = {",
    ]
    for net in nets:
        lines += ["  {", *[f"    {{{row(r)}}}," for r in net["w1"]], "  },"]
    lines += ["};", "alignas(64) inline constexpr float kHiddenBias[kRuleSets][kHidden] = {"]
    lines += [f"  {{{row(net['b1'])}}}," for net in nets]
    lines += ["};", "alignas(64) inline constexpr float kOutput[kRuleSets][kHidden] = {"]
    lines += [f"  {{{row(net['w2'])}}}," for net in nets]
    lines += [
        "};",
        f"inline constexpr float kOutputBias[kRuleSets] = {{{row(np.array([float(net['b2'][0]) for net in nets]))}}};",
        "",
        "}  // namespace noughts::ultimate_eval_weights",
        "",
    ]
    header.write_text("\n".join(lines))
    print(f"wrote {header}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("selfplay")
    p.add_argument("--games", type=int, default=6000)
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--tiebreak", action="store_true", help="play CodinGame's scoring (Ultimate(tiebreak=True))")
    p = sub.add_parser("label")
    p.add_argument("--data", type=Path, required=True, help="a self-play file")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seconds", type=float, default=1.0, help="the proof-number search's limit a position")
    p.add_argument("--nodes", type=int, help="limit each position by nodes instead (the same labels on any machine)")
    p.add_argument("--from-ply", type=int, default=24, help="label positions with at least this many marks")
    p.add_argument("--games", type=int, help="label the first this many games only (default: all)")
    p = sub.add_parser("train")
    p.add_argument("--data", type=Path, nargs="+", required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mix", type=float, default=0.5, help="weight of the search's value against the result")
    p.add_argument("--hidden", type=int, default=HIDDEN, help="neurons of the hidden layer")
    p.add_argument("--rules", choices=sorted(RULES), help="train on this rule set's positions only (default: all)")
    p.add_argument(
        "--init",
        type=Path,
        help="start from this network (a file written by train, or HEADER.hpp:seed / HEADER.hpp:codingame); "
        "a wider network keeps its units and adds fresh ones",
    )
    p.add_argument(
        "--draw-weight", type=float, default=0.5, help="how far a proved draw moves its target toward 0 (0 .. 1)"
    )
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's first learning rate (it falls by a fifth an epoch)")
    p = sub.add_parser("export")
    p.add_argument(
        "--net",
        type=Path,
        required=True,
        help="the network of the seeds' rules (a file of train's, or HEADER.hpp:seed)",
    )
    p.add_argument(
        "--tiebreak-net", type=Path, required=True, help="the network of CodinGame's scoring (or HEADER.hpp:codingame)"
    )
    p.add_argument("--header", type=Path, default=HEADER)
    p.add_argument("--recipe", action="append", default=[], help="a command of the pipeline, for the header")
    args = parser.parse_args(argv)
    if args.step == "selfplay":
        selfplay(args.games, args.iterations, args.seed, args.out, args.tiebreak)
    elif args.step == "label":
        label(args.data, args.out, args.seconds, args.from_ply, args.nodes, args.games)
    elif args.step == "train":
        train(
            args.data,
            args.out,
            args.epochs,
            args.seed,
            args.mix,
            args.hidden,
            args.rules,
            args.init,
            args.lr,
            args.draw_weight,
        )
    else:
        export(
            [args.net, args.tiebreak_net],
            args.header,
            "python scripts/train_ultimate_eval.py " + " ".join(sys.argv[1:]),
            args.recipe,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
