"""The octet task families, one module per subsystem (rte-a ... rte-h)."""
from . import code, entities, formats, logic, numbers, relations, safety, style

SUBSYSTEMS = ("rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h")

TASKS_BY_SUBSYSTEM = {
    "rte-a": entities.TASKS,
    "rte-b": relations.TASKS,
    "rte-c": numbers.TASKS,
    "rte-d": logic.TASKS,
    "rte-e": code.TASKS,
    "rte-f": style.TASKS,
    "rte-g": formats.TASKS,
    "rte-h": safety.TASKS,
}
