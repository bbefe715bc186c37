"""The demo (``python -m strew demo``, ``make demo``): built from numbers, no assets.

``valley`` is the Scatter scene (terrain, river, road, three layers), ``room`` the two-storey tile room and ``kit``
its 53-tile kit (also the Build Demo Kit operator's), ``render`` the cameras and Cycles settings they share, and
``build`` puts them together, saves the .blend and renders the pictures.
"""
