"""Reading and writing files: YAML documents with positions, guarded reads and
atomic writes, the reader's limits, the bundled maps, starter maps and the
ticket-block writer.
"""
