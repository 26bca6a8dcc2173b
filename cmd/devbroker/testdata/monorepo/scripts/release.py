"""Bump the release number (a script of the root, in no project)."""


def bump(version):
    return version + 1


release: int = "1"
