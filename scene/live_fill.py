"""The Scatter button's sampler under Live Update: the full job, whose results the next live edit starts from.

Without it the first edit after a Scatter found the live cache empty (or filled by an older run) and sampled every
layer again. The Scatter computes everything anyway; :class:`FillingSampler` keeps what it computed in a fresh
:class:`~.job_cache.JobCache` (nothing is taken from an earlier run, so the output is the plain job's) and, once
the job has written its output, hands the entries to the scene's live update: the terrain read and lookup, each
layer's fields, sampled points and chunk run, and its Exclude and Proximity objects' bounds — one entry per
surface and per layer, as a live run keeps.
"""

from __future__ import annotations

import bpy

from .job_cache import JobCache
from .layer_surface import Sampler
from .live_cache import CachedSampler
from .live_update import LiveUpdate, service
from .scatter_spec import ScatterInput


class FillingSampler(CachedSampler):
    """A :class:`~.live_cache.CachedSampler` over an empty cache, handed to ``live`` when the job finished."""

    def __init__(self, live: LiveUpdate) -> None:
        super().__init__(JobCache())
        self.live = live

    def finished(self, scene: bpy.types.Scene, job: ScatterInput) -> None:
        self.live.cache.take(self.cache)
        CachedSampler(self.live.cache).finished(scene, job)  # forget layers and surfaces that are gone


def scatter_sampler(scene: bpy.types.Scene) -> Sampler | None:
    """The sampler the Scatter button runs with: one that fills the live cache when Live Update is on, else None
    (the plain job; nothing is kept)."""
    settings = getattr(scene, "strew", None)
    if settings is None or not settings.live_update:
        return None
    return FillingSampler(service(scene))
