"""Would a learned detector find ended states the rules miss? ``python -m bench.ending_detector``.

An experiment for issue 45, off the runtime: MiniLM sentence embeddings and a logistic regression,
trained on the ``dev`` rows of the ``ended`` class of ``bench/datasets/rule_classes.jsonl``,
against the rules' own detection (any stored negation, whatever its words) on the ``heldout``
rows, printed as summaries only. It answers "does this message report an ending?", not "what
ended": a detector would still need the parse to name the thing, so its figures are an upper
bound on what it could add.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np
from sklearn.linear_model import LogisticRegression

from bench.rule_classes_eval import DEFAULT_SET, endings, row_number
from models.local_embeddings import LocalEmbeddings


def _figures(pred: np.ndarray, truth: np.ndarray, mask: np.ndarray) -> str:
    tp, fp, fn = int((pred & truth & mask).sum()), int((pred & ~truth & mask).sum()), int((~pred & truth & mask).sum())
    return f"P {tp / max(tp + fp, 1):.3f} R {tp / max(tp + fn, 1):.3f} (tp {tp} fp {fp} fn {fn})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--thresholds", default="0.5,0.7", help="detector probabilities to report")
    parser.add_argument("--batch-from", type=int, default=1037, metavar="N", help="first id of the newest batch")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in DEFAULT_SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r["class"] == "ended"]
    vectors = np.array(LocalEmbeddings().embed_documents([r["text"] for r in rows]))
    truth = np.array([bool(r["expect"]) for r in rows])
    dev = np.array([r["split"] == "dev" for r in rows])
    newest = np.array([row_number(r) >= args.batch_from for r in rows])
    rules = np.array([bool(endings(r["text"])) for r in rows])
    model = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(vectors[dev], truth[dev])
    chance = model.predict_proba(vectors)[:, 1]
    for name, mask in ((f"held out, before rc-{args.batch_from}", ~dev & ~newest),
                       (f"held out, rc-{args.batch_from} on", ~dev & newest), ("held out, all", ~dev)):
        print(f"{name}: rules {_figures(rules, truth, mask)}")
        for t in (float(x) for x in args.thresholds.split(",")):
            found = chance >= t
            print(f"  detector >= {t}: {_figures(found, truth, mask)}; with the rules {_figures(rules | found, truth, mask)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
