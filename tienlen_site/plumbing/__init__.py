"""The site's plumbing: middleware, the cache backend, the client's address, the body limit,
probes, work after the response, the unavailable page and the request types views are written
against. It knows nothing of Tiến Lên and imports nothing of ``scoring``."""
