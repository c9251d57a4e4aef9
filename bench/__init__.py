"""Benchmarks of the memory agent, and the labelled sets they read (``bench/datasets/``)."""

from pathlib import Path

DATASETS = Path(__file__).resolve().parent / "datasets"
