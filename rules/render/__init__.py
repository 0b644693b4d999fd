"""Renderers: one module per output file, each declaring a `RENDERER` (see `base`).

Renderers only format; every decision was made by a rule. `registry.REGISTRY` lists them,
and `registry.render_all` writes the files that apply to the inventory.
"""
