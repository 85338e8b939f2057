"""Reading and writing files: YAML documents with positions, guarded reads and
atomic writes, the reader's limits, city names as YAML scalars and where the
bundled maps and schemas live. It knows no rule and no map: writing maps is
`ttr_maps.authoring`'s.
"""
