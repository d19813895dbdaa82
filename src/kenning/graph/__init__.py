"""The semantic memory graph: link rules, traversal, ranking structure and health."""
