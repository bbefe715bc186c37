"""One pattern for the list settings (layers, keep-away rules, fixed tiles): add an item, remove the active one.

A subclass names its list with :meth:`ListEdit.target` (the owner, the collection property, the active index
property) and the message shown when there is none; adding fills the new item with :meth:`ListAdd.fill` and
makes it active, removing keeps the active index on the item that slides into the removed one's place.
"""

from __future__ import annotations

from typing import Any

import bpy


class ListEdit:
    """Base of the list operators (never registered itself)."""

    missing = "There is no list to edit here"
    """The poll message when :meth:`target` finds no list."""

    @classmethod
    def target(cls, context: bpy.types.Context) -> tuple[Any, str, str] | None:
        """``(owner, collection property, active index property)``, or None."""
        raise NotImplementedError

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None or cls.target(context) is None:
            cls.poll_message_set(cls.missing)
            return False
        return True


class ListAdd(ListEdit):
    """Add an item after the active one and make it active."""

    def fill(self, context: bpy.types.Context, owner: Any, item: Any) -> None:
        """Give the new item its first values (nothing by default)."""

    def execute(self, context: bpy.types.Context) -> set[str]:
        found = self.target(context)
        assert found is not None
        owner, name, active = found
        items = getattr(owner, name)
        item = items.add()
        self.fill(context, owner, item)
        last = len(items) - 1
        place = min(getattr(owner, active) + 1, last) if last else 0
        items.move(last, place)
        setattr(owner, active, place)
        return {'FINISHED'}


class ListRemove(ListEdit):
    """Remove the active item; the one after it (or the new last one) becomes active."""

    empty = "The list is empty"
    """The poll message when the list has no item."""

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not super().poll(context):
            return False
        owner, name, _active = cls.target(context)
        if not len(getattr(owner, name)):
            cls.poll_message_set(cls.empty)
            return False
        return True

    def execute(self, context: bpy.types.Context) -> set[str]:
        found = self.target(context)
        assert found is not None
        owner, name, active = found
        items = getattr(owner, name)
        index = max(0, min(getattr(owner, active), len(items) - 1))
        items.remove(index)
        setattr(owner, active, max(0, min(index, len(items) - 1)))
        return {'FINISHED'}
