"""Helpers the tests share: record writers, grader outputs, pipeline runs, published-layout
fixtures and a raw HTTP server."""
