"""Helpers the tests share (fixtures stay in conftest.py): no test module imports another."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
