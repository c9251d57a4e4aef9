"""Train the message log's learned fusion on the two locomo-dev conversations, and nothing else.

Features are standardised over the training rows (so one penalty treats them alike) and
the fit is folded back into weights on the raw features. Model choice and regularisation
by cross-validation across the conversations: fit on one, rank the other's candidate
pools, and the reverse; the figure pooled over both
test folds is the honest dev number (the hand-set rerank of today, scored on the same
pools, is printed beside it; it was tuned on both, so it is in-sample). Two models: a
pointwise logistic regression (is this candidate evidence?) and a pairwise linear ranker
(logistic regression on the difference of an evidence and a non-evidence candidate of
one question). The winner is refit on both conversations and written, rounded, to
``bench/learned_fusion/message_fusion.json`` (an opt-in of the benchmarks, never the runtime's
default: LoCoMo is CC BY-NC 4.0); the two cross-validation fits go to
``bench/learned_fusion/cv_models.json`` for the ablation's cross-validated row. The
project's hold-out (bench/datasets/holdout) is never read here. scikit-learn's lbfgs
is deterministic for the same rows.

    python -m bench.learned_fusion.train [--refresh]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from bench.learned_fusion.candidates import Pools, collect
from bench.learned_fusion.model import FEATURES, WEIGHTS_PATH, FusionModel
from bench.locomo_recall import DEFAULT_DATA
from bench.recall_metrics import CATEGORIES

CV_PATH = Path(__file__).with_name("cv_models.json")
PENALTIES = (0.01, 0.1, 1.0, 10.0, 100.0)  # sklearn's C: smaller is stronger regularisation
DECIMALS = 4
Fit = Callable[[Pools, float], FusionModel]


def _scale(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each feature's mean and spread over the training rows (1 for a constant one)."""
    spread = x.std(axis=0)
    return x.mean(axis=0), np.where(spread > 0, spread, 1.0)


def _model(clf: LogisticRegression, mean: np.ndarray, spread: np.ndarray) -> FusionModel:
    """The fit on standardised features, folded back into weights on the raw ones."""
    w = clf.coef_[0] / spread
    bias = (float(clf.intercept_[0]) if clf.fit_intercept else 0.0) - float(w @ mean)
    return FusionModel(round(bias, DECIMALS), tuple(round(float(v), DECIMALS) for v in w))


def pointwise(pools: Pools, c: float) -> FusionModel:
    """Logistic regression on single candidates: evidence or not."""
    mean, spread = _scale(pools.x)
    return _model(LogisticRegression(C=c, max_iter=3000).fit((pools.x - mean) / spread, pools.y), mean, spread)


def pairwise(pools: Pools, c: float) -> FusionModel:
    """Logistic regression on (evidence - other) differences of one question, both orientations."""
    mean, spread = _scale(pools.x)
    z = (pools.x - mean) / spread
    diffs = []
    for q in np.unique(pools.question):
        rows = pools.question == q
        pos, neg = z[rows & (pools.y == 1)], z[rows & (pools.y == 0)]
        if len(pos) and len(neg):
            diffs.append((pos[:, None, :] - neg[None, :, :]).reshape(-1, pools.x.shape[1]))
    d = np.concatenate(diffs)
    x, y = np.concatenate([d, -d]), np.concatenate([np.ones(len(d)), np.zeros(len(d))])
    return _model(LogisticRegression(C=c, max_iter=3000, fit_intercept=False).fit(x, y), mean, spread)


MODELS: dict[str, Fit] = {"pointwise logistic": pointwise, "pairwise linear": pairwise}


def hand_set(x: np.ndarray) -> np.ndarray:
    """The runtime's rerank (message_rank.cue_score with the layer's default boosts) from the feature columns."""
    col = {name: x[:, i] for i, name in enumerate(FEATURES)}
    return (col["fused rank"] * (1 + 0.3 * col["named speaker"]) * (1 + 0.3 * col["dated, for a 'when' question"])
            * (1 + 0.3 * col["said in the period named"]) * (1 + 0.5 * col["query words in the message"]))


def recall(pools: Pools, scores: np.ndarray, k: int = 10) -> np.ndarray:
    """R@k per question when each pool is ordered by ``scores`` (ties keep the store's order)."""
    out = np.zeros(len(pools.category))
    for q in range(len(pools.category)):
        rows = np.flatnonzero(pools.question == q)
        order = rows[np.argsort(-scores[rows], kind="stable")][:k]
        out[q] = pools.y[order].sum() / pools.n_evidence[q]
    return out


def summary(pools: list[Pools], per_question: list[np.ndarray]) -> str:
    """Overall R@10 and per category, pooled over conversations."""
    r, cat = np.concatenate(per_question), np.concatenate([p.category for p in pools])
    parts = [f"{name} {r[cat == c].mean():.3f}" for c, name in CATEGORIES.items()]
    return f"R@10 {r.mean():.3f} ({', '.join(parts)})"


def merged(pools: list[Pools]) -> Pools:
    """Several conversations' pools as one, question numbers kept apart."""
    offsets = np.cumsum([0, *(len(p.category) for p in pools[:-1])])
    return Pools(np.concatenate([p.x for p in pools]), np.concatenate([p.y for p in pools]),
                 np.concatenate([p.question + o for p, o in zip(pools, offsets)]),
                 np.concatenate([p.category for p in pools]), np.concatenate([p.n_evidence for p in pools]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true", help="re-collect the candidate pools (re-import)")
    args = parser.parse_args(argv)
    folders = sorted(p for p in DEFAULT_DATA.iterdir() if (p / "conversation.jsonl").exists())
    pools = [collect(f, args.refresh) for f in folders]
    print("hand-set rerank of today (in-sample):", summary(pools, [recall(p, hand_set(p.x)) for p in pools]))
    best: tuple[float, str, float] | None = None
    for name, fit in MODELS.items():
        for c in PENALTIES:
            held = [recall(pools[i], fit(pools[1 - i], c).scores(pools[i].x)) for i in range(2)]
            mean = float(np.concatenate(held).mean())
            print(f"cross-validated {name}, C={c}: {summary(pools, held)}")
            if best is None or mean > best[0] + 1e-9:
                best = (mean, name, c)
    assert best is not None
    _, name, c = best
    fit = MODELS[name]
    cv = {folders[i].name: fit(pools[1 - i], c) for i in range(2)}
    final = fit(merged(pools), c)
    held = [recall(pools[i], cv[folders[i].name].scores(pools[i].x)) for i in range(2)]
    print(f"chosen: {name}, C={c}; cross-validated {summary(pools, held)}")
    print("refit on both (in-sample):", summary(pools, [recall(p, final.scores(p.x)) for p in pools]))
    record = {"model": name, "C": c, "features": list(FEATURES)}
    WEIGHTS_PATH.write_text(json.dumps({**record, "trained_on": "bench/datasets/locomo-dev (both conversations)",
                                        "bias": final.bias, "weights": list(final.weights)}, indent=1) + "\n")
    CV_PATH.write_text(json.dumps({**record, "held_out": {k: {"bias": m.bias, "weights": list(m.weights)}
                                                          for k, m in cv.items()}}, indent=1) + "\n")
    print(f"wrote {WEIGHTS_PATH} and {CV_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
