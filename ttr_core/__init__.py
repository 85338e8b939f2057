"""ttr_core: the Ticket to Ride rules engine, bots, simulation and the `ttr` command.

It plays any map validated by `ttr_maps`. Importing it does not import matplotlib,
jsonschema or networkx.
"""
