"""The client side of the v4 contract. No Qt, no printing: fronts ask, the core answers."""
