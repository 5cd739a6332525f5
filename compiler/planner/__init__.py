"""Static memory planning: liveness intervals and offset assignment."""

from .plan import MemoryPlan, PlannedBuffer, plan_memory

__all__ = ["MemoryPlan", "PlannedBuffer", "plan_memory"]
