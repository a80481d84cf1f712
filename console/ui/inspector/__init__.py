"""The request inspector: the request, its signature and the answer, side by side."""
