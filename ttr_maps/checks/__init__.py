"""Design checks: graph, geometry and balance lints with stable codes."""
