"""Train the learned disclosure gate (bench/learned_gate/gate.py) on the tuning set only.

Samples are the sentences of the tuning messages that reach the gate (see
``bench/learned_gate/samples.py``), labelled with their message's ``durable`` label: a
sentence of a message that should store nothing is a negative, a sentence of a
durable message a (noisy) positive. Features are word n-grams and parse features
(``bench/learned_gate/features.py``), kept when seen in at least ``MIN_COUNT`` training
sentences; the model is an L2-regularised logistic regression (scikit-learn's
lbfgs, deterministic for the same data).

The penalty and the thresholds are chosen by K-fold cross-validation, folds drawn
by the sha1 of the message text (both LoCoMo labellings of one turn fall in one
fold): each fold's sentences are scored by a gate fitted on the other folds (its
vocabulary too), and the WHOLE extractor is scored message by message as
``bench.extraction_eval`` counts it. The highest out-of-fold recall with
precision >= ``MIN_PRECISION`` wins (else the best F0.5); the final gate is fitted
on every tuning sentence and written as JSON. The rules themselves were tuned on
these messages, so the rules-only figure printed next to it is in-sample; the
gate's part of the out-of-fold figure is honest. The held-out sets are never read.

    python -m bench.learned_gate.train [--out bench/learned_gate/model.json] [--folds 5] [--curve]

``--curve`` also prints what additions would buy at each threshold (out of fold, at the chosen penalty and
veto) and with an oracle that knows each message's label: the ceiling of the candidates the gate can add.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from bench.extraction_eval import load_set
from bench.learned_gate.gate import MODEL_PATH, Thresholds
from bench.learned_gate.samples import Sample, Samples, collect, pipeline_scores

MIN_COUNT = 2
MIN_PRECISION = 0.95
PENALTIES = (0.1, 0.3, 1.0)  # sklearn's C: smaller is stronger regularisation
VETO = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4)
VETO_KEYED = (0.0, 0.02, 0.05, 0.1)
ADD = (0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.01)
DECIMALS = 4


def vocabulary(samples: Sequence[Sample]) -> list[str]:
    """Features seen in at least MIN_COUNT sentences, sorted."""
    counts = Counter(f for s in samples for f in s.features)
    return sorted(f for f, n in counts.items() if n >= MIN_COUNT)


def matrix(samples: Sequence[Sample], vocab: Sequence[str]) -> csr_matrix:
    """Binary sample-by-feature matrix."""
    index = {f: j for j, f in enumerate(vocab)}
    rows, cols = [], []
    for i, s in enumerate(samples):
        for f in s.features:
            if f in index:
                rows.append(i)
                cols.append(index[f])
    return csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(samples), len(vocab)))


def fit(samples: Sequence[Sample], labels: np.ndarray, penalty: float) -> tuple[dict[str, float], float]:
    """(weight per feature, bias), rounded as shipped so cross-validation scores the same model it writes."""
    vocab = vocabulary(samples)
    model = LogisticRegression(C=penalty, solver="lbfgs", max_iter=5000, tol=1e-8)
    model.fit(matrix(samples, vocab), labels)
    weights = {f: round(float(w), DECIMALS) for f, w in zip(vocab, model.coef_[0])}
    return {f: w for f, w in weights.items() if w != 0.0}, round(float(model.intercept_[0]), DECIMALS)


def probabilities(samples: Sequence[Sample], weights: dict[str, float], bias: float) -> np.ndarray:
    """P(durable) of each sample under one fitted gate (the runtime's sum of weights)."""
    z = np.array([bias + sum(weights.get(f, 0.0) for f in s.features) for s in samples])
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def folds_of(data: Samples, k: int) -> np.ndarray:
    """Each sample's fold, by the sha1 of its message's text."""
    by_case = [int(hashlib.sha1(c.text.strip().lower().encode()).hexdigest(), 16) % k for c in data.cases]
    return np.array([by_case[s.case] for s in data.gated])


def out_of_fold(data: Samples, labels: np.ndarray, fold: np.ndarray, k: int, penalty: float) -> np.ndarray:
    """Each sample's probability from a gate fitted without its fold."""
    p = np.zeros(len(data.gated))
    for j in range(k):
        train = [s for s, f in zip(data.gated, fold) if f != j]
        weights, bias = fit(train, labels[fold != j], penalty)
        p[fold == j] = probabilities([s for s, f in zip(data.gated, fold) if f == j], weights, bias)
    return p


def f_half(precision: float, recall: float) -> float:
    """F0.5: precision counts twice as much as recall."""
    return 1.25 * precision * recall / (0.25 * precision + recall) if precision + recall else 0.0


def choose(data: Samples, labels: np.ndarray, fold: np.ndarray, k: int) -> tuple[float, Thresholds, dict[str, float]]:
    """The penalty and thresholds with the best out-of-fold pipeline score, and that score."""
    best: tuple[tuple[bool, float], float, Thresholds, dict[str, float]] | None = None
    for penalty in PENALTIES:
        p = out_of_fold(data, labels, fold, k, penalty)
        for veto, veto_keyed, add in itertools.product(VETO, VETO_KEYED, ADD):
            if veto_keyed > veto:
                continue  # keyed facts are vetoed only where loose ones are
            t = Thresholds(veto=veto, veto_keyed=veto_keyed, add=add)
            s = pipeline_scores(data, p, t)
            rank = (s.precision >= MIN_PRECISION, s.recall if s.precision >= MIN_PRECISION else f_half(
                s.precision, s.recall))
            if best is None or rank > best[0]:
                figures = {"precision": s.precision, "recall": s.recall, "tp": s.tp, "fp": s.fp, "fn": s.fn,
                           "traps_stored": s.stored_from()}
                best = (rank, penalty, t, figures)
        print(f"  penalty {penalty}: best so far {best[2]} -> {_line(best[3])}")
    assert best is not None
    return best[1], best[2], best[3]


def print_curve(data: Samples, labels: np.ndarray, p: np.ndarray, veto: float) -> None:
    """Whole-pipeline precision/recall as the add threshold falls, for ``p`` and for an oracle (p = label)."""
    for name, probs in (("out of fold", p), ("oracle", labels)):
        for add in sorted(ADD, reverse=True):
            s = pipeline_scores(data, probs, Thresholds(veto=veto if name != "oracle" else 0.5, add=add))
            print(f"  additions {name:<11} add >= {add:<4}: P {s.precision:.3f} R {s.recall:.3f} "
                  f"(tp {s.tp} fp {s.fp} fn {s.fn})")


def _line(figures: dict[str, float]) -> str:
    return ("P {precision:.3f} R {recall:.3f} (tp {tp} fp {fp} fn {fn}, traps stored {traps_stored})"
            .format(**figures))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--curve", action="store_true", help="print the additions' precision/recall curve")
    args = parser.parse_args(argv)
    data = collect(load_set("tuning"))
    labels = np.array([float(data.cases[s.case].durable) for s in data.gated])
    fold = folds_of(data, args.folds)
    rules = pipeline_scores(data, np.ones(len(data.gated)), Thresholds())
    rules_only = {"precision": rules.precision, "recall": rules.recall, "tp": rules.tp, "fp": rules.fp,
                  "fn": rules.fn, "traps_stored": rules.stored_from()}
    print(f"{len(data.cases)} tuning messages, {len(data.gated)} gated sentences ({int(labels.sum())} positive)")
    print(f"rules only (in-sample: the rules were tuned on these): {_line(rules_only)}")
    penalty, thresholds, oof = choose(data, labels, fold, args.folds)
    print(f"rules + gate, {args.folds}-fold out-of-fold: {_line(oof)}")
    if args.curve:
        print_curve(data, labels, out_of_fold(data, labels, fold, args.folds, penalty), thresholds.veto)
    weights, bias = fit(data.gated, labels, penalty)
    model = {"bias": bias, "thresholds": vars(thresholds),
             "trained": {"messages": len(data.cases), "sentences": len(data.gated), "penalty": penalty,
                         "folds": args.folds, "min_count": MIN_COUNT, "rules_only_in_sample": rules_only,
                         "out_of_fold": oof},
             "weights": dict(sorted(weights.items()))}
    args.out.write_text(json.dumps(model, indent=0, sort_keys=False) + "\n", encoding="utf-8")
    print(f"chose penalty {penalty}, {thresholds}; {len(weights)} weights; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
