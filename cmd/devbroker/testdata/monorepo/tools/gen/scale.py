"""Scale the service's request budget."""


def scale(budget, factor: float) -> float:
    return float(budget) * factor
