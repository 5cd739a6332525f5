"""Graph passes run between the frontend and the memory planner."""

from .pipeline import run_passes

__all__ = ["run_passes"]
