"""Helpers the tests share (fixtures stay in conftest.py): no test module imports another."""
