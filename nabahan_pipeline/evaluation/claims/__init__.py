"""The insight read as claims, each checked against the rows the agent's SQL returned. This face
loads nothing (importing the checker takes 1 s): import a name from its module."""
