"""The message log's ranking levers that were measured and left off, with the layer that runs them.

Reached only by the benchmarks (bench/locomo_rows.py and the scripts that compare levers);
the runtime's ``memory.layers.message_log.MessageLogLayer`` never imports this package.
"""
