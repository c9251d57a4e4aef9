"""Would a learned detector find ended states the rules miss? ``python -m bench.ending_detector``.

An experiment for issue 45, off the runtime: MiniLM sentence embeddings and a logistic regression,
trained on the ``dev`` rows of the ``ended`` class of ``bench/datasets/rule_classes.jsonl``,
against the rules' own detection (any stored negation, whatever its words) on the ``heldout``
rows, printed as summaries only. It answers "does this message report an ending?", not "what
ended": a detector would still need the parse to name the thing, so its figures are an upper
bound on what it could add. ``--with-reader`` measures that second half too: where the rules store
no ending and the detector fires, a naive reader names the root verb's object as what ended, and
the result is scored with the eval's own matching.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

import numpy as np
from sklearn.linear_model import LogisticRegression

from bench.rule_classes_eval import DEFAULT_SET, Item, _ended_match, endings, row_number
from memory.write_policy.parse import doc_of
from models.local_embeddings import LocalEmbeddings


def _figures(pred: np.ndarray, truth: np.ndarray, mask: np.ndarray) -> str:
    tp, fp, fn = int((pred & truth & mask).sum()), int((pred & ~truth & mask).sum()), int((~pred & truth & mask).sum())
    return f"P {tp / max(tp + fp, 1):.3f} R {tp / max(tp + fn, 1):.3f} (tp {tp} fp {fp} fn {fn})"


def _object_of_root(text: str) -> list[str]:
    """The first object of the main verb, its own words without determiners (the naive reader)."""
    doc = doc_of(text)
    for t in doc if doc is not None else ():
        if t.dep_ == "dobj" and t.head.dep_ in ("ROOT", "conj") or t.dep_ == "pobj" and t.head.head.dep_ == "ROOT":
            return [" ".join([w.text for w in t.subtree if w.dep_ not in ("det", "poss") and not w.is_punct][:4])]
    return []


def _with_reader(rows: list[Item], chance: np.ndarray, mask: np.ndarray, threshold: float) -> str:
    tp = fp = fn = 0
    for row, p, chosen in zip(rows, chance, mask, strict=True):
        if not chosen:
            continue
        preds = endings(row["text"]) or (_object_of_root(row["text"]) if p >= threshold else [])
        hit = [any(_ended_match(x, w) for x in preds) for w in row["expect"]]
        tp, fn = tp + sum(hit), fn + len(hit) - sum(hit)
        fp += sum(not any(_ended_match(x, w) for w in row["expect"]) for x in preds)
    return f"P {tp / max(tp + fp, 1):.3f} R {tp / max(tp + fn, 1):.3f} (tp {tp} fp {fp} fn {fn})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--thresholds", default="0.5,0.7", help="detector probabilities to report")
    parser.add_argument("--with-reader", action="store_true", help="also score detector + naive object reader")
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
            if args.with_reader:
                print(f"    rules, else detector and the naive reader, ended words: {_with_reader(rows, chance, mask, t)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
