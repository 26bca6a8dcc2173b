"""A scratch script, outside the project's include."""

limit: int = "ten"
