"""Model providers registered through the uxbench entry point."""
