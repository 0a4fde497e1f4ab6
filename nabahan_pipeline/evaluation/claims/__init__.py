"""The insight read as claims and each checked against the rows the agent's SQL returned (one
module per idea; docs/internals.md maps them). Import a name from its module: this face loads
nothing, so that importing the words does not import the checker (1 s, measured with -X importtime)."""
